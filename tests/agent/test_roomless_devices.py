"""Devices in no room (HomeBench and home-assistant-datasets list devices without an area):
they load, are listed, controlled, simulated and verified like any other, belong to no room's
listing or climate, and prompts show them as in no room."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from smh_core.agent.backend import NO_ROOM, AsyncAdapter, run_sync
from smh_core.agent.dr import serialize_home
from smh_core.agent.eia import initial_context
from smh_core.agent.resolve import resolve_devices
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_task
from smh_core.cli.home import summarize
from smh_core.homeenv.engine import HomeEngine, dump_home, load_home
from smh_core.homeenv.model import Home
from smh_core.homes.simulated import generate_matter_home
from smh_core.sim.simulator import Simulator
from tests.support.file_task import execute_task_on

FIXTURES = Path(__file__).parents[1] / "fixtures"


def roomless_home_data() -> dict:
    """The tiny fixture home with its bedroom lamp (1001) in no room."""
    data = json.loads((FIXTURES / "tiny_home.json").read_text())
    del data["devices"][0]["userdata"]["room"]
    return data


@pytest.fixture
def engine() -> HomeEngine:
    return HomeEngine(Home.model_validate(roomless_home_data()))


def test_a_device_may_have_no_room_but_an_unknown_room_is_refused():
    home = Home.model_validate(roomless_home_data())
    assert home.devices[0].userdata.room is None
    data = roomless_home_data()
    data["devices"][0]["userdata"]["room"] = "garage"
    with pytest.raises(ValidationError, match="device '1001' is in unknown room 'garage'"):
        Home.model_validate(data)


def test_listing_filters_and_summaries(engine):
    assert engine.summary("1001")["room"] is None and engine.summary("1001")["room_name"] is None
    assert "1001" in {d["did"] for d in engine.devices()}
    assert all(
        d["did"] != "1001"
        for r in engine.rooms()
        for d in engine.devices(room=r.id, include_nested=True)
    )
    assert [d["did"] for d in engine.devices(category="light")] == ["1001"]


def test_control_snapshot_and_file_round_trip(engine, tmp_path):
    before = engine.snapshot()
    assert engine.execute("1001", "turn_on", {}).ok
    assert [(c.did, c.locator) for c in engine.diff(before, engine.snapshot())] == [
        ("1001", "state")
    ]
    path = tmp_path / "home.json"
    engine.save(path)
    again = HomeEngine(load_home(path))
    assert again.device("1001").userdata.room is None and again.value("1001", "state") == "on"


def test_prompts_resolution_and_cli_show_the_device_as_in_no_room(engine):
    backend = EmbeddedBackend(engine)
    home = AsyncAdapter(backend)
    assert f"| light | {NO_ROOM}" in run_sync(initial_context(home))
    assert f"| {NO_ROOM} |" in run_sync(serialize_home(home))
    assert "None" not in run_sync(initial_context(home)).split("Devices")[-1]
    assert resolve_devices(backend, "bedroom lamp")[0].device["did"] == "1001"  # by its name alone
    assert "(no room) — 1 devices" in summarize(engine.home)


def _climate_after_an_hour(data: dict, did: str, on: dict) -> dict:
    sim = Simulator(HomeEngine(Home.model_validate(data)))
    try:
        assert sim.engine.set_values(did, on).ok
        sim.advance(3600)
        return {r: sim.engine.environment(r) for r in sim.engine.simulated_rooms()}
    finally:
        sim.close()


def test_a_simulated_device_in_no_room_drives_no_room_climate():
    home = generate_matter_home(3)
    data = json.loads(dump_home(home))
    switch = {
        d.did: next(loc for loc, _ in d.attributes_by_locator() if loc.endswith("OnOff.OnOff"))
        for d in home.devices
        if d.dynamics is not None and d.dynamics.drives
    }
    # a device that, in its room, moves the climate: on and off give different rooms after an hour
    did, loc = next(
        (did, loc)
        for did, loc in switch.items()
        if _climate_after_an_hour(data, did, {loc: True})
        != _climate_after_an_hour(data, did, {loc: False})
    )
    for d in data["devices"]:
        if d["userdata"]["did"] == did:
            d["userdata"]["room"] = None
    assert _climate_after_an_hour(data, did, {loc: True}) == _climate_after_an_hour(
        data, did, {loc: False}
    )


async def test_oracle_passes_and_null_fails_on_a_device_in_no_room(tmp_path):
    task, homes = execute_task_on(
        tmp_path,
        roomless_home_data(),
        "device(1001).state == on",
        [{"did": "1001", "locator": "turn_on"}],
    )
    assert (await run_task(task, OracleAgent(), homes))["passed"]
    assert not (await run_task(task, NullAgent(), homes))["passed"]
