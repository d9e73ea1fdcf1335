"""Failures outside the model are recorded as such: never scored, shown apart in the report,
run again on resume; an endpoint that is down stops a run early and says so."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.bench.llm_agents import DRBenchAgent, EIABenchAgent
from smh_core.bench.report import markdown, summarize
from smh_core.bench.results import ResultsLog
from smh_core.bench.runner import EndpointDown, run_suite
from smh_core.llm.client import LLMConfig
from smh_core.task.home import HomeCache
from smh_core.task.model import iter_tasks
from tests.support.fake_openai import FakeOpenAI, serve_in_thread

FIXTURES = Path(__file__).parents[1] / "fixtures"
TASK_FILE = FIXTURES / "tasks_tiny.jsonl"
TASKS = list(iter_tasks(TASK_FILE))


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _config(base_url: str) -> LLMConfig:
    return LLMConfig(
        base_url=base_url, model="m", api_key="k", max_retries=0, tool_protocol="native"
    )


def test_an_infra_record_is_not_done_and_its_rerun_replaces_it(tmp_path) -> None:
    path = tmp_path / "results.jsonl"
    log = ResultsLog(path)
    log.append({"task_id": "a", "passed": False, "infra": {"kind": "timeout", "message": "t"}})
    assert not log.done("a") and [r["task_id"] for r in log.infra()] == ["a"]
    log.append({"task_id": "a", "passed": True})
    log.append(
        {"task_id": "a", "passed": False, "infra": {"kind": "timeout", "message": "late"}}
    )  # ignored
    again = ResultsLog(path)
    assert (
        again.done("a") and again.infra() == [] and [r["passed"] for r in again.records()] == [True]
    )
    assert len(path.read_text().splitlines()) == 2


async def test_server_errors_are_infra_not_frf_and_resume_scores_them(
    socket_enabled, tmp_path
) -> None:
    homes = HomeCache(FIXTURES)
    async with FakeOpenAI(default={"status": 500, "message": "CUDA out of memory"}) as broken:
        log = await run_suite(
            TASKS, DRBenchAgent(_config(broken.base_url)), tmp_path, homes=homes, progress=False
        )
    assert len(log.infra()) == len(TASKS) and log.scored() == []
    assert {r["infra"]["kind"] for r in log.infra()} == {"server_error"}
    assert all(r["verdict"]["error_class"] == "INFRA" for r in log.infra())
    summary = summarize(list(log.records()))
    assert summary["smh"]["n"] == 0 and summary["smh"]["infra"] == {"server_error": 7}
    assert "Not scored: 8 tasks failed outside the model (server_error 8)" in markdown(summary)

    answer = {"content": json.dumps({"mode": "answer", "response": "I cannot help with that."})}
    async with FakeOpenAI(default=answer) as working:
        log = await run_suite(
            TASKS, DRBenchAgent(_config(working.base_url)), tmp_path, homes=homes, progress=False
        )
    assert log.infra() == [] and len(log.scored()) == len(TASKS)
    assert len(working.requests) >= len(TASKS)  # every task ran again
    assert all(r["protocol"] == {"structured": "json_schema"} for r in log.scored())


async def test_an_unreachable_endpoint_stops_the_run_early(socket_enabled, tmp_path) -> None:
    agent = EIABenchAgent(_config(f"http://127.0.0.1:{_closed_port()}/v1"))
    with pytest.raises(EndpointDown, match="3 tasks in a row failed outside the model"):
        await run_suite(
            TASKS, agent, tmp_path, homes=HomeCache(FIXTURES), progress=False, stop_after_infra=3
        )
    log = ResultsLog(tmp_path / "results.jsonl")
    assert len(log.infra()) == 3 and {r["infra"]["kind"] for r in log.infra()} == {"connection"}


def _smh(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_refuses_to_start_against_a_dead_endpoint(tmp_path, socket_enabled) -> None:
    run = _smh(
        "bench",
        "run",
        "--tasks",
        str(TASK_FILE),
        "--agent",
        "openai",
        "--base-url",
        f"http://127.0.0.1:{_closed_port()}/v1",
        "--model",
        "m",
        "--out",
        str(tmp_path / "o"),
        "--quiet",
    )
    assert run.returncode == 3 and "the model endpoint is not usable (connection" in run.stderr
    assert not (tmp_path / "o" / "results.jsonl").exists()


def test_cli_records_the_protocol_a_llama_cpp_style_server_needed(tmp_path, socket_enabled) -> None:
    def reply(body):
        if body["messages"][-1]["content"].startswith("Tool result"):
            return {"content": json.dumps({"tool": "finish", "arguments": {"answer": "Done."}})}
        return {
            "content": json.dumps(
                {"tool": "control_device", "arguments": {"did": "1001", "locator": "turn_on"}}
            )
        }

    server = FakeOpenAI(
        default=reply, tools="ignored", refuse_formats={"json_schema"}, refusal_status=500
    )
    with serve_in_thread(server):
        run = _smh(
            "bench",
            "run",
            "--tasks",
            str(TASK_FILE),
            "--agent",
            "openai",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--limit",
            "3",
            "--out",
            str(tmp_path / "o"),
        )
    assert run.returncode == 0, run.stderr
    assert "tool protocol prompted" in run.stdout
    records = [json.loads(x) for x in (tmp_path / "o" / "results.jsonl").read_text().splitlines()]
    assert len(records) == 3 and all("infra" not in r for r in records)
    assert all(r["protocol"] == {"tools": "prompted", "structured": "json_object"} for r in records)
    assert all(r["outcome"]["tool_calls"][0]["tool"] == "control_device" for r in records)
    assert (
        len(server.probes) == 1 and len(server.refused) == 1
    )  # probed once, refused once, for the whole run
