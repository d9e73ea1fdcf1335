"""Lights: every catalog type with a light, through HA's light services."""

from __future__ import annotations

import pytest
from homeassistant.components.light import LightEntityFeature
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from tests.ha.rich_cases import Case, Invalid, Step, run_case, run_invalid

OFF = {"color_mode": None, "brightness": None}
EFFECTS = ["static", "breathing", "rainbow", "flowing", "music_sync"]
CASES = [
    Case(
        "light",
        "light",
        "off",
        0,
        {"supported_color_modes": ["brightness"], **OFF},
        (
            Step("turn_on", {}, {"state": "on", "brightness": 80}, "on"),
            Step("turn_on", {"brightness_pct": 30}, {"brightness": 30}),
            Step("turn_off", {}, {"state": "off", "brightness": 30}, "off"),
            Step("turn_on", {"brightness": 255}, {"state": "on", "brightness": 100}),
            Step("toggle", {}, {"state": "off"}, "off"),
        ),
        push=({"state": "on"}, "on"),
    ),
    Case(
        "color_temperature_light",
        "light",
        "on",
        0,
        {
            "supported_color_modes": ["color_temp"],
            "color_mode": "color_temp",
            "brightness": 178,
            "color_temp_kelvin": 4000,
            "min_color_temp_kelvin": 2700,
            "max_color_temp_kelvin": 6500,
        },
        (
            Step(
                "turn_on", {"color_temp_kelvin": 3000}, {"state": "on", "color_temperature": 3000}
            ),
            Step(
                "turn_on",
                {"brightness_pct": 50, "color_temp_kelvin": 6500},
                {"brightness": 50, "color_temperature": 6500},
            ),
            Step("turn_off", {}, {"state": "off"}, "off"),
        ),
        push=({"state": "off"}, "off"),
        values={"state": "on"},
    ),
    Case(
        "color_light",
        "light",
        "off",
        0,
        {"supported_color_modes": ["color_temp", "rgb"], **OFF},
        (
            Step(
                "turn_on",
                {"rgb_color": [255, 0, 0]},
                {"state": "on", "color": "#FF0000", "color_mode": "color"},
            ),
            Step(
                "turn_on",
                {"color_temp_kelvin": 2700},
                {"color_temperature": 2700, "color_mode": "color_temperature"},
            ),
            Step("turn_on", {"hs_color": [240, 100]}, {"color": "#0000FF", "color_mode": "color"}),
            Step("turn_off", {}, {"state": "off", "color": "#0000FF"}, "off"),
        ),
        push=({"state": "on", "color_mode": "color"}, "on"),
    ),
    Case(
        "light_strip",
        "light",
        "off",
        LightEntityFeature.EFFECT,
        {"supported_color_modes": ["rgb"], "effect_list": EFFECTS, **OFF},
        (
            Step("turn_on", {"effect": "rainbow"}, {"state": "on", "effect": "rainbow"}, "on"),
            Step(
                "turn_on",
                {"rgb_color": [0, 128, 255], "brightness": 128},
                {"color": "#0080FF", "brightness": 50},
            ),
            Step("turn_off", {}, {"state": "off"}, "off"),
        ),
        push=({"state": "on"}, "on"),
    ),
    Case(
        "fan_light",
        "light.light",
        "off",
        0,
        {"supported_color_modes": ["color_temp"], **OFF},
        (
            # the light must be on to change its color temperature: one atomic turn_on + set
            Step(
                "turn_on",
                {"color_temp_kelvin": 3000},
                {"light.state": "on", "light.color_temperature": 3000},
            ),
            Step("turn_off", {}, {"light.state": "off", "fan.state": "off"}, "off"),
        ),
        push=({"light.state": "on"}, "on"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_light(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_invalid_effect_is_refused_and_nothing_changes(hass: HomeAssistant) -> None:
    # turn_on + set_effect run as one batch: the refused effect also undoes the turn_on
    await run_invalid(
        hass, Invalid("light_strip", "light", "turn_on", {"effect": "disco"}, "invalid_option")
    )


async def test_generic_entities_of_now_rich_attributes_are_removed(
    hass: HomeAssistant, tiny_home_file: str
) -> None:
    """An install from before the light platform registered the lamp's state as a switch."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={
            "source": "file",
            "file": tiny_home_file,
            "level": "simple",
            "seed": 0,
            "time_scale": 1.0,
        },
    )
    entry.add_to_hass(hass)
    registry = er.async_get(hass)
    old = registry.async_get_or_create(
        "switch", DOMAIN, f"{entry.entry_id}_1001_state", config_entry=entry
    )
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert registry.async_get(old.entity_id) is None
    assert registry.async_get_entity_id("light", DOMAIN, f"{entry.entry_id}_1001_light") is not None
    assert (
        registry.async_get_entity_id("sensor", DOMAIN, f"{entry.entry_id}_1001_color") is not None
    )
