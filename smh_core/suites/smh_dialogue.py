"""SMH-Bench TC3 (ambiguous intent) and TC5 (context-aware multi-turn) tasks, drawn from the home.

TC3 requests are under-specified on purpose; whether the agent must ask is decided from the
home, not by the template:

* ``state_level``: a complaint ("it's too dark in the study", "it feels like a steamer in
  here"). Every device in the room that could relieve it is a candidate and the critic is an
  ``or`` over them, so any reasonable intervention passes and touching anything else fails.
  When the room is named, or only one room in the home can be helped, the intent is
  resolvable and the goal is to act; otherwise the agent must ask where the user is (a
  clarify goal whose scripted reply names the room, then the same critic).
* ``scene_level``: a scene ("I'm going to rest for a while", "movie night"), grounded in the
  room's devices (lit lights dimmed for rest, the screen playing for a movie ...). The same
  named-or-unique-room rule decides between acting and asking.
* ``slot_missing``: a request missing its value, room, device or duration ("heat up my
  lunch in the oven"). Always a clarify goal: the reply fills the slot and the task goes on.

TC5 tasks carry the previous turn as ``history`` and what it already did as ``overrides``:

* ``continuation``: "now set its speed to high" applies to the previous device;
* ``topic_shift``: a new request about another device that shares an operation with the old
  one, so inheriting the old target changes a device outside the goal;
* ``coreference``: "turn on the speaker too" (the one in the previous device's room, while
  other rooms have one too) or "turn that one off" after the assistant named a device;
* ``correction``: "no, not the bedroom, the kids' room": the previous change must be undone
  and the corrected target changed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.capabilities import setters, switches
from smh_core.homeenv.critic import And, Compare, InSet, Or, Ref
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType
from smh_core.languages.smh import en as EN

from .common import call, lit

AMBIGUOUS_SUBCATEGORIES = ("state_level", "scene_level", "slot_missing")
MULTI_TURN_SUBCATEGORIES = ("continuation", "topic_shift", "coreference", "correction")

Node = Compare | InSet | And | Or
Call = dict[str, Any]

LIGHTS = frozenset({"light", "color_temperature_light", "color_light", "light_strip", "fan_light"})
SHADES = frozenset({"curtain", "blind"})
MEDIA = frozenset({"universal_speaker", "smart_screen"})
CLIMATE = frozenset({"floor_ac", "ac_gateway", "air_cube"})
FANS = frozenset({"smart_fan", "fan_light"})
BEDROOMS = frozenset({"master_bedroom", "bedroom", "kids_room", "guest_room", "parents_room"})
AMBIENT = LIGHTS | SHADES | MEDIA | CLIMATE | FANS | {"humidifier", "dehumidifier", "air_purifier"}
"""Devices a scene may reasonably touch besides the ones it requires (never locks or ovens)."""
_NS = {"fan_light": "light.", "universal_speaker": "player."}
"""Namespace of a device's light or player, where it is not at the top level."""


# --------------------------------------------------------------------------- critic helpers
def _cmp(did: str, loc: str, op: str, value: Any) -> Compare:
    return Compare(Ref(did, loc), op, lit(value))


def _in(did: str, loc: str, values: Iterable[Any]) -> InSet:
    return InSet(Ref(did, loc), tuple(lit(v) for v in values))


def _any(nodes: list[Node]) -> Node:
    return nodes[0] if len(nodes) == 1 else Or(tuple(nodes))


def _all(nodes: list[Node]) -> Node:
    return nodes[0] if len(nodes) == 1 else And(tuple(nodes))


def _pairs(did: str, pairs: list[tuple[str, Any]]) -> Node:
    return _all([_cmp(did, loc, "==", v) for loc, v in pairs])


def _text(clauses: list[Node]) -> str:
    """The critic text; ``;`` separates clauses that must all hold."""
    return "; ".join(c.to_text() for c in clauses)


# --------------------------------------------------------------------------- home helpers
def _lower(text: str) -> str:
    """How a user says a name mid-sentence: lower case, acronyms kept ("floor AC")."""
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in text.split())


def _room_name(engine: HomeEngine, did: str) -> str:
    room = engine.device(did).userdata.room
    if room is None:  # a real home's twin has such devices; the draw is not for them
        raise ValueError(f"{did} is in no room")
    return _lower(engine.room(room).name)  # type: ignore[union-attr]


def _name(engine: HomeEngine, did: str) -> str:
    return _lower(engine.device(did).name)


def _short(engine: HomeEngine, did: str) -> str:
    """The device's name without its room ("ceiling light" for "Study Ceiling Light")."""
    name = _name(engine, did)
    room = _room_name(engine, did)
    return name[len(room) + 1 :] if name.startswith(room + " ") else name


def _called(engine: HomeEngine, did: str, w: ModuleType) -> str:
    """The device's name as a request in language ``w`` says it: English lowers it
    mid-sentence, another language keeps the localised home's name as it is (German nouns
    stay capitalised, and the wording module finds the article by the name)."""
    return _name(engine, did) if w is EN else engine.device(did).name


def _room_called(engine: HomeEngine, did: str, w: ModuleType) -> str:
    """The device's room as a request in language ``w`` says it (see :func:`_called`)."""
    if w is EN:
        return _room_name(engine, did)
    return engine.room(engine.device(did).userdata.room).name  # type: ignore[arg-type,union-attr]


def _sub(engine: HomeEngine, did: str) -> str:
    """The device's HomeEnv subcategory, which the makers here act on by its locators; none
    for a Matter device, whose subcategory may share a name (``humidifier``, ``fan``) but whose
    locators are its clusters' (``1.OnOff.OnOff``): a maker would ask it for a ``state``."""
    device = engine.device(did)
    return "" if device.matter is not None else device.userdata.subcategory


def _room_devices(engine: HomeEngine, room_id: str, subs: Iterable[str] | None = None) -> list[str]:
    wanted = None if subs is None else set(subs)
    return [
        d["did"]
        for d in engine.devices(room=room_id)
        if wanted is None or d["subcategory"] in wanted
    ]


def _trial(engine: HomeEngine, calls: list[Call]) -> HomeEngine | None:
    """A copy of ``engine`` after ``calls``, or ``None`` if any call fails."""
    trial = HomeEngine(engine.home)
    trial.restore(engine.snapshot())
    if not all(r.ok for r in trial.execute_many(calls)):
        return None
    return trial


def _done(response: str, actions: list[Call], mode: str = "execute") -> dict[str, Any]:
    return {"mode": mode, "response": response, "actions": actions}


# --------------------------------------------------------------------------- one device change
@dataclass
class Op:
    """One reachable change of one device: the calls, the (locator, value) pairs they reach,
    and whether it is a switch (``on`` says which way) or a setter."""

    did: str
    loc: str
    value: Any
    calls: list[Call]
    pairs: list[tuple[str, Any]]
    on: bool | None = None
    unit: str | None = None


def _options(engine: HomeEngine, did: str) -> list[tuple[str, str]]:
    """("switch" | "set", locator) for what a user can ask of this device by value."""
    device = engine.device(did)
    specs = dict(device.attributes_by_locator())
    out = [("switch", loc) for loc in switches(device)]
    for loc in setters(device):
        spec = specs[loc]
        alias = spec.type == AttrType.STR and loc.rsplit(".", 1)[-1] == "alias"
        if spec.type in (AttrType.INT, AttrType.FLOAT, AttrType.BOOL) or spec.options or alias:
            out.append(("set", loc))
    return out


def _pick_value(
    engine: HomeEngine, did: str, loc: str, rng: random.Random, w: ModuleType = EN
) -> Any:
    """A value a person would ask for: round numbers, a natural alias (in language ``w``)."""
    spec = dict(engine.device(did).attributes_by_locator())[loc]
    if spec.type == AttrType.STR and not spec.options:
        room = _room_called(engine, did, w)
        return rng.choice(w.dialogue_aliases(room, _short(engine, did), _sub(engine, did)))
    if spec.options:
        return rng.choice(spec.options)
    if spec.type == AttrType.BOOL:
        return rng.random() < 0.5
    lo, hi = spec.range if spec.range else (0, 100)
    span = hi - lo
    step = max(
        spec.precision or 1, 100 if span >= 1000 else 10 if span > 100 else 5 if span >= 50 else 1
    )
    choices = [lo + i * step for i in range(int((hi - lo) // step) + 1)]
    if spec.unit == "second":
        choices = [c for c in choices if c % 60 == 0] or choices
    value = rng.choice(choices)
    return float(value) if spec.type == AttrType.FLOAT else int(value)


def make_op(
    engine: HomeEngine,
    did: str,
    kind: str,
    loc: str,
    rng: random.Random,
    value: Any = None,
    w: ModuleType = EN,
) -> Op | None:
    """The calls that make ``loc`` differ from now (a given ``value``, else a fresh one),
    powering the device on first if the setter needs it; ``None`` if the home refuses."""
    device = engine.device(did)
    current = engine.value(did, loc)
    if kind == "switch":
        sw = switches(device)[loc]
        on = current != sw.on_value if value is None else value == sw.on_value
        target = sw.on_value if on else sw.off_value
        if target == current:
            return None
        calls = [call(did, sw.on_service if on else sw.off_service)]
        op = Op(did, loc, target, calls, [(loc, target)], on=on)
    else:
        setter = setters(device)[loc]
        spec = dict(device.attributes_by_locator())[loc]
        if value is None:
            for _ in range(8):
                value = _pick_value(engine, did, loc, rng, w)
                if value != current:
                    break
        if value == current:
            return None
        op = Op(
            did,
            loc,
            value,
            [call(did, setter.service, **{setter.argument: value})],
            [(loc, value)],
            unit=spec.unit,
        )
    if _trial(engine, op.calls) is not None:
        return op
    ns = loc.rsplit(".", 1)[0] + "." if "." in loc else ""
    power = switches(device).get(f"{ns}state")
    if power is None or kind == "switch":
        return None
    op.calls.insert(0, call(did, power.on_service))
    op.pairs.insert(0, (f"{ns}state", power.on_value))
    return op if _trial(engine, op.calls) is not None else None


def random_op(
    engine: HomeEngine,
    did: str,
    rng: random.Random,
    kinds: tuple[str, ...] = ("switch", "set"),
    skip: Iterable[str] = (),
    w: ModuleType = EN,
) -> Op | None:
    options = [o for o in _options(engine, did) if o[0] in kinds and o[1] not in set(skip)]
    rng.shuffle(options)
    for kind, loc in options[:4]:
        op = make_op(engine, did, kind, loc, rng, w=w)
        if op is not None:
            return op
    return None


def request(
    engine: HomeEngine,
    op: Op,
    rng: random.Random,
    style: str = "clear",
    name: str | None = None,
    w: ModuleType = EN,
) -> str:
    """A plain request for ``op`` (clear or colloquial wording) in language ``w``."""
    name = name or _called(engine, op.did, w)
    if op.on is not None:
        text = w.switch_request(style, rng, name, op.on, None)
        if op.loc.startswith("fan.") or op.loc.startswith("light."):
            text = w.part_request(rng, name, op.loc.split(".")[0], op.on)
        return text
    return w.set_request(style, rng, name, op.loc, op.value, op.unit, None)


def said(engine: HomeEngine, op: Op, rng: random.Random, w: ModuleType = EN) -> str:
    """What the assistant said (in language ``w``) after doing ``op`` in a previous turn."""
    return w.said_done(rng, _called(engine, op.did, w), op.loc, op.value, op.unit, op.on)


# --------------------------------------------------------------------------- TC3 interventions
def _light_fixes(engine: HomeEngine, did: str, want: str) -> list[tuple[Node, list[Call]]]:
    ns = _NS.get(_sub(engine, did), "")
    st = engine.status(did)
    on, bright = st[f"{ns}state"] == "on", st[f"{ns}brightness"]
    if want == "brighter":
        if not on:
            return [(_cmp(did, f"{ns}state", "==", "on"), [call(did, f"{ns}turn_on")])]
        if bright < 100:
            return [
                (
                    _cmp(did, f"{ns}brightness", ">", bright),
                    [call(did, f"{ns}set_brightness", brightness=min(100, max(bright + 30, 80)))],
                )
            ]
        return []
    if want == "darker" and on:
        node: Node = _cmp(did, f"{ns}state", "==", "off")
        if bright > 1:
            node = Or((node, _cmp(did, f"{ns}brightness", "<", bright)))
        return [(node, [call(did, f"{ns}turn_off")])]
    return []


def _shade_fixes(engine: HomeEngine, did: str, want: str) -> list[tuple[Node, list[Call]]]:
    pos = engine.value(did, "position")
    if want == "brighter" and pos < 100:
        return [(_cmp(did, "position", ">", pos), [call(did, "open")])]
    if want == "darker" and pos > 0:
        return [(_cmp(did, "position", "<", pos), [call(did, "close")])]
    return []


def _climate_fixes(engine: HomeEngine, did: str, mode: str) -> list[tuple[Node, list[Call]]]:
    """Cooling (``mode`` cool), heating (heat) or drying (dry) with an air conditioner."""
    st = engine.status(did)
    spec = dict(engine.device(did).attributes_by_locator())["target_temperature"]
    lo, hi = spec.range if spec.range else (16, 30)
    t = st["target_temperature"]
    good = {"cool": ("cool", "auto"), "heat": ("heat", "auto"), "dry": ("dry",)}[mode]
    if st["state"] != "on":
        calls = [call(did, "turn_on")]
        if st["ac_mode"] != mode:
            calls.append(call(did, "set_ac_mode", ac_mode=mode))
        return [(And((_cmp(did, "state", "==", "on"), _in(did, "ac_mode", good))), calls)]
    if st["ac_mode"] not in good:
        return [(_in(did, "ac_mode", good), [call(did, "set_ac_mode", ac_mode=mode)])]
    if mode == "dry":
        return []
    step = -3.0 if mode == "cool" else 3.0
    new = min(max(t + step, lo), hi)
    if new == t:
        return []
    node: Node = _cmp(did, "target_temperature", "<" if mode == "cool" else ">", t)
    if st["ac_mode"] != mode:
        node = Or((_cmp(did, "ac_mode", "==", mode), node))
    return [(node, [call(did, "set_target_temperature", target_temperature=float(new))])]


def _fan_fixes(engine: HomeEngine, did: str, on: bool) -> list[tuple[Node, list[Call]]]:
    ns = "fan." if _sub(engine, did) == "fan_light" else ""
    if (engine.value(did, f"{ns}state") == "on") == on:
        return []
    value = "on" if on else "off"
    return [(_cmp(did, f"{ns}state", "==", value), [call(did, f"{ns}turn_{value}")])]


def _switch_fix(engine: HomeEngine, did: str, on: bool) -> list[tuple[Node, list[Call]]]:
    if (engine.value(did, "state") == "on") == on:
        return []
    value = "on" if on else "off"
    return [(_cmp(did, "state", "==", value), [call(did, f"turn_{value}")])]


def _humidity_fixes(engine: HomeEngine, did: str, up: bool) -> list[tuple[Node, list[Call]]]:
    """A humidifier (``up``) or dehumidifier (not ``up``): switch on, or push its target."""
    st = engine.status(did)
    if st["state"] != "on":
        return [(_cmp(did, "state", "==", "on"), [call(did, "turn_on")])]
    spec = dict(engine.device(did).attributes_by_locator())["target_humidity"]
    lo, hi = spec.range if spec.range else (30, 80)
    h = st["target_humidity"]
    new = min(h + 10, hi) if up else max(h - 10, lo)
    if new == h:
        return []
    return [
        (
            _cmp(did, "target_humidity", ">" if up else "<", h),
            [call(did, "set_target_humidity", target_humidity=int(new))],
        )
    ]


def _media_fixes(engine: HomeEngine, did: str, want: str) -> list[tuple[Node, list[Call]]]:
    ns = _NS.get(_sub(engine, did), "")
    st = engine.status(did)
    playing = st[f"{ns}state"] == "on" and st[f"{ns}work_state"] == "playing"
    if want == "quieter" and playing:
        node = [
            _cmp(did, f"{ns}state", "==", "off"),
            _in(did, f"{ns}work_state", ("paused", "standby")),
            _cmp(did, f"{ns}volume_muted_enabled", "==", True),
        ]
        if st[f"{ns}volume_level"] > 0:
            node.append(_cmp(did, f"{ns}volume_level", "<", st[f"{ns}volume_level"]))
        return [(Or(tuple(node)), [call(did, f"{ns}pause")])]
    if want == "play" and not playing:
        calls = [] if st[f"{ns}state"] == "on" else [call(did, f"{ns}turn_on")]
        return [
            (
                And(
                    (
                        _cmp(did, f"{ns}state", "==", "on"),
                        _cmp(did, f"{ns}work_state", "==", "playing"),
                    )
                ),
                [*calls, call(did, f"{ns}play")],
            )
        ]
    return []


def fixes(engine: HomeEngine, did: str, want: str) -> list[tuple[Node, list[Call]]]:
    """Ways one device can serve ``want`` from its current state: (what counts, one way to do it)."""
    sub = _sub(engine, did)
    out: list[tuple[Node, list[Call]]] = []
    if want in ("brighter", "darker"):
        if sub in LIGHTS:
            out += _light_fixes(engine, did, want)
        elif sub in SHADES:
            out += _shade_fixes(engine, did, want)
    elif want in ("cooler", "warmer", "fresher", "drier_air"):
        if sub in CLIMATE:
            out += _climate_fixes(
                engine,
                did,
                {"cooler": "cool", "warmer": "heat", "fresher": "cool", "drier_air": "dry"}[want],
            )
        elif sub in FANS and want != "drier_air":
            out += _fan_fixes(engine, did, want != "warmer")
        elif sub == "air_purifier" and want == "fresher":
            out += _switch_fix(engine, did, True)
        elif sub == "dehumidifier" and want == "drier_air":
            out += _humidity_fixes(engine, did, False)
        elif sub == "humidifier" and want == "drier_air":
            out += _switch_fix(engine, did, False)
    elif want == "moister":
        if sub == "humidifier":
            out += _humidity_fixes(engine, did, True)
        elif sub == "dehumidifier":
            out += _switch_fix(engine, did, False)
    elif want in ("quieter", "play") and sub in MEDIA:
        out += _media_fixes(engine, did, want)
    for node, calls in out:  # every fix must be doable and must not hold already
        trial = _trial(engine, calls)
        if trial is None or not critic_lang.parse(node.to_text()).evaluate(trial.snapshot()):
            return []
    return out


def _room_fixes(
    engine: HomeEngine, room_id: str, wants: Iterable[str], subs: frozenset[str] | None = None
) -> list[tuple[Node, list[Call]]]:
    out = []
    for did in _room_devices(engine, room_id, subs):
        for want in wants:
            out += fixes(engine, did, want)
    return out


# --------------------------------------------------------------------------- TC3 state level
# The words of TC3 (complaints, scenes, the requests missing a slot, the questions and the
# simulated user's replies) are the wording module's (:mod:`smh_core.languages.smh`); what they
# mean and how the draws go are here, the same in every language.
COMPLAINTS: dict[str, tuple[tuple[str, ...], float | None]] = {
    # complaint: (wants, a consistent sensor reading); its phrasings: the wording's COMPLAINTS
    "dark": (("brighter",), None),
    "bright": (("darker",), None),
    "hot": (("cooler",), 30.5),
    "cold": (("warmer",), 15.5),
    "stuffy": (("fresher",), None),
    "dry": (("moister",), 24.0),
    "humid": (("drier_air",), 82.0),
    "loud": (("quieter",), None),
}


def _room_said(engine: HomeEngine, room_id: str, w: ModuleType) -> str:
    """A room's name as language ``w`` says it (see :func:`_called`)."""
    name = engine.room(room_id).name  # type: ignore[union-attr]
    return _lower(name) if w is EN else name


def _sensor_overrides(engine: HomeEngine, room_id: str, complaint: str) -> list[dict[str, Any]]:
    """Make the room's own sensor agree with the complaint (a 16 °C room is not "boiling")."""
    reading = COMPLAINTS[complaint][1]
    if reading is None:
        return []
    loc = "current_temperature" if complaint in ("hot", "cold") else "current_humidity"
    out = []
    for did in _room_devices(engine, room_id, {"climate_sensor"}):
        value = engine.value(did, loc)
        agrees = {
            "hot": value >= 27,
            "cold": value <= 19,
            "dry": value <= 35,
            "humid": value >= 65,
        }[complaint]
        if not agrees:
            out.append({"did": did, "values": {loc: reading}})
    return out


def _place(
    engine: HomeEngine,
    rng: random.Random,
    fits: dict[str, list[tuple[Node, list[Call]]]],
    say: Callable[[str, bool], str],
    w: ModuleType,
) -> dict[str, Any]:
    """Word a request for one room of ``fits`` (``say(room, named)``) and decide whether it
    needs a clarification: a named room, or the only room where anything can be done, makes it
    resolvable."""
    room_id = rng.choice(sorted(fits))
    room = _room_said(engine, room_id, w)
    named = rng.random() < 0.5
    text = say(room, named)
    options = fits[room_id]
    critic = _text([_any([node for node, _ in options])])
    node, calls = rng.choice(options)
    goal = {"kind": "execute", "critic": critic}
    out: dict[str, Any] = {"text": text, "room": room_id}
    if named or len(fits) == 1:
        out.update(goal=goal, reference=_done(w.STATE_DONE, calls))
        return out
    out.update(
        goal={"kind": "clarify", "about": ["room"], "then": goal},
        reference=_done(rng.choice(w.STATE_ASK), calls, mode="clarify"),
        replies=[w.about_room(rng.choice(w.STATE_REPLY), room)],
    )
    return out


def _state_level(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN, english: HomeEngine | None = None
) -> dict[str, Any] | None:
    """A complaint about a room (or "in here"), worded by ``w``."""
    complaint = rng.choice(sorted(COMPLAINTS))
    wants, _ = COMPLAINTS[complaint]
    fits = {r.id: f for r in engine.rooms() if (f := _room_fixes(engine, r.id, wants))}
    if not fits:
        return None
    opener, phrase = rng.choice(w.OPENERS), rng.choice(w.COMPLAINTS[complaint])
    made = _place(
        engine, rng, fits, lambda room, named: w.complaint(opener, phrase, room, named), w
    )
    overrides = _sensor_overrides(engine, made.pop("room"), complaint)
    if overrides:
        made["overrides"] = overrides
    return {"subcategory": "state_level", **made}


# --------------------------------------------------------------------------- TC3 scene level
SCENES: dict[str, frozenset[str] | None] = {
    # scene: the room types it fits (None: any); its phrasings: the wording's SCENE_PHRASES
    "rest": BEDROOMS,
    "movie": None,
    "reading": frozenset({"study", "living_room"}) | BEDROOMS,
    "wakeup": BEDROOMS,
    "dinner": frozenset({"dining_room", "kitchen"}),
    "guests": frozenset({"living_room", "entertainment_room"}),
    "workout": frozenset({"gym"}),
}


def _scene_goal(
    engine: HomeEngine, scene: str, room_id: str
) -> tuple[list[Node], list[Call]] | None:
    """The clauses the scene needs in this room (all must hold) and one way to meet them."""
    if scene == "rest":
        lit = [
            f
            for did in _room_devices(engine, room_id, LIGHTS)
            for f in fixes(engine, did, "darker")
        ]
        if lit:
            return [n for n, _ in lit], [c for _, cs in lit for c in cs]
        soft = _room_fixes(engine, room_id, ("darker",), SHADES) + _room_fixes(
            engine, room_id, ("quieter",), MEDIA
        )
        return ([_any([n for n, _ in soft])], soft[0][1]) if soft else None
    if scene == "movie":
        screens = [
            f
            for did in _room_devices(engine, room_id, {"smart_screen"})
            for f in fixes(engine, did, "play")
        ]
        if not screens:
            return None
        mood = _room_fixes(engine, room_id, ("darker",))
        clauses = [screens[0][0]] + ([_any([n for n, _ in mood])] if mood else [])
        return clauses, screens[0][1] + (mood[0][1] if mood else [])
    wants = {
        "reading": (("brighter",), LIGHTS),
        "wakeup": (("brighter",), LIGHTS | SHADES),
        "dinner": (("brighter", "play"), LIGHTS | MEDIA),
        "guests": (("brighter", "play"), LIGHTS | MEDIA),
        "workout": (("cooler", "play"), CLIMATE | FANS | MEDIA),
    }[scene]
    found = _room_fixes(engine, room_id, *wants)
    return ([_any([n for n, _ in found])], found[0][1]) if found else None


def _scene_level(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN, english: HomeEngine | None = None
) -> dict[str, Any] | None:
    """A scene (rest, a movie, dinner ...) in a room or nowhere in particular, worded by ``w``."""
    scene = rng.choice(sorted(SCENES))
    types = SCENES[scene]
    goals = {
        r.id: g
        for r in engine.rooms()
        if (types is None or r.type in types) and (g := _scene_goal(engine, scene, r.id))
    }
    if not goals:
        return None
    room_id = rng.choice(sorted(goals))
    room = _room_said(engine, room_id, w)
    clauses, calls = goals[room_id]
    named = rng.random() < 0.5
    text = w.scene(rng.choice(w.SCENE_PHRASES[scene]), room, named)
    referenced = set(critic_lang.parse(_text(clauses)).referenced_devices())
    extras = sorted(set(_room_devices(engine, room_id, AMBIENT)) - referenced)
    goal: dict[str, Any] = {"kind": "execute", "critic": _text(clauses)}
    if extras:
        goal["may_change"] = extras
    if named or len(goals) == 1:
        return {
            "subcategory": "scene_level",
            "text": text,
            "goal": goal,
            "reference": _done(w.SCENE_DONE, calls),
        }
    return {
        "subcategory": "scene_level",
        "text": text,
        "goal": {"kind": "clarify", "about": ["room"], "then": goal},
        "reference": _done(rng.choice(w.SCENE_ASK), calls, mode="clarify"),
        "replies": [w.about_room(rng.choice(w.SCENE_REPLY), room)],
    }


# --------------------------------------------------------------------------- TC3 slot missing
_SECONDS = (60, 90, 120, 180, 300, 600, 900, 1200, 1800)
"""The cooking times a user gives (the wording's DURATIONS say them)."""
_COOK_MODES = ("defrost", "microwave", "reheating", "steam")
"""The oven's modes a cooking job asks for (the wording's COOKING say the jobs)."""


def _clarified(
    sub_about: str, text: str, question: str, reply: str, critic: str, calls: list[Call]
) -> dict[str, Any]:
    return {
        "subcategory": "slot_missing",
        "text": text,
        "replies": [reply],
        "goal": {
            "kind": "clarify",
            "about": [sub_about],
            "then": {"kind": "execute", "critic": critic},
        },
        "reference": _done(question, calls, mode="clarify"),
    }


def _unique_in_room(
    engine: HomeEngine, english: HomeEngine, did: str, w: ModuleType, among: list[str]
) -> None:
    """The language's noun for ``did``'s kind must name it alone among ``among`` (English's
    kinds do, by the draw): otherwise the task would be ambiguous in the language only."""
    kind = _kind_called(engine, english, did, w)
    said = [_kind_called(engine, english, d, w) for d in among]
    if said.count(kind) != 1:
        raise RuntimeError(f"{w.__name__}: {kind!r} names more than one device of {among}")


def _missing_value(
    engine: HomeEngine, rng: random.Random, w: ModuleType, english: HomeEngine
) -> dict[str, Any] | None:
    did = rng.choice(engine.device_ids())
    options = [
        o
        for o in _options(engine, did)
        if o[0] == "set"
        and dict(engine.device(did).attributes_by_locator())[o[1]].type != AttrType.BOOL
    ]
    if not options:
        return None
    op = make_op(engine, did, *rng.choice(options), rng, w=w)
    if op is None:
        return None
    text, question, reply = w.missing_value(rng, _called(engine, did, w), op.loc, op.value, op.unit)
    return _clarified("value", text, question, reply, _text([_pairs(did, op.pairs)]), op.calls)


def _missing_room(
    engine: HomeEngine, rng: random.Random, w: ModuleType, english: HomeEngine
) -> dict[str, Any] | None:
    """A device named only by its kind ("the ceiling light") that several rooms have. Which
    devices share a kind is read on ``english`` (names only), so every language draws alike."""
    by_short: dict[str, list[str]] = {}
    for did in engine.device_ids():
        by_short.setdefault(_short(english, did), []).append(did)
    shared = {}
    for short, dids in sorted(by_short.items()):
        rooms = [engine.device(d).userdata.room for d in dids]
        unique = [d for d in dids if rooms.count(engine.device(d).userdata.room) == 1]
        if len(set(rooms)) >= 2 and unique:
            shared[short] = unique
    if not shared:
        return None
    short = rng.choice(sorted(shared))
    did = rng.choice(shared[short])
    op = random_op(engine, did, rng, w=w)
    if op is None:
        return None
    if (
        op.on is not None
        and sum(
            engine.value(d, op.loc) != op.value
            for d in by_short[short]
            if op.loc in switches(engine.device(d))
        )
        < 2
    ):
        return (
            None  # only one of them could be meant: resolvable from the state, not a missing slot
        )
    kind = _kind_called(engine, english, did, w)
    if w is not EN:
        _unique_in_room(engine, english, did, w, _room_devices(engine, _room_of(engine, did)))
    if op.on is not None and "." not in op.loc:
        text = w.missing_room_switch(rng, kind, op.on)
    else:
        text = request(engine, op, rng, rng.choice(["clear", "colloquial"]), name=kind, w=w)
    question, reply = w.missing_room_ask(rng, kind, _room_called(engine, did, w))
    return _clarified("room", text, question, reply, _text([_pairs(did, op.pairs)]), op.calls)


def _room_of(engine: HomeEngine, did: str) -> str:
    room = engine.device(did).userdata.room
    if room is None:
        raise ValueError(f"{did} is in no room")
    return room


def _missing_device(
    engine: HomeEngine, rng: random.Random, w: ModuleType, english: HomeEngine
) -> dict[str, Any] | None:
    """ "Turn on the light in the study" when the study has several lights that are off."""
    rooms = sorted(r.id for r in engine.rooms())
    rng.shuffle(rooms)
    for room_id in rooms:
        on = rng.random() < 0.5
        lights = [
            d
            for d in _room_devices(engine, room_id, LIGHTS - {"fan_light"})
            if (engine.value(d, "state") == "on") != on
        ]
        shorts = [_short(english, d) for d in lights]
        if len(lights) < 2 or len(set(shorts)) != len(shorts):
            continue
        did = rng.choice(lights)
        op = make_op(engine, did, "switch", "state", rng, "on" if on else "off")
        if op is None:
            continue
        if w is not EN:
            _unique_in_room(engine, english, did, w, lights)
        text, question, reply = w.missing_device(
            rng,
            _room_called(engine, did, w),
            on,
            len(lights),
            _kind_called(engine, english, did, w),
        )
        return _clarified("device", text, question, reply, _text([_pairs(did, op.pairs)]), op.calls)
    return None


def _missing_amount(
    engine: HomeEngine, rng: random.Random, w: ModuleType, english: HomeEngine
) -> dict[str, Any] | None:
    """An appliance job without its duration (oven) or temperature (water heater)."""
    ovens = [d["did"] for d in engine.devices(subcategory="builtin_microwave_steam_oven")]
    heaters = [d["did"] for d in engine.devices(subcategory="electric_water_heater")]
    if ovens and (not heaters or rng.random() < 0.6):
        did = rng.choice(ovens)
        mode = rng.choice(_COOK_MODES)
        seconds = rng.choice(_SECONDS[:7] if mode in ("reheating", "microwave") else _SECONDS[3:])
        calls = [
            call(
                did,
                "microwave_steam_oven.start_cooking",
                work_mode=mode,
                target_cooking_time=seconds,
            )
        ]
        if _trial(engine, calls) is None:
            return None
        ns = "microwave_steam_oven."
        critic = _text(
            [
                _pairs(
                    did,
                    [
                        (f"{ns}state", "cooking"),
                        (f"{ns}work_mode", mode),
                        (f"{ns}target_cooking_time", seconds),
                    ],
                )
            ]
        )
        name = _called(engine, did, w) if len(ovens) > 1 else None
        kind = _kind_called(engine, english, did, w)
        text, question, reply = w.cooking_request(rng, name, kind, mode, seconds)
        return _clarified("duration", text, question, reply, critic, calls)
    if not heaters:
        return None
    did = rng.choice(heaters)
    temp = rng.choice([38, 40, 42, 45, 48, 50, 55])
    calls = [] if engine.value(did, "state") == "on" else [call(did, "turn_on")]
    calls.append(call(did, "start_heating", target_water_temperature=temp))
    if temp == engine.value(did, "target_water_temperature") and engine.value(did, "state") == "on":
        return None
    if _trial(engine, calls) is None:
        return None
    name = _called(engine, did, w) if len(heaters) > 1 else None
    text, question, reply = w.heating_request(rng, name, temp)
    critic = _text([_pairs(did, [("state", "on"), ("target_water_temperature", temp)])])
    return _clarified("value", text, question, reply, critic, calls)


def _slot_missing(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN, english: HomeEngine | None = None
) -> dict[str, Any] | None:
    """A request missing its value, room, device or duration, worded by ``w`` (``english``:
    the English home ``engine``'s is named from, for which devices share a kind)."""
    maker = rng.choice([_missing_value, _missing_room, _missing_device, _missing_amount])
    return maker(engine, rng, w, english or engine)


# --------------------------------------------------------------------------- TC5 multi-turn
def _previous(
    engine: HomeEngine, op: Op, rng: random.Random, w: ModuleType = EN
) -> tuple[HomeEngine, dict[str, Any]] | None:
    """The previous turn: the home after it, and the history and overrides that say so."""
    after = _trial(engine, op.calls)
    if after is None:
        return None
    changed = {
        c.locator: c.after
        for c in engine.diff(engine.snapshot(), after.snapshot())
        if c.did == op.did
    }
    extra = {
        "history": [
            {"role": "user", "content": request(engine, op, rng, w=w)},
            {"role": "assistant", "content": said(engine, op, rng, w)},
        ],
        "overrides": [{"did": op.did, "values": changed}],
    }
    return after, extra


def _continuation(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN, english: HomeEngine | None = None
) -> dict[str, Any] | None:
    earlier = _earlier_turn(
        engine,
        rng,
        lambda e, d, r: random_op(
            e, d, r, kinds=("switch",) if r.random() < 0.6 else ("switch", "set"), w=w
        ),
        w,
    )
    if earlier is None:
        return None
    _, did, first, after, extra = earlier
    op = random_op(after, did, rng, skip=[first.loc], w=w)
    if op is None:
        return None
    part = op.loc.split(".")[0] if op.loc.startswith(("fan.", "light.")) else ""
    text = w.continuation_request(
        rng, _called(after, did, w), part, op.on, op.loc, op.value, op.unit
    )
    return {
        "subcategory": "continuation",
        "text": text,
        **extra,
        "goal": {"kind": "execute", "critic": _text([_pairs(did, op.pairs)])},
        "reference": _done(w.DONE, op.calls),
    }


def _earlier_turn(
    engine: HomeEngine,
    rng: random.Random,
    pick: Callable[[HomeEngine, str, random.Random], Op | None] = random_op,
    w: ModuleType = EN,
) -> tuple[list[str], str, Op, HomeEngine, dict[str, Any]] | None:
    """A previous turn on a random device: the home's device ids, that device, what was done
    to it (``pick``), the home after it, and the history and overrides that say so (None: no fit)."""
    dids = engine.device_ids()
    old = rng.choice(dids)
    first = pick(engine, old, rng)
    if first is None:
        return None
    prev = _previous(engine, first, rng, w)
    if prev is None:
        return None
    return dids, old, first, *prev


def _topic_shift(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN, english: HomeEngine | None = None
) -> dict[str, Any] | None:
    earlier = _earlier_turn(engine, rng, lambda e, d, r: random_op(e, d, r, w=w), w)
    if earlier is None:
        return None
    dids, old, first, after, extra = earlier
    old_options = set(_options(after, old))
    others = [d for d in dids if d != old and set(_options(after, d)) & old_options]
    rng.shuffle(others)
    for new in others[:10]:
        shared = sorted(set(_options(after, new)) & old_options)
        kind, loc = rng.choice(shared)
        op = make_op(after, new, kind, loc, rng, w=w)
        if op is None:
            continue
        # Inheriting the old target must be a visible mistake: the same calls change the old device.
        inherited = _trial(after, [{**c, "did": old} for c in op.calls])
        if inherited is None or not after.diff(after.snapshot(), inherited.snapshot()):
            continue
        body = request(after, op, rng, rng.choice(["clear", "colloquial"]), w=w)
        marker = rng.choice(w.SHIFTS)
        return {
            "subcategory": "topic_shift",
            "text": w.shifted(marker, body, _called(after, new, w)),
            **extra,
            "goal": {"kind": "execute", "critic": _text([_pairs(new, op.pairs)])},
            "reference": _done(w.DONE, op.calls),
        }
    return None


def _main_switch(engine: HomeEngine, did: str) -> str | None:
    sw = switches(engine.device(did))
    return next((loc for loc in ("state", "player.state", "light.state") if loc in sw), None)


def _kind_called(engine: HomeEngine, english: HomeEngine, did: str, w: ModuleType) -> str:
    """The device's kind as a request in language ``w`` says it ("the speaker" of that room):
    English's short name, or the language's noun for the English kind (the language's name
    of the device where it has a whole name for it)."""
    if w is EN:
        return _short(engine, did)
    name, room = english.device(did).name, english.device(did).userdata.room
    room_name = english.room(room).name if room else ""  # type: ignore[union-attr]
    kind = name[len(room_name) + 1 :] if name.startswith(room_name + " ") else name
    return w.NAMES.KINDS[kind][0] if kind in w.NAMES.KINDS else engine.device(did).name


def _same_room_too(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN, english: HomeEngine | None = None
) -> dict[str, Any] | None:
    """Previous: something in a room. Now: "turn on the speaker too" (the one in that room).
    Which devices the kind alone names is read on ``english`` (names only), so every language
    draws as English does; the language's noun must name one device of the room too."""
    english = english or engine
    earlier = _earlier_turn(
        engine,
        rng,
        lambda e, d, r: random_op(e, d, r, kinds=("switch",), w=w) or random_op(e, d, r, w=w),
        w,
    )
    if earlier is None:
        return None
    dids, old, first, after, extra = earlier
    room = engine.device(old).userdata.room
    here = [d for d in _room_devices(after, room) if d != old and _main_switch(after, d)]
    kinds = [_short(english, d) for d in _room_devices(after, room)]
    candidates = [
        d
        for d in here
        if kinds.count(_short(english, d)) == 1
        and any(
            _short(english, o) == _short(english, d) or _sub(after, o) == _sub(after, d)
            for o in dids
            if after.device(o).userdata.room != room
        )
    ]
    if not candidates:
        return None
    target = rng.choice(candidates)
    loc = _main_switch(after, target)
    op = make_op(after, target, "switch", loc, rng)  # type: ignore[arg-type]
    if op is None:
        return None
    kind = _kind_called(after, english, target, w)
    said_here = [_kind_called(after, english, d, w) for d in _room_devices(after, room)]
    if said_here.count(kind) != 1:  # the language's nouns would not tell the room's devices apart
        raise RuntimeError(f"{w.__name__}: {kind!r} names more than one device of {room}")
    same_way = first.on is not None and first.on == op.on
    text = w.same_room_request(rng, same_way, bool(op.on), kind)
    return {
        "subcategory": "coreference",
        "text": text,
        **extra,
        "goal": {"kind": "execute", "critic": _text([_pairs(target, op.pairs)])},
        "reference": _done(w.DONE, op.calls),
    }


def _is_on(engine: HomeEngine, did: str) -> bool:
    loc = _main_switch(engine, did)
    return loc is not None and engine.value(did, loc) == switches(engine.device(did))[loc].on_value


def _that_one(engine: HomeEngine, rng: random.Random, w: ModuleType = EN) -> dict[str, Any] | None:
    """Previous: "is anything on in the study?" "Only the desk lamp." Now: "turn that one off"."""
    rooms = sorted(r.id for r in engine.rooms())
    rng.shuffle(rooms)
    for room_id in rooms:
        powered = [d for d in _room_devices(engine, room_id) if _is_on(engine, d)]
        if len(powered) != 1:
            continue
        did = powered[0]
        op = make_op(engine, did, "switch", _main_switch(engine, did), rng)  # type: ignore[arg-type]
        if op is None:
            continue
        room, name = _room_called(engine, did, w), _called(engine, did, w)
        asked, answered = w.anything_on(rng, room, name)
        history = [
            {"role": "user", "content": asked},
            {"role": "assistant", "content": answered},
        ]
        text = w.that_one_off(rng, name)
        return {
            "subcategory": "coreference",
            "text": text,
            "history": history,
            "goal": {"kind": "execute", "critic": _text([_pairs(did, op.pairs)])},
            "reference": _done(w.DONE, op.calls),
        }
    return None


def _coreference(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN, english: HomeEngine | None = None
) -> dict[str, Any] | None:
    if rng.random() < 0.6:
        return _same_room_too(engine, rng, w, english) or _that_one(engine, rng, w)
    return _that_one(engine, rng, w) or _same_room_too(engine, rng, w, english)


def _restore(engine: HomeEngine, did: str, original: dict[str, Any]) -> list[Call] | None:
    """Calls that put ``did``'s ``original`` values back: setters first, then switches."""
    device = engine.device(did)
    sw, st = switches(device), setters(device)
    calls = [
        call(did, st[loc].service, **{st[loc].argument: v})
        for loc, v in original.items()
        if loc in st and loc not in sw
    ]
    for loc, v in original.items():
        if loc in sw:
            calls.append(
                call(did, sw[loc].on_service if v == sw[loc].on_value else sw[loc].off_service)
            )
    return calls


def _correction(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN, english: HomeEngine | None = None
) -> dict[str, Any] | None:
    """Previous: a change to one device. Now: "no, not the bedroom, the kids' room". Whether
    the two devices are the same kind (which wordings fit) is read on ``english``, the English
    home this one is named from, so every language draws as English does."""
    english = english or engine
    earlier = _earlier_turn(engine, rng, lambda e, d, r: random_op(e, d, r, w=w), w)
    if earlier is None:
        return None
    dids, old, first, after, extra = earlier
    device = engine.device(old)
    original = {
        loc: engine.value(old, loc)
        for loc in extra["overrides"][0]["values"]
        if loc in switches(device) or loc in setters(device)
    }  # derived values follow by themselves
    undo = _restore(after, old, original)
    room = engine.device(old).userdata.room
    kind = "switch" if first.on is not None else "set"
    twins = [
        d
        for d in dids
        if d != old
        and _sub(engine, d) == _sub(engine, old)
        and engine.device(d).userdata.room not in (room, None)  # told apart by their rooms
        and first.loc in (switches if kind == "switch" else setters)(engine.device(d))
    ]  # ... and able to take the same change (a blind without tilt cannot take a tilt)
    if room is None:
        return None
    if undo is None or not original or not twins:
        return None
    new = rng.choice(twins)
    op = make_op(after, new, kind, first.loc, rng, first.value)
    if op is None:
        return None
    calls = undo + op.calls
    done = _trial(after, calls)
    if done is None or any(done.value(old, loc) != v for loc, v in original.items()):
        return None
    said = {
        d: (_called(engine, d, w), _room_called(engine, d, w), _short(engine, d))
        for d in (old, new)
    }
    same_kind = _short(english, old) == _short(english, new)
    critic = _text([_pairs(old, list(original.items())), _pairs(new, op.pairs)])
    return {
        "subcategory": "correction",
        "text": w.correction_request(rng, same_kind, said[old], said[new]),
        **extra,
        "goal": {"kind": "execute", "critic": critic},
        "reference": _done(w.correction_done(said[old], said[new]), calls),
    }


# --------------------------------------------------------------------------- entry point
Maker = Callable[[HomeEngine, random.Random, ModuleType, HomeEngine | None], dict[str, Any] | None]
_MAKERS: dict[str, Maker] = {
    "state_level": _state_level,
    "scene_level": _scene_level,
    "slot_missing": _slot_missing,
    "continuation": _continuation,
    "topic_shift": _topic_shift,
    "coreference": _coreference,
    "correction": _correction,
}
"""Every subcategory's maker: worded by a language module (:mod:`smh_core.languages.smh`),
reading the English home where a choice depends on names (which devices share a kind)."""


def dialogue_task(
    sub: str,
    engine: HomeEngine,
    rng: random.Random,
    w: ModuleType = EN,
    english: HomeEngine | None = None,
) -> dict[str, Any] | None:
    """One TC3 or TC5 task of subcategory ``sub`` on ``engine``'s home, worded by ``w``, or
    ``None`` if this draw has no fit (``english``: the English home ``engine``'s is named from,
    when it is another language's). Keys: subcategory, text, goal, reference, and optionally
    history, overrides (the previous turn's effect or a sensor reading) and replies."""
    maker = _MAKERS.get(sub)
    if maker is None:
        raise ValueError(f"unknown dialogue subcategory {sub!r}")
    made = maker(engine, rng, w, english)
    return made if made is not None and _consistent(engine, made) else None


def _consistent(engine: HomeEngine, made: dict[str, Any]) -> bool:
    """The goal does not hold before (with the overrides) and the reference reaches it,
    changing nothing the goal does not allow: the checks validation would make, done early so
    a draw that fails them is redrawn instead of failing the suite."""
    goal = made["goal"] if made["goal"]["kind"] == "execute" else made["goal"]["then"]
    crit = critic_lang.parse(goal["critic"])
    start = HomeEngine(engine.home)
    start.restore(engine.snapshot())
    for override in made.get("overrides", []):
        if not start.set_values(override["did"], override["values"]).ok:
            return False
    if crit.evaluate(start.snapshot()):
        return False
    end = _trial(start, made["reference"]["actions"])
    if end is None or not crit.evaluate(end.snapshot()):
        return False
    allowed = set(crit.referenced_devices()) | set(goal.get("may_change", []))
    return all(c.did in allowed for c in start.diff(start.snapshot(), end.snapshot()))
