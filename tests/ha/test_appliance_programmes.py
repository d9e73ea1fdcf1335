"""Every catalog appliance runs its programmes to the end inside Home Assistant.

The homes and programmes of ``tests/sim/test_appliance_programmes.py`` (the generated home of
each size, plus one device of every programme type it lacks), each programme started with
``smh.execute`` as a user's automation would, time moved with ``smh.advance_time``: the
response reports each completion at its time, and the countdown's entity shows the full
length at the start and 0 at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from custom_components.smh.entity_plan import plan
from custom_components.smh.mirrors import unique_id
from tests.ha.conftest import setup_home_entry
from tests.support.appliances import PROGRAMMES, ROUNDS, home_with_every_appliance, programme_of


def _countdown_reader(hass: HomeAssistant, entry: MockConfigEntry, did: str) -> Callable[[], str]:
    """How HA shows the countdown: its sensor's state, or (a robot vacuum's drive back to the
    dock, which HA's vacuums have no sensor for) the vacuum entity's ``homeenv`` attribute."""
    device = entry.runtime_data.engine.device(did)
    countdown = device.dynamics.cycle.countdown_attr
    registry = er.async_get(hass)
    riches, mirrors = plan(device)
    sensor = next((m.key for m in mirrors if m.locator == countdown), None)
    if sensor is not None:
        entity_id = registry.async_get_entity_id(
            "sensor", DOMAIN, unique_id(entry.entry_id, did, sensor)
        )
        assert entity_id is not None, (did, countdown)
        return lambda: hass.states.get(entity_id).state
    rich = next(r for r in riches if countdown in r.locators)
    entity_id = registry.async_get_entity_id(
        rich.platform, DOMAIN, unique_id(entry.entry_id, did, rich.key)
    )
    assert entity_id is not None, (did, countdown)
    return lambda: str(hass.states.get(entity_id).attributes["homeenv"][countdown])


@pytest.mark.parametrize("level", ["simple", "medium", "complex"])
async def test_every_appliance_runs_every_programme_in_home_assistant(
    hass: HomeAssistant, level: str
) -> None:
    entry = await setup_home_entry(hass, home_with_every_appliance(level), time_scale=0.0)
    engine = entry.runtime_data.engine
    appliances = [
        did for did in engine.device_ids() if engine.device(did).userdata.subcategory in PROGRAMMES
    ]
    shown = {did: _countdown_reader(hass, entry, did) for did in appliances}
    for round_ in range(ROUNDS):
        started = datetime.fromisoformat(
            (
                await hass.services.async_call(
                    DOMAIN, "advance_time", {"seconds": 0}, blocking=True, return_response=True
                )
            )["now"]
        )
        lengths = {}
        for did in appliances:
            prog = programme_of(engine.device(did).userdata.subcategory, round_)
            for locator, args in prog.calls:
                await hass.services.async_call(
                    DOMAIN,
                    "execute",
                    {"did": did, "locator": locator, "arguments": args},
                    blocking=True,
                )
            lengths[did] = prog.seconds
            assert shown[did]() == str(prog.seconds), (
                level,
                did,
                prog.label,
            )
        done = await hass.services.async_call(
            DOMAIN,
            "advance_time",
            {"seconds": max(lengths.values()) + 60},
            blocking=True,
            return_response=True,
        )
        ends = {e["ref"]: e["time"] for e in done["events"] if e["kind"] == "cycle_complete"}
        for did, seconds in lengths.items():
            where = (level, round_, did, engine.device(did).userdata.subcategory)
            assert ends.get(did) == (started + timedelta(seconds=seconds)).isoformat(), where
            cyc = engine.device(did).dynamics.cycle
            assert engine.value(did, cyc.state_attr) == cyc.on_complete.get(
                cyc.state_attr, cyc.stopped
            ), where
            assert shown[did]() == "0", where
