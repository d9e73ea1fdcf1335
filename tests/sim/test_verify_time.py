"""Timed and automation goals through the real runner: oracle passes, the wrong behaviours fail
with the right error class (doing nothing, acting at once, the wrong time, the wrong rule)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.homeenv.engine import dump_home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task
from tests.support import sim_home as sh

START = sh.START.isoformat()


@pytest.fixture
def homes(tmp_path) -> HomeCache:
    home = sh.home(
        sh.lamp("l1", "living"),
        sh.lamp("l2", "kitchen"),
        sh.washer("w1", "kitchen"),
        sh.ac("ac1", "living"),
    )
    (tmp_path / "home.json").write_text(dump_home(home))
    return HomeCache(tmp_path)


def task(goal: dict, reference: dict, **kw: Any) -> Task:
    return Task.model_validate(
        {
            "id": "t",
            "suite": "simuhome",
            "category": "QT4",
            "subcategory": "QT4-1",
            "difficulty": "simple",
            "home": {"file": "home.json"},
            "start_time": START,
            "turns": [{"text": "..."}],
            "goal": goal,
            "reference": reference,
            **kw,
        }
    )


def at(minutes: float) -> str:
    return (sh.START + timedelta(minutes=minutes)).isoformat()


LAMP_IN_9 = task(
    {"kind": "timed", "checkpoints": [{"at_seconds": 540, "critic": "device(l1).on == True"}]},
    {
        "mode": "execute",
        "schedules": [{"at": at(9), "actions": [{"did": "l1", "locator": "turn_on"}]}],
    },
)

AFTER_WASH = task(  # QT4-2: 20 minutes after the 59-minute wash, the kitchen lamp goes on
    {"kind": "timed", "checkpoints": [{"at_seconds": 79 * 60, "critic": "device(l2).on == True"}]},
    {
        "mode": "execute",
        "schedules": [{"at": at(79), "actions": [{"did": "l2", "locator": "turn_on"}]}],
    },
    overrides=[{"did": "w1", "values": {"op_state": 1, "countdown": 3540}}],
)

NIGHTLY = task(
    {
        "kind": "automation",
        "triggers": [{"kind": "time", "cron": "0 0 22 * * ? *"}],
        "critic": "device(l1).on == True",
    },
    {
        "mode": "automation",
        "automations": [
            {
                "id": "n",
                "triggers": [{"kind": "time", "cron": "0 22 * * *"}],
                "actions": [{"did": "l1", "locator": "turn_on"}],
            }
        ],
    },
)


class Scripted:
    """An agent that makes the given backend calls."""

    name = "scripted"

    def __init__(self, *calls: tuple[str, tuple]) -> None:
        self.calls = calls

    async def run(self, task, backend, user) -> Outcome:
        for method, args in self.calls:
            result = getattr(backend, method)(*args)
            assert result.get("ok"), result
        return Outcome(response="done")


async def verdict(t: Task, agent, homes) -> dict:
    return (await run_task(t, agent, homes))["verdict"]


@pytest.mark.parametrize(
    "t", [LAMP_IN_9, AFTER_WASH, NIGHTLY], ids=["schedule", "after-wash", "automation"]
)
async def test_oracle_passes(t, homes):
    v = await verdict(t, OracleAgent(), homes)
    assert v["passed"], v
    assert v["decided_by"] == "simulation"


@pytest.mark.parametrize("t,cls", [(LAMP_IN_9, "TR"), (AFTER_WASH, "TR"), (NIGHTLY, "MS")])
async def test_null_fails(t, cls, homes):
    v = await verdict(t, NullAgent(), homes)
    assert not v["passed"] and v["error_class"] == cls


async def test_acting_at_once_is_not_scheduling(homes):
    v = await verdict(LAMP_IN_9, Scripted(("execute", ("l1", "turn_on", {}))), homes)
    assert not v["passed"] and "before its time" in v["reason"]


async def test_wrong_time_fails(homes):
    late = Scripted(("schedule", (at(12), [{"did": "l1", "locator": "turn_on"}])))
    v = await verdict(LAMP_IN_9, late, homes)
    assert not v["passed"] and v["error_class"] == "TR"


async def test_rule_instead_of_schedule_passes_timed_goal(homes):
    rule = {
        "triggers": [{"kind": "time", "cron": "0 9 12 27 6 ? 2025"}],
        "actions": [{"did": "l1", "locator": "turn_on"}],
    }
    v = await verdict(LAMP_IN_9, Scripted(("create_automation", (rule,))), homes)
    assert v["passed"], v


async def test_side_effects_at_the_checkpoint_fail(homes):
    agent = Scripted(
        (
            "schedule",
            (at(9), [{"did": "l1", "locator": "turn_on"}, {"did": "l2", "locator": "turn_on"}]),
        )
    )
    v = await verdict(LAMP_IN_9, agent, homes)
    assert not v["passed"] and v["error_class"] == "DC" and "l2" in v["reason"]


async def test_wrong_automation_trigger_is_aj_and_wrong_action_is_dc(homes):
    wrong_time = {
        "triggers": [{"kind": "time", "cron": "0 0 21 * * ? *"}],
        "actions": [{"did": "l1", "locator": "turn_on"}],
    }
    v = await verdict(NIGHTLY, Scripted(("create_automation", (wrong_time,))), homes)
    assert not v["passed"] and v["error_class"] == "AJ"
    wrong_device = {
        "triggers": [{"kind": "time", "cron": "0 0 22 * * ?"}],
        "actions": [{"did": "l2", "locator": "turn_on"}],
    }
    v = await verdict(NIGHTLY, Scripted(("create_automation", (wrong_device,))), homes)
    assert not v["passed"] and v["error_class"] == "DC"


async def test_automation_plus_acting_now_fails(homes):
    rule = {
        "triggers": [{"kind": "time", "cron": "0 0 22 * * ? *"}],
        "actions": [{"did": "l1", "locator": "turn_on"}],
    }
    agent = Scripted(("create_automation", (rule,)), ("execute", ("l1", "turn_on", {})))
    v = await verdict(NIGHTLY, agent, homes)
    assert not v["passed"] and v["error_class"] == "DC"


async def test_backend_errors_are_clear_and_change_nothing(homes):
    from smh_core.backends.embedded import EmbeddedBackend
    from smh_core.bench.runner import prepare_world

    world = prepare_world(LAMP_IN_9, homes)
    backend = EmbeddedBackend(world.engine, sim=world.sim)
    before = dump_home(world.sim.to_home())
    assert backend.schedule("2020-01-01T00:00:00", [{"did": "l1", "locator": "turn_on"}])["error"][
        "message"
    ]
    assert (
        "cron"
        in backend.create_automation(
            {
                "triggers": [{"kind": "time", "cron": "0 0 25 * * ?"}],
                "actions": [{"did": "l1", "locator": "turn_on"}],
            }
        )["error"]["message"]
    )
    bad = backend.create_automation({"triggers": [], "actions": []})
    assert bad["ok"] is False and bad["error"]["field"] == "triggers"
    assert backend.cancel_schedule("nope")["ok"] is False
    assert backend.room_environment("living")["environment"]["temperature"] == 28.0
    assert backend.room_environment("attic")["ok"] is False
    assert dump_home(world.sim.to_home()) == before
    world.close()
