"""The openai agents on MemHome tasks: the decision step runs first (real openai client, fake
server), a memory write stays a memory write, and a rewrite goes on to the tool loop."""

from __future__ import annotations

import json
from pathlib import Path

from smh_core.bench.llm_agents import DRBenchAgent, EIABenchAgent
from smh_core.bench.runner import run_task
from smh_core.llm.client import LLMConfig
from smh_core.task.home import HomeCache
from smh_core.task.model import iter_tasks
from tests.support.fake_openai import FakeOpenAI

TASKS = list(iter_tasks(Path(__file__).resolve().parents[2] / "tasks" / "memhome.jsonl"))


def config(server: FakeOpenAI) -> LLMConfig:
    return LLMConfig(base_url=server.base_url, model="m", api_key="k", max_retries=0)


def first(sub: str, with_actions: bool = False):
    return next(
        t for t in TASKS if t.subcategory == sub and bool(t.reference.actions) == with_actions
    )


async def test_memory_write_is_scored_without_a_tool_loop(socket_enabled) -> None:
    task = first("add")
    async with FakeOpenAI([{"content": task.reference.memory_output}]) as server:
        record = await run_task(task, EIABenchAgent(config(server)), HomeCache())
    assert record["passed"], record["verdict"]
    assert record["verdict"]["details"]["f1"] == 1.0
    assert len(server.requests) == 1  # the decision only
    assert "memory" in server.requests[0]["messages"][0]["content"].lower()


async def test_rewrite_goes_on_to_the_tool_loop(socket_enabled) -> None:
    task = first("use", with_actions=True)
    rewrite = task.reference.memory_output
    calls = [
        (
            "control_device",
            json.dumps({"did": a.did, "locator": a.locator, "arguments": a.arguments}),
        )
        for a in task.reference.actions
    ]
    async with FakeOpenAI(
        [{"content": rewrite}, {"tool_calls": calls}, {"content": "Done."}]
    ) as server:
        record = await run_task(task, EIABenchAgent(config(server)), HomeCache())
    assert record["passed"], record["verdict"]
    assert server.requests[1]["messages"][-1]["content"] == rewrite.split(":", 1)[1].strip()


async def test_a_wrong_decision_fails_with_its_class(socket_enabled) -> None:
    task = first("add")
    plan = json.dumps({"mode": "answer", "response": "Okay.", "actions": []})
    async with FakeOpenAI([{"content": "no-rewrite"}, {"content": plan}]) as server:
        record = await run_task(task, DRBenchAgent(config(server)), HomeCache())
    assert not record["passed"] and record["verdict"]["error_class"] == "memory_prefix"


async def test_judge_accuracy_is_recorded_and_reported(socket_enabled) -> None:
    from smh_core.bench.agents import OracleAgent
    from smh_core.bench.judge import Judge
    from smh_core.bench.report import markdown, summarize
    from smh_core.llm.client import LLMClient

    tasks = [first("add"), first("delete")]
    script = [{"content": "PASS"}] * 3 + [
        {"content": "FAIL"},
        {"content": "FAIL"},
        {"content": "PASS"},
    ]
    async with FakeOpenAI(script) as server:
        judge = Judge(LLMClient(config(server)))
        records = [await run_task(t, OracleAgent(), HomeCache(), judge) for t in tasks]
    assert [r["verdict"]["details"]["judge_correct"] for r in records] == [True, False]
    assert all(
        r["passed"] for r in records
    )  # the judge is a metric; the deterministic verdict stands
    assert "memory" in server.requests[0]["messages"][0]["content"].lower()
    text = markdown(summarize(records))
    assert "judge accuracy %" in text and "| all | 2 | 100.0 | 100.0 | 50.0 |" in text
