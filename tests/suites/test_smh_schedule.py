"""TC4 scheduling tasks: generated, validated, and verified by behaviour (not by rule text)."""

from __future__ import annotations

import random

import pytest

from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.generator import generate_home
from smh_core.suites.smh_schedule import SCHEDULE_SUBCATEGORIES, schedule_task
from smh_core.suites.smh_suite import validate
from smh_core.task.home import HomeCache
from smh_core.task.model import Task


def make(sub: str, idx: int, level: str = "simple") -> Task:
    home = generate_home(level, idx % 10)
    rng = random.Random(f"test:{sub}:{idx}")
    for _ in range(50):
        made = schedule_task(sub, HomeEngine(home), rng)
        if made:
            break
    assert made
    return Task.model_validate(
        {
            "id": f"t-{sub}-{idx}",
            "suite": "smh",
            "category": "scheduling",
            "subcategory": sub,
            "difficulty": level,
            "home": {"level": level, "seed": idx % 10},
            "start_time": made["start_time"],
            "turns": [{"text": made["text"]}],
            "goal": made["goal"],
            "reference": made["reference"],
        }
    )


TASKS = [
    make(sub, i, level)
    for sub in SCHEDULE_SUBCATEGORIES
    for i, level in enumerate(["simple", "simple", "medium", "complex"])
]


def test_generated_tasks_validate_and_are_deterministic():
    validate(TASKS)  # reference passes, doing nothing fails
    again = [make(t.subcategory, int(t.id.rsplit("-", 1)[1]), t.difficulty) for t in TASKS]
    assert [t.model_dump() for t in again] == [t.model_dump() for t in TASKS]
    texts = {t.turns[0].text for t in TASKS}
    assert len(texts) == len(TASKS)


class RuleAgent:
    """Stores the given rule, as an agent would through create_automation."""

    name = "rule"

    def __init__(self, rule: dict) -> None:
        self.rule = rule

    async def run(self, task, backend, user) -> Outcome:
        result = backend.create_automation(self.rule)
        return Outcome(response="ok", invalid_calls=0 if result.get("ok") else 1)


def _unix(cron: str) -> str | None:
    """The Unix spelling of a recurring Quartz cron (``0 M H * * ? *``, ``0 M H ? * 2-6 *``)."""
    p = cron.split()
    if p[0] != "0" or p[6] != "*":
        return None
    if p[3:6] == ["*", "*", "?"]:
        return f"{p[1]} {p[2]} * * *"
    if p[3] == "?" and p[4] == "*":
        dow = "".join(str(int(c) - 1) if c.isdigit() else c for c in p[5])
        return f"{p[1]} {p[2]} * * {dow}"
    return None


@pytest.mark.parametrize(
    "task", [t for t in TASKS if t.subcategory == "time_and_state"], ids=lambda t: t.id
)
async def test_other_cron_spelling_passes_and_shifted_hour_fails(task):
    ref = task.reference.automations[0]
    unix = _unix(ref["triggers"][0]["cron"])
    assert unix is not None
    homes = HomeCache()
    same = {**ref, "id": "mine", "triggers": [{"kind": "time", "cron": unix}]}
    assert (await run_task(task, RuleAgent(same), homes))["passed"]
    p = unix.split()
    shifted = {
        **ref,
        "id": "mine",
        "triggers": [{"kind": "time", "cron": " ".join([p[0], str((int(p[1]) + 1) % 24), *p[2:]])}],
    }
    v = (await run_task(task, RuleAgent(shifted), homes))["verdict"]
    assert not v["passed"] and v["error_class"] == "AJ"
    no_condition = {**same, "conditions": []}
    v = (await run_task(task, RuleAgent(no_condition), homes))["verdict"]
    assert not v["passed"] and "conditions" in v["reason"]
