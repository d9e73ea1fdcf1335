"""Home-file features imported suites need, loaded in Home Assistant: a device in no room
(no area, still controllable) and a device whose attribute ranges the home file narrows."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er

from custom_components.smh.compat import device_for
from custom_components.smh.const import DOMAIN
from smh_core.homeenv.model import Home
from tests.agent.test_roomless_devices import roomless_home_data
from tests.ha.conftest import setup_home_entry
from tests.homeenv.test_device_overrides import narrowed_home_data


async def test_a_device_in_no_room_loads_without_an_area_and_is_controllable(
    hass: HomeAssistant,
) -> None:
    entry = await setup_home_entry(hass, Home.model_validate(roomless_home_data()))
    lamp = device_for(dr.async_get(hass), (DOMAIN, f"{entry.entry_id}_1001"), entry.entry_id)
    assert lamp is not None and lamp.name == "Bedroom Lamp" and lamp.area_id is None
    fan_light = device_for(dr.async_get(hass), (DOMAIN, f"{entry.entry_id}_1002"), entry.entry_id)
    assert fan_light.area_id is not None  # the others keep their rooms
    light = er.async_get(hass).async_get_entity_id("light", DOMAIN, f"{entry.entry_id}_1001_light")
    await hass.services.async_call("light", "turn_on", {"entity_id": light}, blocking=True)
    assert (
        hass.states.get(light).state == "on"
        and entry.runtime_data.engine.value("1001", "state") == "on"
    )
    snap = await hass.services.async_call(
        DOMAIN, "snapshot", {}, blocking=True, return_response=True
    )
    assert (
        snap["device_info"]["1001"]["room"] is None
        and snap["device_info"]["1001"]["room_name"] is None
    )


async def test_a_narrowed_device_shows_its_own_limits_and_refuses_beyond_them(
    hass: HomeAssistant,
) -> None:
    entry = await setup_home_entry(hass, Home.model_validate(narrowed_home_data()))
    engine = entry.runtime_data.engine
    registry = er.async_get(hass)
    number = registry.async_get_entity_id(
        "number", DOMAIN, f"{entry.entry_id}_1003_target_temperature"
    )
    select = registry.async_get_entity_id("select", DOMAIN, f"{entry.entry_id}_1003_ac_mode")
    state = hass.states.get(number)
    assert (state.attributes["min"], state.attributes["max"], state.attributes["step"]) == (
        18,
        26,
        1.0,
    )
    assert hass.states.get(select).attributes["options"] == ["cool", "auto", "dry", "fan_only"]
    before = engine.snapshot()
    with pytest.raises(ServiceValidationError):
        await hass.services.async_call(
            "number", "set_value", {"entity_id": number, "value": 28}, blocking=True
        )
    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(
            DOMAIN,
            "execute",
            {
                "did": "1003",
                "locator": "set_target_temperature",
                "arguments": {"target_temperature": 28},
            },
            blocking=True,
            return_response=True,
        )
    assert "[18, 26]" in err.value.translation_placeholders["message"]
    assert engine.diff(before, engine.snapshot()) == []
    await hass.services.async_call(
        "number", "set_value", {"entity_id": number, "value": 25}, blocking=True
    )
    assert engine.value("1003", "target_temperature") == 25
