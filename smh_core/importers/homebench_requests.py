"""Read the device call a HomeBench request asks for from its words, for requests HomeBench
labels impossible (its gold answer is ``error_input``, with no call to read).

HomeBench's requests are generated from templates ("Set the brightness of the light in the
study room to 60.", "Set the fan speed of the heating system to medium in the living room."),
so a small reading of the device, room, setting and value is enough to replay each one on the
imported home and check that the engine refuses it. A clause that does not read cleanly is
reported as unread, never guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

DEVICES: tuple[tuple[str, str], ...] = (
    (r"air[ -]?conditioner|\bac\b", "air_conditioner"),
    (r"air purifiers?|purifiers?", "air_purifiers"),
    (r"dehumidifiers?", "dehumidifiers"),
    (r"humidifiers?", "humidifier"),
    (r"aromatherapy|aroma|diffuser", "aromatherapy"),
    (r"media player|speaker|music|\bmedia\b", "media_player"),
    (r"water heater|heat the water|hot water", "water_heater"),
    (r"garage door", "garage_door"),
    (r"vacuum", "vacuum_robot"),
    (r"heating|heater", "heating"),
    (r"curtains?", "curtain"),
    (r"blinds?", "blinds"),
    (r"trash|garbage|rubbish", "trash"),
    (r"lights?|lamps?", "light"),
    (r"\bfans?\b(?!\s+speed)", "fan"),
)
"""Words naming a HomeBench device kind, most specific first (a dehumidifier is not a
humidifier, a water heater not a heating unit, "fan speed" is a setting, not a fan)."""
ROOM_WORDS = {
    "ding_room": ("dining room", "ding room"),
    "store_room": ("store room", "storeroom", "storage room"),
}
"""Rooms HomeBench spells one way in its ids and another in its requests."""
SETTINGS: tuple[tuple[str, str], ...] = (
    (r"brightness|dim|brighten", "brightness"),
    (r"colou?r", "color"),
    (r"fan speed", "fan_speed"),
    (r"\bspeed\b", "speed"),
    (r"swing", "swing"),
    (r"intensity", "intensity"),
    (r"interval", "interval"),
    (r"volume", "volume"),
    (r"temperature|degrees? celsius|\bwarmer|\bcooler", "temperature"),
    (r"\bdegree|position|angle|opening", "degree"),
    (r"\bmode\b", "mode"),
    (r"clean(?:ing)? (?:area|the)|to clean", "cleaning_area"),
)
SETTING_METHOD = {
    "brightness": "set_brightness",
    "color": "set_color",
    "fan_speed": "set_fan_speed",
    "speed": "set_speed",
    "swing": "set_swing",
    "intensity": "set_intensity",
    "interval": "set_interval",
    "volume": "set_volume",
    "temperature": "set_temperature",
    "degree": "set_degree",
    "mode": "set_mode",
    "cleaning_area": "set_cleaning_area",
}
VERBS: tuple[tuple[str, str], ...] = (
    (
        r"turn(?:ing)? on|switch on|activate|power on|start (?:the )?(?:light|fan|air|heat|humid|dehum|aroma|purif)",
        "turn_on",
    ),
    (r"turn(?:ing)? off|switch off|deactivate|power off|shut (?:down|off)", "turn_off"),
    (r"\bpack\b|empty the trash|take out|dispose", "pack"),
    (r"\bpause", "pause"),
    (r"\bplay\b|resume", "play"),
    (r"\bstop\b", "stop"),
    (r"\bcharge|dock|return", "charge"),
    (r"\bstart", "start"),
    (r"\bopen\b|raise", "open"),
    (r"\bclose\b|lower", "close"),
)
OPTIONS = (
    "fan_only",
    "auto",
    "sleep",
    "low",
    "medium",
    "high",
    "up",
    "middle",
    "down",
    "cool",
    "heat",
    "dry",
    "eco",
    "heating",
    "strong",
)
SAMPLE_VALUES = {
    "set_brightness": 50,
    "set_color": [255, 0, 0],
    "set_temperature": 24,
    "set_intensity": 50,
    "set_interval": 30,
    "set_volume": 50,
    "set_degree": 50,
    "set_fan_speed": "low",
    "set_speed": "low",
    "set_swing": "auto",
    "set_mode": "auto",
    "set_cleaning_area": "kitchen",
}
"""A value of the right kind for a request whose words give it relatively ("by 20 percent"):
what decides whether the engine refuses it is the setting, not the number."""


@dataclass(frozen=True)
class Request:
    """One request as read from its words: ``room.device.method(value)`` in HomeBench terms."""

    room: str
    device: str
    method: str
    value: Any = None

    def __str__(self) -> str:
        return f"{self.room + '.' if self.room else ''}{self.device}.{self.method}({self.value if self.value is not None else ''})"


_VERB = re.compile(
    r"\b(?:set|turn|increase|decrease|raise|lower|adjust|change|switch|open|close|pack|play|pause|"
    r"stop|start|activate|make|put|dim|brighten|move|instruct|empty|take|reduce|boost|charge)\b",
    re.I,
)


def clauses(text: str) -> list[str]:
    """A request's parts as HomeBench joins them: commas and "and"."""
    parts = re.split(
        r",\s*(?:and\s+|then\s+)?|;\s*|\s+and\s+(?=(?:set|turn|increase|decrease|raise|lower|adjust|"
        r"change|switch|open|close|pack|play|pause|stop|start|activate|make|put|dim|brighten|"
        r"move|instruct|empty|take|reduce|boost)\b)",
        text.strip().rstrip("."),
        flags=re.I,
    )
    out: list[str] = []
    prefix = ""
    for part in (p.strip() for p in parts if p and p.strip()):
        if not _VERB.search(part) and not any(re.search(d, part.lower()) for d, _ in DEVICES):
            prefix += part + " "  # "In the living room, set ...": a scene for the next part
            continue
        out.append(prefix + part)
        prefix = ""
    if prefix and out:
        out[-1] += " " + prefix.strip()
    return out


def _room(text: str, rooms: list[str]) -> str | None:
    found = []
    for room in rooms:
        for words in (room.replace("_", " "), *ROOM_WORDS.get(room, ())):
            m = re.search(rf"\b{re.escape(words)}\b", text)
            if m:
                found.append((m.start(), room))
    return min(found)[1] if found else None


def _value(text: str, method: str) -> Any:
    if method == "set_cleaning_area":
        return None
    if method in ("set_mode", "set_fan_speed", "set_speed", "set_swing"):
        text = text.replace("fan only", "fan_only")
        words = [o for o in OPTIONS if re.search(rf"\b{o}\b", text)]
        return words[0] if words else None
    if re.search(r"\bby\b", text):  # a relative change: the words do not give the value
        return None
    numbers = re.findall(r"-?\d+", text)
    return int(numbers[-1]) if numbers else None


def read(text: str, rooms: list[str], context: Request | None = None) -> Request | None:
    """The request one clause makes, or None when its device or what it asks is not clear.
    A clause that names no device or room ("..., and set the temperature to 20 degrees")
    continues the previous one (``context``)."""
    low = text.lower()
    device = next(
        (
            name
            for pattern, name in sorted(DEVICES, key=lambda d: _first(d[0], low))
            if re.search(pattern, low)
        ),
        None,
    )
    if device is None and context is not None and not re.search(r"\b(?:them|it|all)\b", low):
        device = context.device
    if device is None and re.search(r"fan speed", low):
        device = "fan"
    if device is None and re.search(r"brightness", low):
        device = "light"
    if device is None:
        return None
    setting = next((name for pattern, name in SETTINGS if re.search(pattern, low)), None)
    if setting == "fan_speed" and device == "fan":
        setting = "speed"
    if setting == "degree" and device != "curtain":
        setting = (
            "temperature" if device in ("air_conditioner", "heating", "water_heater") else None
        )
    if setting is not None:
        method = SETTING_METHOD[setting]
    else:
        method = next((name for pattern, name in VERBS if re.search(pattern, low)), None)
        if device == "curtain" and re.search(r"\b(?:increase|decrease)\b", low):
            method = "set_degree"
        if method is None:
            return None
    room = "" if device == "vacuum_robot" else _room(low, rooms)
    if room is None and context is not None and context.device == device:
        room = context.room
    if room is None:
        return None
    value = _value(low, method) if method.startswith("set_") else None
    if method.startswith("set_") and value is None:
        value = SAMPLE_VALUES.get(method)
    return Request(room, device, method, value)


def _first(pattern: str, text: str) -> int:
    m = re.search(pattern, text)
    return m.start() if m else len(text) + 1
