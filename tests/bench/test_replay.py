"""Replay is how a paid model run is re-scored after a verifier fix, so on an unchanged
verifier it must give back exactly the recorded verdicts: the oracle's run of every shipped
suite, replayed, passes task for task with the same changes (schedules and automations
included, which an earlier replay dropped: 450/600 on simuhome)."""

from __future__ import annotations

from pathlib import Path

import pytest

from smh_core.bench.agents import OracleAgent, ReplayAgent
from smh_core.bench.runner import run_suite
from smh_core.task.home import HomeCache
from smh_core.task.model import load_tasks

TASKS_DIR = Path(__file__).resolve().parents[2] / "tasks"
SUITES = ["smh", "simuhome", "memhome", "sage", "safety", "sample"]


@pytest.mark.slow
@pytest.mark.parametrize("suite", SUITES)
async def test_replaying_the_oracle_reproduces_every_verdict(tmp_path, suite) -> None:
    tasks = load_tasks([TASKS_DIR / f"{suite}.jsonl"])
    homes = HomeCache(TASKS_DIR)
    original = await run_suite(
        tasks, OracleAgent(), tmp_path / "oracle", homes=homes, progress=False
    )
    replayed = await run_suite(
        tasks, ReplayAgent(tmp_path / "oracle"), tmp_path / "replay", homes=homes, progress=False
    )

    def key(log) -> dict:
        return {
            r["task_id"]: (
                r["passed"],
                r["verdict"]["error_class"],
                r["verdict"]["reason"],
                r["changes"],
            )
            for r in log.records()
        }

    assert len(original.scored()) == len(tasks) == len(replayed.scored())
    assert all(r["passed"] for r in original.records())
    assert key(replayed) == key(original)


async def test_replay_of_a_task_with_no_trace_is_not_scored(tmp_path) -> None:
    tasks = load_tasks([TASKS_DIR / "sample.jsonl"])
    homes = HomeCache(TASKS_DIR)
    await run_suite(tasks[:2], OracleAgent(), tmp_path / "oracle", homes=homes, progress=False)
    replayed = await run_suite(
        tasks[:3],
        ReplayAgent(tmp_path / "oracle" / "results.jsonl"),
        tmp_path / "r",
        homes=homes,
        progress=False,
    )
    assert len(replayed.scored()) == 2
    (missing,) = replayed.infra()
    assert missing["task_id"] == tasks[2].id and "no recorded trace" in missing["infra"]["message"]
