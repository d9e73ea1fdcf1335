"""A restart brings back the whole simulation, not only the device values.

The simulated clock, the room climates, the rules stored in the simulator, the schedules (done
ones stay done) and a washer mid-programme all come back, whether the entry was unloaded
cleanly or HA was killed (the storage as the debounced save left it, a second after the last
change), and the programme then ends at the simulated time it would have ended at anyway.
"""

from __future__ import annotations

import copy
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.smh.const import DOMAIN
from custom_components.smh.persistence import dump_model
from smh_core.homeenv.engine import dump_home
from smh_core.homeenv.model import Home
from smh_core.homeenv.rules import Rule
from tests.ha.conftest import setup_home_entry
from tests.support import sim_home as sh

NIGHT = {
    "id": "night",
    "triggers": [{"kind": "time", "cron": "0 0 22 * * ?"}],
    "actions": [{"did": "2", "locator": "turn_off"}],
}
WASHER_DONE = {
    "id": "washer_done",
    "triggers": [{"kind": "state", "did": "3", "locator": "op_state", "to": 0}],
    "actions": [{"did": "4", "locator": "turn_on"}],
}


def restart_home() -> Home:
    """An AC in the living room, a lamp there, a washer and a lamp in the kitchen, and one rule
    of the home file's own."""
    home = sh.home(
        sh.ac("1", "living"),
        sh.lamp("2", "living"),
        sh.washer("3", "kitchen"),
        sh.lamp("4", "kitchen"),
    )
    return home.model_copy(update={"automations": [Rule.model_validate(NIGHT)]})


async def setup(hass: HomeAssistant, entry: MockConfigEntry | None = None) -> MockConfigEntry:
    if entry is None:
        return await setup_home_entry(hass, restart_home(), time_scale=0.0)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def call(hass: HomeAssistant, service: str, **data: Any) -> Any:
    return await hass.services.async_call(
        DOMAIN, service, data, blocking=True, return_response=service == "advance_time"
    )


async def let_time_pass(hass: HomeAssistant, seconds: float) -> None:
    """``seconds`` of wall time for HA's timers; twice, so that a write a timer scheduled for
    "now" runs too (the store writes in a background task)."""
    when = dt_util.utcnow() + timedelta(seconds=seconds)
    for _ in range(2):
        async_fire_time_changed(hass, when)
        await hass.async_block_till_done(wait_background_tasks=True)


def picture(entry: MockConfigEntry) -> dict[str, Any]:
    """Everything the simulation holds that a restart must bring back."""
    runtime = entry.runtime_data
    sim = runtime.clock.sim
    return {
        "now": sim.now,
        "state": runtime.engine.snapshot().to_dict(),
        "schedules": [dump_model(s) for s in sim.schedules(include_done=True)],
        "rules": [dump_model(r) for r in sim.rules()],
        "washer_ends": sim.cycle_end("3"),
    }


async def live_a_while(hass: HomeAssistant, entry: MockConfigEntry) -> datetime:
    """Cool the living room for an hour, run a schedule, start the washer, store a rule and
    delete the file's, leave a schedule pending; returns the pending schedule's time."""
    sim = entry.runtime_data.clock.sim
    await call(hass, "execute", did="1", locator="turn_on")  # cools towards 24 °C from 28 °C
    sim.schedule(sim.now + timedelta(minutes=30), [{"did": "4", "locator": "turn_on"}])
    await call(hass, "advance_time", seconds=3600)
    await call(hass, "execute", did="4", locator="turn_off")  # the done schedule must not run again
    await call(hass, "execute", did="3", locator="start")
    await call(hass, "advance_time", seconds=1234)  # mid-wash: phase 1, 2306 s left
    at = sim.now + timedelta(hours=2)
    sim.schedule(at, [{"did": "2", "locator": "turn_on"}])
    sim.remove_rule("night")
    sim.add_rule(WASHER_DONE)
    return at


@pytest.mark.parametrize("how", ["unload", "kill -9"])
async def test_the_whole_simulation_survives_a_restart(
    hass: HomeAssistant, hass_storage: dict[str, Any], how: str
) -> None:
    entry = await setup(hass)
    pending_at = await live_a_while(hass, entry)
    before = picture(entry)
    living = before["state"]["@living"]
    assert (
        living["temperature"] < 27.0 and before["state"]["3"]["phase"] == 1
    )  # the setting is not trivial
    assert [s["status"] for s in before["schedules"]] == ["done", "pending"]

    key = f"{DOMAIN}.{entry.entry_id}.state"
    await let_time_pass(hass, 2)
    left_by_the_debounced_save = copy.deepcopy(hass_storage[key])
    old_runtime = entry.runtime_data
    assert await hass.config_entries.async_unload(entry.entry_id)
    await hass.async_block_till_done()
    if how == "kill -9":
        hass_storage[key] = left_by_the_debounced_save

    await setup(hass, entry)
    assert entry.runtime_data is not old_runtime
    assert picture(entry) == before
    assert [r.id for r in entry.runtime_data.clock.sim.rules()] == ["washer_done"]

    engine, ends = entry.runtime_data.engine, before["washer_ends"]
    await call(hass, "advance_time", seconds=1)
    assert (
        engine.value("4", "on") is False
    )  # the schedule done before the restart did not run again
    seconds_left = (ends - entry.runtime_data.clock.sim.now).total_seconds()
    await call(hass, "advance_time", seconds=seconds_left - 1)
    assert engine.value("3", "op_state") == 1 and engine.value("3", "countdown") == 1
    finished = await call(hass, "advance_time", seconds=1)
    assert [(e["kind"], e["ref"], e["time"]) for e in finished["events"]] == [
        ("cycle_complete", "3", ends.isoformat()),
        ("rule", "washer_done", ends.isoformat()),
    ]
    assert engine.value("3", "op_state") == 0 and engine.value("4", "on") is True
    assert engine.value("2", "on") is False
    await call(
        hass,
        "advance_time",
        seconds=(pending_at - entry.runtime_data.clock.sim.now).total_seconds(),
    )
    assert engine.value("2", "on") is True  # the pending schedule ran at its time


async def test_a_rule_stored_with_the_clock_stopped_is_saved_within_a_second(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    """The agent storing a rule changes no device; it is on disk a second later all the same."""
    entry = await setup(hass)
    entry.runtime_data.clock.sim.add_rule(WASHER_DONE)
    await let_time_pass(hass, 1)
    stored = hass_storage[f"{DOMAIN}.{entry.entry_id}.state"]["data"]["simulation"]
    assert [r["id"] for r in stored["automations"]] == ["night", "washer_done"]


async def test_stored_items_that_no_longer_fit_are_dropped(
    hass: HomeAssistant, hass_storage: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """A rule or schedule naming a device the home file no longer has, or no longer valid at
    all, is left out with a warning; the rest comes back."""
    (Path(hass.config.config_dir) / "home.json").write_text(dump_home(restart_home()))
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={
            "source": "file",
            "file": "home.json",
            "level": "simple",
            "seed": 0,
            "time_scale": 0.0,
        },
    )
    gone = {**WASHER_DONE, "id": "gone", "actions": [{"did": "9999", "locator": "turn_on"}]}
    hass_storage[f"{DOMAIN}.{entry.entry_id}.state"] = {
        "version": 1,
        "minor_version": 1,
        "key": f"{DOMAIN}.{entry.entry_id}.state",
        "data": {
            "home": restart_home().name,
            "devices": {"@living": {"temperature": 21.5}},
            "simulation": {
                "now": "2025-06-30T08:15:00.300000",
                "automations": [WASHER_DONE, gone, {"id": 1}],
                "schedules": [
                    {
                        "id": "s1",
                        "at": "2025-06-30T09:00:00",
                        "actions": [{"did": "2", "locator": "turn_on"}],
                    },
                    {"at": "never"},
                ],
            },
        },
    }
    entry.add_to_hass(hass)
    await setup(hass, entry)
    sim = entry.runtime_data.clock.sim
    assert sim.now == datetime(2025, 6, 30, 8, 15, 0, 300000)
    assert entry.runtime_data.engine.value("@living", "temperature") == 21.5
    assert [r.id for r in sim.rules()] == ["washer_done"]
    assert [s.id for s in sim.schedules()] == ["s1"]
    assert "not restoring automation gone" in caplog.text
