"""A room's climate as HA itself answers it: HA's own Assist agent (no SMH agent, no model)
answers "what is the temperature in the living room" from the room's sensor, which the entry
makes its area's temperature sensor (and the humidity sensor its humidity sensor); the states
carry a meter's decimals, not the physics' floats; every area gets an icon for its kind of room."""

from __future__ import annotations

import pytest
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from custom_components.smh.room import DEFAULT_ROOM_ICON, room_icon

GENERATED = {"source": "generated", "level": "simple", "seed": 0, "time_scale": 0.0}


async def _entry(hass: HomeAssistant, data: dict) -> MockConfigEntry:
    entry = MockConfigEntry(domain=DOMAIN, data=data)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


def _room_sensor(hass: HomeAssistant, entry: MockConfigEntry, room: str, variable: str) -> str:
    entity_id = er.async_get(hass).async_get_entity_id("sensor", DOMAIN, f"{entry.entry_id}_@{room}_{variable}")
    assert entity_id is not None
    return entity_id


async def _ask(hass: HomeAssistant, text: str) -> str:
    result = await conversation.async_converse(hass, text, None, Context(), language="en",
                                               agent_id=conversation.HOME_ASSISTANT_AGENT)
    return result.response.speech["plain"]["speech"]


async def test_hass_own_assist_answers_the_living_room_temperature(hass: HomeAssistant, conversation) -> None:
    assert await async_setup_component(hass, "intent", {})
    entry = await _entry(hass, GENERATED)
    engine = entry.runtime_data.engine
    living = next(r.id for r in engine.rooms() if r.name == "Living Room")
    area = ar.async_get(hass).async_get_area_by_name("Living Room")
    assert area.temperature_entity_id == _room_sensor(hass, entry, living, "temperature")
    assert area.humidity_entity_id == _room_sensor(hass, entry, living, "humidity")
    assert engine.set_values(f"@{living}", {"temperature": 23.416666666666668}).ok
    await hass.async_block_till_done()
    assert hass.states.get(area.temperature_entity_id).state == "23.4"  # not 23.416666666666668
    answer = await _ask(hass, "what is the temperature in the living room")
    assert "23.4" in answer and "not aware" not in answer.lower(), answer
    # every simulated room's area answers, not only the living room
    for room in engine.rooms():
        assert ar.async_get(hass).async_get_area_by_name(room.name).temperature_entity_id is not None


async def test_room_states_are_rounded_like_a_meter(hass: HomeAssistant) -> None:
    entry = await _entry(hass, GENERATED)
    engine = entry.runtime_data.engine
    room = engine.simulated_rooms()[0]
    assert engine.set_values(f"@{room}", {"temperature": 21.04999, "humidity": 47.62, "pm25": 12.3456}).ok
    await hass.async_block_till_done()
    states = {v: hass.states.get(_room_sensor(hass, entry, room, v)).state for v in ("temperature", "humidity", "pm25")}
    assert states == {"temperature": "21.0", "humidity": "48", "pm25": "12.3"}


async def test_a_user_chosen_area_sensor_is_kept(hass: HomeAssistant) -> None:
    """An area whose temperature sensor the user picked keeps it when SMH sets up again."""
    entry = await _entry(hass, GENERATED)
    areas = ar.async_get(hass)
    area = areas.async_get_area_by_name("Living Room")
    hass.states.async_set("sensor.my_thermometer", "20.5", {"device_class": "temperature"})
    areas.async_update(area.id, temperature_entity_id="sensor.my_thermometer")
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    assert areas.async_get_area(area.id).temperature_entity_id == "sensor.my_thermometer"


async def test_every_area_has_an_icon_for_its_kind_of_room(hass: HomeAssistant) -> None:
    entry = await _entry(hass, {**GENERATED, "level": "complex"})
    areas = ar.async_get(hass)
    icons = {r.name: areas.async_get_area_by_name(r.name).icon for r in entry.runtime_data.engine.rooms()}
    assert icons["Living Room"] == "mdi:sofa" and icons["Kitchen"] == "mdi:stove"
    assert all(icons.values()) and DEFAULT_ROOM_ICON not in icons.values(), icons


@pytest.mark.parametrize(("room_type", "name", "icon"), [
    ("living_room", "Lounge", "mdi:sofa"), ("area", "Downstairs Bathroom", "mdi:shower"),
    ("area", "Front Yard", "mdi:flower"), ("area", "Room 7", DEFAULT_ROOM_ICON)])
def test_room_icon_by_type_then_name(room_type: str, name: str, icon: str) -> None:
    assert room_icon(room_type, name) == icon
