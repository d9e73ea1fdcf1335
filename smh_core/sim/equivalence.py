"""Rule equivalence for the verifier: same firing times, same firing states, same effect.

An agent may write "every day at 10 pm" as ``0 0 22 * * ? *`` or ``0 22 * * *``, or "when the
room gets above 26 °C" on the room variable or on the AC's temperature sensor threshold in
hundredths. Comparing rule text would fail such answers; instead two rules are probed:

* time triggers: the merged list of firing instants over a horizon (400 days, so yearly and
  one-shot rules count) must be identical;
* state and numeric triggers: for every watched attribute, every transition between probe
  values (the attribute's options, the rules' thresholds and values, nudged either side, the
  range ends, the current value) must fire (or arm the same ``for`` timer) in both or neither;
* conditions: the same verdict at every 10 minutes of a week and over the probe values;
* actions: run on two copies of the home, they must leave identical states.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from smh_core.homeenv.cron import parse_cron
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.rules import (
    Action,
    Rule,
)
from smh_core.homeenv.shapes import (
    AttrType,
    NumericConditionShape,
    StateConditionShape,
    TimeConditionShape,
    TimeTriggerShape,
)
from smh_core.homeenv.validation import compile_checker

from .triggers import edge, in_band, same, time_condition_holds

HORIZON = timedelta(days=400)
MAX_FIRES = 400
_PRODUCT_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class Equivalence:
    equivalent: bool
    reason: str
    part: str = ""  # trigger | conditions | actions

    def __bool__(self) -> bool:
        return self.equivalent


def fire_times(
    triggers: Iterable[Any], start: datetime, horizon: timedelta = HORIZON, limit: int = MAX_FIRES
) -> list[datetime]:
    """Merged firing instants of the time triggers after ``start`` within the horizon."""
    out: set[datetime] = set()
    end = start + horizon
    for trig in triggers:
        if not isinstance(trig, TimeTriggerShape):
            continue
        cron, t = parse_cron(trig.cron), start
        for _ in range(limit):
            t = cron.next_after(t)
            if t is None or t > end:
                break
            out.add(t)
    return sorted(out)[:limit]


def _probe_values(
    engine: HomeEngine, did: str, locator: str, mentioned: Iterable[Any]
) -> list[Any]:
    values: list[Any] = []

    def add(v: Any) -> None:
        if not any(same(v, w) for w in values):
            values.append(v)

    with contextlib.suppress(KeyError):
        add(engine.value(did, locator))
    spec = None
    if did in engine.device_ids():
        spec = dict(engine.device(did).attributes_by_locator()).get(locator)
    if spec is not None and spec.options:
        for v in spec.options:
            add(v)
    if spec is not None and spec.type == AttrType.BOOL:
        add(True)
        add(False)
    for v in mentioned:
        if v is None:
            continue
        add(v)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            for d in (0.5, 1, 5):
                add(v - d)
                add(v + d)
    if spec is not None and spec.range is not None:
        add(spec.range[0])
        add(spec.range[1])
    if spec is None or (spec.type == AttrType.STR and not spec.options):
        add("\u2400other")  # "something else": a value no rule names
    if spec is not None:  # only values the attribute can hold
        check = compile_checker(spec, locator)
        values = [
            v
            for v in values
            if check(v) is None
            or (isinstance(v, float) and check(int(v)) is None and v.is_integer())
        ]
    return values


def _mentioned(items: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for it in items:
        for name in ("to", "from_", "above", "below", "equals"):
            if hasattr(it, name):
                out.append(getattr(it, name))
        if getattr(it, "in_", None):
            out += list(it.in_)
    return out


def _reaction(triggers: Sequence[Any], key: tuple[str, str], before: Any, after: Any) -> tuple:
    """What a rule does on one transition: fires now, arms timers (by duration), cancels timers."""
    fires, arms, cancels = False, set(), set()
    for trig in triggers:
        if isinstance(trig, TimeTriggerShape) or (trig.did, trig.locator) != key:
            continue
        entered, left = edge(trig, before, after)
        if entered:
            if trig.for_s:
                arms.add(trig.for_s)
            else:
                fires = True
        if left and trig.for_s:
            cancels.add(trig.for_s)
    return fires, tuple(sorted(arms)), tuple(sorted(cancels))


def triggers_equivalent(
    a: Sequence[Any], b: Sequence[Any], engine: HomeEngine, now: datetime
) -> Equivalence:
    ta, tb = fire_times(a, now), fire_times(b, now)
    if ta != tb:
        first = next((x for x, y in zip(ta, tb, strict=False) if x != y), None)
        detail = (
            f"first difference at {first.isoformat()}"
            if first is not None
            else f"{len(ta)} vs {len(tb)} firings"
        )
        return Equivalence(False, f"time triggers fire at different times ({detail})", "trigger")
    keys = sorted({(t.did, t.locator) for t in (*a, *b) if not isinstance(t, TimeTriggerShape)})
    for key in keys:
        related = [
            t for t in (*a, *b) if not isinstance(t, TimeTriggerShape) and (t.did, t.locator) == key
        ]
        probes = _probe_values(engine, key[0], key[1], _mentioned(related))
        for before, after in itertools.permutations(probes, 2):
            ra, rb = _reaction(a, key, before, after), _reaction(b, key, before, after)
            if ra != rb:
                return Equivalence(
                    False,
                    f"triggers on {key[0]}/{key[1]} differ when it changes from "
                    f"{before!r} to {after!r}",
                    "trigger",
                )
    return Equivalence(True, "triggers fire at the same times and states", "trigger")


def _time_ok(conds: Sequence[Any], t: datetime) -> bool:
    return all(time_condition_holds(c, t) for c in conds if isinstance(c, TimeConditionShape))


def _state_ok(conds: Sequence[Any], values: dict[tuple[str, str], Any]) -> bool:
    for c in conds:
        if isinstance(c, TimeConditionShape):
            continue
        v = values[(c.did, c.locator)]
        if isinstance(c, StateConditionShape):
            ok = any(same(v, w) for w in c.in_) if c.in_ is not None else same(v, c.equals)
        else:
            assert isinstance(c, NumericConditionShape)
            ok = in_band(v, c.above, c.below)
        if not ok:
            return False
    return True


def conditions_equivalent(
    a: Sequence[Any], b: Sequence[Any], engine: HomeEngine, now: datetime
) -> Equivalence:
    monday = (now - timedelta(days=now.weekday())).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    for i in range(7 * 24 * 6):
        t = monday + timedelta(minutes=10 * i)
        if _time_ok(a, t) != _time_ok(b, t):
            return Equivalence(
                False, f"time conditions differ at {t.strftime('%A %H:%M')}", "conditions"
            )
    keys = sorted({(c.did, c.locator) for c in (*a, *b) if not isinstance(c, TimeConditionShape)})
    probes = {
        k: _probe_values(
            engine,
            k[0],
            k[1],
            _mentioned(
                c
                for c in (*a, *b)
                if not isinstance(c, TimeConditionShape) and (c.did, c.locator) == k
            ),
        )
        for k in keys
    }
    size = 1
    for vals in probes.values():
        size *= len(vals)
    if size <= _PRODUCT_LIMIT:
        combos: Iterable[tuple] = itertools.product(*(probes[k] for k in keys))
    else:  # vary one attribute at a time around the current state
        base = tuple(probes[k][0] for k in keys)
        combos = [base[:i] + (v,) + base[i + 1 :] for i, k in enumerate(keys) for v in probes[k]]
    for combo in combos:
        values = dict(zip(keys, combo, strict=True))
        if _state_ok(a, values) != _state_ok(b, values):
            shown = ", ".join(f"{d}/{loc}={v!r}" for (d, loc), v in values.items())
            return Equivalence(False, f"conditions differ when {shown}", "conditions")
    return Equivalence(True, "conditions agree", "conditions")


def _copy(engine: HomeEngine) -> HomeEngine:
    twin = HomeEngine(engine.home)
    twin.restore(engine.snapshot())
    return twin


def actions_equivalent(a: Sequence[Action], b: Sequence[Action], engine: HomeEngine) -> Equivalence:
    ea, eb = _copy(engine), _copy(engine)
    for eng, acts in ((ea, a), (eb, b)):
        for act in acts:
            eng.execute(act.did, act.locator, act.arguments)
    changes = ea.diff(ea.snapshot(), eb.snapshot())
    if changes:
        c = changes[0]
        return Equivalence(
            False,
            f"actions leave {c.did}/{c.locator} at {c.before!r} instead of {c.after!r}",
            "actions",
        )
    return Equivalence(True, "actions produce the same state", "actions")


def rules_equivalent(a: Rule, b: Rule, engine: HomeEngine, now: datetime) -> Equivalence:
    """Whether rule ``a`` behaves like rule ``b`` in this home from ``now`` on."""
    for check in (
        triggers_equivalent(a.triggers, b.triggers, engine, now),
        conditions_equivalent(a.conditions, b.conditions, engine, now),
        actions_equivalent(a.actions, b.actions, engine),
    ):
        if not check:
            return check
    return Equivalence(True, "equivalent")
