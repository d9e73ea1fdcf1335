"""From an HA intent and its slots to an SMH goal: the devices it targets, the state each must
reach (or the fact the answer must state), the calls that get there and a start state in which
doing nothing does not pass.

The rules follow what Home Assistant's intent handlers do with the same intent and slots, on
the SMH device type that plays the entity: ``HassTurnOn`` opens a cover or valve and locks a
lock, ``HassTurnOff`` closes and unlocks; a fan's speed percentage becomes the speed level HA's
``percentage_to_ordered_list_item`` picks; a colour name becomes the RGB HA's colour table gives
it. Targets: the named entity; else every entity of the domain (and device class) in the named
area; else every such entity in the home (HA's "turn on all the lights"), or the home's only
one where HA's handler needs exactly one (climate).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from smh_core.suites.common import device_critic

from .home import Entity, LanguageHome

SUPPORTED: dict[str, tuple[str, ...]] = {
    "HassTurnOn": ("light", "switch", "fan", "cover", "valve", "lock", "climate", "media_player"),
    "HassTurnOff": ("light", "switch", "fan", "cover", "valve", "lock", "climate", "media_player"),
    "HassLightSet": ("light",),
    "HassSetPosition": ("cover", "valve"),
    "HassClimateSetTemperature": ("climate",),
    "HassClimateGetTemperature": ("climate",),
    "HassFanSetSpeed": ("fan",),
    "HassMediaPause": ("media_player",),
    "HassMediaUnpause": ("media_player",),
    "HassMediaNext": ("media_player",),
    "HassMediaPrevious": ("media_player",),
    "HassMediaPlayerMute": ("media_player",),
    "HassMediaPlayerUnmute": ("media_player",),
    "HassSetVolume": ("media_player",),
    "HassVacuumStart": ("vacuum",),
    "HassVacuumReturnToBase": ("vacuum",),
}
"""Intents the suite writes tasks for, and the HA domains each can target in an SMH home."""

SKIPPED: dict[str, str] = {
    "HassGetState": "its questions are about sets of entities (any/all/which/how many) or "
    "people, zones and binary sensors; not written as query tasks yet",
    "HassSetVolumeRelative": "the step of 'louder' is HA's per-player setting; SMH's players "
    "step by 10, so the expected volume would be a guess",
    "HassMediaSearchAndPlay": "the media to play is free text (a wildcard); SMH's players have "
    "no library to search",
    "HassBroadcast": "needs an announcing satellite; SMH simulates none",
    "HassGetWeather": "SMH simulates no weather entity",
    "HassGetCurrentDate": "asks for the date, not the home; nothing to verify in the home",
    "HassGetCurrentTime": "asks for the time, not the home; nothing to verify in the home",
    "HassNevermind": "does nothing by design; no goal",
    "HassRespond": "only answers; no goal",
    "HassLawnMowerDock": "SMH simulates no lawn mower",
    "HassLawnMowerStartMowing": "SMH simulates no lawn mower",
    "HassListAddItem": "to-do items are free text (wildcards)",
    "HassListCompleteItem": "to-do items are free text (wildcards)",
    "HassShoppingListAddItem": "shopping-list items are free text (wildcards)",
    "HassShoppingListCompleteItem": "shopping-list items are free text (wildcards)",
}
"""Intents left out, with why. Timer intents (``Hass*Timer*``) are out of scope: SMH simulates no
timers; :func:`skip_reason` says so for any of them."""

TIMER_REASON = "timers are out of scope: SMH simulates no timers"

BOUNDS: dict[str, tuple[int, int]] = {
    "brightness": (1, 100),  # 0 is "off" in HA: a turn-off, not a brightness
    "position": (0, 100),
    "temperature": (16, 30),  # the split air conditioner's target range
    "percentage": (1, 100),  # fan speed; 0 is "off"
    "volume_level": (0, 100),
}
"""Numbers a sentence may say, per slot: what the simulated device accepts."""

COLORS: dict[str, str] = {
    "aquamarine": "#7FFFD4", "beige": "#F5F5DC", "black": "#000000", "blue": "#0000FF",
    "brown": "#A52A2A", "coral": "#FF7F50", "crimson": "#DC143C", "cyan": "#00FFFF",
    "fuchsia": "#FF00FF", "gold": "#FFD700", "goldenrod": "#DAA520", "gray": "#808080",
    "green": "#008000", "grey": "#808080", "indigo": "#4B0082", "lavender": "#E6E6FA",
    "lime": "#00FF00", "magenta": "#FF00FF", "maroon": "#800000", "navy": "#000080",
    "olive": "#808000", "orange": "#FFA500", "pink": "#FFC0CB", "purple": "#800080",
    "red": "#FF0000", "salmon": "#FA8072", "silver": "#C0C0C0", "sky blue": "#87CEEB",
    "skyblue": "#87CEEB", "teal": "#008080", "turquoise": "#40E0D0", "violet": "#EE82EE",
    "white": "#FFFFFF", "yellow": "#FFFF00",
}  # fmt: skip
"""HA's colour names (``homeassistant.util.color.COLORS``, the CSS names) for every colour the
sentence templates' ``{color}`` lists produce, as the hex RGB SMH's colour lights take."""

FAN_LEVELS = ("low", "medium", "high")

VALUE_SLOTS = {
    "HassSetPosition": "position",
    "HassClimateSetTemperature": "temperature",
    "HassFanSetSpeed": "percentage",
    "HassSetVolume": "volume_level",
}
"""The slot each setting intent's value comes in."""


def skip_reason(intent: str) -> str | None:
    """Why ``intent`` gets no tasks, or None if the suite writes tasks for it."""
    if intent in SUPPORTED:
        return None
    if "Timer" in intent:
        return TIMER_REASON
    return SKIPPED.get(intent, "not an intent on a device SMH simulates")


def fan_level(percentage: int) -> str:
    """HA's ``percentage_to_ordered_list_item`` for a three-speed fan (1-33 low, 34-66
    medium, 67-100 high)."""
    return FAN_LEVELS[min(len(FAN_LEVELS) - 1, max(0, (percentage - 1) * len(FAN_LEVELS) // 100))]


class NoGoal(Exception):
    """These slots on this home make no checkable task (say why)."""


@dataclass
class Derived:
    """A task's goal, reference and start state."""

    goal: dict[str, Any]
    reference: dict[str, Any]
    overrides: list[dict[str, Any]] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)


def targets(intent: str, slots: dict[str, Any], chosen: Entity, lh: LanguageHome) -> list[Entity]:
    """The entities HA would act on for these slots (see the module docstring)."""
    if "name" in slots and slots["name"] != "all":
        return [chosen]
    domain = slots.get("domain", chosen.domain)
    cls = slots.get("device_class")
    fit = [
        e
        for e in lh.entities
        if e.domain == domain and (cls is None or e.device_class == cls) and fits(intent, e)
    ]
    if "area" in slots:
        return [e for e in fit if e.area == chosen.area]
    if intent.startswith("HassClimate") and len(fit) != 1:
        raise NoGoal("no area or name, and the home has more than one thermostat")
    return fit


def fits(intent: str, e: Entity) -> bool:
    """Whether ``intent`` can act on entity ``e``'s SMH device."""
    if e.domain not in SUPPORTED[intent]:
        return False
    return not (intent == "HassSetPosition" and e.type == "garage_door")


def _other(value: int, low: int, high: int, rng: random.Random) -> int:
    while True:
        start = rng.randint(low, high)
        if start != value:
            return start


def _one(
    intent: str, e: Entity, slots: dict[str, Any], rng: random.Random
) -> tuple[dict[str, Any], list[dict[str, Any]], list[tuple[str, Any]]]:
    """``(start values, calls, expected pairs)`` of one target device."""

    def call(locator: str, **arguments: Any) -> dict[str, Any]:
        return {"did": e.did, "locator": locator, "arguments": arguments}

    kind = e.type
    if intent in ("HassTurnOn", "HassTurnOff"):
        on = intent == "HassTurnOn"
        if kind in ("curtain", "blind", "valve"):
            return (
                {"position": 0 if on else 100},
                [call("open" if on else "close")],
                [("position", 100 if on else 0)],
            )
        if kind == "garage_door":
            return (
                {"state": "closed" if on else "open"},
                [call("open" if on else "close")],
                [("state", "open" if on else "closed")],
            )
        if kind == "smart_lock":
            return (
                {"state": "unlocked" if on else "locked"},
                [call("lock" if on else "open")],
                [("state", "locked" if on else "unlocked")],
            )
        if kind == "media_player":
            return (
                {"state": "off" if on else "playing"},
                [call("turn_on" if on else "turn_off")],
                [("state", "idle" if on else "off")],
            )
        return (
            {"state": "off" if on else "on"},
            [call("turn_on" if on else "turn_off")],
            [("state", "on" if on else "off")],
        )
    if intent == "HassLightSet":
        start: dict[str, Any] = {"state": "off"}
        calls, pairs = [], [("state", "on")]
        if "brightness" in slots:
            b = int(slots["brightness"])
            start["brightness"] = _other(b, 1, 100, rng)
            calls.append(call("set_brightness", brightness=b))
            pairs.append(("brightness", b))
        if "color" in slots:
            rgb = COLORS.get(str(slots["color"]))
            if rgb is None:
                raise NoGoal(f"colour {slots['color']!r} is not in HA's colour table")
            start["color_mode"] = "color_temperature"
            calls.append(call("set_color", color=rgb))
            pairs += [("color", rgb), ("color_mode", "color")]
        if not calls:
            raise NoGoal("a light setting other than brightness or colour")
        return start, calls, pairs
    if intent == "HassSetPosition":
        p = int(slots["position"])
        return (
            {"position": 100 if p < 50 else 0},
            [call("set_position", position=p)],
            [("position", p)],
        )
    if intent == "HassClimateSetTemperature":
        t = float(slots["temperature"])
        start_t = float(_other(int(t), 16, 30, rng))
        return (
            {"target_temperature": start_t},
            [call("set_target_temperature", target_temperature=t)],
            [("target_temperature", t)],
        )
    if intent == "HassFanSetSpeed":
        level = fan_level(int(slots["percentage"]))
        other = rng.choice([x for x in FAN_LEVELS if x != level])
        return (
            {"state": "off", "speed_level": other},
            [call("set_speed_level", speed_level=level)],
            [("state", "on"), ("speed_level", level)],
        )
    if intent == "HassSetVolume":
        v = int(slots["volume_level"])
        return (
            {"state": "playing", "volume_level": _other(v, 0, 100, rng)},
            [call("set_volume", volume_level=v)],
            [("volume_level", v)],
        )
    media = {
        "HassMediaPause": ({"state": "playing"}, "pause", [("state", "paused")]),
        "HassMediaUnpause": ({"state": "paused"}, "play", [("state", "playing")]),
        "HassMediaNext": (
            {"state": "playing", "media_track": 3},
            "next_track",
            [("media_track", 4)],
        ),
        "HassMediaPrevious": (
            {"state": "playing", "media_track": 3},
            "previous_track",
            [("media_track", 2)],
        ),
        "HassMediaPlayerMute": (
            {"state": "playing", "volume_muted_enabled": False},
            "mute",
            [("volume_muted_enabled", True)],
        ),
        "HassMediaPlayerUnmute": (
            {"state": "playing", "volume_muted_enabled": True},
            "unmute",
            [("volume_muted_enabled", False)],
        ),
        "HassVacuumStart": ({"state": "docked"}, "start", [("state", "cleaning")]),
        "HassVacuumReturnToBase": (
            {"state": "cleaning"},
            "return_to_base",
            [("state", "returning")],
        ),
    }
    if intent in media:
        start, locator, pairs = media[intent]
        return dict(start), [call(locator)], list(pairs)
    raise NoGoal(f"no goal rule for {intent}")


ASKED_TEMPERATURE = {"target_temperature": "target_temperature"}
"""A ``HassClimateGetTemperature`` block's ``response`` -> the attribute its answer reads:
HA's sentences for the set point ("Solltemperatur", "target temperature") answer with the
target temperature, every other block with the current one."""


def _other_temperature(value: float) -> float:
    """A temperature the answer must not give (5 degrees away, inside 17-29), without a draw
    from the seeded generator: the tasks after this one stay as they were."""
    return value + 5 if value <= 23 else value - 5


def derive(
    intent: str,
    slots: dict[str, Any],
    chosen: Entity,
    lh: LanguageHome,
    rng: random.Random,
    response: str | None = None,
) -> Derived:
    """The goal, reference and start state of a sentence of ``intent`` with ``slots``;
    ``response``: the template block's response name (which temperature a question asks)."""
    needed = VALUE_SLOTS.get(intent)
    if needed is not None and needed not in slots:
        raise NoGoal(f"the sentence says no {needed} (a slot name of the language's own)")
    hit = targets(intent, slots, chosen, lh)
    if not hit:
        raise NoGoal("the sentence targets no device of this home")
    if intent == "HassClimateGetTemperature":
        if len(hit) != 1:
            raise NoGoal("a temperature question about several thermostats")
        e = hit[0]
        value = float(rng.randint(17, 29))
        asked = ASKED_TEMPERATURE.get(response or "", "current_temperature")
        other = "current_temperature" if asked == "target_temperature" else "target_temperature"
        return Derived(
            goal={"kind": "query", "facts": [{"kind": "number", "value": value, "tolerance": 0.5}]},
            reference={"mode": "answer", "response": f"{e.name}: {value:g} °C"},
            overrides=[{"did": e.did, "values": {asked: value, other: _other_temperature(value)}}],
            targets=[e.did],
        )
    if intent == "HassClimateSetTemperature" and len(hit) != 1:
        # HA's handler asks for a single target and refuses several
        raise NoGoal("a set point for several thermostats (HA sets one)")
    overrides, actions, critics = [], [], []
    for e in sorted(hit, key=lambda x: x.did):
        start, calls, pairs = _one(intent, e, slots, rng)
        overrides.append({"did": e.did, "values": start})
        actions += calls
        critics.append(device_critic(e.did, pairs))
    return Derived(
        goal={"kind": "execute", "critic": " and ".join(critics)},
        reference={"mode": "execute", "response": "Done.", "actions": actions},
        overrides=overrides,
        targets=[e.did for e in hit],
    )
