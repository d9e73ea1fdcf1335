"""SMH's scripted players' rules and schedules as real HA automations, made through HA's own
automation API (``/api/config/automation/config/<id>``) and removed again after the task.

What the oracle stored on the task's embedded copy becomes automations with ids starting
:data:`PREFIX` (a run creates and removes only those); their triggers and conditions are
:func:`~smh_core.ha.automation_export.to_ha_automation`'s, on the mapped entities in HA's units,
and their actions the mapping's service calls for the attributes they change. An HA agent makes
its own automation or timer; only what happens is judged (:mod:`.real_play`).
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from datetime import datetime
from typing import Any

from smh_core.bench.world import World
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.rules import (
    Rule,
    ScheduledAction,
    TimeTrigger,
)
from smh_core.homeenv.shapes import (
    NumericConditionShape,
    NumericTriggerShape,
    StateConditionShape,
    StateTriggerShape,
    TimeTriggerShape,
)
from smh_core.homeenv.snapshot import diff
from smh_core.task.model import Task

from .automation_export import EntityRef, ExportError, to_ha_automation
from .hardware_map import AttributeMap, HardwareMapping, same_value
from .real_clock import real_cron

PREFIX = "smh_bench_"
"""Id prefix of the automations a run creates (and alone removes). SMH's integration names the
automations users ask it for ``smh_`` + hex digits, never this."""


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
        if isinstance(t, StateTriggerShape):
            t = t.model_copy(
                update={
                    "to": conv(t.did, t.locator, t.to),
                    "from_": conv(t.did, t.locator, t.from_),
                }
            )
        elif isinstance(t, NumericTriggerShape):
            t = t.model_copy(update=band(t.did, t.locator, t.above, t.below))
        triggers.append(t)
    conditions: list[Any] = []
    for c in rule.conditions:
        if isinstance(c, StateConditionShape):
            c = c.model_copy(
                update={
                    "equals": conv(c.did, c.locator, c.equals),
                    "in_": None if c.in_ is None else [conv(c.did, c.locator, v) for v in c.in_],
                }
            )
        elif isinstance(c, NumericConditionShape):
            c = c.model_copy(update=band(c.did, c.locator, c.above, c.below))
        conditions.append(c)
    return rule.model_copy(update={"triggers": triggers, "conditions": conditions})


def _actions(rule: Rule, mapping: HardwareMapping, home: HomeEngine) -> list[dict[str, Any]]:
    """The rule's actions as the mapping's service calls: each action is run on a copy of the
    home as the player left it, and every mapped attribute it changes is set as the mapping
    sets it (what the twin would do when the rule fires). A read-only attribute it changes on a
    device it also sets something of follows that (a Matter fan's PercentCurrent its
    PercentSetting, one fan percentage in HA); any other it cannot set refuses the rule."""
    scratch = HomeEngine(home.home)
    scratch.restore(home.snapshot())
    out: list[dict[str, Any]] = []
    for action in rule.actions:
        before = scratch.snapshot()
        result = scratch.execute(action.did, action.locator, dict(action.arguments))
        if not result.ok:
            raise ExportError(f"its action {action.did}/{action.locator} fails on the twin")
        changes = [c for c in diff(before, scratch.snapshot()) if not c.did.startswith("@")]
        # a room follows its devices; a read-only attribute (a Matter fan's current speed) follows
        # what the same action sets on its device (the setting), as HA shows it: no call of its own
        setting = {
            c.did
            for c in changes
            if (m := mapping.get(c.did, c.locator)) is not None and m.set is not None
        }
        for change in changes:
            amap = mapping.get(change.did, change.locator)
            if amap is not None and amap.set is None and change.did in setting:
                continue
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
            if isinstance(t, TimeTriggerShape)
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


UNSHOWN = ("unavailable", "unknown")
"""HA states that show no value: never the mapping's ``otherwise``."""


def _otherwise_map(mapping: HardwareMapping, did: str, locator: str) -> AttributeMap | None:
    """The mapping of ``did/locator`` if it reads one value from every HA state it does not list
    (a thermostat is ``on`` in any of its modes: ``values: {off: off}, otherwise: on``) from the
    entity's state, always; None otherwise. A trigger or condition on that value cannot name one
    HA state: it is said through the states the mapping lists."""
    amap = mapping.get(did, locator)
    if (
        amap is None
        or amap.values is None
        or amap.otherwise is None
        or amap.attribute != "state"
        or amap.when_state is not None
        or amap.ignore
        or any(same_value(k, amap.otherwise) for k in amap.values)
    ):
        return None
    return amap


def _listed(amap: AttributeMap) -> list[str]:
    """The HA states an ``otherwise`` mapping lists (each its own value), in its order."""
    return [*dict.fromkeys(str(v) for v in (amap.values or {}).values())]


def _otherwise_condition(c: Any, mapping: HardwareMapping) -> dict[str, Any] | None:
    """A state condition on an ``otherwise`` value (:func:`_otherwise_map`) as HA's ``not`` of
    the listed states and the unshown ones; None for any other condition."""
    if not isinstance(c, StateConditionShape):
        return None
    amap = _otherwise_map(mapping, c.did, c.locator)
    wanted = c.in_ if c.in_ is not None else [c.equals]
    if amap is None or not all(same_value(v, amap.otherwise) for v in wanted):
        return None
    shown = {"condition": "state", "entity_id": amap.entity, "state": [*_listed(amap), *UNSHOWN]}
    return {"condition": "not", "conditions": [shown]}


def _otherwise_trigger(t: Any, mapping: HardwareMapping) -> dict[str, Any] | None:
    """A state trigger to or from an ``otherwise`` value (:func:`_otherwise_map`) as HA's state
    trigger's ``from``/``not_to`` (or ``not_from``/``to``) over the states the mapping lists:
    "the thermostat turns on" fires when HA's state leaves a listed one (``off``) for any state
    it does not list and that shows a value, and not when a mode changes to another (the twin's
    value stays ``on``). None for any other trigger (a trigger to and from that value never
    fires on the twin: left to the export's refusal)."""
    if not isinstance(t, StateTriggerShape):
        return None
    amap = _otherwise_map(mapping, t.did, t.locator)
    if amap is None:
        return None
    to_other = t.to is not None and same_value(t.to, amap.otherwise)
    from_other = t.from_ is not None and same_value(t.from_, amap.otherwise)
    if to_other == from_other:
        return None
    listed = _listed(amap)
    unshown = [*listed, *UNSHOWN]
    if to_other:
        return {"from": listed if t.from_ is None else amap.to_ha(t.from_), "not_to": unshown}
    return {"not_from": unshown, "to": listed if t.to is None else amap.to_ha(t.to)}


def _config(rule: Rule, task: Task, mapping: HardwareMapping, world: World) -> dict[str, Any]:
    negated = [(c, _otherwise_condition(c, mapping)) for c in rule.conditions]
    widened = [_otherwise_trigger(t, mapping) for t in rule.triggers]
    # a widened trigger goes through the export as "any change of the state" (its own states
    # are not one HA state each), then takes its states from above: the export makes one HA
    # trigger per trigger, in order
    rest = rule.model_copy(
        update={
            "conditions": [c for c, n in negated if n is None],
            "triggers": [
                t if w is None else t.model_copy(update={"to": None, "from_": None})
                for t, w in zip(rule.triggers, widened, strict=True)
            ],
        }
    )
    config = to_ha_automation(_in_ha_units(rest, mapping), _Mapped(mapping))
    for trigger, states in zip(config["triggers"], widened, strict=True):
        if states is not None:
            trigger.pop("to", None)
            trigger.pop("from", None)
            trigger.update(states)
    config["conditions"] += [n for _, n in negated if n is not None]
    config["id"] = automation_id(task, rule.id)
    config["alias"] = f"SMH bench {task.id} {rule.id}"
    config["description"] = f"Made by an SMH benchmark run for task {task.id}, which removes it."
    config["actions"] = _actions(rule, mapping, world.engine)
    config["mode"] = "queued"
    return config


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
