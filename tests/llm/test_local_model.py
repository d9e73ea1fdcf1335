"""The real local model behind llama-cpp-python's own OpenAI-compatible server: the fake server
proves each fallback exists, this proves they are the ones a real server needs.

Needs `make local-llm` (CI runs it before `make test`); skipped with the reason otherwise.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.llm.local import unavailable_reason

REPO = Path(__file__).resolve().parents[2]
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

    ids = {"did": ["1001", "light.kitchen_2", "@living_room", 'odd "quoted" id'], "room": ["a b"]}
    schemas = [
        *call_schemas(tool_schemas()),
        *call_schemas(tool_schemas(), ids),
        DROutput.model_json_schema(),
        rule_schema(),
    ]
    for schema in schemas:
        sent = response_format("json_object", schema, "x")["schema"]
        grammar = llama_grammar.LlamaGrammar.from_json_schema(json.dumps(sent), verbose=False)
        assert "root ::=" in grammar._grammar
        assert "pattern" not in json.dumps(sent)  # patterns crashed the server's grammar parser


def _smh(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
    )


def _records(out: Path) -> list[dict]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_real_model_runs_eia_dr_and_memory_with_no_infra_failure(tmp_path) -> None:
    """Each agent path through `--agent local` once (the runner starts and stops the server):
    nothing is an infrastructure failure, EIA makes real tool calls over the prompted protocol
    (a control task) and its memory decision step completes (a MemHome task), DR gets
    grammar-constrained JSON (a query). One task a path, not three: on 2 busy cores each task
    is a minute or more, and this is the longest test of `make test`."""
    sample = {
        json.loads(line)["id"]: line
        for line in (REPO / "tasks" / "sample.jsonl").read_text().splitlines()
        if line.strip()
    }
    memhome = (REPO / "tasks" / "memhome.jsonl").read_text().splitlines()
    tasks, dr_tasks = tmp_path / "tasks.jsonl", tmp_path / "dr-tasks.jsonl"
    tasks.write_text(sample["exec-1"] + "\n" + memhome[1] + "\n")
    dr_tasks.write_text(sample["query-1"] + "\n")
    (tmp_path / "homes").mkdir()
    shutil.copy(REPO / "tasks" / "homes" / "tiny.json", tmp_path / "homes" / "tiny.json")

    # sized for 2 busy cores: three tool calls and 160 tokens a call at most; a call may take minutes
    # there, and a timeout would be recorded as infra (the failure this test looks for)
    eia = _smh(
        "bench",
        "run",
        "--tasks",
        str(tasks),
        "--agent",
        "local",
        "--setting",
        "eia",
        "--budget",
        "3",
        "--max-tokens",
        "160",
        "--timeout",
        "600",
        "--out",
        str(tmp_path / "eia"),
        "--quiet",
        timeout=2400,
    )
    assert eia.returncode == 0, eia.stderr[-3000:]
    records = _records(tmp_path / "eia")
    assert len(records) == 2 and [r for r in records if "infra" in r] == []
    assert all(r["protocol"] == {"tools": "prompted", "structured": "json_object"} for r in records)
    calls = [c for r in records for c in r["outcome"]["tool_calls"]]
    assert calls, "the model made no tool call at all"
    memory = next(r for r in records if r["suite"] == "memhome")
    assert memory["outcome"].get("memory_output") is not None  # the decision step ran and answered

    dr = _smh(
        "bench",
        "run",
        "--tasks",
        str(dr_tasks),
        "--agent",
        "local",
        "--setting",
        "dr",
        "--max-tokens",
        "160",
        "--timeout",
        "600",
        "--out",
        str(tmp_path / "dr"),
        "--quiet",
        timeout=2400,
    )
    assert dr.returncode == 0, dr.stderr[-3000:]
    records = _records(tmp_path / "dr")
    assert len(records) == 1 and [r for r in records if "infra" in r] == []
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
    run = _smh(
        "automation",
        "synthesize",
        "turn on the kitchen light every day at 7 am",
        "--home",
        str(home),
        "--local",
        "--tries",
        "1",
        "--timeout",
        "1200",
        "--max-tokens",
        "256",
        timeout=1500,
    )
    assert run.returncode in (0, 1), run.stderr[
        -3000:
    ]  # 1: no valid rule from a 135M model is fine
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
    parent = subprocess.Popen(
        [sys.executable, "-m", "smh_core.cli.main", "model", "serve", "--port", str(port)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
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


def test_the_engine_is_portable_no_avx512_or_amx_code() -> None:
    """`make local-llm` builds llama.cpp for a fixed x86-64 level, never the build machine's own:
    a native build on an AVX-512/AMX Xeon died on the first real prompt, and a wheel cached on
    one machine must run on the next. The CPU backend holds no zmm register and no AMX tile
    instruction."""
    import importlib.metadata
    import platform

    if platform.machine() != "x86_64" or shutil.which("objdump") is None:
        pytest.skip("x86-64 with objdump only")
    lib = Path(
        importlib.metadata.distribution("llama_cpp_python").locate_file(
            "llama_cpp/lib/libggml-cpu.so"
        )
    )
    code = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", str(lib)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "%ymm" in code  # the AVX2 level (or, on a CPU without it, neither)
    assert "%zmm" not in code and "tileloadd" not in code and "tdpb" not in code


def test_check_passes_and_info_says_ready() -> None:
    check = _smh("model", "check", timeout=600)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "local model check passed:" in check.stdout
    speed = re.search(
        r"prompt ([\d.]+) tokens/s \((\d+) tokens read\), generation ([\d.]+) tokens/s",
        check.stdout,
    )
    assert speed, check.stdout
    assert float(speed.group(1)) > 0 and int(speed.group(2)) > 300 and float(speed.group(3)) > 0
    info = _smh("model", "info", timeout=60)
    assert info.returncode == 0 and "status: ready (checked " in info.stdout


def _server(parent: int, timeout: float = 120) -> tuple[int, int]:
    """The pid and port of the llama.cpp server ``parent`` started (its status file names
    them), once it answers."""
    import time

    from smh_core.llm.local import cache_dir

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for status in (cache_dir() / "run").glob("llama-server-*.json"):
            try:
                pid = json.loads(status.read_text())["pid"]
                ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, KeyError, IndexError):
                continue
            port = int(status.stem.rsplit("-", 1)[1])
            if ppid == parent and _answers(f"http://127.0.0.1:{port}/v1/models"):
                return pid, port
        time.sleep(0.2)
    raise AssertionError("the run's model server never appeared")


@pytest.mark.slow
def test_a_server_killed_mid_run_is_an_infra_record_naming_the_signal(
    tmp_path, socket_enabled
) -> None:
    """The engine crashing under a run (as it did on AVX-512/AMX Xeons) is the harness's
    failure, recorded as infra with the signal and the server's log, never scored."""
    import os
    import signal
    import time

    tasks = tmp_path / "tasks.jsonl"
    sample = [
        line for line in (REPO / "tasks" / "sample.jsonl").read_text().splitlines() if line.strip()
    ]
    tasks.write_text("\n".join(sample[:6]) + "\n")
    (tmp_path / "homes").mkdir()
    shutil.copy(REPO / "tasks" / "homes" / "tiny.json", tmp_path / "homes" / "tiny.json")
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "bench",
            "run",
            "--tasks",
            str(tasks),
            "--agent",
            "local",
            "--setting",
            "dr",
            "--max-tokens",
            "32",
            "--out",
            str(tmp_path / "out"),
            "--quiet",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pid, _ = _server(run.pid)
        results = tmp_path / "out" / "results.jsonl"
        deadline = time.monotonic() + 1200  # a DR task on 2 busy cores can take minutes
        while not (
            results.is_file() and results.read_text().strip()
        ):  # a task scored: the run is under way
            assert run.poll() is None and time.monotonic() < deadline, run.communicate()[1][-3000:]
            time.sleep(0.2)
        os.kill(pid, signal.SIGSEGV)
        out, err = run.communicate(timeout=1200)
    finally:
        if run.poll() is None:
            run.kill()
    records = _records(tmp_path / "out")
    infra = [r for r in records if "infra" in r]
    assert infra and "infra" not in records[0], (out + err)[-3000:]
    message = infra[0]["infra"]["message"]
    assert "killed by signal SIGSEGV" in message and ".log" in message, message
    assert all(not r.get("passed") for r in infra)
    assert "Traceback" not in err
