"""HomeEnv catalog types act on simulated rooms: ACs cool, lights light, sensors report."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sim_devices.catalog import instantiate
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home
from smh_core.homes.simulated import simulated_home, with_climate, with_room_climate
from smh_core.sim.simulator import Simulator


def _home(*devices) -> HomeEngine:
    """One living room on a hot day (32 °C outdoors)."""
    home = Home.model_validate(
        {
            "rooms": [{"id": "r1", "type": "living_room", "name": "Living room"}],
            "devices": [
                d.model_dump(mode="json", by_alias=True, exclude_none=True) for d in devices
            ],
        }
    )
    home = with_climate(home, seed=3)
    hot = home.simulation.outdoor.model_copy(update={"temperature": 32.0})
    return HomeEngine(
        home.model_copy(update={"simulation": home.simulation.model_copy(update={"outdoor": hot})})
    )


def test_floor_ac_cools_and_its_sensor_follows_with_its_precision():
    eng = _home(
        instantiate("floor_ac", "ac", "r1", preset="cooling"),
        instantiate("climate_sensor", "cs", "r1"),
    )
    assert eng.set_values("@r1", {"temperature": 29.0}).ok
    sim = Simulator(eng)
    sim.advance(1800)
    assert eng.environment("r1")["temperature"] == 24.5  # the preset's target, reached and held
    assert eng.value("ac", "current_temperature") == 24.5  # precision 0.5
    assert eng.value("cs", "current_temperature") == 24.5


def test_lights_and_curtain_set_illuminance():
    eng = _home(instantiate("light", "l", "r1"), instantiate("curtain", "c", "r1"))
    sim = Simulator(eng)
    night = sim.now.replace(hour=23)
    sim.run_until(night)
    assert eng.environment("r1")["illuminance"] == 0.0
    eng.execute("l", "turn_on")
    brightness = eng.value("l", "brightness")
    assert eng.environment("r1")["illuminance"] == pytest.approx(800 * brightness / 100)


def test_simulated_home_is_deterministic_per_seed():
    a, b = dump_home(simulated_home("medium", 4)), dump_home(simulated_home("medium", 4))
    assert a == b
    assert a != dump_home(simulated_home("medium", 5))
    home = simulated_home("medium", 4)
    assert all(r.environment is not None for r in home.rooms) and home.simulation is not None


def test_perf_sim_cli_reports_a_figure():
    out = subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", "perf", "sim", "--hours", "2"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "2 simulated hours (72,000 ticks" in out and "rule firings" in out


def test_matter_home_is_deterministic_and_places_appliances_sensibly():
    from smh_core.homes.simulated import MATTER_ROOMS, generate_matter_home

    a = generate_matter_home(3)
    assert dump_home(a) == dump_home(generate_matter_home(3))
    assert len(a.devices) == 27
    for d in a.devices:
        assert d.matter is not None and d.userdata.room in MATTER_ROOMS[d.userdata.subcategory]
    assert len({(d.userdata.room, d.name) for d in a.devices}) == 27  # "<type> <n>" unique per room


@pytest.mark.parametrize("seed", range(8))
def test_matter_devices_added_to_a_homeenv_home_never_reuse_its_ids(seed):
    """HomeEnv dids are random four-digit numbers; the complex home of seed 5 holds 9006, which
    the Matter appliances (numbered from 9001) once took a second time."""
    from smh_core.homes.generator import generate_home
    from smh_core.homes.simulated import with_matter_devices

    home = with_matter_devices(generate_home("complex", seed), seed)
    dids = [d.userdata.did for d in home.devices]
    assert len(dids) == len(set(dids))
    assert Home.model_validate(home.model_dump(mode="json", by_alias=True)).devices  # re-validates


def test_room_climate_fills_only_rooms_without_one() -> None:
    """Rooms without a climate get the one ``with_climate`` would draw for them, except what
    their own sensors report; a room that has one keeps it; devices and the clock are untouched;
    same seed, same bytes."""
    from smh_core.homes.generator import generate_home
    from smh_core.homes.simulated import reported_climate

    plain = generate_home("medium", 0)
    full = with_climate(plain, seed=4)
    filled = with_room_climate(plain, seed=4)
    for room, drawn, got in zip(plain.rooms, full.rooms, filled.rooms, strict=True):
        assert got.environment == drawn.environment.model_copy(
            update=reported_climate(plain, room.id)
        )
    assert any(reported_climate(plain, r.id) for r in plain.rooms)  # the case is exercised
    assert filled.simulation == plain.simulation and filled.devices == plain.devices
    assert dump_home(filled) == dump_home(with_room_climate(plain, seed=4))
    kept = full.rooms[0].environment.model_copy(update={"temperature": 12.5})
    partial = plain.model_copy(
        update={"rooms": [full.rooms[0].model_copy(update={"environment": kept}), *plain.rooms[1:]]}
    )
    out = with_room_climate(partial, seed=4)
    assert out.rooms[0].environment.temperature == 12.5
    assert out.rooms[1:] == filled.rooms[1:]
    assert with_room_climate(full, seed=99) is full
    assert len(HomeEngine(filled).simulated_rooms()) == len(plain.rooms)


def test_a_rooms_only_thermometer_keeps_its_reading_once_simulated() -> None:
    """The room starts where its sensor says it is, so attaching the simulator does not move a
    reading the home was generated with."""
    home = Home(
        name="h",
        rooms=[{"id": "r", "type": "bedroom", "name": "Bedroom"}],
        devices=[
            instantiate(
                "climate_sensor",
                did="1",
                room="r",
                values={"current_temperature": 19.5, "current_humidity": 61.0},
            )
        ],
    )
    engine = HomeEngine(with_room_climate(home, seed=1))
    before = engine.snapshot()
    Simulator(engine)
    assert engine.value("@r", "temperature") == 19.5 and engine.value("@r", "humidity") == 61.0
    assert [c for c in engine.diff(before, engine.snapshot()) if not c.did.startswith("@")] == []
