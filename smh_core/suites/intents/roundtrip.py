"""HA's own matcher on a language's home: does hassil read a sentence as the intended intent?

Home Assistant's default conversation agent matches a sentence with hassil's
``recognize_best`` over the language's intents, with the ``name`` list built from the exposed
entities (each value carrying its domain and device class as context, which the templates'
``requires_context`` checks) and the ``area`` list from the areas. This module builds the same
lists from a language's SMH home, so a generated sentence can be checked the way HA would read
it: same intent, same name, area, domain, device class and numbers.
"""

from __future__ import annotations

import functools
from typing import Any

from hassil import Intents
from hassil.intents import SlotList, TextSlotList
from hassil.recognize import recognize_best
from home_assistant_intents import get_intents

from .home import LanguageHome

CHECKED_SLOTS = (
    "name",
    "area",
    "domain",
    "device_class",
    "brightness",
    "color",
    "position",
    "temperature",
    "percentage",
    "volume_level",
)
"""Slots whose value must read back as generated (others, such as HA's response hints, are
not the task's)."""


@functools.cache
def language_intents(language: str) -> Intents:
    """The language's intents as hassil parses them (HA's ``get_intents`` data)."""
    data = get_intents(language)
    if data is None:
        raise ValueError(f"home-assistant-intents has no sentences for {language}")
    return Intents.from_dict(data)


def slot_lists(lh: LanguageHome) -> dict[str, SlotList]:
    """The ``name``, ``area`` and ``floor`` lists HA's default agent would give hassil for this home."""
    names = TextSlotList.from_tuples(
        [
            (
                e.name,
                e.name,
                {
                    "domain": e.domain,
                    **({"device_class": e.device_class} if e.device_class else {}),
                },
            )
            for e in lh.entities
        ],
        allow_template=False,
    )
    areas = TextSlotList.from_tuples([(n, n) for n in lh.areas.values()], allow_template=False)
    # SMH homes have no floors; HA gives hassil an empty floor list then, not none
    return {"name": names, "area": areas, "floor": TextSlotList(name="floor", values=[])}


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        try:
            return float(got) == float(expected)
        except (TypeError, ValueError):
            return False
    return str(got).casefold() == str(expected).casefold()


def mismatch(
    lh: LanguageHome, text: str, intent: str, slots: dict[str, Any], lists: dict[str, SlotList]
) -> str | None:
    """Why hassil does not read ``text`` as ``intent`` with ``slots``, or None if it does."""
    result = recognize_best(
        text,
        language_intents(lh.language),
        slot_lists=lists,
        language=lh.language,
        best_slot_name="name",
    )
    if result is None:
        return "not understood"
    if result.intent.name != intent:
        return f"read as {result.intent.name}"
    got = {k: v.value for k, v in result.entities.items()}
    for slot in CHECKED_SLOTS:
        if slot in slots and not _same(
            slots[slot], got.get(slot, result.intent_data.slots.get(slot))
        ):
            return f"slot {slot}: expected {slots[slot]!r}, read {got.get(slot)!r}"
    return None
