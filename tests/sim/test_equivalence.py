"""Rule equivalence: different spellings of the same rule pass, any behavioural difference fails."""

from __future__ import annotations

import pytest

from smh_core.homeenv.rules import Rule
from smh_core.sim.equivalence import rules_equivalent
from tests.support import sim_home as sh

ENGINE = sh.engine(
    sh.ac("ac1", "living", on=True),
    sh.lamp("l1", "living"),
    sh.motion("m1", "living"),
    sh.washer("w1", "kitchen"),
)
LAMP_ON = [{"did": "l1", "locator": "turn_on"}]


def rule(triggers, actions=LAMP_ON, conditions=()) -> Rule:
    return Rule.model_validate(
        {"id": "r", "triggers": triggers, "conditions": list(conditions), "actions": actions}
    )


def t(cron):
    return {"kind": "time", "cron": cron}


EQUIVALENT = {
    "quartz vs unix daily": (rule([t("0 0 22 * * ? *")]), rule([t("0 22 * * *")])),
    "quartz weekdays vs unix": (rule([t("0 30 7 ? * 2-6 *")]), rule([t("30 7 * * MON-FRI")])),
    "two triggers vs a list": (
        rule([t("0 0 8 * * ? *"), t("0 0 20 * * ? *")]),
        rule([t("0 0 8,20 * * ? *")]),
    ),
    "redundant from on a bool": (
        rule([{"kind": "state", "did": "m1", "locator": "occupied", "to": True}]),
        rule([{"kind": "state", "did": "m1", "locator": "occupied", "to": True, "from": False}]),
    ),
    "int vs float threshold": (
        rule([{"kind": "numeric", "did": "ac1", "locator": "local_temperature", "above": 2600}]),
        rule([{"kind": "numeric", "did": "ac1", "locator": "local_temperature", "above": 2600.0}]),
    ),
    "same window spelled with seconds": (
        rule(
            [t("0 0 * * * ? *")], conditions=[{"kind": "time", "after": "22:00", "before": "06:00"}]
        ),
        rule(
            [t("0 0 * * * ? *")],
            conditions=[{"kind": "time", "after": "22:00:00", "before": "06:00:00"}],
        ),
    ),
    "state condition equals vs in": (
        rule(
            [t("0 0 9 * * ? *")],
            conditions=[{"kind": "state", "did": "w1", "locator": "op_state", "equals": 0}],
        ),
        rule(
            [t("0 0 9 * * ? *")],
            conditions=[{"kind": "state", "did": "w1", "locator": "op_state", "in": [0]}],
        ),
    ),
}

DIFFERENT = {
    "other hour": (rule([t("0 0 22 * * ? *")]), rule([t("0 0 21 * * ? *")]), "trigger"),
    "one-shot vs yearly": (
        rule([t("0 0 22 27 6 ? 2025")]),
        rule([t("0 0 22 27 6 ? *")]),
        "trigger",
    ),
    "state to other value": (
        rule([{"kind": "state", "did": "w1", "locator": "op_state", "to": 0}]),
        rule([{"kind": "state", "did": "w1", "locator": "op_state", "to": 0, "from": 1}]),
        "trigger",
    ),
    "threshold": (
        rule([{"kind": "numeric", "did": "ac1", "locator": "local_temperature", "above": 2600}]),
        rule([{"kind": "numeric", "did": "ac1", "locator": "local_temperature", "above": 2500}]),
        "trigger",
    ),
    "duration": (
        rule([{"kind": "state", "did": "m1", "locator": "occupied", "to": False, "for_s": 900}]),
        rule([{"kind": "state", "did": "m1", "locator": "occupied", "to": False, "for_s": 600}]),
        "trigger",
    ),
    "window": (
        rule(
            [t("0 0 * * * ? *")], conditions=[{"kind": "time", "after": "22:00", "before": "06:00"}]
        ),
        rule(
            [t("0 0 * * * ? *")], conditions=[{"kind": "time", "after": "21:00", "before": "06:00"}]
        ),
        "conditions",
    ),
    "action value": (
        rule(
            [t("0 0 9 * * ? *")],
            actions=[{"did": "ac1", "locator": "fan", "arguments": {"value": 50}}],
        ),
        rule(
            [t("0 0 9 * * ? *")],
            actions=[{"did": "ac1", "locator": "fan", "arguments": {"value": 60}}],
        ),
        "actions",
    ),
}


@pytest.mark.parametrize("name", sorted(EQUIVALENT))
def test_equivalent_spellings(name):
    a, b = EQUIVALENT[name]
    result = rules_equivalent(a, b, ENGINE, sh.START)
    assert result.equivalent, result.reason
    assert rules_equivalent(b, a, ENGINE, sh.START).equivalent


@pytest.mark.parametrize("name", sorted(DIFFERENT))
def test_behavioural_differences(name):
    a, b, part = DIFFERENT[name]
    result = rules_equivalent(a, b, ENGINE, sh.START)
    assert not result.equivalent
    assert result.part == part and result.reason
    assert not rules_equivalent(b, a, ENGINE, sh.START).equivalent


def test_actions_are_run_on_copies():
    before = ENGINE.snapshot()
    a = rule([t("0 0 9 * * ? *")], actions=[{"did": "ac1", "locator": "turn_off"}])
    assert rules_equivalent(a, a, ENGINE, sh.START).equivalent
    assert ENGINE.diff(before, ENGINE.snapshot()) == []
