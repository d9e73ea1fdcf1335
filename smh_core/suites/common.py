"""What the suite generators share: critic and call builders, the control target a request can
reach, one seeded home-draw loop, and the validation every generated task passes (the reference
passes, doing nothing fails). Public names here; a suite never imports another suite's private ones.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_task
from smh_core.homeenv.capabilities import setters, switches
from smh_core.homeenv.critic import Compare, Lit, Ref, needs_quotes
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType, Home
from smh_core.homeenv.samples import valid_value
from smh_core.homes.generator import generate_home
from smh_core.task.home import HomeCache
from smh_core.task.model import ExecuteGoal, MemoryGoal, Reference, Task

HOMES_PER_LEVEL = 10
"""Generated homes per difficulty level the suites draw from (seeds 0-9)."""

DRAWS_PER_HOME = 10
"""Draws on one home before the loop moves to the next (a small home may have no fit)."""

type Call = dict[str, Any]


def lit(value: Any) -> Lit:
    """A critic literal for ``value`` (floats keep their repr; text that needs it is quoted)."""
    raw = repr(value) if isinstance(value, float) else str(value)
    return Lit(raw, quoted=needs_quotes(raw))


def device_critic(did: str, pairs: list[tuple[str, Any]]) -> str:
    """``device(d).a == 1 and device(d).b == on``: every pair of one device."""
    return " and ".join(Compare(Ref(did, loc), "==", lit(v)).to_text() for loc, v in pairs)


def call(did: str, locator: str, **arguments: Any) -> Call:
    """One device call as task files write it."""
    return {"did": did, "locator": locator, "arguments": arguments}


def draw_on_homes[T](
    level: str,
    first_seed: int,
    attempts: int,
    homes: dict[tuple[str, int], Home],
    make: Callable[[Home, int], T | None],
) -> tuple[int, T] | None:
    """``(home seed, made)`` of the first draw ``make`` accepts, trying ``DRAWS_PER_HOME`` draws on
    each home from ``first_seed`` on (homes generated once, cached in ``homes``); None after
    ``attempts`` draws. The one home-draw loop of the suites: same seeds, same homes, same tasks."""
    for attempt in range(attempts):
        home_seed = (first_seed + attempt // DRAWS_PER_HOME) % HOMES_PER_LEVEL
        key = (level, home_seed)
        if key not in homes:
            homes[key] = generate_home(level, home_seed)  # type: ignore[arg-type]
        made = make(homes[key], home_seed)
        if made is not None:
            return home_seed, made
    return None


def control_target(
    engine: HomeEngine,
    rng: random.Random,
    aliases: Callable[[str, str], list[str]] | None = None,
) -> dict[str, Any] | None:
    """A (device, attribute, new value, reference actions) that one request can reach; a free
    text value is one of ``aliases(room, subcategory)`` (natural names in the request's
    language; English by default)."""
    did = rng.choice(engine.device_ids())
    device = engine.device(did)
    specs = dict(device.attributes_by_locator())
    sw, st = switches(device), setters(device)
    options = [("switch", loc) for loc in sw] + [
        ("set", loc)
        for loc in st
        if specs[loc].type not in (AttrType.LIST, AttrType.DICT, AttrType.TUPLE)
    ]
    if not options:
        return None
    kind, loc = rng.choice(options)
    current = engine.value(did, loc)
    if kind == "switch":
        on = current != sw[loc].on_value
        actions = [
            {
                "did": did,
                "locator": sw[loc].on_service if on else sw[loc].off_service,
                "arguments": {},
            }
        ]
        target = [(loc, sw[loc].on_value if on else sw[loc].off_value)]
        return {"did": did, "loc": loc, "switch_on": on, "actions": actions, "critic": target}
    setter = st[loc]
    for _ in range(10):
        if specs[loc].type == AttrType.STR and not specs[loc].options:  # free text: a natural alias
            placed = engine.room(device.userdata.room) if device.userdata.room else None
            room = placed.name if placed else device.name  # a device in no room: its own name
            if aliases is None:
                kind = device.userdata.subcategory.replace("_", " ")
                named = [
                    f"{room} {kind}",
                    f"my {kind}",
                    f"{room.split()[0]} {kind}",
                    f"the big {kind}",
                ]
            else:
                named = aliases(room, device.userdata.subcategory)
            value = rng.choice(named)
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
    return {
        "did": did,
        "loc": loc,
        "value": value,
        "unit": specs[loc].unit,
        "actions": actions,
        "critic": target,
    }


def validate(tasks: list[Task], homes: HomeCache | None = None) -> None:
    """The reference passes and doing nothing fails, for every task; raises naming the task.
    Where doing nothing is the correct behaviour (a passive MemHome goal: ``no-rewrite``, no
    action; an execute goal marked ``no_change`` with no required call), doing nothing must
    pass instead, and each
    decoy of a ``no_change`` goal (a plausible wrong action) must fail, so the task still
    tells a careful agent from a careless one."""

    async def check() -> None:
        cache = homes or HomeCache()
        oracle, null = OracleAgent(), NullAgent()
        for task in tasks:
            ref = await run_task(task, oracle, cache)
            if not ref["passed"]:
                raise ValueError(f"{task.id}: reference solution fails: {ref['verdict']['reason']}")
            nothing = await run_task(task, null, cache)
            no_change = isinstance(task.goal, ExecuteGoal) and task.goal.no_change
            # a no_change goal with required calls (HomeBench's "turn on" of a light that is
            # on: the call is wanted, the state must not move) is not passive
            passive = (no_change and not task.required_actions) or (
                isinstance(task.goal, MemoryGoal) and task.goal.passive
            )
            if nothing["passed"] and not passive:
                raise ValueError(f"{task.id}: doing nothing passes")
            if passive and not nothing["passed"]:
                raise ValueError(
                    f"{task.id}: doing nothing is correct but fails: {nothing['verdict']['reason']}"
                )
            for i, decoy in enumerate(task.goal.decoys if no_change else ()):
                wrong = task.model_copy(
                    update={"reference": Reference(mode="execute", actions=[decoy])}
                )
                # without the action guard: the question is whether the action, once done, fails
                if (await run_task(wrong, oracle, cache, guard=False))["passed"]:
                    raise ValueError(
                        f"{task.id}: decoy {i} ({decoy.did} {decoy.locator}) passes; "
                        "a no_change goal must fail a wrong action"
                    )

    # A private loop (not asyncio.run) leaves the caller's event-loop policy untouched.
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(check())
    finally:
        loop.close()
