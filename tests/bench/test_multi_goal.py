"""Tasks with several goals (HomeBench's multi-device and mixed instructions): the task passes
only if every goal does, each goal's verdict is recorded and reported, what one goal changes
is not held against another, and an infeasible part needs a refusal while the feasible part
is carried out."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from pydantic import ValidationError

from smh_core.bench.agents import NullAgent, OracleAgent, ReplayAgent
from smh_core.bench.report import write_report
from smh_core.bench.runner import check_critics, run_suite, run_task
from smh_core.suites.common import validate
from smh_core.task.home import HomeCache, TaskError
from smh_core.task.model import Reference, Task, dump_task, load_tasks

FIXTURES = Path(__file__).parents[1] / "fixtures"
LAMP_ON = {"kind": "execute", "critic": "device(1001).state == on"}
AC_22 = {"kind": "execute", "critic": "device(1003).target_temperature == 22"}
NO_GARAGE = {"kind": "infeasible", "reason": "the home has no garage window"}
MIXED = {
    "id": "mixed-1",
    "suite": "smh",
    "category": "compositional",
    "subcategory": "mixed",
    "difficulty": "simple",
    "home": {"file": "tiny_home.json"},
    "turns": [{"text": "Turn on the bedroom lamp and open the garage window."}],
    "goals": [LAMP_ON, NO_GARAGE],
    "reference": {
        "mode": "execute",
        "response": "The lamp is on, but I cannot open a garage window: there is none.",
        "actions": [{"did": "1001", "locator": "turn_on"}],
    },
}


@pytest.fixture
def homes() -> HomeCache:
    return HomeCache(FIXTURES)


def _task(**fields: object) -> Task:
    return Task.model_validate({**MIXED, **fields})


def _reference(task: Task, **ref: object) -> Task:
    return task.model_copy(
        update={"reference": Reference.model_validate({"mode": "execute", **ref})}
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"goal": LAMP_ON}, "either goal or goals"),
        ({"goals": []}, "either goal or goals"),
        ({"goals": [LAMP_ON]}, "at least two"),
        ({"goals": [LAMP_ON, {"kind": "clarify"}]}, "does not match any of the expected tags"),
    ],
)
def test_goal_and_goals_are_exclusive_and_goals_combine_only_partial_kinds(fields, message):
    with pytest.raises(ValidationError, match=message):
        _task(**fields)


def test_a_single_goal_task_dumps_without_goals(tmp_path):
    single = _task(goals=[], goal=LAMP_ON)
    assert "goals" not in json.loads(dump_task(single))
    path = tmp_path / "t.jsonl"
    path.write_text(dump_task(_task()) + "\n")
    [back] = load_tasks([path])
    assert back.goal is None and back.goal_kinds == ["execute", "infeasible"]
    assert dump_task(back) == dump_task(_task())


async def test_oracle_passes_and_each_goal_verdict_is_recorded(homes):
    record = await run_task(_task(), OracleAgent(), homes)
    assert record["passed"], record["verdict"]
    goals = record["verdict"]["details"]["goals"]
    assert [(g["kind"], g["passed"]) for g in goals] == [("execute", True), ("infeasible", True)]
    assert record["verdict"]["reason"] == "all 2 goals met"


async def test_null_agent_fails_both_parts(homes):
    record = await run_task(_task(), NullAgent(), homes)
    assert not record["passed"]
    assert [g["passed"] for g in record["verdict"]["details"]["goals"]] == [False, False]
    assert record["verdict"]["reason"].startswith("2 of 2 goals not met; goal 1 (execute)")


async def test_doing_the_feasible_part_without_explaining_fails_only_the_infeasible_part(homes):
    task = _reference(_task(), response="Done.", actions=[{"did": "1001", "locator": "turn_on"}])
    record = await run_task(task, OracleAgent(), homes)
    assert not record["passed"]
    assert [g["passed"] for g in record["verdict"]["details"]["goals"]] == [True, False]
    assert record["verdict"]["error_class"] == "CB"


async def test_refusing_everything_fails_the_feasible_part(homes):
    task = _reference(_task(), response="Sorry, I can't do that: there is no garage window.")
    record = await run_task(task, OracleAgent(), homes)
    assert [g["passed"] for g in record["verdict"]["details"]["goals"]] == [False, True]
    assert not record["passed"]


async def test_a_device_no_goal_names_still_fails_every_part(homes):
    task = _reference(
        _task(),
        response="The lamp is on, but I cannot open a garage window: there is none.",
        actions=[
            {"did": "1001", "locator": "turn_on"},
            {
                "did": "1003",
                "locator": "set_target_temperature",
                "arguments": {"target_temperature": 20},
            },
        ],
    )
    record = await run_task(task, OracleAgent(), homes)
    assert [g["passed"] for g in record["verdict"]["details"]["goals"]] == [False, False]
    assert "1003" in record["verdict"]["reason"]


async def test_two_execute_goals_need_both_and_may_change_each_others_devices(homes):
    task = _task(
        goals=[LAMP_ON, AC_22],
        reference={
            "mode": "execute",
            "actions": [
                {"did": "1001", "locator": "turn_on"},
                {
                    "did": "1003",
                    "locator": "set_target_temperature",
                    "arguments": {"target_temperature": 22},
                },
            ],
        },
    )
    assert (await run_task(task, OracleAgent(), homes))["passed"]
    half = await run_task(
        _reference(task, actions=[{"did": "1001", "locator": "turn_on"}]), OracleAgent(), homes
    )
    assert not half["passed"]
    assert half["verdict"]["reason"].startswith("1 of 2 goals not met; goal 2 (execute)")


def test_suite_validation_accepts_multi_goal_tasks(homes):
    validate([_task()], homes)  # the reference passes and doing nothing fails


def test_a_bad_critic_in_a_later_goal_is_named_by_its_path():
    task = _task(goals=[LAMP_ON, {"kind": "execute", "critic": "device(1001).state =="}])
    with pytest.raises(TaskError, match=r"goals\.1\.critic"):
        check_critics(task)


async def test_report_shows_each_goal_and_replay_reproduces_the_verdicts(tmp_path, homes):
    wrong = _reference(
        _task(id="mixed-2"), response="Done.", actions=[{"did": "1001", "locator": "turn_on"}]
    )
    tasks = [_task(), wrong]
    first = await run_suite(tasks, OracleAgent(), tmp_path / "run", homes=homes, progress=False)
    write_report(tmp_path / "run")
    report = (tmp_path / "run" / "report.md").read_text()
    assert "[execute ok, infeasible FAIL]" in report
    replayed = await run_suite(
        tasks, ReplayAgent(tmp_path / "run"), tmp_path / "replay", homes=homes, progress=False
    )

    def key(log) -> dict:
        return {r["task_id"]: (r["passed"], r["verdict"]) for r in log.records()}

    assert key(replayed) == key(first)
    assert [r["passed"] for r in first.records()] == [True, False]


async def test_a_timed_part_lets_the_agent_schedule_while_the_infeasible_part_needs_a_refusal(
    homes,
):
    start = datetime.fromisoformat(MIXED.get("start_time", "2024-06-27T09:00:00"))
    later = (start + timedelta(seconds=60)).isoformat()
    timed = {
        "kind": "timed",
        "checkpoints": [{"at_seconds": 60, "critic": "device(1003).target_temperature == 22"}],
    }
    task = _task(
        goals=[LAMP_ON, timed, NO_GARAGE],
        reference={
            "mode": "execute",
            "response": "Lamp on, AC at 22 in a minute; I cannot open a garage window.",
            "actions": [{"did": "1001", "locator": "turn_on"}],
            "schedules": [
                {
                    "at": later,
                    "actions": [
                        {
                            "did": "1003",
                            "locator": "set_target_temperature",
                            "arguments": {"target_temperature": 22},
                        }
                    ],
                }
            ],
        },
    )
    record = await run_task(task, OracleAgent(), homes)
    assert record["passed"], record["verdict"]
    at_once = _reference(
        task,
        response=task.reference.response,
        actions=[
            {"did": "1001", "locator": "turn_on"},
            {
                "did": "1003",
                "locator": "set_target_temperature",
                "arguments": {"target_temperature": 22},
            },
        ],
    )
    verdict = (await run_task(at_once, OracleAgent(), homes))["verdict"]
    assert [g["passed"] for g in verdict["details"]["goals"]] == [True, False, True]
    assert not (await run_task(task, NullAgent(), homes))["passed"]
