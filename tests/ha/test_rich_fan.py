"""Fans: standing fans, ceiling-fan components and air purifiers, through HA's fan services."""

from __future__ import annotations

import pytest
from homeassistant.components.fan import FanEntityFeature as F
from homeassistant.core import HomeAssistant

from tests.ha.rich_cases import Case, Invalid, Step, run_case, run_invalid

BASE = F.SET_SPEED | F.PRESET_MODE | F.TURN_ON | F.TURN_OFF
CASES = [
    Case(
        "smart_fan",
        "fan",
        "off",
        BASE | F.OSCILLATE,
        {
            "percentage": 0,
            "percentage_step": 100 / 3,
            "preset_mode": "normal",
            "preset_modes": ["normal", "natural", "sleep", "auto"],
            "oscillating": False,
        },
        (
            Step("turn_on", {"percentage": 100}, {"state": "on", "speed_level": "high"}, "on"),
            Step("set_percentage", {"percentage": 66}, {"speed_level": "medium"}),
            Step("set_preset_mode", {"preset_mode": "natural"}, {"preset_mode": "natural"}),
            Step("set_preset_mode", {"preset_mode": "auto"}, {"preset_mode": "auto"}),
            Step("oscillate", {"oscillating": True}, {"oscillation_enabled": True}),
            Step(
                "set_percentage",
                {"percentage": 0},
                {"state": "off", "speed_level": "medium"},
                "off",
            ),
            Step("set_percentage", {"percentage": 20}, {"state": "on", "speed_level": "low"}, "on"),
            Step("turn_off", {}, {"state": "off"}, "off"),
            Step(
                "turn_on", {"preset_mode": "sleep"}, {"state": "on", "preset_mode": "sleep"}, "on"
            ),
        ),
        push=({"state": "off"}, "off"),
    ),
    Case(
        "fan_light",
        "fan.fan",
        "off",
        BASE | F.OSCILLATE | F.DIRECTION,
        {"direction": "forward"},
        (
            Step("turn_on", {}, {"fan.state": "on", "light.state": "off"}, "on"),
            Step("set_direction", {"direction": "reverse"}, {"fan.current_direction": "reverse"}),
            Step("set_percentage", {"percentage": 34}, {"fan.speed_level": "medium"}),
            Step("toggle", {}, {"fan.state": "off"}, "off"),
        ),
        push=({"fan.state": "on"}, "on"),
    ),
    Case(
        "air_purifier",
        "fan",
        "on",
        BASE,
        {
            "percentage": 50,
            "percentage_step": 100 / 14,
            "preset_mode": "auto",
            "preset_modes": ["auto", "sleep", "favorite"],
        },
        (
            # a percentage picks the favourite level; the purifier then runs in favorite mode
            Step(
                "set_percentage",
                {"percentage": 100},
                {"favorite_level": 14, "work_mode": "favorite"},
            ),
            Step("set_percentage", {"percentage": 30}, {"favorite_level": 5}),
            Step(
                "set_preset_mode",
                {"preset_mode": "sleep"},
                {"work_mode": "sleep", "favorite_level": 5},
            ),
            Step("turn_off", {}, {"state": "off"}, "off"),
        ),
        push=({"state": "on"}, "on"),
        values={"state": "on"},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_fan(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_preset_of_a_stopped_fan_is_refused(hass: HomeAssistant) -> None:
    await run_invalid(
        hass,
        Invalid(
            "smart_fan",
            "fan",
            "set_preset_mode",
            {"preset_mode": "natural"},
            "the fan must be running",
        ),
    )
