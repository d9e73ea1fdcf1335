"""Every appliance the catalogs model runs its programmes to the end on simulated time.

Catalog-wide: each type with a countdown (:func:`tests.support.appliances.programme_types`),
in the generated home of every size, runs every programme a user can start (every mode, with
and without drying, every cooking function at lengths across its range) and must finish on
time, in its stopped state, with its countdown at 0 and its pull on the room gone; what it
drove while running is checked against what it should drive. The same programmes run in Home
Assistant in ``tests/ha/test_appliance_programmes.py``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from sim_devices.catalog import load_catalog
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room
from smh_core.homes.simulated import with_climate
from smh_core.sim.simulator import Simulator
from tests.support.appliances import (
    PROGRAMMES,
    ROUNDS,
    home_with_every_appliance,
    programme_of,
    programme_types,
)
from tests.support.sim_home import START


def test_every_type_with_a_countdown_has_a_programme_and_a_start_recipe() -> None:
    types = programme_types()
    with_cycle = {
        name
        for kind in ("homeenv", "matter")
        for name, dt in load_catalog(kind).items()
        if dt.dynamics is not None and dt.dynamics.cycle is not None
    }
    assert set(types) == with_cycle == set(PROGRAMMES)
    assert {
        "compound_washer",
        "builtin_microwave_steam_oven",
        "laundry_washer",
        "laundry_dryer",
        "dishwasher",
        "robot_vacuum",
    } <= set(types)


def _cycle(engine: HomeEngine, did: str) -> Any:
    return engine.device(did).dynamics.cycle


@pytest.mark.parametrize("level", ["simple", "medium", "complex"])
def test_every_appliance_runs_every_programme_to_the_end(level: str) -> None:
    engine = HomeEngine(home_with_every_appliance(level))
    sim = Simulator(engine)
    appliances = [
        did for did in engine.device_ids() if engine.device(did).userdata.subcategory in PROGRAMMES
    ]
    assert {engine.device(d).userdata.subcategory for d in appliances} == set(PROGRAMMES)
    driven: dict[str, set[str]] = {}

    def watch(changes: list[Any]) -> None:
        for ch in changes:
            if ch.did in driven:
                driven[ch.did] |= sim.driving(ch.did)

    engine.add_listener(watch)
    for round_ in range(ROUNDS):
        started = sim.now
        expected = {}
        for did in appliances:
            prog = programme_of(engine.device(did).userdata.subcategory, round_)
            for locator, args in prog.calls:
                result = engine.execute(did, locator, args)
                assert result.ok, (did, prog.label, locator, result.error)
            cyc = _cycle(engine, did)
            assert cyc.is_running(engine.value(did, cyc.state_attr)), (did, prog.label)
            assert engine.value(did, cyc.countdown_attr) == prog.seconds, (did, prog.label)
            assert sim.cycle_end(did) == started + timedelta(seconds=prog.seconds)
            expected[did] = prog
            driven[did] = sim.driving(did)
        before = len(sim.log)
        sim.advance(max(p.seconds for p in expected.values()) + 60)
        ends = {e.ref: e.time for e in sim.log[before:] if e.kind == "cycle_complete"}
        for did, prog in expected.items():
            cyc = _cycle(engine, did)
            where = (level, did, engine.device(did).userdata.subcategory, prog.label)
            assert ends.get(did) == started + timedelta(seconds=prog.seconds), where
            state = engine.value(did, cyc.state_attr)
            assert not cyc.is_running(state) and state == cyc.on_complete.get(
                cyc.state_attr, cyc.stopped
            ), where
            assert engine.value(did, cyc.countdown_attr) == 0 and sim.cycle_end(did) is None, where
            assert driven[did] == prog.drives, where  # what it did to its room while running ...
            assert sim.driving(did) == set(), where  # ... and nothing once it is done


def _kitchen_home(*devices: Any) -> HomeEngine:
    home = Home(rooms=[Room(id="k", type="kitchen", name="Kitchen")], devices=list(devices))
    return HomeEngine(with_climate(home, seed=1, start=START))


@pytest.mark.parametrize(
    ("kind", "calls", "variables"),
    [
        (
            "builtin_microwave_steam_oven",
            PROGRAMMES["builtin_microwave_steam_oven"][-1].calls,
            ("temperature", "humidity"),
        ),
        ("compound_washer", PROGRAMMES["compound_washer"][1].calls, ("temperature", "humidity")),
    ],
)
def test_an_appliance_warms_and_humidifies_its_room_only_while_it_runs(
    kind, calls, variables
) -> None:
    """Beside the same room left alone, the room of a steam-baking oven (2 h) or a drying
    washer-dryer is warmer and more humid at the end; from then on it relaxes as the lone
    room does (the two converge: the appliance no longer pulls)."""
    from sim_devices.catalog import instantiate

    runs, alone = (
        _kitchen_home(instantiate(kind, "a", "k")),
        _kitchen_home(instantiate(kind, "a", "k")),
    )
    sims = Simulator(runs), Simulator(alone)
    for locator, args in calls:
        assert runs.execute("a", locator, args).ok
    end = sims[0].cycle_end("a")
    assert end is not None
    for sim in sims:
        sim.run_until(end)
    gap = {v: runs.environment("k")[v] - alone.environment("k")[v] for v in variables}
    assert all(g > 0.5 for g in gap.values()), gap
    for sim in sims:
        sim.advance(6 * 3600)
    later = {v: runs.environment("k")[v] - alone.environment("k")[v] for v in variables}
    assert all(0 <= later[v] < gap[v] / 2 for v in variables), (gap, later)


def test_washer_dryer_names_its_phases_and_pause_keeps_its_place() -> None:
    from sim_devices.catalog import instantiate

    engine = _kitchen_home(instantiate("compound_washer", "w", "k", preset="ready"))
    sim = Simulator(engine)
    for locator, args in PROGRAMMES["compound_washer"][3].calls:  # quick (30 min) + drying (45)
        assert engine.execute("w", locator, args).ok
    seen = [engine.value("w", "work_state")]
    for _ in range(15):
        sim.advance(300)
        seen.append(engine.value("w", "work_state"))
        if seen[-1] == "spinning" and engine.execute("w", "pause").ok:
            left = engine.value("w", "remaining_time")
            sim.advance(600)  # paused: nothing moves
            assert (engine.value("w", "work_state"), engine.value("w", "remaining_time")) == (
                "paused",
                left,
            )
            assert engine.execute("w", "resume").ok
            assert (engine.value("w", "work_state"), engine.value("w", "remaining_time")) == (
                "spinning",
                left,
            )
    assert list(dict.fromkeys(seen)) == ["washing", "rinsing", "spinning", "drying", "done"]


def test_oven_started_again_runs_the_new_programme() -> None:
    from sim_devices.catalog import instantiate

    ns = "microwave_steam_oven."
    engine = _kitchen_home(instantiate("builtin_microwave_steam_oven", "o", "k", preset="standby"))
    sim = Simulator(engine)
    assert engine.execute(
        "o", ns + "start_cooking", {"work_mode": "bake", "target_cooking_time": 1800}
    ).ok
    sim.advance(600)
    assert engine.value("o", ns + "remaining_running_time") == 1200
    # started again while cooking: the new length, from now
    assert engine.execute(
        "o", ns + "start_cooking", {"work_mode": "steam", "target_cooking_time": 300}
    ).ok
    assert sim.cycle_end("o") == sim.now + timedelta(seconds=300)
    sim.advance(100)
    assert engine.execute("o", ns + "pause").ok
    sim.advance(1000)
    assert engine.value("o", ns + "remaining_running_time") == 200
    # started again while paused: a new programme, not the paused one resumed
    assert engine.execute(
        "o", ns + "start_cooking", {"work_mode": "bake", "target_cooking_time": 900}
    ).ok
    assert engine.value("o", ns + "remaining_running_time") == 900 and sim.cycle_end(
        "o"
    ) == sim.now + timedelta(seconds=900)
    sim.advance(900)
    assert (
        engine.value("o", ns + "state") == "standby"
        and engine.value("o", ns + "remaining_running_time") == 0
    )


def test_a_cycle_writing_a_value_its_attribute_refuses_is_a_catalog_error(tmp_path) -> None:
    import yaml

    from sim_devices.catalog import load_device_type

    raw = load_catalog("homeenv")["compound_washer"].model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    raw["dynamics"]["cycle"]["programs"]["quick"][0]["name"] = "soaking"  # not a work_state option
    raw["dynamics"]["cycle"]["on_complete"] = {"work_state": "finished"}
    path = tmp_path / "compound_washer.yaml"
    path.write_text(yaml.safe_dump(raw))
    with pytest.raises(ValueError) as err:
        load_device_type(path)
    assert "dynamics.cycle.phase_in_state: 'soaking' for 'work_state'" in str(err.value)
    assert "dynamics.cycle.on_complete.work_state: 'finished' for 'work_state'" in str(err.value)
