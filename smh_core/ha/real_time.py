"""Tasks that play out in time (``timed`` and ``automation`` goals) on a real home: real HA
automations, real HA time, the devices read when the goal reads them; nothing simulated.

On the twin a rule or a schedule is judged by running the home forward on a simulated clock.
A real home's clock cannot be run forward, so here the home is left to play out:

* SMH's scripted players' rules and schedules (what the oracle stored on the task's embedded
  copy) become HA automations created through HA's own automation API
  (``/api/config/automation/config/<id>``), with ids starting :data:`PREFIX`; their triggers and
  conditions are :func:`~smh_core.ha.automation_export.to_ha_automation`'s, on the mapped
  entities in HA's units, and their actions the mapping's service calls for the attributes they
  change. An HA agent makes its own automation or timer; only what happens is judged.
* ``automation`` goal: the goal's own trigger is made to happen, as a user's home would: a
  state trigger by driving the watched device there through the mapping (a trigger on a device
  HA cannot be told to change, such as a sensor, keeps the task skipped with that reason); a
  time trigger by waiting for its next firing on HA's clock. Nothing may change before it; after
  it the goal's critic must hold on the devices (the twin: the rule's actions satisfy it).
* ``timed`` goal: the checkpoints are seconds after the turn began; each window is watched on
  HA's clock, and the critic must hold in it (and not yet just before it, as on the twin).

Times of day stay the task's: "every day at 12:30" waits for the next 12:30. A one-shot date
("tomorrow at 6 pm", written for the task's start day) keeps its distance from today, the
oracle's schedule ("in 10 minutes") its distance from the turn. HA's clock is never moved:
waiting is real (:class:`WallClock`, with a progress bar), bounded by ``max_wait`` (tasks that
would wait longer are skipped with how long); tests pass HA's test clock instead.

The twin's side of the same moments is computed on the task's embedded copy (the player's own
home, rules included, run forward by the simulator) and kept beside the readings in the
record's ``later`` entry, so :mod:`.twin_compare` can flag a device whose later behaviour
differs. A device that does not do what an automation commanded (HA's ``call_service`` events)
is a device fault, not the agent's.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from smh_core.bench.verifier import Verdict
from smh_core.bench.world import World
from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.cron import CronError, parse_cron
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.rules import (
    NumericCondition,
    NumericTrigger,
    Rule,
    ScheduledAction,
    StateCondition,
    StateTrigger,
    TimeCondition,
    TimeTrigger,
)
from smh_core.homeenv.snapshot import Snapshot, diff
from smh_core.progress import tqdm
from smh_core.task.model import AutomationGoal, Task, TimedGoal

from .automation_export import EntityRef, ExportError, to_ha_automation
from .device_sync import Readings, commanded, overlay, reach, read_all
from .hardware_map import NOT_OBSERVED, HardwareMapping, ReadError, same_value

PREFIX = "smh_bench_"
"""Id prefix of the automations a run creates (and alone removes). SMH's integration names the
automations users ask it for ``smh_`` + hex digits, never this."""

NEEDS_TIME = ("timed", "automation")
NEEDS_SIMULATED_TIME = "needs simulated time"
"""Why a task still cannot run on a real home: a timed or rule part among several goals."""


# ---------------------------------------------------------------------------- HA's clock
class TimeSource(Protocol):
    """What waiting needs of an HA client: HA's own clock."""

    async def now(self) -> datetime: ...


class Clock(Protocol):
    """How the runner lets HA's time pass: :class:`WallClock` waits; a test moves HA's clock."""

    step: float
    """Seconds between readings while a checkpoint's window is open."""

    async def wait_until(self, client: TimeSource, when: datetime) -> None: ...


class WallClock:
    """Real waiting until HA's clock (local, naive) reads ``when``, with a progress bar."""

    step = 1.0

    def __init__(self, progress: bool = True) -> None:
        self.progress = progress

    async def wait_until(self, client: TimeSource, when: datetime) -> None:
        now = await client.now()
        total = (when - now).total_seconds()
        if total <= 0:
            return
        with tqdm(
            total=round(total), disable=not self.progress or total < 5, unit="s", desc="waiting"
        ) as bar:
            while (left := (when - now).total_seconds()) > 0:
                await asyncio.sleep(min(left, 1.0))
                now = await client.now()
                bar.n = min(round(total - max(left, 0.0)), round(total))
                bar.refresh()


# ---------------------------------------------------------------------------- plans
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
    goal: TimedGoal | AutomationGoal
    wait: float
    """Seconds of real time the task needs beyond its turn (an estimate, for ``max_wait``)."""
    stimulus: Stimulus | None = None


def _one_shot(text: str) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of a Quartz cron that names one date (``0 0 18 28 6 ? 2024``)."""
    f = text.split()
    if len(f) == 7 and all(x.isdigit() for x in (f[3], f[4], f[6])):
        return int(f[6]), int(f[4]), int(f[3])
    return None


def real_cron(text: str, task_start: datetime, today: datetime) -> str:
    """``text`` on the real clock: a one-shot date keeps its distance in days from the task's
    start day ("tomorrow at 6 pm" is tomorrow's); every other cron stays as it is."""
    date = _one_shot(text)
    if date is None:
        return text
    offset = datetime(*date).date() - task_start.date()
    real = today.date() + offset
    f = text.split()
    f[3], f[4], f[6] = str(real.day), str(real.month), str(real.year)
    return " ".join(f)


def next_firing(
    crons: Iterable[str], conditions: Iterable[Any], after: datetime, limit: int = 400
) -> datetime | None:
    """The first time after ``after`` a time trigger fires with the time conditions met."""
    times = [c for c in conditions if isinstance(c, TimeCondition)]
    best: datetime | None = None
    for text in crons:
        when: datetime | None = after
        for _ in range(limit):
            when = parse_cron(text).next_after(when) if when is not None else None
            if when is None:
                break
            if all(_time_ok(c, when) for c in times):
                best = when if best is None else min(best, when)
                break
    return best


def _time_ok(c: TimeCondition, when: datetime) -> bool:
    if c.weekdays is not None and when.weekday() not in c.weekdays:
        return False
    clock = when.strftime("%H:%M:%S")
    after = (c.after or "00:00") + (":00" if c.after and c.after.count(":") == 1 else "")
    before = (c.before or "") + (":00" if c.before and c.before.count(":") == 1 else "")
    if c.after is None and c.before is None:
        return True
    if not before:
        return clock >= after
    if after <= before:
        return after <= clock < before
    return clock >= after or clock < before


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
        if isinstance(c, TimeCondition):
            continue
        where = f"{c.did}/{c.locator}"
        amap = mapping.get(c.did, c.locator)
        if amap is None:
            return CANNOT_TRIGGER, f"its condition reads {where}, which the mapping lacks"
        if isinstance(c, NumericCondition) or amap.set is None:
            return CANNOT_TRIGGER, f"its condition on {where} cannot be put in place through HA"
        setup.append((c.did, c.locator, c.equals if c.in_ is None else c.in_[0]))
    crons = [t.cron for t in probe.triggers if isinstance(t, TimeTrigger)]
    watched = [t for t in probe.triggers if not isinstance(t, TimeTrigger)]
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
    if isinstance(trig, NumericTrigger) or trig.to is None:
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
    change): another of the mapping's values, or on/off's other."""
    if amap.values is not None:
        return next((k for k in amap.values if not same_value(k, value)), None)
    return {"on": "off", "off": "on"}.get(str(value)) if isinstance(value, str) else None


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


# ---------------------------------------------------------------------------- rules -> HA
class _Mapped:
    """:class:`~smh_core.ha.automation_export.EntityMap` over a hardware mapping's entities."""

    def __init__(self, mapping: HardwareMapping) -> None:
        self.mapping = mapping

    def entity(self, did: str, locator: str) -> EntityRef:
        amap = self.mapping.get(did, locator)
        if amap is None:
            raise ExportError(f"not mapped: {did}/{locator}")
        if amap.when_state is not None or amap.ignore:
            raise ExportError(
                f"{did}/{locator} reads {amap.entity} only in some states, which a trigger "
                "on it cannot say"
            )
        return EntityRef(amap.entity, None if amap.attribute == "state" else amap.attribute)

    def action(self, action: Any) -> dict[str, Any]:
        """A placeholder: the automation's actions are the mapping's calls (:func:`_actions`)."""
        return {}


def _in_ha_units(rule: Rule, mapping: HardwareMapping) -> Rule:
    """``rule`` with its trigger and condition values converted to HA's (a brightness 0-255)."""

    def conv(did: str, loc: str, value: Any) -> Any:
        amap = mapping.get(did, loc)
        if amap is None or value is None:
            return value
        if amap.values is not None and not any(same_value(value, k) for k in amap.values):
            raise ExportError(
                f"{did}/{loc} = {value!r} is not one HA state of {amap.entity} (the mapping "
                "reads it from several), so a trigger or condition cannot name it"
            )
        return amap.to_ha(value)

    def band(did: str, loc: str, above: float | None, below: float | None) -> dict[str, Any]:
        lo, hi = conv(did, loc, above), conv(did, loc, below)
        amap = mapping.get(did, loc)
        if (
            amap is not None
            and amap.scale is not None
            and amap.scale.to_ha(1) < amap.scale.to_ha(0)
        ):
            lo, hi = hi, lo  # a falling scale turns "above" into "below"
        return {"above": lo, "below": hi}

    triggers: list[Any] = []
    for t in rule.triggers:
        if isinstance(t, StateTrigger):
            t = t.model_copy(
                update={
                    "to": conv(t.did, t.locator, t.to),
                    "from_": conv(t.did, t.locator, t.from_),
                }
            )
        elif isinstance(t, NumericTrigger):
            t = t.model_copy(update=band(t.did, t.locator, t.above, t.below))
        triggers.append(t)
    conditions: list[Any] = []
    for c in rule.conditions:
        if isinstance(c, StateCondition):
            c = c.model_copy(
                update={
                    "equals": conv(c.did, c.locator, c.equals),
                    "in_": None if c.in_ is None else [conv(c.did, c.locator, v) for v in c.in_],
                }
            )
        elif isinstance(c, NumericCondition):
            c = c.model_copy(update=band(c.did, c.locator, c.above, c.below))
        conditions.append(c)
    return rule.model_copy(update={"triggers": triggers, "conditions": conditions})


def _actions(rule: Rule, mapping: HardwareMapping, home: HomeEngine) -> list[dict[str, Any]]:
    """The rule's actions as the mapping's service calls: each action is run on a copy of the
    home as the player left it, and every mapped attribute it changes is set as the mapping
    sets it (what the twin would do when the rule fires)."""
    scratch = HomeEngine(home.home)
    scratch.restore(home.snapshot())
    out: list[dict[str, Any]] = []
    for action in rule.actions:
        before = scratch.snapshot()
        result = scratch.execute(action.did, action.locator, dict(action.arguments))
        if not result.ok:
            raise ExportError(f"its action {action.did}/{action.locator} fails on the twin")
        for change in diff(before, scratch.snapshot()):
            amap = mapping.get(change.did, change.locator)
            if change.did.startswith("@"):
                continue  # a room follows its devices
            if amap is None or amap.set is None:
                raise ExportError(
                    f"its action changes {change.did}/{change.locator}, which the mapping "
                    "cannot set"
                )
            calls = amap.calls(change.after)
            if not calls:
                raise ExportError(f"no call sets {change.did}/{change.locator} to {change.after!r}")
            out += [{"action": f"{d}.{n}", "data": data} for d, n, data in calls]
    return out


def automation_id(task: Task, rule_id: str) -> str:
    """A recognisable, stable HA config id for one rule of one task."""
    digest = hashlib.sha256(f"{task.id}\n{rule_id}".encode()).hexdigest()[:10]
    return PREFIX + re.sub(r"[^a-z0-9_]+", "_", f"{task.id}_{rule_id}".lower())[:40] + "_" + digest


def real_automations(
    world: World, task: Task, mapping: HardwareMapping, turn_began: datetime
) -> list[dict[str, Any]]:
    """The rules and schedules the player stored on the task's embedded copy, as HA automation
    configs on the real clock (:class:`ExportError` names what HA cannot be given)."""
    old = {r.id for r in world.initial_rules}
    rules = [r for r in world.sim.rules() if r.id not in old]
    schedules: list[ScheduledAction] = [
        s for s in world.sim.schedules() if s.id not in world.initial_schedules
    ]
    out = []
    today = turn_began
    for rule in rules:
        crons = [
            t.model_copy(update={"cron": real_cron(t.cron, world.start, today)})
            if isinstance(t, TimeTrigger)
            else t
            for t in rule.triggers
        ]
        out.append(_config(rule.model_copy(update={"triggers": crons}), task, mapping, world))
    for item in schedules:
        at = turn_began + (item.at - world.start)
        cron = f"{at.second} {at.minute} {at.hour} {at.day} {at.month} ? {at.year}"
        rule = Rule(
            id=f"schedule_{item.id}",
            name="",
            triggers=[TimeTrigger(cron=cron)],
            actions=item.actions,
        )
        out.append(_config(rule, task, mapping, world))
    return out


def _config(rule: Rule, task: Task, mapping: HardwareMapping, world: World) -> dict[str, Any]:
    config = to_ha_automation(_in_ha_units(rule, mapping), _Mapped(mapping))
    config["id"] = automation_id(task, rule.id)
    config["alias"] = f"SMH bench {task.id} {rule.id}"
    config["description"] = f"Made by an SMH benchmark run for task {task.id}, which removes it."
    config["actions"] = _actions(rule, mapping, world.engine)
    config["mode"] = "queued"
    return config


# ---------------------------------------------------------------------------- the twin's side
def twin_later(world: World, p: Plan, keys: Iterable[tuple[str, str]]) -> list[dict[str, Any]]:
    """The twin's values of ``keys`` at the moments the real home is read: after the trigger,
    or at each checkpoint (the player's home, its rules and schedules, run forward)."""
    keys = list(keys)
    future = world.future()
    try:
        if isinstance(p.goal, TimedGoal):
            out = []
            for cp in sorted(p.goal.checkpoints, key=lambda c: c.at_seconds):
                future.run_until(world.start + timedelta(seconds=cp.at_seconds))
                out.append(_values(future.engine.snapshot(), keys))
            return out
        s = p.stimulus
        assert s is not None
        for did, loc, value in s.setup:
            future.engine.set_values(did, {loc: value})
        if s.twin_at is not None:
            future.run_until(s.twin_at + timedelta(seconds=1))
        else:
            future.engine.set_values(s.did, {s.locator: s.first})
            future.engine.set_values(s.did, {s.locator: s.value})
            future.run_until(future.now + timedelta(seconds=1 + (p.wait or 0.0)))
        return [_values(future.engine.snapshot(), keys)]
    finally:
        future.close()


def _values(snap: Snapshot, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Any]:
    return {k: snap.value(*k) for k in keys}


# ---------------------------------------------------------------------------- judging
@dataclass
class Moment:
    """One time the goal reads the devices: its label and the readings then."""

    label: str
    readings: Readings
    twin: dict[tuple[str, str], Any] = field(default_factory=dict)


def evaluate(text: str, snap: Snapshot) -> bool:
    return critic_lang.parse(text).evaluate(snap)


def judge_automation(
    goal: AutomationGoal, changed_now: list[Any], early: list[Any], after: Snapshot
) -> Verdict:
    """The twin's rule check, on what the real home did: nothing now, nothing before the
    trigger, and the critic holds once it came."""
    crit = critic_lang.parse(goal.critic)
    results = crit.explain(after)
    failed = [r for r in results if not r.passed]
    if failed:
        if changed_now:
            return Verdict(
                False, "acted now instead of creating an automation", "MS", "deterministic"
            )
        return Verdict(
            False,
            f"when its trigger came, {len(failed)} of {len(results)} goal conditions stayed unmet",
            "AJ",
            "deterministic",
        )
    if changed_now:
        return Verdict(
            False,
            "the automation is right but the home was also changed now",
            "DC",
            "deterministic",
            {"changes": [c.to_dict() for c in changed_now]},
        )
    if early:
        return Verdict(
            False,
            "the home changed before the trigger came",
            "AJ",
            "deterministic",
            {"changes": [c.to_dict() for c in early]},
        )
    return Verdict(True, "the automation acted when its trigger came", decided_by="deterministic")


@dataclass
class Played:
    """What the later part of a task did on the real home."""

    moments: list[Moment]
    verdict: Verdict | None = None
    fault: str | None = None


def later_record(played: Played) -> dict[str, Any]:
    """The record's ``later`` entry: each moment's real and twin values, by device."""

    def by_device(values: Mapping[tuple[str, str], Any]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for (did, loc), v in values.items():
            if v is NOT_OBSERVED:
                continue
            out.setdefault(did, {})[loc] = None if isinstance(v, ReadError) else v
        return out

    return {
        "moments": [
            {"label": m.label, "real": by_device(m.readings), "twin": by_device(m.twin)}
            for m in played.moments
        ]
    }


def commanded_faults(expected: Mapping[tuple[str, str], Any], readings: Readings) -> str | None:
    """The ``expected`` attributes the devices do not report, in the words
    :func:`~smh_core.ha.device_sync.described_mismatches` reads back."""
    wrong = []
    for (did, loc), want in expected.items():
        got = readings.get((did, loc))
        if isinstance(got, ReadError):
            wrong.append(f"{did}/{loc}: {got}")
        elif got is not NOT_OBSERVED and not same_value(got, want):
            wrong.append(f"{did}/{loc} is {got!r}, want {want!r}")
    return "; ".join(wrong) or None


async def wait_commanded(
    client: Any,
    mapping: HardwareMapping,
    expected: Mapping[tuple[str, str], Any],
    like: Snapshot,
    timeout: float,
    interval: float,
) -> tuple[Readings, str | None]:
    """Read the devices until they report ``expected`` or ``timeout`` passes."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        readings = read_all(mapping, await client.states(), like)
        problem = commanded_faults(expected, readings)
        if problem is None or loop.time() >= deadline:
            return readings, problem
        await asyncio.sleep(interval)


class AutomationRefused(RuntimeError):
    """HA did not take an automation SMH made (it refused the config, or never switched it on)."""


@contextlib.asynccontextmanager
async def created(client: Any, configs: list[dict[str, Any]], timeout: float) -> Any:
    """Create ``configs`` as HA automations and remove them on the way out (also on errors and
    Ctrl-C). HA must show each as an ``on`` automation before the task goes on."""
    made: list[str] = []
    try:
        try:
            for config in configs:
                made.append(config["id"])
                await client.save_automation(config)
            if made:
                await client.automations_loaded(made, timeout)
        except RuntimeError as e:  # HaError: HA refused the config
            raise AutomationRefused(str(e)[:500]) from e
        yield made
    finally:
        for automation in made:
            with contextlib.suppress(Exception):
                await client.delete_automation(automation)


# ---------------------------------------------------------------------------- playing out
@dataclass
class Scene:
    """What playing a task's later part needs: the home, its clock, the task's states."""

    client: Any
    mapping: HardwareMapping
    clock: Clock
    watch: Any
    interval: float
    initial: Snapshot
    before: Snapshot
    ignored: Any
    """``(did, locator) -> bool``: not the agent's change (room climate, simulator-written)."""


def _changes(scene: Scene, a: Snapshot, b: Snapshot) -> list[Any]:
    return [c for c in diff(a, b) if not scene.ignored(c.did, c.locator)]


async def _read(scene: Scene) -> Readings:
    return read_all(scene.mapping, await scene.client.states(), scene.initial)


def _snap(scene: Scene, readings: Readings) -> Snapshot:
    return overlay(scene.initial, readings, fallback=scene.before)


async def _expected(
    scene: Scene,
    pre: Readings,
    twin: Mapping[tuple[str, str], Any],
    set_up: set[tuple[str, str]] | frozenset[tuple[str, str]] = frozenset(),
) -> dict[tuple[str, str], Any]:
    """What the devices were commanded to become: for an HA agent's automation what HA's
    ``call_service`` events say; for a scripted player's (whose rule is the twin's) what the
    twin changed at the same moment (the runner's own set-up left out)."""
    if scene.watch is not None:
        return commanded(scene.mapping, list(await scene.watch.calls()), scene.initial)
    return {
        k: v
        for k, v in twin.items()
        if k not in set_up and scene.mapping.get(*k) is not None and not same_value(pre.get(k), v)
    }


async def play_out(
    scene: Scene,
    p: Plan,
    after_turn: Readings,
    turn_began: datetime,
    keys: list[tuple[str, str]],
    twin: list[dict[tuple[str, str], Any]],
) -> Played:
    """Let the task's later part happen on the real home and judge it (see the module)."""
    if isinstance(p.goal, AutomationGoal):
        return await _play_rule(scene, p, p.goal, after_turn, keys, twin)
    return await _play_timed(scene, p.goal, turn_began, keys, twin)


async def _play_rule(
    scene: Scene,
    p: Plan,
    goal: AutomationGoal,
    after_turn: Readings,
    keys: list[tuple[str, str]],
    twin: list[dict[tuple[str, str], Any]],
) -> Played:
    s = p.stimulus
    assert s is not None
    now_snap = _snap(scene, after_turn)
    changed_now = _changes(scene, scene.before, now_snap)
    steps = [dict(((did, loc), v) for did, loc, v in s.setup)] if s.setup else []
    if s.at is None:
        steps.append({(s.did, s.locator): s.first})
    for values in steps:  # the conditions, and the trigger's device in the state it leaves
        if (problem := await _drive(scene, values)) is not None:
            return Played([], fault=f"the trigger's set-up did not happen: {problem}")
    trigger_key = [(s.did, s.locator)] if s.at is None else []
    if s.at is not None:
        await scene.clock.wait_until(scene.client, s.at - timedelta(seconds=2))
        pre = await _read(scene)
        if scene.watch is not None:
            scene.watch.clear()
        await scene.clock.wait_until(scene.client, s.at + timedelta(seconds=1))
    else:
        pre = await _read(scene)
        if scene.watch is not None:
            scene.watch.clear()
        if (problem := await _drive(scene, {(s.did, s.locator): s.value})) is not None:
            return Played([], fault=f"its trigger did not happen: {problem}")
        if p.wait:
            await scene.clock.wait_until(
                scene.client, await scene.client.now() + timedelta(seconds=p.wait + 1)
            )
    set_up = {(did, loc) for did, loc, _ in s.setup} | set(trigger_key)
    early = [
        c for c in _changes(scene, now_snap, _snap(scene, pre)) if (c.did, c.locator) not in set_up
    ]
    changed_now = [c for c in changed_now if (c.did, c.locator) not in set_up]
    expected = await _expected(scene, pre, twin[0] if twin else {}, set_up)
    readings, problem = await wait_commanded(
        scene.client,
        scene.mapping,
        expected,
        scene.initial,
        scene.mapping.timeout_seconds,
        scene.interval,
    )
    moment = Moment("after the trigger", _only(readings, keys), twin[0] if twin else {})
    if problem is not None:
        return Played([moment], fault=f"the commanded state did not come back: {problem}")
    return Played([moment], judge_automation(goal, changed_now, early, _snap(scene, readings)))


async def _drive(scene: Scene, values: dict[tuple[str, str], Any]) -> str | None:
    """Put ``values`` on the devices through the mapping (what the runner, not the agent, does)."""
    want = _snap(scene, await _read(scene)).to_dict()
    for (did, loc), value in values.items():
        want[did][loc] = value
    done = await reach(
        scene.client,
        scene.mapping,
        Snapshot(want),
        scene.mapping.timeout_seconds,
        scene.interval,
        set(values),
    )
    return done.problem


def _only(readings: Readings, keys: list[tuple[str, str]]) -> Readings:
    return {k: readings[k] for k in keys if k in readings}


async def _play_timed(
    scene: Scene,
    goal: TimedGoal,
    t0: datetime,
    keys: list[tuple[str, str]],
    twin: list[dict[tuple[str, str], Any]],
) -> Played:
    if scene.watch is not None:
        scene.watch.clear()
    moments: list[Moment] = []
    verdict: Verdict | None = None
    referenced = set(goal.may_change)
    checkpoints = sorted(goal.checkpoints, key=lambda c: c.at_seconds)
    for i, cp in enumerate(checkpoints):
        referenced |= set(critic_lang.parse(cp.critic).referenced_devices())
        early = cp.at_seconds - cp.tolerance_seconds - 1
        if cp.not_before and early >= 0 and not evaluate(cp.critic, scene.before):
            await scene.clock.wait_until(scene.client, t0 + timedelta(seconds=early))
            if evaluate(cp.critic, _snap(scene, await _read(scene))):
                verdict = Verdict(
                    False,
                    f"checkpoint {i + 1} already met at +{early:g} s, before its time",
                    "TR",
                    "deterministic",
                )
                break
        close = t0 + timedelta(seconds=cp.at_seconds + cp.tolerance_seconds)
        await scene.clock.wait_until(
            scene.client, t0 + timedelta(seconds=max(0.0, cp.at_seconds - cp.tolerance_seconds))
        )
        met = False
        while True:
            readings = await _read(scene)
            met = evaluate(cp.critic, _snap(scene, readings))
            now = await scene.client.now()
            if met or now >= close:
                break
            await scene.clock.wait_until(
                scene.client, min(close, now + timedelta(seconds=scene.clock.step))
            )
        moments.append(
            Moment(
                f"checkpoint {i + 1} (+{cp.at_seconds:g} s)",
                _only(readings, keys),
                twin[i] if i < len(twin) else {},
            )
        )
        if not met:
            verdict = Verdict(
                False, f"checkpoint {i + 1} not met at +{cp.at_seconds:g} s", "TR", "deterministic"
            )
            break
    start = {k: scene.before.value(*k) for k in keys}
    expected = await _expected(scene, start, twin[len(moments) - 1] if moments and twin else {})
    readings, problem = await wait_commanded(
        scene.client,
        scene.mapping,
        expected,
        scene.initial,
        scene.mapping.timeout_seconds,
        scene.interval,
    )
    if problem is not None:
        return Played(moments, fault=f"the commanded state did not come back: {problem}")
    if verdict is None and goal.preserve:
        stray = [
            c
            for c in _changes(scene, scene.before, _snap(scene, readings))
            if c.did not in referenced
        ]
        if stray:
            verdict = Verdict(
                False,
                f"changed devices outside the goal: {sorted({c.did for c in stray})}",
                "DC",
                "deterministic",
                {"stray": [c.to_dict() for c in stray]},
            )
    if verdict is None:
        verdict = Verdict(
            True, f"all {len(checkpoints)} checkpoints met", decided_by="deterministic"
        )
    return Played(moments, verdict)
