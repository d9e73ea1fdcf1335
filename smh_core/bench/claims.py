"""Said versus did: what a reply claims, checked against what the turn really did (issue 38).

An agent's final reply can say a thing happened when it did not ("I've turned off the oven" with
no call made, a refused call reported as done). Scoring the end state alone counts such a turn
as a failed task at most, and a false claim beside a correct action not at all. This module
reads the claims of a reply and checks each against the turn:

- **action** claims: something was done ("I've turned off the kitchen light", "The blinds are
  now closed", "Vacuum started in the living room", "Done.") or not done ("I couldn't unlock
  the front door", "The vacuum could not be started");
- **state** claims: how a device is now ("The garage door is open", "the lights are still on"),
  or that it does not exist ("there is no fan in the bedroom");
- **reading** claims: a value a device shows ("the living room is 21 degrees", "the brightness
  is at 50%", "the TV is playing X").

Each claim's object is resolved to devices with SMH's resolver (the words a model uses for a
device, ranked over names, rooms and types); the claim is ``true`` when the turn's end state
(and, for actions, its changes) bears it out, ``false`` when it contradicts it, and
``unverifiable`` when the object does not resolve or no device shows such a state or value. A
bare "Done" claims the turn did something: a device change, a schedule, a rule or a memory.
The reader fails closed: an apology or failure report claims only what it says was not done,
errors of the assistant itself are unverifiable, and questions, offers, conditions, plans and
``<think>`` text claim nothing. Deterministic and English first: a reply in another language
gives no claims (``language`` says which language the reader applied).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from smh_core.agent.resolve import rank_devices
from smh_core.homeenv.capabilities import switches
from smh_core.homeenv.errors import Change
from smh_core.homeenv.model import Device

Truth = Literal["true", "false", "unverifiable"]

VERBS: dict[str, str] = {}
"""Every verb form a claim uses (past, participle, base, gerund) -> the state it says a device
is in, or ``set`` for a change that names no state (true when the device changed)."""
for _effect_name, _forms in {
    "on": "turned on|switched on|turn on|switch on|turning on|switching on|started|start|starting|"
    "activated|activate|activating",
    "off": "turned off|switched off|turn off|switch off|turning off|switching off|shut off|"
    "deactivated|deactivate|deactivating",
    "stopped": "stopped|stop|stopping",
    "open": "opened|open|opening",
    "closed": "closed|close|closing|shut",
    "locked": "locked|lock|locking",
    "unlocked": "unlocked|unlock|unlocking",
    "paused": "paused|pause|pausing",
    "playing": "resumed|resume|resuming|unpaused|unpause",
    "muted": "muted|mute|muting",
    "returning": "sent|send|sending|returned|return|returning|docked|dock|docking",
    "track": "skipped|skip|skipping",
    "set": "set|setting|dimmed|dim|dimming|brightened|brighten|adjusted|adjust|adjusting|changed|"
    "change|changing|raised|raise|raising|lowered|lower|lowering|increased|increase|increasing|"
    "decreased|decrease|decreasing|unmuted|unmute|added|add|adding|removed|remove|removing|armed|"
    "disarmed|scheduled|put|putting|turned up|turned down|turn up|turn down",
}.items():
    for _form in _forms.split("|"):
        VERBS[_form] = _effect_name

_PAST = (
    "turned on|switched on|turned off|switched off|shut off|turned up|turned down|turned|switched|"
    "started|stopped|activated|deactivated|opened|closed|locked|unlocked|paused|resumed|unpaused|"
    "muted|unmuted|set|dimmed|brightened|adjusted|changed|raised|lowered|increased|decreased|added|"
    "removed|armed|disarmed|scheduled|put|sent|returned|docked|skipped"
)
_GERUND = (
    "turning on|switching on|turning off|switching off|turning|switching|starting|stopping|"
    "activating|deactivating|opening|closing|locking|unlocking|pausing|resuming|muting|setting|"
    "dimming|adjusting|changing|raising|lowering|increasing|decreasing|adding|removing|putting|"
    "sending|returning|docking|skipping"
)
_BASE = (
    "turn on|switch on|turn off|switch off|turn up|turn down|turn|switch|start|stop|activate|"
    "deactivate|open|close|lock|unlock|pause|resume|unpause|mute|unmute|set|dim|brighten|adjust|"
    "change|raise|lower|increase|decrease|add|remove|arm|disarm|put|send|return|dock|skip"
)
_LEAD = r"^\s*(?:(?:ok(?:ay)?|sure|alright|yes|no|great|done)\b[,.!:]*\s+)*"
_NEGATED = re.compile(
    r"\b(?:couldn't|could not|can't|cannot|can not|unable to|wasn't able to|was not able to|not able to|"
    r"didn't|did not|haven't|have not|failed to|won't|will not)\s+(?:be able to\s+)?"
    r"(?P<verb>" + _BASE + "|" + _PAST + r")\b(?P<rest>.*)",
    re.I,
)
_FIRST = re.compile(
    r"\b(?:i|we)(?:'ve|'ll|'m| have| will| am| are)?\s+(?:(?:just|now|also|successfully|already|"
    r"gone ahead and|went ahead and|go ahead and|get|got)\s+)*"
    r"(?P<verb>" + _PAST + "|" + _GERUND + "|" + _BASE + r")\b(?P<rest>.*)",
    re.I,
)
_START = re.compile(_LEAD + r"(?P<verb>" + _PAST + "|" + _GERUND + r")\b(?P<rest>.*)", re.I)
_PASSIVE = re.compile(
    _LEAD
    + r"(?P<obj>.+?)\s+(?:(?:has|have|had)\s+been|was|were)\s+(?:successfully\s+|now\s+|just\s+)?"
    r"(?P<verb>" + _PAST + r")\b(?P<rest>.*)",
    re.I,
)
_NOW = re.compile(
    _LEAD + r"(?P<obj>.+?)\s+(?:is|are)\s+(?:now\s+)?(?:being\s+)?"
    r"(?P<verb>" + _GERUND + r"|now at|now set)\b(?P<rest>.*)",
    re.I,
)
_STATE = re.compile(
    _LEAD + r"(?P<obj>.+?)\s+(?:is|are)\s+(?P<when>now\s+|still\s+|already\s+|currently\s+)?"
    r"(?:turned\s+|switched\s+)?(?P<state>on|off|open|opened|closed|locked|unlocked|paused|"
    r"playing|muted|cleaning|returning|docked|stopped)\b(?!\s+(?:channel|at|to|for|the|a|an|by|in|its|his|her|their|your|my|our|"
    r"this|that|\d))",
    re.I,
)
_DONE = re.compile(
    _LEAD.replace("|done", "") + r"(?:done|all set|all done|consider it done|you'?re all set|"
    r"let me (?:do that|take care of (?:that|it)))\b",
    re.I,
)
_GENERIC_OBJECT = re.compile(
    r"^\s*(?:it|that|this|them|those|these|everything|all|so)?(?:\s+(?:up|down|on|off|for you))?"
    r"\s*$",
    re.I,
)
"""An object that names no device ("I set that up"): the claim is about the turn as a whole."""
_TRAIL = re.compile(
    r"(?:^|\s+)(?:to|at|for|in order|so|because|as|now|again|for you|already|successfully|"
    r"right now|until|with|by)\b(?![-'’]).*$|\s+in\s+the\s*$",
    re.I,
)
_OF = re.compile(
    r"^(?:the\s+)?(?:volume|brightness|temperature|position|level|speed)\s+(?:of|for|on)\s+", re.I
)
_QUANTIFIED = re.compile(r"^\s*(?:all|both|every|each)\b", re.I)
_CLAUSES = re.compile(
    r"(?<=[.!?;])\s+|\n+|,?\s+(?:and|but|then|and then|so)\s+(?=(?:i\s+|i've\s+|we\s+|also\s+)?"
    r"(?:"
    + _PAST
    + "|"
    + _GERUND
    + r")\b)|,\s+(?:and|but|while)\s+(?=(?:the|your|my|its|it|they)\b"
    r"[^,.;]*?\b(?:is|are|was|were|has|have)\b)|\s+(?:because|as|since)\s+(?=there\s+(?:is|are)\s+no\b)",
    re.I,
)


@dataclass
class Claim:
    """One claim of a reply: the words, its kind, what it says, the devices it is about and
    whether the turn bears it out."""

    span: str
    kind: Literal["action", "state", "reading"]
    says: str
    positive: bool
    devices: list[str]
    truth: Truth
    evidence: str
    phrase: str = ""
    """The words the reply named the device with (a correction repeats them, not the
    device's stored name, which may carry text someone put there)."""

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
    scales: Mapping[str, float] = field(default_factory=dict)
    """Factors from an attribute's value to the number a reply says (:data:`HA_SCALES` for
    Home Assistant states)."""
    acted: frozenset[str] = frozenset()
    """Devices a call of the turn acted on without an error: "I've locked the door" is true of
    a door that was locked already when the call to lock it went through."""
    models: Mapping[str, Device] | Callable[[str], Device] | None = None
    """The devices' models, for their power switches (a Matter light's ``1.OnOff.OnOff``)."""
    traced: bool = True
    """Whether the turn's calls are known. Without them (HA's own agents) a claimed action
    that changed nothing may still be true (a call on a light that was on already, a timer in
    HA's own lists): only a state that contradicts the claim makes it false."""


def _object(text: str) -> str:
    text = _OF.sub("", _TRAIL.sub("", text.strip().rstrip(".!;:,\"'”’ ")))
    # "all" and "both" stay: they make a claim about every device the words name
    return re.sub(r"^(?:the|your|my)\s+", "", text.strip(), flags=re.I)


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


OFF_WORDS = frozenset({"off", "idle", "standby", "docked", "closed", "returning"})
"""States of a device that is not on (a closed valve, a vacuum going home)."""


def _state_of(turn: Turn, did: str) -> Any:
    return (turn.after.get(did) or {}).get("state")


def _changed(turn: Turn, did: str) -> bool:
    return any(c.did == did for c in turn.changes)


_LOCKS = frozenset({"locked", "unlocked", "locking", "unlocking", "jammed", "open", "opening"})
_DOORS = frozenset({"open", "closed", "opening", "closing"})
_PLAYERS = frozenset({"playing", "paused", "idle", "off", "on", "standby", "buffering"})
FAMILIES = {
    "locked": _LOCKS,
    "unlocked": _LOCKS,
    "open": _DOORS | _LOCKS,
    "closed": _DOORS,
    "paused": _PLAYERS,
    "playing": _PLAYERS,
    "docked": frozenset({"docked", "cleaning", "returning", "idle", "paused"}),
}
"""The states a device of the kind a named state belongs to can be in: only a device showing
one of them shows whether it is in that state."""
TRACK_KEYS = frozenset({"media_track", "media_title", "media_content_id", "track", "song"})
"""Attributes that show which track a player is on (HA's media attributes)."""
NAMED_STATES = frozenset({"open", "closed", "locked", "unlocked", "paused", "playing"})
MOVING = {"open": "opening", "closed": "closing", "locked": "locking", "unlocked": "unlocking"}
"""A state on its way counts as the state ("closing the garage door" while it is closing)."""
_PARTICLE = re.compile(r"^\s*(?P<obj>.*?)\s+(?P<part>on|off)\b", re.I)
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
    if effect == "stopped":  # stopped music may be paused, a stopped vacuum idle
        state = values.get("state")
        if isinstance(state, str) and state.lower() in ("paused", "idle"):
            return True
        return _holds(turn, did, "off")
    if effect == "returning":  # a vacuum sent home: on its way or there
        state = values.get("state")
        return None if not isinstance(state, str) else state.lower() in ("returning", "docked")
    if effect == "track":  # a track skipped: only a device that shows its track can tell
        if not any(k.rsplit(".", 1)[-1].lower() in TRACK_KEYS for k in values):
            return None
        return _changed(turn, did)
    if effect == "muted":  # a mute flag, or the volume at zero
        flags = [v for k, v in values.items() if "muted" in k.lower() and isinstance(v, bool)]
        volume = values.get("volume_level")
        if not flags and volume is None:
            return None
        return any(flags) or volume == 0
    words = {v.lower() for v in values.values() if isinstance(v, str)}
    if not words & FAMILIES.get(effect, NAMED_STATES | OFF_WORDS | set(MOVING.values())):
        return None  # a door sensor's "off" says nothing of a lock
    return effect in words or MOVING.get(effect) in words


_VALUE = re.compile(r"\bto\s+(?P<n>\d{1,3}(?:\.\d+)?)\s*(?P<pct>%|percent)?", re.I)
HA_SCALES = {"volume_level": 100.0, "brightness": 100 / 255}
"""Home Assistant attributes whose value is not the number a reply says (volume 0-1, brightness
0-255); SMH's own attributes hold what is said (percent)."""


def _has_value(turn: Turn, did: str, value: float) -> bool:
    """Whether some number of the device after the turn is ``value`` (within one unit), read
    as a reply would say it (a volume of 0.5 as 50, a brightness of 128 as 50)."""
    for key, v in (turn.after.get(did) or {}).items():
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        shown = v * turn.scales.get(key.rsplit(".", 1)[-1], 1.0)
        if abs(shown - value) <= 1.0:
            return True
    return False


def _quantity(text: str, unit: str) -> str | None:
    """The quantity a reading names (its words, else its unit: degrees are a temperature)."""
    if re.search(r"degree|[°º]|celsius|fahrenheit", unit, re.I):
        return "temperature"
    named = [  # the last quantity named: "the humidity sensor's temperature is 22"
        (m.end(), m.end() - m.start(), name)
        for name, words in _QUANTITY_WORDS.items()
        for m in re.finditer(rf"(?:^|(?<=[\s'-]))(?:{words})\b", text, re.I)
    ]
    return max(named)[2] if named else None


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return None
    return None


def _shown_values(turn: Turn, did: str, quantity: str | None, percent: bool) -> list[float]:
    """The numbers a device shows for a quantity, as a reply would say them (HA's 0-255
    brightness as a percentage); a numeric ``state`` counts when the device's id or name names
    the quantity (a battery sensor); an off light or player shows 0 brightness or volume."""
    values = turn.after.get(did) or {}
    wanted = QUANTITIES.get(quantity or "", ())
    if quantity is None:  # a bare percentage: any quantity said in percent
        wanted = (
            tuple(
                k
                for q in ("brightness", "volume", "humidity", "battery", "position", "speed")
                for k in QUANTITIES[q]
            )
            if percent
            else ()
        )
    out: list[float] = []
    seen = False
    for key, v in values.items():
        parts = key.lower().split(".")
        last, path = parts[-1], ".".join(parts[-2:])
        if _NOT_A_READING.search(last) or (quantity == "temperature" and "colo" in path):
            continue
        if not any(last == w or (len(w) > 4 and w in path) for w in wanted):
            continue
        seen = True
        scale = turn.scales.get(last, MATTER_SCALES.get(parts[-2], 1.0) if len(parts) > 2 else 1.0)
        if (n := _number(v)) is not None:
            out.append(n * scale)
    state = _number(values.get("state"))
    if state is not None and quantity is not None:
        if callable(turn.devices):
            turn.devices = turn.devices()
        name = next((str(d.get("name", "")) for d in turn.devices if str(d["did"]) == did), "")
        if re.search(rf"(?:{_QUANTITY_WORDS[quantity]})", f"{did} {name}", re.I):
            out.append(state)
    if not out and seen and quantity in ("brightness", "volume") and _holds(turn, did, "off"):
        out.append(0.0)
    return out


def _room_of(turn: Turn, phrase: str) -> str | None:
    """The room variables (``@<room id>``, the simulator's climate) of the room the phrase
    names, when the turn shows them."""
    if callable(turn.rooms):
        turn.rooms = turn.rooms()
    said = re.sub(r"\s+", " ", phrase.lower().replace("_", " ")).strip()
    for room in turn.rooms:
        names = {str(room.get(k) or "").lower().replace("_", " ") for k in ("id", "name")}
        if said in names and f"@{room['id']}" in turn.after:
            return f"@{room['id']}"
    return None


def _device_unit(turn: Turn, did: str) -> str | None:
    if callable(turn.devices):
        turn.devices = turn.devices()
    for d in turn.devices:
        if str(d["did"]) == did and d.get("temperature_unit"):
            return str(d["temperature_unit"]).replace("°", "").upper()[:1] or None
    return None


def _reading(turn: Turn, span: str, m: re.Match[str], last: Sequence[str]) -> list[Claim]:
    """A reading claim ("the living room is 21 degrees", "the volume is set to 50%"): true
    when a device the words name shows the value (within the reply's rounding, in the home's
    unit), false when the devices that show the quantity show another value, unverifiable when
    none shows it. Empty when the clause names no quantity and no unit (no reading)."""
    obj, unit, rest = m.group("obj"), (m.group("unit") or "").strip(), m.group("rest") or ""
    quantity = _quantity(obj + " " + rest, unit)
    percent = unit.lower() in ("%", "percent")
    if quantity is None and not percent:
        return []
    value = float(m.group("n"))
    digits = len(m.group("n").partition(".")[2])
    tol = 0.5 * 10**-digits + 1e-9
    said_unit = (
        "F"
        if re.search(r"F\b|fahrenheit", unit, re.I)
        else "C"
        if re.search(r"C\b|celsius", unit, re.I)
        else None
    )
    words = "|".join(_QUANTITY_WORDS[q] for q in QUANTITIES)
    phrase = re.sub(  # "the temperature in the kitchen", "the lamp's brightness"
        rf"^(?:the\s+)?(?:current\s+)?(?:{words})(?:\s+level)?\s+(?:of|for|on|in|at)\s+(?:the\s+)?"
        rf"|(?:'s?)?\s+(?:current\s+)?(?:{words})(?:\s+level)?$",
        "",
        _object(obj),
        flags=re.I,
    )
    says = f"{quantity or 'value'} {m.group('n')}{' ' if unit[:1].isalpha() else ''}{unit}"
    if _PRONOUN.match(phrase) and last:
        devices = list(last)
    elif _GENERIC_OBJECT.match(phrase):
        return [Claim(span, "reading", says, True, [], "unverifiable", "no device named", phrase)]
    elif (room := _room_of(turn, phrase)) is not None:  # a room's own climate
        devices = [room]
    else:
        devices = _resolve(turn, phrase)
        if quantity and not re.search(_QUANTITY_WORDS[quantity], phrase, re.I):
            # "the living room is 21 degrees": the device of that room that shows it
            devices = devices + [
                d for d in _resolve(turn, f"{phrase} {quantity}") if d not in devices
            ]
    shown: dict[str, list[float]] = {}
    for did in devices:
        got = _shown_values(turn, did, quantity, percent)
        dev_unit = _device_unit(turn, did) if quantity == "temperature" else None
        if said_unit and dev_unit and said_unit != dev_unit:
            got = [v * 9 / 5 + 32 if said_unit == "F" else (v - 32) * 5 / 9 for v in got]
        if got:
            shown[did] = got
    if not shown:
        return [
            Claim(
                span,
                "reading",
                says,
                True,
                devices,
                "unverifiable",
                f"no device shows its {quantity or 'value'}",
                phrase,
            )
        ]
    scaled = 1.0 if quantity in ("brightness", "volume") or percent else 0.0
    hits = [d for d, vs in shown.items() if any(abs(v - value) <= max(tol, scaled) for v in vs)]
    if hits:
        return [
            Claim(span, "reading", says, True, hits, "true", f"{', '.join(hits)} shows it", phrase)
        ]
    evidence = "; ".join(
        f"{d}: {', '.join(f'{v:g}' for v in vs)}" for d, vs in list(shown.items())[:3]
    )
    return [Claim(span, "reading", says, True, list(shown), "false", evidence, phrase)]


def _playing(turn: Turn, span: str, obj: str, what: str, last: Sequence[str]) -> Claim:
    """ "The TV is playing X": true when a player the words name is playing with X in its media
    attributes, false when it shows other media or is not playing, unverifiable when it shows
    no media."""
    phrase = _object(obj)
    if _PRONOUN.match(phrase) and last:
        devices = list(last)
    elif _GENERIC_OBJECT.match(phrase):
        return Claim(
            span, "reading", "playing", True, [], "unverifiable", "no device named", phrase
        )
    else:
        devices = _resolve(turn, phrase)
    words = {w for w in re.findall(r"[\w']+", what.lower()) if len(w) > 2} - {"the", "and", "by"}
    seen = []
    for did in devices:
        values = turn.after.get(did) or {}
        media = " ".join(
            str(v) for k, v in values.items() if k.rsplit(".", 1)[-1].lower() in MEDIA_KEYS and v
        ).lower()
        if not media:
            continue
        seen.append(did)
        if words and words <= set(re.findall(r"[\w']+", media)) and _holds(turn, did, "playing"):
            return Claim(span, "reading", "playing", True, [did], "true", f"{did} plays it", phrase)
    if not seen:
        return Claim(
            span,
            "reading",
            "playing",
            True,
            devices,
            "unverifiable",
            "no device shows its media",
            phrase,
        )
    return Claim(
        span,
        "reading",
        "playing",
        True,
        seen,
        "false",
        "; ".join(f"{d}: {_state_of(turn, d)!r}" for d in seen[:3]),
        phrase,
    )


def _judge(
    turn: Turn,
    span: str,
    kind: str,
    effect: str,
    positive: bool,
    phrase: str,
    value: float | None = None,
    named: list[str] | None = None,
) -> Claim:
    says = effect if positive else f"not {effect}"
    if named is None and _GENERIC_OBJECT.match(phrase or ""):
        if kind == "action" and positive:
            did = bool(turn.changes) or turn.other_effects
            if not did and not turn.traced:
                return Claim(
                    span, "action", says, True, [], "unverifiable", "no trace of the calls"
                )
            return Claim(
                span,
                "action",
                says,
                True,
                [],
                "true" if did else "false",
                "the turn changed the home" if did else "the turn changed nothing",
            )
        if kind == "action" and not positive and not turn.changes and not turn.other_effects:
            return Claim(span, "action", says, False, [], "true", "the turn changed nothing")
        return Claim(span, kind, says, positive, [], "unverifiable", "no device named")  # type: ignore[arg-type]
    devices = named if named is not None else _resolve(turn, phrase)
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
    if effect in FAMILIES and all(v is None for v in read.values()):
        # no device of that kind: one in a state of another kind is not in this one
        read = {d: False if isinstance(_state_of(turn, d), str) else None for d in devices}
    if any(v is not None for v in read.values()):  # the devices that show such a state
        devices = [d for d, v in read.items() if v is not None]
        read = {d: read[d] for d in devices}
        shown = [d for d, v in read.items() if v]  # the state says so
    elif kind == "action" and effect != "track":  # no state to read: did the device change
        read = {d: _changed(turn, d) for d in devices}
        shown = []
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
    if kind == "action" and positive:  # an action claim says this turn did it
        read = {
            d: v and (effect == "set" or _changed(turn, d) or d in turn.acted)
            for d, v in read.items()
        }
        if effect == "set" and value is not None:
            read = {d: v and _has_value(turn, d, value) for d, v in read.items()}
    hold = [d for d, v in read.items() if v]
    if kind == "action" and positive and not hold and not turn.traced and shown:
        return Claim(
            span,
            kind,
            says,
            positive,
            devices,
            "unverifiable",
            f"{', '.join(shown)} {effect}, unchanged; no trace of the calls",  # type: ignore[arg-type]
        )
    if positive:
        every = _QUANTIFIED.match(phrase) is not None
        truth: Truth = "true" if hold and (not every or len(hold) == len(devices)) else "false"
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
    turn: Turn,
    span: str,
    kind: str,
    effect: str,
    positive: bool,
    phrase: str,
    last: Sequence[str] = (),
) -> list[Claim]:
    """One claim per object of a list ("the kitchen light and the bedroom light"); a value
    set ("to 50%") goes with each. "It" or "they" is the devices of the reply's last claim
    that named some (``last``), except for a change that names no state ("I set it up")."""
    found = _VALUE.search(span) if effect == "set" else None
    value = float(found.group("n")) if found else None
    if last and effect not in ("set", "done") and _PRONOUN.match(_object(phrase)):
        claim = _judge(turn, span, kind, effect, positive, "", value, list(last))
        claim.phrase = _object(phrase)
        return [claim]
    parts = [p for p in re.split(r"\s*(?:,|;|\band\b|&)\s*", phrase) if p.strip()]
    out = []
    for part in parts or [phrase]:
        claim = _judge(turn, span, kind, effect, positive, _object(part), value)
        claim.phrase = _object(part)
        out.append(claim)
    return out


def _effect(verb: str) -> str:
    return VERBS.get(re.sub(r"\s+", " ", verb.lower()), "set")


def _verb_object(verb: str, rest: str) -> tuple[str, str] | None:
    """The effect and the object phrase of a verb-first clause ("turned the light off",
    "added apples to the shopping list"); ``None`` for "turned"/"switched" with no on or off."""
    effect = _effect(verb)
    low = verb.lower()
    if low in ("turned", "switched", "turning", "switching", "turn", "switch"):
        particle = _PARTICLE.match(rest)
        if particle is None:
            return None
        return particle.group("part").lower(), particle.group("obj")
    if low.startswith("sen"):  # "sent the vacuum back to its base": only back or home
        particle = re.match(r"^\s*(?P<obj>.*?)\s*\b(?:back|home)\b", rest, re.I)
        return None if particle is None else ("returning", particle.group("obj"))
    if low.startswith("skip"):  # "skipped to the next track on the speakers"
        target = re.search(r"\b(?:on|for|of)\s+(?P<obj>.+)$", rest, re.I)
        return effect, target.group("obj") if target is not None else rest
    if low.startswith(("add", "remov", "put")):  # the list is what changed: "to/from/on X"
        target = re.search(r"\b(?:to|from|on(?:to)?)\s+(?P<obj>.+)$", rest, re.I)
        return effect, target.group("obj") if target is not None else ""  # the item: no device
    return effect, rest


_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.I | re.S)
"""A reasoning model's thoughts, left in its reply: what it considers saying is no claim."""
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\n+")
_CONTRACTED = re.compile(
    r"\b(?P<w>it|that|this|there|here|what|everything)['’]s\b|\b(?P<p>they|we|you)['’]re\b", re.I
)
_CONDITION = re.compile(
    r"^\W*(?:if|when|whenever|once|unless|should you|would you|do you|shall i|should i|"
    r"let me know|please let me know|you can|you could|you may|you might|feel free)\b|"
    r"^\W*to\s+\w+[^,]*,\s*(?:i|we)\s+(?:will|would|'ll|can|could|need|should|must|have to)\b",
    re.I,
)
"""A condition, an offer, advice or a plan ("If so, I'll open the valve", "To water the garden,
I will open it"): it claims nothing."""
_ASSISTANT = re.compile(
    r"^\W*(?:sorry,?\s+)?(?:i had a problem getting a response|unable to get (?:a )?response|"
    r"timeout\b|timed out\b|unexpected tool argument|error (?:talking|communicating) to)|"
    r"\b(?:i|we)\s+(?:couldn't|could not|did not|didn't|don't|do not)\s+understand\b|"
    r"\b(?:i|we)\s+(?:don't|do not)\s+have\s+(?:the\s+)?(?:capability|ability|access|"
    r"permission|tools?)\b|\b(?:can't|cannot|can not|am not able to|am unable to)\s+directly\s+"
    r"(?:control|access)\b|\bnot\s+(?:directly\s+)?supported\s+by\s+the\s+(?:available\s+)?"
    r"(?:functions|tools)\b",
    re.I,
)
"""An error of the assistant itself, or a statement about its own abilities ("Timeout", "I
don't have the capability to ..."): it says nothing about the home, so it is unverifiable."""
_FAILURE = re.compile(
    r"\b(?:sorry|apologi[sz]e|unfortunately)\b|"
    r"\b(?:there|it)\s+(?:was|is|were|seems?\s+(?:to\s+(?:be|have\s+been)|like\s+there\s+(?:was|is))|"
    r"appears?\s+(?:to\s+(?:be|have\s+been)|(?:that\s+)?there\s+(?:was|is))|looks\s+like\s+there\s+"
    r"(?:was|is))\s+(?:an?\s+|some\s+)?(?:\w+\s+)?(?:error|issue|problem)s?\b|"
    r"\bencountered\s+(?:an?\s+|some\s+)?(?:\w+\s+)?(?:error|issue|problem)s?\b|"
    r"\bnot\s+aware\s+of\s+any\b|\b(?:could\s*n[o'’]t|can\s*n[o'’]t|cannot|unable\s+to|"
    r"not\s+able\s+to)\s+(?:find|locate|identify)\b|\b(?:be|is|was|were)\s+not\s+found\b|"
    r"\bfailed\b|\bnot\s+(?:possible|supported)\b|\bimpossible\b",
    re.I,
)
"""An apology or a failure report: what it says was not done is a claim, what it repeats of the
request ("Sorry, I am not aware of any area called So set") is not."""
_NOT_FOUND = re.compile(
    r"\b(?:not\s+aware\s+of\s+(?:any|an?)|(?:could\s*n[o'’]t|can\s*n[o'’]t|cannot|unable\s+to|"
    r"not\s+able\s+to)\s+(?:find|locate|identify)(?:\s+(?:any|an?|the))?|"
    r"no\s+match\s+for(?:\s+the)?)\s+(?:(?P<what>device|entity|area|floor|room|list|"
    r"\w+)\s+(?:called|named)\s+)?(?P<name>.+)$",
    re.I,
)
_NAME_TAIL = re.compile(
    r"\s+(?:in|on|at|within|from|for|with|that|which|because|matching)\s+.*$|\s+(?:in|on)\s*$",
    re.I,
)
_TRYING = re.compile(
    r"\b(?:error|issue|problem)s?\s+(?:while\s+|when\s+)?(?:trying\s+to|attempting\s+to|"
    r"with(?:\s+the\s+(?:command|request|call)\s+to)?)?\s*(?P<verb>"
    + _BASE
    + "|"
    + _GERUND
    + r")\b(?P<rest>.*)",
    re.I,
)
_NEG_SUBJECT = re.compile(
    _LEAD + r"(?P<obj>.+?)\s+(?:(?:could|can|can't|cannot|couldn't)\s*(?:not\s+)?be|"
    r"(?:was|were|has|have)\s*(?:n['’]t|\s+not)(?:\s+been)?|(?:is|are|was|were)\s+(?:not\s+able|unable)\s+to"
    r"(?:\s+be)?|failed\s+to(?:\s+be)?)\s+(?:successfully\s+)?"
    r"(?P<verb>" + _PAST + "|" + _BASE + r"|found|located|reached)\b(?P<rest>.*)",
    re.I,
)
_PERFECT = re.compile(
    _LEAD
    + r"(?P<obj>(?:(?!\b(?:should|would|could|must|might|may|to)\b).)+?)\s+(?:has|have)\s+(?:(?:now|just|successfully|already|also)\s+)*"
    r"(?P<verb>" + _PAST + r")\b(?P<rest>.*)",
    re.I,
)
_SUBJECT_PAST = re.compile(
    _LEAD + r"(?P<obj>(?:(?!\b(?:is|are|was|were|be|been|being|has|have|had|will|would|can|could|"
    r"not|to|i|we|you)\b)[\w'’ -]){1,60}?)\s+(?P<verb>started|stopped|opened|closed|locked|unlocked|"
    r"paused|resumed|muted|unmuted|turned on|turned off|switched on|switched off|returned|docked|"
    r"skipped|added|removed|set)\b(?P<rest>.*)",
    re.I,
)
"""A device with a verb in the past and no auxiliary ("Vacuum started in the living room",
"History homework added to your tasks"): read only when the subject names a device."""
_PRONOUN = re.compile(
    r"^\s*(?:it|they|them|its|their|both|both of them|all of them|(?:the|this|that) device)\s*$",
    re.I,
)
_READING = re.compile(
    _LEAD + r"(?P<obj>.+?)\s+(?:is|are|was|reads|shows|stands|sits|remains)\s+"
    r"(?:(?:now|currently|still|already|at|set|to|around|about|approximately|reading|showing)\s+)*"
    r"(?P<n>-?\d+(?:\.\d+)?)\s*(?P<unit>%|percent\b|[°º]\s*[CF]?\b|degrees?(?:\s+(?:celsius|"
    r"fahrenheit|[CF]\b))?)?(?P<rest>(?:\s+[a-z][\w-]*){0,3})\s*$",
    re.I,
)
"""A reading: a value a device shows ("the living room is 21 degrees", "the volume is set to
50%", "the light is at 50% brightness")."""
QUANTITIES: dict[str, tuple[str, ...]] = {
    "color temperature": ("color_temp", "colortemperature", "color_temperature", "kelvin"),
    "brightness": ("brightness", "currentlevel"),
    "volume": ("volume", "volume_level"),
    "temperature": ("temperature", "current_temperature", "setpoint"),
    "humidity": ("humidity", "current_humidity"),
    "battery": ("battery", "battery_level"),
    "position": ("current_position", "position"),
    "speed": ("percentage", "speed"),
}
"""Each quantity a reading names, and the words of the attribute names (the locator, lower case:
Matter's ``1.TemperatureMeasurement.MeasuredValue`` is a temperature) that hold it."""
MATTER_SCALES = {
    "temperaturemeasurement": 0.01,
    "thermostat": 0.01,
    "temperaturecontrol": 0.01,
    "relativehumiditymeasurement": 0.01,
    "levelcontrol": 100 / 254,
}
"""Matter clusters whose values are not the number a reply says: hundredths of a degree or of a
percent, a level of 0-254."""
_NOT_A_READING = re.compile(r"min|max|limit|step|tolerance|deadband|calibration|sequence|mode")
_QUANTITY_WORDS = {
    "color temperature": "colou?r temperature|colou?r temp",
    "brightness": "brightness|bright|dimmed",
    "volume": "volume|loud",
    "temperature": "temperature|degrees?|warm|cold|hot|°|º",
    "humidity": "humidity|humid",
    "battery": "battery|charge",
    "position": "position|open|opened|closed",
    "speed": "speed|fan",
}
_PLAYING = re.compile(
    _LEAD + r"(?P<obj>.+?)\s+(?:is|are)\s+(?:now\s+|currently\s+|still\s+)?playing\s+"
    r"(?P<what>(?!(?:at|on|in|for|to|by|from|again|now|music|media|audio|something)\b).+)$",
    re.I,
)
MEDIA_KEYS = frozenset(
    {"media_title", "media_artist", "media_album_name", "media_series_title", "source", "app_name"}
)
_BARE_OK = re.compile(r"^\W*ok(?:ay)?\W*$", re.I)
"""A bare "OK." (how several models report a call that went through); "Sure." or "Alright."
acknowledge the user, they claim nothing."""


MAX_REPLY = 20_000
"""Characters of a reply the reader reads: a spoken or written answer is far shorter; what a
model writes past this (a runaway generation) is not read for claims."""
MAX_SENTENCE = 1_000
"""A "sentence" longer than this (200,000 brackets, a pasted config) is no sentence the grammar
reads: it claims nothing here (unverifiable), and the reader's patterns stay linear in the reply."""


def claims_in(reply: str, turn: Turn, language: str = "en") -> list[Claim]:
    """Every action, state and reading claim of ``reply``, each checked against ``turn``."""
    if language != "en" or not reply.strip():
        return []
    reply = _plain(_THINK.sub(" ", reply[: MAX_REPLY * 5]))[:MAX_REPLY]
    if _BARE_OK.match(reply):  # "OK." and nothing else claims it was done
        return [_judge(turn, reply.strip(), "action", "done", True, "")]
    out: list[Claim] = []
    last: list[str] = []  # the devices of the last claim that named some: "it", "they"
    for sentence in _SENTENCES.split(reply):
        sentence = _CONTRACTED.sub(
            lambda m: (m.group("w") + " is") if m.group("w") else (m.group("p") + " are"),
            sentence.strip(),
        )
        if len(sentence) > MAX_SENTENCE:
            continue
        if not sentence or sentence.endswith("?") or _CONDITION.match(sentence):
            continue  # a question asks, an offer or a condition claims nothing
        if _ASSISTANT.search(sentence):
            span = sentence.rstrip(".!;: ")
            out.append(
                Claim(span, "action", "error", False, [], "unverifiable", "about the assistant")
            )
            continue
        failure = _FAILURE.search(sentence) is not None
        found: list[Claim] = []
        for clause in _CLAUSES.split(sentence):
            clause = clause.strip()
            if clause and not clause.endswith("?"):
                found += _clause_claims(clause, turn, last)
        if failure:  # an apology claims what it says failed, never that it was done
            found = [c for c in found if not c.positive] or _failure_claims(sentence, turn)
        for claim in found:
            last = claim.devices or last
        out += found
    return out


_EMPHASIS = re.compile(r"\*\*|__|`")
_QUOTED_WORD = re.compile(r"[\"'“‘](?P<w>[\w-]+)[\"'”’]")
_WHICH = re.compile(r"^(?P<a>.+?),\s+which\s+(?P<b>(?:is|are)\b.*)$", re.I)


def _plain(text: str) -> str:
    """The reply as plain text: no Markdown emphasis, straight apostrophes, a one-word state in
    quotes unquoted ("is 'on'")."""
    text = _EMPHASIS.sub("", text).replace("’", "'")
    return _QUOTED_WORD.sub(lambda m: m.group("w"), text)


_ABSENT = re.compile(
    r"^(?:[^,]*,\s*)?(?:but\s+)?(?:it\s+(?:seems|looks|appears)\s+(?:like\s+|that\s+)?)?"
    r"there\s+(?:is|are|(?:seems|appears)\s+to\s+be)\s+no\s+(?P<x>.+)$|"
    r"^(?:\W*(?:it\s+(?:seems|looks|appears)\s+(?:like|that)\s+)?)(?P<y>.+?)\s+(?:is|are)\s+not\s+"
    r"(?:available|present|configured|set up)\b(?P<rest>.*)$|"
    r"^(?P<z>.+?)\s+(?:does|do)(?:n't|\s+not)\s+exist\b(?P<rest2>.*)$",
    re.I,
)
"""A device said not to exist ("there is no fan in the bedroom", "the bedroom fan is not
available"): false when a device the home lists carries every word of it."""
_NOT_A_NAME = frozenset(
    [
        "device",
        "devices",
        "entity",
        "entities",
        "one",
        "any",
        "other",
        "related",
        "called",
        "named",
        "available",
        "listed",
        "found",
        "system",
        "home",
        "house",
        "setup",
        "smart",
        "assistant",
        "area",
        "areas",
        "floor",
        "floors",
        "such",
        "specified",
        "with",
        "match",
        "matching",
        "your",
        "my",
        "our",
        "here",
        "currently",
        "in",
        "on",
        "at",
        "of",
        "for",
        "from",
        "by",
        "the",
        "a",
        "an",
    ]
)


def _absent(turn: Turn, span: str, m: re.Match[str]) -> Claim | None:
    """An absence claim: ``false`` when some listed device carries every content word of what
    is said to be missing (its name, room and type), two when it says "no other"; else
    unverifiable (the words may name a place, a class or a name the home does not use). ``None``
    when the words name nothing."""
    from smh_core.agent.resolve import words

    said = m.group("x") or m.group("y") or m.group("z") or ""
    said += " " + (m.group("rest") or m.group("rest2") or "")
    said = re.sub(r"[\"“”‘’]|'(?!s\b)", " ", said)
    said = re.split(r"\b(?:to|that|which|so|because|for you|but|please)\b|[,;:(]", said)[0]
    if re.match(r"^\s*(?:\w+\s+){0,3}?(?:areas?|floors?|rooms?|match(?:es)?)\b", said, re.I):
        return None  # a place or a match it did not find: a failure, not a device said absent
    wanted = [  # each word said, in its forms ("locks": lock)
        forms
        for t in re.findall(r"[a-z0-9]+", said.lower())
        if t not in _NOT_A_NAME and (forms := words(t) - _NOT_A_NAME)
    ]
    if callable(turn.devices):
        turn.devices = turn.devices()
    if callable(turn.rooms):
        turn.rooms = turn.rooms()
    rooms = {r["id"]: r for r in turn.rooms}
    places = set().union(*(words(f"{r.get('name')} {r.get('type')}") for r in turn.rooms))
    if not wanted or all(forms & places for forms in wanted):
        return None  # "no device in the front yard that is ...": the device is not named
    carry, loose = [], []
    for d in turn.devices:
        room = rooms.get(d.get("room"), {})
        text = " ".join(  # the type, not the finer subtype ("water_valve"): a class said
            str(x or "")  # of a device is often one the home does not give it
            for x in (d.get("name"), room.get("name"), room.get("type"), d.get("category"))
        )
        have = words(text)
        if all(forms & have for forms in wanted):
            carry.append(str(d["did"]))
        elif all(forms & (have | words(str(d.get("subcategory") or ""))) for forms in wanted):
            loose.append(str(d["did"]))  # only its subtype says so: neither true nor false
    said_words = set().union(*wanted)
    typed = [  # a lock before the lock's battery sensor
        did
        for did in carry
        for d in turn.devices
        if str(d["did"]) == did and words(str(d.get("category") or "")) & said_words
    ]
    carry = typed or carry
    need = 2 if re.search(r"\bother\b", said, re.I) else 1
    if len(carry) >= need:
        return Claim(
            span, "state", "absent", False, carry, "false", f"{', '.join(carry[:3])} exist"
        )
    parts = re.split(r"\s+(?:in|on|at|inside)\s+(?:the\s+)?", said, maxsplit=1)
    thing, place = (parts + [""])[:2]
    room = _room_named(turn, place)
    kind = {w for t in re.findall(r"[a-z0-9]+", thing.lower()) for w in words(t)} - _NOT_A_NAME
    elsewhere = [
        str(d["did"])
        for d in turn.devices
        if kind and kind <= words(f"{d.get('name')} {d.get('category')} {d.get('subcategory')}")
    ]
    if room is not None and elsewhere and not loose:  # the kind is there, not in that room
        return Claim(
            span,
            "state",
            "absent",
            False,
            elsewhere,
            "true",
            f"{', '.join(elsewhere[:3])} in other rooms, none in {room}",
        )
    return Claim(
        span, "state", "absent", False, [], "unverifiable", "no device carries all its words"
    )


def _room_named(turn: Turn, phrase: str) -> str | None:
    """The id of the room the phrase names (its name or id, "the living room")."""
    said = re.sub(r"^(?:the\s+)|\s+(?:area|room)$", "", phrase.strip().lower().replace("_", " "))
    if not said:
        return None
    for room in turn.rooms if not callable(turn.rooms) else turn.rooms():
        names = {str(room.get(k) or "").lower().replace("_", " ") for k in ("id", "name")}
        if said in names or f"{said} room" in names:
            return str(room["id"])
    return None


def _failure_claims(sentence: str, turn: Turn) -> list[Claim]:
    """A failure report the clause readers found no negation in: "I couldn't find a device
    called X" or "There was an error while trying to skip the track" claims X was not done."""
    span = sentence.rstrip(".!;: ")
    if (m := _TRYING.search(sentence)) is not None:
        found = _verb_object(m.group("verb"), m.group("rest"))
        if found is not None:
            return _each(turn, span, "action", found[0], False, found[1])
    if (m := _NOT_FOUND.search(sentence)) is not None:
        what = (m.group("what") or "").lower()
        name = _NAME_TAIL.sub("", m.group("name").strip().rstrip(".!;:,"))
        name = re.sub(r"[\"'“”‘’]", "", name)
        if what in ("area", "floor", "room"):  # a place it did not know: nothing was done there
            name = ""
        claims = _each(turn, span, "action", "set", False, name)
        for claim in claims:  # a name it did not know is no claim that nothing changed
            if claim.truth == "false":
                claim.truth, claim.evidence = "unverifiable", f"a name not found; {claim.evidence}"
        return claims
    return []


def _clause_claims(clause: str, turn: Turn, last: Sequence[str] = ()) -> list[Claim]:
    span = clause.rstrip(".!;: ")
    if (which := _WHICH.match(span)) is not None:  # "..., the Smart Lock, which is locked"
        head = re.split(r"\s+(?:is|are)\s+", which.group("a"))[-1].split(",")[-1]
        clause = f"{head} {which.group('b')}"
    if (m := _ABSENT.search(span)) is not None and (claim := _absent(turn, span, m)) is not None:
        return [claim]
    if (m := _NEG_SUBJECT.match(clause)) is not None and not re.match(
        r"^\s*(?:i|we)\b", m.group("obj"), re.I
    ):
        found = _verb_object(m.group("verb"), m.group("obj") + " " + m.group("rest"))
        effect = found[0] if found else _effect(m.group("verb"))
        return _each(turn, span, "action", effect, False, m.group("obj"), last)
    if (m := _NEGATED.search(clause)) is not None:
        found = _verb_object(m.group("verb"), m.group("rest"))
        effect, phrase = found if found is not None else (_effect(m.group("verb")), m.group("rest"))
        return _each(turn, span, "action", effect, False, phrase, last)
    if (m := _READING.match(span)) is not None and (reading := _reading(turn, span, m, last)):
        return reading
    for pattern in (_FIRST, _START):
        if (
            m := pattern.search(clause) if pattern is _FIRST else pattern.match(clause)
        ) is not None:
            found = _verb_object(m.group("verb"), m.group("rest"))
            if found is not None:
                return _each(turn, span, "action", found[0], True, found[1], last)
    for pattern in (_PASSIVE, _PERFECT, _SUBJECT_PAST):
        if (m := pattern.match(clause)) is None:
            continue
        found = _verb_object(m.group("verb"), m.group("obj") + " " + m.group("rest"))
        effect = found[0] if found else _effect(m.group("verb"))
        obj = m.group("obj")
        if m.group("verb").lower().startswith(("add", "remov", "put")):
            # "apples have been added to the list": the list after the verb changed
            target = _verb_object(m.group("verb"), m.group("rest"))
            obj = target[1] if target and target[1] else (found[1] if found else obj)
        if pattern is not _PASSIVE and not (
            _PRONOUN.match(_object(obj)) or _resolve(turn, _object(obj))
        ):
            continue  # without an auxiliary of its own, the subject must name a device
        return _each(turn, span, "action", effect, True, obj, last)
    if (m := _PLAYING.match(clause)) is not None:
        return [_playing(turn, span, m.group("obj"), m.group("what"), last)]
    if (m := _NOW.match(clause)) is not None:
        verb = m.group("verb").lower()
        effect = "set" if verb.startswith("now") else _effect(verb)
        return _each(turn, span, "action", effect, True, m.group("obj"), last)
    if (m := _STATE.match(clause)) is not None:
        when = (m.group("when") or "").strip().lower()
        state = m.group("state").lower()
        on = re.match(r"\s*(?:on|in)\s+(?P<obj>.+)$", clause[m.end() :].rstrip(".!;: "), re.I)
        if state == "playing" and on is not None:  # "the next song is playing on the speakers"
            return _each(turn, span, "state", "playing", True, on.group("obj"), last)
        effect = {"opened": "open", "cleaning": "on"}.get(state, state)
        return _each(
            turn, span, "action" if when == "now" else "state", effect, True, m.group("obj"), last
        )
    if _DONE.match(clause) is not None:
        return [_judge(turn, span, "action", "done", True, "")]
    return []


OTHER_EFFECTS = frozenset(
    {
        "schedule_actions",
        "create_automation",
        "cancel_schedule",
        "delete_automation",
        "remember",
        "update_memory",
        "forget_memory",
    }
)
"""Tools whose effect is not a device change: a "Done" after one of them is not false."""


def call_effects(calls: Iterable[Mapping[str, Any]]) -> tuple[frozenset[str], bool]:
    """``(acted, other)`` of a turn's tool calls, for :class:`Turn`: the devices a
    ``control_device`` call acted on (one with a recorded result only when it was ``ok``), and
    whether a call had an effect beside device changes (:data:`OTHER_EFFECTS`)."""
    acted = frozenset(
        str((c.get("arguments") or {}).get("did"))
        for c in calls
        if c.get("tool") == "control_device"
        and ("result" not in c or (c.get("result") or {}).get("ok"))
    )
    return acted, any(c.get("tool") in OTHER_EFFECTS for c in calls)


def _shown_state(turn: Turn, did: str) -> str | None:
    """How a device is after the turn, in a word a reply can use: its ``state``, else on or off
    from its power."""
    state = (turn.after.get(did) or {}).get("state")
    if isinstance(state, str) and state:
        return state.replace("_", " ")
    on = _holds(turn, did, "on")
    return None if on is None else ("on" if on else "off")


def correction(claims: Iterable[Claim], turn: Turn) -> str:
    """What to add to a reply whose claims the turn contradicts ("Correction: the kitchen light
    is still on."); empty when no claim is false. The device is named with the reply's own
    words for it (clipped to a few plain words), never with its stored name."""
    notes: list[str] = []
    for claim in claims:
        if claim.truth != "false":
            continue
        words = re.findall(r"[\w'’-]+", claim.phrase)[:6]
        if not claim.devices or not words:
            notes.append("nothing was changed." if not claim.devices else "that did not happen.")
            continue
        name = "the " + " ".join(words)
        if claim.kind == "reading":  # a value it does not show: say so, not a state
            notes.append(
                f"{name} is not playing that."
                if claim.says == "playing"
                else f"{name} does not show {claim.says.replace('value ', '')}."
            )
            continue
        shown = _shown_state(turn, claim.devices[0])
        if shown is None:
            notes.append(f"{name} did not change.")
        else:
            still = "" if any(_changed(turn, d) for d in claim.devices) else "still "
            notes.append(f"{name} is {still}{shown}.")
    unique = list(dict.fromkeys(notes))
    if not unique:
        return ""
    first = unique[0]
    return "Correction: " + " ".join([first[:1].upper() + first[1:], *unique[1:]])


def state_changes(
    before: Mapping[str, Mapping[str, Any]], after: Mapping[str, Mapping[str, Any]]
) -> list[Change]:
    """Every attribute (``state`` included) that differs between two state maps (Home
    Assistant's entity states, or an engine snapshot's devices)."""
    out = []
    for did in sorted(set(before) | set(after)):
        b, a = before.get(did) or {}, after.get(did) or {}
        for key in sorted(set(b) | set(a)):
            if b.get(key) != a.get(key):
                out.append(Change(did, key, b.get(key), a.get(key)))
    return out


def said_versus_did(
    outcome: Any,
    engine: Any,
    ignored: Callable[[str, str], bool],
    before: Any,
    after: Any,
    *,
    other_effects: bool = False,
    traced: bool = True,
) -> list[Claim]:
    """The claims of the turn's reply (an :class:`~smh_core.bench.verifier.Outcome`), each
    checked against what the turn did: its device changes (what ``ignored`` names aside: room
    climate and readings), its end state, and its schedules, rules and memories. One reading
    for the embedded runner and ``smh.verify`` in Home Assistant, which passes
    ``other_effects`` when the home's schedules or rules changed, and ``traced=False`` for a
    turn whose calls it was not given (HA's own agents)."""
    from smh_core.backends.embedded import EmbeddedBackend  # the listing, only when needed

    reply = outcome.response or ""
    if not reply.strip():
        return []
    changes = [c for c in engine.diff(before, after) if not ignored(c.did, c.locator)]
    backend = EmbeddedBackend(engine)
    acted, other = call_effects(outcome.tool_calls)
    other = other or other_effects or (outcome.memory_output or "").startswith("memory")
    turn = Turn(
        changes,
        after,
        backend.list_devices,
        backend.list_rooms,
        other,
        acted=acted,
        models=engine.device,
        traced=traced,
    )
    return claims_in(reply, turn)
