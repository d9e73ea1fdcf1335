"""HA's Assist per language (issue 41 item 2), the parts that need no Home Assistant: the
sample over intents, a failed task's outcome from HA's own response, infra failures kept out
of the rate, and the check that HA exposes the task home as the tasks name it."""

from __future__ import annotations

from collections import Counter

import pytest

from smh_core.ha.assist_languages import (
    exposure_problems,
    language_row,
    markdown,
    outcome,
    sample_tasks,
)
from smh_core.suites.intents.suite import generate_language

ENTRY = "E1"


@pytest.fixture(scope="module")
def de_tasks():
    return generate_language("de", 0, 80).tasks


def test_sample_is_seeded_and_spread_over_intents(de_tasks):
    a = sample_tasks(de_tasks, 20, 0)
    assert [t.id for t in a] == [t.id for t in sample_tasks(de_tasks, 20, 0)]
    assert len(a) == 20
    intents = Counter(t.subcategory for t in a)
    assert len(intents) == len({t.subcategory for t in de_tasks})  # every intent, 16 in de
    assert max(intents.values()) - min(intents.values()) <= 1
    assert sample_tasks(de_tasks, 0) == list(de_tasks)
    with pytest.raises(ValueError):
        sample_tasks(de_tasks, -1)


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ({"passed": True, "assist": {"response_type": "action_done"}}, "passed"),
        ({"passed": False, "timed_out": True}, "timeout"),
        (
            {
                "passed": False,
                "assist": {"response_type": "error", "error_code": "no_intent_match"},
            },
            "no match",
        ),
        (
            {
                "passed": False,
                "assist": {"response_type": "error", "error_code": "no_valid_targets"},
            },
            "no target",
        ),
        (
            {
                "passed": False,
                "assist": {"response_type": "error", "error_code": "failed_to_handle"},
            },
            "HA error",
        ),
        ({"passed": False, "assist": {"response_type": "action_done"}}, "wrong result"),
        ({"passed": False}, "wrong result"),
    ],
)
def test_outcome_from_has_own_response(record, expected):
    assert outcome(record) == expected


def test_row_keeps_infra_failures_out_of_the_rate(de_tasks):
    asked = de_tasks[:5]
    records = [
        {"task_id": asked[0].id, "passed": True},
        {
            "task_id": asked[1].id,
            "passed": False,
            "assist": {"response_type": "error", "error_code": "no_intent_match"},
        },
        {"task_id": "intents-xx-0000", "passed": True},  # not asked: not counted
    ]
    row = language_row("de", asked, records, {"smh.load_task failed (HTTP 500)": 1})
    assert (row.tasks, row.scored, row.passed, row.infra) == (5, 2, 1, 3)
    # every task not scored is accounted for, with a reason, never dropped silently
    assert row.infra_reasons == {
        "smh.load_task failed (HTTP 500)": 1,
        "no record (see the HA log)": 2,
    }
    assert row.rate()[0] == 0.5
    text = markdown([row])
    assert "| de | 5 | 2 | 1/2 = 50.0 % [" in text and "no record (see the HA log)" in text
    assert f"| {asked[0].subcategory} |" in text


def registries(name: str = "Küchenlampe", area: str = "k", exposed: bool = True) -> dict:
    return {
        "devices": [{"id": "d1", "identifiers": [["smh", f"{ENTRY}_light_1"]], "area_id": area}],
        "entities": [
            {"entity_id": "light.kuchenlampe", "device_id": "d1", "area_id": None},
            {"entity_id": "sensor.kuchenlampe_power", "device_id": "d1", "area_id": None},
        ],
        "areas": [{"area_id": "k", "name": "Küche"}, {"area_id": "w", "name": "Wohnzimmer"}],
        "states": [
            {"entity_id": "light.kuchenlampe", "attributes": {"friendly_name": name}},
            {"entity_id": "switch.other", "attributes": {"friendly_name": "küchenlampe"}},
        ],
        "exposed": {"light.kuchenlampe": {"conversation": exposed}, "switch.other": {}},
    }


EXPECTED = [("light_1", "Küchenlampe", "light", "Küche", None)]


def test_exposure_matches_the_task_home():
    assert exposure_problems(ENTRY, EXPECTED, registries()) == []


def test_exposure_differences_are_named():
    assert exposure_problems(ENTRY, EXPECTED, registries(exposed=False)) == [
        "light.kuchenlampe (Küchenlampe): not exposed to Assist"
    ]
    assert exposure_problems(ENTRY, EXPECTED, registries(name="Kitchen Lamp")) == [
        "light.kuchenlampe: friendly name 'Kitchen Lamp', the task home says 'Küchenlampe'"
    ]
    assert exposure_problems(ENTRY, EXPECTED, registries(area="w")) == [
        "light.kuchenlampe (Küchenlampe): area 'Wohnzimmer', the task home says 'Küche'"
    ]
    assert exposure_problems(ENTRY, [("lock_1", "Haustür", "lock", None, None)], registries()) == [
        "lock_1 (Haustür): no device in HA's registry"
    ]
    gate = [("light_1", "Küchenlampe", "light", "Küche", "gate")]
    assert exposure_problems(ENTRY, gate, registries()) == [
        "light.kuchenlampe (Küchenlampe): device class None, the task home says 'gate'"
    ]
    twin = registries()
    twin["exposed"]["switch.other"] = {"conversation": True}
    assert exposure_problems(ENTRY, EXPECTED, twin) == [
        "switch.other is exposed under 'küchenlampe' too: HA could not tell them apart"
    ]
