"""The ``smh`` suite (SMH-Bench's taxonomy), generated from the home and validated.

Each subcategory has a maker returning the task's wording, goal and reference (and optionally
its start time, state overrides, history or memory): TC1 atomic control (clear, colloquial,
noisy) and TC7 environment-grounded queries (status, quantity) here, TC4 scheduling in
:mod:`.smh_schedule`; 50 tasks each, split 25/15/10 over simple/medium/complex homes. Each task's home
is a generated home (level + seed), so task files stay small and reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from types import ModuleType
from typing import Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType, Home
from smh_core.homes.generator import generate_home
from smh_core.languages.smh import en as EN
from smh_core.task.model import Task

from .common import HOMES_PER_LEVEL, control_target, device_critic, draw_on_homes, validate  # noqa: F401 (validate: suites call it from here too)
from .smh_compositional import COMPOSITIONAL_SUBCATEGORIES, compositional_task
from .smh_dialogue import AMBIGUOUS_SUBCATEGORIES, MULTI_TURN_SUBCATEGORIES, dialogue_task
from .smh_memory import MEMORY_SUBCATEGORIES, memory_task
from .smh_schedule import SCHEDULE_SUBCATEGORIES, schedule_task

SPLIT = (("simple", 25), ("medium", 15), ("complex", 10))
SUBCATEGORIES = {
    "clear": "atomic_control",
    "colloquial": "atomic_control",
    "noisy": "atomic_control",
    **{sub: "compositional_control" for sub in COMPOSITIONAL_SUBCATEGORIES},
    **{sub: "ambiguous_intent" for sub in AMBIGUOUS_SUBCATEGORIES},
    **{sub: "scheduling" for sub in SCHEDULE_SUBCATEGORIES},
    **{sub: "multi_turn" for sub in MULTI_TURN_SUBCATEGORIES},
    **{sub: "memory" for sub in MEMORY_SUBCATEGORIES},
    "status": "query",
    "quantity": "query",
}
TASK_FIELDS = ("start_time", "overrides", "history", "memory")
"""Optional keys a subcategory maker may return, copied onto the task as they are."""


def _control_task(
    style: str, idx: int, level: str, seed: int, home: Home, rng: random.Random, w: ModuleType = EN
) -> dict | None:
    engine = HomeEngine(home)
    target = control_target(engine, rng, None if w is EN else w.aliases)
    if target is None:
        return None
    did = target["did"]
    name = engine.device(did).name
    others = [d for d in engine.device_ids() if d != did]
    decoy = (
        engine.device(rng.choice(others)).name
        if style == "noisy" and others and rng.random() < 0.6
        else None
    )
    if "switch_on" in target:
        text = w.switch_request(style, rng, name, target["switch_on"], decoy)
    else:
        text = w.set_request(
            style, rng, name, target["loc"], target["value"], target["unit"], decoy
        )
    return {
        "subcategory": style,
        "text": text,
        "goal": {"kind": "execute", "critic": device_critic(did, target["critic"])},
        "reference": {"mode": "execute", "response": w.DONE, "actions": target["actions"]},
    }


def _status_task(engine: HomeEngine, rng: random.Random, w: ModuleType = EN) -> dict | None:
    did = rng.choice(engine.device_ids())
    device = engine.device(did)
    specs = dict(device.attributes_by_locator())
    locs = [
        loc
        for loc, a in specs.items()
        if a.type in (AttrType.INT, AttrType.FLOAT, AttrType.STR, AttrType.ENUM)
        and not loc.endswith("alias")
        and not (a.type == AttrType.STR and not a.options)
    ]
    if not locs:
        return None
    loc = rng.choice(locs)
    value = engine.value(did, loc)
    text = w.status_request(rng, device.name, loc)
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if numeric:
        fact = {"kind": "number", "value": value}
    else:  # English: the one name; another language: the names an answer may use, as words
        named = w.value_names(loc, value)
        fact = {"kind": "name", "value": named[0] if w is EN else named}
    return {
        "subcategory": "status",
        "text": text,
        "goal": {"kind": "query", "facts": [fact]},
        "reference": {"mode": "answer", "response": w.status_answer(device.name, loc, value)},
    }


def _quantity_task(engine: HomeEngine, rng: random.Random, w: ModuleType = EN) -> dict | None:
    kinds = sorted({d["subcategory"] for d in engine.devices()})
    sub = rng.choice(kinds)
    devices = engine.devices(subcategory=sub)
    if rng.random() < 0.5:
        rooms = sorted({d["room"] for d in devices if d["room"] is not None})
        if not rooms:  # only devices in no room (a real home's twin)
            return None
        room = engine.room(rng.choice(rooms))
        count = sum(d["room"] == room.id for d in devices)
        text = w.quantity_room_request(rng, sub, room.name)
    else:
        powered = [d for d in devices if engine.status(d["did"]).get("state") == "on"]
        if not any("state" in engine.status(d["did"]) for d in devices):
            return None
        count = len(powered)
        text = w.quantity_on_request(rng, sub)
    return {
        "subcategory": "quantity",
        "text": text,
        "goal": {"kind": "query", "facts": [{"kind": "number", "value": count}]},
        "reference": {"mode": "answer", "response": w.quantity_answer(count)},
    }


@cache
def _english_home(level: str, seed: int) -> Home:
    """The generated (English) home a language's home of ``level`` and ``seed`` is named from."""
    return generate_home(level, seed)  # type: ignore[arg-type]


def _plan() -> Iterator[tuple[str, int, str, int]]:
    for sub in SUBCATEGORIES:
        idx = 0
        for level, n in SPLIT:
            for _ in range(n):
                yield sub, idx, level, (idx % HOMES_PER_LEVEL)
                idx += 1


def make_task(
    sub: str,
    idx: int,
    level: str,
    home_seed: int,
    home: Home,
    rng: random.Random,
    w: ModuleType = EN,
) -> dict[str, Any] | None:
    """One task of ``sub`` drawn with ``rng``, worded by ``w`` (:mod:`smh_core.languages.smh`), or
    ``None`` if this draw has no fit."""
    category = SUBCATEGORIES[sub]
    if category == "atomic_control":
        return _control_task(sub, idx, level, home_seed, home, rng, w)
    engine = HomeEngine(home)
    if category == "scheduling":
        return schedule_task(sub, engine, rng, w)
    if category == "compositional_control":
        return compositional_task(sub, engine, rng, w)
    if category == "memory":
        return memory_task(sub, engine, rng, w)
    if category in ("ambiguous_intent", "multi_turn"):
        english = None if w is EN else HomeEngine(_english_home(level, home_seed))
        return dialogue_task(sub, engine, rng, w, english)
    if sub == "status":
        return _status_task(engine, rng, w)
    return _quantity_task(engine, rng, w)


def generate(seed: int = 0) -> list[Task]:
    tasks = draw_tasks(seed)
    validate(tasks)
    return tasks


def draw_tasks(
    seed: int,
    w: ModuleType = EN,
    homes: dict[tuple[str, int], Home] | None = None,
    home_ref: Callable[[str, int], dict[str, Any]] | None = None,
    subcategories: Iterable[str] | None = None,
) -> list[Task]:
    """The suite's tasks, unvalidated: worded by ``w`` on ``homes`` (by level and seed; the
    generated homes when not given), each naming its home by ``home_ref(level, seed)``, of the
    ``subcategories`` given (all by default). Each task's random stream depends on the seed,
    its subcategory and its number only, so task ``i`` is drawn alike in every language."""
    wanted = set(SUBCATEGORIES if subcategories is None else subcategories)
    homes = {} if homes is None else homes
    tasks: list[Task] = []
    for sub, idx, level, planned_seed in _plan():
        if sub not in wanted:
            continue
        rng = random.Random(f"smh:{seed}:{sub}:{idx}")
        drawn = draw_on_homes(
            level,
            planned_seed,
            50,
            homes,
            lambda home, home_seed: make_task(sub, idx, level, home_seed, home, rng, w),  # noqa: B023
        )
        if drawn is None:
            raise RuntimeError(f"could not generate smh/{sub}/{idx}")
        home_seed, made = drawn
        turn = {"text": made["text"], "replies": made.get("replies", [])}
        tasks.append(
            Task.model_validate(
                {
                    "id": f"smh-{sub}-{idx:03d}",
                    "suite": "smh",
                    "category": SUBCATEGORIES[sub],
                    "subcategory": sub,
                    "difficulty": level,
                    "home": home_ref(level, home_seed)
                    if home_ref
                    else {"level": level, "seed": home_seed},
                    "turns": [turn],
                    "goal": made["goal"],
                    "reference": made["reference"],
                    **{k: made[k] for k in TASK_FIELDS if k in made},
                }
            )
        )
    return tasks
