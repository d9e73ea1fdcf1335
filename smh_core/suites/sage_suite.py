"""The ``sage`` suite: SAGE's test cases (Rivkin et al., Section 6, Table 2) on SAGE-style homes.

SAGE tags each case with the challenges it poses: personalization (the user's stored
preferences decide the target state), intent resolution (the request names a problem, not a
command), device resolution (devices are named by where they are: "the TV by the credenza"),
persistence (the request acts later: a rule or a scheduled action) and command chaining (one
request, several devices). E-mail, calendar and weather cases need tools SMH does not
simulate and are left out. A task's ``category`` is its primary challenge and its
``subcategory`` every challenge it poses, joined with ``+`` in :data:`CATEGORIES` order.

Homes are built here (:func:`build_home`), deterministically from a home number: a living
room with two TVs (one on the credenza, one next to the big plant), a fireplace light and
blinds; a bedroom with a lamp on the nightstand, a ceiling light and curtains; dining-room
lights; a kitchen with a Matter dishwasher, fridge and freezer; a hallway light. Names and
start states vary per home; *where* a device is lives in its description and tags, so only the
description tells the two TVs (or the two bedroom lights) apart. The homes are written to
``tasks/homes/sage-<n>.json`` (:func:`write_homes`) and referenced as file homes, so a task file
stays small and the benchmark loads exactly the home the suite validated against.

Every task is validated at generation (the reference passes, doing nothing fails).

What the suite says (requests, replies, stored preferences, and the homes' room and device
names, placements and channel names) is its wording, :mod:`smh_core.languages.sage.en`; the makers take
it from the home they draw on, so :mod:`.sage_languages` writes the same suite in German,
Spanish, French and Chinese.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

from sim_devices.catalog import instantiate
from smh_core.homeenv.critic import device_id_text
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home, Room
from smh_core.languages.sage import en
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

CATEGORIES = (
    "personalization",
    "intent_resolution",
    "device_resolution",
    "persistence",
    "command_chaining",
)
HOMES = 3
START = "2024-06-27T18:30:00"
Made = dict[str, Any]

# ----------------------------------------------------------------------------- homes
ROOMS = ("living_room", "bedroom", "dining_room", "kitchen", "hallway")
"""The rooms of every SAGE home (their names are the wording's ``ROOMS``)."""


@dataclass(frozen=True)
class Spot:
    """One device role of a SAGE home: its type, room and tags (its names and placements per
    home are the wording's: ``NAMES`` and ``PLACES``)."""

    did: str
    type_name: str
    room: str
    tags: tuple[str, ...] = ()
    matter: bool = False


SPOTS: dict[str, Spot] = {
    "tv_credenza": Spot("3001", "tv", "living_room", ("credenza",), matter=True),
    "tv_plant": Spot("3002", "tv", "living_room", ("plant",), matter=True),
    "living_light": Spot("3003", "light", "living_room", ("ceiling",)),
    "fireplace_light": Spot("3004", "color_light", "living_room", ("fireplace", "mantel")),
    "living_blind": Spot("3005", "blind", "living_room"),
    "bed_lamp": Spot("3101", "color_temperature_light", "bedroom", ("nightstand", "bedside")),
    "bedroom_ceiling": Spot("3102", "color_temperature_light", "bedroom", ("ceiling",)),
    "bedroom_curtain": Spot("3103", "curtain", "bedroom"),
    "dining_pendant": Spot("3201", "light", "dining_room", ("table",)),
    "dining_wall": Spot("3202", "light", "dining_room", ("wall",)),
    "dining_blind": Spot("3203", "blind", "dining_room"),
    "kitchen_light": Spot("3301", "light", "kitchen"),
    "dishwasher": Spot("3302", "dishwasher", "kitchen", matter=True),
    "fridge": Spot("3303", "refrigerator", "kitchen", matter=True),
    "freezer": Spot("3304", "freezer", "kitchen", matter=True),
    "hall_light": Spot("3401", "light", "hallway"),
}
LIGHTS = (
    "living_light",
    "fireplace_light",
    "bed_lamp",
    "bedroom_ceiling",
    "dining_pendant",
    "dining_wall",
    "kitchen_light",
    "hall_light",
)
COVERS = ("living_blind", "bedroom_curtain", "dining_blind")
TVS = ("tv_credenza", "tv_plant")
DID = {role: spot.did for role, spot in SPOTS.items()}
"""Device id of each role (the same in every SAGE home), for tests and hand-written tasks."""

CHANNELS = {5: "KNWS", 7: "KSPT", 9: "KMOV", 11: "KKID", 13: "KMUS"}
"""Channel number -> call sign (the channel's name is the wording's ``CHANNELS``)."""
_TV = "1.OnOff.OnOff"
_PLAY = "1.MediaPlayback.CurrentState"
_CHANNEL = "1.Channel.CurrentChannel"
_DW_STATE = "1.OperationalState.OperationalState"
_DW_MODE = "1.DishwasherMode.CurrentMode"
_TEMP = "1.TemperatureMeasurement.MeasuredValue"


def channel(number: int, words: ModuleType = en) -> dict[str, Any]:
    """The Matter ChannelInfoStruct of a channel number, as the TV stores it (named in the
    language of ``words``)."""
    return {
        "majorNumber": number,
        "minorNumber": 0,
        "name": words.CHANNELS[number],
        "callSign": CHANNELS[number],
    }


def channel_list(words: ModuleType) -> list[dict[str, Any]]:
    """A TV's channel list with the channels named in the language of ``words``."""
    return [channel(number, words) for number in sorted(CHANNELS)]


def _start_values(role: str, rng: random.Random, words: ModuleType) -> dict[str, Any]:
    """A plausible evening state for one device (tasks override what they depend on)."""
    spot = SPOTS[role]
    if role in LIGHTS:
        return {"state": rng.choice(["on", "off"]), "brightness": rng.choice([40, 60, 80, 100])}
    if role in COVERS:
        return {"position": rng.choice([0, 50, 100])}
    if spot.type_name == "tv":
        on = rng.random() < 0.5
        values = {_TV: on, _PLAY: 0 if on else 2}
        values[_CHANNEL] = channel(rng.choice(sorted(CHANNELS)), words)
        if words is not en:  # the catalog's list is English; the language's replaces it
            values["1.Channel.ChannelList"] = channel_list(words)
        return values
    if role == "fridge":
        set_point = rng.choice([300, 400, 500])
        return {
            "1.TemperatureControl.TemperatureSetpoint": set_point,
            _TEMP: set_point + rng.choice([-20, 0, 30]),
        }
    if role == "freezer":
        set_point = rng.choice([-1800, -2000, -2200])
        return {
            "1.TemperatureControl.TemperatureSetpoint": set_point,
            _TEMP: set_point + rng.choice([-40, 10, 60]),
        }
    return {}


def build_home(n: int, words: ModuleType = en, name: str = "") -> Home:
    """SAGE-style home number ``n``: the same rooms and device roles, with the names,
    placement wording and start states of that home, named in the language of ``words``
    (``name``: the home's name, ``sage-home-<n>`` by default)."""
    rng = random.Random(f"sage-home:{n}")
    devices = []
    for role, spot in SPOTS.items():
        names, places = words.NAMES[role], words.PLACES[role]
        device = instantiate(
            spot.type_name,
            did=spot.did,
            room=spot.room,
            name=names[n % len(names)],
            values=_start_values(role, rng, words),
            tags=spot.tags,
            kind="matter" if spot.matter else "homeenv",
        )
        place = places[n % len(places)]
        text = words.DESCRIPTION.format(
            place=f"{place[0].upper()}{place[1:]}", description=device.description
        )
        devices.append(device.model_copy(update={"description": text}))
    rooms = [Room(id=rid, type=rid, name=words.ROOMS[rid]) for rid in ROOMS]
    home = Home(name=name or f"sage-home-{n}", rooms=rooms, devices=devices)
    HomeEngine(home)  # fails here, naming the problem, if a value does not fit its device
    return home


def home_file(n: int) -> str:
    """The home's path relative to the task file's folder (``tasks/``)."""
    return f"homes/sage-{n}.json"


def write_homes(tasks_dir: Path) -> list[Path]:
    """Write every SAGE home under ``tasks_dir/homes`` (canonical bytes; idempotent)."""
    out = []
    for n in range(HOMES):
        path = tasks_dir / home_file(n)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump_home(build_home(n)), encoding="utf-8")
        out.append(path)
    return out


class SageHomes(HomeCache):
    """A home cache that serves the built SAGE homes without reading their files, so the
    suite validates against exactly what :func:`build_home` makes."""

    def __init__(self, base: Path | None = None) -> None:
        super().__init__(base)
        self._built = {f"file:{home_file(n)}": build_home(n) for n in range(HOMES)}

    def get(self, task: Task) -> Home:
        return self._built.get(task.home.key()) or super().get(task)


# ----------------------------------------------------------------------------- task helpers
class _H:
    """One SAGE home while tasks are drawn from it: names, values and the room of a role."""

    def __init__(self, n: int, home: Home, words: ModuleType = en) -> None:
        self.n = n
        self.engine = HomeEngine(home)
        self.w = words

    def name(self, role: str) -> str:
        return self.engine.device(DID[role]).name

    def value(self, role: str, loc: str) -> Any:
        return self.engine.value(DID[role], loc)

    def channel(self, number: int) -> dict[str, Any]:
        """A channel as this home's TVs store it."""
        return channel(number, self.w)

    def tv(self, on: bool, number: int | None = None, playing: bool = True) -> dict[str, Any]:
        """A TV's start values: on or off, playing or not, on channel ``number``."""
        vals: dict[str, Any] = {_TV: on, _PLAY: 0 if on and playing else 2}
        if number is not None:
            vals[_CHANNEL] = self.channel(number)
        return vals


def _lit(value: Any) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, dict):
        return '"' + str(value) + '"'
    return str(value)


def state_is(did: str, loc: str, value: Any, op: str = "==") -> str:
    """A critic comparison on device ``did`` (any home: the for-home SAGE suite uses it too)."""
    return f"device({device_id_text(did)}).{loc} {op} {_lit(value)}"


def all_of(*parts: str) -> str:
    """Critic parts that must all hold."""
    return " and ".join(f"({p})" if " or " in p else p for p in parts)


def any_of(*parts: str) -> str:
    """Critic parts of which one must hold (several acceptable fixes)."""
    return " or ".join(f"({p})" if " and " in p or " or " in p else p for p in parts)


def call_on(did: str, locator: str, **arguments: Any) -> dict[str, Any]:
    """A reference action on device ``did``."""
    return {"did": did, "locator": locator, "arguments": arguments}


def overrides_of(values: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """A task's start state: device id -> the values it starts with."""
    return [{"did": did, "values": vals} for did, vals in values.items()]


def _is(role: str, loc: str, value: Any, op: str = "==") -> str:
    return state_is(DID[role], loc, value, op)


def _call(role: str, locator: str, **arguments: Any) -> dict[str, Any]:
    return call_on(DID[role], locator, **arguments)


def _ov(values: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return overrides_of({DID[role]: vals for role, vals in values.items()})


def _light(on: bool, brightness: int | None = None) -> dict[str, Any]:
    return {"state": "on" if on else "off", **({"brightness": brightness} if brightness else {})}


def execute_made(
    critic: str, actions: list[dict[str, Any]], response: str = "Done.", **extra: Any
) -> Made:
    """An act-now goal; a critic may list several acceptable fixes with ``or``."""
    return {
        "goal": {"kind": "execute", "critic": critic},
        "reference": {"mode": "execute", "response": response, "actions": actions},
        **extra,
    }


def answer_made(facts: list[dict[str, Any]], response: str, **extra: Any) -> Made:
    """A question goal: the facts the answer must state."""
    return {
        "goal": {"kind": "query", "facts": facts},
        "reference": {"mode": "answer", "response": response},
        **extra,
    }


def _dw_running(seconds_left: int, mode: int = 0) -> dict[str, Any]:
    return {
        "1.OnOff.OnOff": True,
        _DW_STATE: 1,
        _DW_MODE: mode,
        "1.OperationalState.CurrentPhase": 1,
        "1.OperationalState.CountdownTime": seconds_left,
    }


def at_offset(seconds: int) -> str:
    """The time ``seconds`` after the suite's :data:`START` (a schedule's ``at``)."""
    return (datetime.fromisoformat(START) + timedelta(seconds=seconds)).isoformat()


# ----------------------------------------------------------------------------- device resolution
def dr_bed_light(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.BED_LIGHT)
    return execute_made(
        _is("bed_lamp", "state", "on"),
        [_call("bed_lamp", "turn_on")],
        overrides=_ov({"bed_lamp": _light(False), "bedroom_ceiling": _light(False)}),
        text=text,
        response=h.w.DONE,
    )


def dr_credenza_on(h: _H, rng: random.Random) -> Made:
    on = rng.random() < 0.5
    text = rng.choice(h.w.CREDENZA_ON)
    return answer_made(
        [{"kind": "yesno", "value": on}],
        h.w.CREDENZA_IS_ON if on else h.w.CREDENZA_IS_OFF,
        text=text,
        overrides=_ov({"tv_credenza": h.tv(on, 5), "tv_plant": h.tv(not on, 9)}),
    )


def dr_freezer_temp(h: _H, rng: random.Random) -> Made:
    value = h.value("freezer", _TEMP)
    celsius = value / 100
    text = rng.choice(h.w.FREEZER_TEMP)
    return answer_made(
        [{"kind": "number", "value": celsius, "tolerance": 0.3}],
        h.w.FREEZER_IS.format(celsius=h.w.number(celsius)),
        text=text,
    )


def dr_plant_channel(h: _H, rng: random.Random) -> Made:
    mine, other = rng.sample(sorted(CHANNELS), 2)
    text = rng.choice(h.w.PLANT_CHANNEL)
    return answer_made(
        [{"kind": "name", "value": h.w.CHANNELS[mine]}],
        h.w.PLANT_CHANNEL_IS.format(number=mine, name=h.w.CHANNELS[mine]),
        text=text,
        overrides=_ov({"tv_plant": h.tv(True, mine), "tv_credenza": h.tv(True, other)}),
    )


def dr_fireplace_dim(h: _H, rng: random.Random) -> Made:
    level = rng.choice([20, 30, 40])
    text = rng.choice(h.w.FIREPLACE_DIM).format(level=level)
    return execute_made(
        all_of(_is("fireplace_light", "state", "on"), _is("fireplace_light", "brightness", level)),
        [_call("fireplace_light", "set_brightness", brightness=level)],
        overrides=_ov({"fireplace_light": _light(True, 90), "living_light": _light(True, 90)}),
        text=text,
        response=h.w.DONE,
    )


def dr_plant_tv_off(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.PLANT_TV_OFF)
    return execute_made(
        _is("tv_plant", _TV, False),
        [_call("tv_plant", "1.OnOff.Off")],
        overrides=_ov({"tv_plant": h.tv(True, 7), "tv_credenza": h.tv(True, 9)}),
        text=text,
        response=h.w.DONE,
    )


# ----------------------------------------------------------------------------- intent resolution
def ir_dining_bright(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.DINING_BRIGHT)
    dimmer = [
        any_of(_is(r, "state", "off"), _is(r, "brightness", 90, "<"))
        for r in ("dining_pendant", "dining_wall")
    ]
    critic = any_of(all_of(*dimmer), _is("dining_blind", "position", 100, "<"))
    return execute_made(
        critic,
        [
            _call("dining_pendant", "set_brightness", brightness=40),
            _call("dining_wall", "set_brightness", brightness=40),
        ],
        h.w.DINING_DIMMED,
        text=text,
        overrides=_ov(
            {
                "dining_pendant": _light(True, 90),
                "dining_wall": _light(True, 90),
                "dining_blind": {"position": 100},
            }
        ),
    )


def ir_greasy_dishes(h: _H, rng: random.Random) -> Made:
    heavy = rng.random() < 0.6
    if heavy:
        text = rng.choice(h.w.GREASY_HEAVY)
        modes, mode = "{1}", 1
    else:
        text = rng.choice(h.w.GREASY_LIGHT)
        modes, mode = "{2, 3}", 2
    return execute_made(
        f"device({DID['dishwasher']}).{_DW_MODE} in {modes}",
        [_call("dishwasher", "1.DishwasherMode.ChangeToMode", newMode=mode)],
        h.w.PICKED_HEAVY if heavy else h.w.PICKED_LIGHT,
        text=text,
        overrides=_ov({"dishwasher": {"1.OnOff.OnOff": True, _DW_STATE: 0, _DW_MODE: 0}}),
    )


def ir_phone_call(h: _H, rng: random.Random) -> Made:
    role = rng.choice(TVS)
    other = "tv_plant" if role == "tv_credenza" else "tv_credenza"
    text = rng.choice(h.w.PHONE_CALL)
    critic = (
        f"device({DID[role]}).{_PLAY} in {{1, 2}}"  # paused, stopped, or off (which stops playback)
    )
    return execute_made(
        critic,
        [_call(role, "1.MediaPlayback.Pause")],
        h.w.PAUSED,
        text=text,
        overrides=_ov({role: h.tv(True, 7), other: h.tv(False)}),
    )


def ir_too_dark_reading(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.TOO_DARK)
    critic = any_of(_is("bed_lamp", "state", "on"), _is("bedroom_ceiling", "state", "on"))
    return execute_made(
        critic,
        [_call("bed_lamp", "turn_on")],
        h.w.BED_LAMP_ON,
        text=text,
        entry_room="bedroom",
        may_change=[DID["bedroom_curtain"]],
        overrides=_ov(
            {
                "bed_lamp": _light(False),
                "bedroom_ceiling": _light(False),
                "bedroom_curtain": {"position": 0},
            }
        ),
    )


def ir_glare(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.GLARE)
    return execute_made(
        _is("living_blind", "position", 50, "<="),
        [_call("living_blind", "close")],
        h.w.BLINDS_LOWERED,
        text=text,
        entry_room="living_room",
        overrides=_ov({"living_blind": {"position": 100}, "tv_credenza": h.tv(True, 9)}),
    )


# ----------------------------------------------------------------------------- personalization
def _cozy(h: _H, rng: random.Random) -> tuple[int, int]:
    return rng.choice([20, 30, 40]), rng.choice([2700, 3000])


def pe_cozy_bedroom(h: _H, rng: random.Random) -> Made:
    level, kelvin = _cozy(h, rng)
    memory = [h.w.COZY_MEMORY[0].format(kelvin=kelvin, level=level), *h.w.COZY_MEMORY[1:]]
    text = rng.choice(h.w.COZY)
    roles = ("bed_lamp", "bedroom_ceiling")
    critic = all_of(
        *[
            all_of(
                _is(r, "state", "on"),
                _is(r, "brightness", level),
                _is(r, "color_temperature", kelvin),
            )
            for r in roles
        ]
    )
    actions = [
        a
        for r in roles
        for a in (
            _call(r, "set_brightness", brightness=level),
            _call(r, "set_color_temperature", color_temperature=kelvin),
        )
    ]
    return execute_made(
        critic,
        actions,
        text=text,
        memory=memory,
        overrides=_ov(
            {r: {"state": "on", "brightness": 100, "color_temperature": 5000} for r in roles}
        ),
        response=h.w.DONE,
    )


def _favourite_channel(h: _H, rng: random.Random, who: int) -> Made:
    users = rng.sample(list(h.w.USERS), 2)
    numbers = rng.sample(sorted(CHANNELS), 3)
    memory = [
        *[
            h.w.CHANNEL_MEMORY[0].format(user=u, name=h.w.CHANNELS[k], number=k)
            for u, k in zip(users, numbers[:2], strict=True)
        ],
        *h.w.CHANNEL_MEMORY[1:],
    ]
    user, number = users[who], numbers[who]
    text = rng.choice(h.w.CHANNEL_REQUEST).format(user=user)
    return execute_made(
        all_of(_is("tv_credenza", _TV, True), _is("tv_credenza", _CHANNEL, h.channel(number))),
        [
            _call("tv_credenza", "1.OnOff.On"),
            _call(
                "tv_credenza", "1.Channel.ChangeChannelByNumber", majorNumber=number, minorNumber=0
            ),
        ],
        text=text,
        memory=memory,
        overrides=_ov(
            {"tv_credenza": h.tv(False, numbers[2]), "tv_plant": h.tv(False, numbers[2])}
        ),
        response=h.w.DONE,
    )


def pe_channel_first(h: _H, rng: random.Random) -> Made:
    return _favourite_channel(h, rng, 0)


def pe_channel_second(h: _H, rng: random.Random) -> Made:
    return _favourite_channel(h, rng, 1)


def pe_fridge_usual(h: _H, rng: random.Random) -> Made:
    current = h.value("fridge", "1.TemperatureControl.TemperatureSetpoint")
    usual = rng.choice([t for t in (200, 300, 500, 600) if t != current])
    memory = [h.w.FRIDGE_MEMORY[0].format(usual=usual // 100), *h.w.FRIDGE_MEMORY[1:]]
    text = rng.choice(h.w.FRIDGE)
    return execute_made(
        _is("fridge", "1.TemperatureControl.TemperatureSetpoint", usual),
        [_call("fridge", "1.TemperatureControl.SetTemperature", targetTemperature=usual)],
        text=text,
        memory=memory,
        response=h.w.DONE,
    )


def pe_morning_curtains(h: _H, rng: random.Random) -> Made:
    level = rng.choice([30, 50, 70])
    memory = [h.w.CURTAIN_MEMORY[0].format(level=level), *h.w.CURTAIN_MEMORY[1:]]
    text = rng.choice(h.w.CURTAINS)
    return execute_made(
        _is("bedroom_curtain", "position", level),
        [_call("bedroom_curtain", "set_position", position=level)],
        text=text,
        memory=memory,
        start_time="2024-06-28T07:15:00",
        overrides=_ov({"bedroom_curtain": {"position": 0}}),
        response=h.w.DONE,
    )


def pe_movie_night(h: _H, rng: random.Random) -> Made:
    number = rng.choice([9, 13])
    memory = [
        h.w.MOVIE_MEMORY[0].format(number=number, name=h.w.CHANNELS[number]),
        *h.w.MOVIE_MEMORY[1:],
    ]
    text = rng.choice(h.w.MOVIE)
    critic = all_of(
        _is("living_light", "state", "off"),
        _is("living_blind", "position", 0),
        _is("tv_plant", _TV, True),
        _is("tv_plant", _CHANNEL, h.channel(number)),
    )
    actions = [
        _call("living_light", "turn_off"),
        _call("living_blind", "close"),
        _call("tv_plant", "1.OnOff.On"),
        _call("tv_plant", "1.Channel.ChangeChannelByNumber", majorNumber=number, minorNumber=0),
    ]
    return execute_made(
        critic,
        actions,
        text=text,
        memory=memory,
        overrides=_ov(
            {
                "living_light": _light(True, 80),
                "living_blind": {"position": 100},
                "tv_plant": h.tv(False, 5),
            }
        ),
        response=h.w.DONE,
    )


# ----------------------------------------------------------------------------- persistence
def automation_made(
    trigger: dict[str, Any],
    critic: str,
    actions: list[dict[str, Any]],
    text: str,
    *,
    response: str = "Done, I set that up.",
    **extra: Any,
) -> Made:
    """A standing-rule goal: ``trigger`` fires, then ``critic`` must hold (the reference sets up
    one automation doing ``actions``)."""
    rule = {"id": "r1", "name": text[:60], "triggers": [trigger], "actions": actions}
    return {
        "goal": {"kind": "automation", "triggers": [trigger], "critic": critic},
        "reference": {
            "mode": "automation",
            "response": response,
            "automations": [rule],
        },
        "text": text,
        **extra,
    }


def ps_tv_off_bed_light(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.TV_OFF_BED_LIGHT)
    trigger = {"kind": "state", "did": DID["tv_credenza"], "locator": _TV, "to": False}
    return automation_made(
        trigger,
        _is("bed_lamp", "state", "on"),
        [_call("bed_lamp", "turn_on")],
        text,
        overrides=_ov(
            {"tv_credenza": h.tv(True, 7), "tv_plant": h.tv(False), "bed_lamp": _light(False)}
        ),
        response=h.w.RULE_DONE,
    )


def ps_lamp_curtains(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.LAMP_CURTAINS)
    trigger = {"kind": "state", "did": DID["bed_lamp"], "locator": "state", "to": "on"}
    return automation_made(
        trigger,
        _is("bedroom_curtain", "position", 0),
        [_call("bedroom_curtain", "close")],
        text,
        overrides=_ov({"bed_lamp": _light(False), "bedroom_curtain": {"position": 100}}),
        response=h.w.RULE_DONE,
    )


def ps_freezer_warm(h: _H, rng: random.Random) -> Made:
    limit = rng.choice([-15, -14, -12])
    text = rng.choice(h.w.FREEZER_WARM).format(limit=limit)
    trigger = {"kind": "numeric", "did": DID["freezer"], "locator": _TEMP, "above": limit * 100}
    mode = "1.RefrigeratorAndTemperatureControlledCabinetMode"
    return automation_made(
        trigger,
        _is("freezer", f"{mode}.CurrentMode", 1),
        [_call("freezer", f"{mode}.ChangeToMode", newMode=1)],
        text,
        response=h.w.RULE_DONE,
    )


def _after_dishwasher(
    h: _H,
    rng: random.Random,
    text: str,
    critic: str,
    actions: list[dict[str, Any]],
    overrides: dict[str, dict[str, Any]],
) -> Made:
    left = rng.choice([20, 25, 35, 45]) * 60
    return {
        "text": text,
        "overrides": _ov({"dishwasher": _dw_running(left), **overrides}),
        "goal": {
            "kind": "timed",
            "may_change": [DID["dishwasher"]],
            "checkpoints": [{"at_seconds": left, "tolerance_seconds": 60, "critic": critic}],
        },
        "reference": {
            "mode": "execute",
            "response": h.w.AFTER_DISHWASHER,
            "schedules": [{"at": at_offset(left), "actions": actions}],
        },
    }


def ps_dishwasher_nightstand(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.DISHWASHER_NIGHTSTAND)
    return _after_dishwasher(
        h,
        rng,
        text,
        _is("bed_lamp", "state", "on"),
        [_call("bed_lamp", "turn_on")],
        {"bed_lamp": _light(False)},
    )


def ps_dishwasher_dining(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.DISHWASHER_DINING)
    critic = all_of(_is("dining_pendant", "state", "off"), _is("dining_wall", "state", "off"))
    return _after_dishwasher(
        h,
        rng,
        text,
        critic,
        [_call("dining_pendant", "turn_off"), _call("dining_wall", "turn_off")],
        {"dining_pendant": _light(True, 70), "dining_wall": _light(True, 70)},
    )


def ps_plant_tv_later(h: _H, rng: random.Random) -> Made:
    minutes = rng.choice([15, 20, 30])
    text = rng.choice(h.w.PLANT_TV_LATER).format(minutes=minutes)
    return {
        "text": text,
        "overrides": _ov({"tv_plant": h.tv(True, 11), "tv_credenza": h.tv(True, 5)}),
        "goal": {
            "kind": "timed",
            "checkpoints": [
                {
                    "at_seconds": minutes * 60,
                    "tolerance_seconds": 30,
                    "critic": _is("tv_plant", _TV, False),
                }
            ],
        },
        "reference": {
            "mode": "execute",
            "response": h.w.PLANT_TV_GOES_OFF.format(minutes=minutes),
            "schedules": [
                {"at": at_offset(minutes * 60), "actions": [_call("tv_plant", "1.OnOff.Off")]}
            ],
        },
    }


# ----------------------------------------------------------------------------- command chaining
def cc_tvs_fireplace(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.TVS_FIREPLACE)
    critic = all_of(*[_is(t, _TV, False) for t in TVS], _is("fireplace_light", "state", "on"))
    actions = [_call(t, "1.OnOff.Off") for t in TVS] + [_call("fireplace_light", "turn_on")]
    return execute_made(
        critic,
        actions,
        text=text,
        overrides=_ov(
            {
                "tv_credenza": h.tv(True, 5),
                "tv_plant": h.tv(True, 7),
                "fireplace_light": _light(False),
            }
        ),
        response=h.w.DONE,
    )


def cc_darken_house(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.DARKEN)
    lit = rng.sample(LIGHTS, 4)
    critic = all_of(
        *[_is(r, "state", "off") for r in LIGHTS], *[_is(c, "position", 0) for c in COVERS]
    )
    actions = [_call(r, "turn_off") for r in LIGHTS] + [_call(c, "close") for c in COVERS]
    return execute_made(
        critic,
        actions,
        text=text,
        overrides=_ov(
            {**{r: _light(True, 70) for r in lit}, **{c: {"position": 100} for c in COVERS}}
        ),
        response=h.w.DONE,
    )


def cc_dim_lights_off(h: _H, rng: random.Random) -> Made:
    dim = rng.sample(LIGHTS, 3)
    bright = [r for r in LIGHTS if r not in dim][:3]
    text = rng.choice(h.w.DIM_OFF)
    critic = all_of(
        *[_is(r, "state", "off") for r in dim], *[_is(r, "state", "on") for r in bright]
    )
    values = {
        **{r: _light(True, rng.choice([5, 10, 15])) for r in dim},
        **{r: _light(True, 100) for r in bright},
        **{r: _light(False) for r in LIGHTS if r not in dim and r not in bright},
    }
    return execute_made(
        critic,
        [_call(r, "turn_off") for r in dim],
        text=text,
        overrides=_ov(values),
        response=h.w.DONE,
    )


def cc_off_to_work(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.OFF_TO_WORK)
    lit = rng.sample(LIGHTS, 5)
    critic = all_of(*[_is(r, "state", "off") for r in LIGHTS], *[_is(t, _TV, False) for t in TVS])
    actions = [_call(r, "turn_off") for r in LIGHTS] + [_call(t, "1.OnOff.Off") for t in TVS]
    return execute_made(
        critic,
        actions,
        h.w.OFF_TO_WORK_DONE,
        text=text,
        start_time="2024-06-28T08:10:00",
        overrides=_ov(
            {
                **{r: _light(True, 80) for r in lit},
                "tv_credenza": h.tv(True, 5),
                "tv_plant": h.tv(True, 13),
            }
        ),
    )


def cc_move_channel(h: _H, rng: random.Random) -> Made:
    number = rng.choice(sorted(CHANNELS))
    src, dst = rng.choice([("tv_credenza", "tv_plant"), ("tv_plant", "tv_credenza")])
    text = rng.choice(h.w.MOVE_CHANNEL)
    critic = all_of(
        _is(dst, _TV, True), _is(dst, _CHANNEL, h.channel(number)), _is(src, _TV, False)
    )
    actions = [
        _call(dst, "1.OnOff.On"),
        _call(dst, "1.Channel.ChangeChannelByNumber", majorNumber=number, minorNumber=0),
        _call(dst, "1.MediaPlayback.Play"),
        _call(src, "1.OnOff.Off"),
    ]
    other = rng.choice([n for n in CHANNELS if n != number])
    return execute_made(
        critic,
        actions,
        h.w.MOVED[0 if src == "tv_credenza" else 1].format(number=number),
        text=text,
        entry_room="living_room",
        entry_device=DID[src],
        overrides=_ov({src: h.tv(True, number), dst: h.tv(False, other)}),
    )


def cc_close_covers_lamp(h: _H, rng: random.Random) -> Made:
    text = rng.choice(h.w.COVERS_LAMP)
    critic = all_of(*[_is(c, "position", 0) for c in COVERS], _is("bed_lamp", "state", "on"))
    actions = [_call(c, "close") for c in COVERS] + [_call("bed_lamp", "turn_on")]
    return execute_made(
        critic,
        actions,
        text=text,
        overrides=_ov({**{c: {"position": 100} for c in COVERS}, "bed_lamp": _light(False)}),
        response=h.w.DONE,
    )


# ----------------------------------------------------------------------------- registry
Maker = Callable[[_H, random.Random], Made]
TEMPLATES: dict[str, tuple[tuple[str, ...], Maker]] = {
    "bed-light": (("device_resolution",), dr_bed_light),
    "credenza-on": (("device_resolution",), dr_credenza_on),
    "freezer-temp": (("device_resolution",), dr_freezer_temp),
    "plant-channel": (("device_resolution",), dr_plant_channel),
    "fireplace-dim": (("device_resolution",), dr_fireplace_dim),
    "plant-tv-off": (("device_resolution",), dr_plant_tv_off),
    "dining-bright": (("intent_resolution", "command_chaining"), ir_dining_bright),
    "greasy-dishes": (("intent_resolution",), ir_greasy_dishes),
    "phone-call": (("intent_resolution", "device_resolution"), ir_phone_call),
    "too-dark": (("intent_resolution", "device_resolution"), ir_too_dark_reading),
    "glare": (("intent_resolution",), ir_glare),
    "cozy-bedroom": (("personalization", "command_chaining"), pe_cozy_bedroom),
    "channel-user-a": (("personalization", "device_resolution"), pe_channel_first),
    "channel-user-b": (("personalization", "device_resolution"), pe_channel_second),
    "fridge-usual": (("personalization",), pe_fridge_usual),
    "morning-curtains": (("personalization",), pe_morning_curtains),
    "movie-night": (("personalization", "command_chaining"), pe_movie_night),
    "tv-off-bed-light": (("persistence", "device_resolution"), ps_tv_off_bed_light),
    "lamp-curtains": (("persistence", "device_resolution"), ps_lamp_curtains),
    "freezer-warm": (("persistence",), ps_freezer_warm),
    "dishwasher-nightstand": (("persistence", "device_resolution"), ps_dishwasher_nightstand),
    "dishwasher-dining": (("persistence", "command_chaining"), ps_dishwasher_dining),
    "plant-tv-later": (("persistence", "device_resolution"), ps_plant_tv_later),
    "tvs-fireplace": (("command_chaining", "device_resolution"), cc_tvs_fireplace),
    "darken-house": (("command_chaining", "intent_resolution"), cc_darken_house),
    "dim-lights-off": (("command_chaining",), cc_dim_lights_off),
    "off-to-work": (("command_chaining", "intent_resolution"), cc_off_to_work),
    "move-channel": (("command_chaining", "device_resolution"), cc_move_channel),
    "covers-and-lamp": (("command_chaining", "device_resolution"), cc_close_covers_lamp),
}
"""Template name -> (challenge tags, primary first; maker)."""

_TASK_FIELDS = ("overrides", "memory", "entry_room", "entry_device", "start_time")


def difficulty_of(tags: tuple[str, ...]) -> str:
    """A task's difficulty from how many challenges it poses (one simple, three complex)."""
    return ("simple", "medium", "complex")[min(len(tags), 3) - 1]


def subcategory_of(tags: tuple[str, ...]) -> str:
    """Every challenge of a task, in :data:`CATEGORIES` order, joined with ``+``."""
    return "+".join(c for c in CATEGORIES if c in tags)


def make_task(
    name: str, n: int, home: Home, seed: int = 0, words: ModuleType = en, path: str = ""
) -> Task:
    """Template ``name`` on SAGE home ``n``, its wording and values drawn from ``seed``, said
    in the language of ``words`` (the home's file: ``path``, :func:`home_file` by default).
    Every language draws the same: the random stream is the template's and the home's."""
    tags, maker = TEMPLATES[name]
    made = maker(_H(n, home, words), random.Random(f"sage:{seed}:{name}:{n}"))
    goal = made["goal"]
    if "may_change" in made:
        goal = {**goal, "may_change": made["may_change"]}
    return Task.model_validate(
        {
            "id": f"sage-{name}-{n}",
            "suite": "sage",
            "category": tags[0],
            "subcategory": subcategory_of(tags),
            "difficulty": difficulty_of(tags),
            "home": {"file": path or home_file(n)},
            "start_time": START,
            "turns": [{"text": made["text"]}],
            "goal": goal,
            "reference": made["reference"],
            **{k: made[k] for k in _TASK_FIELDS if k in made},
        }
    )


def generate(seed: int = 0, validate_tasks: bool = True) -> list[Task]:
    """Every template on every SAGE home (``len(TEMPLATES) * HOMES`` tasks), validated."""
    homes = {n: build_home(n) for n in range(HOMES)}
    tasks = [make_task(name, n, homes[n], seed) for name in TEMPLATES for n in range(HOMES)]
    if validate_tasks:
        from .common import validate

        validate(tasks, homes=SageHomes())
    return tasks
