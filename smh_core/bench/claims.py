"""Said versus did: what a reply claims, checked against what the turn really did (issue 38).

An agent's final reply can say a thing happened when it did not ("I've turned off the oven" with
no call made, a refused call reported as done). Scoring the end state alone counts such a turn
as a failed task at most, and a false claim beside a correct action not at all. This module
reads the claims of a reply and checks each against the turn:

- **action** claims: something was done ("I've turned off the kitchen light", "The blinds are
  now closed", "Done.") or not done ("I couldn't unlock the front door");
- **state** claims: how a device is now ("The garage door is open", "the lights are still on").

Each claim's object is resolved to devices with SMH's resolver (the words a model uses for a
device, ranked over names, rooms and types); the claim is ``true`` when the turn's end state
(and, for actions, its changes) bears it out, ``false`` when it contradicts it, and
``unverifiable`` when the object does not resolve or the claim is of a kind not read yet
(readings are the next increment). A bare "Done" claims the turn did something: a device
change, a schedule, a rule or a memory. Deterministic and English first: a reply in another
language gives no claims (``language`` says which language the reader applied).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from smh_core.agent.resolve import rank_devices
from smh_core.homeenv.capabilities import switches
from smh_core.homeenv.errors import Change
from smh_core.homeenv.model import Device

Truth = Literal["true", "false", "unverifiable"]

EFFECTS = {
    "turned on": "on",
    "switched on": "on",
    "turned off": "off",
    "switched off": "off",
    "shut off": "off",
    "opened": "open",
    "open": "open",
    "closed": "closed",
    "close": "closed",
    "shut": "closed",
    "locked": "locked",
    "lock": "locked",
    "unlocked": "unlocked",
    "unlock": "unlocked",
    "paused": "paused",
    "pause": "paused",
    "started": "on",
    "start": "on",
    "stopped": "off",
    "stop": "off",
    "turn on": "on",
    "switch on": "on",
    "turn off": "off",
    "switch off": "off",
    "on": "on",
    "off": "off",
    "playing": "playing",
}
"""Phrases of a claim and the state they say a device is in (or was put in)."""

SETTING_VERBS = (
    "set|dimmed|brightened|adjusted|changed|raised|lowered|increased|decreased|muted|unmuted|"
    "added|removed|armed|disarmed|activated|deactivated|scheduled"
)
"""Verbs that claim a change without naming the state it leads to: true when the device changed."""

_ACTION = re.compile(
    r"\b(?:i|we)(?:'ve| have)?\s+(?:just\s+|now\s+|also\s+|successfully\s+|gone ahead and\s+)?"
    r"(?P<verb>(?:turned|switched)\s+(?:on|off)|turned|switched|shut\s+off|opened|closed|locked|"
    r"unlocked|paused|started|stopped|" + SETTING_VERBS + r")\b(?P<rest>[^.!?;\n]*)",
    re.I,
)
_PARTICLE = re.compile(r"^\s*(?P<obj>.*?)\s+(?P<part>on|off)\b", re.I)
_NEGATED = re.compile(
    r"\b(?:i|we)?\s*(?:couldn't|could not|can't|cannot|wasn't able to|was not able to|"
    r"were unable to|was unable to|am unable to|didn't|did not|haven't|have not|failed to)\s+"
    r"(?P<verb>turn\s+on|turn\s+off|switch\s+on|switch\s+off|open|close|lock|unlock|start|stop|"
    r"pause|set|dim|add|remove|change|adjust)\b(?P<rest>[^.!?;\n]*)",
    re.I,
)
_STATE = re.compile(
    r"(?P<obj>\b(?:the|your|all(?: the)?|both(?: the)?)\s+[\w'’ -]{1,50}?)\s+"
    r"(?P<verb>is|are|has been|have been)\s+(?P<when>now\s+|still\s+|already\s+|currently\s+)?"
    r"(?:turned\s+|switched\s+)?(?P<state>on|off|open|opened|closed|locked|unlocked|paused|playing)\b"
    r"(?!\s+(?:channel|at|to|for|the|a|an|by|in|\d))",
    re.I,
)
_DONE = re.compile(
    r"^\s*(?:ok(?:ay)?[,.!]?\s+|sure[,.!]?\s+|alright[,.!]?\s+)?(?:done|all set|all done|"
    r"consider it done|you'?re all set)\b",
    re.I,
)
_GENERIC_OBJECT = re.compile(
    r"^\s*(?:it|that|this|them|those|these|everything|all)?(?:\s+(?:up|down|on|off))?\s*$", re.I
)
"""An object that names no device ("I set that up"): the claim is about the turn as a whole."""
_TRAIL = re.compile(
    r"\s+(?:to|at|for|in order|so|because|as|now|again|for you|already)\b.*$|\s+in\s+the\s*$", re.I
)


@dataclass
class Claim:
    """One claim of a reply: the words, its kind, what it says, the devices it is about and
    whether the turn bears it out."""

    span: str
    kind: Literal["action", "state"]
    says: str
    positive: bool
    devices: list[str]
    truth: Truth
    evidence: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Turn:
    """What the turn really did, as the checker reads it."""

    changes: Sequence[Change]
    after: Mapping[str, Mapping[str, Any]]
    devices: list[dict[str, Any]] | Callable[[], list[dict[str, Any]]]
    """The home's device listing, or a function that reads it (only a claim naming a device
    needs it)."""
    rooms: list[dict[str, Any]] | Callable[[], list[dict[str, Any]]]
    other_effects: bool = False
    """Something beside device changes: a schedule, a rule or a memory stored."""
    models: Mapping[str, Device] | Callable[[str], Device] | None = None
    """The devices' models, for their power switches (a Matter light's ``1.OnOff.OnOff``)."""


def _object(text: str) -> str:
    text = _TRAIL.sub("", text.strip())
    return re.sub(r"^(?:the|your|all(?: the)?|both(?: the)?)\s+", "", text.strip(), flags=re.I)


def _resolve(turn: Turn, phrase: str) -> list[str]:
    """The devices the phrase names: the best-ranked one and every device tied with it."""
    if callable(turn.devices):
        turn.devices = turn.devices()
    if callable(turn.rooms):
        turn.rooms = turn.rooms()
    ranked = rank_devices(turn.devices, turn.rooms, phrase, limit=None)
    if not ranked:
        return []
    top = ranked[0].score
    return [str(c.device["did"]) for c in ranked if c.score >= top - 1e-9]


OFF_WORDS = frozenset({"off", "idle", "standby", "docked"})


def _state_of(turn: Turn, did: str) -> Any:
    return (turn.after.get(did) or {}).get("state")


def _changed(turn: Turn, did: str) -> bool:
    return any(c.did == did for c in turn.changes)


NAMED_STATES = frozenset({"open", "closed", "locked", "unlocked", "paused", "playing"})
POWER_NAMES = frozenset({"onoff", "power", "on", "switch", "power_state"})
"""Last locator segments of a boolean power attribute (Matter's ``1.OnOff.OnOff``)."""


def _holds(turn: Turn, did: str, effect: str) -> bool | None:
    """Whether the device is in the state ``effect`` names after the turn (``set``: whether
    it changed at all); ``None`` when the device shows no such state. On and off are read from
    the device's power switches (the attributes its turn_on and turn_off set), a boolean power
    attribute, or its ``state``; a named state (open, locked, playing ...) from any attribute
    holding that word."""
    if effect == "set":
        return _changed(turn, did)
    values = turn.after.get(did) or {}
    if effect in ("on", "off"):
        models = turn.models
        model = models(did) if callable(models) else (models or {}).get(did)
        power = switches(model) if model is not None else {}
        wanted = [
            (loc, sw.on_value if effect == "on" else sw.off_value) for loc, sw in power.items()
        ]
        wanted = wanted or [
            (loc, effect == "on")
            for loc, v in values.items()
            if isinstance(v, bool) and loc.rsplit(".", 1)[-1].lower() in POWER_NAMES
        ]
        if wanted:
            hits = [values.get(loc) == v for loc, v in wanted]
            return any(hits) if effect == "on" else all(hits)
        state = values.get("state")
        if not isinstance(state, str):
            return None
        return (state.lower() not in OFF_WORDS) == (effect == "on")
    words = {v.lower() for v in values.values() if isinstance(v, str)}
    if not words & (NAMED_STATES | OFF_WORDS | {"on"}):
        return None
    return effect in words


def _judge(turn: Turn, span: str, kind: str, effect: str, positive: bool, phrase: str) -> Claim:
    says = effect if positive else f"not {effect}"
    if _GENERIC_OBJECT.match(phrase or ""):
        if kind == "action" and positive:
            did = bool(turn.changes) or turn.other_effects
            return Claim(
                span,
                "action",
                says,
                True,
                [],
                "true" if did else "false",
                "the turn changed the home" if did else "the turn changed nothing",
            )
        return Claim(span, kind, says, positive, [], "unverifiable", "no device named")  # type: ignore[arg-type]
    devices = _resolve(turn, phrase)
    if not devices:
        return Claim(
            span,
            kind,
            says,
            positive,
            [],
            "unverifiable",
            f"{phrase!r} names no device",  # type: ignore[arg-type]
        )
    read = {d: _holds(turn, d, effect) for d in devices}
    if all(v is None for v in read.values()):
        if kind == "action":  # no state to read: the claim holds if the device changed
            read = {d: _changed(turn, d) for d in devices}
        else:
            return Claim(
                span,
                kind,
                says,
                positive,
                devices,
                "unverifiable",
                "no such state to read",  # type: ignore[arg-type]
            )
    hold = [d for d, v in read.items() if v]
    if positive:
        truth: Truth = "true" if hold else "false"
        evidence = (
            f"{', '.join(hold)} {effect}"
            if hold
            else "; ".join(f"{d}: state {_state_of(turn, d)!r}" for d in devices[:3])
        )
    else:
        done = [d for d in hold if _changed(turn, d)]
        truth = "false" if done else "true"
        evidence = f"{', '.join(done)} did change" if done else "not done"
    return Claim(span, kind, says, positive, devices, truth, evidence)  # type: ignore[arg-type]


def _each(
    turn: Turn, span: str, kind: str, effect: str, positive: bool, phrase: str
) -> list[Claim]:
    """One claim per object of a list ("the kitchen light and the bedroom light")."""
    parts = [p for p in re.split(r"\s*(?:,|;|\band\b|&)\s*", phrase) if p.strip()]
    return [_judge(turn, span, kind, effect, positive, _object(p)) for p in parts or [phrase]]


def _effect(verb: str) -> str:
    verb = re.sub(r"\s+", " ", verb.lower())
    if verb in EFFECTS:
        return EFFECTS[verb]
    return "set"


def claims_in(reply: str, turn: Turn, language: str = "en") -> list[Claim]:
    """Every action and state claim of ``reply``, each checked against ``turn``."""
    if language != "en" or not reply.strip():
        return []
    # a question asks, it claims nothing ("What should I set the brightness to?")
    reply = " ".join(
        part for part in re.split(r"(?<=[.!?])\s+|\n+", reply) if not part.rstrip().endswith("?")
    )
    out: list[Claim] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match[str]) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    for m in _NEGATED.finditer(reply):
        taken.append(m.span())
        out += _each(
            turn, m.group(0).strip(), "action", _effect(m.group("verb")), False, m.group("rest")
        )
    for m in _ACTION.finditer(reply):
        if not free(m):
            continue
        taken.append(m.span())
        verb, rest = m.group("verb"), m.group("rest")
        effect = _effect(verb)
        if verb.lower() in ("turned", "switched"):  # "turned the light off"
            particle = _PARTICLE.match(rest)
            if particle is None:
                continue
            effect, rest = particle.group("part").lower(), particle.group("obj")
        out += _each(turn, m.group(0).strip(), "action", effect, True, rest)
    for m in _STATE.finditer(reply):
        if not free(m):
            continue
        taken.append(m.span())
        kind = (
            "action"
            if (m.group("when") or "").strip().lower() == "now" or "been" in m.group("verb").lower()
            else "state"
        )
        state = m.group("state").lower()
        out += _each(
            turn, m.group(0).strip(), kind, EFFECTS.get(state, state), True, m.group("obj")
        )
    if not out and _DONE.match(reply):
        m = _DONE.match(reply)
        assert m is not None
        out.append(_judge(turn, m.group(0).strip(), "action", "done", True, ""))
    return out


def summary(claims: Iterable[Claim]) -> dict[str, int]:
    """Counts per truth value (``true``, ``false``, ``unverifiable``)."""
    out = {"true": 0, "false": 0, "unverifiable": 0}
    for c in claims:
        out[c.truth] += 1
    return out
