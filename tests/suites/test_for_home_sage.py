"""SAGE's task kinds written for a given home (``smh tasks generate --home --suite sage``): the
roles each kind needs found among the home's own devices, every task validated on it, the
oracle passing every one and doing nothing failing every one; same seed, same bytes; kinds the
home cannot support listed with why."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim_devices.catalog import instantiate
from smh_core.ha.twin_runnable import real_check
from smh_core.homeenv.model import Home, Room
from smh_core.suites.for_home import generate_sage
from smh_core.suites.for_home.sage import rows
from smh_core.suites.sage_suite import CATEGORIES
from smh_core.task.home import HomeCache
from smh_core.task.model import dump_task
from tests.suites.twin_homes import catalog_twin, ha_twin, oracle_and_nothing


def _bytes(tasks) -> str:
    return "".join(dump_task(t) + "\n" for t in tasks)


@pytest.mark.parametrize("make", [ha_twin, catalog_twin])
def test_every_kind_on_a_twin_the_oracle_passes_and_doing_nothing_fails(
    tmp_path: Path, make
) -> None:
    home = make()
    real = real_check(home)  # the HA twin's: what its HA can run (none for the catalog one)
    made = generate_sage(home, tmp_path / "a", "twin", seed=0, per_subcategory=2, real=real)
    again = generate_sage(home, tmp_path / "b", "twin", seed=0, per_subcategory=2, real=real)
    other = generate_sage(home, tmp_path / "c", "twin", seed=1, per_subcategory=2, real=real)
    assert _bytes(made.tasks) == _bytes(again.tasks)
    assert _bytes(made.tasks) != _bytes(other.tasks)
    # both twins have lights in rooms, a named device with a setting, and more: every kind,
    # but on the HA twin "darken the entire house", which would close its blind: HA shows it
    # with no position, so no mapping rule sets one and its HA could never run the task
    dark = "intent_resolution+command_chaining"
    left_out = {dark} if real is not None else set()
    assert {t.subcategory for t in made.tasks} == set(rows()) - left_out
    assert set(made.short) == left_out
    if left_out:
        why = "its Home Assistant could never run it (not mapped: cover.living_blind/position)"
        assert made.short[dark] == f"2 x {why}"
    assert {t.category for t in made.tasks} == set(CATEGORIES)
    dids = {d.did for d in home.devices}
    names = [d.name for d in home.devices] + [r.name for r in home.rooms]
    for task in made.tasks:
        assert task.suite == "sage" and task.home.file == "homes/twin.json"
        assert task.id.startswith("twin-sage-")
        assert {a.did for a in task.reference.actions} <= dids
        # the request names the home's own devices or rooms, never SAGE's hand-built ones
        text = task.turns[0].text
        assert any(n in text for n in names) or "house" in text, text
        assert "credenza" not in text and "nightstand" not in text
    cache = HomeCache(tmp_path / "a")
    verdicts = oracle_and_nothing(made.tasks, cache)
    assert {t: v for t, v in verdicts.items() if v != (True, False)} == {}


def test_disambiguation_keeps_the_others_and_a_room_named_device_is_not_a_target(
    tmp_path: Path,
) -> None:
    """Turning on every light of the kind fails a by-room task; a light placed nowhere but
    named for the room ("Living Room Strip") makes that room's light ambiguous: not a target,
    and a fix for "too dark in the living room"."""
    rooms = [
        Room(id="living_room", type="living_room", name="Living Room"),
        Room(id="bedroom", type="bedroom", name="Bedroom"),
    ]
    home = Home(
        name="two rooms",
        rooms=rooms,
        devices=[
            instantiate("light", did="light.a", room="living_room", name="Sofa Lamp"),
            instantiate("light", did="light.b", room="bedroom", name="Bedside Lamp"),
            instantiate("light", did="light.c", room=None, name="Living Room Strip"),
        ],
    )
    made = generate_sage(home, tmp_path, "two", per_subcategory=4)
    by_room = [t for t in made.tasks if t.subcategory == "device_resolution"]
    assert by_room and all("Bedroom" in t.turns[0].text for t in by_room)
    for task in by_room:
        if task.goal.kind == "execute":
            assert "device('light.a').state" in task.goal.critic
            assert "device('light.c').state" in task.goal.critic
    dark = [t for t in made.tasks if "Living Room" in t.turns[0].text and "dark" in t.turns[0].text]
    for task in dark:
        assert "light.c" in task.goal.critic and " or " in task.goal.critic


def test_a_home_too_small_lists_the_kinds_it_cannot_support(tmp_path: Path) -> None:
    home = Home(
        rooms=[Room(id="hall", type="hall", name="Hall")],
        devices=[instantiate("smart_lock", did="lock.front", room="hall", name="Front Door")],
    )
    made = generate_sage(home, tmp_path, "tiny", per_subcategory=1)
    assert made.tasks == []
    assert set(made.short) == set(rows())
    assert "no two devices of one kind" in made.short["device_resolution"]
    assert "no light in a room" in made.short["intent_resolution"]
    assert "| device_resolution | device_resolution | 0 |" in made.markdown("tiny")
