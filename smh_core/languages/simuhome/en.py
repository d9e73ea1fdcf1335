"""English wording of the ``simuhome`` suite: the shipped suite's own sentences
(``tasks/simuhome.jsonl`` is generated from them, byte for byte as before the languages came).

Rooms and devices are the generated Matter home's English names, lower-cased in a sentence
("dimmable light 1 in the living room"); a request puts ``the`` before a device itself.
"""

from __future__ import annotations

from datetime import datetime

VARIABLES = {
    "temperature": ("temperature", "°C"),
    "humidity": ("humidity", "%"),
    "illuminance": ("light level", "lux"),
    "pm25": ("PM2.5 level", "µg/m³"),
    "pm10": ("PM10 level", "µg/m³"),
}
"""Per room variable: how a request names it, its unit."""


def room(name: str) -> dict[str, str]:
    """The forms of a room's name a sentence uses (``rw``: the name in a sentence)."""
    return {"rw": name.lower()}


def device(name: str, room_name: str) -> str:
    """A Matter device as a request's object (its room says which one: names repeat)."""
    return f"{name.lower()} in the {room_name.lower()}"


def device_subject(name: str, room_name: str) -> str:
    """A Matter device as a sentence's subject (English: as :func:`device`)."""
    return device(name, room_name)


def label(kind: str) -> dict[str, str]:
    """A kind of device the room lacks, in words."""
    return {"label": kind.replace("_", " ")}


def number(value: float) -> str:
    return f"{value:g}"


def clock(t: datetime) -> str:
    return t.strftime("%I:%M %p").lstrip("0")


def sentence(text: str) -> str:
    """A complaint said as a sentence."""
    return text.capitalize() + "."


# QT1
NO_DEVICE_REASON = "there is no {label} in the {rw}"
QT1_MISSING = (
    "What fan speed is {label} 1 in the {rw} running at?",
    "Can you tell me the vendor ID of the {label} in the {rw}?",
    "Is {label} 1 in the {rw} switched on?",
)
QT1_MISSING_SORRY = "Sorry, there is no {label} in the {rw}, so I cannot tell you that."
QT1_ASK = (
    "I'm about to cook, how is the {words} in the {rw} right now?",
    "What's the {words} in the {rw}?",
    "Can you check the {rw} {words} for me? I want to know if it's comfortable.",
)
QT1_ANSWER = "The {words} in the {rw} is {value} {unit}."

# QT2
COMPLAINTS = {
    "humidifier": (
        "the {rw} feels really dry, my hands are tight",
        "my throat is scratchy, the air in the {rw} is so dry",
    ),
    "dehumidifier": (
        "the {rw} feels damp and sticky",
        "it's so muggy in the {rw}, everything feels wet",
    ),
    "air_purifier": (
        "the {rw} feels dusty, my eyes are itching",
        "there's grit in the air in the {rw}, it's hard to breathe",
    ),
    "air_conditioner": ("the {rw} is like a sauna", "it's way too hot in the {rw}"),
}
FIX = {
    "humidifier": "humidify the {rw}",
    "dehumidifier": "dry the {rw}",
    "air_purifier": "clean the air in the {rw}",
    "air_conditioner": "cool the {rw}",
}
AT_LIMIT_REASON = "the {device} is already running at full power"
AT_LIMIT_SORRY = (
    "Sorry, the {device} is already running at full power, so I can't {fix} any faster."
)
NO_HELPER_REASON = "the {rw} has no {label} to fix its {var}"
NO_HELPER_SORRY = "Sorry, there is no {label} in the {rw}, so I can't change its {words}."
TURNED_ON = "I turned on the {device}."

# QT3
QT3_MISSING = (
    "Please turn on {label} 1 in the {rw} and set it to 80 percent.",
    "Switch on the {rw} {label} 1, it's a bit stuffy this morning.",
)
QT3_MISSING_SORRY = "Sorry, the {rw} has no {label}, so I cannot do that."
LEVEL = ("turn the {device} on and set it to level {level}", "put the {device} at level {level}")
FAN = ("turn on the {device} and set the fan to {pct} percent", "power on the {device} at {pct}%")
MODES = {3: "cooling", 4: "heating"}
AC = (
    "turn the {device} on, switch it to {mode} mode and set the fan to {pct} percent",
    "switch on the {device} in {mode} mode with the fan at {pct}%",
)
TURN_ON = "turn on the {device}"
TURN_OFF = "turn off the {device}"
QT3_OPENINGS = ("Please ", "Could you ", "")
AND = " and "
END = "."
DONE = "Done."

# QT4
SCHEDULED = "Scheduled for {clock}."
WRONG_CLOCK = "It's {claimed} now, right? In {minutes} minutes, at {said}, {words}."
WRONG_CLOCK_REASON = "the stated time contradicts the clock"
WRONG_CLOCK_SORRY = (
    "Sorry, it is actually {now}, so {minutes} minutes from now is not {said}; which did you mean?"
)
LATER = (
    "In {minutes} minutes, {words}.",
    "{minutes} minutes from now, {words}.",
    "I'll be back in a bit: {words} {minutes} minutes from now.",
)
AFTER = ("As soon as {app} finishes, {words}.", "{delay} minutes after {app} finishes, {words}.")
"""QT4-2: right after the appliance finishes, and ``delay`` minutes after."""
WRONG_FINISH = (
    "I think {app} finishes at {finish}, so {before} minutes before that, at {at}, {words}."
)
WRONG_FINISH_REASON = "the assumed completion time is wrong"
WRONG_FINISH_SORRY = (
    "Sorry, that doesn't add up: the {app} actually finishes at {real}, not {finish}."
)
DEADLINE = "Guests arrive soon: make sure {first} and {second} are both done by {deadline}."
DEADLINE_REASON = "the first appliance alone finishes after the deadline"
DEADLINE_SORRY = "Sorry, that's impossible: the {first} alone needs until {until}."
THEN = (
    "When {first} finishes, then start {second}{extra}.",
    "When {first} finishes, wait {wait} minutes, then start {second}{extra}.",
)
"""QT4-3: start the second appliance right after the first, and ``wait`` minutes after."""
DRYNESS = " with dryness level {level}"
