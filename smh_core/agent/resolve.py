"""Device disambiguation from natural descriptions (SAGE): "the lamp by the bed",
"the AC in the kids' room", "living room speaker".

Candidates are scored by word overlap with each device's name, room name, category,
subcategory, tags and description, with a few household synonyms, and a bonus when the
description names the device's room. Ties are reported, so the agent can ask instead of
guessing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .backend import HomeBackend

SYNONYMS = {
    "lamp": "light", "lights": "light", "bulb": "light", "aircon": "ac", "conditioner": "ac",
    "tv": "screen", "telly": "screen", "television": "screen", "speakers": "speaker", "vac": "vacuum",
    "hoover": "vacuum", "roomba": "robot", "drapes": "curtain", "curtains": "curtain", "shades": "blind",
    "blinds": "blind", "door": "lock", "boiler": "heater", "washing": "washer", "microwave": "oven",
    "bed": "bedroom", "bedside": "bedroom", "kids": "kid", "children": "kid", "lounge": "living",
}
_STOP = {"the", "a", "an", "in", "on", "of", "by", "my", "at", "to", "one", "that", "this", "near", "next",
         "room", "please", "with", "and", "s"}


def words(text: str) -> set[str]:
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")):
        if w in _STOP:
            continue
        out.add(SYNONYMS.get(w, w))
        if w.endswith("s") and len(w) > 3:
            out.add(SYNONYMS.get(w[:-1], w[:-1]))
    return out


@dataclass
class Candidate:
    device: dict[str, Any]
    score: float
    matched: list[str]


def resolve_devices(backend: HomeBackend, description: str, limit: int = 5) -> list[Candidate]:
    query = words(description)
    if not query:
        return []
    rooms = {r["id"]: r for r in backend.list_rooms()}
    scored: list[Candidate] = []
    for d in backend.list_devices():
        room = rooms.get(d["room"], {})
        fields = {
            "name": (words(d["name"]), 2.0),
            "room": (words(room.get("name", "")) | words(room.get("type", "")), 1.5),
            "type": (words(d["category"]) | words(d["subcategory"]), 1.5),
            "tags": (words(" ".join(d.get("tags", []))), 0.5),
        }
        score, matched = 0.0, []
        for field_name, (vocab, weight) in fields.items():
            hit = query & vocab
            if hit:
                score += weight * len(hit)
                matched.append(f"{field_name}: {', '.join(sorted(hit))}")
        if score > 0:
            scored.append(Candidate(d, score, matched))
    scored.sort(key=lambda c: (-c.score, c.device["did"]))
    return scored[:limit]
