"""What a rule or schedule task needs to play out on a real home, decided before any device is
touched: the goal's trigger and how to make it happen, the conditions to put in place, how long
it waits, the attributes it reads, or why it cannot run here (a :data:`Skip`).

A goal's trigger is made to happen as in a user's home: a state trigger by driving the watched
device there through the mapping (a device HA cannot be told to change, such as a sensor, keeps
the task skipped with that reason); a time trigger by waiting for its next firing on HA's clock.
A ``timed`` goal waits for its checkpoints, seconds after the turn. Tasks that would wait beyond
``max_wait`` are skipped with how long.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.cron import CronError
from smh_core.homeenv.rules import (
    Rule,
)
from smh_core.homeenv.shapes import (
    NumericConditionShape,
    NumericTriggerShape,
    TimeConditionShape,
    TimeTriggerShape,
)
from smh_core.homeenv.snapshot import Snapshot
from smh_core.task.model import AutomationGoal, Task, TimedGoal

from .hardware_map import HardwareMapping, same_value
from .real_clock import next_firing, real_cron

NEEDS_TIME = ("timed", "automation")
NEEDS_SIMULATED_TIME = "needs simulated time"
"""Why a task still cannot run on a real home: a timed or rule part among several goals."""


@dataclass(frozen=True)
class Stimulus:
    """What makes an automation goal's trigger happen: a time on HA's clock, or a device driven
    to ``value`` (from ``first``, when the trigger names a state to leave)."""

    at: datetime | None = None
    twin_at: datetime | None = None
    """The same firing on the twin's clock (the task's own date)."""
    did: str = ""
    locator: str = ""
    value: Any = None
    first: Any = None
    setup: tuple[tuple[str, str, Any], ...] = ()
    """``(did, locator, value)`` the goal's conditions ask for, put in place before the trigger
    (the twin checks the rule's conditions are the goal's; here they must hold when it fires)."""


@dataclass(frozen=True)
class Plan:
    """How one task's later part plays out: its goal, the real time it needs, and for an
    automation goal what makes the trigger happen."""

    goal: TimedGoal | AutomationGoal
    wait: float
    """Seconds of real time the task needs beyond its turn (an estimate, for ``max_wait``)."""
    stimulus: Stimulus | None = None


Skip = tuple[str, str]
"""Why a task cannot run here, and the detail (runs count tasks by the first)."""

WOULD_WAIT = "would wait beyond --max-wait"
CANNOT_TRIGGER = "its trigger cannot be made to happen on the real home"
NO_AUTOMATIONS = "HA's automation editor is not loaded (SMH makes rules as HA automations)"
TIME_SKIPS = (NEEDS_SIMULATED_TIME, WOULD_WAIT, CANNOT_TRIGGER, NO_AUTOMATIONS)
"""The reasons a timed or rule task is not run on a real home before any device is touched."""


def plan(task: Task, mapping: HardwareMapping, now: datetime, max_wait: float) -> Plan | Skip:
    """How the task's later part plays out on the real home from HA's ``now``, or why it
    cannot (its trigger cannot be made to happen here, or it would wait beyond ``max_wait``)."""
    goals = task.all_goals
    if len(goals) != 1 or not isinstance(goals[0], (TimedGoal, AutomationGoal)):
        return NEEDS_SIMULATED_TIME, "a timed or rule part among several goals"
    goal = goals[0]
    start = datetime.fromisoformat(task.start_time)
    if isinstance(goal, TimedGoal):
        wait = max(cp.at_seconds + cp.tolerance_seconds for cp in goal.checkpoints)
        return _bounded(Plan(goal, wait), max_wait)
    probe = goal_rule(goal)
    setup = []
    for c in probe.conditions:
        if isinstance(c, TimeConditionShape):
            continue
        where = f"{c.did}/{c.locator}"
        amap = mapping.get(c.did, c.locator)
        if amap is None:
            return CANNOT_TRIGGER, f"its condition reads {where}, which the mapping lacks"
        if isinstance(c, NumericConditionShape) or amap.set is None:
            return CANNOT_TRIGGER, f"its condition on {where} cannot be put in place through HA"
        setup.append((c.did, c.locator, c.equals if c.in_ is None else c.in_[0]))
    crons = [t.cron for t in probe.triggers if isinstance(t, TimeTriggerShape)]
    watched = [t for t in probe.triggers if not isinstance(t, TimeTriggerShape)]
    if crons and not watched:
        try:
            at = next_firing([real_cron(c, start, now) for c in crons], probe.conditions, now)
            twin_at = next_firing(crons, probe.conditions, start)
        except CronError as e:
            return CANNOT_TRIGGER, f"its time cannot be read: {e}"
        if at is None or twin_at is None:
            return CANNOT_TRIGGER, f"its time ({', '.join(crons)}) does not come again"
        stimulus = Stimulus(at, twin_at, setup=tuple(setup))
        return _bounded(Plan(goal, (at - now).total_seconds(), stimulus), max_wait)
    if len(goal.triggers) != 1:
        return CANNOT_TRIGGER, "several triggers, of which SMH would have to pick one"
    (trig,) = watched
    where = f"{trig.did}/{trig.locator}"
    amap = mapping.get(trig.did, trig.locator)
    if amap is None:
        return CANNOT_TRIGGER, f"it watches {where}, which the mapping lacks"
    if amap.set is None:
        return CANNOT_TRIGGER, f"it watches {where} ({amap.entity}), which HA cannot be told to set"
    if isinstance(trig, NumericTriggerShape) or trig.to is None:
        return CANNOT_TRIGGER, f"it fires on a range or any change of {where}, not one state"
    first = trig.from_ if trig.from_ is not None else _other(amap, trig.to)
    if first is None:
        return (
            CANNOT_TRIGGER,
            f"SMH knows no state of {where} to leave first, to make it {trig.to!r}",
        )
    if trig.for_s is not None and trig.for_s > max_wait:
        return (
            WOULD_WAIT,
            f"its trigger holds {_duration(trig.for_s)}; --max-wait {_duration(max_wait)}",
        )
    return Plan(
        goal,
        trig.for_s or 0.0,
        Stimulus(
            did=trig.did, locator=trig.locator, value=trig.to, first=first, setup=tuple(setup)
        ),
    )


def _other(amap: Any, value: Any) -> Any:
    """A state to leave a device in before driving it to ``value`` (a trigger fires on the
    change): the first the mapping can set of its values, its per-value calls' values (a
    thermostat mapped as ``off`` or otherwise ``on`` is switched on by ``climate.turn_on``) and
    its ``otherwise``, or else on/off's other; None if the mapping can set none of them."""
    named = [*(amap.values or ()), *(amap.set if isinstance(amap.set, dict) else ())]
    if amap.values is not None and amap.otherwise is not None:
        named.append(amap.otherwise)
    if amap.values is None and isinstance(value, str):
        named += [v for k, v in (("on", "off"), ("off", "on")) if k == value]
    return next((k for k in named if not same_value(k, value) and amap.calls(k)), None)


def goal_rule(goal: AutomationGoal) -> Rule:
    """The goal's triggers and conditions as a rule (as the verifier reads them)."""
    body = {"triggers": goal.triggers, "conditions": goal.conditions}
    return Rule.model_validate({"id": "goal", **body, "actions": [{"did": "_", "locator": "_"}]})


def _bounded(p: Plan, max_wait: float) -> Plan | Skip:
    if p.wait > max_wait:
        return WOULD_WAIT, f"{_duration(p.wait)} on HA's clock; --max-wait {_duration(max_wait)}"
    return p


def _duration(seconds: float) -> str:
    s = round(max(seconds, 0.0))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return " ".join(f"{n} {u}" for n, u in ((h, "h"), (m, "min"), (s, "s")) if n) or "0 s"


def keys_of(goal: TimedGoal | AutomationGoal, initial: Snapshot) -> list[tuple[str, str]]:
    """The attributes the goal reads: its critics', and an automation's triggers and conditions."""
    texts = (
        [goal.critic] if isinstance(goal, AutomationGoal) else [c.critic for c in goal.checkpoints]
    )
    out: list[tuple[str, str]] = []
    for text in texts:
        out += critic_keys(text, initial)
    if isinstance(goal, AutomationGoal):
        parts = [*goal.triggers, *goal.conditions]
        out += [(p["did"], p["locator"]) for p in parts if "did" in p and "locator" in p]
    return list(dict.fromkeys(out))


def critic_keys(text: str, initial: Snapshot) -> list[tuple[str, str]]:
    """The attributes a critic reads (its implicit paths resolved on ``initial``)."""
    seen: list[tuple[str, str]] = []

    class _Source(Mapping[str, Mapping[str, Any]]):
        def __getitem__(self, did: str) -> Mapping[str, Any]:
            return initial[did]

        def __iter__(self) -> Any:
            return iter(initial)

        def __len__(self) -> int:
            return len(initial)

        def value(self, did: str, locator: str) -> Any:
            seen.append((did, locator))
            return initial.value(did, locator)

    critic_lang.parse(text).explain(_Source())
    return list(dict.fromkeys(seen))
