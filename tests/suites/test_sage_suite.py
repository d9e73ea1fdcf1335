"""The ``sage`` suite: size and coverage, determinism, validation, and that the goals tell the
right device, the right time and the right scope from plausible mistakes."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.homeenv.engine import dump_home
from smh_core.suites import sage_suite
from smh_core.suites.sage_suite import (
    CATEGORIES,
    DID,
    SageHomes,
    build_home,
    generate,
    home_file,
)
from smh_core.suites.smh_suite import validate
from smh_core.task.model import Task, dump_task

TASKS_DIR = Path(__file__).resolve().parents[2] / "tasks"


class ScriptedAgent:
    """Makes the given control calls and replies with ``response`` (a deliberate mistake)."""

    name = "scripted"

    def __init__(
        self, actions: list[tuple[str, str, dict[str, Any]]], response: str = "Done."
    ) -> None:
        self.actions, self.response = actions, response

    async def run(self, task: Task, backend: Any, user: Any) -> Outcome:
        for did, locator, arguments in self.actions:
            assert backend.execute(did, locator, dict(arguments)).get("ok"), (did, locator)
        return Outcome(response=self.response, stop="answered")


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {t.id: t for t in generate(validate_tasks=False)}


def _passes(task: Task, agent: ScriptedAgent) -> bool:
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(run_task(task, agent, SageHomes()))["passed"]
    finally:
        loop.close()


def _reference(task: Task) -> list[tuple[str, str, dict[str, Any]]]:
    return [(a.did, a.locator, a.arguments) for a in task.reference.actions]


def test_size_and_categories(tasks: dict[str, Task]) -> None:
    assert len(tasks) >= 40
    per = Counter(t.category for t in tasks.values())
    assert set(per) == set(CATEGORIES)
    assert all(n >= 6 for n in per.values()), per
    for t in tasks.values():
        tags = t.subcategory.split("+")
        assert t.suite == "sage" and t.category in tags and set(tags) <= set(CATEGORIES)
        assert tags == [c for c in CATEGORIES if c in tags]  # one canonical order


def test_deterministic(tasks: dict[str, Task]) -> None:
    again = generate(validate_tasks=False)
    assert [dump_task(t) for t in again] == [dump_task(t) for t in tasks.values()]
    assert [dump_home(build_home(n)) for n in range(3)] == [
        dump_home(build_home(n)) for n in range(3)
    ]


def test_home_files_match_built_homes() -> None:
    for n in range(sage_suite.HOMES):
        assert (TASKS_DIR / home_file(n)).read_text(encoding="utf-8") == dump_home(build_home(n))


def test_homes_describe_placement() -> None:
    home = build_home(0)
    desc = {d.userdata.did: d.description.lower() for d in home.devices}
    assert "credenza" in desc[DID["tv_credenza"]] and "plant" in desc[DID["tv_plant"]]
    assert (
        "nightstand" in desc[DID["bed_lamp"]] and "nightstand" not in desc[DID["bedroom_ceiling"]]
    )
    names = [{d.userdata.did: d.name for d in build_home(n).devices} for n in range(3)]
    assert names[0] != names[1] != names[2]


def test_every_task_validates(tasks: dict[str, Task]) -> None:
    validate(list(tasks.values()), homes=SageHomes())  # reference passes, doing nothing fails


def test_wrong_device_of_the_same_kind_fails(tasks: dict[str, Task]) -> None:
    bed = tasks["sage-bed-light-0"]
    assert _passes(bed, ScriptedAgent(_reference(bed)))
    assert not _passes(bed, ScriptedAgent([(DID["bedroom_ceiling"], "turn_on", {})]))
    tv = tasks["sage-plant-tv-off-1"]
    assert not _passes(tv, ScriptedAgent([(DID["tv_credenza"], "1.OnOff.Off", {})]))


def test_query_about_the_wrong_tv_fails(tasks: dict[str, Task]) -> None:
    task = tasks["sage-credenza-on-0"]
    on = task.goal.facts[0].value  # type: ignore[union-attr]
    wrong = "No, the TV is off." if on else "Yes, the TV is on."
    assert not _passes(task, ScriptedAgent([], wrong))


def test_persistence_acting_now_fails(tasks: dict[str, Task]) -> None:
    rule = tasks["sage-tv-off-bed-light-0"]
    assert not _passes(rule, ScriptedAgent([(DID["bed_lamp"], "turn_on", {})]))
    later = tasks["sage-dishwasher-nightstand-0"]
    assert not _passes(later, ScriptedAgent([(DID["bed_lamp"], "turn_on", {})]))


def test_work_departure_keeps_fridge_and_freezer(tasks: dict[str, Task]) -> None:
    task = tasks["sage-off-to-work-0"]
    assert _passes(task, ScriptedAgent(_reference(task)))
    mode = "1.RefrigeratorAndTemperatureControlledCabinetMode.ChangeToMode"
    for role in ("fridge", "freezer"):
        assert not _passes(
            task, ScriptedAgent([*_reference(task), (DID[role], mode, {"newMode": 2})])
        )


def test_intent_goals_accept_other_reasonable_fixes(tasks: dict[str, Task]) -> None:
    bright = tasks["sage-dining-bright-0"]
    assert _passes(bright, ScriptedAgent([(DID["dining_blind"], "close", {})]))
    assert _passes(
        bright,
        ScriptedAgent(
            [(DID["dining_pendant"], "turn_off", {}), (DID["dining_wall"], "turn_off", {})]
        ),
    )
    assert not _passes(bright, ScriptedAgent([(DID["dining_pendant"], "turn_off", {})]))
    call = tasks["sage-phone-call-0"]
    tv = call.reference.actions[0].did
    assert _passes(call, ScriptedAgent([(tv, "1.OnOff.Off", {})]))
