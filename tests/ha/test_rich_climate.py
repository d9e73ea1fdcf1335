"""Climates: every catalog air conditioner, through HA's climate services."""

from __future__ import annotations

import pytest
from homeassistant.components.climate import ClimateEntityFeature as F
from homeassistant.core import HomeAssistant

from tests.ha.rich_cases import Case, Invalid, Step, run_case, run_invalid

BASE = F.TARGET_TEMPERATURE | F.TURN_ON | F.TURN_OFF
MODES = ["off", "heat", "cool", "auto", "dry", "fan_only"]
CASES = [
    Case(
        "floor_ac",
        "climate",
        "off",
        BASE | F.FAN_MODE | F.SWING_MODE,
        {
            "hvac_modes": MODES,
            "min_temp": 16,
            "max_temp": 30,
            "target_temp_step": 0.5,
            "temperature": 26.0,
            "current_temperature": 27.0,
            "fan_mode": "auto",
            "fan_modes": ["auto", "low", "medium", "high"],
            "swing_mode": "off",
            "swing_modes": ["on", "off"],
        },
        (
            Step(
                "set_hvac_mode", {"hvac_mode": "heat"}, {"state": "on", "ac_mode": "heat"}, "heat"
            ),
            Step("set_temperature", {"temperature": 22.5}, {"target_temperature": 22.5}),
            Step("set_fan_mode", {"fan_mode": "high"}, {"fan_level": "high"}),
            Step("set_swing_mode", {"swing_mode": "on"}, {"swing_enabled": True}),
            Step(
                "set_temperature",
                {"temperature": 20, "hvac_mode": "cool"},
                {"ac_mode": "cool", "target_temperature": 20},
                "cool",
            ),
            Step("turn_off", {}, {"state": "off", "ac_mode": "cool"}, "off"),
            Step("turn_on", {}, {"state": "on"}, "cool"),
            Step(
                "set_temperature",
                {"temperature": 25, "hvac_mode": "off"},
                {"state": "off", "target_temperature": 25},
                "off",
            ),
        ),
        push=({"state": "on", "ac_mode": "dry"}, "dry"),
    ),
    Case(
        "ac_gateway",
        "climate",
        "off",
        BASE | F.FAN_MODE,
        {"hvac_modes": MODES, "swing_modes": None},
        (
            # settings need the unit on: HA's mode change turns it on first, in one atomic batch
            Step(
                "set_hvac_mode",
                {"hvac_mode": "fan_only"},
                {"state": "on", "ac_mode": "fan_only"},
                "fan_only",
            ),
            Step("set_temperature", {"temperature": 21}, {"target_temperature": 21}),
            Step("set_fan_mode", {"fan_mode": "low"}, {"fan_level": "low"}),
            Step(
                "set_hvac_mode",
                {"hvac_mode": "off"},
                {"state": "off", "ac_mode": "fan_only"},
                "off",
            ),
        ),
        push=({"state": "on", "ac_mode": "cool"}, "cool"),
    ),
    Case(
        "air_cube",
        "climate",
        "off",
        BASE | F.TARGET_HUMIDITY | F.PRESET_MODE,
        {
            "min_temp": 10,
            "max_temp": 32,
            "humidity": 50,
            "current_humidity": 48.0,
            "min_humidity": 30,
            "max_humidity": 80,
            "preset_mode": "awake",
            "preset_modes": ["awake", "fall_asleep", "deep_sleep"],
        },
        (
            Step(
                "set_temperature",
                {"temperature": 12},
                {"state": "off", "target_temperature": 12},
                "off",
            ),
            Step("set_humidity", {"humidity": 60}, {"target_humidity": 60}),
            Step("turn_on", {}, {"state": "on"}, "auto"),
            Step("set_preset_mode", {"preset_mode": "deep_sleep"}, {"sleep_state": "deep_sleep"}),
            Step(
                "set_hvac_mode",
                {"hvac_mode": "off"},
                {"state": "off", "sleep_state": "awake"},
                "off",
            ),
        ),
        push=({"current_temperature": 19.5, "state": "on"}, "auto"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_climate(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_setting_a_stopped_central_ac_is_refused(hass: HomeAssistant) -> None:
    await run_invalid(
        hass,
        Invalid(
            "ac_gateway",
            "climate",
            "set_temperature",
            {"temperature": 22},
            "the central AC must be on",
        ),
    )
