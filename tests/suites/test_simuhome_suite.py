"""The ``simuhome`` suite: SimuHome's six query types, feasible and infeasible, on Matter homes.

The shipped file must be what the generator writes; each variant has 50 tasks; and the goals
judge behaviour over simulated time: acting at once on a request for later fails, an agent
that refuses a feasible request fails, one that acts on an infeasible request fails (also
when it only schedules the action), and skipping the information-gathering call SimuHome
requires fails.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.suites import simuhome_suite
from smh_core.task.home import HomeCache, prepare_engine
from smh_core.task.model import Task, dump_task, iter_tasks

TASKS_FILE = Path(__file__).resolve().parents[2] / "tasks" / "simuhome.jsonl"
SHIPPED = list(iter_tasks(TASKS_FILE))
CACHE = HomeCache()


def first(subcategory: str) -> Task:
    return next(t for t in SHIPPED if t.subcategory == subcategory)


def run(task: Task, agent) -> dict:
    import asyncio

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(run_task(task, agent, CACHE))
    finally:
        loop.close()


class ScriptedAgent:
    """Makes the given tool calls and executes the given actions now, then answers."""

    name = "scripted"

    def __init__(self, actions=(), response: str = "Done.", calls=(), schedules=()) -> None:
        self.actions, self.response, self.calls, self.schedules = (
            actions,
            response,
            calls,
            schedules,
        )

    async def run(self, task, backend, user) -> Outcome:
        outcome = Outcome(response=self.response, stop="answered")
        outcome.tool_calls = [{"tool": c.tool, "arguments": dict(c.arguments)} for c in self.calls]
        for a in self.actions:
            backend.execute(a["did"], a["locator"], dict(a.get("arguments", {})))
        for item in self.schedules:
            backend.schedule(item["at"], item["actions"])
        return outcome


@pytest.mark.slow  # 20-45 s
def test_shipped_file_is_regenerated_byte_for_byte():
    generated = "".join(dump_task(t) + "\n" for t in simuhome_suite.generate(0))
    assert TASKS_FILE.read_text(encoding="utf-8") == generated


def test_sizes_per_query_type_and_feasibility():
    counts = Counter((t.category, t.subcategory) for t in SHIPPED)
    assert counts == {
        (qt, f"{qt}-{v}"): 50
        for qt in simuhome_suite.QUERY_TYPES
        for v in ("feasible", "infeasible")
    }
    assert len({t.id for t in SHIPPED}) == 600
    assert all(t.home.generator == "matter" for t in SHIPPED)
    assert len({t.home.seed for t in SHIPPED}) == simuhome_suite.HOMES
    assert len({t.turns[0].text for t in SHIPPED}) > 400  # wording drawn from the homes
    assert not any(t.turns[0].text[0].islower() for t in SHIPPED)


def test_goal_kinds_follow_the_paper():
    kinds = Counter((t.subcategory, t.goal.kind) for t in SHIPPED)
    for qt in simuhome_suite.QUERY_TYPES:
        assert kinds[(f"{qt}-infeasible", "infeasible")] == 50
    assert kinds[("QT1-feasible", "query")] == 50
    assert kinds[("QT3-feasible", "execute")] == 50
    for qt in ("QT2", "QT4-1", "QT4-2", "QT4-3"):  # judged by running the home forward
        assert kinds[(f"{qt}-feasible", "timed")] == 50


def test_a_small_regeneration_validates_and_is_deterministic():
    a = simuhome_suite.generate(7, per_variant=2)
    b = simuhome_suite.generate(7, per_variant=2, validate_tasks=False)
    assert [dump_task(t) for t in a] == [dump_task(t) for t in b]
    assert [dump_task(t) for t in a] != [
        dump_task(t) for t in simuhome_suite.generate(8, per_variant=2, validate_tasks=False)
    ]


def test_acting_at_once_on_a_request_for_later_fails():
    task = first("QT4-1-feasible")
    actions = task.reference.schedules[0]["actions"]
    verdict = run(task, ScriptedAgent(actions=actions, calls=task.reference.tool_calls))
    assert not verdict["passed"]
    assert verdict["verdict"]["error_class"] == "TR"


def test_refusing_a_feasible_request_fails():
    task = first("QT3-feasible")
    verdict = run(
        task, ScriptedAgent(response="Sorry, I can't do that.", calls=task.reference.tool_calls)
    )
    assert not verdict["passed"]


@pytest.mark.parametrize("subcategory", ["QT3-infeasible", "QT4-1-infeasible"])
def test_acting_on_an_infeasible_request_fails(subcategory):
    task = first(subcategory)
    home = prepare_engine(task, CACHE)
    did = next(d for d in home.device_ids() if "1.OnOff.On" in home.services(d))
    act = [
        {
            "did": did,
            "locator": "1.OnOff.On" if home.value(did, "1.OnOff.OnOff") is False else "1.OnOff.Off",
        }
    ]
    verdict = run(
        task,
        ScriptedAgent(
            actions=act, response="Sorry, that's impossible.", calls=task.reference.tool_calls
        ),
    )
    assert not verdict["passed"] and verdict["verdict"]["error_class"] in ("CM", "CB")
    at = (datetime.fromisoformat(task.start_time) + timedelta(minutes=10)).isoformat()
    scheduled = run(
        task,
        ScriptedAgent(
            schedules=[{"at": at, "actions": act}],
            response="Sorry, that's impossible.",
            calls=task.reference.tool_calls,
        ),
    )
    assert not scheduled["passed"] and "scheduled" in scheduled["verdict"]["reason"]


def test_skipping_the_required_lookup_fails():
    task = next(t for t in SHIPPED if t.subcategory == "QT1-feasible" and t.required_actions)
    verdict = run(task, ScriptedAgent(response=task.reference.response))
    assert not verdict["passed"]
    with_lookup = run(
        task, ScriptedAgent(response=task.reference.response, calls=task.reference.tool_calls)
    )
    assert with_lookup["passed"], with_lookup["verdict"]


def test_qt2_infeasible_has_physical_limit_cases_beside_missing_devices():
    """SimuHome's QT2-infeasible is mostly 'the device is there but already at its limit'."""
    qt2 = [t for t in SHIPPED if t.subcategory == "QT2-infeasible"]
    at_limit = [t for t in qt2 if "full power" in t.goal.reason]
    assert 10 <= len(at_limit) <= 40 and len(qt2) - len(at_limit) >= 10
    for task in at_limit:
        [device] = [o for o in task.overrides if not o.did.startswith("@")]
        assert (
            device.values["1.FanControl.PercentSetting"] == 100
            and device.values["1.OnOff.OnOff"] is True
        )
        assert {"tool": "get_device_status", "arguments": {"did": device.did}} in [
            r.model_dump() for r in task.required_actions
        ]


def test_touching_a_device_already_at_its_limit_fails_and_an_explained_check_passes():
    task = next(
        t for t in SHIPPED if t.subcategory == "QT2-infeasible" and "full power" in t.goal.reason
    )
    [device] = [o for o in task.overrides if not o.did.startswith("@")]
    careless = run(
        task,
        ScriptedAgent(
            actions=[
                {
                    "did": device.did,
                    "locator": "1.FanControl.PercentSetting",
                    "arguments": {"value": 50},
                }
            ],
            response="Sorry, I can't do more.",
            calls=task.reference.tool_calls,
        ),
    )
    assert not careless["passed"] and careless["verdict"]["error_class"] == "CM"
    unchecked = run(
        task, ScriptedAgent(response=task.reference.response)
    )  # never looked at the device
    assert not unchecked["passed"]
    careful = run(
        task, ScriptedAgent(response=task.reference.response, calls=task.reference.tool_calls)
    )
    assert careful["passed"], careful["verdict"]
