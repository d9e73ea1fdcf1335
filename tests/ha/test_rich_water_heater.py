"""Water heaters: the electric storage heater, through HA's water_heater services."""

from __future__ import annotations

import pytest
from homeassistant.components.water_heater import WaterHeaterEntityFeature as F
from homeassistant.core import HomeAssistant

from tests.ha.rich_cases import Case, Invalid, Step, run_case, run_invalid

CASES = [
    Case(
        "electric_water_heater",
        "water_heater",
        "off",
        F.TARGET_TEMPERATURE | F.OPERATION_MODE | F.ON_OFF,
        {
            "operation_list": ["off", "normal", "eco", "quick_heat"],
            "operation_mode": "off",
            "min_temp": 30,
            "max_temp": 75,
            "target_temp_step": 1,
            "temperature": 50,
            "current_temperature": 38.0,
        },
        (
            Step("turn_on", {}, {"state": "on", "work_mode": "normal"}, "normal"),
            Step("set_operation_mode", {"operation_mode": "eco"}, {"work_mode": "eco"}, "eco"),
            Step("set_temperature", {"temperature": 60}, {"target_water_temperature": 60}),
            Step(
                "set_temperature",
                {"temperature": 55, "operation_mode": "quick_heat"},
                {"target_water_temperature": 55, "work_mode": "quick_heat"},
                "quick_heat",
            ),
            Step(
                "set_operation_mode",
                {"operation_mode": "off"},
                {"state": "off", "work_mode": "quick_heat"},
                "off",
            ),
            Step(
                "set_operation_mode",
                {"operation_mode": "normal"},
                {"state": "on", "work_mode": "normal"},
                "normal",
            ),
            Step("turn_off", {}, {"state": "off", "work_state": "idle"}, "off"),
        ),
        push=({"state": "on", "work_mode": "eco"}, "eco"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_water_heater(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_fractional_temperature_is_refused(hass: HomeAssistant) -> None:
    # the tank's target is a whole number of degrees: the engine refuses 55.5
    await run_invalid(
        hass,
        Invalid(
            "electric_water_heater",
            "water_heater",
            "set_temperature",
            {"temperature": 55.5},
            "must be an integer",
        ),
    )
