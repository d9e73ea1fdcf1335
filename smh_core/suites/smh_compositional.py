"""SMH-Bench TC2, compositional control: one request that touches a *set* of devices.

Five subcategories (paper Table 14/15), all scored as ``execute`` goals: the critic names every
device that must end in the requested state, and preservation (the default) makes every other
device a trap, so picking the wrong set fails even when each call is valid.

* multi_device: 2-4 different operations on different, explicitly named devices;
* batch: one setting on every device of a kind, in the whole home or one room ("all lights to 30%");
* state_dependent: only the devices of a kind that satisfy a state predicate ("lights above 80%");
* room_dependent: devices selected by a room condition (a humidity or temperature reading, motion,
  an AC that is running) or by an exclusion ("except the hallway");
* top_n: the N devices ranking highest or lowest on an attribute ("the two brightest lights").

Selections are only meaningful if some devices are *not* selected, so the three selective
subcategories seed device states through ``overrides`` until the home has both qualifying
devices (which the request changes) and non-qualifying ones (which the same operation would also
change: an agent that ignores the predicate changes them and fails preservation). Readings are
seeded clearly away from thresholds and rankings without ties at the cut, so every selection
has one right answer. Kinds, operations, predicates and rankings are tables, not code.

Every maker takes a wording module (:mod:`smh_core.languages.smh`). English is the tables' own
phrasings, as ever (``tasks/smh.jsonl`` byte for byte); another language says each phrasing its
own way (its block "compositional control": an operation in the imperative and the infinitive,
groups that agree with their noun, places where the language puts them) and draws exactly as
English does: one choice among as many phrasings as English has, in the same order, so task
``i`` selects the same devices in every language.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from smh_core.homeenv.capabilities import setters, switches
from smh_core.homeenv.critic import Compare, Ref
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType
from smh_core.languages.smh import en as EN
from smh_core.languages.smh.render import number, sentence

from .common import lit

COMPOSITIONAL_SUBCATEGORIES = (
    "multi_device",
    "batch",
    "state_dependent",
    "room_dependent",
    "top_n",
)

Member = tuple[str, str]  # (did, namespace prefix such as "" or "light.")
Plan = tuple[list[dict[str, Any]], list[tuple[str, Any]], bool]  # calls, critic pairs, changes?


# ----------------------------------------------------------------------------- tables
@dataclass(frozen=True)
class Op:
    """Set ``attr`` (relative to the device's namespace) to ``value``; ``service`` names a
    no-argument service to call instead of a switch or setter (pause, stop)."""

    attr: str
    value: Any
    says: tuple[str, ...]  # phrasings with {obj}
    service: str | None = None


@dataclass(frozen=True)
class Pred:
    """A state predicate on ``attr``: ``cmp`` is ">", "<" or "=="; seeded from yes/no values."""

    attr: str
    cmp: str
    ref: Any
    yes: tuple[Any, ...]
    no: tuple[Any, ...]
    says: tuple[str, ...]  # plural relative clauses: "whose brightness is above 80%"
    needs_on: bool = True  # a level predicate means the device is running
    gaps: tuple[float, float] = (5, 10)  # how far past (yes) or short of (no) ``ref`` is clear

    def holds(self, value: Any) -> bool:
        if self.cmp == ">":
            return value > self.ref
        if self.cmp == "<":
            return value < self.ref
        return value == self.ref


@dataclass(frozen=True)
class Rank:
    """An attribute devices can be ranked on; ``order`` for ordinal text values."""

    attr: str
    grid: tuple[Any, ...]
    high: tuple[str, ...]  # phrasings with {n} ("two " or "") and {noun}
    low: tuple[str, ...]
    order: tuple[str, ...] | None = None

    def key(self, value: Any) -> Any:
        return self.order.index(value) if self.order else value


@dataclass(frozen=True)
class Kind:
    plural: tuple[str, ...]
    singular: str
    members: dict[str, str]  # subcategory -> namespace prefix
    ops: tuple[Op, ...]
    preds: tuple[Pred, ...] = ()
    ranks: tuple[Rank, ...] = ()
    power: bool = True  # has an on/off state at "<ns>state"


def _onoff() -> tuple[Op, Op]:
    return (
        Op("state", "on", ("turn on {obj}", "switch on {obj}", "switch {obj} on")),
        Op("state", "off", ("turn off {obj}", "switch off {obj}", "shut off {obj}")),
    )


def _levels(attr: str, values: Sequence[Any], says: tuple[str, ...]) -> tuple[Op, ...]:
    return tuple(
        Op(
            attr,
            v,
            tuple(s.replace("{v}", f"{v:g}" if isinstance(v, float) else str(v)) for s in says),
        )
        for v in values
    )


def _above(
    attr: str,
    t: int,
    grid: Sequence[Any],
    says: tuple[str, ...],
    needs_on: bool = True,
    gaps: tuple[float, float] = (5, 10),
) -> Pred:
    return Pred(
        attr,
        ">",
        t,
        tuple(v for v in grid if v >= t + gaps[0]),
        tuple(v for v in grid if v <= t - gaps[1]),
        tuple(s.replace("{t}", str(t)) for s in says),
        needs_on,
        gaps,
    )


def _below(
    attr: str,
    t: int,
    grid: Sequence[Any],
    says: tuple[str, ...],
    needs_on: bool = True,
    gaps: tuple[float, float] = (5, 10),
) -> Pred:
    return Pred(
        attr,
        "<",
        t,
        tuple(v for v in grid if v <= t - gaps[0]),
        tuple(v for v in grid if v >= t + gaps[1]),
        tuple(s.replace("{t}", str(t)) for s in says),
        needs_on,
        gaps,
    )


def _is(
    attr: str, value: Any, others: tuple[Any, ...], says: tuple[str, ...], needs_on: bool = True
) -> Pred:
    return Pred(attr, "==", value, (value,), others, says, needs_on)


PCT = tuple(range(5, 101, 5))
_BRIGHT = ("set {obj} to {v}% brightness", "put {obj} at {v}%", "bring {obj} to {v}% brightness")
_ON_PRED = ("that are on", "that are still on", "currently switched on")
_RUNNING = ("that are running", "that are currently on", "still running")

KINDS: dict[str, Kind] = {
    "lights": Kind(
        ("lights", "lamps"),
        "light",
        {
            "light": "",
            "color_temperature_light": "",
            "color_light": "",
            "light_strip": "",
            "fan_light": "light.",
        },
        (
            *_onoff(),
            *_levels("brightness", (10, 20, 25, 30, 40, 50, 60, 75, 100), _BRIGHT),
            Op(
                "color_temperature",
                2700,
                ("set {obj} to warm white (2700 K)", "switch {obj} to the warmest white"),
            ),
            Op(
                "color_temperature",
                6500,
                ("set {obj} to cool daylight (6500 K)", "switch {obj} to the coolest white"),
            ),
            Op("color_temperature", 4000, ("set {obj} to neutral 4000 K white",)),
        ),
        (
            *(
                _above(
                    "brightness",
                    t,
                    PCT,
                    (
                        "whose brightness is above {t}%",
                        "brighter than {t}%",
                        "set above {t}% brightness",
                    ),
                )
                for t in (60, 70, 80)
            ),
            *(
                _below(
                    "brightness",
                    t,
                    PCT,
                    (
                        "whose brightness is below {t}%",
                        "dimmer than {t}%",
                        "set under {t}% brightness",
                    ),
                )
                for t in (20, 30, 40)
            ),
            _is("state", "on", ("off",), _ON_PRED, needs_on=False),
        ),
        (
            Rank(
                "brightness",
                PCT,
                ("the {n}brightest {noun}", "the {n}{noun} with the highest brightness"),
                ("the {n}dimmest {noun}", "the {n}{noun} with the lowest brightness"),
            ),
        ),
    ),
    "fans": Kind(
        ("fans",),
        "fan",
        {"smart_fan": "", "fan_light": "fan."},
        (
            *_onoff(),
            *_levels(
                "speed_level",
                ("low", "medium", "high"),
                ("set {obj} to {v} speed", "switch {obj} to {v} speed"),
            ),
            *_levels(
                "preset_mode",
                ("normal", "natural", "sleep"),
                ("put {obj} in {v} mode", "switch {obj} to {v} mode"),
            ),
            Op(
                "oscillation_enabled",
                True,
                ("turn on oscillation for {obj}", "make {obj} oscillate"),
            ),
            Op(
                "oscillation_enabled",
                False,
                ("turn off oscillation on {obj}", "stop {obj} from oscillating"),
            ),
        ),
        (
            _is(
                "speed_level",
                "high",
                ("low", "medium"),
                ("that are on high", "currently on high speed", "set to high speed"),
            ),
            _is(
                "preset_mode",
                "sleep",
                ("normal", "natural"),
                ("in sleep mode", "running in sleep mode"),
            ),
            _is("state", "on", ("off",), _RUNNING, needs_on=False),
        ),
        (
            Rank(
                "speed_level",
                ("low", "medium", "high"),
                ("the {n}fastest {noun}", "the {n}{noun} with the highest speed"),
                ("the {n}slowest {noun}", "the {n}{noun} on the lowest speed"),
                order=("low", "medium", "high"),
            ),
        ),
    ),
    "acs": Kind(
        ("air conditioners", "ACs"),
        "AC",
        {"floor_ac": "", "ac_gateway": "", "air_cube": ""},
        (
            *_onoff(),
            *_levels(
                "ac_mode",
                ("cool", "heat", "dry", "auto"),
                ("set {obj} to {v} mode", "switch {obj} to {v} mode"),
            ),
            *_levels(
                "target_temperature",
                (22.0, 23.0, 24.0, 25.0, 26.0),
                ("set {obj} to {v} degrees", "put {obj} at {v} degrees"),
            ),
        ),
        (
            _is(
                "ac_mode",
                "heat",
                ("cool", "auto", "dry"),
                ("in heat mode", "set to heating"),
                needs_on=False,
            ),
            _below(
                "target_temperature",
                22,
                tuple(float(x) for x in range(16, 31)),
                ("set below 22 degrees", "whose target temperature is under 22 degrees"),
                False,
                (2, 2),
            ),
            _is("state", "on", ("off",), _RUNNING, needs_on=False),
        ),
        (
            Rank(
                "target_temperature",
                tuple(float(x) for x in range(17, 30)),
                (
                    "the {n}{noun} with the warmest setting",
                    "the {n}{noun} with the highest target temperature",
                ),
                (
                    "the {n}{noun} with the coldest setting",
                    "the {n}{noun} with the lowest target temperature",
                ),
            ),
        ),
    ),
    "covers": Kind(
        ("curtains and blinds", "window coverings"),
        "window covering",
        {"curtain": "", "blind": ""},
        (
            Op("position", 0, ("close {obj}", "shut {obj}", "draw {obj} closed")),
            Op("position", 100, ("open {obj}", "open {obj} all the way", "fully open {obj}")),
            Op("position", 50, ("open {obj} halfway", "open {obj} half way")),
            *_levels("position", (25, 75), ("set {obj} to {v}% open", "open {obj} to {v}%")),
        ),
        (
            _above(
                "position",
                50,
                tuple(range(0, 101, 10)),
                ("open more than halfway", "more than half open"),
                False,
            ),
            _is(
                "position", 0, (30, 50, 70, 100), ("that are fully closed", "that are shut"), False
            ),
        ),
        (
            Rank(
                "position",
                tuple(range(0, 101, 10)),
                ("the {n}most open {noun}", "the {n}{noun} open the widest"),
                ("the {n}most closed {noun}", "the {n}{noun} open the least"),
            ),
        ),
        power=False,
    ),
    "media": Kind(
        ("speakers and smart screens", "media players"),
        "media player",
        {"universal_speaker": "player.", "smart_screen": ""},
        (
            *_onoff(),
            *_levels(
                "volume_level",
                (10, 20, 25, 30, 40),
                ("set the volume on {obj} to {v}", "turn {obj} to volume {v}"),
            ),
            Op(
                "work_state",
                "paused",
                ("pause {obj}", "pause whatever is playing on {obj}"),
                service="pause",
            ),
            Op("volume_muted_enabled", True, ("mute {obj}",), service="mute"),
        ),
        (
            _above("volume_level", 50, PCT, ("with the volume above 50", "louder than volume 50")),
            _is("state", "on", ("off",), _ON_PRED, needs_on=False),
        ),
        (
            Rank(
                "volume_level",
                PCT,
                ("the {n}loudest {noun}", "the {n}{noun} with the highest volume"),
                ("the {n}quietest {noun}", "the {n}{noun} with the lowest volume"),
            ),
        ),
    ),
    "water_heaters": Kind(
        ("water heaters",),
        "water heater",
        {"electric_water_heater": ""},
        (
            *_onoff(),
            *_levels(
                "target_water_temperature",
                (40, 45, 50, 55),
                ("set {obj} to {v} degrees", "heat {obj} to {v} degrees"),
            ),
            Op("work_mode", "eco", ("put {obj} in eco mode", "switch {obj} to eco mode")),
        ),
        (
            _above(
                "target_water_temperature",
                55,
                tuple(range(30, 76, 5)),
                ("set above 55 degrees", "hotter than 55 degrees"),
                False,
            ),
        ),
        (
            Rank(
                "target_water_temperature",
                tuple(range(30, 76, 5)),
                ("the {n}hottest {noun}", "the {n}{noun} with the hottest setting"),
                ("the {n}coolest {noun}", "the {n}{noun} with the lowest setting"),
            ),
        ),
    ),
    "dehumidifiers": Kind(
        ("dehumidifiers",),
        "dehumidifier",
        {"dehumidifier": ""},
        (
            *_onoff(),
            *_levels(
                "target_humidity",
                (40, 45, 50),
                ("set {obj} to {v}% humidity", "have {obj} aim for {v}%"),
            ),
        ),
    ),
    "humidifiers": Kind(
        ("humidifiers",),
        "humidifier",
        {"humidifier": ""},
        (
            *_onoff(),
            *_levels(
                "target_humidity",
                (45, 50, 55),
                ("set {obj} to {v}% humidity", "have {obj} aim for {v}%"),
            ),
        ),
    ),
    "purifiers": Kind(
        ("air purifiers", "purifiers"),
        "air purifier",
        {"air_purifier": ""},
        (
            *_onoff(),
            *_levels(
                "work_mode",
                ("sleep", "auto"),
                ("put {obj} in {v} mode", "switch {obj} to {v} mode"),
            ),
        ),
    ),
}
"""Device kinds a user names as a group, what can be done to them, and how they are selected."""

BY_SUBCATEGORY: dict[str, list[str]] = {}
for _name, _kind in KINDS.items():
    for _sub in _kind.members:
        BY_SUBCATEGORY.setdefault(_sub, []).append(_name)


@dataclass(frozen=True)
class RoomCond:
    """A room qualifies if it holds a ``subcats`` device and all of them read ``yes`` values."""

    subcats: frozenset[str]
    pred: Pred
    says: tuple[str, ...]  # "rooms where ..." phrases
    targets: tuple[tuple[str, str, Any], ...]  # (kind, op attr, op value or None for any)
    seed_extra: dict[str, dict[str, Any]] = field(
        default_factory=dict
    )  # yes/no -> values seeded along


ROOM_CONDS: tuple[RoomCond, ...] = (
    *(
        RoomCond(
            frozenset({"climate_sensor"}),
            _above(
                "current_humidity", h, tuple(float(x) for x in range(30, 96, 3)), (), False, (5, 8)
            ),
            (
                f"rooms where the humidity is above {h}%",
                f"any room whose humidity sensor reads over {h}%",
                f"rooms more humid than {h}%",
            ),
            (
                ("fans", "state", "on"),
                ("dehumidifiers", "state", "on"),
                ("acs", "ac_mode", "dry"),
                ("acs", "state", "on"),
            ),
        )
        for h in (60, 65, 70)
    ),
    *(
        RoomCond(
            frozenset({"climate_sensor"}),
            _above(
                "current_temperature", t, tuple(float(x) for x in range(16, 36)), (), False, (2, 3)
            ),
            (
                f"rooms warmer than {t} degrees",
                f"any room where the temperature is above {t} degrees",
                f"rooms whose sensor reads over {t} degrees",
            ),
            (
                ("acs", "state", "on"),
                ("acs", "ac_mode", "cool"),
                ("fans", "state", "on"),
                ("covers", "position", 0),
            ),
        )
        for t in (26, 27, 28)
    ),
    RoomCond(
        frozenset({"human_sensor"}),
        _is("human_detected", "yes", ("no",), (), False),
        (
            "rooms where motion is detected",
            "any room where someone is moving around",
            "rooms where the motion sensor sees someone",
        ),
        (("lights", "state", "on"), ("lights", "brightness", None), ("fans", "state", "on")),
        {"yes": {"no_move_duration": 0}, "no": {"no_move_duration": 1800}},
    ),
    RoomCond(
        frozenset({"floor_ac", "ac_gateway", "air_cube"}),
        _is("state", "on", ("off",), (), False),
        (
            "rooms where the AC is on",
            "any room with the air conditioning running",
            "rooms where the AC is running",
        ),
        (("covers", "position", 0), ("fans", "state", "off"), ("lights", "state", "off")),
    ),
)
"""Room conditions of the room-dependent subcategory and the requests that make sense there."""

_NUMBERS = {1: "", 2: "two ", 3: "three "}
_DONE = ("Done.", "All set.", "Done, those are updated.", "Okay, done.")


# ----------------------------------------------------------------------------- helpers
def _critic(targets: list[tuple[str, list[tuple[str, Any]]]]) -> str:
    """``device(a).x == 1 and device(a).y == 2; device(b).x == 1``: one clause per device."""
    return "; ".join(
        " and ".join(Compare(Ref(did, loc), "==", lit(v)).to_text() for loc, v in pairs)
        for did, pairs in targets
    )


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _members(engine: HomeEngine, kind: Kind, rooms: set[str] | None = None) -> list[Member]:
    out = []
    for did in engine.device_ids():
        ud = engine.device(did).userdata
        if ud.subcategory in kind.members and (rooms is None or ud.room in rooms):
            out.append((did, kind.members[ud.subcategory]))
    return out


def _trial(engine: HomeEngine, overrides: dict[str, dict[str, Any]]) -> HomeEngine | None:
    """A copy of the home with the overrides applied (``None`` if one is invalid)."""
    trial = HomeEngine(engine.home)
    trial.restore(engine.snapshot())
    for did, values in overrides.items():
        if not trial.set_values(did, values).ok:
            return None
    return trial


def _plan(trial: HomeEngine, member: Member, op: Op) -> Plan | None:
    """The calls that apply ``op`` to one device, the critic pairs they reach and whether
    anything changes; ``None`` if the device cannot do it (then it is not of the selection)."""
    did, ns = member
    device = trial.device(did)
    loc = ns + op.attr
    status = trial.status(did)
    if loc not in status:
        return None
    spec = dict(device.attributes_by_locator())[loc]
    value = float(op.value) if spec.type == AttrType.FLOAT else op.value
    sw, st = switches(device), setters(device)
    if op.service is not None:
        if ns + op.service not in trial.services(did):
            return None
        calls = [{"did": did, "locator": ns + op.service, "arguments": {}}]
    elif loc in sw and value in (sw[loc].on_value, sw[loc].off_value):
        calls = [
            {
                "did": did,
                "locator": sw[loc].on_service if value == sw[loc].on_value else sw[loc].off_service,
                "arguments": {},
            }
        ]
    elif loc in st:
        calls = [{"did": did, "locator": st[loc].service, "arguments": {st[loc].argument: value}}]
    else:
        return None
    power = sw.get(ns + "state")
    snap = trial.snapshot()
    try:
        if not all(r.ok for r in trial.execute_many(calls)):
            if power is None or op.attr == "state":
                return None
            calls.insert(0, {"did": did, "locator": power.on_service, "arguments": {}})
            if not all(r.ok for r in trial.execute_many(calls)):
                return None
        if trial.value(did, loc) != value:
            return None
        pairs = [(loc, value)]
        if (
            power is not None
            and op.attr != "state"
            and trial.value(did, ns + "state") == power.on_value
        ):
            pairs.insert(0, (ns + "state", power.on_value))
        changed = any(trial.value(did, p) != status[p] for p, _ in pairs)
        return calls, pairs, changed
    finally:
        trial.restore(snap)


Said = tuple[str, str]
"""A clause in the two verb forms a request frame may need: the imperative ("schalte die
Lampe ein") and the infinitive ("die Lampe einschalten", after "Kannst du"); alike in English
and Chinese."""


def _say(
    rng: random.Random, op: Op, obj: str, w: ModuleType = EN, kind: Kind | None = None
) -> Said:
    """One of ``op``'s phrasings on ``obj``, drawn as the English one is (one choice among
    as many phrasings as English has), in the language of ``w``."""
    i = rng.choice(range(len(op.says)))
    if w is EN:
        said = op.says[i].format(obj=obj)
        return said, said
    assert kind is not None
    imp, inf = _local_says(w, kind, op)[i]
    v = _local_value(w, kind, op) if "{v}" in imp + inf else ""
    return imp.format(obj=obj, v=v), inf.format(obj=obj, v=v)


def _kind_name(kind: Kind) -> str:
    return next(name for name, k in KINDS.items() if k is kind)


def _local_says(w: ModuleType, kind: Kind, op: Op) -> tuple[Any, ...]:
    """The phrasings of ``op`` in ``w`` (as many as English has), never English: a missing one
    is an error."""
    table = w.COMP_OPS[_kind_name(kind)]
    says = table.get((op.attr, op.value), table.get(op.attr))
    if says is None or len(says) != len(op.says):
        raise LookupError(f"{w.__name__} has no {len(op.says)} phrasings of {op}")
    return says


def _local_value(w: ModuleType, kind: Kind, op: Op) -> str:
    """The value an op's phrasing names ({v}): a word of the language or a number."""
    if isinstance(op.value, str):
        words = w.COMP_VALUES[_kind_name(kind)]
        if op.value not in words:
            raise LookupError(f"no {w.__name__} word for {op.value!r} of {_kind_name(kind)}")
        return words[op.value]
    return number(w, op.value)


def _kind_words(w: ModuleType, kind: Kind, noun: int) -> dict[str, str]:
    """A kind's words in ``w``: the ``noun``-th plural and whatever agreement its templates
    need (gender, article, measure word)."""
    return w.comp_kind(_kind_name(kind), noun)


def _joined(w: ModuleType, clauses: list[Said]) -> Said:
    """Clauses joined form by form ("a, b and c")."""
    if w is EN:
        return _join([c[0] for c in clauses]), _join([c[1] for c in clauses])
    return w.join([c[0] for c in clauses]), w.join([c[1] for c in clauses])


def _tidy(w: ModuleType, frame: str, **parts: str) -> str:
    """A frame filled in, as the language writes it (French elision, first letter upper)."""
    return sentence(w.tidy(frame.format(**parts)))


def _say_en(rng: random.Random, op: Op, obj: str) -> str:
    """An English phrasing (the subcategories not yet written in other languages)."""
    return _say(rng, op, obj)[0]


def _request_en(rng: random.Random, clause: str) -> str:
    """An English request (the subcategories not yet written in other languages)."""
    return _request(rng, (clause, clause))


def _request(rng: random.Random, clause: Said, w: ModuleType = EN) -> str:
    """Wrap an imperative clause in one of several polite frames."""
    frames = [
        "{c}.",
        "Please {c}.",
        "Could you {c}?",
        "Can you {c} for me?",
        "I'd like you to {c}.",
    ]
    i = rng.choice(range(len(frames)))
    if w is EN:
        return _cap(frames[i].format(c=clause[0]))
    return _tidy(w, w.COMP_REQUEST[i], imp=clause[0], inf=clause[1])


def _seed(rng: random.Random, value: Any, pred: Pred, yes: bool) -> Any | None:
    """``None`` if ``value`` is already clearly on the wanted side of ``pred`` (thresholds: 5
    or more past it, 10 or more short of it), else a fresh value that is."""
    if pred.cmp == "==":
        clear = pred.holds(value) == yes
    else:
        sign = 1 if pred.cmp == ">" else -1
        margin = sign * (value - pred.ref)
        clear = margin >= pred.gaps[0] if yes else margin <= -pred.gaps[1]
    return None if clear else rng.choice(pred.yes if yes else pred.no)


def _power_on(
    engine: HomeEngine, kind: Kind, member: Member, out: dict[str, dict[str, Any]]
) -> None:
    did, ns = member
    sw = switches(engine.device(did)).get(ns + "state")
    if kind.power and sw is not None and engine.value(did, ns + "state") != sw.on_value:
        out.setdefault(did, {})[ns + "state"] = sw.on_value


def _scope(
    engine: HomeEngine, rng: random.Random, kind: Kind, least: int, w: ModuleType = EN
) -> tuple[list[Member], str, str | None] | None:
    """The whole home or one room (with none of the kind in rooms nested inside it) holding at
    least ``least`` of the kind, the words for it ("" or " in the Study") and the room's name."""
    everything = _members(engine, kind)
    # a device in no room (a real home's twin has them) belongs to the whole home only
    rooms = sorted({engine.device(d).userdata.room for d, _ in everything} - {None})
    local = [
        r
        for r in rooms
        if len(_members(engine, kind, {r})) >= least
        and len(_members(engine, kind, engine.subrooms(r))) == len(_members(engine, kind, {r}))
    ]
    if local and rng.random() < 0.4:
        room = rng.choice(local)
        i = rng.choice(range(3))
        name = engine.room(room).name  # type: ignore[union-attr]
        where = (
            [" in the {r}", " in the {r}", " over in the {r}"][i].format(r=name)
            if w is EN
            else w.COMP_IN_ROOM[i].format(**w.room_parts(name))
        )
        return _members(engine, kind, {room}), where, engine.room(room).name  # type: ignore[union-attr]
    if len(everything) < least:
        return None
    i = rng.choice(range(4))
    home = ["", " in the house", " in the whole home", " around the house"]
    return everything, home[i] if w is EN else w.COMP_IN_HOME[i], None


def _kinds_with(engine: HomeEngine, rng: random.Random, least: int) -> list[str]:
    names = [n for n, k in KINDS.items() if len(_members(engine, k)) >= least]
    rng.shuffle(names)
    return names


def _result(
    sub: str,
    text: str,
    targets: list[tuple[str, list[tuple[str, Any]]]],
    calls: list[dict[str, Any]],
    overrides: dict[str, dict[str, Any]],
    rng: random.Random,
    w: ModuleType = EN,
) -> dict[str, Any]:
    done = rng.choice(range(len(_DONE)))
    out: dict[str, Any] = {
        "subcategory": sub,
        "text": text,
        "goal": {"kind": "execute", "critic": _critic(targets)},
        "reference": {
            "mode": "execute",
            "response": _DONE[done] if w is EN else w.COMP_DONE[done],
            "actions": calls,
        },
    }
    if overrides:
        out["overrides"] = [
            {"did": did, "values": values} for did, values in sorted(overrides.items())
        ]
    return out


def _apply(
    trial: HomeEngine, members: list[Member], ops: list[Op]
) -> tuple[list, list, bool] | None:
    """Plans of ``ops`` for every member: (critic targets, calls, anything changes) or ``None``
    if some member cannot do some op (all selected devices must support the request)."""
    targets, calls, changed = [], [], False
    for member in members:
        pairs: list[tuple[str, Any]] = []
        for op in ops:
            plan = _plan(trial, member, op)
            if plan is None:
                return None
            pairs += [p for p in plan[1] if p not in pairs]
            if plan[2]:
                calls += [c for c in plan[0] if c not in calls]
                changed = True
        targets.append((member[0], pairs))
    return targets, calls, changed


def _any_changes(trial: HomeEngine, members: list[Member], ops: list[Op]) -> bool:
    """Would applying ``ops`` to ``members`` change any of them? (A wrong selection must show.)"""
    for member in members:
        for op in ops:
            plan = _plan(trial, member, op)
            if plan is not None and plan[2]:
                return True
    return False


# ----------------------------------------------------------------------------- subcategories
def _multi_device(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN
) -> dict[str, Any] | None:
    dids = [
        d for d in engine.device_ids() if engine.device(d).userdata.subcategory in BY_SUBCATEGORY
    ]
    rng.shuffle(dids)
    want = rng.choice([2, 2, 3, 3, 4])
    targets, calls, clauses = [], [], []
    for did in dids:
        if len(targets) == want:
            break
        device = engine.device(did)
        kind = KINDS[rng.choice(BY_SUBCATEGORY[device.userdata.subcategory])]
        member = (did, kind.members[device.userdata.subcategory])
        for op in rng.sample(kind.ops, min(4, len(kind.ops))):
            plan = _plan(engine, member, op)
            if plan is not None and plan[2]:
                targets.append((did, plan[1]))
                calls += plan[0]
                the = f"the {device.name}" if w is EN else w.device_parts(device.name)["dev"]
                clauses.append(_say(rng, op, the, w, kind))
                break
    if len(targets) < 2:
        return None
    frame = rng.choice(["list", "list", "then", "also"])
    if frame == "list":
        text = _request(rng, _joined(w, clauses), w)
    elif w is not EN:
        first, rest = clauses[0][0], _joined(w, clauses[1:])[0]
        text = _tidy(w, w.COMP_THEN if frame == "then" else w.COMP_ALSO, first=first, rest=rest)
    elif frame == "then":
        text = _cap(f"First {clauses[0][0]}, then {_join([c[0] for c in clauses[1:]])}.")
    else:
        text = _cap(f"{clauses[0][0]}; also {_join([c[0] for c in clauses[1:]])}, please.")
    return _result("multi_device", text, targets, calls, {}, rng, w)


def _batch(engine: HomeEngine, rng: random.Random, w: ModuleType = EN) -> dict[str, Any] | None:
    for name in _kinds_with(engine, rng, 2):
        kind = KINDS[name]
        scope = _scope(engine, rng, kind, 2, w)
        if scope is None:
            continue
        members, where, _ = scope
        ops = list(kind.ops)
        rng.shuffle(ops)
        for op in ops[:6]:
            extra = [o for o in kind.ops if o.attr not in (op.attr, "state") and op.attr != "state"]
            chosen = [op] + ([rng.choice(extra)] if extra and rng.random() < 0.3 else [])
            made = _apply(engine, members, chosen)
            if made is None or not made[2]:
                continue
            targets, calls, _ = made
            noun = rng.choice(range(len(kind.plural)))
            said = rng.choice(range(4))
            if w is EN:
                obj = [
                    f"all the {kind.plural[noun]}{where}",
                    f"all {kind.plural[noun]}{where}",
                    f"every {kind.singular}{where}",
                    f"each of the {kind.plural[noun]}{where}",
                ][said]
                them = "them"
            else:
                obj = w.COMP_ALL[said].format(**_kind_words(w, kind, noun), where=where)
                them = w.COMP_THEM.format(**_kind_words(w, kind, noun))
            clause = _say(rng, chosen[0], obj, w, kind)
            if len(chosen) > 1:
                second = _say(rng, chosen[1], them, w, kind)
                clause = _joined(w, [clause, second])
            return _result("batch", _request(rng, clause, w), targets, calls, {}, rng, w)
    return None


def _split(rng: random.Random, members: list[Member]) -> tuple[list[Member], list[Member]]:
    """A random non-trivial split of ``members`` into (selected, not selected)."""
    shuffled = members[:]
    rng.shuffle(shuffled)
    k = rng.randint(1, len(shuffled) - 1)
    return sorted(shuffled[:k]), sorted(shuffled[k:])


def _scoped[T](
    engine: HomeEngine,
    rng: random.Random,
    options: Callable[[Kind], Iterable[T]],
    w: ModuleType = EN,
) -> Iterator[tuple[Kind, Any, list[T]]]:
    """Per kind of device with two or more in a drawn scope: the kind, the scope and the options
    (predicates, rankings) every member of the scope has the attribute for; lazily, so the draws
    happen in the order the caller consumes them."""
    for name in _kinds_with(engine, rng, 2):
        kind = KINDS[name]
        scope = _scope(engine, rng, kind, 2, w)
        usable = [
            o
            for o in options(kind)
            if scope and all(ns + o.attr in engine.status(d) for d, ns in scope[0])
        ]
        if scope is None or not usable:
            continue
        yield kind, scope, usable


def _state_dependent(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN
) -> dict[str, Any] | None:
    for kind, (members, _, room), preds in _scoped(engine, rng, lambda k: k.preds, w):
        pred = rng.choice(preds)
        yes, no = _split(rng, members)
        overrides: dict[str, dict[str, Any]] = {}
        for group, wanted in ((yes, True), (no, False)):
            for member in group:
                if pred.needs_on:
                    _power_on(engine, kind, member, overrides)
                new = _seed(rng, engine.value(member[0], member[1] + pred.attr), pred, wanted)
                if new is not None:
                    overrides.setdefault(member[0], {})[member[1] + pred.attr] = new
        trial = _trial(engine, overrides)
        if trial is None:
            continue
        ops = [o for o in kind.ops if not (o.attr == pred.attr and o.value == pred.ref)]
        rng.shuffle(ops)
        for op in ops[:6]:
            made = _apply(trial, yes, [op])
            if (
                made is None
                or not all(_plan(trial, m, op)[2] for m in yes)
                or not _any_changes(trial, no, [op])
            ):  # type: ignore[index]
                continue
            targets, calls, _ = made
            if w is not EN:
                text = _state_local(rng, w, kind, pred, op, room)
                return _result("state_dependent", text, targets, calls, overrides, rng, w)
            noun = rng.choice(kind.plural)
            obj = rng.choice(
                [
                    f"the {noun} {{p}}",
                    f"all the {noun} {{p}}",
                    f"any {noun} {{p}}",
                    f"every one of the {noun} {{p}}",
                ]
            ).format(p=rng.choice(pred.says))
            text = _request_en(rng, _say_en(rng, op, obj))
            if room is not None:
                text = (
                    f"{room}: {text}"
                    if rng.random() < 0.3
                    else f"In the {room}, {text[0].lower()}{text[1:]}"
                )
            return _result("state_dependent", text, targets, calls, overrides, rng)
    return None


def _state_local(
    rng: random.Random, w: ModuleType, kind: Kind, pred: Pred, op: Op, room: str | None
) -> str:
    """A state-dependent request in ``w``'s language, drawn as the English one is: the group's
    noun, the frame ("all the …"), the predicate's phrasing, the operation, the request frame,
    and for a room the way it is put first ("Kitchen: …" or "In the kitchen, …")."""
    name = _kind_name(kind)
    noun = rng.choice(range(len(kind.plural)))
    frame = w.COMP_WHICH[rng.choice(range(4))]
    says = w.COMP_PREDS[name].get((pred.attr, pred.cmp), ())
    if len(says) != len(pred.says):
        raise LookupError(f"{w.__name__} has not as many phrasings of {pred} as English")
    words = _kind_words(w, kind, noun)
    said = says[rng.choice(range(len(says)))].format(kinds=words["kinds"], t=number(w, pred.ref))
    text = _request(rng, _say(rng, op, frame.format(**words, x=said), w, kind), w)
    if room is None:
        return text
    put = w.COMP_ROOM_SAID[0 if rng.random() < 0.3 else 1]
    return _tidy(w, put, **w.room_parts(room), text=text, text_low=_lower_first(text))


def _lower_first(text: str) -> str:
    """``text`` with its first letter lower case (after an opening ``¿``)."""
    for i, c in enumerate(text):
        if c.isalpha():
            return text[:i] + c.lower() + text[i + 1 :]
    return text


def _room_of(engine: HomeEngine, did: str) -> str | None:
    return engine.device(did).userdata.room


def _ancestors(engine: HomeEngine, room: str | None) -> list[str]:
    out: list[str] = []
    if room is None:  # a device in no room is inside nothing
        return out
    parent = engine.room(room).parent  # type: ignore[union-attr]
    while parent:
        out.append(parent)
        parent = engine.room(parent).parent  # type: ignore[union-attr]
    return out


def _room_dependent(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN
) -> dict[str, Any] | None:
    fits = []  # (condition, target) pairs with a target device in a sensed room
    for cond in ROOM_CONDS:
        sensed_rooms = {
            _room_of(engine, d)
            for d in engine.device_ids()
            if engine.device(d).userdata.subcategory in cond.subcats
            and _room_of(engine, d) is not None  # a reading in no room senses no room
        }
        fits += [
            (cond, t)
            for t in cond.targets
            if any(_room_of(engine, d) in sensed_rooms for d, _ in _members(engine, KINDS[t[0]]))
        ]
    if not fits or rng.random() < 0.3:
        return _room_except(engine, rng, w)
    cond, (kind_name, attr, value) = rng.choice(fits)
    sensors = [
        d
        for d in engine.device_ids()
        if engine.device(d).userdata.subcategory in cond.subcats and _room_of(engine, d) is not None
    ]
    sensed = sorted({_room_of(engine, d) for d in sensors})
    kind = KINDS[kind_name]
    ops = [o for o in kind.ops if o.attr == attr and (value is None or o.value == value)]
    op = rng.choice(ops)
    members = [
        m
        for m in _members(engine, kind)
        if engine.device(m[0]).userdata.subcategory not in cond.subcats
    ]
    if not members:
        return None
    # A device in a room without its own reading but nested in a sensed room has no clear answer.
    if any(
        _room_of(engine, d) not in sensed
        and set(_ancestors(engine, _room_of(engine, d))) & set(sensed)
        for d, _ in members
    ):
        return None
    target_rooms = [r for r in sensed if any(_room_of(engine, d) == r for d, _ in members)]
    if not target_rooms:
        return None
    rng.shuffle(target_rooms)
    yes_rooms = set(target_rooms[: rng.randint(1, len(target_rooms))])
    others = [r for r in sensed if r not in yes_rooms]
    yes_rooms |= {r for r in others if r not in target_rooms and rng.random() < 0.5}
    overrides: dict[str, dict[str, Any]] = {}
    for did in sensors:
        wanted = _room_of(engine, did) in yes_rooms
        new = _seed(rng, engine.value(did, cond.pred.attr), cond.pred, wanted)
        if new is not None:
            overrides.setdefault(did, {})[cond.pred.attr] = new
            overrides[did].update(cond.seed_extra.get("yes" if wanted else "no", {}))
    excluded = None
    chosen_rooms = [r for r in target_rooms if r in yes_rooms]
    if len(chosen_rooms) >= 2 and rng.random() < 0.4:
        excluded = rng.choice(chosen_rooms)
    selected = [
        m
        for m in members
        if _room_of(engine, m[0]) in yes_rooms and _room_of(engine, m[0]) != excluded
    ]
    rest = [m for m in members if m not in selected]
    trial = _trial(engine, overrides)
    if trial is None or not selected or not rest:
        return None
    made = _apply(trial, selected, [op])
    if made is None or not made[2] or not _any_changes(trial, rest, [op]):
        return None
    targets, calls, _ = made
    if w is not EN:
        excluded_name = None if excluded is None else engine.room(excluded).name  # type: ignore[union-attr]
        text = _room_cond_local(rng, w, kind, cond, op, excluded_name)
        return _result("room_dependent", text, targets, calls, overrides, rng, w)
    noun = rng.choice(kind.plural)
    where = rng.choice(cond.says)
    clause = rng.choice(
        [
            f"{_say_en(rng, op, f'the {noun}')} in {where}",
            f"in {where}, {_say_en(rng, op, f'the {noun}')}",
            f"{_say_en(rng, op, f'any {noun}')} in {where}",
        ]
    )
    if excluded is not None:
        room = engine.room(excluded).name  # type: ignore[union-attr]
        text = rng.choice(
            [
                f"Except for the {room}, {clause}.",
                f"{_cap(clause)}, but leave the {room} alone.",
                f"{_cap(clause)}, except the {room}.",
            ]
        )
    else:
        text = _cap(clause) + "." if clause.startswith("in ") else _request_en(rng, clause)
    return _result("room_dependent", text, targets, calls, overrides, rng)


def _room_except(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN
) -> dict[str, Any] | None:
    """ "Everywhere except the X": the kind in every room but one (no nested rooms involved)."""
    for name in _kinds_with(engine, rng, 2):
        kind = KINDS[name]
        members = _members(engine, kind)
        rooms = sorted({_room_of(engine, d) for d, _ in members} - {None})
        rooms = [r for r in rooms if engine.subrooms(r) == {r}]
        if len(rooms) < 1 or len({_room_of(engine, d) for d, _ in members}) < 2:
            continue
        excluded = rng.choice(rooms)
        selected = [m for m in members if _room_of(engine, m[0]) != excluded]
        rest = [m for m in members if _room_of(engine, m[0]) == excluded]
        ops = list(kind.ops)
        rng.shuffle(ops)
        for op in ops[:6]:
            made = _apply(engine, selected, [op])
            if made is None or not made[2] or not _any_changes(engine, rest, [op]):
                continue
            targets, calls, _ = made
            if w is not EN:
                name = engine.room(excluded).name  # type: ignore[union-attr]
                text = _room_except_local(rng, w, kind, op, name)
                return _result("room_dependent", text, targets, calls, {}, rng, w)
            noun = rng.choice(kind.plural)
            room = engine.room(excluded).name  # type: ignore[union-attr]
            clause = rng.choice(
                [
                    f"{_say_en(rng, op, f'all the {noun}')} except the ones in the {room}",
                    f"{_say_en(rng, op, f'the {noun}')} everywhere but the {room}",
                    f"{_say_en(rng, op, f'the {noun} in every room except the {room}')}",
                ]
            )
            text = rng.choice(
                [
                    _request_en(rng, clause),
                    f"Except for the {room}, {_say_en(rng, op, f'all the {noun}')}.",
                ]
            )
            return _result("room_dependent", text, targets, calls, {}, rng)
    return None


def _room_cond_local(
    rng: random.Random,
    w: ModuleType,
    kind: Kind,
    cond: RoomCond,
    op: Op,
    excluded: str | None,
) -> str:
    """A request about the rooms that meet a condition, in ``w``'s language, drawn as the
    English one is: the group's noun, the condition's phrasing, three phrasings of the
    operation (English words all three before choosing one), the clause, then the room left
    out or the request frame. A language places the rooms where it needs them (German: before
    the verb's particle, ``schalte die Lampen in Räumen mit Bewegung ein``)."""
    words = _kind_words(w, kind, rng.choice(range(len(kind.plural))))
    says = w.COMP_COND[cond.pred.attr]
    if len(says) != len(cond.says):
        raise LookupError(f"{w.__name__} has not as many phrasings of {cond.pred.attr} as English")
    where = says[rng.choice(range(len(says)))].format(t=number(w, cond.pred.ref))
    obj0, first, obj2, bare = w.COMP_COND_SAID
    said = [
        _say(rng, op, obj0.format(**words, where=where), w, kind),
        _say(rng, op, bare.format(**words), w, kind),
        _say(rng, op, obj2.format(**words, where=where), w, kind),
    ]
    pick = rng.choice(range(3))
    clause = said[pick] if pick != 1 else (first.format(where=where.strip(), imp=said[1][0]),) * 2
    if excluded is not None:
        put = w.COMP_EXCEPT[rng.choice(range(3))]
        return _tidy(w, put, **w.room_parts(excluded), clause=clause[0], Clause=sentence(clause[0]))
    return _tidy(w, "{c}" + w.COMP_STOP, c=clause[0]) if pick == 1 else _request(rng, clause, w)


def _room_except_local(rng: random.Random, w: ModuleType, kind: Kind, op: Op, room: str) -> str:
    """ "Everywhere but the kitchen" in ``w``'s language, drawn as the English one is: the
    group's noun, three phrasings of the operation, one of them, the request frame, one more
    phrasing, then the sentence ("Except for the kitchen, …" or the request)."""
    words = {**_kind_words(w, kind, rng.choice(range(len(kind.plural)))), **w.room_parts(room)}
    said = [_say(rng, op, obj.format(**words), w, kind) for obj in w.COMP_ALL_BUT]
    clause = said[rng.choice(range(3))]
    asked = _request(rng, clause, w)
    everything = _say(rng, op, w.COMP_ALL[0].format(**words, where=""), w, kind)
    if rng.choice(range(2)) == 0:
        return asked
    return _tidy(
        w,
        w.COMP_EXCEPT[0],
        **w.room_parts(room),
        clause=everything[0],
        Clause=sentence(everything[0]),
    )


def _top_n(engine: HomeEngine, rng: random.Random, w: ModuleType = EN) -> dict[str, Any] | None:
    for kind, (members, where, _), ranks in _scoped(engine, rng, lambda k: k.ranks, w):
        rank = rng.choice(ranks)
        n = rng.randint(1, min(3, len(members) - 1))
        high = rng.random() < 0.6
        order = members[:]
        rng.shuffle(order)
        if rank.order:  # ordinal: the chosen n share the extreme level, the rest sit below it
            top = rank.order[-1] if high else rank.order[0]
            below = [v for v in rank.order if v != top]
            values = [top] * n + [rng.choice(below) for _ in order[n:]]
        else:
            if len(rank.grid) < len(order):
                continue
            values = sorted(rng.sample(rank.grid, len(order)), reverse=high)
        chosen = sorted(order[:n])
        overrides: dict[str, dict[str, Any]] = {}
        for member, v in zip(order, values, strict=True):
            _power_on(engine, kind, member, overrides)
            if engine.value(member[0], member[1] + rank.attr) != v:
                overrides.setdefault(member[0], {})[member[1] + rank.attr] = v
        trial = _trial(engine, overrides)
        if trial is None:
            continue
        ops = list(kind.ops)
        rng.shuffle(ops)
        for op in ops[:6]:
            made = _apply(trial, chosen, [op])
            if (
                made is None
                or not all(_plan(trial, m, op)[2] for m in chosen)
                or not _any_changes(trial, order[n:], [op])
            ):  # type: ignore[index]
                continue
            targets, calls, _ = made
            if w is not EN:
                text = _top_n_local(rng, w, kind, rank, op, n, high, where)
                return _result("top_n", text, targets, calls, overrides, rng, w)
            noun = rng.choice(kind.plural) if n > 1 else kind.singular
            obj = (
                rng.choice(rank.high if high else rank.low).format(n=_NUMBERS[n], noun=noun) + where
            )
            text = _request_en(rng, _say_en(rng, op, obj))
            if n > 1 and rng.random() < 0.3:
                text = _cap(f"{_say_en(rng, op, obj)}, only those {_NUMBERS[n].strip()}.")
            return _result("top_n", text, targets, calls, overrides, rng)
    return None


def _top_n_local(
    rng: random.Random,
    w: ModuleType,
    kind: Kind,
    rank: Rank,
    op: Op,
    n: int,
    high: bool,
    where: str,
) -> str:
    """A top-N request in ``w``'s language, drawn as the English one is: the group's noun (more
    than one), the ranking's phrasing, the operation, the frame, and maybe "only those N". A
    language phrases the one device (singular, its own agreement) and the N apart."""
    noun = rng.choice(range(len(kind.plural))) if n > 1 else 0
    phrasings = w.COMP_RANKS[_kind_name(kind)]["high" if high else "low"]
    if len(phrasings) != len(rank.high if high else rank.low):
        raise LookupError(f"{w.__name__} has not as many rankings of {_kind_name(kind)} as English")
    one, many = phrasings[rng.choice(range(len(phrasings)))]
    words = {**_kind_words(w, kind, noun), "n": w.COMP_NUMBERS.get(n, ""), "where": where}
    obj = (one if n == 1 else many).format(**words)
    text = _request(rng, _say(rng, op, obj, w, kind), w)
    if n > 1 and rng.random() < 0.3:
        text = _tidy(w, w.COMP_ONLY, imp=_say(rng, op, obj, w, kind)[0], **words)
    return text


MAKERS: dict[str, Callable[[HomeEngine, random.Random, ModuleType], dict[str, Any] | None]] = {
    "multi_device": _multi_device,
    "batch": _batch,
    "state_dependent": _state_dependent,
    "room_dependent": _room_dependent,
    "top_n": _top_n,
}


def compositional_task(
    sub: str, engine: HomeEngine, rng: random.Random, w: ModuleType = EN
) -> dict[str, Any] | None:
    """One TC2 task of subcategory ``sub`` on ``engine``'s home, worded by ``w``, or ``None`` if
    this draw has no fit (the caller retries with the next draw). ``engine`` is left as it was."""
    if sub not in MAKERS:
        raise ValueError(f"unknown compositional subcategory {sub!r}")
    return MAKERS[sub](engine, rng, w)
