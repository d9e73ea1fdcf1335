"""A fan's percentage reads back what HA wrote (a three-speed fan holds 50 % as medium and shows
50), and a speed changed from elsewhere shows its own percentage."""

from __future__ import annotations

from homeassistant.core import HomeAssistant

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry


async def test_every_percentage_reads_back(hass: HomeAssistant) -> None:
    entry = await setup_home_entry(hass, Home(rooms=[Room(id="bed", type="bedroom", name="Bedroom")], devices=[
        instantiate("smart_fan", did="fan.bedroom_fan", room="bed", name="Bedroom Fan")]))
    engine = entry.runtime_data.engine
    for pct in range(1, 101):
        await hass.services.async_call("fan", "set_percentage", {"entity_id": "fan.bedroom_fan", "percentage": pct},
                                       blocking=True)
        assert hass.states.get("fan.bedroom_fan").attributes["percentage"] == pct, pct
        assert engine.value("fan.bedroom_fan", "speed_level") == ("low" if pct <= 33 else "medium" if pct <= 66
                                                                  else "high")
    await hass.services.async_call("smh", "execute", {"did": "fan.bedroom_fan", "locator": "set_speed_level",
                                                      "arguments": {"speed_level": "low"}}, blocking=True)
    assert hass.states.get("fan.bedroom_fan").attributes["percentage"] == 33
    await hass.services.async_call("fan", "turn_off", {"entity_id": "fan.bedroom_fan"}, blocking=True)
    assert hass.states.get("fan.bedroom_fan").attributes["percentage"] == 0
    await hass.services.async_call("fan", "turn_on", {"entity_id": "fan.bedroom_fan", "percentage": 50},
                                   blocking=True)
    assert hass.states.get("fan.bedroom_fan").attributes["percentage"] == 50
