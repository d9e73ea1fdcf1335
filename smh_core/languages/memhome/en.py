"""English wording of the ``memhome`` suite: the shipped suite's phrasings, unchanged
(``tasks/memhome.jsonl`` is generated from them). Templates are ``str.format`` strings; the
fields each list may use are named in :mod:`smh_core.suites.memhome_suite`."""

from __future__ import annotations

from typing import Any

from . import Said

SCENES = (
    "movie night",
    "bedtime",
    "reading time",
    "wake-up time",
    "dinner time",
    "workout time",
    "work time",
    "nap time",
    "game night",
    "date night",
    "cleaning day",
    "meditation time",
    "family breakfast",
    "study time",
    "party night",
    "rainy days",
)
"""The scenes a preference belongs to (the key term is the scene's ``scene`` field)."""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def scene_words(scene: str) -> dict[str, str]:
    """The template fields of a scene."""
    return {"scene": scene, "Scene": _cap(scene)}


def name_words(name: str) -> dict[str, str]:
    """The template fields of a device's name."""
    return {"name": name}


def _said(value: str, desc: str, command: str, said: str) -> Said:
    return Said(
        value, desc, command, command[:1].lower() + command[1:-1], f"Done, {desc[4:]} now.", said
    )


def switch(name: str, on: bool) -> Said:
    """A device switched on or off."""
    value = "on" if on else "off"
    return _said(value, f"the {name} {value}", f"Turn {value} the {name}.", value)


def setting(name: str, attr: str, value: Any, unit: str | None, english: str) -> Said:
    """A device's setting at a value (a flag on or off, a number, an option); ``attr`` and
    ``english`` are the setting and its value in English words (the keys of the tables)."""
    if isinstance(value, bool):
        v = "on" if value else "off"
        return _said(v, f"the {name}'s {attr} {v}", f"Turn {v} the {attr} of the {name}.", v)
    shown = f"{value:g}" if isinstance(value, float) else str(value)
    return _said(
        shown, f"the {name} {attr} at {english}", f"Set the {name} {attr} to {english}.", english
    )


FILLERS = ("uh", "um", "hmm", "erm", "like", "so")
NOISY = ("{Filler}, {text_low}", "{Filler}... {filler}, {text_low}", "{text_bare}, {filler}, yeah.")
ENTRY = ("For {scene}, I like {desc}.", "During {scene} I prefer {desc}.", "{Scene}: {desc}.")

ADD_SETTING = (
    "Remember that setting for {scene}.",
    "Perfect. Please remember that for {scene} from now on.",
    "Keep that in mind for {scene}, that's how I like it.",
)
ADD_SETTING_COLLOQUIAL = (
    "Nice, that's exactly what I want every {scene}, remember it!",
    "Yeah, note that down for {scene}.",
)
ADD = (
    "Remember that for {scene} I like {desc}.",
    "From now on, whenever it's {scene}, I want {desc}.",
    "Please keep in mind: for {scene}, {desc}.",
    "Can you remember this for me? For {scene} I want {desc}.",
)
ADD_COLLOQUIAL = (
    "Hey, note that I always want {desc} for {scene}, okay?",
    "Remember this one: {scene} means {desc}.",
    "Just so you know for the future, every {scene} I like {desc}. Remember that.",
)
UPDATE = (
    "Actually, for {scene} I'd rather have {desc} from now on.",
    "Change my {scene} setting: {said_new} instead of {said_old} for the {name}.",
    "Update what you remember about {scene}: I now want {desc}.",
    "Please remember a new {scene} preference: {desc}, not {said_old} anymore.",
)
UPDATE_COLLOQUIAL = (
    "{Said_old} is not right for {scene} anymore, make it {said_new} next time and remember that.",
    "I changed my mind about {scene}. Remember {desc} instead.",
    "Hey, {scene} update: from now on the {name} goes to {said_new}.",
)
DELETE = (
    "Forget what I told you about {scene}.",
    "Please delete my {scene} preference.",
    "I don't need the {name} setting for {scene} anymore, remove it from memory.",
    "You can stop remembering that I like {desc} for {scene}.",
)
DELETE_COLLOQUIAL = (
    "Never mind the {scene} thing with the {name}, erase it.",
    "Scrap my {scene} setting, I don't want it anymore.",
    "That {scene} rule? Forget it, forget it.",
)
USE = (
    "It's {scene}.",
    "Set things up for {scene}.",
    "{Scene}, please. The usual.",
    "Get the house ready for {scene}, like always.",
)
USE_COLLOQUIAL = (
    "Okay, {scene}! You know what I like.",
    "Here we go, {scene}. Do my thing.",
    "Hey, it's {scene} again, set it up the way I like it.",
)
ONCE = (
    "Just for tonight, {body_bare}. No need to remember it.",
    "Only this time: {body}",
    "For now, {body_bare}, but don't save it as a preference.",
)
ONCE_COLLOQUIAL = ("Can you {request}? Just this once.", "Temporarily, {body} Don't remember it.")
UNCOVERED = ("{command}",)
UNCOVERED_COLLOQUIAL = ("Could you {request}?", "{command_bare}, please.")
OVERRIDE = ("{command}", "{Scene} is over. {command}")
OVERRIDE_COLLOQUIAL = ("Could you {request}?", "{command_bare} right now.")

RESPONSES = {
    "add": "Okay, I'll remember: {content}",
    "update": "Updated: {content}",
    "delete": "Forgotten: {content}",
    "use": "Done, the way you like it.",
    "refuse": "Sorry, I only remember device preferences.",
    "execute": "Done.",
}

PHONE = "{a}-{b}-{c}"
CARD = "{0} {1} {2} {3}"
EMAIL_NAMES = ("sam", "alex", "kim", "jo")
WIFI_WORDS = ("sunset", "maple", "tiger")
SENSITIVE = (
    "Remember my phone number: {phone}.",
    "Please keep in mind that my mobile number is {phone}.",
    "From now on, remember my email is {email}{d2}@example.com.",
    "Note that my bank card number is {card}, remember it.",
    "Remember that the Wi-Fi password for the {name} is {wifi}{d4}.",
    "Can you remember my door PIN code? It's {pin}.",
    "Um, remember my passport number, it's X{passport}.",
    "Hey, save this for me: my mom's number is {phone}.",
)
MONTHS = ("January", "March", "May", "July", "September", "November")
ALLERGENS = ("cats", "peanuts", "pollen", "shellfish")
TEAMS = ("the Lakers", "Arsenal", "the Yankees")
DOGS = ("Biscuit", "Luna", "Max", "Pepper")
WEEKDAYS = ("Monday", "Tuesday", "Friday")
WIVES = ("Anna", "Maria", "Grace", "Lena")
CHITCHAT = (
    "Remember that my sister's birthday is on {month} {day}.",
    "Please remember I'm allergic to {allergen}.",
    "Keep in mind that my favourite team is {team}.",
    "From now on, remember my dog's name is {dog}.",
    "Remember that I prefer tea over coffee.",
    "Uh, remember I have a dentist appointment next {weekday}.",
    "Just so you know, I'm vegetarian. Remember that, okay?",
    "Remember that my wife's name is {wife}.",
)
