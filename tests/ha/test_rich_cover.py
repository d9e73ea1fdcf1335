"""Covers: blinds and curtains, through HA's cover services."""

from __future__ import annotations

import pytest
from homeassistant.components.cover import CoverEntityFeature as F
from homeassistant.core import HomeAssistant

from tests.ha.rich_cases import Case, Invalid, Step, run_case, run_invalid

FEATURES = F.OPEN | F.CLOSE | F.SET_POSITION
CASES = [
    Case(
        "blind",
        "cover",
        "open",
        FEATURES,
        {"current_position": 100, "device_class": "blind"},
        (
            Step("close_cover", {}, {"position": 0, "tilt_angle": 90}, "closed"),
            Step("set_cover_position", {"position": 40}, {"position": 40}, "open"),
            Step("open_cover", {}, {"position": 100}, "open"),
        ),
        push=({"position": 0}, "closed"),
    ),
    Case(
        "curtain",
        "cover",
        "closed",
        FEATURES,
        {"current_position": 0, "device_class": "curtain"},
        (
            Step("open_cover", {}, {"position": 100}, "open"),
            Step("set_cover_position", {"position": 25}, {"position": 25}),
            Step("toggle", {}, {"position": 0}, "closed"),
        ),
        push=({"position": 60}, "open"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_cover(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_stop_is_not_offered(hass: HomeAssistant) -> None:
    # the blinds have no stop service, so HA refuses the call before it reaches the engine
    await run_invalid(hass, Invalid("blind", "cover", "stop_cover", {}, "service_not_supported"))
