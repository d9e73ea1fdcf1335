"""A rule's or schedule's actions as the service calls of a real HA automation
(:func:`smh_core.ha.real_automations._actions`), on SimuHome's seed-1 Matter home and the mapping
HA's matter integration gives it (``tests/matter/known_good/matter-1.yaml``).

Switching a Matter air purifier on and setting its speed also moves its PercentCurrent, which HA
shows only as the fan's one percentage (read only in the mapping): it follows the setting, so the
automation sets power and speed and nothing else. Found by SimuHome's QT4-1 on the Matter twin
(issue 39): the schedule was refused as "changes .../PercentCurrent, which the mapping cannot set".
A read-only change on a device the action sets nothing of (a Matter fan's OnOff has no entity)
still refuses the rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from smh_core.ha.automation_export import ExportError
from smh_core.ha.hardware_map import load_mapping
from smh_core.ha.real_automations import _actions
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.rules import Rule
from smh_core.homes.simulated import generate_matter_home

MAPPING = Path(__file__).parent / "matter" / "known_good" / "matter-1.yaml"
PURIFIER = "2005"  # Air Purifier 1, study: power switch, fan percentage (set), current (read)
FAN = "2024"  # Fan 1, study: HA gives its OnOff no entity


def _rule(*actions: dict) -> Rule:
    return Rule.model_validate(
        {"id": "r", "triggers": [{"kind": "time", "cron": "0 0 9 * * ?"}], "actions": actions}
    )


def test_a_read_only_speed_follows_the_setting_the_same_action_sets() -> None:
    engine = HomeEngine(generate_matter_home(seed=1))
    mapping = load_mapping(MAPPING)
    assert mapping.get(PURIFIER, "1.FanControl.PercentCurrent").set is None  # type: ignore[union-attr]
    rule = _rule(
        {"did": PURIFIER, "locator": "1.OnOff.On"},
        {
            "did": PURIFIER,
            "locator": "1.FanControl.PercentSetting",
            "arguments": {"value": 40},
        },
    )
    calls = _actions(rule, mapping, engine)
    assert calls == [
        {"action": "switch.turn_on", "data": {"entity_id": "switch.study_air_purifier_1_power"}},
        {
            "action": "fan.set_percentage",
            "data": {"entity_id": "fan.study_air_purifier_1", "percentage": 40},
        },
    ]


def test_a_change_nothing_of_its_device_sets_still_refuses_the_rule() -> None:
    engine = HomeEngine(generate_matter_home(seed=1))
    with pytest.raises(ExportError, match=rf"changes {FAN}/1\.\S+, which the mapping cannot set"):
        _actions(_rule({"did": FAN, "locator": "1.OnOff.On"}), load_mapping(MAPPING), engine)
