"""The simulated rooms' climate in HA: a "<room> climate" device per room in its area, one sensor
per room variable, pushed when devices (a lamp) or simulated time (an AC over an hour) change it;
and automations created from words can react to it. HA's own Assist agent (no SMH agent, no
model) answers "what is the temperature in the living room" from the room's sensor, which the
entry makes its area's temperature sensor (and the humidity sensor its humidity sensor); the
states carry a meter's decimals, not the physics' floats; every area gets an icon for its kind
of room."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.compat import device_for
from custom_components.smh.const import DOMAIN
from custom_components.smh.room import DEFAULT_ROOM_ICON, ROOM_VARIABLES, room_icon
from smh_core.homeenv.engine import dump_home
from smh_core.homes.generator import INDOOR_BAND
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
    entity_id = er.async_get(hass).async_get_entity_id(
        "sensor", DOMAIN, f"{entry.entry_id}_@{room}_{variable}"
    )
    assert entity_id is not None, (room, variable)
    return entity_id


async def test_each_room_has_a_climate_device_in_its_area(hass: HomeAssistant) -> None:
    entry = await _setup(hass)
    engine = entry.runtime_data.engine
    devices, areas, entities = dr.async_get(hass), ar.async_get(hass), er.async_get(hass)
    for room in ("living", "kitchen"):
        device = device_for(devices, (DOMAIN, f"{entry.entry_id}_@{room}"), entry.entry_id)
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
    assert (
        hass.states.get(_sensor(hass, entry, "kitchen", "illuminance")).attributes[
            "unit_of_measurement"
        ]
        == "lx"
    )


async def test_a_lamp_lights_its_room_at_once(hass: HomeAssistant) -> None:
    entry = await _setup(hass)
    lux = _sensor(hass, entry, "kitchen", "illuminance")
    before = float(hass.states.get(lux).state)
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "2", "locator": "turn_on"}, blocking=True
    )
    assert float(hass.states.get(lux).state) == pytest.approx(before + 400)


async def test_an_hour_of_cooling_shows_in_the_room_temperature(hass: HomeAssistant) -> None:
    entry = await _setup(hass)
    temperature = _sensor(hass, entry, "living", "temperature")
    assert float(hass.states.get(temperature).state) == pytest.approx(28.0)
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "1", "locator": "turn_on"}, blocking=True
    )
    await hass.services.async_call(DOMAIN, "advance_time", {"seconds": 3600}, blocking=True)
    now = float(hass.states.get(temperature).state)
    assert now < 27.0  # cooled towards the 24 °C setpoint
    assert now == pytest.approx(entry.runtime_data.engine.value("@living", "temperature"), abs=0.05)
    # the kitchen has no AC: it only drifts towards the outdoor temperature, more slowly
    kitchen = float(hass.states.get(_sensor(hass, entry, "kitchen", "temperature")).state)
    assert now < kitchen - 0.5
    assert kitchen == pytest.approx(
        entry.runtime_data.engine.value("@kitchen", "temperature"), abs=0.05
    )


async def test_automation_on_room_temperature(hass: HomeAssistant, server: FakeOpenAI) -> None:
    """Words -> an automation on a room variable: a numeric_state trigger on the room's sensor."""
    (Path(hass.config.config_dir) / "configuration.yaml").write_text(
        "automation: !include automations.yaml\n"
    )
    (Path(hass.config.config_dir) / "automations.yaml").write_text(
        "[]\n"
    )  # as HA's onboarding leaves it
    assert await async_setup_component(hass, "automation", {"automation": []})
    entry = await _setup(hass, {"agent": {"base_url": server.base_url, "model": "fake-model"}})
    rule = {
        "id": "x",
        "name": "Cool the living room",
        "triggers": [{"kind": "numeric", "did": "@living", "locator": "temperature", "above": 29}],
        "actions": [{"did": "1", "locator": "turn_on"}],
    }
    server.script = [{"content": json.dumps(rule)}]
    out = await hass.services.async_call(
        DOMAIN,
        "create_automation",
        {"text": "when the living room gets above 29 degrees, turn on the AC"},
        blocking=True,
        return_response=True,
    )
    sensor = _sensor(hass, entry, "living", "temperature")
    assert out["config"]["triggers"] == [
        {"trigger": "numeric_state", "entity_id": sensor, "above": 29.0}
    ]
    engine = entry.runtime_data.engine
    assert engine.value("1", "on") is False
    assert engine.set_values("@living", {"temperature": 29.5}).ok
    await hass.async_block_till_done()
    assert engine.value("1", "on") is True


@pytest.mark.parametrize("level", ["simple", "complex"])
async def test_generated_homes_answer_the_living_room_temperature(
    hass: HomeAssistant, level: str
) -> None:
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
    found = [
        e
        for e in er.async_entries_for_config_entry(entities, entry.entry_id)
        if e.domain == "sensor"
        and (state := hass.states.get(e.entity_id)) is not None
        and state.attributes.get("device_class") == "temperature"
        and devices.async_get(e.device_id).area_id == area.id
    ]
    room_sensor = _sensor(hass, entry, living.id, "temperature")
    assert room_sensor in [e.entity_id for e in found]
    state = hass.states.get(room_sensor)
    assert float(state.state) == pytest.approx(
        engine.value(f"@{living.id}", "temperature"), abs=0.05
    )
    reported = reported_climate(
        engine.home, living.id
    )  # what the room's own thermometer says, if any
    if "temperature" in reported:
        assert float(state.state) == pytest.approx(reported["temperature"], abs=0.05)
    else:
        assert INDOOR_BAND[0] <= float(state.state) <= INDOOR_BAND[1]
    assert (
        state.attributes["state_class"] == "measurement"
        and state.attributes["unit_of_measurement"] == "°C"
    )
    for variable in ("humidity", "illuminance", "pm25", "pm10"):
        assert (
            hass.states.get(_sensor(hass, entry, living.id, variable)).attributes["state_class"]
            == "measurement"
        )


GENERATED = {"source": "generated", "level": "simple", "seed": 0, "time_scale": 0.0}


async def _generated(hass: HomeAssistant, data: dict) -> MockConfigEntry:
    entry = MockConfigEntry(domain=DOMAIN, data=data)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def _ask(hass: HomeAssistant, text: str) -> str:
    result = await conversation.async_converse(
        hass, text, None, Context(), language="en", agent_id=conversation.HOME_ASSISTANT_AGENT
    )
    return result.response.speech["plain"]["speech"]


async def test_hass_own_assist_answers_the_living_room_temperature(
    hass: HomeAssistant, conversation
) -> None:
    assert await async_setup_component(hass, "intent", {})
    entry = await _generated(hass, GENERATED)
    engine = entry.runtime_data.engine
    living = next(r.id for r in engine.rooms() if r.name == "Living Room")
    area = ar.async_get(hass).async_get_area_by_name("Living Room")
    assert area.temperature_entity_id == _sensor(hass, entry, living, "temperature")
    assert area.humidity_entity_id == _sensor(hass, entry, living, "humidity")
    assert engine.set_values(f"@{living}", {"temperature": 23.416666666666668}).ok
    await hass.async_block_till_done()
    assert hass.states.get(area.temperature_entity_id).state == "23.4"  # not 23.416666666666668
    answer = await _ask(hass, "what is the temperature in the living room")
    assert "23.4" in answer and "not aware" not in answer.lower(), answer
    # every simulated room's area answers, not only the living room
    for room in engine.rooms():
        assert (
            ar.async_get(hass).async_get_area_by_name(room.name).temperature_entity_id is not None
        )


async def test_an_imperial_home_hears_the_temperature_its_tile_shows(
    hass: HomeAssistant, conversation
) -> None:
    """In a home set to US customary units HA converts the room's °C to °F; the state must keep
    a meter's one decimal (84.6, as the tile shows) so that Assist does not read out 84.56."""
    hass.config.units = US_CUSTOMARY_SYSTEM
    assert await async_setup_component(hass, "intent", {})
    entry = await _generated(hass, GENERATED)
    engine = entry.runtime_data.engine
    living = next(r.id for r in engine.rooms() if r.name == "Living Room")
    sensor = _sensor(hass, entry, living, "temperature")
    for celsius, fahrenheit in ((29.2, "84.6"), (21.04999, "69.9"), (-3.0, "26.6")):
        assert engine.set_values(f"@{living}", {"temperature": celsius}).ok
        await hass.async_block_till_done()
        state = hass.states.get(sensor)
        assert (state.state, state.attributes["unit_of_measurement"]) == (fahrenheit, "°F")
    answer = await _ask(hass, "what is the temperature in the living room")
    assert "26.6" in answer and "26.60" not in answer, answer
    # every temperature the entry shows (devices' thermometers too) is in °F with a meter's tenths
    shown = [
        hass.states.get(e.entity_id)
        for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
        if e.domain == "sensor"
    ]
    temperatures = [s for s in shown if s.attributes.get("unit_of_measurement") in ("°C", "°F")]
    assert len(temperatures) > len(engine.simulated_rooms())  # thermometers beside the rooms
    for state in temperatures:
        assert state.attributes["unit_of_measurement"] == "°F", state
        assert len(state.state.partition(".")[2]) <= 1, state


async def test_room_states_are_rounded_like_a_meter(hass: HomeAssistant) -> None:
    entry = await _generated(hass, GENERATED)
    engine = entry.runtime_data.engine
    room = engine.simulated_rooms()[0]
    assert engine.set_values(
        f"@{room}", {"temperature": 21.04999, "humidity": 47.62, "pm25": 12.3456}
    ).ok
    await hass.async_block_till_done()
    states = {
        v: hass.states.get(_sensor(hass, entry, room, v)).state
        for v in ("temperature", "humidity", "pm25")
    }
    assert states == {"temperature": "21.0", "humidity": "48", "pm25": "12.3"}
    for celsius, shown in ((29.2, "29.2"), (-3.0, "-3.0")):  # a metric home: as the meter shows
        assert engine.set_values(f"@{room}", {"temperature": celsius}).ok
        await hass.async_block_till_done()
        assert hass.states.get(_sensor(hass, entry, room, "temperature")).state == shown


async def test_a_user_chosen_area_sensor_is_kept(hass: HomeAssistant) -> None:
    """An area whose temperature sensor the user picked keeps it when SMH sets up again."""
    entry = await _generated(hass, GENERATED)
    areas = ar.async_get(hass)
    area = areas.async_get_area_by_name("Living Room")
    hass.states.async_set("sensor.my_thermometer", "20.5", {"device_class": "temperature"})
    areas.async_update(area.id, temperature_entity_id="sensor.my_thermometer")
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    assert areas.async_get_area(area.id).temperature_entity_id == "sensor.my_thermometer"


async def test_every_area_has_an_icon_for_its_kind_of_room(hass: HomeAssistant) -> None:
    entry = await _generated(hass, {**GENERATED, "level": "complex"})
    areas = ar.async_get(hass)
    icons = {
        r.name: areas.async_get_area_by_name(r.name).icon for r in entry.runtime_data.engine.rooms()
    }
    assert icons["Living Room"] == "mdi:sofa" and icons["Kitchen"] == "mdi:stove"
    assert all(icons.values()) and DEFAULT_ROOM_ICON not in icons.values(), icons


@pytest.mark.parametrize(
    ("room_type", "name", "icon"),
    [
        ("living_room", "Lounge", "mdi:sofa"),
        ("area", "Downstairs Bathroom", "mdi:shower"),
        ("area", "Front Yard", "mdi:flower"),
        ("area", "Room 7", DEFAULT_ROOM_ICON),
    ],
)
def test_room_icon_by_type_then_name(room_type: str, name: str, icon: str) -> None:
    assert room_icon(room_type, name) == icon
