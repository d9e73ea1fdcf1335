"""SMH-Bench TC4, automated task scheduling: time-specific, state-driven, time-and-state.

Each task asks for a rule, not an action now. The goal is an automation goal: the agent must
store a rule whose triggers and conditions are *equivalent* to the reference's (same firing
times and states, checked by :mod:`smh_core.sim.equivalence`, so ``0 0 22 * * ? *`` and
``0 22 * * *`` both pass) and whose actions reach the critic when run on a copy of the home.
Tasks start on Thursday 27 June 2024 at 09:00, as in the paper's examples.

* time-specific: a one-shot Quartz cron with a year ("tonight at 10"), a daily or a weekday
  cron ("every morning at 7", "on weekdays at 6:45");
* state-driven: a device becoming a state ("when the front door unlocks"), a sensor crossing a
  threshold ("when the bedroom gets above 28 degrees"), or no movement for a while
  (``no_move_duration`` above N seconds);
* time-and-state: a daily cron gated by a numeric or state condition.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from smh_core.homeenv.capabilities import setters, switches
from smh_core.homeenv.critic import Compare, Ref
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType
from smh_core.homeenv.samples import valid_value
from smh_core.languages.smh import en as EN

from .common import lit

SCHEDULE_SUBCATEGORIES = ("time_specific", "state_driven", "time_and_state")
START = "2024-06-27T09:00:00"  # a Thursday


def _action(
    engine: HomeEngine, rng: random.Random, exclude: set[str], w: ModuleType = EN
) -> dict[str, Any] | None:
    """One device change: the service call, the critic pairs and the words for it."""
    dids = [d for d in engine.device_ids() if d not in exclude]
    rng.shuffle(dids)
    for did in dids[:20]:
        device = engine.device(did)
        specs = dict(device.attributes_by_locator())
        options: list[tuple[str, str]] = [("switch", loc) for loc in switches(device)]
        options += [
            ("set", loc)
            for loc, _ in setters(device).items()
            if specs[loc].type in (AttrType.INT, AttrType.FLOAT, AttrType.BOOL)
            or (specs[loc].type == AttrType.STR and specs[loc].options)
        ]
        if not options:
            continue
        kind, loc = rng.choice(options)
        current = engine.value(did, loc)
        if kind == "switch":
            sw = switches(device)[loc]
            on = current != sw.on_value
            service, value = (sw.on_service, sw.on_value) if on else (sw.off_service, sw.off_value)
            call = {"did": did, "locator": service, "arguments": {}}
            words = w.switch_words(device.name, on)
        else:
            st = setters(device)[loc]
            value = valid_value(specs[loc], rng)
            if value == current:
                continue
            call = {"did": did, "locator": st.service, "arguments": {st.argument: value}}
            words = w.set_words(device.name, loc, value, specs[loc].unit)
        trial = HomeEngine(engine.home)
        trial.restore(engine.snapshot())
        if not trial.execute(call["did"], call["locator"], call["arguments"]).ok:
            continue  # a precondition (device off) would make the rule fail when it fires
        return {"did": did, "call": call, "critic": [(loc, value)], "words": words}
    return None


def _critic(actions: list[dict[str, Any]]) -> str:
    parts = []
    for a in actions:
        parts.append(
            " and ".join(
                Compare(Ref(a["did"], loc), "==", lit(v)).to_text() for loc, v in a["critic"]
            )
        )
    return "; ".join(parts)


def _time_trigger(rng: random.Random, w: ModuleType = EN) -> tuple[dict[str, Any], str]:
    """A cron trigger and how a user would say it."""
    kind = rng.choice(["tonight", "tomorrow", "daily", "weekdays", "weekend"])
    minute = rng.choice([0, 0, 15, 30, 45])
    if kind == "tonight":
        hour = rng.randint(18, 23)
        return (
            {"kind": "time", "cron": f"0 {minute} {hour} 27 6 ? 2024"},
            rng.choice(w.TONIGHT).format(clock=w.clock(hour, minute)),
        )
    if kind == "tomorrow":
        hour = rng.randint(6, 21)
        return (
            {"kind": "time", "cron": f"0 {minute} {hour} 28 6 ? 2024"},
            rng.choice(w.TOMORROW).format(clock=w.clock(hour, minute)),
        )
    hour = rng.randint(6, 22)
    if kind == "daily":
        return (
            {"kind": "time", "cron": f"0 {minute} {hour} * * ? *"},
            rng.choice(w.DAILY).format(clock=w.clock(hour, minute)),
        )
    if kind == "weekdays":
        return (
            {"kind": "time", "cron": f"0 {minute} {hour} ? * 2-6 *"},
            rng.choice(w.WEEKDAYS).format(clock=w.clock(hour, minute)),
        )
    return (
        {"kind": "time", "cron": f"0 {minute} {hour} ? * 1,7 *"},
        rng.choice(w.WEEKEND).format(clock=w.clock(hour, minute)),
    )


def _sensor_refs(engine: HomeEngine) -> list[tuple[str, str, str, Any]]:
    """(did, locator, words, spec) of numeric readings usable as thresholds."""
    out = []
    for did in engine.device_ids():
        dev = engine.device(did)
        if dev.userdata.room is None:  # a reading nobody can place ("in the <room>")
            continue
        room = engine.room(dev.userdata.room).name
        for loc, a in dev.attributes_by_locator():
            name = loc.rsplit(".", 1)[-1]
            if name in ("current_temperature", "current_humidity", "pm25", "no_move_duration"):
                out.append((did, loc, room, a))
    return out


def _state_trigger(
    engine: HomeEngine, rng: random.Random, w: ModuleType = EN
) -> tuple[dict[str, Any], str, str] | None:
    """A state or numeric trigger, its wording, and the device it watches."""
    choice = rng.random()
    sensors = _sensor_refs(engine)
    if choice < 0.45 and sensors:
        did, loc, room, spec = rng.choice(sensors)
        name = loc.rsplit(".", 1)[-1]
        where = w.room_parts(room)
        if name == "no_move_duration":
            minutes = rng.choice([5, 10, 15, 20, 30])
            return (
                {"kind": "numeric", "did": did, "locator": loc, "above": minutes * 60},
                rng.choice(w.NO_MOVE).format(**where, minutes=minutes),
                did,
            )
        if name == "current_temperature":
            t = rng.choice([26, 27, 28, 29, 30, 32, 35])
            if rng.random() < 0.5:
                return (
                    {"kind": "numeric", "did": did, "locator": loc, "above": float(t)},
                    rng.choice(w.HOT).format(**where, t=t),
                    did,
                )
            t = rng.choice([16, 17, 18, 19, 20])
            return (
                {"kind": "numeric", "did": did, "locator": loc, "below": float(t)},
                w.COLD.format(**where, t=t),
                did,
            )
        if name == "current_humidity":
            h = rng.choice([60, 65, 70, 75])
            return (
                {"kind": "numeric", "did": did, "locator": loc, "above": float(h)},
                rng.choice(w.HUMID).format(**where, h=h),
                did,
            )
        level = rng.choice([35, 50, 75, 100])
        return (
            {"kind": "numeric", "did": did, "locator": loc, "above": float(level)},
            w.DUSTY.format(**where, level=level),
            did,
        )
    dids = list(engine.device_ids())
    rng.shuffle(dids)
    for did in dids:
        sw = switches(engine.device(did))
        if not sw:
            continue
        loc, s = next(iter(sw.items()))
        name = engine.device(did).name
        to_on = rng.random() < 0.5
        value = s.on_value if to_on else s.off_value
        shown = value if isinstance(value, str) else ("on" if value else "off")
        said = w.device_parts(name) | {"shown": w.state_word(value)}
        phrasings = w.TURNS[shown] if shown in ("on", "off") else w.BECOMES
        return (
            {"kind": "state", "did": did, "locator": loc, "to": value},
            rng.choice(phrasings).format(**said),
            did,
        )
    return None


def _condition(
    engine: HomeEngine, rng: random.Random, exclude: set[str], w: ModuleType = EN
) -> tuple[dict[str, Any], str] | None:
    sensors = [
        s
        for s in _sensor_refs(engine)
        if s[0] not in exclude and s[1].endswith(("temperature", "humidity"))
    ]
    if sensors and rng.random() < 0.7:
        did, loc, room, _ = rng.choice(sensors)
        where = w.room_parts(room)
        if loc.endswith("temperature"):
            t = rng.choice([26, 28, 30, 35])
            return (
                {"kind": "numeric", "did": did, "locator": loc, "above": float(t)},
                rng.choice(w.IF_HOT).format(**where, t=t),
            )
        h = rng.choice([55, 60, 70])
        return (
            {"kind": "numeric", "did": did, "locator": loc, "above": float(h)},
            w.IF_HUMID.format(**where, h=h),
        )
    for did in engine.device_ids():
        if did in exclude:
            continue
        sw = switches(engine.device(did))
        if sw:
            loc, s = next(iter(sw.items()))
            name = engine.device(did).name
            value = rng.choice([s.on_value, s.off_value])
            said = w.device_parts(name) | {"shown": w.state_word(value)}
            return (
                {"kind": "state", "did": did, "locator": loc, "equals": value},
                w.IF_STATE.format(**said),
            )
    return None


def schedule_task(
    sub: str, engine: HomeEngine, rng: random.Random, w: ModuleType = EN
) -> dict[str, Any] | None:
    """One TC4 task of subcategory ``sub`` on ``engine``'s home, worded by ``w``
    (:mod:`smh_core.languages.smh`), or ``None`` if it has no fit."""
    conditions: list[dict[str, Any]] = []
    watched: set[str] = set()
    if sub == "time_specific":
        trigger, when = _time_trigger(rng, w)
    elif sub == "state_driven":
        made = _state_trigger(engine, rng, w)
        if made is None:
            return None
        trigger, when, src = made
        watched.add(src)
    elif sub == "time_and_state":
        trigger, when = _time_trigger(rng, w)
        if "2024" in trigger["cron"]:  # a condition on a one-shot reads oddly; make it daily
            parts = trigger["cron"].split()
            trigger = {"kind": "time", "cron": f"{parts[0]} {parts[1]} {parts[2]} * * ? *"}
            when = w.DAILY[0].format(clock=w.clock(int(parts[2]), int(parts[1])))
        cond = _condition(engine, rng, watched, w)
        if cond is None:
            return None
        conditions.append(cond[0])
        watched.add(cond[0]["did"])
        when = w.WHEN_IF.format(when=when, cond=cond[1])
    else:
        raise ValueError(f"unknown scheduling subcategory {sub!r}")
    actions = []
    for _ in range(1 if rng.random() < 0.6 else 2):
        act = _action(engine, rng, watched | {a["did"] for a in actions}, w)
        if act is not None:
            actions.append(act)
    if not actions:
        return None
    text = w.RULE.format(when=when.rstrip(","), actions=w.join([a["words"] for a in actions]))
    rule = {
        "id": "r1",
        "name": text[:60],
        "triggers": [trigger],
        "conditions": conditions,
        "actions": [a["call"] for a in actions],
    }
    return {
        "subcategory": sub,
        "text": w.sentence(text),
        "start_time": START,
        "goal": {
            "kind": "automation",
            "triggers": [trigger],
            "conditions": conditions,
            "critic": _critic(actions),
        },
        "reference": {
            "mode": "automation",
            "response": w.SCHEDULED,
            "automations": [rule],
        },
    }
