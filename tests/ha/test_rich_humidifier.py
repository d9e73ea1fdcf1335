"""Humidifiers: the humidifier and the dehumidifier, through HA's humidifier services."""

from __future__ import annotations

import pytest
from homeassistant.components.humidifier import HumidifierEntityFeature as F
from homeassistant.core import HomeAssistant

from tests.ha.rich_cases import Case, Invalid, Step, run_case, run_invalid

CASES = [
    Case(
        "humidifier",
        "humidifier",
        "off",
        F.MODES,
        {
            "min_humidity": 30,
            "max_humidity": 80,
            "humidity": 50,
            "current_humidity": 38.0,
            "device_class": "humidifier",
            "available_modes": ["auto", "sleep", "low", "medium", "high"],
            "mode": "auto",
        },
        (
            Step("turn_on", {}, {"state": "on"}, "on"),
            Step("set_humidity", {"humidity": 65}, {"target_humidity": 65}),
            Step("set_mode", {"mode": "high"}, {"work_mode": "high"}),
            Step("turn_off", {}, {"state": "off"}, "off"),
        ),
        push=({"state": "on"}, "on"),
    ),
    Case(
        "dehumidifier",
        "humidifier",
        "off",
        F.MODES,
        {
            "min_humidity": 30,
            "max_humidity": 70,
            "target_humidity_step": 5,
            "device_class": "dehumidifier",
            "current_humidity": 66.0,
        },
        (
            Step("set_humidity", {"humidity": 45}, {"target_humidity": 45, "state": "off"}),
            Step("set_mode", {"mode": "dry_clothes"}, {"work_mode": "dry_clothes"}),
            Step("toggle", {}, {"state": "on"}, "on"),
        ),
        push=({"state": "off"}, "off"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_humidifier(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_mode_of_a_stopped_humidifier_is_refused(hass: HomeAssistant) -> None:
    await run_invalid(
        hass,
        Invalid(
            "humidifier", "humidifier", "set_mode", {"mode": "high"}, "the humidifier must be on"
        ),
    )
