"""TC6 personalized memory: the intended action needs the memory (long-term) or the previous
turn (short-term); a decoy preference or the wrong device fails."""

from __future__ import annotations

import asyncio
import random

from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.generator import generate_home
from smh_core.suites.smh_memory import MEMORY_SUBCATEGORIES, memory_task
from smh_core.suites.smh_suite import validate
from smh_core.task.home import HomeCache
from smh_core.task.model import Task


def make(sub: str, idx: int, level: str) -> Task:
    home = generate_home(level, idx % 10)
    rng = random.Random(f"t:{sub}:{idx}")
    made = None
    for _ in range(50):
        made = memory_task(sub, HomeEngine(home), rng)
        if made:
            break
    assert made
    return Task.model_validate(
        {
            "id": f"t-{sub}-{idx}",
            "suite": "smh",
            "category": "memory",
            "subcategory": sub,
            "difficulty": level,
            "home": {"level": level, "seed": idx % 10},
            "turns": [{"text": made["text"]}],
            "goal": made["goal"],
            "reference": made["reference"],
            **{k: made[k] for k in ("memory", "history", "overrides") if k in made},
        }
    )


TASKS = [
    make(sub, i, level)
    for sub in MEMORY_SUBCATEGORIES
    for i, level in enumerate(["simple", "medium", "medium", "complex", "complex"])
]


class Acts:
    name = "acts"

    def __init__(self, actions: list[dict]) -> None:
        self.actions = actions

    async def run(self, task, backend, user) -> Outcome:
        for a in self.actions:
            backend.execute(a["did"], a["locator"], dict(a.get("arguments", {})))
        return Outcome(response="Done.", stop="answered")


def run(task: Task, agent) -> dict:
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(run_task(task, agent, HomeCache()))
    finally:
        loop.close()


def test_tasks_validate_and_are_deterministic():
    validate(TASKS)
    again = [make(t.subcategory, int(t.id.rsplit("-", 1)[1]), t.difficulty) for t in TASKS]
    assert [t.model_dump() for t in again] == [t.model_dump() for t in TASKS]


def test_long_term_needs_the_right_memory():
    for task in (t for t in TASKS if t.subcategory == "long_term"):
        assert len(task.memory) >= 2, "decoy preferences make retrieval matter"
        assert sum("When I say" in m for m in task.memory) == 1
        assert task.turns[0].text not in " ".join(task.memory)


def test_short_term_on_the_previous_device_fails():
    task = next(t for t in TASKS if t.subcategory == "short_term")
    previous = task.overrides[0].did
    wrong = [dict(a.model_dump(), did=previous) for a in task.reference.actions]
    assert not run(task, Acts(wrong))["passed"]
    assert run(task, Acts([a.model_dump() for a in task.reference.actions]))["passed"]
    assert task.history and task.history[0].role == "user"
