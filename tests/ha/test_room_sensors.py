"""The simulated rooms' climate in HA: a "<room> climate" device per room in its area, one sensor
per room variable, pushed when devices (a lamp) or simulated time (an AC over an hour) change it;
and automations created from words can react to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from custom_components.smh.room import ROOM_VARIABLES
from smh_core.homeenv.engine import dump_home
from smh_core.homes.simulated import reported_climate
from tests.support import sim_home as sh
from tests.support.fake_openai import FakeOpenAI


async def _setup(hass: HomeAssistant, options: dict | None = None) -> MockConfigEntry:
    home = sh.home(sh.ac("1", "living"), sh.lamp("2", "kitchen"))
    (Path(hass.config.config_dir) / "home.json").write_text(dump_home(home))
    data = {"source": "file", "file": "home.json", "level": "simple", "seed": 0, "time_scale": 0.0}
    entry = MockConfigEntry(domain=DOMAIN, data=data, options={**data, **(options or {})})
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


def _sensor(hass: HomeAssistant, entry: MockConfigEntry, room: str, variable: str) -> str:
    entity_id = er.async_get(hass).async_get_entity_id("sensor", DOMAIN, f"{entry.entry_id}_@{room}_{variable}")
    assert entity_id is not None, (room, variable)
    return entity_id


async def test_each_room_has_a_climate_device_in_its_area(hass: HomeAssistant) -> None:
    entry = await _setup(hass)
    engine = entry.runtime_data.engine
    devices, areas, entities = dr.async_get(hass), ar.async_get(hass), er.async_get(hass)
    for room in ("living", "kitchen"):
        device = devices.async_get_device(identifiers={(DOMAIN, f"{entry.entry_id}_@{room}")})
        assert device is not None and device.name == f"{room.title()} climate"
        assert areas.async_get_area(device.area_id).name == room.title()
        for variable in ROOM_VARIABLES:
            entity_id = _sensor(hass, entry, room, variable)
            assert entities.async_get(entity_id).device_id == device.id
            state = hass.states.get(entity_id)
            value = engine.value(f"@{room}", variable)
            if variable == "air_quality":
                assert state.state == value and state.attributes["options"][0] == "good"
            else:
                assert float(state.state) == pytest.approx(value)
    temperature = hass.states.get(_sensor(hass, entry, "living", "temperature"))
    assert temperature.attributes["unit_of_measurement"] == "°C"
    assert temperature.attributes["device_class"] == "temperature"
    assert hass.states.get(_sensor(hass, entry, "kitchen", "illuminance")).attributes["unit_of_measurement"] == "lx"


async def test_a_lamp_lights_its_room_at_once(hass: HomeAssistant) -> None:
    entry = await _setup(hass)
    lux = _sensor(hass, entry, "kitchen", "illuminance")
    before = float(hass.states.get(lux).state)
    await hass.services.async_call(DOMAIN, "execute", {"did": "2", "locator": "turn_on"}, blocking=True)
    assert float(hass.states.get(lux).state) == pytest.approx(before + 400)


async def test_an_hour_of_cooling_shows_in_the_room_temperature(hass: HomeAssistant) -> None:
    entry = await _setup(hass)
    temperature = _sensor(hass, entry, "living", "temperature")
    assert float(hass.states.get(temperature).state) == pytest.approx(28.0)
    await hass.services.async_call(DOMAIN, "execute", {"did": "1", "locator": "turn_on"}, blocking=True)
    await hass.services.async_call(DOMAIN, "advance_time", {"seconds": 3600}, blocking=True)
    now = float(hass.states.get(temperature).state)
    assert now < 27.0  # cooled towards the 24 °C setpoint
    assert now == pytest.approx(entry.runtime_data.engine.value("@living", "temperature"), abs=0.05)
    # the kitchen has no AC: it only drifts towards the outdoor temperature, more slowly
    kitchen = float(hass.states.get(_sensor(hass, entry, "kitchen", "temperature")).state)
    assert now < kitchen - 0.5
    assert kitchen == pytest.approx(entry.runtime_data.engine.value("@kitchen", "temperature"), abs=0.05)


async def test_automation_on_room_temperature(hass: HomeAssistant, server: FakeOpenAI) -> None:
    """Words -> an automation on a room variable: a numeric_state trigger on the room's sensor."""
    (Path(hass.config.config_dir) / "configuration.yaml").write_text("automation: !include automations.yaml\n")
    assert await async_setup_component(hass, "automation", {"automation": []})
    entry = await _setup(hass, {"agent": {"base_url": server.base_url, "model": "fake-model"}})
    rule = {"id": "x", "name": "Cool the living room",
            "triggers": [{"kind": "numeric", "did": "@living", "locator": "temperature", "above": 29}],
            "actions": [{"did": "1", "locator": "turn_on"}]}
    server.script = [{"content": json.dumps(rule)}]
    out = await hass.services.async_call(DOMAIN, "create_automation",
                                         {"text": "when the living room gets above 29 degrees, turn on the AC"},
                                         blocking=True, return_response=True)
    sensor = _sensor(hass, entry, "living", "temperature")
    assert out["config"]["triggers"] == [{"trigger": "numeric_state", "entity_id": sensor, "above": 29.0}]
    engine = entry.runtime_data.engine
    assert engine.value("1", "on") is False
    assert engine.set_values("@living", {"temperature": 29.5}).ok
    await hass.async_block_till_done()
    assert engine.value("1", "on") is True


@pytest.mark.parametrize("level", ["simple", "complex"])
async def test_generated_homes_answer_the_living_room_temperature(hass: HomeAssistant, level: str) -> None:
    """A generated SMH-Bench home carries no room climate; HA still shows every room's: "what's
    the temperature in the living room?" finds a temperature sensor in the Living Room area,
    kept by the recorder as a measurement."""
    data = {"source": "generated", "level": level, "seed": 3, "time_scale": 0.0}
    entry = MockConfigEntry(domain=DOMAIN, data=data, options=data)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    engine = entry.runtime_data.engine
    assert sorted(engine.simulated_rooms()) == sorted(r.id for r in engine.rooms())
    living = next(r for r in engine.rooms() if r.name == "Living Room")
    area = ar.async_get(hass).async_get_area_by_name("Living Room")
    entities, devices = er.async_get(hass), dr.async_get(hass)
    found = [e for e in er.async_entries_for_config_entry(entities, entry.entry_id)
             if e.domain == "sensor" and (state := hass.states.get(e.entity_id)) is not None
             and state.attributes.get("device_class") == "temperature"
             and devices.async_get(e.device_id).area_id == area.id]
    room_sensor = _sensor(hass, entry, living.id, "temperature")
    assert room_sensor in [e.entity_id for e in found]
    state = hass.states.get(room_sensor)
    assert float(state.state) == pytest.approx(engine.value(f"@{living.id}", "temperature"), abs=0.05)
    reported = reported_climate(engine.home, living.id)  # what the room's own thermometer says, if any
    if "temperature" in reported:
        assert float(state.state) == pytest.approx(reported["temperature"], abs=0.05)
    else:
        assert 20.0 <= float(state.state) <= 30.0
    assert state.attributes["state_class"] == "measurement" and state.attributes["unit_of_measurement"] == "°C"
    for variable in ("humidity", "illuminance", "pm25", "pm10"):
        assert hass.states.get(_sensor(hass, entry, living.id, variable)).attributes["state_class"] == "measurement"
