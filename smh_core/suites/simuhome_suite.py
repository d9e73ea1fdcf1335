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
from types import ModuleType
from typing import Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.homes.simulated import generate_matter_home
from smh_core.languages.simuhome import en as EN
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
_TOLERANCE = {"temperature": 0.6, "humidity": 1.0, "pm25": 1.0, "pm10": 1.0}

Made = dict[str, Any]


# ----------------------------------------------------------------------------- home helpers
class QueryHome:
    """A generated Matter home at a task's start time, with naming helpers in the language of
    the wording ``w`` (:mod:`smh_core.languages.simuhome`; English by default)."""

    def __init__(self, home: Home, start: datetime, w: ModuleType = EN) -> None:
        self.model = home
        self.engine = HomeEngine(home)
        self.sim = Simulator(self.engine, now=start)
        self.start = start
        self.w = w

    def room_words(self, room: str) -> dict[str, str]:
        """The forms of a room's name the wording's sentences take (``rw``, ``room_in``, ...)."""
        return self.w.room(self.engine.room(room).name)

    def devices(self, room: str | None = None, kind: str | None = None) -> list[str]:
        return [d["did"] for d in self.engine.devices(room=room, subcategory=kind)]

    def phrase(self, did: str) -> str:
        """A device as a request's object, with its room (Matter names repeat across rooms)."""
        dev = self.engine.device(did)
        return self.w.device(dev.name, self.engine.room(dev.userdata.room).name)

    def subject(self, did: str) -> str:
        """A device as a sentence's subject (German: the nominative article)."""
        dev = self.engine.device(did)
        return self.w.device_subject(dev.name, self.engine.room(dev.userdata.room).name)

    def value(self, did: str, loc: str) -> Any:
        return self.engine.value(did, loc)

    def at(self, seconds: float) -> str:
        return (self.start + timedelta(seconds=seconds)).isoformat()

    def clock(self, seconds: float = 0) -> str:
        return self.w.clock(self.start + timedelta(seconds=seconds))

    def device_rooms(self) -> list[str]:
        """The rooms a request about devices (not the room's climate) may name: those whose
        climate is simulated (every room of SimuHome's homes), or every room of a home that
        simulates none (a twin of a Home Assistant home: HA shows no room's climate)."""
        return self.engine.simulated_rooms() or [r.id for r in self.model.rooms]


def cap(text: str) -> str:
    """``text`` with its first letter upper-case and the rest as written."""
    return text[:1].upper() + text[1:]


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
    name, w = h.phrase(did), h.w
    if kind == "dimmable_light":
        level = rng.choice([25, 50, 80, 127, 200, 254])
        return (
            [call(did, "1.LevelControl.MoveToLevelWithOnOff", level=level)],
            {"1.OnOff.OnOff": True, "1.LevelControl.CurrentLevel": level},
            rng.choice(w.LEVEL).format(device=name, level=level),
        )
    if kind in ("fan", "air_purifier", "humidifier", "dehumidifier"):
        pct = rng.choice([20, 30, 40, 50, 60, 80, 100])
        return (
            [call(did, "1.OnOff.On"), _write(did, "1.FanControl.PercentSetting", pct)],
            {"1.OnOff.OnOff": True, "1.FanControl.PercentSetting": pct},
            rng.choice(w.FAN).format(device=name, pct=pct),
        )
    if kind == "air_conditioner":
        mode, _ = rng.choice([(3, "cooling"), (4, "heating")])
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
            rng.choice(w.AC).format(device=name, mode=w.MODES[mode], pct=pct),
        )
    if kind == "on_off_light":
        on = not h.value(did, "1.OnOff.OnOff")
        return (
            [call(did, "1.OnOff.On" if on else "1.OnOff.Off")],
            {"1.OnOff.OnOff": on},
            (w.TURN_ON if on else w.TURN_OFF).format(device=name),
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


def _missing_kind(h: QueryHome, room: str, rng: random.Random) -> str | None:
    """A controllable device type the room lacks ("air_purifier"), or ``None``."""
    present = {h.engine.device(d).userdata.subcategory for d in h.devices(room)}
    absent = [k for k in _CONTROLLABLE if k not in present]
    return rng.choice(absent) if absent else None


def _no_such_device(
    h: QueryHome, rng: random.Random, room: str, requests: tuple[str, ...], sorry: str
) -> Made | None:
    """An infeasible request naming a kind of device the room lacks: one of ``requests`` and the
    refusal ``sorry`` (both with the room's forms and the kind's, ``{label}``), or None when the
    room lacks none."""
    kind = _missing_kind(h, room, rng)
    if kind is None:
        return None
    words = {**h.room_words(room), **h.w.label(kind)}
    text = rng.choice(requests).format(**words)
    return _refusal(
        text, h.w.NO_DEVICE_REASON.format(**words), sorry.format(**words), _required_devices(room)
    )


# ----------------------------------------------------------------------------- QT1
def qt1(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    room = rng.choice(h.device_rooms())
    rw, w = h.room_words(room), h.w
    if not feasible:
        return _no_such_device(h, rng, room, w.QT1_MISSING, w.QT1_MISSING_SORRY)
    if room not in h.engine.simulated_rooms():
        return None  # a question about the room's climate, which this home does not simulate
    var = rng.choice(["temperature", "humidity", "pm25", "pm10"])
    words, unit = w.VARIABLES[var]
    value = round(h.engine.environment(room)[var], 1)
    said = {**rw, "words": words, "unit": unit, "value": w.number(value)}
    text = rng.choice(w.QT1_ASK).format(**said)
    call = {"tool": "get_room_environment", "arguments": {"room": room}}
    return {
        "text": text,
        "goal": {
            "kind": "query",
            "facts": [{"kind": "number", "value": value, "tolerance": _TOLERANCE[var]}],
        },
        "reference": {
            "mode": "answer",
            "response": cap(w.QT1_ANSWER.format(**said)),
            "tool_calls": [call],
        },
        "required": [call],
    }


# ----------------------------------------------------------------------------- QT2
_COMPLAINTS = {  # kind -> (variable, direction, override value); phrasings: w.COMPLAINTS[kind]
    "humidifier": ("humidity", +1, 25.0),
    "dehumidifier": ("humidity", -1, 75.0),
    "air_purifier": ("pm10", -1, 120.0),
    "air_conditioner": ("temperature", -1, 30.0),
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


def _qt2_at_limit(h: QueryHome, rng: random.Random, room: str, kinds: list[str]) -> Made:
    """The physical-limit case of SimuHome's QT2-infeasible: the device that would help is
    already at full power (an AC cooling at its lowest setpoint and top fan speed), so the
    agent must check it and explain that nothing more can be done, changing nothing."""
    rw, w = h.room_words(room), h.w
    kind = rng.choice(kinds)
    var, _, bad = _COMPLAINTS[kind]
    did = rng.choice(h.devices(room, kind))
    full = _AC_FULL_COOLING if kind == "air_conditioner" else _FULL_POWER
    checks = [
        {"tool": "get_room_environment", "arguments": {"room": room}},
        {"tool": "get_device_status", "arguments": {"did": did}},
    ]
    said = {**rw, "device": h.subject(did), "fix": w.FIX[kind].format(**rw)}
    return _refusal(
        w.sentence(rng.choice(w.COMPLAINTS[kind]).format(**rw)),
        w.AT_LIMIT_REASON.format(**said),
        w.AT_LIMIT_SORRY.format(**said),
        checks,
        overrides=[{"did": f"@{room}", "values": {var: bad}}, {"did": did, "values": full}],
    )


def qt2(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    room = rng.choice(h.engine.simulated_rooms())
    rw, w = h.room_words(room), h.w
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
        var, _, bad = _COMPLAINTS[kind]
        said = {**rw, **w.label(kind), "var": var, "words": w.VARIABLES[var][0]}
        return _refusal(
            w.sentence(rng.choice(w.COMPLAINTS[kind]).format(**rw)),
            w.NO_HELPER_REASON.format(**said),
            w.NO_HELPER_SORRY.format(**said),
            _required_devices(room),
            overrides=[{"did": f"@{room}", "values": {var: bad}}],
        )
    kinds = [k for k in _COMPLAINTS if k in present]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    var, sign, bad = _COMPLAINTS[kind]
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
        "text": w.sentence(rng.choice(w.COMPLAINTS[kind]).format(**rw)),
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
            "response": cap(w.TURNED_ON.format(device=h.phrase(did))),
            "actions": actions,
            "tool_calls": [{"tool": "get_room_environment", "arguments": {"room": room}}],
        },
        "required": [{"tool": "get_room_environment", "arguments": {"room": room}}],
    }


# ----------------------------------------------------------------------------- QT3
def qt3(h: QueryHome, rng: random.Random, feasible: bool) -> Made | None:
    room = rng.choice(h.device_rooms())
    w = h.w
    if not feasible:
        return _no_such_device(h, rng, room, w.QT3_MISSING, w.QT3_MISSING_SORRY)
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
    text = w.AND.join(parts)
    return {
        "text": rng.choice(w.QT3_OPENINGS) + text + w.END,
        "goal": {"kind": "execute", "critic": "; ".join(critics)},
        "reference": {
            "mode": "execute",
            "response": w.DONE,
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
    w = h.w
    if not feasible:
        claimed = h.start + timedelta(minutes=rng.choice([-90, -60, -30, 30, 60, 120]))
        said = {
            "claimed": w.clock(claimed),
            "said": w.clock(claimed + timedelta(minutes=minutes)),
            "minutes": minutes,
            "words": words,
            "Words": cap(words),
            "now": h.clock(),
        }
        return _refusal(
            w.WRONG_CLOCK.format(**said),
            w.WRONG_CLOCK_REASON,
            w.WRONG_CLOCK_SORRY.format(**said),
            [{"tool": "get_current_time", "arguments": {}}],
        )
    text = rng.choice(w.LATER).format(minutes=minutes, words=words, Words=cap(words))
    return {
        "text": cap(text),
        "goal": {
            "kind": "timed",
            "checkpoints": [
                {"at_seconds": minutes * 60, "tolerance_seconds": 30, "critic": _critic(did, state)}
            ],
        },
        "reference": {
            "mode": "execute",
            "response": w.SCHEDULED.format(clock=h.clock(minutes * 60)),
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
    w = h.w
    if not feasible:
        wrong = left + rng.choice([-20, -10, 10, 25]) * 60
        said = {
            "app": h.subject(app),
            "finish": h.clock(wrong),
            "before": delay or 5,
            "at": h.clock(wrong - (delay or 5) * 60 + 60),
            "real": h.clock(left),
            "words": words,
            "Words": cap(words),
        }
        return _refusal(
            w.WRONG_FINISH.format(**said),
            w.WRONG_FINISH_REASON,
            w.WRONG_FINISH_SORRY.format(**said),
            [{"tool": "get_device_status", "arguments": {"did": app}}],
            overrides=[{"did": app, "values": values}],
        )
    at = left + delay * 60
    text = w.AFTER[bool(delay)].format(
        app=h.subject(app), delay=delay, words=words, Words=cap(words)
    )
    return {
        "text": cap(text),
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
            "response": w.SCHEDULED.format(clock=h.clock(at)),
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
    w = h.w
    if not feasible:
        deadline = rng.randrange(5, max(6, left // 60 - 5)) * 60
        said = {
            "first": h.subject(first),
            "second": h.subject(second),
            "deadline": h.clock(deadline),
            "until": h.clock(left),
        }
        return _refusal(
            w.DEADLINE.format(**said),
            w.DEADLINE_REASON,
            w.DEADLINE_SORRY.format(**said),
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
        extra = w.DRYNESS.format(level=level)
    text = w.THEN[bool(wait)].format(
        first=h.subject(first), second=h.phrase(second), wait=wait, extra=extra
    )
    return {
        "text": cap(text),
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
            "response": w.SCHEDULED.format(clock=h.clock(at)),
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
    tasks = draw(
        seed, per_variant, EN, generate_matter_home, lambda s: {"generator": "matter", "seed": s}
    )
    if validate_tasks:
        from .common import validate

        validate(tasks)
    return tasks


def draw(
    seed: int,
    per_variant: int,
    w: ModuleType,
    home_of: Callable[[int], Home],
    ref_of: Callable[[int], dict[str, Any]],
) -> list[Task]:
    """The suite's tasks said in the wording ``w``, on the homes ``home_of(seed)`` (referred to
    by ``ref_of(seed)``): the same seeds and random streams in every language, so task ``i`` of
    one language is task ``i`` of another."""
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
                    homes[home_seed] = home_of(home_seed)
                rng = random.Random(f"simuhome:{seed}:{qt}:{variant}:{made_count}:{attempt}")
                start = start_time(rng)
                h = QueryHome(homes[home_seed], start, w)
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
                        ref_of(home_seed),
                        start,
                    )
                )
                made_count += 1
    return tasks
