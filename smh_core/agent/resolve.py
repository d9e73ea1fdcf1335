"""Device disambiguation from natural descriptions (SAGE): "the lamp by the bed",
"the AC in the kids' room", "living room speaker".

Candidates are scored by word overlap with each device's name, room name, category,
subcategory, tags and description ("floor lamp on the nightstand next to the bed"), with a few
household synonyms. Ties are reported, so the agent can ask instead of guessing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Protocol

SYNONYMS = {
    "lamp": "light",
    "lights": "light",
    "bulb": "light",
    "aircon": "ac",
    "conditioner": "ac",
    "tv": "screen",
    "telly": "screen",
    "television": "screen",
    "speakers": "speaker",
    "vac": "vacuum",
    "hoover": "vacuum",
    "roomba": "robot",
    "drapes": "curtain",
    "curtains": "curtain",
    "shades": "blind",
    "blinds": "blind",
    "door": "lock",
    "boiler": "heater",
    "washing": "washer",
    "microwave": "oven",
    "bedside": "bed",
    "kids": "kid",
    "children": "kid",
    "lounge": "living",
}
EXPANSIONS = {"bed": {"bed", "bedroom"}, "nightstand": {"nightstand", "bed", "bedroom"}}
"""Words that also imply a room: "by the bed" is in the bedroom, but "bed" itself stays, so a
description mentioning the bed outranks a device merely named after the bedroom."""
_STOP = {
    "the",
    "a",
    "an",
    "in",
    "on",
    "of",
    "by",
    "my",
    "at",
    "to",
    "one",
    "that",
    "this",
    "near",
    "next",
    "room",
    "please",
    "with",
    "and",
    "s",
}


def words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")):
        if w in _STOP:
            continue
        for form in (w, w[:-1]) if w.endswith("s") and len(w) > 3 else (w,):
            norm = SYNONYMS.get(form, form)
            out |= EXPANSIONS.get(norm, {norm})
    return out


class DeviceReads(Protocol):
    """The two reads :func:`resolve_devices` makes; a :class:`~.backend.HomeBackend` has both."""

    def list_rooms(self) -> list[dict[str, Any]]: ...

    def list_devices(self) -> list[dict[str, Any]]: ...


@dataclass
class Candidate:
    device: dict[str, Any]
    score: float
    matched: list[str]


def resolve_devices(backend: DeviceReads, description: str, limit: int = 5) -> list[Candidate]:
    """Devices ranked by how well they match ``description``.

    Each query word counts once per device, with the weight of the best field it hits (a name
    hit beats a room hit beats a description hit), times its rarity across the home's devices
    (log(1 + N/df)): "light" matches most lamps and says little, "credenza" matches one."""
    return rank_devices(backend.list_devices(), backend.list_rooms(), description, limit)


def rank_devices(
    devices: list[dict[str, Any]],
    room_list: list[dict[str, Any]],
    description: str,
    limit: int | None = 5,
) -> list[Candidate]:
    """:func:`resolve_devices` over device summaries and rooms already read (the action guard
    binds a request's object phrase to a device with it)."""
    query = words(description)
    if not query:
        return []
    rooms = {r["id"]: r for r in room_list}
    table: list[tuple[dict[str, Any], dict[str, tuple[set[str], float]]]] = []
    for d in devices:
        room = rooms.get(d.get("room"), {})
        table.append(
            (
                d,
                {
                    "name": (words(d["name"]), 2.0),
                    "room": (words(room.get("name", "")) | words(room.get("type", "")), 1.5),
                    "type": (
                        words(str(d.get("category", ""))) | words(str(d.get("subcategory", ""))),
                        1.5,
                    ),
                    "description": (words(d.get("description") or ""), 1.0),
                    "tags": (words(" ".join(d.get("tags", []))), 0.5),
                },
            )
        )
    df: dict[str, int] = {}
    for _, fields in table:
        for w in set().union(*(vocab for vocab, _ in fields.values())) & query:
            df[w] = df.get(w, 0) + 1
    n = len(table)
    scored: list[Candidate] = []
    for d, fields in table:
        score, matched = 0.0, []
        for w in sorted(query & set(df)):
            hits = [(weight, name) for name, (vocab, weight) in fields.items() if w in vocab]
            if hits:
                weight, name = max(hits)
                score += weight * math.log(1 + n / df[w])
                matched.append(f"{name}: {w}")
        if score > 0:
            scored.append(Candidate(d, round(score, 3), matched))
    scored.sort(key=lambda c: (-c.score, str(c.device["did"])))
    return scored if limit is None else scored[:limit]
