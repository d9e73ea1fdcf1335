"""Schedules and automation rules on simulated time: adding and checking them, what a change
or the clock triggers, conditions, and firing (a rule's actions go through the engine)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from smh_core.homeenv.cron import parse_cron
from smh_core.homeenv.engine import ENV_PREFIX
from smh_core.homeenv.errors import Change, ExecResult
from smh_core.homeenv.plain import same_form
from smh_core.homeenv.shapes import (
    DRIVEN_VARIABLES,
    NumericConditionShape,
    NumericTriggerShape,
    StateConditionShape,
    TimeConditionShape,
    TimeTriggerShape,
)

from .timebase import TICKS_PER_SECOND, SimEvent
from .triggers import edge, in_band, same, time_condition_holds

if TYPE_CHECKING:  # either form of each (smh_core.homeenv.plain)
    from smh_core.homeenv.rules import Action, Rule, ScheduledAction


class Automations:
    """The Automations part of :class:`~smh_core.sim.simulator.Simulator` (a mixin: the state lives
    on the simulator, set up in its ``__init__``)."""

    def _watched_variables(self) -> dict[tuple[str, str], list[Callable[[float], bool]]]:
        """Numeric triggers on room variables or on sensors that report them, as predicates on
        the room variable (so physics can stop exactly at the crossing tick)."""
        out: dict[tuple[str, str], list[Callable[[float], bool]]] = {}
        for rule in self._rules.values():
            if not rule.enabled:
                continue
            for trig in rule.triggers:
                if not isinstance(trig, NumericTriggerShape):
                    continue
                above, below = trig.above, trig.below
                if trig.did.startswith(ENV_PREFIX):
                    room = trig.did[len(ENV_PREFIX) :]
                    if trig.locator in DRIVEN_VARIABLES and room in self._x:
                        out.setdefault((room, trig.locator), []).append(
                            lambda x, a=above, b=below: in_band(x, a, b)
                        )
                    continue
                sensor = self._sensors.get((trig.did, trig.locator))
                if sensor is not None and sensor.variable in DRIVEN_VARIABLES:
                    out.setdefault((sensor.room, sensor.variable), []).append(
                        lambda x, s=sensor, a=above, b=below: in_band(s.reading(x), a, b)
                    )
        return out

    # ------------------------------------------------------------------ schedules
    def schedule(
        self,
        at: datetime,
        actions: Iterable[Action | Mapping[str, Any]],
        schedule_id: str | None = None,
    ) -> ScheduledAction:
        """Register actions to run at ``at``; devices and services are checked now."""
        acts = [same_form(self._settings, "Action", a) for a in actions]
        if not acts:
            raise ValueError("a schedule needs at least one action")
        if self.tick_of(at) < self._tick:
            raise ValueError(
                f"cannot schedule at {at.isoformat()}: it is already {self.now.isoformat()}"
            )
        for a in acts:
            self._check_action(a)
        sid = schedule_id or f"s{next(self._ids)}"
        while sid in self._schedules:
            sid = f"s{next(self._ids)}"
        item = same_form(self._settings, "ScheduledAction", {"id": sid, "at": at, "actions": acts})
        self._schedules[sid] = item
        return item

    def cancel(self, schedule_id: str) -> ScheduledAction:
        item = self._schedules.get(schedule_id)
        if item is None:
            raise KeyError(f"no schedule {schedule_id!r}; schedules: {sorted(self._schedules)}")
        if item.status != "pending":
            raise ValueError(f"schedule {schedule_id!r} is already {item.status}")
        item.status = "cancelled"
        return item

    def schedules(self, include_done: bool = False) -> list[ScheduledAction]:
        items = sorted(self._schedules.values(), key=lambda s: (s.at, s.id))
        return [s for s in items if include_done or s.status == "pending"]

    def _check_action(self, a: Action) -> None:
        eng = self.engine
        if a.did not in eng.device_ids():
            raise ValueError(f"action names unknown device {a.did!r}")
        dev_locs = set(eng.services(a.did)) | set(eng.status(a.did))
        if a.locator not in dev_locs:
            raise ValueError(f"device {a.did} has no service or attribute {a.locator!r}")

    def _run_schedule(self, item: ScheduledAction) -> None:
        results = [self._act(a) for a in item.actions]
        errors = [r.error.message for r in results if not r.ok and r.error is not None]
        item.status = "failed" if errors else "done"
        item.error = "; ".join(errors) or None
        self.log.append(
            SimEvent(self.now, "schedule", item.id, ok=not errors, detail=item.error or "")
        )

    # ------------------------------------------------------------------ rules
    def add_rule(self, rule: Rule | Mapping[str, Any]) -> Rule:
        """Store a rule (replacing one with the same id); cron and references are checked."""
        r = same_form(self._settings, "Rule", rule)
        for trig in r.triggers:
            if isinstance(trig, TimeTriggerShape):
                parse_cron(trig.cron)
            else:
                self._check_ref(trig.did, trig.locator)
        for cond in r.conditions:
            if not isinstance(cond, TimeConditionShape):
                self._check_ref(cond.did, cond.locator)
        for a in r.actions:
            self._check_action(a)
        self.remove_rule(r.id, missing_ok=True)
        self._rules[r.id] = r
        self._watch_key = None  # thresholds and watched rooms worked out again
        for i, trig in enumerate(r.triggers):
            if isinstance(trig, TimeTriggerShape):
                nxt = parse_cron(trig.cron).next_after(self.now)
                self._cron_next[(r.id, i)] = None if nxt is None else self.tick_of(nxt)
            else:
                self._watch.setdefault((trig.did, trig.locator), []).append((r.id, i))
        return r

    def remove_rule(self, rule_id: str, *, missing_ok: bool = False) -> None:
        if rule_id not in self._rules:
            if missing_ok:
                return
            raise KeyError(f"no rule {rule_id!r}; rules: {sorted(self._rules)}")
        del self._rules[rule_id]
        self._watch_key = None
        for ref, keys in list(self._watch.items()):
            keys[:] = [k for k in keys if k[0] != rule_id]
            if not keys:
                del self._watch[ref]
        for d in (self._cron_next, self._timers):
            for key in [k for k in d if k[0] == rule_id]:
                del d[key]

    def rules(self) -> list[Rule]:
        return list(self._rules.values())

    def _check_ref(self, did: str, locator: str) -> None:
        try:
            self.engine.value(did, locator)
        except KeyError:
            raise ValueError(f"rule refers to unknown {did!r}/{locator!r}") from None

    def _trigger_on_change(self, ch: Change) -> None:
        watchers = self._watch.get((ch.did, ch.locator))
        if not watchers:  # most changes: no rule watches the attribute
            return
        for key in list(watchers):
            rule = self._rules.get(key[0])
            if rule is None or not rule.enabled:
                continue
            trig = rule.triggers[key[1]]
            assert not isinstance(trig, TimeTriggerShape)  # time triggers are never watched
            entered, left = edge(trig, ch.before, ch.after)
            if left:
                self._timers.pop(key, None)
            if entered:
                if trig.for_s:
                    self._timers[key] = self._tick + int(round(trig.for_s * TICKS_PER_SECOND))
                else:
                    self._fire_rule(rule, f"{trig.kind} {trig.did}/{trig.locator}")

    def _conditions_hold(self, rule: Rule) -> bool:
        for c in rule.conditions:
            if isinstance(c, TimeConditionShape):
                if not time_condition_holds(c, self.now):
                    return False
                continue
            self._fresh(c.did)
            value = self.engine.value(c.did, c.locator)
            if isinstance(c, StateConditionShape):
                if c.in_ is not None:
                    if not any(same(value, v) for v in c.in_):
                        return False
                elif not same(value, c.equals):
                    return False
            elif isinstance(c, NumericConditionShape) and not in_band(value, c.above, c.below):
                return False
        return True

    def _act(self, a: Action) -> ExecResult:
        """Run one action of a schedule or rule on the device as it is now (its room's
        readings brought up to now first)."""
        self._fresh(a.did)
        return self.engine.execute(a.did, a.locator, a.arguments)

    def _fire_rule(self, rule: Rule, why: str) -> None:
        if not self._conditions_hold(rule):
            return
        results = [self._act(a) for a in rule.actions]
        errors = [r.error.message for r in results if not r.ok and r.error is not None]
        self.log.append(
            SimEvent(self.now, "rule", rule.id, ok=not errors, detail="; ".join([why, *errors]))
        )
