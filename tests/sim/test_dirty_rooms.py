"""Dirty-room tracking: after a change the simulator rebuilds and re-syncs only the rooms it
can affect, and ends in the state a simulator that redoes every room each window does (the same
log; values the same up to float rounding, as rooms left alone are integrated in fewer steps).

The spies wrap the simulator's own methods (the real ones still run): they record which rooms
had their physics rebuilt (``_build_track``) and which rooms were written back (``_updates``).
Drift is off so that a room nothing acts on stays put and is not re-synced for moving.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home
from smh_core.sim.simulator import Simulator
from tests.sim.test_simulator import assert_same
from tests.support import sim_home as sh

ROOMS = ("living", "kitchen", "bedroom")


def _home(*, drift: bool = False) -> Home:
    h = sh.home(
        sh.ac("ac1", "living"),
        sh.lamp("l1", "kitchen"),
        sh.blind("b1", "kitchen"),
        sh.purifier("p1", "bedroom"),
        sh.washer("w1", "bedroom"),
        sh.humidifier("h1", "living"),
        rooms=ROOMS,
    )
    if drift:
        return h
    assert h.simulation is not None
    return h.model_copy(update={"simulation": h.simulation.model_copy(update={"drift": {}})})


def _spied(sim: Simulator) -> tuple[list[str], list[list[str]]]:
    built: list[str] = []
    synced: list[list[str]] = []
    build, updates = sim._build_track, sim._updates

    def spy_build(room: str, var: str) -> Any:
        built.append(room)
        return build(room, var)

    def spy_updates(rooms: list[str], cycles: Any) -> Any:
        synced.append(list(rooms))
        return updates(rooms, cycles)

    sim._build_track = spy_build  # type: ignore[method-assign]
    sim._updates = spy_updates  # type: ignore[method-assign]
    return built, synced


def _settled() -> tuple[Simulator, list[str], list[list[str]]]:
    sim = Simulator(HomeEngine(_home()))
    sim.advance(10)
    built, synced = _spied(sim)
    return sim, built, synced


def test_quiet_windows_rebuild_and_resync_nothing() -> None:
    sim, built, synced = _settled()
    sim.advance(60)
    assert built == []
    assert synced and all(rooms == [] for rooms in synced)


def test_a_change_in_one_room_rebuilds_and_resyncs_that_room_only() -> None:
    sim, built, synced = _settled()
    before = {r: sim.engine.environment(r) for r in ("kitchen", "bedroom")}
    sim.engine.execute("ac1", "turn_on")
    sim.advance(60)
    assert set(built) == {"living"}
    assert {r for rooms in synced for r in rooms} == {"living"}
    assert sim.engine.value("@living", "temperature") < 28.0  # the AC cools the living room
    assert {r: sim.engine.environment(r) for r in ("kitchen", "bedroom")} == before


def test_a_reading_written_from_outside_is_put_back_without_rebuilding() -> None:
    sim, built, synced = _settled()
    reading = sim.engine.value("ac1", "local_temperature")
    assert sim.engine.set_values("ac1", {"local_temperature": reading - 900}).ok
    sim.advance(1)
    assert sim.engine.value("ac1", "local_temperature") == reading
    assert built == []  # a reading is not an input of the room's law
    assert [r for rooms in synced for r in rooms] == ["living"]


def test_a_room_value_written_from_outside_is_put_back_in_that_room_only() -> None:
    sim, built, synced = _settled()
    lux = sim.engine.value("@bedroom", "illuminance")
    assert sim.engine.set_values("@bedroom", {"illuminance": lux + 500.0, "temperature": 21.5}).ok
    sim.advance(1)
    assert sim.engine.value("@bedroom", "illuminance") == lux  # light comes from lamps and daylight
    assert sim.engine.value("@bedroom", "temperature") == 21.5  # a room's climate can be set
    assert built == []
    assert [r for rooms in synced for r in rooms] == ["bedroom"]


def test_a_blind_relights_its_room_at_once_and_no_other() -> None:
    sim, built, synced = _settled()
    lux = {r: sim.engine.value(f"@{r}", "illuminance") for r in ROOMS}
    assert sim.engine.execute("b1", "closed", {"value": 10000}).ok  # fully closed: no daylight
    assert sim.engine.value("@kitchen", "illuminance") < lux["kitchen"]
    assert set(built) == {"kitchen"}
    assert synced == [["kitchen"]]
    assert {r: sim.engine.value(f"@{r}", "illuminance") for r in ("living", "bedroom")} == {
        r: lux[r] for r in ("living", "bedroom")
    }


def test_an_appliance_programme_writes_its_countdown_without_touching_its_room() -> None:
    sim, built, synced = _settled()
    assert sim.engine.execute("w1", "start").ok
    left = sim.engine.value("w1", "countdown")
    sim.advance(60)
    assert sim.engine.value("w1", "countdown") == left - 60
    assert built == []
    assert all(rooms == [] for rooms in synced)


class _EveryRoom(Simulator):
    """The behaviour before tracking: after every window every room integrated up to it, its
    law rebuilt and its next event planned again, and every room written back."""

    def _sync_watched(self, cycles: set[str]) -> None:
        self._stale.clear()
        self._sync()  # every room up to now, and written
        self._dirty.update(self._rooms)
        self._replan.update(self._rooms)


_CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("ac1", "turn_on", {}),
    ("ac1", "turn_off", {}),
    ("ac1", "fan", {"value": 30}),
    ("ac1", "cool_setpoint", {"value": 2300}),
    ("h1", "turn_on", {}),
    ("h1", "turn_off", {}),
    ("p1", "turn_on", {}),
    ("p1", "turn_off", {}),
    ("l1", "turn_on", {}),
    ("l1", "turn_off", {}),
    ("l1", "level", {"value": 40}),
    ("b1", "closed", {"value": 6000}),
    ("b1", "closed", {"value": 0}),
    ("w1", "start", {}),
    ("w1", "pause", {}),
    ("w1", "resume", {}),
    ("w1", "stop", {}),
]


def _play(cls: type[Simulator], seed: int) -> tuple[dict, list]:
    rng = random.Random(seed)
    sim = cls(HomeEngine(_home(drift=True)))
    sim.add_rule(
        {
            "id": "warm",
            "triggers": [
                {"kind": "numeric", "did": "ac1", "locator": "local_temperature", "below": 2600}
            ],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        }
    )
    for _ in range(12):
        if rng.random() < 0.2:  # someone writes a room or a reading directly
            room = rng.choice(ROOMS)
            sim.engine.set_values(
                f"@{room}", {"temperature": rng.uniform(20, 32), "illuminance": 1.0}
            )
            sim.engine.set_values("h1", {"humidity": rng.randrange(2000, 8000)})
        else:
            did, loc, args = rng.choice(_CALLS)
            sim.engine.execute(did, loc, args)
        sim.advance(rng.choice([0.5, 30, 400, 2500]))
    return json.loads(dump_home(sim.to_home())), [(e.time, e.kind, e.ref) for e in sim.log]


@pytest.mark.parametrize("seed", range(6))
def test_tracking_ends_where_redoing_every_room_every_window_does(seed: int) -> None:
    """Same log; same state up to float rounding (a room left alone is integrated in one
    closed-form step where the reference takes one per window)."""
    tracked_state, tracked_log = _play(Simulator, seed)
    every_state, every_log = _play(_EveryRoom, seed)
    assert tracked_log == every_log
    assert_same(tracked_state, every_state)


def test_trusted_writes_refuse_an_unknown_attribute_before_changing_anything() -> None:
    """``set_many_trusted`` skips validation, not atomicity: an unknown attribute anywhere in the
    batch is a KeyError naming it, and the devices written before it in the batch keep their state."""
    from smh_core.homes.generator import generate_home

    engine = HomeEngine(generate_home("simple", 0))
    first, second = engine.device_ids()[:2]
    loc, value = next(
        (k, v)
        for k, v in engine.status(first).items()
        if isinstance(v, (int, float)) and not isinstance(v, bool)
    )
    before = engine.snapshot()
    with pytest.raises(KeyError, match="no_such_attribute"):
        engine.set_many_trusted({first: {loc: value + 1}, second: {"no_such_attribute": 1}})
    assert engine.diff(before, engine.snapshot()) == []
    changes = engine.set_many_trusted({first: {loc: value + 1}})
    assert [(c.did, c.locator, c.before, c.after) for c in changes] == [
        (first, loc, value, value + 1)
    ]
