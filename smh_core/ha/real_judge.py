"""What a rule or schedule task did on a real home, judged: the moments the devices were read,
the twin's values at the same moments, the verdict, and the record's ``later`` entry.

The twin's side is computed on the task's embedded copy (the player's own home, rules included,
run forward by the simulator) and kept beside the readings, so :mod:`.twin_compare` can flag a
device whose later behaviour differs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from smh_core.bench.verifier import Verdict
from smh_core.bench.world import World
from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.snapshot import Snapshot
from smh_core.task.model import AutomationGoal, TimedGoal

from .device_sync import Readings
from .hardware_map import NOT_OBSERVED, ReadError
from .real_plan import Plan


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
