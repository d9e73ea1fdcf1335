"""Names people can tell apart: one per device in a home, saying where it is.

Generated homes name devices per room ("Air Conditioner 1" in the kitchen and another
"Air Conditioner 1" in the living room), which is fine inside a room but not in a list of the
whole home, where Home Assistant, Assist and a Matter controller show them. The display name
puts the room first where the name is one of a room's (a Matter device's, or a name repeated
in the home) and does not already say it ("Bathroom Fan Light" in a bathroom), and numbers whatever is still
repeated, in device order, so the same home always gets the same names.

A device imported from a Home Assistant home (its id is the HA entity id it stood for,
``lock.front_door``) keeps its name as HA had it, repeats included: two "Smart Lock" entities
there make "lock the smart lock" ambiguous, and HA's own ambiguity handling must see that here
too. The other names never take one of these.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from .model import Home, Room


_HA_ENTITY_ID = re.compile(r"[a-z0-9_]+\.[a-z0-9_]+")


def is_ha_entity_id(did: str) -> bool:
    """Whether a device id is a Home Assistant entity id (``light.kitchen``): the device stands
    for that entity of an imported HA home."""
    return _HA_ENTITY_ID.fullmatch(did) is not None


def display_names(home: Home) -> dict[str, str]:
    """Device id -> a name unique in ``home`` ("Living Room Air Conditioner 2")."""
    rooms: dict[str | None, Room] = {r.id: r for r in home.rooms}  # a device's room may be None
    given = {d.did: " ".join(d.name.split()) for d in home.devices}
    kept = {did: name for did, name in given.items() if is_ha_entity_id(did)}
    repeated = _repeated(n for did, n in given.items() if did not in kept)
    base: dict[str, str] = {}
    for d in home.devices:
        if d.did in kept:
            continue
        room, name = rooms.get(d.userdata.room), given[d.did]
        says_where = room is None or any(
            w and w in name.lower() for w in (room.name.lower(), room.type.replace("_", " "))
        )
        per_room = (
            d.matter is not None or name.lower() in repeated
        )  # "Air Conditioner 1" of its room
        base[d.did] = (
            f"{room.name} {name}" if per_room and not says_where and room is not None else name
        )
    counts = _repeated([*base.values(), *kept.values()], counts=True)
    taken = {n.lower() for n in [*base.values(), *kept.values()]}
    seen: dict[str, int] = {
        n.lower(): 1 for n in kept.values()
    }  # a kept name is the first of its kind
    out: dict[str, str] = dict(kept)
    for did, name in base.items():
        key = name.lower()
        if counts.get(key, 1) == 1:
            out[did] = name
            continue
        n = seen.get(key, 0) + 1
        while n > 1 and f"{key} {n}" in taken:  # never collide with another device's own name
            n += 1
        seen[key] = n
        out[did] = name if n == 1 else f"{name} {n}"
        taken.add(out[did].lower())
    return {d.did: out[d.did] for d in home.devices}


def _repeated(names: Iterable[str], *, counts: bool = False) -> dict[str, int]:
    """Lower-cased names that occur more than once (with ``counts``: every name's count)."""
    out: dict[str, int] = {}
    for name in names:
        out[name.lower()] = out.get(name.lower(), 0) + 1
    return out if counts else {k: n for k, n in out.items() if n > 1}
