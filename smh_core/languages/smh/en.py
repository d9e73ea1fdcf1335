"""The shipped ``smh`` suite's wording (English), unchanged: ``tasks/smh.jsonl`` is generated
from it. The control requests are :mod:`smh_core.languages.wording`'s; the query, scheduling and
memory templates were the suite's own (:mod:`..smh_schedule`, :mod:`..smh_memory`) and moved
here, word for word, so every language offers the same names."""

from __future__ import annotations

import random
from typing import Any

from smh_core.languages.wording import (  # noqa: F401 (set_request, switch_request: the suite's interface)
    attr_words,
    set_request,
    switch_request,
    value_words,
)

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


# ---------------------------------------------------------------------------------- scheduling
SCHEDULED = "Done, I set that up."
TONIGHT = ("At {clock} tonight", "Tonight at {clock}", "This evening at {clock}")
TOMORROW = ("Tomorrow at {clock}", "At {clock} tomorrow")
DAILY = ("Every day at {clock}", "Each day at {clock}", "Daily at {clock}")
WEEKDAYS = ("On weekdays at {clock}", "Monday to Friday at {clock}")
WEEKEND = ("On weekends at {clock}", "Every Saturday and Sunday at {clock}")
NO_MOVE = (
    "When the {room} has had no movement for {minutes} minutes",
    "Once nobody has moved in the {room} for {minutes} minutes",
)
HOT = ("When the {room} gets above {t} degrees", "If the {room} temperature goes over {t} degrees")
COLD = "When the {room} drops below {t} degrees"
HUMID = (
    "When the {room} humidity rises above {h}%",
    "If it gets more humid than {h}% in the {room}",
)
DUSTY = "When the {room} PM2.5 goes above {level}"
TURNS = {
    "on": ("When the {name} turns on", "Whenever the {name} is switched on"),
    "off": ("When the {name} turns off", "Whenever the {name} is switched off"),
}
BECOMES = ("When the {name} becomes {shown}", "As soon as the {name} is {shown}")
IF_HOT = (
    "if the {room} is still above {t} degrees",
    "but only if the {room} temperature is over {t} degrees",
)
IF_HUMID = "if the {room} humidity is above {h}%"
IF_STATE = "if the {name} is {shown}"
WHEN_IF = "{when}, {cond},"
RULE = "{when}, {actions}."


def clock(hour: int, minute: int) -> str:
    """A time as an American says it (``7 pm``, ``6:45 am``)."""
    h12 = hour % 12 or 12
    suffix = "am" if hour < 12 else "pm"
    return f"{h12}:{minute:02d} {suffix}" if minute else f"{h12} {suffix}"


def room_parts(room: str) -> dict[str, str]:
    return {"room": room}


def device_parts(name: str) -> dict[str, str]:
    return {"name": name}


def state_word(value: Any) -> str:
    """A watched device's state as the rule says it: its value, or on/off."""
    return value if isinstance(value, str) else ("on" if value else "off")


def switch_words(device: str, on: bool) -> str:
    return f"turn {'on' if on else 'off'} the {device}"


def set_words(device: str, locator: str, value: Any, unit: str | None) -> str:
    return f"set the {device} {attr_words(locator)} to {value_words(locator, value, unit)}"


def join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def sentence(text: str) -> str:
    return text[0].upper() + text[1:]


# ------------------------------------------------------------------------------------- memory
PHRASES = (
    ("sleep", ("Time to sleep.", "I'm off to bed.", "Bedtime, please.", "Okay, sleep mode.")),
    ("movie", ("Movie time!", "Let's watch a film.", "Set things up for a movie.")),
    (
        "reading",
        ("I'm going to read for a bit.", "Reading time.", "Set me up for reading, please."),
    ),
    ("wake-up", ("Good morning!", "I'm up.", "Morning routine, please.")),
    ("guests", ("Guests are coming over.", "We have visitors soon, get the place ready.")),
    ("work", ("Time to focus on work.", "I'm starting work now.")),
)
"""Per scene: the phrases that call it (a long-term memory task says one of them)."""
SCENES = {scene: scene for scene, _ in PHRASES}
MEMORY_TARGET = "When I say it's {scene} time, I like {desc}."
MEMORY_OTHER = "For {scene} time, I want {desc}."
DESCRIBE_SWITCH = {"on": "the {name} on", "off": "the {name} off"}
DESCRIBE_SET = "the {name} {attr} at {val}"
LONG_DONE = "Done, as you like it."
SAME = (
    "Do the same for the {name}.",
    "Now the {name} too, same setting.",
    "Set the {name} the same way as before.",
    "Same thing for the {name}, please.",
    "And the {name} — make it match.",
)
HISTORY_USER = "Set the {name} {attr} to {val}."
HISTORY_DONE = "Done, the {name} {attr} is now {val}."
SAME_DONE = "The {name} matches now."


def set_parts(device: str, locator: str, value: Any, unit: str | None) -> dict[str, str]:
    """A device, an attribute and a value as the templates name them."""
    return {"name": device, "attr": attr_words(locator), "val": value_words(locator, value, unit)}


# ------------------------------------------------------ dialogue: multi-turn (issue 41, item 3)
# continuation, topic_shift: the words smh_dialogue said in English, moved here word for word.
SHIFTS = (
    "",
    "",
    "Oh, something else: ",
    "Different thing: ",
    "Unrelated, but ",
    "By the way, ",
    "Okay, next: ",
)
"""How a user marks a new topic (empty: no marker), drawn from in every language alike."""


def shifted(marker: str, body: str, name: str) -> str:
    """A request after a topic marker: English lowers the request's first letter."""
    return marker + (body[0].lower() + body[1:] if marker else body)


def dialogue_aliases(room: str, short: str, sub: str) -> list[str]:
    """Names a user gives a device mid-dialogue (its alias), from its room and short name."""
    return [f"{room} {short}", f"my {short}", f"the {short}", f"main {short}"]


def part_request(rng: random.Random, name: str, part: str, on: bool) -> str:
    """Switching the fan or the light of a fan light."""
    return rng.choice(
        [
            f"Turn {'on' if on else 'off'} the {part} of the {name}.",
            f"Switch the {name} {part} {'on' if on else 'off'}.",
        ]
    )


def said_done(
    rng: random.Random, name: str, locator: str, value: Any, unit: str | None, on: bool | None
) -> str:
    """What the assistant said after a previous turn's change."""
    if on is not None:
        state = "on" if on else "off"
        return rng.choice(
            [f"Done, the {name} is {state} now.", f"Okay, I've turned the {name} {state}."]
        )
    val = value_words(locator, value, unit)
    return rng.choice(
        [
            f"Done, the {name} {attr_words(locator)} is now {val}.",
            f"Okay, I set the {name} {attr_words(locator)} to {val}.",
        ]
    )


def continuation_request(
    rng: random.Random,
    name: str,
    part: str,
    on: bool | None,
    locator: str,
    value: Any,
    unit: str | None,
) -> str:
    """The next request about the same device (``name``), naming it by a pronoun ("its",
    "it")."""
    if on is not None:
        verb = "on" if on else "off"
        return (
            rng.choice([f"Turn its {part} {verb} too.", f"And switch its {part} {verb}."])
            if part
            else rng.choice([f"Now switch it {verb}.", f"Okay, now turn it {verb}."])
        )
    if attr_words(locator) == "alias":
        return rng.choice(
            [
                f"Change its alias to {value_words(locator, value, None)} too.",
                f"And rename it {value_words(locator, value, None)}.",
            ]
        )
    attr, val = attr_words(locator), value_words(locator, value, unit)
    return rng.choice(
        [
            f"Also set its {attr} to {val}.",
            f"Now make its {attr} {val}.",
            f"While you're at it, change its {attr} to {val}.",
            f"Same one: {attr} {val}, please.",
            f"Great, and put its {attr} at {val}.",
        ]
    )


def correction_request(
    rng: random.Random, same_kind: bool, old: tuple[str, str, str], new: tuple[str, str, str]
) -> str:
    """ "Not that one, this one": ``old`` and ``new`` are (name, room, short name); when both
    are the same kind of device, the rooms alone can tell them apart."""
    (old_name, old_room, _), (new_name, new_room, short_new) = old, new
    texts = [
        f"Oops, I meant the {new_name}. Put the {old_name} back how it was.",
        f"Sorry, wrong one: not the {old_name}, the {new_name}.",
    ]
    if same_kind:
        texts += [
            f"No, not the {old_room}, the {new_room}.",
            f"Wait, wrong room: I meant the {new_room} {short_new}, not the {old_room} one.",
            f"Don't touch the {old_room}; do the {new_room} {short_new} instead.",
        ]
    return rng.choice(texts)


def correction_done(old: tuple[str, str, str], new: tuple[str, str, str]) -> str:
    return f"Sorry about that: the {old[0]} is back as it was and the {new[0]} is done."


def same_room_request(rng: random.Random, same_way: bool, on: bool, kind: str) -> str:
    """ "The speaker too": a device of the previous one's room, named by its kind only
    (``same_way``: switched the way the previous one was)."""
    verb = "on" if on else "off"
    if same_way:
        return rng.choice(
            [
                f"Turn {verb} the {kind} too.",
                f"And the {kind} as well.",
                f"The {kind} in there too, please.",
                f"Could you switch the {kind} {verb} too?",
            ]
        )
    return rng.choice(
        [
            f"Now turn {verb} the {kind} in there.",
            f"And switch the {kind} there {verb}.",
            f"Also, the {kind} in that room: {verb}, please.",
        ]
    )


def anything_on(rng: random.Random, room: str, name: str) -> tuple[str, str]:
    """The previous turn: what is still on in the room, and the one device that is."""
    asked = rng.choice(
        [f"Is anything still on in the {room}?", f"What's switched on in the {room} right now?"]
    )
    answered = rng.choice(
        [f"Only the {name} is on.", f"Just the {name}; everything else there is off."]
    )
    return asked, answered


def that_one_off(rng: random.Random, name: str) -> str:
    """ "Turn that one off": the device the assistant just named."""
    return rng.choice(
        [
            "Turn that one off.",
            "Okay, switch it off then.",
            "Shut that off for me, please.",
            "Then turn it off.",
        ]
    )


# ---------------------------------------------------- dialogue: ambiguous intent (issue 41, item 3)
# state_level, scene_level, slot_missing: the words smh_dialogue said in English, moved here word
# for word. A request the agent must ask about, the question, and the simulated user's reply.
OPENERS = ("", "", "Ugh, ", "Man, ", "Honestly, ", "Hey, ")
"""How a complaint may open (empty: plainly), drawn from in every language alike."""
COMPLAINTS = {
    "bright": (
        "It's way too bright {where}.",
        "The glare {where} is killing my eyes.",
        "It's blinding {where}.",
    ),
    "cold": ("It's freezing {where}.", "Brr, it's chilly {where}.", "I'm cold {where}."),
    "dark": (
        "It's too dark {where}.",
        "I can barely see a thing {where}.",
        "Why is it so gloomy {where}?",
        "It's like a cave {where}.",
    ),
    "dry": (
        "The air is really dry {where}.",
        "My throat feels parched {where}.",
        "It's bone dry {where}.",
    ),
    "hot": (
        "It feels like a steamer {where}.",
        "It's boiling {where}.",
        "I'm sweating buckets {where}.",
        "It's way too hot {where}.",
    ),
    "humid": (
        "It's so muggy {where}.",
        "Everything feels damp and sticky {where}.",
        "It's way too humid {where}.",
    ),
    "loud": (
        "It's way too loud {where}.",
        "The music is blasting {where}.",
        "I can't hear myself think {where}.",
    ),
    "stuffy": (
        "It's stuffy {where}.",
        "The air feels stale {where}.",
        "It's so stuffy {where} I can hardly breathe.",
    ),
}
"""Per complaint: its phrasings ({where}: the room, or "in here")."""
STATE_DONE = "Done, that should help."
STATE_ASK = ("Which room are you in?", "Where are you right now?", "Which room do you mean?")
STATE_REPLY = ("I'm in the {room}.", "The {room}.", "In the {room}.")


def complaint(opener: str, phrase: str, room: str, named: bool) -> str:
    """A complaint about the room (``named``) or about "here", after ``opener``: the phrase's
    capital dropped after an opener ("Ugh, it's ..."), except "I"."""
    if opener and not phrase.startswith(("I ", "I'")):
        phrase = phrase[0].lower() + phrase[1:]
    return (opener + phrase).format(where=f"in the {room}" if named else "in here")


SCENE_PHRASES = {
    "dinner": ("Dinner's ready{at}!", "We're sitting down to eat{at}.", "Time for dinner{at}."),
    "guests": (
        "Friends are coming over{at} in a bit.",
        "We've got guests{at} tonight, get it ready.",
        "Party time{at}!",
    ),
    "movie": (
        "Movie night{at}!",
        "Let's watch a film{at}.",
        "Set the mood for a movie{at}, will you?",
        "I'm about to watch something{at}, get it ready.",
    ),
    "reading": (
        "I'm going to read{at} for a while.",
        "Time to curl up with a book{at}.",
        "I want to get some reading done{at}.",
    ),
    "rest": (
        "I'm going to rest for a while{at}.",
        "Time for a little nap{at}.",
        "I'm wiped out, going to lie down{at} for a bit.",
        "Gonna grab some shut-eye{at}.",
    ),
    "wakeup": (
        "Good morning, I'm up{at}!",
        "Rise and shine{at}, I'm awake.",
        "I just woke up{at}.",
    ),
    "workout": (
        "Time for my workout{at}.",
        "I'm about to start exercising{at}.",
        "Let's get this workout going{at}.",
    ),
}
"""Per scene: its phrasings ({at}: " in the room", or nothing)."""
SCENE_DONE = "All set, enjoy."
SCENE_ASK = ("Which room will you be in?", "Sure, which room?", "Where should I set that up?")
SCENE_REPLY = ("In the {room}.", "The {room}, please.", "I'll be in the {room}.")


def scene(phrase: str, room: str, named: bool) -> str:
    """A scene's request, in the room (``named``) or nowhere in particular."""
    return phrase.format(at=f" in the {room}" if named else "")


def about_room(template: str, room: str) -> str:
    """A question's or reply's ``template`` naming ``room``."""
    return template.format(room=room)


def missing_value(
    rng: random.Random, name: str, locator: str, value: Any, unit: str | None
) -> tuple[str, str, str]:
    """A setting of ``name`` asked for without its value: the request, the question, the
    simulated user's reply (the value)."""
    attr, val = attr_words(locator), value_words(locator, value, unit)
    if attr == "alias":
        text = rng.choice(
            [
                f"Give the {name} a new alias.",
                f"Rename the {name} for me.",
                f"I want to change what the {name} is called.",
            ]
        )
        question, reply = (
            "What should I call it?",
            rng.choice([f"Call it {val}.", f"Make it {val}."]),
        )
    else:
        text = rng.choice(
            [
                f"Change the {attr} on the {name}.",
                f"Can you adjust the {name}'s {attr}?",
                f"I want to set the {attr} of the {name}.",
                f"Set the {name} {attr}, please.",
            ]
        )
        question = f"What should I set the {attr} to?"
        reply = rng.choice(
            [f"{val}.", f"Make it {val}.", f"Let's go with {val}.", f"{val}, please."]
        )
    return text, question, reply[0].upper() + reply[1:]


def missing_room_switch(rng: random.Random, kind: str, on: bool) -> str:
    """Switching a device named by its ``kind`` only, which several rooms have."""
    verb = "on" if on else "off"
    return rng.choice(
        [
            f"Turn {verb} the {kind}.",
            f"Can you switch the {kind} {verb}?",
            f"{kind[0].upper() + kind[1:]} {verb}, please.",
        ]
    )


def missing_room_ask(rng: random.Random, kind: str, room: str) -> tuple[str, str]:
    """Which room's ``kind``: the question and the simulated user's reply."""
    question = rng.choice(
        [f"Which room's {kind}?", f"Which {kind} do you mean? There's more than one."]
    )
    reply = rng.choice([f"The one in the {room}.", f"The {room} one.", f"I mean the {room}."])
    return question, reply


def missing_device(
    rng: random.Random, room: str, on: bool, count: int, kind: str
) -> tuple[str, str, str]:
    """ "The light in the study" when it has ``count``: the request, the question, the reply
    naming the light by its ``kind``."""
    verb = "on" if on else "off"
    text = rng.choice(
        [
            f"Turn {verb} the light in the {room}.",
            f"Switch the {room} light {verb}.",
            f"Could you get the light in the {room} {verb}?",
        ]
    )
    question = rng.choice(
        [f"Which light in the {room}? There are {count}.", "Which one do you mean?"]
    )
    reply = rng.choice([f"The {kind}.", f"The {kind}, please."])
    return text, question, reply


COOKING = {
    "defrost": ("defrost the chicken", "thaw the frozen shrimp"),
    "microwave": ("microwave my coffee", "zap this bowl of rice"),
    "reheating": ("heat up my lunch", "warm up the leftovers", "reheat my soup"),
    "steam": ("steam some dumplings", "steam the fish"),
}
"""Per cooking mode of the oven: the jobs a user asks it for."""
DURATIONS = {
    60: "one minute",
    90: "a minute and a half",
    120: "two minutes",
    180: "three minutes",
    300: "five minutes",
    600: "ten minutes",
    900: "fifteen minutes",
    1200: "twenty minutes",
    1800: "half an hour",
}
"""The cooking times asked for, as said."""


def cooking_request(
    rng: random.Random, name: str | None, kind: str, mode: str, seconds: int
) -> tuple[str, str, str]:
    """An oven job without its duration: the request (the oven by its ``name``, or, the only
    one, "the oven" or its ``kind``), the question, the reply (the duration)."""
    oven = name if name is not None else rng.choice(["oven", kind])
    task = rng.choice(COOKING[mode])
    text = rng.choice(
        [
            f"Use the {oven} to {task}.",
            f"Can you {task} in the {oven}?",
            f"I need to {task}, get the {oven} going.",
        ]
    )
    words = DURATIONS[seconds]
    reply = rng.choice(
        [f"{words[0].upper() + words[1:]}.", f"About {words}.", f"Let's do {words}."]
    )
    return text, rng.choice(["For how long?", "How long should it run?"]), reply


def heating_request(rng: random.Random, name: str | None, temp: int) -> tuple[str, str, str]:
    """Hot water without its temperature: the request (the heater by its ``name``, or, the only
    one, "the water heater"), the question, the reply (the temperature)."""
    heater = name if name is not None else "water heater"
    text = rng.choice(
        [
            f"Heat up some water for a shower with the {heater}.",
            f"Get the {heater} heating.",
            f"I want a bath later, warm up the water in the {heater}.",
        ]
    )
    question = rng.choice(["What temperature would you like?", "How hot should it be?"])
    reply = rng.choice([f"{temp} degrees.", f"Make it {temp} degrees.", f"About {temp}."])
    return text, question, reply
