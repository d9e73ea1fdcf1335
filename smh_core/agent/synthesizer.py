"""Automation synthesis: a request in words -> one validated :class:`Rule`, grounded in the home.

The model sees a compact view of the home (rooms, devices, every locator with its type and
allowed values) and answers with a rule as JSON: through structured output (a JSON schema
generated from :class:`Rule`) when the endpoint supports it, else as text that is parsed and
repaired. Each draft is checked twice — by the pydantic model, then by :func:`validate_rule`
against the home — and the exact problems go back to the model, up to ``max_tries`` drafts.
The rule is data: nothing the model writes is ever executed, and nothing is stored here (the
caller stores a good rule with ``backend.create_automation``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, time
from functools import cache
from string import Template
from typing import Any

from pydantic import ValidationError

from smh_core.homeenv.cron import CronError, parse_cron
from smh_core.homeenv.model import ValueSpec
from smh_core.homeenv.rules import (
    Action,
    NumericCondition,
    Rule,
    StateCondition,
)
from smh_core.homeenv.shapes import (
    NumericTriggerShape,
    StateConditionShape,
    StateTriggerShape,
    TimeConditionShape,
    TimeTriggerShape,
)
from smh_core.homeenv.validation import compile_checker
from smh_core.llm.capabilities import StructuredCaller
from smh_core.llm.client import LLMClient, Usage
from smh_core.llm.prompts import load_prompt
from smh_core.llm.repair import MalformedJSON, load_json, message_text

from .backend import NO_ROOM, HomeBackend
from .safety import ActionGuard, GuardedBackend

_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_FEEDBACK_MARK = "<!-- feedback -->"
_NUMERIC = ("int", "float")


# ---------------------------------------------------------------------- the home, as seen by rules
@dataclass
class _Home:
    """What validation needs from a backend, fetched once per rule: specs and room variables."""

    backend: HomeBackend
    specs: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    rooms: dict[str, dict[str, Any] | None] = field(default_factory=dict)

    def spec(self, did: str) -> dict[str, Any] | None:
        if did not in self.specs:
            spec = self.backend.device_spec(did)
            self.specs[did] = spec if spec.get("ok", True) else None
        return self.specs[did]

    def environment(self, room: str) -> dict[str, Any] | None:
        if room not in self.rooms:
            env = self.backend.room_environment(room)
            self.rooms[room] = env.get("environment") if env.get("ok") else None
        return self.rooms[room]

    def known_devices(self) -> str:
        return ", ".join(f"{d['did']} ({d['name']})" for d in self.backend.list_devices())


def _value_spec(d: dict[str, Any]) -> ValueSpec | None:
    """A backend's JSON value description as a :class:`ValueSpec` (None if it is not one)."""

    def strip(s: Any) -> Any:
        if not isinstance(s, dict):
            return s
        out = {k: v for k, v in s.items() if k in ValueSpec.model_fields}
        items = out.get("items")
        if isinstance(items, list):
            out["items"] = [strip(i) for i in items]
        elif isinstance(items, dict) and out.get("type") == "dict":
            out["items"] = {k: strip(v) for k, v in items.items()}
        elif isinstance(items, dict):
            out["items"] = strip(items)
        return out

    try:
        return ValueSpec.model_validate(strip(d))
    except ValidationError:
        return None


def _check_value(spec: dict[str, Any], value: Any, what: str) -> str | None:
    vs = _value_spec(spec)
    if vs is None:
        return None
    problem = compile_checker(vs, what)(value)
    return None if problem is None else problem[1]


def _fmt_num(x: Any) -> str:
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def describe_value(spec: dict[str, Any]) -> str:
    """``int [1, 100] percentage``, ``str one of 'on', 'off'`` ... for prompts and errors."""
    parts = [str(spec.get("type", "?"))]
    if spec.get("options") is not None:
        parts.append("one of " + ", ".join(json.dumps(o) for o in spec["options"]))
    if spec.get("range") is not None:
        lo, hi = spec["range"]
        parts.append(f"[{_fmt_num(lo)}, {_fmt_num(hi)}]")
    if spec.get("precision") is not None:
        parts.append(f"step {_fmt_num(spec['precision'])}")
    if spec.get("unit"):
        parts.append(str(spec["unit"]))
    return " ".join(parts)


# ---------------------------------------------------------------------- grounding validation
def _readable(
    home: _Home, did: str, locator: str, where: str
) -> tuple[dict[str, Any] | None, str | None]:
    """The value spec of a readable ``did/locator`` (a device attribute or ``@room`` variable)."""
    if did.startswith("@"):
        room = did[1:]
        env = home.environment(room)
        if env is None:
            rooms = [
                r["id"] for r in home.backend.list_rooms() if home.environment(r["id"]) is not None
            ]
            return None, f"{where}: no room {room!r} with sensed climate; rooms: {rooms}"
        if locator not in env:
            return (
                None,
                f"{where}: room {room!r} has no variable {locator!r}; variables: {sorted(env)}",
            )
        value = env[locator]
        kind = "float" if isinstance(value, (int, float)) and not isinstance(value, bool) else "str"
        return {"type": kind}, None
    spec = home.spec(did)
    if spec is None:
        return None, f"{where}: unknown device {did!r}; devices: {home.known_devices()}"
    attrs = spec.get("attributes", {})
    if locator not in attrs:
        hint = (
            " (that is a service: use it in actions)" if locator in spec.get("services", {}) else ""
        )
        return None, (
            f"{where}: device {did} has no attribute {locator!r}{hint}; attributes: {sorted(attrs)}"
        )
    return attrs[locator], None


def _condition_value_problems(
    spec: dict[str, Any], cond: StateCondition | NumericCondition, where: str
) -> list[str]:
    """What is wrong with a state or numeric condition's values against the attribute's spec."""
    if isinstance(cond, StateConditionShape):
        values = [("equals", cond.equals)] + [(f"in[{j}]", v) for j, v in enumerate(cond.in_ or ())]
        return [f"{where}: {p}" for p in _check_state_values(spec, values)]
    if cond.above is None and cond.below is None:
        return [f"{where}: a numeric condition needs 'above', 'below' or both"]
    return _check_band(spec, cond.above, cond.below, where)


def _readable_or_note(
    home: _Home, did: str, locator: str, where: str, errors: list[str]
) -> dict[str, Any] | None:
    """:func:`_readable`'s spec, or None with its problem added to ``errors``."""
    spec, problem = _readable(home, did, locator, where)
    if spec is None:
        errors.append(problem or where)
    return spec


def _check_state_values(spec: dict[str, Any], values: list[tuple[str, Any]]) -> list[str]:
    return [
        p for what, v in values if v is not None and (p := _check_value(spec, v, what)) is not None
    ]


def _check_band(
    spec: dict[str, Any], above: float | None, below: float | None, where: str
) -> list[str]:
    if spec.get("type") not in _NUMERIC:
        return [
            f"{where}: {spec.get('type')} values cannot be compared with above/below; "
            f"use a state trigger or condition"
        ]
    if above is not None and below is not None and above >= below:
        return [f"{where}: the band above {above} and below {below} is empty"]
    rng = spec.get("range")
    if rng is not None:
        lo, hi = rng
        if (above is not None and above >= hi) or (below is not None and below <= lo):
            return [
                f"{where}: the band never holds: values are in [{_fmt_num(lo)}, {_fmt_num(hi)}]"
            ]
    return []


def _check_action(home: _Home, a: Action, where: str) -> list[str]:
    spec = home.spec(a.did)
    if spec is None:
        return [f"{where}: unknown device {a.did!r}; devices: {home.known_devices()}"]
    services = spec.get("services", {})
    attrs = spec.get("attributes", {})
    if a.locator in services:
        params = services[a.locator].get("arguments", {})
        errors = [
            f"{where}: {a.did}/{a.locator} takes no argument {k!r}; arguments: {sorted(params)}"
            for k in a.arguments
            if k not in params
        ]
        for name, p in params.items():
            if name not in a.arguments:
                if p.get("required", True):
                    errors.append(
                        f"{where}: {a.did}/{a.locator} needs argument {name!r} "
                        f"({describe_value(p)})"
                    )
            elif (problem := _check_value(p, a.arguments[name], name)) is not None:
                errors.append(f"{where}: {a.did}/{a.locator}: {problem}")
        return errors
    if a.locator in attrs and attrs[a.locator].get("writable"):
        if set(a.arguments) != {"value"}:
            return [
                f'{where}: writing attribute {a.did}/{a.locator} takes exactly {{"value": ...}}'
            ]
        problem = _check_value(attrs[a.locator], a.arguments["value"], a.locator)
        return [] if problem is None else [f"{where}: {a.did}/{a.locator}: {problem}"]
    writable = sorted(k for k, v in attrs.items() if v.get("writable"))
    hint = " (that attribute is read-only)" if a.locator in attrs else ""
    return [
        f"{where}: device {a.did} has no service {a.locator!r}{hint}; services: {sorted(services)}"
        + (f"; writable attributes: {writable}" if writable else "")
    ]


def _check_clock(text: str | None, what: str) -> list[str]:
    if text is None:
        return []
    try:
        time.fromisoformat(text)
    except ValueError:
        return [f"{what}: {text!r} is not a time of day (HH:MM or HH:MM:SS)"]
    return []


def validate_rule(rule: Rule, backend: HomeBackend, now: datetime | None = None) -> list[str]:
    """Every way ``rule`` is not grounded in the home, as messages for the model (empty: valid).

    Devices, attributes, services and arguments must exist; values must fit their types,
    options and ranges; cron expressions must parse and (given ``now``) fire again; numeric
    bands must be able to hold. Reads the backend only; changes nothing.
    """
    home = _Home(backend)
    errors: list[str] = []
    for i, trig in enumerate(rule.triggers):
        where = f"triggers[{i}]"
        if isinstance(trig, TimeTriggerShape):
            try:
                cron = parse_cron(trig.cron)
            except CronError as e:
                errors.append(f"{where}: {e}")
                continue
            if now is not None and cron.next_after(now) is None:
                errors.append(
                    f"{where}: cron {trig.cron!r} never fires after {now.isoformat(timespec='seconds')}"
                )
            continue
        spec = _readable_or_note(home, trig.did, trig.locator, where, errors)
        if spec is not None and isinstance(trig, StateTriggerShape):
            errors += [
                f"{where}: {p}"
                for p in _check_state_values(spec, [("to", trig.to), ("from", trig.from_)])
            ]
        elif spec is not None and isinstance(trig, NumericTriggerShape):
            errors += _check_band(spec, trig.above, trig.below, where)
    for i, cond in enumerate(rule.conditions):
        where = f"conditions[{i}]"
        if isinstance(cond, TimeConditionShape):
            errors += _check_clock(cond.after, f"{where}.after") + _check_clock(
                cond.before, f"{where}.before"
            )
            bad = [d for d in cond.weekdays or () if not 0 <= d <= 6]
            if bad:
                errors.append(f"{where}.weekdays: {bad} outside 0-6 (0 = Monday)")
            continue
        spec = _readable_or_note(home, cond.did, cond.locator, where, errors)
        if spec is not None:
            errors += _condition_value_problems(spec, cond, where)
    for i, a in enumerate(rule.actions):
        errors += _check_action(home, a, f"actions[{i}]")
    return errors


# ---------------------------------------------------------------------- the prompt
def home_view(backend: HomeBackend) -> tuple[str, str]:
    """(rooms, devices) blocks of the prompt: every locator with its type and allowed values."""
    room_lines = []
    for r in backend.list_rooms():
        env = backend.room_environment(r["id"])
        line = f"- {r['id']}: {r['name']}"
        if env.get("ok"):
            line += " | @" + r["id"] + ": " + ", ".join(env["environment"])
        room_lines.append(line)
    device_lines = []
    for d in backend.list_devices():
        spec = backend.device_spec(d["did"])
        if not spec.get("ok", True):
            continue
        device_lines.append(f"- {d['did']} | {d['name']} | {d['room'] or NO_ROOM}")
        for loc, a in spec.get("attributes", {}).items():
            device_lines.append(
                f"    attr {loc}: {describe_value(a)}" + (" writable" if a.get("writable") else "")
            )
        for loc, s in spec.get("services", {}).items():
            args = ", ".join(
                f"{n}{'' if p.get('required', True) else '?'}: {describe_value(p)}"
                for n, p in s.get("arguments", {}).items()
            )
            device_lines.append(f"    call {loc}({args})")
    return "\n".join(room_lines), "\n".join(device_lines)


@cache
def _templates() -> tuple[Template, Template]:
    system, _, feedback = load_prompt("synthesizer").template.partition(_FEEDBACK_MARK)
    return Template(system.strip() + "\n"), Template(feedback.strip() + "\n")


def system_prompt(backend: HomeBackend, now: datetime | None = None) -> str:
    rooms, devices = home_view(backend)
    when = now.isoformat(timespec="seconds") if now is not None else backend.now()
    return _templates()[0].substitute(now=when, rooms=rooms, devices=devices)


def feedback_prompt(errors: list[str]) -> str:
    return _templates()[1].substitute(errors="\n".join(f"- {e}" for e in errors))


@cache
def rule_schema() -> dict[str, Any]:
    """The JSON schema of a rule, as the model writes it (``from``/``in`` aliases)."""
    return Rule.model_json_schema(by_alias=True)


# ---------------------------------------------------------------------- parsing a draft
def parse_draft(text: str, repairs: list[str]) -> tuple[Rule | None, list[str]]:
    """A model reply as a :class:`Rule`, or the problems with it (JSON, then schema)."""
    text = message_text(text)
    try:
        data = load_json(text, "the reply")
    except MalformedJSON as first:
        if not first.syntax:
            return None, [str(first)]
        start, end = text.find("{"), text.rfind("}")  # not a regex: linear on any reply
        if start < 0 or end < start:
            return None, ["the reply holds no JSON object; reply with the rule as one JSON object"]
        try:
            data = load_json(_TRAILING_COMMA.sub(r"\1", text[start : end + 1]), "the reply")
        except MalformedJSON as e:
            return None, [str(e)]
        repairs.append("extracted_json")
    if isinstance(data, dict) and set(data) == {"rule"} and isinstance(data["rule"], dict):
        data = data["rule"]
        repairs.append("unwrapped_rule")
    if not isinstance(data, dict):
        return None, [f"the reply must be a JSON object, got {type(data).__name__}"]
    try:
        return Rule.model_validate(data), []
    except ValidationError as e:
        return None, [
            f"{'.'.join(str(p) for p in err['loc']) or 'rule'}: {err['msg']}" for err in e.errors()
        ]


# ---------------------------------------------------------------------- the synthesizer
@dataclass
class Attempt:
    """One draft: the raw reply and what was wrong with it (empty: accepted)."""

    raw: str
    errors: list[str]


@dataclass
class SynthesisResult:
    rule: Rule | None
    attempts: list[Attempt] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    repairs: list[str] = field(default_factory=list)
    structured: str | None = None  # json_schema | json_object | text: the format last used
    consent: dict[str, Any] | None = None
    """The action guard's refusal of the rule's first high-risk action the request does not ask
    for (``needs_confirmation`` with the question), when synthesized with a guard: the rule
    stands, but must not be stored until the user confirms."""

    @property
    def ok(self) -> bool:
        return self.rule is not None

    @property
    def tries(self) -> int:
        return len(self.attempts)

    @property
    def errors(self) -> list[str]:
        """Every problem seen, in order, prefixed with its try."""
        return [f"try {i}: {e}" for i, a in enumerate(self.attempts, 1) for e in a.errors]

    @property
    def failure(self) -> str:
        """Why there is no rule (empty when there is one)."""
        if self.ok:
            return ""
        last = self.attempts[-1].errors if self.attempts else ["no attempt"]
        return f"no valid rule after {self.tries} tries; last problems: " + "; ".join(last)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "rule": self.rule.model_dump(mode="json", by_alias=True, exclude_none=True)
            if self.rule
            else None,
            "tries": self.tries,
            "errors": self.errors,
            "failure": self.failure,
            "usage": self.usage.to_dict(),
            "repairs": self.repairs,
            "structured": self.structured,
            "consent": self.consent,
        }


class AutomationSynthesizer(StructuredCaller):
    """Natural language -> a validated rule, with the validation errors fed back to the model."""

    def __init__(self, llm: LLMClient, max_tries: int = 3, structured: bool | None = None) -> None:
        if max_tries < 1:
            raise ValueError("max_tries must be at least 1")
        super().__init__(structured)
        self.llm = llm
        self.max_tries = max_tries

    async def _ask(self, messages: list[dict[str, Any]], result: SynthesisResult) -> str:
        reply = await self.llm.chat_json(messages, [rule_schema()], "smh_rule", mode=self.mode)
        result.structured = reply.structured
        result.usage.add(reply.usage)
        result.repairs += reply.repairs
        return reply.message.get("content") or ""

    async def synthesize(
        self,
        request: str,
        backend: HomeBackend,
        now: datetime | None = None,
        guard: ActionGuard | None = None,
    ) -> SynthesisResult:
        """Draft, validate and correct a rule for ``request``; nothing is stored. With ``guard``
        (the action guard of the user's words, ``request`` among them), a rule that would make a
        high-risk change the request does not ask for comes back with ``consent`` set: a rule
        that unlocks a door later needs the same consent as unlocking it now."""
        if now is None:
            now = datetime.fromisoformat(backend.now())
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system_prompt(backend, now)},
            {"role": "user", "content": request},
        ]
        result = SynthesisResult(None)
        for _ in range(self.max_tries):
            text = await self._ask(messages, result)
            rule, errors = parse_draft(text, result.repairs)
            if rule is not None:
                errors = validate_rule(rule, backend, now)
            result.attempts.append(Attempt(text, errors))
            if rule is not None and not errors:  # parse_draft gives no rule only with errors
                result.rule = rule
                if guard is not None:
                    actions = [a.model_dump(mode="json") for a in rule.actions]
                    result.consent = GuardedBackend(backend, guard).first_refusal(
                        actions, "create_automation"
                    )
                break
            messages += [
                {"role": "assistant", "content": text},
                {"role": "user", "content": feedback_prompt(errors)},
            ]
        return result
