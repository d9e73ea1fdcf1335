"""The ``smh`` suite (SMH-Bench's taxonomy), generated from the home and validated.

Each subcategory has a maker returning the task's wording, goal and reference (and optionally
its start time, state overrides, history or memory): TC1 atomic control (clear, colloquial,
noisy) and TC7 environment-grounded queries (status, quantity) here, TC4 scheduling in
:mod:`.smh_schedule`; 50 tasks each, split 25/15/10 over simple/medium/complex homes. Each task's home
is a generated home (level + seed), so task files stay small and reproducible.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

from smh_core.homeenv.capabilities import setters, switches
from smh_core.homeenv.critic import Compare, Lit, Ref, _needs_quotes
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType, Home
from smh_core.homeenv.samples import valid_value
from smh_core.homes.generator import generate_home

from ..agents import NullAgent, OracleAgent
from ..runner import HomeCache, run_task
from ..task import Task
from .smh_compositional import COMPOSITIONAL_SUBCATEGORIES, compositional_task
from .smh_dialogue import AMBIGUOUS_SUBCATEGORIES, MULTI_TURN_SUBCATEGORIES, dialogue_task
from .smh_memory import MEMORY_SUBCATEGORIES, memory_task
from .smh_schedule import SCHEDULE_SUBCATEGORIES, schedule_task
from .wording import attr_words, set_request, switch_request

SPLIT = (("simple", 25), ("medium", 15), ("complex", 10))
HOMES_PER_LEVEL = 10
SUBCATEGORIES = {
    "clear": "atomic_control", "colloquial": "atomic_control", "noisy": "atomic_control",
    **{sub: "compositional_control" for sub in COMPOSITIONAL_SUBCATEGORIES},
    **{sub: "ambiguous_intent" for sub in AMBIGUOUS_SUBCATEGORIES},
    **{sub: "scheduling" for sub in SCHEDULE_SUBCATEGORIES},
    **{sub: "multi_turn" for sub in MULTI_TURN_SUBCATEGORIES},
    **{sub: "memory" for sub in MEMORY_SUBCATEGORIES},
    "status": "query", "quantity": "query",
}
TASK_FIELDS = ("start_time", "overrides", "history", "memory")
"""Optional keys a subcategory maker may return, copied onto the task as they are."""


def _lit(value: Any) -> Lit:
    raw = repr(value) if isinstance(value, float) else str(value)
    return Lit(raw, quoted=_needs_quotes(raw))


def _critic(did: str, pairs: list[tuple[str, Any]]) -> str:
    return " and ".join(Compare(Ref(did, loc), "==", _lit(v)).to_text() for loc, v in pairs)


def _control_target(engine: HomeEngine, rng: random.Random) -> dict[str, Any] | None:
    """A (device, attribute, new value, reference actions) that one request can reach."""
    did = rng.choice(engine.device_ids())
    device = engine.device(did)
    specs = dict(device.attributes_by_locator())
    sw, st = switches(device), setters(device)
    options = [("switch", loc) for loc in sw] + [("set", loc) for loc in st
                                                 if specs[loc].type not in (AttrType.LIST, AttrType.DICT, AttrType.TUPLE)]
    if not options:
        return None
    kind, loc = rng.choice(options)
    current = engine.value(did, loc)
    if kind == "switch":
        on = current != sw[loc].on_value
        actions = [{"did": did, "locator": sw[loc].on_service if on else sw[loc].off_service, "arguments": {}}]
        target = [(loc, sw[loc].on_value if on else sw[loc].off_value)]
        return {"did": did, "loc": loc, "switch_on": on, "actions": actions, "critic": target}
    setter = st[loc]
    for _ in range(10):
        if specs[loc].type == AttrType.STR and not specs[loc].options:  # free text: a natural alias
            room = engine.room(device.userdata.room).name
            kind = device.userdata.subcategory.replace("_", " ")
            value = rng.choice([f"{room} {kind}", f"my {kind}", f"{room.split()[0]} {kind}", f"the big {kind}"])
        else:
            value = valid_value(specs[loc], rng)
        if value != current:
            break
    else:
        return None
    actions = [{"did": did, "locator": setter.service, "arguments": {setter.argument: value}}]
    trial = HomeEngine(engine.home)
    trial.restore(engine.snapshot())
    target = [(loc, value)]
    if not all(r.ok for r in trial.execute_many(actions)):
        ns = loc.rsplit(".", 1)[0] + "." if "." in loc else ""
        power = next((s for k, s in sw.items() if k == f"{ns}state"), None)
        if power is None:
            return None
        actions.insert(0, {"did": did, "locator": power.on_service, "arguments": {}})
        trial.restore(engine.snapshot())
        if not all(r.ok for r in trial.execute_many(actions)):
            return None
        target.insert(0, (f"{ns}state", power.on_value))
    return {"did": did, "loc": loc, "value": value, "unit": specs[loc].unit, "actions": actions, "critic": target}


def _control_task(style: str, idx: int, level: str, seed: int, home: Home, rng: random.Random) -> dict | None:
    engine = HomeEngine(home)
    target = _control_target(engine, rng)
    if target is None:
        return None
    did = target["did"]
    name = engine.device(did).name
    others = [d for d in engine.device_ids() if d != did]
    decoy = engine.device(rng.choice(others)).name if style == "noisy" and others and rng.random() < 0.6 else None
    if "switch_on" in target:
        text = switch_request(style, rng, name, target["switch_on"], decoy)
    else:
        text = set_request(style, rng, name, target["loc"], target["value"], target["unit"], decoy)
    return {"subcategory": style, "text": text, "goal": {"kind": "execute", "critic": _critic(did, target["critic"])},
            "reference": {"mode": "execute", "response": "Done.", "actions": target["actions"]}}


def _status_task(engine: HomeEngine, rng: random.Random) -> dict | None:
    did = rng.choice(engine.device_ids())
    device = engine.device(did)
    specs = dict(device.attributes_by_locator())
    locs = [loc for loc, a in specs.items() if a.type in (AttrType.INT, AttrType.FLOAT, AttrType.STR, AttrType.ENUM)
            and not loc.endswith("alias") and not (a.type == AttrType.STR and not a.options)]
    if not locs:
        return None
    loc = rng.choice(locs)
    value = engine.value(did, loc)
    words = attr_words(loc)
    text = rng.choice([f"What is the {words} of the {device.name} right now?",
                       f"Tell me the {device.name}'s current {words}.",
                       f"What's the {device.name} {words} at the moment?"])
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    fact = {"kind": "number", "value": value} if numeric else {"kind": "name", "value": str(value)}
    shown = f"{value:g}" if isinstance(value, float) else str(value)
    return {"subcategory": "status", "text": text, "goal": {"kind": "query", "facts": [fact]},
            "reference": {"mode": "answer", "response": f"The {device.name}'s {words} is {shown}."}}


def _quantity_task(engine: HomeEngine, rng: random.Random) -> dict | None:
    kinds = sorted({d["subcategory"] for d in engine.devices()})
    sub = rng.choice(kinds)
    devices = engine.devices(subcategory=sub)
    label = sub.replace("_", " ")
    if rng.random() < 0.5:
        rooms = sorted({d["room"] for d in devices})
        room = engine.room(rng.choice(rooms))
        count = sum(d["room"] == room.id for d in devices)
        text = rng.choice([f"How many {label} devices are in the {room.name}?",
                           f"Count the {label} devices in the {room.name} for me."])
    else:
        powered = [d for d in devices if engine.status(d["did"]).get("state") == "on"]
        if not any("state" in engine.status(d["did"]) for d in devices):
            return None
        count = len(powered)
        text = rng.choice([f"How many {label} devices are switched on right now?",
                           f"How many of the {label} devices are on at the moment?"])
    return {"subcategory": "quantity", "text": text,
            "goal": {"kind": "query", "facts": [{"kind": "number", "value": count}]},
            "reference": {"mode": "answer", "response": f"There are {count}."}}


def _plan() -> Iterator[tuple[str, int, str, int]]:
    for sub in SUBCATEGORIES:
        idx = 0
        for level, n in SPLIT:
            for _ in range(n):
                yield sub, idx, level, (idx % HOMES_PER_LEVEL)
                idx += 1


def _make(sub: str, idx: int, level: str, home_seed: int, home: Home,
          rng: random.Random) -> dict[str, Any] | None:
    """One task of ``sub`` drawn with ``rng``, or ``None`` if this draw has no fit."""
    category = SUBCATEGORIES[sub]
    if category == "atomic_control":
        return _control_task(sub, idx, level, home_seed, home, rng)
    engine = HomeEngine(home)
    if category == "scheduling":
        return schedule_task(sub, engine, rng)
    if category == "compositional_control":
        return compositional_task(sub, engine, rng)
    if category == "memory":
        return memory_task(sub, engine, rng)
    if category in ("ambiguous_intent", "multi_turn"):
        return dialogue_task(sub, engine, rng)
    if sub == "status":
        return _status_task(engine, rng)
    return _quantity_task(engine, rng)


def generate(seed: int = 0) -> list[Task]:
    homes: dict[tuple[str, int], Home] = {}
    tasks: list[Task] = []
    for sub, idx, level, planned_seed in _plan():
        rng = random.Random(f"smh:{seed}:{sub}:{idx}")
        made = None
        for attempt in range(50):
            # a small home may have no fit for a subcategory: move on to the next home after 10 draws
            home_seed = (planned_seed + attempt // 10) % HOMES_PER_LEVEL
            key = (level, home_seed)
            if key not in homes:
                homes[key] = generate_home(level, home_seed)  # type: ignore[arg-type]
            made = _make(sub, idx, level, home_seed, homes[key], rng)
            if made is not None:
                break
        if made is None:
            raise RuntimeError(f"could not generate smh/{sub}/{idx}")
        turn = {"text": made["text"], "replies": made.get("replies", [])}
        tasks.append(Task.model_validate({
            "id": f"smh-{sub}-{idx:03d}", "suite": "smh", "category": SUBCATEGORIES[sub], "subcategory": sub,
            "difficulty": level, "home": {"level": level, "seed": home_seed}, "turns": [turn],
            "goal": made["goal"], "reference": made["reference"],
            **{k: made[k] for k in TASK_FIELDS if k in made}}))
    validate(tasks)
    return tasks


def validate(tasks: list[Task], homes: HomeCache | None = None) -> None:
    """The reference passes and doing nothing fails, for every task; raises naming the task.
    Where doing nothing is the correct behaviour (a passive MemHome goal: ``no-rewrite``, no
    action; an execute goal marked ``no_change``), doing nothing must pass instead, and each
    decoy of a ``no_change`` goal (a plausible wrong action) must fail, so the task still
    tells a careful agent from a careless one."""
    from ..task import ExecuteGoal, MemoryGoal, Reference

    async def check() -> None:
        cache = homes or HomeCache()
        oracle, null = OracleAgent(), NullAgent()
        for task in tasks:
            ref = await run_task(task, oracle, cache)
            if not ref["passed"]:
                raise ValueError(f"{task.id}: reference solution fails: {ref['verdict']['reason']}")
            nothing = await run_task(task, null, cache)
            no_change = isinstance(task.goal, ExecuteGoal) and task.goal.no_change
            passive = no_change or (isinstance(task.goal, MemoryGoal) and task.goal.passive)
            if nothing["passed"] and not passive:
                raise ValueError(f"{task.id}: doing nothing passes")
            if passive and not nothing["passed"]:
                raise ValueError(f"{task.id}: doing nothing is correct but fails: {nothing['verdict']['reason']}")
            for i, decoy in enumerate(task.goal.decoys if no_change else ()):
                wrong = task.model_copy(update={"reference": Reference(mode="execute", actions=[decoy])})
                # without the action guard: the question is whether the action, once done, fails
                if (await run_task(wrong, oracle, cache, guard=False))["passed"]:
                    raise ValueError(f"{task.id}: decoy {i} ({decoy.did} {decoy.locator}) passes; "
                                     "a no_change goal must fail a wrong action")

    # A private loop (not asyncio.run) leaves the caller's event-loop policy untouched.
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(check())
    finally:
        loop.close()
