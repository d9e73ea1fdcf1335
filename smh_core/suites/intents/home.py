"""The home of one language: rooms and devices named in that language, as HA's own tests name them.

Where the names come from, in order:

1. Home Assistant's fixture home for the language (``tests/<lang>/_fixtures.yaml`` of the
   home-assistant/intents repository, CC BY 4.0, extracted into ``homes.json`` by
   ``scripts/intents_names.py``): the names HA's sentence tests are written against, so hassil
   matches them and a speaker of the language reads them naturally.
2. A language with no fixture home borrows its base language's (``pt-BR`` -> ``pt``).
3. Chinese (``zh-CN``, ``zh-HK``, ``zh-TW``), which has no fixture home at all, uses the small
   tables below, written for this suite.

Any other language has no home, and the suite says so instead of inventing names.

Each entity of a domain SMH simulates becomes a device of the catalog type that behaves like
it (a light is a colour light, so brightness and colour tasks can target every light; a cover
of class garage, gate or door is a garage door, which only opens and closes). An entity whose
name repeats an earlier entity's or an area's (case-insensitively) is left out: HA could not
tell them apart either.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room

DEVICE_TYPES = {
    "light": "color_light",
    "switch": "smart_plug",
    "fan": "smart_fan",
    "valve": "valve",
    "climate": "split_ac",
    "media_player": "media_player",
    "vacuum": "robot_cleaner",
    "lock": "smart_lock",
}
"""HA domain -> SMH catalog type (covers depend on their device class, see :func:`cover_type`)."""

BASE_LANGUAGE = {"pt-BR": "pt"}
"""Languages without a fixture home of their own, and whose home they borrow."""

_ZH_HANS = {
    "areas": {"living_room": "客厅", "bedroom": "卧室", "kitchen": "厨房", "study": "书房"},
    "entities": [
        ("客厅灯", "light", None, "living_room"),
        ("卧室灯", "light", None, "bedroom"),
        ("厨房灯", "light", None, "kitchen"),
        ("台灯", "light", None, "study"),
        ("咖啡机", "switch", None, "kitchen"),
        ("吊扇", "fan", None, "living_room"),
        ("客厅窗帘", "cover", "curtain", "living_room"),
        ("卧室窗帘", "cover", "curtain", "bedroom"),
        ("车库门", "cover", "garage", None),
        ("总水阀", "valve", None, None),
        ("空调", "climate", None, "living_room"),
        ("电视", "media_player", None, "living_room"),
        ("扫地机器人", "vacuum", None, None),
        ("前门", "lock", None, None),
    ],
}
_ZH_HANT = {
    "areas": {"living_room": "客廳", "bedroom": "臥室", "kitchen": "廚房", "study": "書房"},
    "entities": [
        ("客廳燈", "light", None, "living_room"),
        ("臥室燈", "light", None, "bedroom"),
        ("廚房燈", "light", None, "kitchen"),
        ("檯燈", "light", None, "study"),
        ("咖啡機", "switch", None, "kitchen"),
        ("吊扇", "fan", None, "living_room"),
        ("客廳窗簾", "cover", "curtain", "living_room"),
        ("臥室窗簾", "cover", "curtain", "bedroom"),
        ("車庫門", "cover", "garage", None),
        ("總水閥", "valve", None, None),
        ("冷氣", "climate", None, "living_room"),
        ("電視", "media_player", None, "living_room"),
        ("掃地機械人", "vacuum", None, None),
        ("前門", "lock", None, None),
    ],
}
HAND_WRITTEN = {"zh-CN": _ZH_HANS, "zh-HK": _ZH_HANT, "zh-TW": _ZH_HANT}
"""Homes written for this suite, for languages HA ships no fixture home for."""


class NoHome(ValueError):
    """No names are known for a language (no fixture home, base language or table)."""


@dataclass(frozen=True)
class Entity:
    """One device as HA sees it: its name, domain, device class and area (room id)."""

    did: str
    name: str
    domain: str
    device_class: str | None
    area: str | None
    type: str


@dataclass(frozen=True)
class LanguageHome:
    """A language's home and its entities (for sampling), and where its names came from."""

    language: str
    home: Home
    entities: tuple[Entity, ...]
    areas: dict[str, str]
    """Room id -> name."""
    source: str


@functools.cache
def _fixtures() -> dict[str, Any]:
    return json.loads(files(__package__).joinpath("homes.json").read_text(encoding="utf-8"))


def cover_type(device_class: str | None) -> str:
    """The catalog type of a cover: doors and gates only open and close; blinds and shutters
    lift; everything else (curtains, shades, awnings, windows) is a curtain track."""
    if device_class in ("garage", "gate", "door"):
        return "garage_door"
    if device_class in ("blind", "shutter"):
        return "blind"
    return "curtain"


def _raw(language: str) -> tuple[dict[str, Any], str]:
    """The language's areas and entities as plain data, and where they come from."""
    homes = _fixtures()["homes"]
    if language in homes:
        return homes[language], f"HA fixture home ({language})"
    base = BASE_LANGUAGE.get(language)
    if base in homes:
        return homes[base], f"HA fixture home of {base} (no {language} fixture)"
    if language in HAND_WRITTEN:
        table = HAND_WRITTEN[language]
        entities = [
            {
                "name": n,
                "domain": d,
                **({"device_class": c} if c else {}),
                **({"area": a} if a else {}),
            }
            for n, d, c, a in table["entities"]
        ]
        return {"areas": table["areas"], "entities": entities}, "SMH table (no HA fixture home)"
    raise NoHome(f"no names for {language}: HA ships no fixture home for it and SMH has no table")


def fixture_source() -> str:
    """Which commit of HA's intents repository the fixture names were taken from."""
    return str(_fixtures()["source"])


def language_home(language: str) -> LanguageHome:
    """The home of ``language`` (see the module docstring); :class:`NoHome` if none."""
    raw, source = _raw(language)
    seen: set[str] = {str(n).casefold() for n in raw["areas"].values()}
    used_areas: dict[str, str] = {}
    devices, entities = [], []
    counts: dict[str, int] = {}
    for e in raw["entities"]:
        name, domain = e["name"], e["domain"]
        if name.casefold() in seen:
            continue
        seen.add(name.casefold())
        # HA's device classes that SMH's HA integration reads (covers and valves); a light's
        # "device class" in a fixture is not one HA has
        cls = e.get("device_class") if domain in ("cover", "valve") else None
        kind = cover_type(cls) if domain == "cover" else DEVICE_TYPES[domain]
        counts[domain] = counts.get(domain, 0) + 1
        did = f"{domain}_{counts[domain]}"
        area = e.get("area")
        if area is not None:
            used_areas[area] = raw["areas"][area]
        device = instantiate(kind, did, area, name=name)
        if cls is not None:
            device.userdata.device_class = cls
        devices.append(device)
        entities.append(Entity(did, name, domain, cls, area, kind))
    rooms = [Room(id=rid, type="area", name=used_areas[rid]) for rid in sorted(used_areas)]
    home = Home(name=f"intents-{language}", rooms=rooms, devices=devices)
    return LanguageHome(language, home, tuple(entities), dict(sorted(used_areas.items())), source)
