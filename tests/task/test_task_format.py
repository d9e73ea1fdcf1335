"""Task format: parsing, canonical dump round-trip, and errors that name file, line, field."""

from __future__ import annotations

import json

import pytest

from smh_core.task.model import Task, TaskFileError, dump_task, iter_tasks, parse_task_line

BASE = {
    "id": "smh-tc1-clear-0001",
    "suite": "smh",
    "category": "atomic_control",
    "subcategory": "clear",
    "difficulty": "simple",
    "home": {"level": "simple", "seed": 3},
    "turns": [{"text": "Set the kitchen water heater to 45 degrees."}],
    "goal": {"kind": "execute", "critic": "device(9470).target_water_temperature == 45"},
    "reference": {
        "mode": "execute",
        "actions": [
            {
                "did": "9470",
                "locator": "start_heating",
                "arguments": {"target_water_temperature": 45},
            }
        ],
    },
}


def _line(**changes) -> str:
    data = json.loads(json.dumps(BASE))
    data.update(changes)
    return json.dumps(data)


def test_round_trip_is_canonical():
    task = parse_task_line(_line())
    text = dump_task(task)
    assert parse_task_line(text) == task
    assert dump_task(parse_task_line(text)) == text


@pytest.mark.parametrize(
    "goal",
    [
        {"kind": "query", "facts": [{"kind": "number", "value": 2}], "answer": "two"},
        {
            "kind": "clarify",
            "about": ["duration"],
            "then": {"kind": "execute", "critic": "device(1).state == on"},
        },
        {
            "kind": "automation",
            "triggers": [{"kind": "time", "cron": "0 0 22 27 6 ? 2024"}],
            "critic": "device(1).state == off",
        },
        {"kind": "infeasible", "reason": "no such device"},
        {
            "kind": "timed",
            "checkpoints": [{"at_seconds": 3540, "critic": "device(1).state == off"}],
        },
    ],
)
def test_every_goal_kind_round_trips(goal):
    task = parse_task_line(_line(goal=goal))
    assert task.goal.kind == goal["kind"]
    assert parse_task_line(dump_task(task)) == task


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"difficulty": "hard"}, "difficulty"),
        ({"home": {"level": "simple"}}, "home"),
        ({"home": {"level": "simple", "seed": 1, "file": "x.json"}}, "home"),
        ({"turns": []}, "turns"),
        ({"goal": {"kind": "execute"}}, "goal.execute.critic"),
        ({"goal": {"kind": "dance"}}, "goal"),
        (
            {"reference": {"mode": "execute", "actions": [{"did": "1"}]}},
            "reference.actions.0.locator",
        ),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_malformed_task_names_field(changes, field):
    with pytest.raises(TaskFileError) as exc:
        parse_task_line(_line(**changes), "tasks/x.jsonl", 7)
    assert exc.value.field == field
    assert str(exc.value).startswith(f"tasks/x.jsonl:7: {field}: ")


def test_file_errors_name_the_line(tmp_path):
    path = tmp_path / "suite.jsonl"
    path.write_text(_line() + "\n\n" + _line(id="b") + "\n" + "{not json\n")
    tasks = iter_tasks(path)
    assert next(tasks).id == "smh-tc1-clear-0001"
    assert next(tasks).id == "b"
    with pytest.raises(TaskFileError, match=r"suite\.jsonl:4: column 2: invalid JSON"):
        next(tasks)


def test_duplicate_ids_are_rejected(tmp_path):
    path = tmp_path / "dup.jsonl"
    path.write_text(_line() + "\n" + _line() + "\n")
    with pytest.raises(TaskFileError, match=r"dup\.jsonl:2: id: duplicate"):
        list(iter_tasks(path))


def test_home_key_groups_tasks():
    a = Task.model_validate(BASE)
    assert a.home.key() == "simple:3"
    b = parse_task_line(_line(home={"file": "homes/lab.json"}))
    assert b.home.key() == "file:homes/lab.json"
