"""German wording of the ``memhome`` suite: du-Form, a scene said with its own preposition
(``beim Filmabend``, ``zur Schlafenszeit``, ``am Putztag``), articles in the case the sentence
needs (``Stell die Helligkeit bei der Deckenlampe Wohnzimmer auf 50 %``), decimals with a comma,
``50 %`` with a space. Rooms and devices are named by :mod:`smh_core.languages.names.de`."""

from __future__ import annotations

from typing import Any

from smh_core.languages.names import de as names
from smh_core.languages.names import with_article

from . import Said

SCENES = (
    ("Filmabend", "beim Filmabend", "für den Filmabend"),
    ("Schlafenszeit", "zur Schlafenszeit", "für die Schlafenszeit"),
    ("Lesezeit", "zur Lesezeit", "für die Lesezeit"),
    ("Weckzeit", "zur Weckzeit", "für die Weckzeit"),
    ("Abendessen", "beim Abendessen", "fürs Abendessen"),
    ("Training", "beim Training", "fürs Training"),
    ("Arbeitszeit", "während der Arbeitszeit", "für die Arbeitszeit"),
    ("Mittagsschlaf", "beim Mittagsschlaf", "für den Mittagsschlaf"),
    ("Spieleabend", "beim Spieleabend", "für den Spieleabend"),
    ("Pärchenabend", "beim Pärchenabend", "für den Pärchenabend"),
    ("Putztag", "am Putztag", "für den Putztag"),
    ("Meditation", "bei der Meditation", "für die Meditation"),
    ("Familienfrühstück", "beim Familienfrühstück", "fürs Familienfrühstück"),
    ("Lernzeit", "zur Lernzeit", "für die Lernzeit"),
    ("Partyabend", "beim Partyabend", "für den Partyabend"),
    ("Regentag", "an einem Regentag", "für einen Regentag"),
)
"""Per scene: its name (the key term), "at" form, "for" form."""

ATTRS: dict[str, tuple[str, str]] = {
    "ac mode": ("Betriebsart", "f"),
    "alarm volume": ("Alarmlautstärke", "f"),
    "breathing light": ("Atemlicht", "n"),
    "brightness": ("Helligkeit", "f"),
    "clean mode": ("Reinigungsmodus", "m"),
    "color temperature": ("Farbtemperatur", "f"),
    "current direction": ("Drehrichtung", "f"),
    "drying": ("Trocknung", "f"),
    "effect": ("Lichteffekt", "m"),
    "fan": ("Lüfterstufe", "f"),
    "fan speed": ("Lüftergeschwindigkeit", "f"),
    "favorite": ("Lieblingsstufe", "f"),
    "intensity": ("Intensität", "f"),
    "oscillation": ("Schwenkfunktion", "f"),
    "position": ("Position", "f"),
    "preset mode": ("Voreinstellung", "f"),
    "sleep state": ("Schlafphase", "f"),
    "speed": ("Geschwindigkeit", "f"),
    "suction": ("Saugkraft", "f"),
    "swing": ("Lamellenschwenk", "m"),
    "target humidity": ("Zielfeuchte", "f"),
    "target temperature": ("Solltemperatur", "f"),
    "target water quantity": ("Wassermenge", "f"),
    "target water temperature": ("Wassertemperatur", "f"),
    "tilt angle": ("Neigungswinkel", "m"),
    "volume level": ("Lautstärke", "f"),
    "water": ("Wasserstand", "m"),
    "work mode": ("Programm", "n"),
}
"""Per setting (its English words): the German noun and its gender."""
OPTIONS = {
    "auto": "Automatik",
    "cool": "Kühlen",
    "dry": "Entfeuchten",
    "fan_only": "Umluft",
    "heat": "Heizen",
    "breathing": "Atmen",
    "music_sync": "Musik",
    "rainbow": "Regenbogen",
    "static": "statisch",
    "forward": "vorwärts",
    "reverse": "rückwärts",
    "natural": "Naturwind",
    "normal": "Normal",
    "sleep": "Schlafen",
    "high": "hoch",
    "low": "niedrig",
    "medium": "mittel",
    "awake": "wach",
    "deep_sleep": "Tiefschlaf",
    "fall_asleep": "Einschlafen",
    "continuous": "Dauerbetrieb",
    "dry_clothes": "Wäschetrocknen",
    "eco": "Eco",
    "favorite": "Favorit",
    "quick_heat": "Schnellaufheizen",
    "synthetic": "Pflegeleicht",
    "cotton": "Baumwolle",
    "flowing": "fließend",
    "mop": "Wischen",
    "quick": "Schnell",
    "standard": "Standard",
    "sweep": "Saugen",
    "sweep_and_mop": "Saugen und Wischen",
    "wool": "Wolle",
}
"""A setting's option values as a German speaker says them."""
UNITS = {
    "Celsius": "{v} Grad",
    "percentage": "{v} %",
    "Kelvin": "{v} K",
    "second": "{v} Sekunden",
    "liter": "{v} Liter",
    "degree": "{v} Grad",
}

_ACC = {"m": "den", "f": "die", "n": "das"}
_NOM = {"m": "der", "f": "die", "n": "das"}
_DAT = {"m": "dem", "f": "der", "n": "dem"}
_BEI = {"m": "beim", "f": "bei der", "n": "beim"}


def _article(name: str, articles: dict[str, str]) -> str:
    return with_article(name, names.KINDS, names.NAMED, articles)


def scene_words(scene: tuple[str, str, str]) -> dict[str, str]:
    """The template fields of a scene."""
    at = scene[1]
    return {
        "scene": scene[0],
        "Scene": scene[0],
        "scene_at": at,
        "Scene_at": at[:1].upper() + at[1:],
        "scene_for": scene[2],
    }


def name_words(name: str) -> dict[str, str]:
    """The template fields of a device's name: bare, accusative, dative, after "bei"."""
    return {
        "name": name,
        "the_name": _article(name, _ACC),
        "dem_name": _article(name, _DAT),
        "bei_name": _article(name, _BEI),
    }


def _number(value: Any) -> str:
    return (f"{value:g}" if isinstance(value, float) else str(value)).replace(".", ",")


def value_said(value: Any, unit: str | None) -> str:
    """A setting's value as said in German (an option by :data:`OPTIONS`, else a number)."""
    if isinstance(value, str):
        return OPTIONS[value]
    return UNITS[unit].format(v=_number(value)) if unit in UNITS else _number(value)


def switch(name: str, on: bool) -> Said:
    """A device switched on or off."""
    the, state, verb = _article(name, _ACC), "an" if on else "aus", "ein" if on else "aus"
    return Said(
        state,
        f"{the} {state}",
        f"Schalte {the} {verb}.",
        f"{the} {verb}schalten",
        f"Erledigt, {_article(name, _NOM)} ist jetzt {state}.",
        state,
    )


def setting(name: str, attr: str, value: Any, unit: str | None, english: str) -> Said:
    """A device's setting at a value (a flag on or off, a number, an option); ``attr`` and
    ``english`` are the setting and its value in English words (the keys of the tables)."""
    noun, gender = ATTRS[attr]
    acc, nom, bei = f"{_ACC[gender]} {noun}", f"{_NOM[gender]} {noun}", _article(name, _BEI)
    if isinstance(value, bool):
        state, verb = ("an", "ein") if value else ("aus", "aus")
        return Said(
            state,
            f"{acc} {bei} {state}",
            f"Schalte {acc} {bei} {verb}.",
            f"{acc} {bei} {verb}schalten",
            f"Erledigt, {nom} {bei} ist jetzt {state}.",
            state,
        )
    said = value_said(value, unit)
    return Said(
        said,
        f"{acc} {bei} auf {said}",
        f"Stell {acc} {bei} auf {said}.",
        f"{acc} {bei} auf {said} stellen",
        f"Erledigt, {nom} {bei} steht jetzt auf {said}.",
        said,
    )


FILLERS = ("äh", "ähm", "hm", "also", "na ja", "sag mal")
NOISY = ("{Filler}... {text}", "{Filler}, {filler}... {text}", "{text_bare}, {filler}, ja.")
ENTRY = (
    "{Scene_at} hätte ich gern {desc}.",
    "{Scene_at} bitte immer {desc}.",
    "{Scene}: {desc}.",
)

ADD_SETTING = (
    "Merk dir diese Einstellung {scene_for}.",
    "Perfekt. Bitte merk dir das ab jetzt {scene_for}.",
    "Behalte das {scene_for} im Kopf, genau so mag ich es.",
)
ADD_SETTING_COLLOQUIAL = (
    "Super, genau so will ich es {scene_at} immer, merk dir das!",
    "Jo, schreib dir das {scene_for} auf.",
)
ADD = (
    "Merk dir, dass ich {scene_at} gern {desc} hätte.",
    "Ab jetzt möchte ich {scene_at} immer {desc}.",
    "Bitte denk dran: {scene_at} {desc}.",
    "Kannst du dir das merken? {Scene_at} möchte ich {desc}.",
)
ADD_COLLOQUIAL = (
    "Hey, merk dir, dass ich {scene_at} immer {desc} will, okay?",
    "Merk dir mal: {scene} heißt {desc}.",
    "Nur damit du es weißt: {scene_at} hätte ich gern {desc}. Merk dir das.",
)
UPDATE = (
    "Eigentlich hätte ich {scene_at} ab jetzt lieber {desc}.",
    "Ändere meine Einstellung {scene_for}: {said_new} statt {said_old} {bei_name}.",
    "Pass an, was du dir {scene_for} gemerkt hast: Ich will jetzt {desc}.",
    "Bitte merk dir eine neue Vorliebe {scene_for}: {desc}, nicht mehr {said_old}.",
)
UPDATE_COLLOQUIAL = (
    "{Said_old} passt {scene_at} nicht mehr, nimm nächstes Mal {said_new} und merk dir das.",
    "Ich hab's mir anders überlegt. Merk dir {scene_for} stattdessen {desc}.",
    "Hey, Änderung {scene_for}: ab jetzt {said_new} {bei_name}.",
)
DELETE = (
    "Vergiss, was ich dir {scene_for} gesagt habe.",
    "Lösch bitte meine Vorliebe {scene_for}.",
    "Die Einstellung {bei_name} brauche ich {scene_at} nicht mehr, lösch sie aus dem Gedächtnis.",
    "Du musst dir nicht mehr merken, dass ich {scene_at} gern {desc} hätte.",
)
DELETE_COLLOQUIAL = (
    "Vergiss das mit {dem_name} {scene_at}, lösch es.",
    "Weg mit meiner Einstellung {scene_for}, die will ich nicht mehr.",
    "Die Regel {scene_for}? Vergiss sie, vergiss sie.",
)
USE = (
    "{Scene_at} bitte alles wie immer.",
    "Mach alles bereit {scene_for}.",
    "{Scene}, bitte. Wie immer.",
    "Bereite das Haus {scene_for} vor, wie immer.",
)
USE_COLLOQUIAL = (
    "Okay, {scene}! Du weißt, was ich mag.",
    "Los geht's: {scene}. Mach mein Ding.",
    "Hey, wieder {scene}, stell alles so ein, wie ich es mag.",
)
ONCE = (
    "Nur für heute Abend: {command} Das musst du dir nicht merken.",
    "Nur dieses Mal: {command}",
    "Für jetzt: {command} Aber speicher das nicht als Vorliebe.",
)
ONCE_COLLOQUIAL = (
    "Kannst du {request}? Nur dieses eine Mal.",
    "Vorübergehend: {command} Nicht merken.",
)
UNCOVERED = ("{command}",)
UNCOVERED_COLLOQUIAL = ("Könntest du {request}?", "{command_bare}, bitte.")
OVERRIDE = ("{command}", "{Scene} ist vorbei. {command}")
OVERRIDE_COLLOQUIAL = ("Könntest du {request}?", "{command_bare}, und zwar sofort.")

RESPONSES = {
    "add": "Okay, ich merke mir: {content}",
    "update": "Aktualisiert: {content}",
    "delete": "Vergessen: {content}",
    "use": "Erledigt, so wie du es magst.",
    "refuse": "Tut mir leid, ich merke mir nur Vorlieben für Geräte.",
    "execute": "Erledigt.",
}

PHONE = "0{a} {b}{c}"
CARD = "{0} {1} {2} {3}"
EMAIL_NAMES = ("jonas", "lea", "finn", "mia")
WIFI_WORDS = ("sonnenschein", "ahornblatt", "wolke")
SENSITIVE = (
    "Merk dir meine Telefonnummer: {phone}.",
    "Bitte denk dran, meine Handynummer ist {phone}.",
    "Merk dir ab jetzt meine E-Mail-Adresse: {email}{d2}@beispiel.de.",
    "Meine Kartennummer ist {card}, merk sie dir.",
    "Merk dir, das WLAN-Passwort für {the_name} ist {wifi}{d4}.",
    "Kannst du dir die PIN für die Haustür merken? Sie lautet {pin}.",
    "Ähm, merk dir meine Reisepassnummer, sie lautet C{passport}.",
    "Hey, speicher das für mich: Die Nummer meiner Mutter ist {phone}.",
)
MONTHS = ("Januar", "März", "Mai", "Juli", "September", "November")
ALLERGENS = ("Katzen", "Erdnüsse", "Pollen", "Meeresfrüchte")
TEAMS = ("der FC Bayern", "Borussia Dortmund", "der HSV")
DOGS = ("Bello", "Luna", "Max", "Paula")
WEEKDAYS = ("Montag", "Dienstag", "Freitag")
WIVES = ("Anna", "Maria", "Julia", "Lena")
CHITCHAT = (
    "Merk dir, dass meine Schwester am {day}. {month} Geburtstag hat.",
    "Bitte merk dir, dass ich gegen {allergen} allergisch bin.",
    "Denk dran, mein Lieblingsverein ist {team}.",
    "Merk dir ab jetzt: Mein Hund heißt {dog}.",
    "Merk dir, dass ich lieber Tee als Kaffee trinke.",
    "Äh, merk dir, dass ich nächsten {weekday} einen Zahnarzttermin habe.",
    "Nur damit du es weißt: Ich bin Vegetarier. Merk dir das, okay?",
    "Merk dir, dass meine Frau {wife} heißt.",
)
