"""Vacuums: robot cleaners, through HA's vacuum services."""

from __future__ import annotations

import pytest
from homeassistant.components.vacuum import VacuumEntityFeature as F
from homeassistant.core import HomeAssistant

from tests.ha.rich_cases import Case, Invalid, Step, entity_id, run_case, run_invalid, setup_device

FEATURES = F.STATE | F.START | F.PAUSE | F.RETURN_HOME | F.FAN_SPEED
SPEEDS = ["low", "medium", "high", "auto"]
CASES = [
    Case(
        "robot_cleaner",
        "vacuum",
        "docked",
        FEATURES,
        {"fan_speed": "auto", "fan_speed_list": SPEEDS},
        (
            Step("start", {}, {"state": "cleaning"}, "cleaning"),
            Step("pause", {}, {"state": "paused"}, "paused"),
            Step("set_fan_speed", {"fan_speed": "high"}, {"suction": "high"}),
            Step("return_to_base", {}, {"state": "returning"}, "returning"),
        ),
        push=({"state": "idle"}, "idle"),
    ),
    Case(
        "vacuum_cleaner",
        "vacuum",
        "docked",
        FEATURES,
        {"fan_speed": "auto"},
        (
            Step("start", {}, {"state": "cleaning"}, "cleaning"),
            Step("return_to_base", {}, {"state": "returning"}, "returning"),
            Step("set_fan_speed", {"fan_speed": "low"}, {"suction": "low"}),
        ),
        push=({"state": "standby"}, "idle"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_vacuum(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_battery_is_a_battery_sensor_of_the_robot(hass: HomeAssistant) -> None:
    # HA deprecated the vacuum's own battery attribute in favour of a sensor on the device
    entry, engine = await setup_device(hass, "robot_cleaner", {"battery_level": 42})
    battery = hass.states.get(entity_id(hass, entry, "sensor", "battery_level"))
    assert battery.state == "42" and battery.attributes["device_class"] == "battery"
    vacuum = hass.states.get(entity_id(hass, entry, "vacuum", "vacuum"))
    assert "battery_level" not in vacuum.attributes


async def test_docked_robot_cannot_return(hass: HomeAssistant) -> None:
    await run_invalid(
        hass, Invalid("robot_cleaner", "vacuum", "return_to_base", {}, "already docked")
    )
