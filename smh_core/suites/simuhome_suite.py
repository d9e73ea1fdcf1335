"""The ``simuhome`` suite: SimuHome's six query types, each feasible and infeasible, 50 each.

Homes are SimuHome-style Matter homes (:func:`smh_core.homes.simulated.generate_matter_home`), so
every task exercises Matter locators, dependency rules, room physics and appliance programmes.
Goals follow the paper's scoring: feasible tasks are judged on the simulated state (for QT2 and
QT4 by running the agent's home forward), infeasible ones on the reply (a refusal that names
the problem) with nothing changed and nothing scheduled. Required actions ask for the
information-gathering call the paper requires (the room's device list, the room's climate).

QT1 environment perception, QT2 implicit intent, QT3 explicit intent, QT4-1 future scheduling,
QT4-2 dependency scheduling (after an appliance finishes), QT4-3 concurrent scheduling (one
appliance after another). Each task is validated at generation: the reference passes, doing
nothing fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.homes.simulated import generate_matter_home
from smh_core.sim.simulator import Simulator
from smh_core.task.model import Task

from .common import call

QUERY_TYPES = ("QT1", "QT2", "QT3", "QT4-1", "QT4-2", "QT4-3")
PER_VARIANT = 50
HOMES = 20
_DIFFICULTY = {
    "QT1": "simple",
    "QT3": "simple",
    "QT2": "medium",
    "QT4-1": "medium",
    "QT4-2": "complex",
    "QT4-3": "complex",
}
_VARIABLE_WORDS = {
    "temperature": ("temperature", "°C"),
    "humidity": ("humidity", "%"),
    "illuminance": ("light level", "lux"),
    "pm25": ("PM2.5 level", "µg/m³"),
    "pm10": ("PM10 level", "µg/m³"),
}
_TOLERANCE = {"temperature": 0.6, "humidity": 1.0, "pm25": 1.0, "pm10": 1.0}

Made = dict[str, Any]


# ----------------------------------------------------------------------------- home helpers
class QueryHome:
    """A generated Matter home at a task's start time, with naming helpers."""

    def __init__(self, home: Home, start: datetime) -> None:
        self.model = home
        self.engine = HomeEngine(home)
        self.sim = Simulator(self.engine, now=start)
        self.start = start

    def room_words(self, room: str) -> str:
        return self.engine.room(room).name.lower()

    def devices(self, room: str | None = None, kind: str | None = None) -> list[str]:
        return [d["did"] for d in self.engine.devices(room=room, subcategory=kind)]

    def phrase(self, did: str) -> str:
        dev = self.engine.device(did)
        return f"{dev.name.lower()} in the {self.room_words(dev.userdata.room)}"

    def value(self, did: str, loc: str) -> Any:
        return self.engine.value(did, loc)

    def at(self, seconds: float) -> str:
        return (self.start + timedelta(seconds=seconds)).isoformat()

    def clock(self, seconds: float = 0) -> str:
        t = self.start + timedelta(seconds=seconds)
        return t.strftime("%I:%M %p").lstrip("0")


def _required_devices(room: str) -> list[dict[str, Any]]:
    return [{"tool": "list_devices", "arguments": {"room": room}}]


def _refusal(
    text: str, reason: str, response: str, checks: list[dict[str, Any]], **extra: Any
) -> Made:
    """An infeasible task: the reference refuses with ``response`` after the ``checks`` (tool
    calls) that reveal why, and those checks are also the task's required actions."""
    return {
        "text": text,
        **extra,
        "goal": {"kind": "infeasible", "reason": reason},
        "reference": {"mode": "refuse", "response": response, "tool_calls": checks},
        "required": checks,
    }


def _write(did: str, locator: str, value: Any) -> dict[str, Any]:
    return call(did, locator, value=value)


def _critic(did: str, pairs: dict[str, Any]) -> str:
    return " and ".join(
        f"device({did}).{loc} == {v!r}" if isinstance(v, str) else f"device({did}).{loc} == {v}"
        for loc, v in pairs.items()
    )


# ----------------------------------------------------------------------------- control recipes
def _changing_control(
    h: QueryHome, did: str, rng: random.Random
) -> tuple[list[dict], dict[str, Any], str] | None:
    """:func:`_control` of ``did``, kept only when it would change the device (a request the
    home already satisfies is no task)."""
    made = _control(h, did, rng)
    if made is None or all(h.value(did, loc) == v for loc, v in made[1].items()):
        return None
    return made


def _control(
    h: QueryHome, did: str, rng: random.Random
) -> tuple[list[dict], dict[str, Any], str] | None:
    """An explicit change of one device: calls, the state they reach, and how a user says it."""
    kind = h.engine.device(did).userdata.subcategory
    name = h.phrase(did)
    if kind == "dimmable_light":
        level = rng.choice([25, 50, 80, 127, 200, 254])
        return (
            [call(did, "1.LevelControl.MoveToLevelWithOnOff", level=level)],
            {"1.OnOff.OnOff": True, "1.LevelControl.CurrentLevel": level},
            rng.choice(
                [
                    f"turn the {name} on and set it to level {level}",
                    f"put the {name} at level {level}",
                ]
            ),
        )
    if kind in ("fan", "air_purifier", "humidifier", "dehumidifier"):
        pct = rng.choice([20, 30, 40, 50, 60, 80, 100])
        return (
            [call(did, "1.OnOff.On"), _write(did, "1.FanControl.PercentSetting", pct)],
            {"1.OnOff.OnOff": True, "1.FanControl.PercentSetting": pct},
            rng.choice(
                [
                    f"turn on the {name} and set the fan to {pct} percent",
                    f"power on the {name} at {pct}%",
                ]
            ),
        )
    if kind == "air_conditioner":
        mode, word = rng.choice([(3, "cooling"), (4, "heating")])
        pct = rng.choice([30, 50, 70, 100])
        return (
            [
                call(did, "1.OnOff.On"),
                _write(did, "1.Thermostat.SystemMode", mode),
                _write(did, "1.FanControl.PercentSetting", pct),
            ],
            {
                "1.OnOff.OnOff": True,
                "1.Thermostat.SystemMode": mode,
                "1.FanControl.PercentSetting": pct,
            },
            rng.choice(
                [
                    f"turn the {name} on, switch it to {word} mode and set the fan to {pct} percent",
                    f"switch on the {name} in {word} mode with the fan at {pct}%",
                ]
            ),
        )
    if kind == "on_off_light":
        on = not h.value(did, "1.OnOff.OnOff")
        return (
            [call(did, "1.OnOff.On" if on else "1.OnOff.Off")],
            {"1.OnOff.OnOff": on},
            f"turn {'on' if on else 'off'} the {name}",
        )
    return None


_CONTROLLABLE = (
    "dimmable_light",
    "fan",
    "air_purifier",
    "humidifier",
    "dehumidifier",
    "air_conditioner",
    "on_off_light",
)


def _missing_label(h: QueryHome, room: str, rng: random.Random) -> str | None:
    """A controllable device type the room lacks, in words ("air purifier"), or ``None``."""
    present = {h.engine.device(d).userdata.subcategory for d in h.devices(room)}
    absent = [k for k in _CONTROLLABLE if k not in present]
    return rng.choice(absent).replace("_", " ") if absent else None


def _no_such_device(
    h: QueryHome, rng: random.Random, room: str, rw: str, requests: list[str], sorry: str
) -> Made | None:
    """An infeasible request naming a kind of device the room lacks: one of ``requests`` and the
    refusal ``sorry`` (both with ``{label}`` and ``{rw}``), or None when the room lacks none."""
    label = _missing_label(h, room, rng)
    if label is None:
        return None
    text = rng.choice([r.format(label=label, rw=rw) for r in requests])
    return _refusal(
        text,
        f"there is no {label} in the {rw}",
        sorry.format(label=label, rw=rw),
        _required_devices(room),
    )


# ----------------------------------------------------------------------------- QT1
def qt1(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    room = rng.choice(h.engine.simulated_rooms())
    rw = h.room_words(room)
    if not feasible:
        return _no_such_device(
            h,
            rng,
            room,
            rw,
            [
                "What fan speed is {label} 1 in the {rw} running at?",
                "Can you tell me the vendor ID of the {label} in the {rw}?",
                "Is {label} 1 in the {rw} switched on?",
            ],
            "Sorry, there is no {label} in the {rw}, so I cannot tell you that.",
        )
    var = rng.choice(["temperature", "humidity", "pm25", "pm10"])
    words, unit = _VARIABLE_WORDS[var]
    value = round(h.engine.environment(room)[var], 1)
    text = rng.choice(
        [
            f"I'm about to cook, how is the {words} in the {rw} right now?",
            f"What's the {words} in the {rw}?",
            f"Can you check the {rw} {words} for me? I want to know if it's comfortable.",
        ]
    )
    call = {"tool": "get_room_environment", "arguments": {"room": room}}
    return {
        "text": text,
        "goal": {
            "kind": "query",
            "facts": [{"kind": "number", "value": value, "tolerance": _TOLERANCE[var]}],
        },
        "reference": {
            "mode": "answer",
            "response": f"The {words} in the {rw} is {value:g} {unit}.",
            "tool_calls": [call],
        },
        "required": [call],
    }


# ----------------------------------------------------------------------------- QT2
_COMPLAINTS = {  # kind -> (variable, direction, override value, phrasings)
    "humidifier": (
        "humidity",
        +1,
        25.0,
        [
            "the {rw} feels really dry, my hands are tight",
            "my throat is scratchy, the air in the {rw} is so dry",
        ],
    ),
    "dehumidifier": (
        "humidity",
        -1,
        75.0,
        ["the {rw} feels damp and sticky", "it's so muggy in the {rw}, everything feels wet"],
    ),
    "air_purifier": (
        "pm10",
        -1,
        120.0,
        [
            "the {rw} feels dusty, my eyes are itching",
            "there's grit in the air in the {rw}, it's hard to breathe",
        ],
    ),
    "air_conditioner": (
        "temperature",
        -1,
        30.0,
        ["the {rw} is like a sauna", "it's way too hot in the {rw}"],
    ),
}


def _future_value(
    h: QueryHome, room: str, var: str, overrides: dict, actions: list[dict], seconds: float
) -> float:
    """The room variable after ``seconds`` with the overrides and (optionally) the actions."""
    eng = HomeEngine(h.model)
    for did, vals in overrides.items():
        eng.set_values(did, vals)
    sim = Simulator(eng, now=h.start)
    for a in actions:
        eng.execute(a["did"], a["locator"], a["arguments"])
    sim.advance(seconds)
    value = eng.environment(room)[var]
    sim.close()
    return value


_FULL_POWER = {
    "1.OnOff.OnOff": True,
    "1.FanControl.FanMode": 3,
    "1.FanControl.PercentSetting": 100,
    "1.FanControl.PercentCurrent": 100,
}
_AC_FULL_COOLING = {
    **_FULL_POWER,
    "1.Thermostat.SystemMode": 3,
    "1.Thermostat.OccupiedCoolingSetpoint": 1600,
}
_FIX_VERBS = {
    "humidifier": "humidify",
    "dehumidifier": "dry",
    "air_purifier": "clean the air in",
    "air_conditioner": "cool",
}


def _qt2_at_limit(h: QueryHome, rng: random.Random, room: str, kinds: list[str]) -> Made:
    """The physical-limit case of SimuHome's QT2-infeasible: the device that would help is
    already at full power (an AC cooling at its lowest setpoint and top fan speed), so the
    agent must check it and explain that nothing more can be done, changing nothing."""
    rw = h.room_words(room)
    kind = rng.choice(kinds)
    var, _, bad, phrasings = _COMPLAINTS[kind]
    did = rng.choice(h.devices(room, kind))
    full = _AC_FULL_COOLING if kind == "air_conditioner" else _FULL_POWER
    checks = [
        {"tool": "get_room_environment", "arguments": {"room": room}},
        {"tool": "get_device_status", "arguments": {"did": did}},
    ]
    return _refusal(
        rng.choice(phrasings).format(rw=rw).capitalize() + ".",
        f"the {h.phrase(did)} is already running at full power",
        f"Sorry, the {h.phrase(did)} is already running at full power, so I can't "
        f"{_FIX_VERBS[kind]} the {rw} any faster.",
        checks,
        overrides=[{"did": f"@{room}", "values": {var: bad}}, {"did": did, "values": full}],
    )


def qt2(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    room = rng.choice(h.engine.simulated_rooms())
    rw = h.room_words(room)
    present = {h.engine.device(d).userdata.subcategory for d in h.devices(room)}
    if not feasible:
        helpers = [k for k in _COMPLAINTS if k in present]
        if (
            helpers and rng.random() < 0.5
        ):  # half device limits, half missing devices, as SimuHome's
            return _qt2_at_limit(h, rng, room, helpers)
        kinds = [k for k in _COMPLAINTS if k not in present]
        if not kinds:
            return None
        kind = rng.choice(kinds)
        var, _, bad, phrasings = _COMPLAINTS[kind]
        label = kind.replace("_", " ")
        return _refusal(
            rng.choice(phrasings).format(rw=rw).capitalize() + ".",
            f"the {rw} has no {label} to fix its {var}",
            f"Sorry, there is no {label} in the {rw}, so I can't change its {_VARIABLE_WORDS[var][0]}.",
            _required_devices(room),
            overrides=[{"did": f"@{room}", "values": {var: bad}}],
        )
    kinds = [k for k in _COMPLAINTS if k in present]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    var, sign, bad, phrasings = _COMPLAINTS[kind]
    did = rng.choice(h.devices(room, kind))
    actions = [call(did, "1.OnOff.On"), _write(did, "1.FanControl.PercentSetting", 100)]
    if kind == "air_conditioner":
        actions = [
            call(did, "1.OnOff.On"),
            _write(did, "1.Thermostat.SystemMode", 3),
            _write(did, "1.Thermostat.OccupiedCoolingSetpoint", 2200),
            _write(did, "1.FanControl.PercentSetting", 100),
        ]
    overrides = {f"@{room}": {var: bad}}
    seconds = 600.0
    idle = _future_value(h, room, var, overrides, [], seconds)
    fixed = _future_value(h, room, var, overrides, actions, seconds)
    if abs(fixed - idle) < 1.0:
        return None
    mid = round((idle + fixed) / 2, 2)
    op = ">" if sign > 0 else "<"
    return {
        "text": rng.choice(phrasings).format(rw=rw).capitalize() + ".",
        "overrides": [{"did": f"@{room}", "values": {var: bad}}],
        "goal": {
            "kind": "timed",
            "may_change": h.devices(room),
            "checkpoints": [
                {
                    "at_seconds": seconds,
                    "critic": f"device(@{room}).{var} {op} {mid}",
                    "not_before": False,
                }
            ],
        },
        "reference": {
            "mode": "execute",
            "response": f"I turned on the {h.phrase(did)}.",
            "actions": actions,
            "tool_calls": [{"tool": "get_room_environment", "arguments": {"room": room}}],
        },
        "required": [{"tool": "get_room_environment", "arguments": {"room": room}}],
    }


# ----------------------------------------------------------------------------- QT3
def qt3(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    room = rng.choice(h.engine.simulated_rooms())
    rw = h.room_words(room)
    if not feasible:
        return _no_such_device(
            h,
            rng,
            room,
            rw,
            [
                "Please turn on {label} 1 in the {rw} and set it to 80 percent.",
                "Switch on the {rw} {label} 1, it's a bit stuffy this morning.",
            ],
            "Sorry, the {rw} has no {label}, so I cannot do that.",
        )
    dids = [d for d in h.devices(room) if h.engine.device(d).userdata.subcategory in _CONTROLLABLE]
    if not dids:
        return None
    chosen = rng.sample(dids, min(len(dids), rng.choice([1, 1, 2])))
    parts, actions, critics = [], [], []
    for did in chosen:
        made = _changing_control(h, did, rng)
        if made is None:
            return None
        calls, state, words = made
        parts.append(words)
        actions += calls
        critics.append(_critic(did, state))
    text = " and ".join(parts)
    return {
        "text": rng.choice(["Please ", "Could you ", ""]) + text + ".",
        "goal": {"kind": "execute", "critic": "; ".join(critics)},
        "reference": {
            "mode": "execute",
            "response": "Done.",
            "actions": actions,
            "tool_calls": _required_devices(room),
        },
        "required": _required_devices(room),
    }


# ----------------------------------------------------------------------------- QT4
def _appliance(h: QueryHome, rng: random.Random, kinds: tuple[str, ...]) -> str | None:
    dids = [d for d in h.devices() if h.engine.device(d).userdata.subcategory in kinds]
    return rng.choice(dids) if dids else None


def _running(h: QueryHome, did: str, rng: random.Random) -> tuple[dict[str, Any], int]:
    """Overrides that leave an appliance mid-programme, and its seconds to completion."""
    cycle = h.engine.device(did).dynamics.cycle
    mode_values = sorted(cycle.programs)
    mode = rng.choice([m for m in mode_values if m != "*"])
    total = sum(p.seconds for p in cycle.program(mode))
    left = rng.randrange(15, max(16, total // 60)) * 60
    values = {"1.OnOff.OnOff": True, cycle.state_attr: cycle.running, cycle.countdown_attr: left}
    if cycle.mode_attr:
        values[cycle.mode_attr] = int(mode)
    return values, left


def _some_change(
    h: QueryHome, rng: random.Random
) -> tuple[str, list[dict[str, Any]], dict[str, Any], str] | None:
    """A controllable device anywhere in the home and a request that would change it:
    (did, calls, target state, words), or ``None`` when this draw has none."""
    dids = [d for d in h.devices() if h.engine.device(d).userdata.subcategory in _CONTROLLABLE]
    if not dids:
        return None
    did = rng.choice(dids)
    made = _changing_control(h, did, rng)
    return None if made is None else (did, *made)


def qt4_1(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    change = _some_change(h, rng)
    if change is None:
        return None
    did, calls, state, words = change
    minutes = rng.randint(3, 40)
    room = h.engine.device(did).userdata.room
    if not feasible:
        claimed = h.start + timedelta(minutes=rng.choice([-90, -60, -30, 30, 60, 120]))
        said = (claimed + timedelta(minutes=minutes)).strftime("%I:%M %p").lstrip("0")
        text = (
            f"It's {claimed.strftime('%I:%M %p').lstrip('0')} now, right? In {minutes} minutes, "
            f"at {said}, {words}."
        )
        return _refusal(
            text,
            "the stated time contradicts the clock",
            f"Sorry, it is actually {h.clock()}, so {minutes} minutes from now is not {said}; "
            "which did you mean?",
            [{"tool": "get_current_time", "arguments": {}}],
        )
    text = rng.choice(
        [
            f"In {minutes} minutes, {words}.",
            f"{minutes} minutes from now, {words}.",
            f"I'll be back in a bit: {words} {minutes} minutes from now.",
        ]
    )
    return {
        "text": text[0].upper() + text[1:],
        "goal": {
            "kind": "timed",
            "checkpoints": [
                {"at_seconds": minutes * 60, "tolerance_seconds": 30, "critic": _critic(did, state)}
            ],
        },
        "reference": {
            "mode": "execute",
            "response": f"Scheduled for {h.clock(minutes * 60)}.",
            "schedules": [{"at": h.at(minutes * 60), "actions": calls}],
            "tool_calls": _required_devices(room),
        },
        "required": _required_devices(room),
    }


def qt4_2(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    app = _appliance(h, rng, ("laundry_washer", "dishwasher", "laundry_dryer"))
    if app is None:
        return None
    values, left = _running(h, app, rng)
    change = _some_change(h, rng)
    if change is None:
        return None
    did, calls, state, words = change
    delay = rng.choice([0, 5, 10, 15, 20])
    after = f"{delay} minutes after" if delay else "As soon as"
    app_words = h.phrase(app)
    if not feasible:
        wrong = left + rng.choice([-20, -10, 10, 25]) * 60
        finish = h.clock(wrong)
        text = (
            f"I think {app_words} finishes at {finish}, so {delay or 5} minutes before that, at "
            f"{h.clock(wrong - (delay or 5) * 60 + 60)}, {words}."
        )
        return _refusal(
            text,
            "the assumed completion time is wrong",
            f"Sorry, that doesn't add up: the {app_words} actually finishes at {h.clock(left)}, "
            f"not {finish}.",
            [{"tool": "get_device_status", "arguments": {"did": app}}],
            overrides=[{"did": app, "values": values}],
        )
    at = left + delay * 60
    text = f"{after} {app_words} finishes, {words}."
    return {
        "text": text[0].upper() + text[1:],
        "overrides": [{"did": app, "values": values}],
        "goal": {
            "kind": "timed",
            "may_change": [app],
            "checkpoints": [
                {"at_seconds": at, "tolerance_seconds": 60, "critic": _critic(did, state)}
            ],
        },
        "reference": {
            "mode": "execute",
            "response": f"Scheduled for {h.clock(at)}.",
            "schedules": [{"at": h.at(at), "actions": calls}],
            "tool_calls": [{"tool": "get_device_status", "arguments": {"did": app}}],
        },
        "required": [{"tool": "get_device_status", "arguments": {"did": app}}],
    }


def qt4_3(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    first = _appliance(h, rng, ("laundry_washer", "dishwasher"))
    second = _appliance(h, rng, ("laundry_dryer", "laundry_washer", "dishwasher"))
    if first is None or second is None or first == second:
        return None
    values, left = _running(h, first, rng)
    if h.value(second, "1.OperationalState.OperationalState") != 0:
        return None
    w1, w2 = h.phrase(first), h.phrase(second)
    if not feasible:
        deadline = rng.randrange(5, max(6, left // 60 - 5)) * 60
        text = f"Guests arrive soon: make sure {w1} and {w2} are both done by {h.clock(deadline)}."
        return _refusal(
            text,
            "the first appliance alone finishes after the deadline",
            f"Sorry, that's impossible: the {w1} alone needs until {h.clock(left)}.",
            [{"tool": "get_device_status", "arguments": {"did": first}}],
            overrides=[{"did": first, "values": values}],
        )
    wait = rng.choice([0, 5, 11, 15])
    at = left + wait * 60
    calls = [call(second, "1.OnOff.On"), call(second, "1.OperationalState.Start")]
    state = {"1.OperationalState.OperationalState": 1}
    extra = ""
    if h.engine.device(second).userdata.subcategory == "laundry_dryer":
        level = rng.choice([1, 2, 3])
        calls.insert(1, _write(second, "1.LaundryDryerControls.SelectedDrynessLevel", level))
        state["1.LaundryDryerControls.SelectedDrynessLevel"] = level
        extra = f" with dryness level {level}"
    when = f"wait {wait} minutes, then" if wait else "then"
    text = f"When {w1} finishes, {when} start {w2}{extra}."
    return {
        "text": text[0].upper() + text[1:],
        "overrides": [{"did": first, "values": values}],
        "goal": {
            "kind": "timed",
            "may_change": [first],
            "checkpoints": [
                {"at_seconds": at + 60, "tolerance_seconds": 60, "critic": _critic(second, state)}
            ],
        },
        "reference": {
            "mode": "execute",
            "response": f"Scheduled for {h.clock(at)}.",
            "schedules": [{"at": h.at(at), "actions": calls}],
            "tool_calls": [{"tool": "get_device_status", "arguments": {"did": first}}],
        },
        "required": [{"tool": "get_device_status", "arguments": {"did": first}}],
    }


MAKERS: dict[str, Callable[[QueryHome, random.Random, bool], Made | None]] = {
    "QT1": qt1,
    "QT2": qt2,
    "QT3": qt3,
    "QT4-1": qt4_1,
    "QT4-2": qt4_2,
    "QT4-3": qt4_3,
}


def start_time(rng: random.Random) -> datetime:
    """A task's start: a day in June 2025, between 8:00 and 19:50."""
    return datetime(2025, 6, 27, rng.randint(8, 19), rng.choice([0, 10, 20, 30, 40, 50]))


def made_task(
    made: Made, task_id: str, qt: str, variant: str, home: dict[str, Any], start: datetime
) -> Task:
    """The task a maker made: its query type, feasibility (``variant``) and start time."""
    return Task.model_validate(
        {
            "id": task_id,
            "suite": "simuhome",
            "category": qt,
            "subcategory": f"{qt}-{variant}",
            "difficulty": _DIFFICULTY[qt],
            "home": home,
            "start_time": start.isoformat(),
            "overrides": made.get("overrides", []),
            "turns": [{"text": made["text"][0].upper() + made["text"][1:]}],
            "goal": made["goal"],
            "reference": made["reference"],
            "required_actions": made.get("required", []),
        }
    )


def generate(
    seed: int = 0, per_variant: int = PER_VARIANT, validate_tasks: bool = True
) -> list[Task]:
    """``per_variant`` tasks for each query type and feasibility (600 by default)."""
    homes: dict[int, Home] = {}
    tasks: list[Task] = []
    for qt in QUERY_TYPES:
        for feasible in (True, False):
            variant = "feasible" if feasible else "infeasible"
            made_count, attempt = 0, 0
            while made_count < per_variant:
                attempt += 1
                if attempt > per_variant * 40:
                    raise RuntimeError(f"could not generate simuhome {qt} {variant}")
                home_seed = (made_count + attempt) % HOMES
                if home_seed not in homes:
                    homes[home_seed] = generate_matter_home(home_seed)
                rng = random.Random(f"simuhome:{seed}:{qt}:{variant}:{made_count}:{attempt}")
                start = start_time(rng)
                h = QueryHome(homes[home_seed], start)
                made = MAKERS[qt](h, rng, feasible)
                h.sim.close()
                if made is None:
                    continue
                tasks.append(
                    made_task(
                        made,
                        f"simuhome-{qt.lower()}-{variant[0]}-{made_count:03d}",
                        qt,
                        variant,
                        {"generator": "matter", "seed": home_seed},
                        start,
                    )
                )
                made_count += 1
    if validate_tasks:
        from .common import validate

        validate(tasks)
    return tasks
