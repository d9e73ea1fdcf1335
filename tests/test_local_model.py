"""The real local model behind llama-cpp-python's own OpenAI-compatible server: the fake server
proves each fallback exists, this proves they are the ones a real server needs.

Needs `make local-llm` (CI runs it before `make test`); skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.llm.local import unavailable_reason

REPO = Path(__file__).resolve().parents[1]
REASON = unavailable_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"local model not installed: {REASON}")


def test_every_schema_we_send_is_a_grammar_llama_cpp_accepts() -> None:
    """llama.cpp turns a json_object schema into a grammar and, on a schema its converter does
    not know, silently decodes "any JSON" instead: every schema must convert as sent."""
    from llama_cpp import llama_grammar

    from smh_core.agent.dr import DROutput
    from smh_core.agent.synthesizer import rule_schema
    from smh_core.agent.tools import tool_schemas
    from smh_core.llm.client import response_format
    from smh_core.llm.tool_protocol import call_schemas

    schemas = [*call_schemas(tool_schemas()), DROutput.model_json_schema(), rule_schema()]
    for schema in schemas:
        sent = response_format("json_object", schema, "x")["schema"]
        grammar = llama_grammar.LlamaGrammar.from_json_schema(json.dumps(sent), verbose=False)
        assert "root ::=" in grammar._grammar
        assert "pattern" not in json.dumps(sent)  # patterns crashed the server's grammar parser


def _smh(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smh_core.cli.main", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)


def _records(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_real_model_runs_eia_dr_and_memory_with_no_infra_failure(tmp_path) -> None:
    """Three tasks per agent path through `--agent local` (the runner starts and stops the
    server): nothing is an infrastructure failure, EIA makes real tool calls over the prompted
    protocol, DR gets grammar-constrained JSON, the memory decision step completes."""
    tasks = tmp_path / "tasks.jsonl"
    sample = (REPO / "tasks" / "sample.jsonl").read_text().splitlines()
    memhome = (REPO / "tasks" / "memhome.jsonl").read_text().splitlines()
    picked = [line for line in sample if json.loads(line)["id"] in ("exec-1", "query-1")] + memhome[1:2]
    tasks.write_text("\n".join(picked) + "\n")
    (tmp_path / "homes").mkdir()
    shutil.copy(REPO / "tasks" / "homes" / "tiny.json", tmp_path / "homes" / "tiny.json")

    eia = _smh("bench", "run", "--tasks", str(tasks), "--agent", "local", "--setting", "eia", "--budget", "4",
               "--out", str(tmp_path / "eia"), "--quiet")
    assert eia.returncode == 0, eia.stderr[-3000:]
    records = _records(tmp_path / "eia")
    assert len(records) == 3 and [r for r in records if "infra" in r] == []
    assert all(r["protocol"] == {"tools": "prompted", "structured": "json_object"} for r in records)
    calls = [c for r in records for c in r["outcome"]["tool_calls"]]
    assert calls, "the model made no tool call at all"
    memory = next(r for r in records if r["suite"] == "memhome")
    assert memory["outcome"].get("memory_output") is not None  # the decision step ran and answered

    dr = _smh("bench", "run", "--tasks", str(tasks), "--agent", "local", "--setting", "dr",
              "--out", str(tmp_path / "dr"), "--quiet")
    assert dr.returncode == 0, dr.stderr[-3000:]
    records = _records(tmp_path / "dr")
    assert len(records) == 3 and [r for r in records if "infra" in r] == []
    assert all(r["protocol"] == {"structured": "json_object"} for r in records)
    # FRF here can only be the model's own output cut at max_tokens, never a refused request
    for r in records:
        if r["verdict"]["error_class"] == "FRF":
            assert r["usage"].get("truncated"), r


@pytest.mark.slow
def test_real_model_synthesizes_automations_without_exceptions(tmp_path) -> None:
    home = tmp_path / "home.json"
    made = _smh("home", "generate", "--level", "simple", "--seed", "0", "--out", str(home))
    assert made.returncode == 0, made.stderr
    run = _smh("automation", "synthesize", "turn on the kitchen light every day at 7 am", "--home", str(home),
               "--local", "--tries", "2")
    assert run.returncode in (0, 1), run.stderr[-3000:]  # 1: no valid rule from a 135M model is fine
    assert "Traceback" not in run.stderr and "endpoint failed" not in run.stderr
    assert run.stderr.count("try ") >= 1 or run.returncode == 0


def _answers(url: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return reply.status == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_the_model_server_never_outlives_smh(socket_enabled, how) -> None:
    """`smh model serve` stopped politely or killed with -9: its llama.cpp server goes too
    (a leftover server would hold the CPU for every later run)."""
    import signal
    import time

    from smh_core.llm.local import free_port

    port = free_port()
    url = f"http://127.0.0.1:{port}/v1/models"
    parent = subprocess.Popen([sys.executable, "-m", "smh_core.cli.main", "model", "serve", "--port", str(port)],
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not _answers(url):
            assert parent.poll() is None, parent.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.3)
        parent.send_signal(getattr(signal, how))
        parent.wait(30)
        deadline = time.monotonic() + 15
        while _answers(url):
            assert time.monotonic() < deadline, f"the server outlived smh after {how}"
            time.sleep(0.3)
    finally:
        if parent.poll() is None:
            parent.kill()
