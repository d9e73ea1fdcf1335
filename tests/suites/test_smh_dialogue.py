"""TC3 ambiguous-intent and TC5 multi-turn tasks: generated from homes, validated (reference
passes, doing nothing fails), and failing for the mistakes each subcategory is about."""

from __future__ import annotations

import random
import re

import pytest

from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.generator import generate_home
from smh_core.suites.smh_dialogue import (
    AMBIGUOUS_SUBCATEGORIES,
    MULTI_TURN_SUBCATEGORIES,
    dialogue_task,
)
from smh_core.suites.smh_suite import validate
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

SUBS = AMBIGUOUS_SUBCATEGORIES + MULTI_TURN_SUBCATEGORIES
LEVELS = ("simple", "medium", "complex")
_HOMES: dict[tuple[str, int], object] = {}


def home(level: str, seed: int):
    if (level, seed) not in _HOMES:
        _HOMES[level, seed] = generate_home(level, seed)  # type: ignore[arg-type]
    return _HOMES[level, seed]


def to_task(made: dict, sub: str, level: str, seed: int, tid: str) -> Task:
    """A task built the way ``smh_suite.generate`` builds one."""
    category = "ambiguous_intent" if sub in AMBIGUOUS_SUBCATEGORIES else "multi_turn"
    return Task.model_validate(
        {
            "id": tid,
            "suite": "smh",
            "category": category,
            "subcategory": sub,
            "difficulty": level,
            "home": {"level": level, "seed": seed},
            "turns": [{"text": made["text"], "replies": made.get("replies", [])}],
            "goal": made["goal"],
            "reference": made["reference"],
            **{k: made[k] for k in ("history", "overrides") if k in made},
        }
    )


def make(sub: str, idx: int, level: str) -> Task:
    """Task ``idx`` of ``sub``: from home ``idx``, or the next home with a fit (a small home
    may have nothing a subcategory needs)."""
    rng = random.Random(f"test:{sub}:{level}:{idx}")
    for seed in range(idx, idx + 10):
        for _ in range(20):
            made = dialogue_task(sub, HomeEngine(home(level, seed % 10)), rng)
            if made:
                return to_task(made, sub, level, seed % 10, f"t-{sub}-{level}-{idx}")
    raise AssertionError(f"no {sub} task in any {level} home")


TASKS = [make(sub, i, level) for sub in SUBS for level in LEVELS for i in range(2)]


def by_sub(sub: str) -> list[Task]:
    return [t for t in TASKS if t.subcategory == sub]


def test_every_subcategory_and_level_validates():
    validate(TASKS)  # reference passes, doing nothing fails


def test_deterministic():
    again = [make(t.subcategory, int(t.id.rsplit("-", 1)[1]), t.difficulty) for t in TASKS]
    assert [t.model_dump() for t in again] == [t.model_dump() for t in TASKS]


def test_unknown_subcategory_is_an_error():
    with pytest.raises(ValueError):
        dialogue_task("nope", HomeEngine(home("simple", 0)), random.Random(0))


class Script:
    """A stand-in agent: optionally asks one question, then makes the given control calls."""

    name = "script"

    def __init__(self, calls: list[dict], ask: bool = False) -> None:
        self.calls, self.ask = calls, ask

    async def run(self, task, backend, user) -> Outcome:
        out = Outcome(response="Done.", stop="answered")
        if self.ask:
            out.questions.append("Which one do you mean?")
            user(out.questions[-1])
        for c in self.calls:
            result = backend.execute(c["did"], c["locator"], dict(c["arguments"]))
            out.tool_calls.append({"tool": "control_device", "arguments": c})
            out.invalid_calls += 0 if result.get("ok") else 1
        return out


def actions(task: Task) -> list[dict]:
    return [a.model_dump() for a in task.reference.actions]


async def verdict(task: Task, agent: Script) -> dict:
    return (await run_task(task, agent, HomeCache()))["verdict"]


@pytest.mark.parametrize("task", by_sub("correction"), ids=lambda t: t.id)
async def test_correction_fails_when_the_discarded_target_is_kept(task):
    old = task.overrides[0].did
    assert (await verdict(task, Script(actions(task))))["passed"]
    keep_old = [
        a for a in actions(task) if a["did"] != old
    ]  # the corrected target only, old left changed
    v = await verdict(task, Script(keep_old))
    assert not v["passed"] and v["error_class"] in ("AP", "DC")


@pytest.mark.parametrize("task", by_sub("topic_shift"), ids=lambda t: t.id)
async def test_topic_shift_fails_when_the_old_target_is_inherited(task):
    old = task.overrides[0].did
    inherited = [{**a, "did": old} for a in actions(task)]
    v = await verdict(task, Script(inherited))
    assert not v["passed"] and v["error_class"] == "DC"
    v = await verdict(task, Script(actions(task) + inherited))
    assert not v["passed"] and "outside the goal" in v["reason"]


@pytest.mark.parametrize("task", by_sub("slot_missing"), ids=lambda t: t.id)
async def test_slot_missing_fails_without_asking(task):
    assert task.goal.kind == "clarify" and task.goal.then is not None and task.turns[0].replies
    v = await verdict(task, Script(actions(task)))  # guesses the slot right but never asks
    assert not v["passed"] and v["error_class"] == "MS"
    assert (await verdict(task, Script(actions(task), ask=True)))["passed"]


@pytest.mark.parametrize("sub", ["state_level", "scene_level"])
def test_ambiguous_intent_acts_or_asks_by_the_home(sub):
    """Both goal kinds occur; an execute goal names its room or has only one room to fix."""
    kinds = set()
    for i in range(30):
        level = LEVELS[i % 3]
        made = dialogue_task(sub, HomeEngine(home(level, i % 10)), random.Random(f"k:{sub}:{i}"))
        if made:
            kinds.add(made["goal"]["kind"])
            if made["goal"]["kind"] == "clarify":
                assert made["replies"] and made["reference"]["mode"] == "clarify"
    assert kinds == {"execute", "clarify"}


def shape(text: str, engine: HomeEngine) -> str:
    """The template behind a text: names, quoted strings and numbers masked."""
    names = set()
    for d in engine.devices():
        names |= {d["name"].lower(), d["room_name"].lower()}
        room = d["room_name"].lower()
        if d["name"].lower().startswith(room + " "):
            names.add(d["name"].lower()[len(room) + 1 :])
    out = text.lower()
    for name in sorted(names, key=len, reverse=True):
        out = out.replace(name, "<n>")
    out = re.sub(r'"[^"]*"', "<q>", out)
    return re.sub(r"\d+(\.\d+)?", "#", out)


@pytest.mark.parametrize("sub", SUBS)
def test_wording_varies(sub):
    shapes = set()
    rng = random.Random(f"words:{sub}")
    draws = 0
    for i in range(200):
        if draws == 30:
            break
        engine = HomeEngine(home(LEVELS[i % 3], i % 10))
        made = dialogue_task(sub, engine, rng)
        if made:
            draws += 1
            shapes.add(shape(made["text"], engine))
    assert draws == 30
    assert len(shapes) >= 3, shapes


@pytest.mark.slow
@pytest.mark.parametrize("sub", SUBS)
def test_fifty_valid_tasks_from_ten_homes_per_level(sub):
    """Ten homes per level, at most eight draws per home: at least 50 distinct valid tasks."""
    tasks, seen = [], set()
    for level in LEVELS:
        for seed in range(10):
            rng = random.Random(f"count:{sub}:{level}:{seed}")
            engine = HomeEngine(home(level, seed))
            for _ in range(8):
                made = dialogue_task(sub, engine, rng)
                if made is None:
                    continue
                key = (made["text"], repr(made["goal"]), repr(made.get("history")))
                if key not in seen:
                    seen.add(key)
                    tasks.append(to_task(made, sub, level, seed, f"c-{sub}-{len(tasks)}"))
    assert len(tasks) >= 50
    validate(tasks)
