"""Transitions the catalog's declarative effects cannot express.

Requirements compare with ``equals``/``in``/``not_in`` only, so a numeric threshold needs code.
Everything else about devices lives in ``catalog/homeenv/*.yaml``; keep this module small.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from smh_core.homeenv.engine import register_behavior

MIN_CLEANING_BATTERY = 15
"""Percent of charge below which robot cleaners refuse to start (they would strand mid-run)."""


@register_behavior("require_cleaning_battery")
def require_cleaning_battery(state: Mapping[str, Any], args: dict[str, Any],
                             changes: dict[str, Any], ns: str) -> str | None:
    """Reject starting a clean when ``battery_level`` (same namespace) is below the threshold."""
    loc = f"{ns}.battery_level" if ns else "battery_level"
    level = state.get(loc)
    if isinstance(level, (int, float)) and level < MIN_CLEANING_BATTERY:
        return f"battery at {level}% is below the {MIN_CLEANING_BATTERY}% needed to clean; charge first"
    return None
