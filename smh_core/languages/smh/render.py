"""How a language's templates become requests: one renderer for every language but English.

A language module holds data (its templates, its words for attributes, values and kinds of
device) and a few grammar helpers (a device's name with its article, "of the device", a kind's
plural with "how many"); :func:`interface` turns them into the functions the suite calls, with
the random draws in the order the English wording makes them (one choice of phrasing per
request, the filler before the noisy phrasing), so every language draws the same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from smh_core.languages.names import room_forms_of


def attr_key(locator: str) -> str:
    """The attribute's name a language's ``ATTRS`` is keyed by (the locator's last part)."""
    return locator.rsplit(".", 1)[-1]


def attr(w: ModuleType, locator: str) -> tuple[str, str]:
    """The attribute named in the language (nominative, accusative), never left in English."""
    key = attr_key(locator)
    if key not in w.ATTRS:
        raise LookupError(f"no {w.__name__} name for the attribute {key!r}")
    return w.ATTRS[key]


def value_word(w: ModuleType, value: Any) -> str:
    """A named value (a mode, a state) in the language."""
    if str(value) not in w.VALUES:
        raise LookupError(f"no {w.__name__} word for the value {value!r}")
    return w.VALUES[str(value)]


FREE_TEXT = ("alias", "media_name")
"""Attributes whose value is free text a user says in quotes."""


def number(w: ModuleType, value: float) -> str:
    """A number written the language's way (decimal comma in German, Spanish and French; no
    thousands separator, so ``4000`` is never read as ``4``)."""
    if isinstance(value, float):
        return f"{value:g}".replace(".", w.DECIMAL)
    return str(value)


def value_words(w: ModuleType, locator: str, value: Any, unit: str | None) -> str:
    """A value as the request says it: on/off, a number with its unit, a quoted name, a colour
    code as it is, a named value in the language."""
    if isinstance(value, bool):
        return w.ON_OFF[0 if value else 1]
    if unit in w.UNITS and not isinstance(value, str):
        return w.UNITS[unit].format(n=number(w, value))
    if isinstance(value, str):
        if attr_key(locator) in FREE_TEXT:
            return w.QUOTE.format(value)
        if value.startswith("#"):
            return value
        return value_word(w, value)
    return number(w, value)


def room_parts(w: ModuleType, room: str) -> dict[str, str]:
    """A localised room's name, "of the room" and "in the room" forms (:mod:`smh_core.languages.names`)."""
    for names in w.NAMES.ROOMS.values():
        for k in range(len(names) + 8):
            forms = room_forms_of(names, k)
            if forms[0] == room:
                return {"room": forms[0], "room_of": forms[1], "room_in": forms[2]}
    raise LookupError(f"{room!r} is no {w.NAMES.__name__} room name")


def sentence(text: str) -> str:
    """``text`` with its first letter upper case (after opening marks such as ``¿``)."""
    for i, c in enumerate(text):
        if c.isalpha():
            return text[:i] + c.upper() + text[i + 1 :]
    return text


def _set_request(w: ModuleType) -> Callable[..., str]:
    def set_request(
        style: str,
        rng: random.Random,
        device: str,
        locator: str,
        value: Any,
        unit: str | None,
        decoy: str | None,
    ) -> str:
        nom, acc = attr(w, locator)
        parts = {**w.device_parts(device), "attr": nom, "attr_acc": acc}
        parts["val"] = value_words(w, locator, value, unit)
        if style == "clear":
            return sentence(rng.choice(w.SET_CLEAR).format(**parts))
        if style == "colloquial":
            return sentence(rng.choice(w.SET_COLLOQUIAL).format(**parts))
        filler = rng.choice(w.FILLERS)
        parts.update(f=filler, F=sentence(filler))
        if decoy:
            parts["decoy"] = w.device_parts(decoy)["dev"]
            return sentence(rng.choice(w.SET_NOISY_DECOY).format(**parts))
        return sentence(w.SET_NOISY.format(**parts))

    return set_request


def _switch_request(w: ModuleType) -> Callable[..., str]:
    def switch_request(
        style: str, rng: random.Random, device: str, on: bool, decoy: str | None
    ) -> str:
        way = "on" if on else "off"
        parts = dict(w.device_parts(device))
        if style == "clear":
            return sentence(rng.choice(w.SWITCH_CLEAR[way]).format(**parts))
        if style == "colloquial":
            return sentence(rng.choice(w.SWITCH_COLLOQUIAL[way]).format(**parts))
        filler = rng.choice(w.FILLERS)
        parts.update(f=filler, F=sentence(filler))
        if decoy:
            parts["decoy"] = w.device_parts(decoy)["dev"]
            return sentence(w.SWITCH_NOISY_DECOY[way].format(**parts))
        return sentence(w.SWITCH_NOISY[way].format(**parts))

    return switch_request


def interface(w: ModuleType) -> dict[str, Callable[..., Any]]:
    """The suite's functions for language module ``w`` (the names :mod:`.en` defines):
    requests, answers, the words of a scheduled rule; a module takes them with
    ``globals().update(render.interface(...))``."""

    def shown(locator: str, value: Any) -> str:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return number(w, value)
        return value_word(w, value)

    def status_request(rng: random.Random, device: str, locator: str) -> str:
        nom, acc = attr(w, locator)
        parts = {**w.device_parts(device), "attr": nom, "attr_acc": acc}
        return sentence(rng.choice(w.STATUS).format(**parts))

    def status_answer(device: str, locator: str, value: Any) -> str:
        nom, acc = attr(w, locator)
        parts = {**w.device_parts(device), "attr": nom, "attr_acc": acc}
        return sentence(w.STATUS_ANSWER.format(**parts, value=shown(locator, value)))

    def value_names(locator: str, value: Any) -> list[str]:
        """The home's own name of the value and the language's word for it: an answer may
        name the value either way (the task lists them, even one, so each is matched as a
        word: ``no`` not inside ``ninguno``)."""
        local = value_word(w, value)
        return [str(value)] if local == str(value) else [str(value), local]

    def quantity_room_request(rng: random.Random, sub: str, room: str) -> str:
        parts = {**w.kind_parts(sub), **room_parts(w, room)}
        return sentence(rng.choice(w.QUANTITY_ROOM).format(**parts))

    def quantity_on_request(rng: random.Random, sub: str) -> str:
        return sentence(rng.choice(w.QUANTITY_ON).format(**w.kind_parts(sub)))

    def quantity_answer(count: int) -> str:
        return w.QUANTITY_ANSWER.format(n=count)

    def aliases(room: str, sub: str) -> list[str]:
        parts = {**w.kind_parts(sub), **room_parts(w, room)}
        return [a.format(**parts) for a in w.ALIASES]

    def state_word(value: Any) -> str:
        """A watched device's state as the rule says it (on/off in the language)."""
        if isinstance(value, bool):
            return value_word(w, "on" if value else "off")
        return value_word(w, value)

    def switch_words(device: str, on: bool) -> str:
        return w.SWITCH_ACTION["on" if on else "off"].format(**w.device_parts(device))

    def set_words(device: str, locator: str, value: Any, unit: str | None) -> str:
        nom, acc = attr(w, locator)
        parts = {**w.device_parts(device), "attr": nom, "attr_acc": acc}
        return w.SET_ACTION.format(**parts, val=value_words(w, locator, value, unit))

    def set_parts(device: str, locator: str, value: Any, unit: str | None) -> dict[str, str]:
        """A device, an attribute and a value as the templates name them."""
        nom, acc = attr(w, locator)
        parts = {**w.device_parts(device), "attr": nom, "attr_acc": acc}
        return parts | {"val": value_words(w, locator, value, unit)}

    def join(words: list[str]) -> str:
        return words[0] if len(words) == 1 else w.COMMA.join(words[:-1]) + w.AND + words[-1]

    return {
        "set_request": _set_request(w),
        "switch_request": _switch_request(w),
        "status_request": status_request,
        "status_answer": status_answer,
        "value_names": value_names,
        "quantity_room_request": quantity_room_request,
        "quantity_on_request": quantity_on_request,
        "quantity_answer": quantity_answer,
        "aliases": aliases,
        "room_parts": lambda room: room_parts(w, room),
        "state_word": state_word,
        "switch_words": switch_words,
        "set_words": set_words,
        "set_parts": set_parts,
        "join": join,
        "sentence": sentence,
    }


# ------------------------------------------------------ dialogue: multi-turn (issue 41, item 3)
def first_lower(text: str) -> str:
    """``text`` with its first letter lower case (after opening marks such as ``¿``)."""
    for i, c in enumerate(text):
        if c.isalpha():
            return text[:i] + c.lower() + text[i + 1 :]
    return text


def dialogue_interface(w: ModuleType) -> dict[str, Callable[..., Any]]:
    """The multi-turn dialogue's functions (continuation, topic_shift) for language module
    ``w``, drawing as :mod:`.en`'s do: one choice per phrase, from lists as long as English's.
    A module takes them with ``globals().update(render.dialogue_interface(...))``."""

    def parts(name: str, locator: str | None = None) -> dict[str, str]:
        out = dict(w.device_parts(name))
        if locator is not None:
            nom, acc = attr(w, locator)
            out |= {"attr": nom, "attr_acc": acc}
        return out

    def shifted(marker: str, body: str, name: str) -> str:
        """A request after a topic marker: lower case after it where the language writes so,
        unless the request opens with the device's own name."""
        if not marker or not w.SHIFT_LOWER or body.lstrip("¿¡").startswith(name):
            return marker + body
        return marker + first_lower(body)

    def dialogue_aliases(room: str, short: str, sub: str) -> list[str]:
        return w.aliases(room, sub)

    def part_request(rng: random.Random, name: str, part: str, on: bool) -> str:
        way = "on" if on else "off"
        return sentence(rng.choice(w.PART_SWITCH[way]).format(**parts(name), **w.PARTS[part]))

    def said_done(
        rng: random.Random,
        name: str,
        locator: str,
        value: Any,
        unit: str | None,
        on: bool | None,
    ) -> str:
        if on is not None:
            way = "on" if on else "off"
            return sentence(rng.choice(w.SAID_SWITCH[way]).format(**parts(name)))
        val = value_words(w, locator, value, unit)
        return sentence(rng.choice(w.SAID_SET).format(**parts(name, locator), val=val))

    def continuation_request(
        rng: random.Random,
        name: str,
        part: str,
        on: bool | None,
        locator: str,
        value: Any,
        unit: str | None,
    ) -> str:
        if on is not None:
            way = "on" if on else "off"
            if part:
                return sentence(rng.choice(w.CONT_PART[way]).format(**w.PARTS[part]))
            return sentence(rng.choice(w.CONT_SWITCH[way]).format(**w.pronoun_parts(name)))
        val = value_words(w, locator, value, unit)
        if attr_key(locator) == "alias":
            return sentence(rng.choice(w.CONT_ALIAS).format(val=val, **w.pronoun_parts(name)))
        nom, acc = attr(w, locator)
        return sentence(rng.choice(w.CONT_SET).format(attr=nom, attr_acc=acc, val=val))

    def pair(old: tuple[str, str, str], new: tuple[str, str, str]) -> dict[str, str]:
        """Two devices (name, room, short name) as the templates name them: ``old_dev``,
        ``new_room_in`` ..."""
        out: dict[str, str] = {}
        for tag, (name, room, _) in (("old", old), ("new", new)):
            named = {**w.device_parts(name), **room_parts(w, room)}
            out |= {f"{tag}_{k}": v for k, v in named.items()}
        return out

    def correction_request(
        rng: random.Random,
        same_kind: bool,
        old: tuple[str, str, str],
        new: tuple[str, str, str],
    ) -> str:
        texts = list(w.CORRECTION) + (list(w.CORRECTION_ROOMS) if same_kind else [])
        return sentence(rng.choice(texts).format(**pair(old, new)))

    def correction_done(old: tuple[str, str, str], new: tuple[str, str, str]) -> str:
        return sentence(w.CORRECTION_DONE.format(**pair(old, new)))

    def same_room_request(rng: random.Random, same_way: bool, on: bool, kind: str) -> str:
        way = "on" if on else "off"
        texts = w.SAME_ROOM_TOO[way] if same_way else w.SAME_ROOM_NOW[way]
        return sentence(rng.choice(texts).format(**w.device_parts(kind)))

    def anything_on(rng: random.Random, room: str, name: str) -> tuple[str, str]:
        asked = sentence(rng.choice(w.ANYTHING_ON).format(**room_parts(w, room)))
        answered = sentence(rng.choice(w.ONLY_ON).format(**w.device_parts(name)))
        return asked, answered

    def that_one_off(rng: random.Random, name: str) -> str:
        return sentence(rng.choice(w.THAT_ONE_OFF).format(**w.pronoun_parts(name)))

    return {
        "same_room_request": same_room_request,
        "anything_on": anything_on,
        "that_one_off": that_one_off,
        "correction_request": correction_request,
        "correction_done": correction_done,
        "shifted": shifted,
        "dialogue_aliases": dialogue_aliases,
        "part_request": part_request,
        "said_done": said_done,
        "continuation_request": continuation_request,
    }


# ---------------------------------------------------- dialogue: ambiguous intent (issue 41, item 3)
def capital(text: str) -> str:
    """``text`` with its first character upper case if it is a letter (after ``¿``/``¡``): a
    reply that opens with a number (``25 %, bitte.``) or a quoted name keeps the rest as it is."""
    i = len(text) - len(text.lstrip("¿¡"))
    return text[:i] + text[i : i + 1].upper() + text[i + 1 :] if text[i : i + 1].isalpha() else text


def ambiguous_interface(w: ModuleType) -> dict[str, Callable[..., Any]]:
    """The ambiguous-intent functions (state_level, scene_level, slot_missing: the request, the
    question the agent should ask, the simulated user's reply) for language module ``w``,
    drawing as :mod:`.en`'s do: one choice per phrase, from lists as long as English's. A
    module takes them with ``globals().update(render.ambiguous_interface(...))``."""

    def rooms(room: str) -> dict[str, str]:
        return room_parts(w, room)

    def complaint(opener: str, phrase: str, room: str, named: bool) -> str:
        """A complaint about the room or "here"; after an opener it goes on in lower case."""
        text = phrase.format(where=rooms(room)["room_in"] if named else w.HERE)
        return opener + first_lower(text) if opener else capital(text)

    def scene(phrase: str, room: str, named: bool) -> str:
        return capital(phrase.format(at=w.AT.format(**rooms(room)) if named else ""))

    def about_room(template: str, room: str) -> str:
        return capital(template.format(**rooms(room)))

    def missing_value(
        rng: random.Random, name: str, locator: str, value: Any, unit: str | None
    ) -> tuple[str, str, str]:
        parts, val = w.device_parts(name), value_words(w, locator, value, unit)
        if attr_key(locator) == "alias":
            text = rng.choice(w.VALUE_ALIAS).format(**parts)
            question, reply = w.VALUE_ALIAS_QUESTION, rng.choice(w.VALUE_ALIAS_REPLY)
        else:
            nom, acc = attr(w, locator)
            parts |= {"attr": nom, "attr_acc": acc}
            text = rng.choice(w.VALUE_SET).format(**parts)
            question, reply = w.VALUE_QUESTION.format(**parts), rng.choice(w.VALUE_REPLY)
        return capital(text), capital(question), capital(reply.format(val=val))

    def missing_room_switch(rng: random.Random, kind: str, on: bool) -> str:
        way = "on" if on else "off"
        return capital(rng.choice(w.ROOM_SWITCH[way]).format(**w.device_parts(kind)))

    def missing_room_ask(rng: random.Random, kind: str, room: str) -> tuple[str, str]:
        parts = {**w.device_parts(kind), **rooms(room)}
        question = capital(rng.choice(w.ROOM_ASK).format(**parts))
        return question, capital(rng.choice(w.ROOM_REPLY).format(**parts))

    def missing_device(
        rng: random.Random, room: str, on: bool, count: int, kind: str
    ) -> tuple[str, str, str]:
        way = "on" if on else "off"
        text = capital(rng.choice(w.LIGHT_IN_ROOM[way]).format(**rooms(room)))
        question = capital(rng.choice(w.LIGHT_WHICH).format(**rooms(room), n=count))
        reply = capital(rng.choice(w.LIGHT_REPLY).format(**w.device_parts(kind)))
        return text, question, reply

    def cooking_request(
        rng: random.Random, name: str | None, kind: str, mode: str, seconds: int
    ) -> tuple[str, str, str]:
        if name is not None:
            oven = w.device_parts(name)["dev"]
        else:
            oven = rng.choice([w.OVEN, w.device_parts(kind)["dev"]])
        task = rng.choice(w.COOKING[mode])
        text = capital(rng.choice(w.COOK_TEXT).format(oven=oven, task=task))
        reply = capital(rng.choice(w.COOK_REPLY).format(d=w.DURATIONS[seconds]))
        return text, rng.choice(w.COOK_QUESTION), reply

    def heating_request(rng: random.Random, name: str | None, temp: int) -> tuple[str, str, str]:
        heater = w.device_parts(name)["dev"] if name is not None else w.HEATER
        text = capital(rng.choice(w.HEAT_TEXT).format(heater=heater))
        question = rng.choice(w.HEAT_QUESTION)
        return text, question, capital(rng.choice(w.HEAT_REPLY).format(t=number(w, temp)))

    return {
        "complaint": complaint,
        "scene": scene,
        "about_room": about_room,
        "missing_value": missing_value,
        "missing_room_switch": missing_room_switch,
        "missing_room_ask": missing_room_ask,
        "missing_device": missing_device,
        "cooking_request": cooking_request,
        "heating_request": heating_request,
    }
