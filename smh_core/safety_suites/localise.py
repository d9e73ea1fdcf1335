"""A generated home with its rooms and devices named in another language.

The suite's homes are generated with English names ("Master Bathroom Water Heater"); a task in
German must name "Warmwasserbereiter Elternbad" as a German household would. A language's
wording module gives, per room type, the names of that type's rooms in the order a home's rooms
of the type take them (numbered past the list), and per kind of device (the English name's
part after the room's name, or the name before its number) the noun and its gender; the device
is then named by the language's pattern (``{kind} {room}``, ``{kind} {room_of}``,
``{room}{kind}``). A name no table covers is an error, not an English name left in place, and
two devices of a HomeEnv home may not end up with one name (Matter homes number their devices
per room, so names repeat there, as in English).

Descriptions stay the catalog's: they are the device's technical notes for the agent (service
and attribute names), not words a user says.
"""

from __future__ import annotations

import re
from types import ModuleType

from smh_core.homeenv.model import Home

Forms = tuple[str, str, str]
"""A room's name, its "of the room" form and its "in the room" form."""
_NUMBERED = re.compile(r"^(?P<kind>.+) (?P<n>\d+)$")


def room_forms(words: ModuleType, room_type: str, k: int) -> Forms:
    """The forms of the ``k``-th room (from 0) of a type: the language's own names in turn,
    then the first one numbered (``Bad 7``)."""
    return room_forms_of(words.ROOMS.get(room_type, words.ROOMS["*"]), k)


def room_forms_of(names: tuple[Forms, ...], k: int) -> Forms:
    """The ``k``-th of a type's room names, numbered past the list."""
    if k < len(names):
        return names[k]
    base = names[0]
    n = k + 1
    return (f"{base[0]} {n}", f"{base[1]} {n}", f"{base[2]} {n}")


def localise(home: Home, words: ModuleType, name: str) -> Home:
    """``home`` named in the language of ``words`` (see the module docstring), called ``name``."""
    seen: dict[str, int] = {}
    forms: dict[str, Forms] = {}
    rooms = []
    for room in home.rooms:
        k = seen.get(room.type, 0)
        seen[room.type] = k + 1
        forms[room.id] = room_forms(words, room.type, k)
        rooms.append(room.model_copy(update={"name": forms[room.id][0]}))
    english = {r.id: r.name for r in home.rooms}
    devices = [
        d.model_copy(
            update={
                "name": device_name(
                    words, d.name, english.get(d.userdata.room, ""), forms.get(d.userdata.room)
                )
            }
        )
        for d in home.devices
    ]
    matter = any("matter" in d.userdata.tags for d in home.devices)
    names = [d.name for d in devices]
    if not matter and len(set(names)) != len(names):
        raise RuntimeError(f"home {home.name}: localised device names repeat")
    return home.model_copy(update={"name": name, "rooms": rooms, "devices": devices})


def device_name(words: ModuleType, english: str, room: str, forms: Forms | None) -> str:
    """A device's name in the language: a whole name of ``NAMED``, a numbered kind (Matter:
    ``Heat Pump 1``), or the kind after the room's English name, named with the room."""
    if english in words.NAMED:
        return words.NAMED[english][0]
    numbered = _NUMBERED.match(english)
    if numbered and numbered["kind"] in words.KINDS:
        return words.NUMBERED_NAME.format(kind=words.KINDS[numbered["kind"]][0], n=numbered["n"])
    kind = english[len(room) + 1 :] if room and english.startswith(room + " ") else None
    if kind not in words.KINDS or forms is None:
        raise LookupError(f"no {words.__name__} name for the device {english!r}")
    return words.DEVICE_NAME.format(
        kind=words.KINDS[kind][0], room=forms[0], room_of=forms[1], room_in=forms[2]
    )


def room_in(words: ModuleType, name: str) -> str:
    """The "in the room" form of a room named ``name`` in the language (the name itself where
    the language has no room table, as English)."""
    for names in getattr(words, "ROOMS", {}).values():
        for k in range(len(names) + 8):
            forms = room_forms_of(names, k)
            if forms[0] == name:
                return forms[2]
    return name
