"""SMH rules exported as HA automations, checked by HA's own automation config validation."""

from __future__ import annotations

from typing import Any

import pytest
import voluptuous as vol
from homeassistant.components.automation.config import async_validate_config_item
from homeassistant.core import HomeAssistant

from smh_core.ha.automation_export import (
    ActionRef,
    EntityRef,
    ExportError,
    SmhEntityMap,
    to_ha_automation,
)
from smh_core.homeenv.rules import Action, Rule

ENTITIES = SmhEntityMap(
    {
        ("2001", "occupied"): "binary_sensor.motion_2001_occupied",
        ("1001", "on"): "light.lamp_1001",
        ("1001", "level"): EntityRef("light.lamp_1001", "brightness"),
        ("@living", "temperature"): "sensor.living_temperature",
        ("3001", "mode"): "select.ac_3001_mode",
    },
    actions={("1001", "turn_on"): ActionRef("light.turn_on", "light.lamp_1001")},
    config_entry_id="e1",
)
TURN_ON = {"did": "1001", "locator": "turn_on"}
TURN_OFF = {"did": "1001", "locator": "turn_off"}


def _rule(
    triggers: list[dict],
    conditions: list[dict] | None = None,
    actions: list[dict] | None = None,
    **kw: Any,
) -> Rule:
    return Rule.model_validate(
        {
            "id": "r1",
            "name": "Test rule",
            "triggers": triggers,
            "conditions": conditions or [],
            "actions": actions or [TURN_ON],
            **kw,
        }
    )


async def _valid(hass: HomeAssistant, config: dict[str, Any]) -> dict[str, Any]:
    validated = await async_validate_config_item(hass, config["id"], config)  # raises when invalid
    assert validated is not None and validated.validation_status == "ok", validated
    return config


async def test_time_trigger_with_state_and_time_conditions(hass: HomeAssistant) -> None:
    rule = _rule(
        [{"kind": "time", "cron": "0 30 7 ? * 2-6"}],
        [
            {"kind": "state", "did": "2001", "locator": "occupied", "equals": True},
            {"kind": "state", "did": "3001", "locator": "mode", "in": [3, 4]},
            {"kind": "time", "after": "06:00", "before": "09:30:00", "weekdays": [0, 6]},
        ],
    )
    config = await _valid(hass, to_ha_automation(rule, ENTITIES))
    assert config == {
        "id": "r1",
        "alias": "Test rule",
        "description": "SMH automation r1: Test rule",
        "triggers": [
            {"trigger": "time", "at": ["07:30:00"], "weekday": ["mon", "tue", "wed", "thu", "fri"]}
        ],
        "conditions": [
            {
                "condition": "state",
                "entity_id": "binary_sensor.motion_2001_occupied",
                "state": "on",
            },
            {"condition": "state", "entity_id": "select.ac_3001_mode", "state": ["3", "4"]},
            {
                "condition": "time",
                "after": "06:00:00",
                "before": "09:30:00",
                "weekday": ["mon", "sun"],
            },
        ],
        "actions": [{"action": "light.turn_on", "target": {"entity_id": "light.lamp_1001"}}],
    }


async def test_state_trigger_with_for_and_numeric_condition(hass: HomeAssistant) -> None:
    rule = _rule(
        [
            {
                "kind": "state",
                "did": "2001",
                "locator": "occupied",
                "to": False,
                "from": True,
                "for_s": 600,
            }
        ],
        [{"kind": "numeric", "did": "1001", "locator": "level", "above": 10, "below": 200}],
        [TURN_OFF],
        enabled=False,
    )
    config = await _valid(hass, to_ha_automation(rule, ENTITIES))
    assert config["triggers"] == [
        {
            "trigger": "state",
            "entity_id": "binary_sensor.motion_2001_occupied",
            "from": "on",
            "to": "off",
            "for": {"seconds": 600},
        }
    ]
    assert config["conditions"] == [
        {
            "condition": "numeric_state",
            "entity_id": "light.lamp_1001",
            "attribute": "brightness",
            "above": 10,
            "below": 200,
        }
    ]
    assert config["actions"] == [
        {
            "action": "smh.execute",
            "data": {
                "did": "1001",
                "locator": "turn_off",
                "arguments": {},
                "config_entry_id": "e1",
            },
        }
    ]
    assert config["initial_state"] is False


async def test_numeric_trigger_with_for_and_any_change_state_trigger(hass: HomeAssistant) -> None:
    rule = _rule(
        [
            {
                "kind": "numeric",
                "did": "@living",
                "locator": "temperature",
                "above": 27.5,
                "for_s": 300,
            },
            {"kind": "state", "did": "3001", "locator": "mode"},
        ],
        actions=[{"did": "3001", "locator": "fan", "arguments": {"value": 80}}],
    )
    config = await _valid(hass, to_ha_automation(rule, ENTITIES))
    assert config["triggers"] == [
        {
            "trigger": "numeric_state",
            "entity_id": "sensor.living_temperature",
            "above": 27.5,
            "for": {"seconds": 300},
        },
        {"trigger": "state", "entity_id": "select.ac_3001_mode", "to": None},
    ]
    assert config["actions"][0]["data"]["arguments"] == {"value": 80}


async def test_one_shot_cron_is_a_time_trigger_and_date_condition(hass: HomeAssistant) -> None:
    rule = _rule(
        [
            {"kind": "time", "cron": "0 0 22 27 6 ? 2025"},
            {"kind": "state", "did": "2001", "locator": "occupied", "to": True},
        ]
    )
    config = await _valid(hass, to_ha_automation(rule, ENTITIES))
    assert config["triggers"][0] == {"trigger": "time", "at": ["22:00:00"], "id": "t0"}
    assert config["conditions"] == [
        {
            "condition": "template",
            "value_template": "{{ trigger.id != 't0' or (now().day in [27] and now().month in [6] "
            "and now().year in [2025]) }}",
        }
    ]
    single = to_ha_automation(_rule([{"kind": "time", "cron": "0 0 8 1 * ?"}]), ENTITIES)
    assert single["conditions"] == [
        {"condition": "template", "value_template": "{{ now().day in [1] }}"}
    ]
    await _valid(hass, single)


@pytest.mark.parametrize(
    ("cron", "trigger"),
    [
        ("*/5 * * * *", {"trigger": "time_pattern", "hours": "*", "minutes": "/5", "seconds": 0}),
        ("0 0 * * * ?", {"trigger": "time_pattern", "hours": "*", "minutes": 0, "seconds": 0}),
        ("0 0 8,20 * * ?", {"trigger": "time", "at": ["08:00:00", "20:00:00"]}),
    ],
)
async def test_repeating_crons(hass: HomeAssistant, cron: str, trigger: dict) -> None:
    config = await _valid(hass, to_ha_automation(_rule([{"kind": "time", "cron": cron}]), ENTITIES))
    assert config["triggers"] == [trigger] and config["conditions"] == []


@pytest.mark.parametrize(
    ("cron", "message"),
    [
        ("0 0 12 L * ?", "cron '0 0 12 L * ?': day-of-month field 'L' uses 'L'"),
        ("0 15 10 ? * 6#3", "weekday field '6#3'"),
        (
            "0 5/7 * * * ?",
            "minute field '5/7' is neither a few fixed times of day nor a time pattern",
        ),
    ],
)
def test_crons_home_assistant_cannot_express(cron: str, message: str) -> None:
    with pytest.raises(ExportError, match=message.replace("?", r"\?").replace("*", r"\*")):
        to_ha_automation(_rule([{"kind": "time", "cron": cron}]), ENTITIES)


def test_unmapped_entity_is_named() -> None:
    rule = _rule([{"kind": "state", "did": "1001", "locator": "level", "to": 5}])
    with pytest.raises(ExportError, match="no Home Assistant entity for 1001/level"):
        to_ha_automation(rule, SmhEntityMap())


def test_entity_map_from_the_integrations_unique_ids() -> None:
    m = SmhEntityMap.from_unique_ids(
        "e1",
        {
            "e1_10_on": "switch.a",
            "e1_10_1_on": "switch.b",
            "e1_10.light": "light.c",
            "e2_10_on": "switch.d",
        },
        ["10", "10_1"],
    )
    assert m.entities == {
        ("10", "on"): EntityRef("switch.a"),
        ("10_1", "on"): EntityRef("switch.b"),
    }
    assert m.action(Action(did="10", locator="turn_on")) == {
        "action": "smh.execute",
        "data": {"did": "10", "locator": "turn_on", "arguments": {}, "config_entry_id": "e1"},
    }


async def test_home_assistant_validation_is_live(hass: HomeAssistant) -> None:
    """The check above is real: HA rejects what it cannot run."""
    config = to_ha_automation(_rule([{"kind": "time", "cron": "0 30 7 * * ?"}]), ENTITIES)
    config["triggers"][0]["at"] = ["25:00:00"]
    with pytest.raises(vol.Invalid):
        await async_validate_config_item(hass, config["id"], config)


KEYED = SmhEntityMap(
    {
        ("1001", "state"): EntityRef("light.lamp", "homeenv", "state"),
        ("1001", "brightness"): EntityRef("light.lamp", "homeenv", "brightness"),
    },
    config_entry_id="e1",
)
LAMP = "(state_attr('light.lamp', 'homeenv') or {})"


async def test_keyed_values_become_template_triggers_and_conditions(hass: HomeAssistant) -> None:
    """Values inside a rich entity's ``homeenv`` attribute: HA's state triggers cannot reach them."""
    rule = _rule(
        [
            {
                "kind": "numeric",
                "did": "1001",
                "locator": "brightness",
                "above": 20,
                "below": 80,
                "for_s": 60,
            },
            {"kind": "state", "did": "1001", "locator": "state", "from": "on"},
        ],
        [
            {"kind": "state", "did": "1001", "locator": "state", "in": ["on"]},
            {"kind": "numeric", "did": "1001", "locator": "brightness", "below": 50},
        ],
    )
    config = await _valid(hass, to_ha_automation(rule, KEYED))
    old = "(trigger.from_state.attributes.get('homeenv') or {}).get('state')"
    new = "(trigger.to_state.attributes.get('homeenv') or {}).get('state')"
    assert config["triggers"] == [
        {
            "trigger": "template",
            "for": {"seconds": 60},
            "value_template": f"{{{{ {LAMP}.get('brightness') is number and {LAMP}.get('brightness') > 20.0 and "
            f"{LAMP}.get('brightness') < 80.0 }}}}",
        },
        {"trigger": "state", "entity_id": "light.lamp", "attribute": "homeenv", "id": "t1"},
    ]
    assert config["conditions"] == [
        {
            "condition": "template",
            "value_template": f"{{{{ trigger.id != 't1' or ({old} != {new} and {old} == \"on\") }}}}",
        },
        {"condition": "template", "value_template": f"{{{{ {LAMP}.get('state') in [\"on\"] }}}}"},
        {
            "condition": "template",
            "value_template": f"{{{{ {LAMP}.get('brightness') is number and {LAMP}.get('brightness') < 50.0 }}}}",
        },
    ]


async def test_keyed_template_conditions_evaluate_in_home_assistant(hass: HomeAssistant) -> None:
    """The templates are not only valid but mean what the rule means, on HA's own renderer."""
    from homeassistant.helpers.template import Template

    hass.states.async_set("light.lamp", "on", {"homeenv": {"state": "on", "brightness": 30}})
    rule = _rule(
        [{"kind": "time", "cron": "0 0 8 * * ?"}],
        [
            {"kind": "state", "did": "1001", "locator": "state", "equals": "on"},
            {"kind": "numeric", "did": "1001", "locator": "brightness", "above": 20, "below": 40},
        ],
    )
    config = to_ha_automation(rule, KEYED)
    rendered = [Template(c["value_template"], hass).async_render() for c in config["conditions"]]
    assert rendered == [True, True]
    hass.states.async_set("light.lamp", "on", {"homeenv": {"state": "off", "brightness": 45}})
    assert [Template(c["value_template"], hass).async_render() for c in config["conditions"]] == [
        False,
        False,
    ]
    hass.states.async_remove("light.lamp")
    assert [Template(c["value_template"], hass).async_render() for c in config["conditions"]] == [
        False,
        False,
    ]
