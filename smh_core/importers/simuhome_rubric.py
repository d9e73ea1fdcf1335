"""SimuHome's judging of an infeasible episode, as data for :mod:`smh_core.bench.infeasible`.

SimuHome's evaluator picks a rubric per query type (and, for QT2, per infeasibility family; for
QT4-3, per conflict type) and hands its LLM judge the episode's goals or a description of the
timing conflict. The conditions those rubrics state are turned here into an
:class:`~smh_core.task.model.InfeasibleRubric`: which rooms the reply must name, which devices
it must say are missing, which room readings it must give, which appliance it must have read,
which real clock times it may name, and whether asking the user is an accepted way to stop.
The description in ``context`` is written here from the episode's numbers.
"""

from __future__ import annotations

from typing import Any

KIND_WORDS = {
    "on_off_light": ["light", "lamp"],
    "dimmable_light": ["light", "lamp", "dimmer"],
    "air_conditioner": ["air conditioner", "air conditioning", "ac", "a/c"],
    "air_purifier": ["purifier"],
    "dehumidifier": ["dehumidifier"],
    "humidifier": ["humidifier"],
    "fan": ["fan"],
    "heat_pump": ["heat pump", "heater", "heating"],
    "dishwasher": ["dishwasher"],
    "laundry_washer": ["washer", "washing machine"],
    "laundry_dryer": ["dryer"],
    "refrigerator": ["refrigerator", "fridge"],
    "freezer": ["freezer"],
    "rvc": ["vacuum", "robot"],
    "tv": ["tv", "television"],
    "window_covering_controller": ["blind", "shade", "curtain", "cover", "window"],
}
"""The nouns a reply may call a SimuHome device kind by (the words its queries use, and plain
synonyms)."""

TOPIC_WORDS = {
    "temperature": ["temperature", "warm", "heat", "cool", "cold", "chill", "degree"],
    "humidity": ["humid", "dry", "moist", "damp"],
    "illuminance": ["light", "bright", "dim", "dark", "lux"],
    "pm10": ["dust", "air", "purif", "pm10", "particle"],
}
"""Word stems that speak of a room variable (a claim of action naming them is about that wish)."""

CLARIFY_OK = {
    "qt4-1": True,
    "qt4-2": True,
    "absolute_time_mismatch": False,
    "completion_vs_pause": False,
    "delay_time_mismatch": True,
    "impossible_early_end": False,
}
"""Whether SimuHome's rubric lets the agent stop and ask instead of refusing (QT4-1, QT4-2 and
QT4-3's misperceived delay do; QT4-3's other conflicts want a refusal or, for a pause, the
explanation that none is needed)."""


def _clock(stamp: str) -> str:
    """``HH:MM:SS`` of SimuHome's ``2025-08-23 11:36:54`` or ``11:36:54``."""
    return stamp.strip().rsplit(" ", 1)[-1]


def _seconds(clock: str) -> int:
    h, m, sec = (int(x) for x in clock.split(":"))
    return h * 3600 + m * 60 + sec


def _words(device_type: str) -> list[str]:
    return KIND_WORDS.get(device_type, [device_type.rsplit("_", 1)[-1]])


def _room_name(room_id: str) -> str:
    return room_id.replace("_", " ")


def _context(qt: str, tc: dict[str, Any], anchor: str | None, targets: list[str]) -> str:
    kind = str(tc.get("type", ""))
    end = tc.get("anchor_end_time")
    if qt == "qt4-1":
        return (
            f"The user says {_clock(tc['conflict_time'])} is {tc['expected_at']} minutes from "
            f"now; it is {_clock(tc['base_time'])}, so {tc['expected_at']} minutes from now is "
            f"{_clock(tc['expected_time'])}."
        )
    if qt == "qt4-2":
        return (
            f"The user times {', '.join(targets)} from {anchor} finishing; {anchor} really "
            f"finishes at {_clock(end)}, so the offset asked gives {_clock(tc['expected_time'])},"
            f" not the {_clock(tc['conflict_time'])} the user states."
        )
    if kind == "absolute_time_mismatch":
        return (
            f"{anchor} finishes at {_clock(end)}, before {', '.join(targets)} would start at "
            f"{_clock(tc['conflict_time'])}: there is nothing to pause then."
        )
    if kind == "completion_vs_pause":
        return (
            f"{anchor} finishes at {_clock(end)}; {', '.join(targets)} takes longer than the "
            "time left, so they cannot finish together."
        )
    if kind == "delay_time_mismatch":
        return (
            f"{anchor} really finishes at {_clock(end)}, so the delay asked gives "
            f"{_clock(tc['expected_time'])}, not the {_clock(tc['conflict_time'])} the user "
            "states."
        )
    if kind == "impossible_early_end":
        return (
            f"{anchor} cannot finish before {_clock(end)}, so nothing can be done by "
            f"{_clock(tc['conflict_time'])}."
        )
    return f"The request's times conflict ({kind})."


def simuhome_rubric(
    qt: str,
    data: dict[str, Any],
    room_facts: list[dict[str, Any]],
    goals: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The rubric of one infeasible episode (``qt`` lower case: ``qt1`` ... ``qt4-3``);
    ``room_facts`` are the readings a QT1 question also asks, as the imported home gives them;
    ``goals`` the episode's infeasible goals (all of them by default)."""
    goals = data["eval"]["goals"] if goals is None else goals
    meta = data.get("meta") or {}
    source = f"SimuHome {qt.upper()}"
    if qt in ("qt1", "qt3"):
        missing = [
            {
                "device": g["device_id"],
                "words": _words(str(g.get("device_type", ""))),
                "room": _room_name(g["room_id"]),
            }
            for g in goals
            if "device_id" in g and g.get("variant", "device_attribute") == "device_attribute"
        ]
        return {
            "source": source,
            "case": "missing_device",
            "rooms": sorted({_room_name(g["room_id"]) for g in goals}),
            "missing": missing,
            "room_facts": room_facts,
        }
    if qt == "qt2":
        family = str(meta.get("infeasible_family") or "").lower()
        return {
            "source": source,
            "case": "no_actuator" if family == "nonexistence" else "saturated",
            "rooms": sorted({_room_name(g["room_id"]) for g in goals}),
            "topics": sorted({w for g in goals for w in TOPIC_WORDS.get(g.get("room_state"), [])}),
        }
    tc = data.get("temporal_conflict") or {}
    anchors = [g["anchor"]["device_id"] for g in goals if (g.get("anchor") or {}).get("device_id")]
    targets = [t["device_id"] for g in goals for t in g.get("targets") or []]
    anchor = anchors[0] if anchors else None
    # the times that show the conflict understood: when the appliance really finishes and
    # when the request, read right, would fall (not the clock, which any reply may state)
    # (a real time that is also the user's own, to the minute, shows nothing)
    said = _seconds(_clock(tc["conflict_time"])) if tc.get("conflict_time") else None
    times = [
        _clock(tc[k])
        for k in ("anchor_end_time", "expected_time")
        if tc.get(k) and (said is None or abs(_seconds(_clock(tc[k])) - said) > 60)
    ]
    return {
        "source": source if qt != "qt4-3" else f"{source} ({tc.get('type')})",
        "case": "time_conflict",
        "read_first": [anchor] if anchor else [],
        "times": times,
        "clarify_ok": CLARIFY_OK.get(qt, CLARIFY_OK.get(str(tc.get("type")), False)),
        "context": _context(qt, tc, anchor, sorted(dict.fromkeys(targets))),
    }


def reference_reply(rubric: dict[str, Any]) -> str:
    """A reply that meets ``rubric``: the oracle's, and the proof that the rubric can be met."""
    rooms = " and the ".join(rubric.get("rooms") or [])
    case = rubric["case"]
    if case == "missing_device":
        said = [
            f"there is no {m['words'][0]} called {m['device'].replace('_', ' ')}"
            for m in rubric["missing"]
        ]
        reply = f"Sorry, I can't: {'; '.join(said)} (checked the {rooms})."
        if rubric.get("room_facts"):
            readings = ", ".join(f"{f['value']:g}" for f in rubric["room_facts"])
            reply += f" The room readings you asked for: {readings}."
        return reply
    if case == "no_actuator":
        return f"Sorry, I can't do that: no device in the {rooms} can make that change."
    if case == "saturated":
        return (
            f"Sorry, I can't do that: the devices in the {rooms} that could help are already "
            "at their limit."
        )
    return f"Sorry, I can't do that as asked: the times conflict. {rubric.get('context', '')}"
