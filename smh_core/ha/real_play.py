"""Tasks that play out in time (``timed`` and ``automation`` goals) played out on a real home:
real HA automations (:mod:`.real_automations`), real HA time (:mod:`.real_clock`), the devices
read when the goal reads them; nothing simulated.

On the twin a rule or a schedule is judged by running the home forward on a simulated clock; a
real home's clock cannot be run forward, so here the home is left to play out as planned
(:mod:`.real_plan`) and judged (:mod:`.real_judge`):

* ``automation`` goal: the goal's own trigger is made to happen. Nothing may change before it;
  after it the goal's critic must hold on the devices (the twin: the rule's actions satisfy it).
* ``timed`` goal: the checkpoints are seconds after the turn began; each window is watched on
  HA's clock, and the critic must hold in it (and not yet just before it, as on the twin).

A device that does not do what an automation commanded (HA's ``call_service`` events) is a
device fault, not the agent's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from smh_core.bench.verifier import Verdict
from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.snapshot import Snapshot, diff
from smh_core.task.model import AutomationGoal, TimedGoal

from .device_sync import Readings, commanded, overlay, reach, read_all
from .hardware_map import NOT_OBSERVED, HardwareMapping, ReadError, same_value
from .real_clock import Clock
from .real_judge import Moment, Played, evaluate, judge_automation
from .real_plan import Plan


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
    # a setting HA did not show before the set-up (an off fan's preset) and shows once the
    # set-up switched its device on was not changed: it is seen for the first time
    driven = {did for did, _ in set_up}
    unseen = {k for k, v in after_turn.items() if k[0] in driven and v is NOT_OBSERVED}
    early = [
        c
        for c in _changes(scene, now_snap, _snap(scene, pre))
        if (c.did, c.locator) not in set_up | unseen
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
