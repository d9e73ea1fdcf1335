"""Execute goals whose correct outcome is no change (a request the home already satisfies):
doing nothing passes, and validation insists on decoys, wrong actions that must fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from smh_core.suites.smh_suite import validate
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

FIXTURES = Path(__file__).parents[1] / "fixtures"
LAMP_ALREADY_ON = {
    "suite": "smh",
    "difficulty": "simple",
    "home": {"file": "tiny_home.json"},
    "id": "noop-1",
    "category": "atomic_control",
    "subcategory": "already_done",
    "overrides": [{"did": "1001", "values": {"state": "on"}}],
    "turns": [{"text": "Turn on the bedroom lamp."}],
    "goal": {
        "kind": "execute",
        "critic": "device(1001).state == on",
        "no_change": True,
        "decoys": [{"did": "1001", "locator": "turn_off"}],
    },
    "reference": {"mode": "execute", "response": "It is already on."},
}


def _task(**goal: object) -> Task:
    return Task.model_validate({**LAMP_ALREADY_ON, "goal": {**LAMP_ALREADY_ON["goal"], **goal}})


def test_a_request_already_satisfied_validates_with_a_failing_decoy():
    validate([_task()], HomeCache(FIXTURES))


def test_a_decoy_that_passes_is_refused():
    # turning it on again changes nothing and satisfies the goal: not a wrong action
    with pytest.raises(ValueError, match="decoy 0 .*passes"):
        validate([_task(decoys=[{"did": "1001", "locator": "turn_on"}])], HomeCache(FIXTURES))


def test_no_change_on_a_goal_the_home_does_not_meet_is_refused():
    task = Task.model_validate(
        {
            **LAMP_ALREADY_ON,
            "overrides": [],
            "reference": {"mode": "execute", "actions": [{"did": "1001", "locator": "turn_on"}]},
        }
    )
    with pytest.raises(ValueError, match="doing nothing is correct but fails"):
        validate([task], HomeCache(FIXTURES))


def test_without_no_change_the_same_task_is_refused_as_a_free_pass():
    task = Task.model_validate(
        {**LAMP_ALREADY_ON, "goal": {"kind": "execute", "critic": "device(1001).state == on"}}
    )
    with pytest.raises(ValueError, match="doing nothing passes"):
        validate([task], HomeCache(FIXTURES))


@pytest.mark.parametrize(
    ("goal", "message"),
    [
        ({"decoys": []}, "needs decoys"),
        ({"no_change": False}, "no_change goals only"),
    ],
)
def test_decoys_and_no_change_come_together(goal, message):
    with pytest.raises(ValidationError, match=message):
        _task(**goal)


def test_round_trips_through_the_task_file(tmp_path):
    from smh_core.task.model import dump_task, load_tasks

    path = tmp_path / "t.jsonl"
    path.write_text(dump_task(_task()) + "\n")
    [back] = load_tasks([path])
    assert back.goal.no_change and back.goal.decoys[0].locator == "turn_off"
    assert json.loads(dump_task(back)) == json.loads(dump_task(_task()))
