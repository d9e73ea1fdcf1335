"""Entity names HA's intents can match (HA's has_entity_name conventions): a component entity
that is its device's only one of its platform takes the device's name when it is the device's
only rich entity or the device already names it; a device's only generic entity does too; a home
imported from HA keeps its names, repeats included, and its floors' names, so Assist resolves
(or refuses as ambiguous) exactly the names the source's tests use."""

from __future__ import annotations

import pytest
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import intent

from custom_components.smh.compat import device_for
from custom_components.smh.const import DOMAIN
from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry


def _names(hass: HomeAssistant, entry) -> dict[str, str]:
    registry = er.async_get(hass)
    return {
        e.entity_id: hass.states.get(e.entity_id).name
        for e in er.async_entries_for_config_entry(registry, entry.entry_id)
        if hass.states.get(e.entity_id) is not None
    }


def _entity_id(hass: HomeAssistant, entry, domain: str, did: str) -> str:
    """The entity id HA gave device ``did``'s one ``domain`` entity (HA picks it from the names,
    and from 2026.10 puts the area's name in front), found through the registries."""
    device = device_for(dr.async_get(hass), (DOMAIN, f"{entry.entry_id}_{did}"), entry.entry_id)
    assert device is not None, did
    ids = [
        e.entity_id
        for e in er.async_entries_for_device(er.async_get(hass), device.id)
        if e.domain == domain
    ]
    assert len(ids) == 1, (did, domain, ids)
    return ids[0]


async def _intent(
    hass: HomeAssistant, intent_type: str, **slots
) -> list[intent.IntentResponseTarget]:
    """What an Assist intent acted on, run as HA's LLM tools and sentences run it for the
    conversation assistant (its exposed entities). The intent layer, not an LLM API: 2026.10+
    names the tools by their integration (``intent__HassTurnOn``); smh.call_tools maps recorded
    names (tests/ha/test_call_tools.py)."""
    response = await intent.async_handle(
        hass,
        "test",
        intent_type,
        {k: {"value": v} for k, v in slots.items()},
        language="en",
        assistant="conversation",
    )
    return response.success_results


def _expose_all(hass: HomeAssistant) -> None:
    for entity_id in hass.states.async_entity_ids():
        async_expose_entity(hass, "conversation", entity_id, True)


async def test_a_speakers_media_player_is_named_after_the_speaker(
    hass: HomeAssistant, conversation: None
) -> None:
    room = Room(id="terrace", type="terrace", name="Rooftop Terrace")
    entry = await setup_home_entry(
        hass,
        Home(
            rooms=[room],
            devices=[
                instantiate("universal_speaker", did="1", room="terrace", name="Outdoor Speakers")
            ],
        ),
    )
    speakers = _entity_id(hass, entry, "media_player", "1")
    assert _names(hass, entry) == {speakers: "Outdoor Speakers"}
    _expose_all(hass)
    turned_off = await _intent(hass, "HassTurnOff", name="Outdoor Speakers")
    assert [t.id for t in turned_off] == [speakers]
    assert entry.runtime_data.engine.value("1", "player.state") == "off"


async def test_a_fan_lights_light_is_not_named_light_twice(hass: HomeAssistant) -> None:
    room = Room(id="dining", type="dining_room", name="Dining Room")
    entry = await setup_home_entry(
        hass,
        Home(
            rooms=[room],
            devices=[
                instantiate("fan_light", did="1", room="dining", name="Dining Room Fan Light"),
                instantiate("fan_light", did="2", room="dining", name="Ceiling Fan"),
            ],
        ),
    )
    names = set(_names(hass, entry).values())
    assert names == {
        "Dining Room Fan Light",
        "Dining Room Fan Light Fan",  # its light takes its name
        "Ceiling Fan",
        "Ceiling Fan Light",
    }  # its fan does


async def test_other_entities_of_a_device_keep_their_own_names(hass: HomeAssistant) -> None:
    room = Room(id="hall", type="hall", name="Hall")
    entry = await setup_home_entry(
        hass,
        Home(
            rooms=[room],
            devices=[instantiate("smart_lock", did="1", room="hall", name="Front Door")],
        ),
    )
    names = _names(hass, entry)
    assert names[_entity_id(hass, entry, "lock", "1")] == "Front Door"
    assert sorted(n for n in names.values() if n != "Front Door") == [
        "Front Door Alarm volume",
        "Front Door Battery level",
        "Front Door Defend enabled",
    ]


async def test_a_devices_only_generic_entity_is_named_after_it(hass: HomeAssistant) -> None:
    """A plug's switch, a sensor's reading: the device's only entity is the device (and, imported
    from HA, keeps the source's entity id)."""
    room = Room(id="hall", type="hall", name="Hall")
    entry = await setup_home_entry(
        hass,
        Home(
            rooms=[room],
            devices=[
                instantiate("smart_plug", did="switch.tv", room="hall", name="TV"),
                instantiate(
                    "binary_sensor", did="binary_sensor.smart_lock", room="hall", name="Smart Lock"
                ),
                instantiate("sensor", did="5", room="hall", name="TV Energy"),
            ],
        ),
    )
    assert _names(hass, entry) == {
        "switch.tv": "TV",
        "binary_sensor.smart_lock": "Smart Lock",
        _entity_id(hass, entry, "sensor", "5"): "TV Energy",
    }


async def test_an_imported_homes_repeated_names_stay_ambiguous(
    hass: HomeAssistant, conversation: None
) -> None:
    rooms = [
        Room(id="entry", type="entry", name="Entry", floor=1, floor_name="Ground"),
        Room(id="bed", type="bedroom", name="Bedroom 2", floor=2, floor_name="Upstairs"),
    ]
    entry = await setup_home_entry(
        hass,
        Home(
            rooms=rooms,
            devices=[
                instantiate(
                    "smart_lock",
                    did="lock.smart_lock",
                    room="entry",
                    name="Smart Lock",
                    values={"state": "unlocked"},
                ),
                instantiate(
                    "binary_sensor", did="binary_sensor.smart_lock", room="entry", name="Smart Lock"
                ),  # a repeat
                instantiate(
                    "light",
                    did="light.bedroom_2_light",
                    room="bed",
                    name="Bedroom 2 Light",
                    values={"state": "on"},
                ),
            ],
        ),
    )
    names = _names(hass, entry)
    assert (
        names["lock.smart_lock"] == names["binary_sensor.smart_lock"] == "Smart Lock"
    )  # no "Smart Lock 2"
    _expose_all(hass)
    with pytest.raises(
        intent.MatchFailedError
    ) as refused:  # the name alone is refused: it names two
        await _intent(hass, "HassTurnOn", name="Smart Lock")
    assert refused.value.result.no_match_reason is intent.MatchFailedReason.DUPLICATE_NAME
    assert entry.runtime_data.engine.value("lock.smart_lock", "state") == "unlocked"
    by_domain = await _intent(hass, "HassTurnOn", name="Smart Lock", domain=["lock"])
    assert [t.id for t in by_domain] == ["lock.smart_lock"]
    assert entry.runtime_data.engine.value("lock.smart_lock", "state") == "locked"
    upstairs = await _intent(hass, "HassTurnOff", floor="Upstairs", domain=["light"])
    assert [t.id for t in upstairs if t.type is intent.IntentResponseTargetType.ENTITY] == [
        "light.bedroom_2_light"
    ]
    assert entry.runtime_data.engine.value("light.bedroom_2_light", "state") == "off"
