"""TC2 compositional control tasks: generated on every home level, validated (the reference
passes, doing nothing fails), deterministic, varied in wording, and selective: an agent that
applies the operation to every device of the kind fails the selective subcategories."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from smh_core.bench.agents import OracleAgent
from smh_core.bench.runner import run_task
from smh_core.homeenv.critic import parse
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.generator import generate_home
from smh_core.suites.smh_compositional import (
    BY_SUBCATEGORY,
    COMPOSITIONAL_SUBCATEGORIES,
    KINDS,
    compositional_task,
)
from smh_core.suites.smh_suite import validate
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

LEVELS = ("simple", "medium", "complex")
_ENGINES: dict[tuple[str, int], HomeEngine] = {}


def engine_for(level: str, seed: int) -> HomeEngine:
    key = (level, seed)
    if key not in _ENGINES:
        _ENGINES[key] = HomeEngine(generate_home(level, seed))  # type: ignore[arg-type]
    return _ENGINES[key]


def as_task(made: dict[str, Any], sub: str, idx: int, level: str, seed: int) -> Task:
    """A task exactly as ``smh_suite.generate`` builds one."""
    return Task.model_validate(
        {
            "id": f"smh-{sub}-{idx:03d}",
            "suite": "smh",
            "category": "compositional_control",
            "subcategory": sub,
            "difficulty": level,
            "home": {"level": level, "seed": seed},
            "turns": [{"text": made["text"]}],
            "goal": made["goal"],
            "reference": made["reference"],
            "overrides": made.get("overrides", []),
        }
    )


def draw(sub: str, idx: int, level: str, tries: int = 50) -> tuple[Task, int]:
    """Like the suite: draws with one rng, moving to the next home every 10 draws.
    Returns the task and the number of draws it took."""
    rng = random.Random(f"test:{sub}:{level}:{idx}")
    for attempt in range(tries):
        seed = (idx + attempt // 10) % 10
        made = compositional_task(sub, engine_for(level, seed), rng)
        if made is not None:
            return as_task(made, sub, idx, level, seed), attempt + 1
    raise AssertionError(f"no {sub} task on {level} homes after {tries} draws")


TASKS = [
    draw(sub, i, level)[0]
    for sub in COMPOSITIONAL_SUBCATEGORIES
    for level in LEVELS
    for i in range(3)
]


def test_generated_tasks_validate():
    validate(TASKS)  # reference passes, doing nothing fails


@pytest.mark.parametrize("sub", COMPOSITIONAL_SUBCATEGORIES)
def test_shape_matches_the_suite(sub):
    made = compositional_task(sub, engine_for("medium", 1), random.Random(3)) or compositional_task(
        sub, engine_for("complex", 0), random.Random(4)
    )
    assert made is not None
    assert set(made) <= {"subcategory", "text", "goal", "reference", "overrides"}
    assert made["subcategory"] == sub and made["goal"]["kind"] == "execute"
    assert made["reference"]["mode"] == "execute" and made["reference"]["actions"]
    devices = parse(made["goal"]["critic"]).referenced_devices()
    if sub == "multi_device":
        assert 2 <= len(devices) <= 4
    else:
        assert len(devices) >= 1


def test_generation_leaves_the_engine_untouched():
    engine = engine_for("complex", 0)
    before = engine.snapshot()
    for sub in COMPOSITIONAL_SUBCATEGORIES:
        for i in range(5):
            compositional_task(sub, engine, random.Random(i))
    assert engine.diff(before, engine.snapshot()) == []


@pytest.mark.parametrize("sub", COMPOSITIONAL_SUBCATEGORIES)
def test_deterministic(sub):
    for level in LEVELS:
        for i in range(4):
            a = compositional_task(sub, engine_for(level, i), random.Random(f"det:{i}"))
            b = compositional_task(
                sub, HomeEngine(generate_home(level, i)), random.Random(f"det:{i}")
            )  # type: ignore[arg-type]
            assert a == b


def skeleton(text: str, engine: HomeEngine) -> str:
    """The text with device, room and kind names, numbers and values blanked: its template."""
    names = sorted(
        {engine.device(d).name for d in engine.device_ids()} | {r.name for r in engine.rooms()},
        key=len,
        reverse=True,
    )
    for name in names:
        text = text.replace(name, "<N>")
    for kind in KINDS.values():
        for noun in (*kind.plural, kind.singular):
            text = re.sub(rf"\b{re.escape(noun)}\b", "<K>", text)
    return re.sub(r"\d+(\.\d+)?", "#", text)


@pytest.mark.parametrize("sub", COMPOSITIONAL_SUBCATEGORIES)
def test_wording_varies(sub):
    skeletons, openers = set(), set()
    rng = random.Random(f"words:{sub}")
    made_count = 0
    for i in range(300):
        engine = engine_for(LEVELS[i % 3], i % 10)
        made = compositional_task(sub, engine, rng)
        if made is None:
            continue
        made_count += 1
        skeletons.add(skeleton(made["text"], engine))
        openers.add(" ".join(made["text"].split()[:2]).lower())
        if made_count == 30:
            break
    assert made_count == 30
    assert len(skeletons) >= 3 and len(openers) >= 3, (skeletons, openers)


class AllOfKindAgent:
    """The wrong answer for a selective request: the reference's operation applied to every
    device of the kinds it touches, selected or not (what an agent ignoring the predicate does)."""

    name = "all-of-kind"

    def __init__(self, engine: HomeEngine) -> None:
        self.engine = engine

    async def run(self, task: Task, backend: Any, user: Any) -> Any:
        from smh_core.bench.verifier import Outcome

        targeted = {a.did for a in task.reference.actions}
        for action in task.reference.actions:
            sub = self.engine.device(action.did).userdata.subcategory
            for kind in (KINDS[k] for k in BY_SUBCATEGORY[sub]):
                ns = kind.members[sub]
                if not action.locator.startswith(ns):
                    continue
                rel = action.locator[len(ns) :]
                for did in self.engine.device_ids():
                    other = self.engine.device(did).userdata.subcategory
                    if did not in targeted and other in kind.members:  # the same call, re-aimed
                        loc = kind.members[other] + rel
                        if not backend.execute(did, loc, dict(action.arguments)).get("ok"):
                            backend.execute(
                                did, kind.members[other] + "turn_on", {}
                            )  # as the oracle would
                            backend.execute(did, loc, dict(action.arguments))
            backend.execute(action.did, action.locator, dict(action.arguments))
        return Outcome(response="Done.", stop="answered")


@pytest.mark.parametrize("sub", ["state_dependent", "room_dependent", "top_n"])
async def test_changing_every_device_of_the_kind_fails(sub):
    cache = HomeCache()
    checked = 0
    for level in LEVELS:
        for i in range(4):
            task, _ = draw(sub, 100 + i, level)
            engine = HomeEngine(cache.get(task))
            wrong = await run_task(task, AllOfKindAgent(engine), cache)
            right = await run_task(task, OracleAgent(), cache)
            assert right["passed"], task.id
            assert not wrong["passed"], (task.turns[0].text, wrong["changes"])
            checked += 1
    assert checked == 12


def test_rate_and_speed():
    """50 valid tasks per subcategory (25/15/10 over the levels, as the paper splits them) from
    10 homes per level in a bounded number of draws, and quickly."""
    t0 = time.perf_counter()
    tasks, draws = [], {sub: 0 for sub in COMPOSITIONAL_SUBCATEGORIES}
    for sub in COMPOSITIONAL_SUBCATEGORIES:
        idx = 0
        for level, n in (("simple", 25), ("medium", 15), ("complex", 10)):
            for _ in range(n):
                task, used = draw(sub, idx, level)
                tasks.append(task)
                draws[sub] += used
                idx += 1
    made = time.perf_counter() - t0
    validate(tasks)
    total = time.perf_counter() - t0
    assert len(tasks) == 250
    for sub, used in draws.items():
        assert used <= 50 * 6, (sub, used)  # at most six draws per task on average
    assert total < 60, f"generation {made:.1f}s, with validation {total:.1f}s"
