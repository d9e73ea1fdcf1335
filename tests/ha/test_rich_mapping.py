"""The rich mapping without Home Assistant: which catalog types become which rich entities,
that every attribute stays shown exactly once, and how HA-side values become engine calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from custom_components.smh.entity_plan import plan
from custom_components.smh.rich import bindings
from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.model import Device, Home

# device type -> its rich entities (key: the component namespace, if any, then the platform)
TABLE = {
    "ac_gateway": ["climate"],
    "air_cube": ["climate"],
    "air_purifier": ["fan"],
    "aroma_diffuser": [],
    "binary_sensor": [],
    "blind": ["cover"],
    "builtin_microwave_steam_oven": [],
    "climate_sensor": [],
    "color_light": ["light"],
    "color_temperature_light": ["light"],
    "compound_washer": [],
    "curtain": ["cover"],
    "degree_curtain": ["cover"],
    "dehumidifier": ["humidifier"],
    "electric_water_heater": ["water_heater"],
    "fan_light": ["light.light", "fan.fan"],
    "floor_ac": ["climate"],
    "garage_door": ["cover"],
    "human_sensor": [],
    "humidifier": ["humidifier"],
    "light": ["light"],
    "light_strip": ["light"],
    "media_player": ["media_player"],
    "robot_cleaner": ["vacuum"],
    "room_vacuum": ["vacuum"],
    "sensor": [],
    "smart_fan": ["fan"],
    "smart_lock": ["lock"],
    "smart_plug": [],
    "smart_screen": ["media_player"],
    "split_ac": ["climate"],
    "swing_fan": ["fan"],
    "todo_list": ["todo"],
    "trash_bin": [],
    "universal_speaker": ["player.media_player"],
    "vacuum_cleaner": ["vacuum"],
    "valve": ["valve"],
}


def _device(type_name: str) -> Device:
    return instantiate(type_name, did="1", room="r1")


def test_table_names_every_catalog_type() -> None:
    assert sorted(TABLE) == sorted(load_catalog())


@pytest.mark.parametrize("type_name", sorted(TABLE))
def test_device_type_maps_to_its_rich_entities(type_name: str) -> None:
    device = _device(type_name)
    riches, generic = plan(device)
    assert [r.key for r in riches] == TABLE[type_name]
    # every attribute is shown exactly once: by a rich entity or by its own generic entity
    shown = [loc for r in riches for loc in r.locators] + [m.locator for m in generic]
    assert sorted(shown) == sorted(loc for loc, _ in device.attributes_by_locator())


def test_partial_devices_stay_generic() -> None:
    """The tiny home's fan light can only turn its parts on, and its AC has no power pair."""
    tiny = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"
    home = Home.model_validate(json.loads(tiny.read_text()))
    assert {d.did: [r.key for r in bindings(d)] for d in home.devices} == {
        "1001": ["light"],
        "1002": [],
        "1003": [],
    }


def test_modes_home_assistant_does_not_know_keep_the_device_generic() -> None:
    ac = _device("floor_ac")
    mode = next(a for a in ac.attributes if a.name == "ac_mode")
    mode.options = [*mode.options, "turbo"]
    assert bindings(ac) == []
    generic = {m.locator: m.platform for m in plan(ac)[1]}
    assert (generic["state"], generic["ac_mode"]) == ("switch", "select")


def test_a_feature_needs_every_service_it_names() -> None:
    screen = _device("smart_screen")
    screen.services = [s for s in screen.services if s.name != "unmute"]
    (rich,) = bindings(screen)
    assert "VOLUME_MUTE" not in rich.features and "mute" in rich.calls and "muted" in rich.roles
    assert {"PLAY", "PAUSE", "STOP", "VOLUME_SET", "VOLUME_STEP"} <= set(rich.features)


def test_ha_values_become_engine_calls() -> None:
    (heater,) = bindings(_device("electric_water_heater"))
    # a whole float from HA becomes the int the engine wants
    assert heater.set("target_temperature", 55.0) == {
        "did": "1",
        "locator": "set_target_water_temperature",
        "arguments": {"target_water_temperature": 55},
    }
    assert heater.power(False) == {"did": "1", "locator": "turn_off", "arguments": {}}
    light, fan = bindings(_device("fan_light"))
    assert light.power(True)["locator"] == "light.turn_on"
    assert fan.set("speed", "high") == {
        "did": "1",
        "locator": "fan.set_speed_level",
        "arguments": {"speed_level": "high"},
    }
    (speaker,) = bindings(_device("universal_speaker"))
    assert speaker.call("play_media", media_name="News") == {
        "did": "1",
        "locator": "player.play",
        "arguments": {"media_name": "News"},
    }
    (vacuum,) = bindings(_device("vacuum_cleaner"))
    state = vacuum.roles["state"]
    assert state.options == ["idle", "cleaning", "paused", "returning", "docked"]
    assert (state.to_ha("charging"), state.from_ha("docked")) == ("docked", "charging")
