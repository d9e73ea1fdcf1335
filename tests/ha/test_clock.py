"""Simulated time inside Home Assistant: smh.advance_time runs appliance programmes and
schedules, the wall clock paces the simulator by time_scale, and what the simulator changes
reaches the entities without polling."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
import voluptuous as vol
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.smh.const import DOMAIN
from tests.ha.conftest import setup_home_entry
from tests.support import sim_home as sh


async def setup(hass: HomeAssistant, time_scale: float) -> MockConfigEntry:
    home = sh.home(sh.washer("1", "kitchen"), sh.lamp("2", "living"))
    return await setup_home_entry(hass, home, time_scale=time_scale)


def entity(hass: HomeAssistant, entry: MockConfigEntry, did: str, key: str) -> str:
    reg = er.async_get(hass)
    found = [
        e.entity_id
        for e in er.async_entries_for_config_entry(reg, entry.entry_id)
        if e.unique_id == f"{entry.entry_id}_{did}_{key}"
    ]
    assert found, key
    return found[0]


async def test_advance_time_finishes_a_washer_and_pushes_it(hass: HomeAssistant) -> None:
    entry = await setup(hass, time_scale=0)
    state_id = entity(hass, entry, "1", "op_state")
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "1", "locator": "start"}, blocking=True
    )
    assert hass.states.get(state_id).state == "1"

    early = await hass.services.async_call(
        DOMAIN, "advance_time", {"seconds": 3000}, blocking=True, return_response=True
    )
    assert early["now"] == "2025-06-27T12:50:00" and early["events"] == []
    assert hass.states.get(state_id).state == "1"
    assert hass.states.get(entity(hass, entry, "1", "countdown")).state == "540"

    done = await hass.services.async_call(
        DOMAIN, "advance_time", {"seconds": 600}, blocking=True, return_response=True
    )
    assert [(e["kind"], e["ref"], e["time"]) for e in done["events"]] == [
        ("cycle_complete", "1", "2025-06-27T12:59:00")
    ]
    assert hass.states.get(state_id).state == "0"


async def test_schedules_run_when_their_time_comes(hass: HomeAssistant) -> None:
    entry = await setup(hass, time_scale=0)
    clock = entry.runtime_data.clock
    clock.sim.schedule(datetime(2025, 6, 27, 13, 0), [{"did": "2", "locator": "turn_on"}])
    await hass.services.async_call(DOMAIN, "advance_time", {"seconds": 3599}, blocking=True)
    assert entry.runtime_data.engine.value("2", "on") is False
    await hass.services.async_call(DOMAIN, "advance_time", {"seconds": 1}, blocking=True)
    assert entry.runtime_data.engine.value("2", "on") is True
    assert hass.states.get(entity(hass, entry, "2", "on")).state == "on"


async def test_wall_clock_paces_the_simulator(hass: HomeAssistant) -> None:
    entry = await setup(hass, time_scale=60)
    clock = entry.runtime_data.clock
    start = clock.sim.now
    for i in range(1, 4):
        async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=i))
        await hass.async_block_till_done()
    assert clock.sim.now - start == timedelta(minutes=3)
    assert await hass.config_entries.async_unload(entry.entry_id)
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=10))
    await hass.async_block_till_done()
    assert clock.sim.now - start == timedelta(minutes=3)  # stopped with the entry


async def test_negative_time_is_refused(hass: HomeAssistant) -> None:
    await setup(hass, time_scale=0)
    with pytest.raises(vol.Invalid, match="value must be at least 0"):
        await hass.services.async_call(DOMAIN, "advance_time", {"seconds": -5}, blocking=True)


async def test_a_late_done_callback_of_an_earlier_slice_leaves_the_running_one_alone(
    hass: HomeAssistant,
) -> None:
    """A slice's job also hands its changes over from its done callback; that callback may run
    only after the caller has started the next slice (it did on HA 2026.10 / Python 3.14). It
    must not flush or unlock the running slice: the lock is what keeps services off the engine
    while a thread runs the simulator."""
    import asyncio
    import threading

    clock = (await setup(hass, time_scale=0)).runtime_data.clock
    earlier = hass.loop.create_future()
    earlier.set_result([])
    release, started = threading.Event(), threading.Event()

    def slow_slice(end: int) -> list:
        started.set()
        release.wait(10)
        return []

    clock._run_slice = slow_slice
    running = hass.async_create_task(clock._slice(clock.sim.tick + 10))
    while not started.is_set():
        await asyncio.sleep(0.01)
    clock._slice_done(earlier)  # the earlier slice's callback, late
    assert clock.in_slice and clock.lock.locked()
    release.set()
    assert await running == []
    assert not clock.in_slice and not clock.lock.locked()
