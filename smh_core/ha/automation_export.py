"""Export of an SMH :class:`Rule` as a Home Assistant automation config (current syntax).

The result is plain data (``alias``, ``description``, ``triggers``, ``conditions``,
``actions``) for ``automations.yaml`` or HA's automation editor API; no HA code is imported.
Which HA entity shows a ``did/locator`` and which HA action runs a service is the business of
an :class:`EntityMap`. :class:`SmhEntityMap` is the default for homes served by the SMH
integration: readable values come from a table of entity ids (built by hand, or from the entity
registry with :meth:`SmhEntityMap.from_unique_ids`, which follows the integration's
``<entry>_<did>_<locator>`` unique ids of its per-attribute entities), and service calls go
through the integration's own ``smh.execute`` action unless a native HA action is given.

Cron triggers become a ``time_pattern`` trigger (``*``, a number or ``*/n`` per time field,
one of them repeating) or a ``time`` trigger (a few fixed times of day, weekdays native); day-of-month, month and year
restrictions (one-shots such as ``0 0 22 27 6 ? 2025``) become a ``template`` condition on the
date, scoped to that trigger by its id. Anything else raises :class:`ExportError` naming the
part HA cannot express.

Semantics match where both sides define them: numeric bands are strict on both sides, a state
trigger without ``to`` fires on any change of the value (``to: null``), ``for`` waits the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from smh_core.homeenv.cron import CronError, parse_cron
from smh_core.homeenv.shapes import (
    NumericConditionShape,
    NumericTriggerShape,
    StateConditionShape,
    StateTriggerShape,
    TimeConditionShape,
    TimeTriggerShape,
)

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from smh_core.homeenv.rules import (
        Action,
        NumericCondition,
        NumericTrigger,
        Rule,
        StateCondition,
        StateTrigger,
    )

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MAX_AT_TIMES = 48
"""A cron with more fixed times of day than this is exported as a time pattern, if it is one."""
_PATTERN = re.compile(r"^(\*|\d+|(\*|0)/\d+)$")
_MONTHS = {
    m: i
    for i, m in enumerate(
        ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"), 1
    )
}
_DAYS = {
    d: i for i, d in enumerate(("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"))
}  # cron numbering


class ExportError(ValueError):
    """A rule (or part of one) that Home Assistant cannot express; the message names the part."""


# ---------------------------------------------------------------------- the entity map
@dataclass(frozen=True)
class EntityRef:
    """Where HA shows one readable value: an entity's state, one of its state attributes, or
    (with ``key``) one entry of a dict-valued attribute, such as the ``homeenv`` attribute in
    which the integration's rich entities keep the raw values of the attributes they cover.

    HA's state and numeric-state triggers cannot look inside a dict, so a keyed value is read
    by a template (:meth:`template`) and its triggers and conditions are template ones."""

    entity_id: str
    attribute: str | None = None
    key: str | None = None

    def ha_value(self, value: Any) -> Any:
        """An SMH value as HA compares it: entity states are strings (booleans are on/off);
        state attributes keep their type."""
        if self.attribute is not None or value is None:
            return value
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def template(self) -> str:
        """A Jinja expression for the value (``none`` while the entity or key is missing)."""
        if self.key is None:
            if self.attribute is None:
                return f"states({self.entity_id!r})"
            return f"state_attr({self.entity_id!r}, {self.attribute!r})"
        return f"(state_attr({self.entity_id!r}, {self.attribute or 'homeenv'!r}) or {{}}).get({self.key!r})"


def jinja_literal(value: Any) -> str:
    """An SMH value (JSON data) as a Jinja literal: JSON's, but with Jinja's ``none``."""
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(jinja_literal(v) for v in value) + "]"
    return json.dumps(value)


@dataclass(frozen=True)
class ActionRef:
    """A native HA action for one service: ``arguments`` renames SMH arguments to HA data keys
    (unlisted ones keep their name), ``data`` is added as is."""

    action: str
    entity_id: str | None = None
    arguments: Mapping[str, str] = field(default_factory=dict)
    data: Mapping[str, Any] = field(default_factory=dict)

    def config(self, a: Action) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action}
        if self.entity_id is not None:
            out["target"] = {"entity_id": self.entity_id}
        data = {**self.data, **{self.arguments.get(k, k): v for k, v in a.arguments.items()}}
        if data:
            out["data"] = data
        return out


class EntityMap(Protocol):
    """How a home's SMH addresses appear in Home Assistant."""

    def entity(self, did: str, locator: str) -> EntityRef:
        """The entity (and attribute) showing ``did/locator``; :class:`ExportError` if none."""

    def action(self, action: Action) -> dict[str, Any]:
        """The HA action config (``action``, ``target``, ``data``) running one service call."""


class SmhEntityMap:
    """The default map: a table of entities, and ``smh.execute`` for services not in ``actions``."""

    def __init__(
        self,
        entities: Mapping[tuple[str, str], str | EntityRef] | None = None,
        actions: Mapping[tuple[str, str], ActionRef] | None = None,
        config_entry_id: str | None = None,
    ) -> None:
        self.entities = {
            k: v if isinstance(v, EntityRef) else EntityRef(v) for k, v in (entities or {}).items()
        }
        self.actions = dict(actions or {})
        self.config_entry_id = config_entry_id

    @classmethod
    def from_unique_ids(
        cls, entry_id: str, unique_ids: Mapping[str, str], dids: Iterable[str], **kw: Any
    ) -> SmhEntityMap:
        """From the entity registry's ``unique_id -> entity_id`` of one SMH config entry: the
        integration's generic entities have the unique id ``<entry_id>_<did>_<locator>``."""
        entities: dict[tuple[str, str], str | EntityRef] = {}
        claimed: set[str] = set()
        for did in sorted(dids, key=len, reverse=True):  # longest first: "10" must not eat "10_1_x"
            prefix = f"{entry_id}_{did}_"
            for uid, eid in unique_ids.items():
                if uid.startswith(prefix) and uid not in claimed:
                    claimed.add(uid)
                    entities[(did, uid.removeprefix(prefix))] = eid
        return cls(entities, config_entry_id=entry_id, **kw)

    def entity(self, did: str, locator: str) -> EntityRef:
        ref = self.entities.get((did, locator))
        if ref is None:
            raise ExportError(
                f"no Home Assistant entity for {did}/{locator}; add it to the entity map"
            )
        return ref

    def action(self, action: Action) -> dict[str, Any]:
        native = self.actions.get((action.did, action.locator))
        if native is not None:
            return native.config(action)
        data: dict[str, Any] = {
            "did": action.did,
            "locator": action.locator,
            "arguments": dict(action.arguments),
        }
        if self.config_entry_id is not None:
            data["config_entry_id"] = self.config_entry_id
        return {"action": "smh.execute", "data": data}


# ---------------------------------------------------------------------- cron
def _expand(
    text: str, raw: str, name: str, lo: int, hi: int, names: Mapping[str, int] | None = None
) -> set[int]:
    """The values a numeric cron field matches (``*``, ``?``, lists, ranges, steps, names)."""
    out: set[int] = set()

    def num(s: str) -> int:
        if names and s.upper() in names:
            return names[s.upper()]
        if not s.isdigit():
            raise ExportError(
                f"cron {text!r}: {name} field {raw!r} uses {s!r}, which Home Assistant "
                "cannot express"
            )
        return int(s)

    for part in raw.split(","):
        base, _, step_s = part.partition("/")
        step = num(step_s) if step_s else 1
        if base in ("*", "?"):
            a, b = lo, hi
        elif "-" in base:
            a, b = (num(x) for x in base.split("-", 1))
        else:
            a = num(base)
            b = hi if step_s else a
        out.update(range(a, b + 1, step))
    return out


def _cron_fields(text: str) -> tuple[list[str], bool]:
    """``[sec, min, hour, day, month, weekday, year]`` and whether weekdays are Quartz (1 = Sun)."""
    try:
        parse_cron(text)
    except CronError as e:
        raise ExportError(str(e)) from None
    f = text.split()
    if len(f) == 5:
        return ["0", *f, "*"], False
    return (f + ["*"])[:7], True


def _weekdays(text: str, raw: str, quartz: bool) -> list[int]:
    """Weekday field -> Python weekdays (0 = Monday)."""
    lo, hi = (1, 7) if quartz else (0, 7)
    names = {k: v + 1 for k, v in _DAYS.items()} if quartz else _DAYS
    cron_days = {(d - 1 if quartz else d) % 7 for d in _expand(text, raw, "weekday", lo, hi, names)}
    return sorted((d + 6) % 7 for d in cron_days)


def _time_pattern_value(text: str, raw: str, name: str) -> str | int:
    if not _PATTERN.match(raw):
        raise ExportError(
            f"cron {text!r}: {name} field {raw!r} is neither a few fixed times of day nor a "
            "time pattern Home Assistant supports ('*', a number or '*/n')"
        )
    if raw == "*":
        return "*"
    return "/" + raw.split("/")[1] if "/" in raw else int(raw)


def _template(test: str) -> dict[str, Any]:
    return {"condition": "template", "value_template": "{{ " + test + " }}"}


def _scoped(
    trigger: dict[str, Any], checks: list[str], trigger_id: str | None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``trigger`` and the template condition its ``checks`` need; with several triggers the
    condition applies to this one only (by its id), the others pass it."""
    if not checks:
        return trigger, None
    test = " and ".join(checks)
    if trigger_id is not None:
        trigger["id"] = trigger_id
        test = f"trigger.id != '{trigger_id}' or ({test})"
    return trigger, _template(test)


def cron_trigger(
    text: str, trigger_id: str | None = None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """An HA trigger for a cron expression, and the template condition its date part needs."""
    (sec, minute, hour, day, month, weekday, year), quartz = _cron_fields(text)
    secs = _expand(text, sec, "second", 0, 59)
    mins = _expand(text, minute, "minute", 0, 59)
    hours = _expand(text, hour, "hour", 0, 23)
    days = _expand(text, day, "day-of-month", 1, 31)
    months = _expand(text, month, "month", 1, 12, _MONTHS)
    years = _expand(text, year, "year", 1970, 2099)
    wdays = _weekdays(text, weekday, quartz)
    checks = [
        f"now().{what} in {sorted(vals)}"
        for what, vals, full in (("day", days, 31), ("month", months, 12), ("year", years, 130))
        if len(vals) < full
    ]
    trigger: dict[str, Any]
    patterned = all(_PATTERN.match(f) for f in (sec, minute, hour)) and "*" in sec + minute + hour
    if not patterned and len(secs) * len(mins) * len(hours) <= MAX_AT_TIMES:
        trigger = {
            "trigger": "time",
            "at": [
                f"{h:02d}:{m:02d}:{s:02d}"
                for h in sorted(hours)
                for m in sorted(mins)
                for s in sorted(secs)
            ],
        }
        if len(wdays) < 7:
            trigger["weekday"] = [WEEKDAYS[d] for d in wdays]
    else:
        trigger = {
            "trigger": "time_pattern",
            "hours": _time_pattern_value(text, hour, "hour"),
            "minutes": _time_pattern_value(text, minute, "minute"),
            "seconds": _time_pattern_value(text, sec, "second"),
        }
        if len(wdays) < 7:
            checks.append(f"now().weekday() in {wdays}")
    return _scoped(trigger, checks, trigger_id)


# ---------------------------------------------------------------------- rule -> automation
def _for(seconds: float | None) -> dict[str, Any]:
    return {} if seconds is None else {"for": {"seconds": seconds}}


def _target(ref: EntityRef) -> dict[str, Any]:
    return {"entity_id": ref.entity_id, **({"attribute": ref.attribute} if ref.attribute else {})}


def _band(above: float | None, below: float | None) -> dict[str, Any]:
    return {k: v for k, v in (("above", above), ("below", below)) if v is not None}


def _clock(text: str | None) -> str | None:
    return None if text is None else text if text.count(":") == 2 else text + ":00"


def _keyed_test(
    part: StateCondition | NumericCondition | NumericTrigger | StateTrigger, value: str
) -> str:
    """A Jinja test of a keyed value: in the wanted states, or strictly inside the band."""
    if isinstance(part, StateConditionShape):
        wanted = part.in_ if part.in_ is not None else [part.equals]
        return f"{value} in {jinja_literal(wanted)}"
    if isinstance(part, StateTriggerShape):
        return f"{value} == {jinja_literal(part.to)}"
    checks = [f"{value} is number"]
    if part.above is not None:
        checks.append(f"{value} > {part.above}")
    if part.below is not None:
        checks.append(f"{value} < {part.below}")
    return " and ".join(checks)


def _keyed_trigger(
    trig: StateTrigger | NumericTrigger, ref: EntityRef, trigger_id: str | None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A trigger on a keyed value, and the condition it needs (scoped by ``trigger_id``).

    A band or a target value is a template trigger: it fires when the test turns true, the
    edge SMH's rules fire on, and ``for`` waits the same way. "Any change" (no ``to``) is a
    state trigger on the whole attribute plus a condition that this key's entry changed; a
    ``from`` is checked on the trigger's old state."""
    attribute = ref.attribute or "homeenv"
    old = f"(trigger.from_state.attributes.get({attribute!r}) or {{}}).get({ref.key!r})"
    new = f"(trigger.to_state.attributes.get({attribute!r}) or {{}}).get({ref.key!r})"
    checks: list[str] = []
    trigger: dict[str, Any]
    if isinstance(trig, StateTriggerShape) and trig.to is None:
        trigger = {"trigger": "state", "entity_id": ref.entity_id, "attribute": attribute}
        checks.append(f"{old} != {new}")
    else:
        trigger = {
            "trigger": "template",
            "value_template": "{{ " + _keyed_test(trig, ref.template()) + " }}",
        }
    if isinstance(trig, StateTriggerShape) and trig.from_ is not None:
        checks.append(f"{old} == {jinja_literal(trig.from_)}")
    trigger |= _for(trig.for_s)
    return _scoped(trigger, checks, trigger_id)


def to_ha_automation(rule: Rule, entity_map: EntityMap) -> dict[str, Any]:
    """``rule`` as an HA automation config; :class:`ExportError` for what HA cannot express."""
    triggers: list[dict[str, Any]] = []
    conditions: list[dict[str, Any]] = []
    several = len(rule.triggers) > 1
    for i, trig in enumerate(rule.triggers):
        if isinstance(trig, TimeTriggerShape):
            t, date_condition = cron_trigger(trig.cron, f"t{i}" if several else None)
            triggers.append(t)
            if date_condition is not None:
                conditions.append(date_condition)
            continue
        ref = entity_map.entity(trig.did, trig.locator)
        if ref.key is not None:
            t, condition = _keyed_trigger(trig, ref, f"t{i}" if several else None)
            triggers.append(t)
            if condition is not None:
                conditions.append(condition)
            continue
        if isinstance(trig, StateTriggerShape):
            t = {"trigger": "state", **_target(ref)}
            if trig.from_ is not None:
                t["from"] = ref.ha_value(trig.from_)
            t["to"] = ref.ha_value(trig.to)  # None: any change of the value, not of attributes
            triggers.append(t | _for(trig.for_s))
        elif isinstance(trig, NumericTriggerShape):
            triggers.append(
                {
                    "trigger": "numeric_state",
                    **_target(ref),
                    **_band(trig.above, trig.below),
                    **_for(trig.for_s),
                }
            )
    for cond in rule.conditions:
        if isinstance(cond, TimeConditionShape):
            c: dict[str, Any] = {"condition": "time"}
            for key, value in (("after", _clock(cond.after)), ("before", _clock(cond.before))):
                if value is not None:
                    c[key] = value
            if cond.weekdays is not None:
                c["weekday"] = [WEEKDAYS[d] for d in cond.weekdays]
            conditions.append(c)
            continue
        ref = entity_map.entity(cond.did, cond.locator)
        if ref.key is not None:
            conditions.append(_template(_keyed_test(cond, ref.template())))
            continue
        if isinstance(cond, StateConditionShape):
            wanted = cond.in_ if cond.in_ is not None else [cond.equals]
            states = [ref.ha_value(v) for v in wanted]
            conditions.append(
                {
                    "condition": "state",
                    **_target(ref),
                    "state": states[0] if len(states) == 1 else states,
                }
            )
        elif isinstance(cond, NumericConditionShape):
            conditions.append(
                {"condition": "numeric_state", **_target(ref), **_band(cond.above, cond.below)}
            )
    out: dict[str, Any] = {
        "id": rule.id,
        "alias": rule.name or rule.id,
        "description": f"SMH automation {rule.id}" + (f": {rule.name}" if rule.name else ""),
        "triggers": triggers,
        "conditions": conditions,
        "actions": [entity_map.action(a) for a in rule.actions],
    }
    if not rule.enabled:
        out["initial_state"] = False
    return out
