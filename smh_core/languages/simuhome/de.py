"""German wording of the ``simuhome`` suite, with the lists of :mod:`.en` and as many phrasings
in each: du-Form, as people talk to a home assistant; a device with its article in the case
the sentence needs (``schalte den Luftreiniger 1 im Bad ein``, ``wenn die Waschmaschine 1 in
der Küche fertig ist``); the room in its "in" form (``im Bad``, ``in der Küche``). Numbers the
German way: decimal comma (``21,5 °C``), ``45 %`` with a space, the 24-hour clock
(``15:40 Uhr``).
"""

from __future__ import annotations

from datetime import datetime

from smh_core.languages.names import with_article
from smh_core.languages.names.de import KINDS, NAMED, ROOMS, the

from . import forms_named

VARIABLES = {
    "temperature": ("die Temperatur", "°C"),
    "humidity": ("die Luftfeuchtigkeit", "%"),
    "illuminance": ("die Helligkeit", "Lux"),
    "pm25": ("der PM2,5-Wert", "µg/m³"),
    "pm10": ("der PM10-Wert", "µg/m³"),
}
_NOMINATIVE = {"m": "der", "f": "die", "n": "das"}
_LABELS = {  # kind -> (name, gender, "no such" in the accusative, pronoun)
    "dimmable_light": ("Dimmbare Lampe", "f", "keine dimmbare Lampe", "sie"),
    "fan": ("Ventilator", "m", "keinen Ventilator", "ihn"),
    "air_purifier": ("Luftreiniger", "m", "keinen Luftreiniger", "ihn"),
    "humidifier": ("Luftbefeuchter", "m", "keinen Luftbefeuchter", "ihn"),
    "dehumidifier": ("Luftentfeuchter", "m", "keinen Luftentfeuchter", "ihn"),
    "air_conditioner": ("Klimagerät", "n", "kein Klimagerät", "es"),
    "on_off_light": ("Lampe", "f", "keine Lampe", "sie"),
}


def room(name: str) -> dict[str, str]:
    return forms_named(ROOMS, name)


def device(name: str, room_name: str) -> str:
    """A device as a request's object: accusative article, then where it is."""
    return f"{the(name)} {room(room_name)['room_in']}"


def device_subject(name: str, room_name: str) -> str:
    """A device as a sentence's subject: nominative article, then where it is."""
    return f"{with_article(name, KINDS, NAMED, _NOMINATIVE)} {room(room_name)['room_in']}"


def label(kind: str) -> dict[str, str]:
    name, gender, none, it = _LABELS[kind]
    accusative = {"m": "den", "f": "die", "n": "das"}[gender]
    return {
        "label": name,
        "the_label": f"{_NOMINATIVE[gender]} {name}",
        "the_label_acc": f"{accusative} {name}",
        "no_label": none,
        "it": it,
    }


def number(value: float) -> str:
    return f"{value:g}".replace(".", ",")


def clock(t: datetime) -> str:
    return f"{t.hour}:{t.minute:02d} Uhr"


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


# QT1
NO_DEVICE_REASON = "{room_in} gibt es {no_label}"
QT1_MISSING = (
    "Auf welcher Stufe läuft {the_label} 1 {room_in} gerade?",
    "Welche Hersteller-ID hat {the_label} {room_in}?",
    "Ist {the_label} 1 {room_in} eingeschaltet?",
)
QT1_MISSING_SORRY = "Leider gibt es {room_in} {no_label}, deshalb kann ich dir das nicht sagen."
QT1_ASK = (
    "Ich will gleich kochen – wie ist {words} {room_in} gerade?",
    "Wie hoch ist {words} {room_in}?",
    "Schau doch mal, wie {words} {room_in} ist. Ich will wissen, ob es dort angenehm ist.",
)
QT1_ANSWER = "{words} {room_in} liegt bei {value} {unit}."

# QT2
COMPLAINTS = {
    "humidifier": (
        "{room_in} ist die Luft total trocken, meine Hände spannen schon",
        "mein Hals kratzt, die Luft {room_in} ist so trocken",
    ),
    "dehumidifier": (
        "{room_in} ist es feucht und klamm",
        "{room_in} ist es so schwül, alles fühlt sich nass an",
    ),
    "air_purifier": (
        "{room_in} ist es total staubig, meine Augen jucken",
        "die Luft {room_in} ist voller Staub, ich kriege kaum Luft",
    ),
    "air_conditioner": ("{room_in} ist es wie in der Sauna", "{room_in} ist es viel zu heiß"),
}
FIX = {
    "humidifier": "die Luft {room_in} nicht noch schneller befeuchten",
    "dehumidifier": "die Luft {room_in} nicht noch schneller entfeuchten",
    "air_purifier": "die Luft {room_in} nicht noch schneller reinigen",
    "air_conditioner": "{room_in} nicht noch schneller kühlen",
}
AT_LIMIT_REASON = "{device} läuft schon auf voller Leistung"
AT_LIMIT_SORRY = "Leider läuft {device} schon auf voller Leistung, deshalb kann ich {fix}."
NO_HELPER_REASON = "{room_in} gibt es {no_label}, also lässt sich {words} nicht ändern"
NO_HELPER_SORRY = "Leider gibt es {room_in} {no_label}, also lässt sich {words} dort nicht ändern."
TURNED_ON = "Ich habe {device} eingeschaltet."

# QT3
QT3_MISSING = (
    "Schalte bitte {the_label_acc} 1 {room_in} ein und stell {it} auf 80 Prozent.",
    "Mach {the_label_acc} 1 {room_in} an, es ist heute Morgen etwas stickig.",
)
QT3_MISSING_SORRY = "Leider gibt es {room_in} {no_label}, das kann ich also nicht machen."
LEVEL = ("schalte {device} ein und stell sie auf Stufe {level}", "stell {device} auf Stufe {level}")
"""Dimmable lights (``die Dimmbare Lampe``: ``sie``)."""
FAN = (
    "schalte {device} ein und stell den Lüfter auf {pct} Prozent",
    "mach {device} mit {pct} % an",
)
MODES = {3: "Kühlen", 4: "Heizen"}
AC = (
    "schalte {device} ein, stell es auf {mode} und den Lüfter auf {pct} Prozent",
    "mach {device} im Modus {mode} an, Lüfter auf {pct} %",
)
"""Air conditioners (``das Klimagerät``: ``es``)."""
TURN_ON = "schalte {device} ein"
TURN_OFF = "schalte {device} aus"
QT3_OPENINGS = ("Bitte ", "Sei so gut und ", "")
AND = " und "
END = "."
DONE = "Erledigt."

# QT4
SCHEDULED = "Ist für {clock} eingeplant."
WRONG_CLOCK = "Es ist jetzt {claimed}, oder? In {minutes} Minuten, also um {said}: {Words}."
WRONG_CLOCK_REASON = "die genannte Uhrzeit passt nicht zur tatsächlichen"
WRONG_CLOCK_SORRY = (
    "Leider stimmt das nicht: Es ist gerade {now}, in {minutes} Minuten ist es also nicht "
    "{said}. Welche Uhrzeit meinst du?"
)
LATER = (
    "In {minutes} Minuten: {Words}.",
    "{words}, aber erst in {minutes} Minuten.",
    "Ich bin gleich wieder da: {Words}, und zwar in {minutes} Minuten.",
)
AFTER = ("Sobald {app} fertig ist: {Words}.", "{delay} Minuten, nachdem {app} fertig ist: {Words}.")
WRONG_FINISH = (
    "Ich glaube, {app} ist um {finish} fertig. {before} Minuten vorher, also um {at}: {Words}."
)
WRONG_FINISH_REASON = "die angenommene Endzeit stimmt nicht"
WRONG_FINISH_SORRY = (
    "Leider passt das nicht, denn {app} ist tatsächlich um {real} fertig, nicht um {finish}."
)
DEADLINE = (
    "Gleich kommen Gäste: Sorg dafür, dass {first} und {second} bis {deadline} beide fertig sind."
)
DEADLINE_REASON = "das erste Gerät allein läuft schon über die Frist hinaus"
DEADLINE_SORRY = "Leider geht das nicht, denn {first} braucht allein schon bis {until}."
THEN = (
    "Wenn {first} fertig ist, starte {second}{extra}.",
    "Wenn {first} fertig ist, warte {wait} Minuten und starte dann {second}{extra}.",
)
DRYNESS = " mit Trocknungsstufe {level}"
