"""Locks: the door lock, through HA's lock services."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant

from tests.ha.rich_cases import Case, Invalid, Step, run_case, run_invalid

CASES = [
    Case(
        "smart_lock",
        "lock",
        "locked",
        0,
        {"friendly_name": "Door Lock"},
        (
            Step("unlock", {}, {"state": "unlocked", "defend_enabled": False}, "unlocked"),
            Step("lock", {}, {"state": "locked"}, "locked"),
            Step("unlock", {}, {"state": "unlocked", "defend_enabled": False}, "unlocked"),
        ),
        push=({"state": "locked"}, "locked"),
        values={"defend_enabled": True},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_lock(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_open_is_not_offered(hass: HomeAssistant) -> None:
    # the device's ``open`` service unlocks (HA's unlock); HA's open (unlatch) is not offered
    await run_invalid(hass, Invalid("smart_lock", "lock", "open", {}, "service_not_supported"))
