"""Entity names HA's intents can match (HA's has_entity_name conventions): a component entity
that is its device's only one of its platform takes the device's name when it is the device's
only rich entity or the device already names it; a device's only generic entity does too; a home
imported from HA keeps its names, repeats included, and its floors' names, so Assist resolves
(or refuses as ambiguous) exactly the names the source's tests use."""

from __future__ import annotations

from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry


def _names(hass: HomeAssistant, entry) -> dict[str, str]:
    registry = er.async_get(hass)
    return {e.entity_id: hass.states.get(e.entity_id).name
            for e in er.async_entries_for_config_entry(registry, entry.entry_id)
            if hass.states.get(e.entity_id) is not None}


async def _tool(hass: HomeAssistant, tool: str, **arguments) -> dict:
    out = await hass.services.async_call("smh", "call_tools", {"calls": [{"tool": tool, "arguments": arguments}]},
                                         blocking=True, return_response=True)
    return out["results"][0]["result"]


def _expose_all(hass: HomeAssistant) -> None:
    for entity_id in hass.states.async_entity_ids():
        async_expose_entity(hass, "conversation", entity_id, True)


async def test_a_speakers_media_player_is_named_after_the_speaker(hass: HomeAssistant, conversation: None) -> None:
    room = Room(id="terrace", type="terrace", name="Rooftop Terrace")
    entry = await setup_home_entry(hass, Home(rooms=[room], devices=[
        instantiate("universal_speaker", did="1", room="terrace", name="Outdoor Speakers")]))
    assert _names(hass, entry) == {"media_player.outdoor_speakers": "Outdoor Speakers"}
    _expose_all(hass)
    result = await _tool(hass, "HassTurnOff", name="Outdoor Speakers")
    assert [t["id"] for t in result["data"]["success"]] == ["media_player.outdoor_speakers"]
    assert entry.runtime_data.engine.value("1", "player.state") == "off"


async def test_a_fan_lights_light_is_not_named_light_twice(hass: HomeAssistant) -> None:
    room = Room(id="dining", type="dining_room", name="Dining Room")
    entry = await setup_home_entry(hass, Home(rooms=[room], devices=[
        instantiate("fan_light", did="1", room="dining", name="Dining Room Fan Light"),
        instantiate("fan_light", did="2", room="dining", name="Ceiling Fan")]))
    names = set(_names(hass, entry).values())
    assert names == {"Dining Room Fan Light", "Dining Room Fan Light Fan",  # its light takes its name
                     "Ceiling Fan", "Ceiling Fan Light"}  # its fan does


async def test_other_entities_of_a_device_keep_their_own_names(hass: HomeAssistant) -> None:
    room = Room(id="hall", type="hall", name="Hall")
    entry = await setup_home_entry(hass, Home(rooms=[room], devices=[
        instantiate("smart_lock", did="1", room="hall", name="Front Door")]))
    names = _names(hass, entry)
    assert names["lock.front_door"] == "Front Door"
    assert sorted(n for n in names.values() if n != "Front Door") == [
        "Front Door Alarm volume", "Front Door Battery level", "Front Door Defend enabled"]


async def test_a_devices_only_generic_entity_is_named_after_it(hass: HomeAssistant) -> None:
    """A plug's switch, a sensor's reading: the device's only entity is the device (and, imported
    from HA, keeps the source's entity id)."""
    room = Room(id="hall", type="hall", name="Hall")
    entry = await setup_home_entry(hass, Home(rooms=[room], devices=[
        instantiate("smart_plug", did="switch.tv", room="hall", name="TV"),
        instantiate("binary_sensor", did="binary_sensor.smart_lock", room="hall", name="Smart Lock"),
        instantiate("sensor", did="5", room="hall", name="TV Energy")]))
    assert _names(hass, entry) == {"switch.tv": "TV", "binary_sensor.smart_lock": "Smart Lock",
                                   "sensor.tv_energy": "TV Energy"}


async def test_an_imported_homes_repeated_names_stay_ambiguous(hass: HomeAssistant, conversation: None) -> None:
    rooms = [Room(id="entry", type="entry", name="Entry", floor=1, floor_name="Ground"),
             Room(id="bed", type="bedroom", name="Bedroom 2", floor=2, floor_name="Upstairs")]
    entry = await setup_home_entry(hass, Home(rooms=rooms, devices=[
        instantiate("smart_lock", did="lock.smart_lock", room="entry", name="Smart Lock",
                    values={"state": "unlocked"}),
        instantiate("binary_sensor", did="binary_sensor.smart_lock", room="entry", name="Smart Lock"),  # a repeat
        instantiate("light", did="light.bedroom_2_light", room="bed", name="Bedroom 2 Light",
                    values={"state": "on"})]))
    names = _names(hass, entry)
    assert names["lock.smart_lock"] == names["binary_sensor.smart_lock"] == "Smart Lock"  # no "Smart Lock 2"
    _expose_all(hass)
    ambiguous = await _tool(hass, "HassTurnOn", name="Smart Lock")
    assert ambiguous["error"] == "MatchFailedError" and "DUPLICATE_NAME" in ambiguous["error_text"]
    assert entry.runtime_data.engine.value("lock.smart_lock", "state") == "unlocked"
    by_domain = await _tool(hass, "HassTurnOn", name="Smart Lock", domain=["lock"])
    assert [t["id"] for t in by_domain["data"]["success"]] == ["lock.smart_lock"]
    upstairs = await _tool(hass, "HassTurnOff", floor="Upstairs", domain=["light"])
    assert [t["id"] for t in upstairs["data"]["success"] if t["type"] == "entity"] == ["light.bedroom_2_light"]
    assert entry.runtime_data.engine.value("light.bedroom_2_light", "state") == "off"
