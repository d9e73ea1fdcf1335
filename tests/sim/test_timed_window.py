"""A timed checkpoint's tolerance is SimuHome's ``at ± tolerance`` window: the critic must hold
at some moment inside ``[at - tol, at + tol]`` (a state reached in the window and changed again
by a later schedule still counts), not only at the window's end, and with ``not_before`` must
not hold before the window opens."""

from __future__ import annotations

from datetime import timedelta

import pytest

from smh_core.bench.agents import OracleAgent
from smh_core.bench.runner import run_task
from smh_core.homeenv.engine import dump_home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task
from tests.support import sim_home as sh


@pytest.fixture
def homes(tmp_path) -> HomeCache:
    (tmp_path / "home.json").write_text(
        dump_home(sh.home(sh.lamp("l1", "living"), sh.lamp("l2", "kitchen")))
    )
    return HomeCache(tmp_path)


def at(seconds: float) -> str:
    return (sh.START + timedelta(seconds=seconds)).isoformat()


def lamp_task(*plan: tuple[float, str], tolerance: float = 10, not_before: bool = True) -> Task:
    """Checkpoint: lamp l1 on at +60 s (± ``tolerance``); the reference schedules ``plan``
    ((seconds, turn_on | turn_off), ...)."""
    return Task.model_validate(
        {
            "id": "w",
            "suite": "simuhome",
            "category": "QT4",
            "subcategory": "QT4-1",
            "difficulty": "simple",
            "home": {"file": "home.json"},
            "start_time": sh.START.isoformat(),
            "turns": [{"text": "..."}],
            "goal": {
                "kind": "timed",
                "checkpoints": [
                    {
                        "at_seconds": 60,
                        "critic": "device(l1).on == True",
                        "tolerance_seconds": tolerance,
                        "not_before": not_before,
                    }
                ],
            },
            "reference": {
                "mode": "execute",
                "schedules": [
                    {"at": at(s), "actions": [{"did": "l1", "locator": loc}]} for s, loc in plan
                ],
            },
        }
    )


@pytest.mark.parametrize(
    ("plan", "passed"),
    [
        ([(60, "turn_on")], True),  # on time
        ([(52, "turn_on")], True),  # early, inside the window
        ([(69, "turn_on")], True),  # late, inside the window
        ([(60, "turn_on"), (65, "turn_off")], True),  # reached, then undone inside the window
        ([(55, "turn_on"), (100, "turn_off")], True),  # reached, undone after the window
        ([(45, "turn_on")], False),  # before the window opens
        ([(75, "turn_on")], False),  # after it closes
        ([(45, "turn_on"), (48, "turn_off"), (75, "turn_on")], False),  # on only outside the window
    ],
)
async def test_the_checkpoint_is_a_window_around_its_time(homes, plan, passed):
    record = await run_task(lamp_task(*plan), OracleAgent(), homes)
    assert record["passed"] is passed, record["verdict"]
    if not passed:
        assert record["verdict"]["error_class"] == "TR"


async def test_without_tolerance_the_window_is_the_instant(homes):
    assert (await run_task(lamp_task((60, "turn_on"), tolerance=0), OracleAgent(), homes))["passed"]
    late = await run_task(lamp_task((61, "turn_on"), tolerance=0), OracleAgent(), homes)
    assert not late["passed"] and late["verdict"]["reason"] == "checkpoint 1 not met at +60 s"
    early = await run_task(lamp_task((58, "turn_on"), tolerance=0), OracleAgent(), homes)
    assert not early["passed"] and "before its time" in early["verdict"]["reason"]


async def test_without_not_before_an_early_state_that_lasts_into_the_window_passes(homes):
    assert (await run_task(lamp_task((45, "turn_on"), not_before=False), OracleAgent(), homes))[
        "passed"
    ]
    gone = await run_task(
        lamp_task((45, "turn_on"), (48, "turn_off"), not_before=False), OracleAgent(), homes
    )
    assert not gone["passed"]
