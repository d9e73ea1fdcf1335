"""The shipped ``smh`` suite's wording (English), unchanged: ``tasks/smh.jsonl`` is generated
from it. The control requests are :mod:`smh_core.suites.wording`'s; the query templates were the
suite's own and moved here so every language offers the same names."""

from __future__ import annotations

import random
from typing import Any

from smh_core.suites.wording import attr_words, set_request, switch_request  # noqa: F401 (the suite's interface)

DONE = "Done."


def status_request(rng: random.Random, device: str, locator: str) -> str:
    words = attr_words(locator)
    return rng.choice(
        [
            f"What is the {words} of the {device} right now?",
            f"Tell me the {device}'s current {words}.",
            f"What's the {device} {words} at the moment?",
        ]
    )


def status_answer(device: str, locator: str, value: Any) -> str:
    shown = f"{value:g}" if isinstance(value, float) else str(value)
    return f"The {device}'s {attr_words(locator)} is {shown}."


def value_names(locator: str, value: Any) -> list[str]:
    """The words an answer may name a value with: English names it as the home does."""
    return [str(value)]


def quantity_room_request(rng: random.Random, sub: str, room: str) -> str:
    label = sub.replace("_", " ")
    return rng.choice(
        [
            f"How many {label} devices are in the {room}?",
            f"Count the {label} devices in the {room} for me.",
        ]
    )


def quantity_on_request(rng: random.Random, sub: str) -> str:
    label = sub.replace("_", " ")
    return rng.choice(
        [
            f"How many {label} devices are switched on right now?",
            f"How many of the {label} devices are on at the moment?",
        ]
    )


def quantity_answer(count: int) -> str:
    return f"There are {count}."


def aliases(room: str, sub: str) -> list[str]:
    """Natural names a user gives a device (its alias attribute), from its room and kind."""
    kind = sub.replace("_", " ")
    return [f"{room} {kind}", f"my {kind}", f"{room.split()[0]} {kind}", f"the big {kind}"]
