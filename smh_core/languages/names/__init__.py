"""Rooms and devices named in another language, for every suite written in it.

One module per language (``de``, ``es``, ``fr``, ``zh``) holds the names a household speaking it
gives its rooms (per room type) and its devices (per kind of device, with the noun's gender),
how a device's name is built from its kind and its room, and :func:`the` (a device's name as a
request's object, with its article). The suites' wording modules (what a request says) import
these, so a home is named the same way in every suite of a language.

A generated home with its rooms and devices named in another language.

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

import importlib
import re
from types import ModuleType

from smh_core.homeenv.model import Home

LANGUAGES = ("de", "es", "fr", "zh")
"""The languages with room and device names (English is the homes' own)."""


def names(language: str) -> ModuleType:
    """The names module of ``language`` (a code of :data:`LANGUAGES`, any case)."""
    code = language.strip().casefold()
    if code not in LANGUAGES:
        raise ValueError(
            f"no room and device names for {language!r}; known: {', '.join(LANGUAGES)}"
        )
    return importlib.import_module(f"{__name__}.{code}")


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


def with_article(
    name: str,
    kinds: dict[str, tuple[str, str]],
    named: dict[str, tuple[str, str]],
    articles: dict[str, str],
    elided: str = "",
) -> str:
    """A localised device name with the article of its gender (that of the longest kind noun,
    or whole name, it starts with): ``articles[gender] + " " + name``, or ``elided + name``
    before a vowel where the language elides (French ``l'``). A name of no known kind is said
    bare rather than with a guessed article."""
    nouns = [*kinds.values(), *named.values()]
    found = max(
        (n for n in nouns if name == n[0] or name.startswith(n[0] + " ")),
        key=lambda n: len(n[0]),
        default=None,
    )
    if found is None:
        return name
    if elided and name[:1].casefold() in "aeiouyéèêh":
        return elided + name
    return f"{articles[found[1]]} {name}"
