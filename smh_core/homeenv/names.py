"""Names people can tell apart: one per device in a home, saying where it is.

Generated homes name devices per room ("Air Conditioner 1" in the kitchen and another
"Air Conditioner 1" in the living room), which is fine inside a room but not in a list of the
whole home, where Home Assistant, Assist and a Matter controller show them. The display name
puts the room first unless the name already says it ("Bathroom Fan Light" in a bathroom), and numbers whatever is still
repeated, in device order, so the same home always gets the same names.
"""

from __future__ import annotations

from .model import Home


def display_names(home: Home) -> dict[str, str]:
    """Device id -> a name unique in ``home`` ("Living Room Air Conditioner 2")."""
    rooms = {r.id: r for r in home.rooms}
    base: dict[str, str] = {}
    for d in home.devices:
        room = rooms.get(d.userdata.room)
        name = " ".join(d.name.split())
        says_where = room is None or any(w and w in name.lower() for w in (room.name.lower(), room.type.replace("_", " ")))
        base[d.did] = name if says_where else f"{room.name} {name}"  # type: ignore[union-attr]
    counts: dict[str, int] = {}
    for name in base.values():
        counts[name.lower()] = counts.get(name.lower(), 0) + 1
    taken = {n.lower() for n in base.values()}
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for did, name in base.items():
        key = name.lower()
        if counts[key] == 1:
            out[did] = name
            continue
        n = seen.get(key, 0) + 1
        while n > 1 and f"{key} {n}" in taken:  # never collide with another device's own name
            n += 1
        seen[key] = n
        out[did] = name if n == 1 else f"{name} {n}"
        taken.add(out[did].lower())
    return out
