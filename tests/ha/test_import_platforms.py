"""The platforms of the device kinds imported sources use, through HA's own services: valves,
to-do lists, garage doors and curtains with their own open/closed state, single-state media
players, robots that clean one room, and lights narrowed to what the source gives them."""

from __future__ import annotations

import contextlib

import pytest
from homeassistant.components.cover import CoverEntityFeature as CF
from homeassistant.components.media_player import MediaPlayerEntityFeature as MF
from homeassistant.components.vacuum import VacuumEntityFeature as VF
from homeassistant.components.valve import ValveEntityFeature as ValveF
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceNotSupported, ServiceValidationError

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from smh_core.homeenv.narrowing import Narrowing, narrow
from tests.ha.conftest import setup_home_entry
from tests.ha.rich_cases import (
    DID,
    Case,
    Invalid,
    Step,
    entity_id,
    run_case,
    run_invalid,
    setup_device,
)

CASES = [
    Case(
        "valve",
        "valve",
        "closed",
        ValveF.OPEN | ValveF.CLOSE | ValveF.SET_POSITION,
        {"current_position": 0, "device_class": "water"},
        (
            Step("open_valve", {}, {"position": 100}, "open"),
            Step("set_valve_position", {"position": 40}, {"position": 40}, "open"),
            Step("close_valve", {}, {"position": 0}, "closed"),
        ),
        push=({"position": 70}, "open"),
    ),
    Case(
        "garage_door",
        "cover",
        "closed",
        CF.OPEN | CF.CLOSE,
        {"device_class": "garage"},
        (
            Step("open_cover", {}, {"state": "open"}, "open"),
            Step("close_cover", {}, {"state": "closed"}, "closed"),
        ),
        push=({"state": "open"}, "open"),
    ),
    Case(
        "degree_curtain",
        "cover",
        "open",
        CF.OPEN | CF.CLOSE | CF.SET_POSITION,  # open at degree 0
        {"current_position": 0, "device_class": "curtain"},
        (
            Step("set_cover_position", {"position": 30}, {"degree": 30, "state": "open"}, "open"),
            Step("close_cover", {}, {"state": "closed", "degree": 30}, "closed"),
        ),
        push=({"state": "open"}, "open"),
        values={"state": "open", "degree": 0},
    ),
    Case(
        "media_player",
        "media_player",
        "playing",
        MF.TURN_ON
        | MF.TURN_OFF
        | MF.PLAY
        | MF.PLAY_MEDIA
        | MF.PAUSE
        | MF.STOP
        | MF.NEXT_TRACK
        | MF.PREVIOUS_TRACK
        | MF.VOLUME_SET
        | MF.VOLUME_STEP
        | MF.VOLUME_MUTE
        | MF.SELECT_SOURCE,
        {"volume_level": 0.4, "media_track": 1, "source": "network"},
        (
            Step("media_pause", {}, {"state": "paused"}, "paused"),
            Step("media_stop", {}, {"state": "idle"}, "idle"),
            Step(
                "media_pause", {}, {"state": "paused"}, "paused"
            ),  # pausing an idle player, as sources allow
            Step("media_play", {}, {"state": "playing"}, "playing"),
            Step("media_next_track", {}, {"media_track": 2}),
            Step("select_source", {"source": "bluetooth"}, {"source": "bluetooth"}),
            Step("volume_set", {"volume_level": 0.25}, {"volume_level": 25}),
            Step("turn_off", {}, {"state": "off"}, "off"),
            Step("turn_on", {}, {"state": "idle"}, "idle"),
        ),
        push=({"state": "playing"}, "playing"),
        values={"state": "playing"},
    ),
    Case(
        "room_vacuum",
        "vacuum",
        "docked",
        VF.STATE | VF.START | VF.PAUSE | VF.STOP | VF.RETURN_HOME | VF.FAN_SPEED | VF.SEND_COMMAND,
        {"fan_speed": "auto"},
        (
            Step(
                "send_command",
                {"command": "clean_area", "params": {"area": "kitchen"}},
                {"cleaning_area": "kitchen", "state": "cleaning"},
                "cleaning",
            ),
            Step("stop", {}, {"state": "idle"}, "idle"),
            Step("pause", {}, {"state": "paused"}, "paused"),
            Step("return_to_base", {}, {"state": "returning"}, "returning"),
        ),
        push=({"state": "docked"}, "docked"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_platform(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


@pytest.mark.parametrize(
    "case",
    [
        Invalid("room_vacuum", "vacuum", "send_command", {"command": "dance"}, "clean_area"),
        Invalid(
            "media_player", "media_player", "media_pause", {}, "the player is off", {"state": "off"}
        ),
    ],
    ids=lambda c: f"{c.type}-{c.service}",
)
async def test_refused_calls_change_nothing(hass: HomeAssistant, case: Invalid) -> None:
    await run_invalid(hass, case)


async def test_a_todo_list_adds_completes_and_removes_items(hass: HomeAssistant) -> None:
    entry, engine = await setup_device(hass, "todo_list", {})
    eid = entity_id(hass, entry, "todo", "todo")
    assert hass.states.get(eid).state == "0"
    await hass.services.async_call(
        "todo", "add_item", {"entity_id": eid, "item": "Milk"}, blocking=True
    )
    await hass.services.async_call(
        "todo", "add_item", {"entity_id": eid, "item": "eggs"}, blocking=True
    )
    assert hass.states.get(eid).state == "2"
    await hass.services.async_call(
        "todo",
        "update_item",
        {"entity_id": eid, "item": "Milk", "status": "completed"},
        blocking=True,
    )
    assert engine.value(DID, "items") == [
        {"summary": "Milk", "status": "completed"},
        {"summary": "eggs", "status": "needs_action"},
    ]
    assert hass.states.get(eid).state == "1"
    items = await hass.services.async_call(
        "todo", "get_items", {"entity_id": eid}, blocking=True, return_response=True
    )
    assert [i["summary"] for i in items[eid]["items"]] == ["Milk", "eggs"]
    await hass.services.async_call(
        "todo", "remove_item", {"entity_id": eid, "item": "eggs"}, blocking=True
    )
    assert hass.states.get(eid).state == "0" and engine.value(DID, "open_items") == 0
    # renamed and marked not done again, then the done ones removed, as HA's services do
    features = hass.states.get(eid).attributes["supported_features"]
    assert features == 1 | 2 | 4  # create, delete, update: what the list's services offer
    await hass.services.async_call(
        "todo",
        "update_item",
        {"entity_id": eid, "item": "Milk", "rename": "oat milk", "status": "needs_action"},
        blocking=True,
    )
    await hass.services.async_call(
        "todo", "add_item", {"entity_id": eid, "item": "jam"}, blocking=True
    )
    await hass.services.async_call(
        "todo",
        "update_item",
        {"entity_id": eid, "item": "jam", "status": "completed"},
        blocking=True,
    )
    await hass.services.async_call(
        "todo", "remove_completed_items", {"entity_id": eid}, blocking=True
    )
    assert engine.value(DID, "items") == [{"summary": "oat milk", "status": "needs_action"}]
    assert hass.states.get(eid).state == "1"
    before = engine.snapshot()
    with pytest.raises(ServiceValidationError):
        await hass.services.async_call(
            "todo",
            "update_item",
            {"entity_id": eid, "item": "bread", "status": "completed"},
            blocking=True,
        )
    assert engine.diff(before, engine.snapshot()) == []


async def _narrowed(hass: HomeAssistant, type_name: str, narrowing: Narrowing, values: dict):
    device = narrow(instantiate(type_name, did=DID, room="r1", values=values), narrowing)
    entry = await setup_home_entry(
        hass,
        Home(name=type_name, rooms=[Room(id="r1", type="hall", name="Hall")], devices=[device]),
    )
    return entry, entry.runtime_data.engine


async def test_a_light_without_dimming_only_switches(hass: HomeAssistant) -> None:
    entry, engine = await _narrowed(
        hass,
        "light",
        Narrowing.of(["state"], ["turn_on", "turn_off"], fixed={"brightness": 100}),
        {"state": "off"},
    )
    eid = entity_id(hass, entry, "light", "light")
    assert hass.states.get(eid).attributes["supported_color_modes"] == ["onoff"]
    await hass.services.async_call("light", "turn_on", {"entity_id": eid}, blocking=True)
    assert engine.value(DID, "state") == "on" and hass.states.get(eid).state == "on"


async def test_a_colour_only_light_shows_colours_and_takes_hs(hass: HomeAssistant) -> None:
    entry, engine = await _narrowed(
        hass,
        "color_light",
        Narrowing.of(
            ["state", "color"],
            ["turn_on", "turn_off", "set_color"],
            fixed={"color_mode": "color", "brightness": 100},
        ),
        {"state": "on"},
    )
    eid = entity_id(hass, entry, "light", "light")
    assert hass.states.get(eid).attributes["supported_color_modes"] == ["rgb"]
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": eid, "hs_color": [120, 100]}, blocking=True
    )
    assert engine.value(DID, "color") == "#00FF00"  # HA converts hs to the light's rgb
    assert hass.states.get(eid).attributes["rgb_color"] == (0, 255, 0)


async def test_a_robot_that_cannot_pause_offers_no_pause(hass: HomeAssistant) -> None:
    entry, _ = await _narrowed(
        hass,
        "room_vacuum",
        Narrowing.of(["state", "dock_countdown"], ["start", "return_to_base"]),
        {},
    )
    eid = entity_id(hass, entry, "vacuum", "vacuum")
    assert (
        hass.states.get(eid).attributes["supported_features"]
        == VF.STATE | VF.START | VF.RETURN_HOME
    )
    with pytest.raises(ServiceNotSupported):  # HA refuses a feature the entity does not support
        await hass.services.async_call("vacuum", "pause", {"entity_id": eid}, blocking=True)


@pytest.mark.parametrize(
    ("type_name", "platform", "stated", "shown"),
    [
        ("valve", "valve", None, "water"),  # a catalog home: the catalog's water valve
        ("valve", "valve", "", None),  # an imported valve whose source states no class
        ("valve", "valve", "water", "water"),
        (
            "valve",
            "valve",
            "gas",
            None,
        ),  # a class the platform cannot show: none rather than a wrong one
        ("media_player", "media_player", "tv", "tv"),
        ("media_player", "media_player", "", None),
        # every class HA has for a cover is kept (HA's intents filter on it: "open the gate");
        # the intents suite's homes state them (issue 41: the shades, the gate, the damper)
        ("curtain", "cover", "shade", "shade"),
        ("curtain", "cover", "damper", "damper"),
        ("garage_door", "cover", "gate", "gate"),
        ("garage_door", "cover", "door", "door"),
        ("garage_door", "cover", "sunroof", None),
    ],
)
async def test_the_source_device_class_is_the_one_ha_shows(
    hass: HomeAssistant, type_name: str, platform: str, stated: str | None, shown: str | None
) -> None:
    device = instantiate(type_name, did=DID, room="r1")
    device.userdata.device_class = stated
    entry = await setup_home_entry(
        hass,
        Home(
            name=type_name,
            rooms=[Room(id="r1", type="garden", name="Front yard")],
            devices=[device],
        ),
    )
    state = hass.states.get(entity_id(hass, entry, platform, platform))
    assert state.attributes.get("device_class") == shown, state


async def test_a_valve_without_a_class_is_not_opened_as_water(hass: HomeAssistant) -> None:
    """HA's intents filter on the class: "turn on the water in the front yard" (HassTurnOn with
    device_class water) reaches no valve whose source states no class, and reaches one of class water."""
    from homeassistant.helpers import intent
    from homeassistant.setup import async_setup_component

    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "intent", {})
    for stated, opened in (("", False), ("water", True)):
        device = instantiate("valve", did=DID, room="r1")
        device.userdata.device_class = stated
        entry = await setup_home_entry(
            hass,
            Home(
                name="v", rooms=[Room(id="r1", type="garden", name="Front yard")], devices=[device]
            ),
        )
        slots = {"area": {"value": "Front yard"}, "device_class": {"value": ["water"]}}
        with contextlib.suppress(
            intent.MatchFailedError
        ):  # no valve of class water: HA's own refusal
            await intent.async_handle(hass, "test", intent.INTENT_TURN_ON, slots)
        assert (entry.runtime_data.engine.value(DID, "position") == 100) is opened, stated
        assert await hass.config_entries.async_remove(entry.entry_id)


async def test_an_attribute_the_source_never_stated_is_not_reported_until_it_changes(
    hass: HomeAssistant,
) -> None:
    """Issue 35: home-assistant-datasets' synthetic-home media player reports no mute flag until
    a mute call sets one. Here too: switched off, the flag does not vanish (it was never
    there), so the source's rule on the whole HA state sees no change it did not expect."""
    device = instantiate("media_player", did=DID, room="r1", values={"state": "playing"})
    device.userdata.unstated = ["volume_muted_enabled"]
    entry = await setup_home_entry(
        hass, Home(name="mp", rooms=[Room(id="r1", type="hall", name="Hall")], devices=[device])
    )
    eid = entity_id(hass, entry, "media_player", "media_player")
    assert "is_volume_muted" not in hass.states.get(eid).attributes
    await hass.services.async_call("media_player", "turn_off", {"entity_id": eid}, blocking=True)
    await hass.services.async_call("media_player", "turn_on", {"entity_id": eid}, blocking=True)
    assert "is_volume_muted" not in hass.states.get(eid).attributes
    await hass.services.async_call(
        "media_player", "volume_mute", {"entity_id": eid, "is_volume_muted": True}, blocking=True
    )
    assert hass.states.get(eid).attributes["is_volume_muted"] is True
    assert entry.runtime_data.engine.value(DID, "volume_muted_enabled") is True


async def test_a_stated_attribute_is_reported_from_the_start(hass: HomeAssistant) -> None:
    device = instantiate("media_player", did=DID, room="r1", values={"state": "playing"})
    entry = await setup_home_entry(
        hass, Home(name="mp", rooms=[Room(id="r1", type="hall", name="Hall")], devices=[device])
    )
    eid = entity_id(hass, entry, "media_player", "media_player")
    assert hass.states.get(eid).attributes["is_volume_muted"] is False
