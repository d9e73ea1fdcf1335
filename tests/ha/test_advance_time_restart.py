"""A 7-day ``smh.advance_time`` interrupted half-way is finished after the restart.

The jump's target is stored before its first slice. When the entry unloads (or HA stops: the
same path, run as a shutdown job; a real ``hass`` process is stopped mid-jump in
``tests/e2e/test_advance_time_restart.py``) the running slice ends, the call answers with how
far it got, and after the restart the rest runs in the background, ending in exactly the state
of one uninterrupted run; each slice fires an ``smh_advance_time`` event. With resuming off,
a persistent notification says how far it got instead.
"""

from __future__ import annotations

import asyncio
import copy
from datetime import timedelta
from typing import Any

import pytest
from homeassistant.components import persistent_notification
from homeassistant.core import Event, HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.clock import EVENT_ADVANCE_TIME
from custom_components.smh.const import DOMAIN
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.sim.simulator import Simulator
from tests.ha.conftest import setup_home_entry
from tests.support import sim_home as sh

WEEK = 7 * 86400


def busy_home() -> Home:
    """The responsiveness tests' home with a rule firing every 15 s (a week in seconds)."""
    return sh.busy_home(period=15)


async def _start_jump(
    hass: HomeAssistant, entry: MockConfigEntry, hours: float = 3
) -> asyncio.Task[Any]:
    """A week's jump, running until ``hours`` of it are done."""
    sim = entry.runtime_data.clock.sim
    start = sim.now
    jump = hass.async_create_task(
        hass.services.async_call(
            DOMAIN, "advance_time", {"seconds": WEEK}, blocking=True, return_response=True
        )
    )
    while sim.now < start + timedelta(hours=hours):
        assert not jump.done(), "the jump ended before it could be interrupted"
        await asyncio.sleep(0.01)
    return jump


async def _restart(hass: HomeAssistant, entry: MockConfigEntry) -> None:
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()


async def _until_done(entry: MockConfigEntry, timeout: float = 120) -> None:
    clock = entry.runtime_data.clock
    for _ in range(int(timeout * 20)):
        if clock.jump is None and not clock.in_slice:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the resumed jump did not finish; the clock is at {clock.sim.now}")


def _uninterrupted(home: Home, seconds: float) -> Simulator:
    sim = Simulator(HomeEngine(home))
    sim.advance(seconds)
    return sim


@pytest.mark.parametrize("how", ["unload", "kill -9"])
async def test_a_week_interrupted_is_finished_after_the_restart(
    hass: HomeAssistant, hass_storage: dict[str, Any], how: str
) -> None:
    entry = await setup_home_entry(hass, busy_home(), time_scale=0.0)
    key = f"{DOMAIN}.{entry.entry_id}.state"
    start = entry.runtime_data.clock.sim.now
    target = (start + timedelta(seconds=WEEK)).isoformat()
    progress: list[dict[str, Any]] = []
    hass.bus.async_listen(EVENT_ADVANCE_TIME, lambda e: progress.append(dict(e.data)))

    jump = await _start_jump(hass, entry)
    stored_at_start = copy.deepcopy(hass_storage[key]["data"])
    assert stored_at_start["advance"] == {
        "from": start.isoformat(),
        "target": target,
    }  # before it ran
    assert await hass.config_entries.async_unload(entry.entry_id)
    reply = await jump
    assert reply["finished"] is False and reply["interrupted"] is True and reply["resumes"] is True
    assert reply["target"] == target and 3 * 3600 <= reply["done_seconds"] < WEEK
    assert reply["now"] == (start + timedelta(seconds=reply["done_seconds"])).isoformat()
    assert reply["now"].endswith(":00:00")  # a slice ends on a whole simulated hour
    await hass.async_block_till_done()  # the events' listeners
    assert progress[-1]["now"] == reply["now"] and progress[-1]["config_entry_id"] == entry.entry_id
    assert hass_storage[key]["data"]["advance"]["target"] == target
    if how == "kill -9":  # HA died right after the jump started: only its target was written
        hass_storage[key]["data"] = stored_at_start

    await _restart(hass, entry)
    await _until_done(entry)
    runtime = entry.runtime_data
    assert runtime.clock.sim.now.isoformat() == target
    await hass.async_block_till_done()
    assert progress[-1]["finished"] is True and progress[-1]["now"] == target
    plain = _uninterrupted(busy_home(), WEEK)
    assert runtime.engine.snapshot().to_dict() == plain.engine.snapshot().to_dict()
    await hass.async_block_till_done()
    assert "advance" not in hass_storage[key]["data"]  # nothing left to resume
    reply = await hass.services.async_call(
        DOMAIN, "advance_time", {"seconds": 0}, blocking=True, return_response=True
    )
    assert reply["now"] == target and reply["finished"] is True


async def test_with_resuming_off_a_notification_says_how_far_it_got(
    hass: HomeAssistant, hass_storage: dict[str, Any]
) -> None:
    assert await async_setup_component(hass, "persistent_notification", {})
    entry = await setup_home_entry(hass, busy_home(), time_scale=0.0)
    hass.config_entries.async_update_entry(entry, options={**entry.data, "resume_advance": False})
    await hass.async_block_till_done()  # the entry reloads with the option
    key = f"{DOMAIN}.{entry.entry_id}.state"
    jump = await _start_jump(hass, entry, hours=2)
    assert await hass.config_entries.async_unload(entry.entry_id)
    reply = await jump
    assert reply["finished"] is False and reply["resumes"] is False

    await _restart(hass, entry)
    await asyncio.sleep(0.2)
    await hass.async_block_till_done()
    clock = entry.runtime_data.clock
    assert clock.sim.now.isoformat() == reply["now"] and clock.jump is None  # not resumed
    notes = persistent_notification._async_get_or_create_notifications(hass)
    note = notes[f"smh_advance_time_{entry.entry_id}"]
    hours = reply["done_seconds"] / 3600
    assert f"reached {reply['now']} of {reply['target']} ({hours:g} of 168 h" in note["message"]
    assert f"seconds: {WEEK - reply['done_seconds']:g}" in note["message"]
    assert "advance" not in hass_storage[key]["data"]  # told once, not at every restart


async def test_each_slice_reports_progress(hass: HomeAssistant) -> None:
    entry = await setup_home_entry(hass, busy_home(), time_scale=0.0)
    seen: list[Event] = []
    hass.bus.async_listen(EVENT_ADVANCE_TIME, seen.append)
    reply = await hass.services.async_call(
        DOMAIN, "advance_time", {"seconds": 3 * 3600 + 1800}, blocking=True, return_response=True
    )
    await hass.async_block_till_done()
    assert [e.data["done_seconds"] for e in seen] == [3600, 7200, 10800, 12600]
    assert [e.data["finished"] for e in seen] == [False, False, False, True]
    assert reply["finished"] is True and reply["done_seconds"] == reply["total_seconds"] == 12600
    assert entry.runtime_data.clock.jump is None
