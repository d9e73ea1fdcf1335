"""Natural wording for generated requests: several phrasings per intent, colloquial and
noisy variants (fillers, repetitions, self-corrections), values phrased by attribute."""

from __future__ import annotations

import random
from typing import Any

FILLERS = ["uh", "um", "hmm", "erm", "like", "so"]


def attr_words(locator: str) -> str:
    name = locator.rsplit(".", 1)[-1]
    for suffix in ("_enabled", "_level"):
        if name.endswith(suffix) and name != "volume_level":
            name = name[: -len(suffix)]
    return name.replace("_", " ")


def value_words(locator: str, value: Any, unit: str | None) -> str:
    name = locator.rsplit(".", 1)[-1]
    if isinstance(value, bool):
        return "on" if value else "off"
    if unit == "Celsius":
        return f"{value:g} degrees"
    if unit == "percentage":
        return f"{value}%"
    if unit == "Kelvin":
        return f"{value} K"
    if unit == "second":
        return f"{value} seconds"
    if name.endswith("mode"):
        return f"{value} mode"
    if isinstance(value, str) and name == "alias":
        return f'"{value}"'
    return f"{value:g}" if isinstance(value, float) else str(value)


def set_request(
    style: str,
    rng: random.Random,
    device: str,
    locator: str,
    value: Any,
    unit: str | None,
    decoy: str | None,
) -> str:
    attr, val = attr_words(locator), value_words(locator, value, unit)
    if style == "clear":
        return rng.choice(
            [
                f"Set the {device} {attr} to {val}.",
                f"Please set the {attr} of the {device} to {val}.",
                f"Change the {device}'s {attr} to {val}.",
            ]
        )
    if style == "colloquial":
        return rng.choice(
            [
                f"Could you put the {device} on {val} for the {attr}?",
                f"Hey, make the {device} {attr} {val}, would you?",
                f"I'd like the {device} at {val} {attr}, thanks.",
                f"Can you get the {device}'s {attr} to {val}?",
            ]
        )
    filler = rng.choice(FILLERS)
    if decoy:
        return rng.choice(
            [
                f"{filler.capitalize()}, set the {decoy}... no, wait, the {device}, {attr} to {val}.",
                f"Set the {decoy}, sorry, I mean the {device}, {filler}, {attr} {val}.",
            ]
        )
    return f"{filler.capitalize()}, {filler}, the {device}... {attr} to {val}, {attr} {val} please."


def switch_request(style: str, rng: random.Random, device: str, on: bool, decoy: str | None) -> str:
    verb = "on" if on else "off"
    if style == "clear":
        return rng.choice([f"Turn {verb} the {device}.", f"Switch the {device} {verb}."])
    if style == "colloquial":
        return rng.choice(
            [
                f"Can you flip the {device} {verb}?",
                f"Go ahead and shut the {device} {verb}, please."
                if not on
                else f"Let's get the {device} going.",
                f"{device} {verb}, please.",
            ]
        )
    filler = rng.choice(FILLERS)
    if decoy:
        return f"{filler.capitalize()}, turn {verb} the {decoy}, no, no, the {device}."
    return f"{filler.capitalize()}... turn, {filler}, turn {verb} the {device}."
