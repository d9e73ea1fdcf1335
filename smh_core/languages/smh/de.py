"""The ``smh`` suite in German: du-Form, as a household talks to its assistant; a device named
with its article in the case the sentence needs (``den Strahler Flur``, ``vom Farblicht
Wohnzimmer``, ``beim Luftreiniger Küche``); decimal comma, a space before ``%``."""

from __future__ import annotations

import sys

from smh_core.languages.names import de as NAMES
from smh_core.languages.names import with_article

from . import render

DONE = "Erledigt."
FILLERS = ("äh", "ähm", "hm", "öhm", "also", "na ja")
SET_CLEAR = (
    "Stell {attr_acc} {of_dev} auf {val}.",
    "Bitte stell {at_dev} {attr_acc} auf {val}.",
    "Ändere {attr_acc} {of_dev} auf {val}.",
)
SET_COLLOQUIAL = (
    "Kannst du {attr_acc} {of_dev} auf {val} stellen?",
    "Hey, mach {at_dev} {attr_acc} mal auf {val}, ja?",
    "Ich hätte {attr_acc} {of_dev} gern auf {val}, danke.",
    "Kriegst du {attr_acc} {of_dev} auf {val}?",
)
SET_NOISY_DECOY = (
    "{F}, stell {decoy} … nein, warte, {dev}, {attr_acc} auf {val}.",
    "Stell {decoy}, Entschuldigung, ich meine {dev}, {f}, {attr_acc} auf {val}.",
)
SET_NOISY = "{F}, {f}, {dev} … {attr_acc} auf {val}, {attr_acc} auf {val}, bitte."
SWITCH_CLEAR = {
    "on": ("Schalte {dev} ein.", "Mach {dev} an."),
    "off": ("Schalte {dev} aus.", "Mach {dev} aus."),
}
SWITCH_COLLOQUIAL = {
    "on": ("Kannst du {dev} mal anmachen?", "Lass uns {dev} mal anwerfen.", "{Dev} an, bitte."),
    "off": ("Kannst du {dev} mal ausmachen?", "Mach {dev} bitte aus.", "{Dev} aus, bitte."),
}
SWITCH_NOISY_DECOY = {
    "on": "{F}, schalte {decoy} ein, nein, nein, {dev}.",
    "off": "{F}, schalte {decoy} aus, nein, nein, {dev}.",
}
SWITCH_NOISY = {
    "on": "{F} … schalte, {f}, schalte {dev} ein.",
    "off": "{F} … schalte, {f}, schalte {dev} aus.",
}
STATUS = (
    "Wie ist {attr} {of_dev} gerade?",
    "Sag mir mal {attr_acc} {of_dev}.",
    "Was ist {attr} {of_dev} im Moment?",
)
STATUS_ANSWER = "{attr} {of_dev} ist gerade: {value}."
QUANTITY_ROOM = ("Wie viele {kinds} gibt es {room_in}?", "Zähl mal die {kinds} {room_in} für mich.")
QUANTITY_ON = (
    "Wie viele {kinds} sind gerade eingeschaltet?",
    "Wie viele {kinds} laufen im Moment?",
)
QUANTITY_ANSWER = "Ich zähle {n}."
ALIASES = ("{kind} {room}", "{my_kind}", "{kind} am Fenster", "{big_kind}")
DECIMAL = ","
ON_OFF = ("an", "aus")
QUOTE = "„{}“"
UNITS = {
    "Celsius": "{n} Grad",
    "percentage": "{n} %",
    "Kelvin": "{n} K",
    "second": "{n} Sekunden",
    "liter": "{n} Liter",
    "degree": "{n} Grad",
    "lux": "{n} Lux",
}
ATTRS = {
    "ac_mode": ("der Modus", "den Modus"),
    "alarm_volume": ("die Alarmlautstärke", "die Alarmlautstärke"),
    "alias": ("der Name", "den Namen"),
    "battery_level": ("der Akkustand", "den Akkustand"),
    "breathing_light_enabled": ("das Atemlicht", "das Atemlicht"),
    "brightness": ("die Helligkeit", "die Helligkeit"),
    "clean_mode": ("der Reinigungsmodus", "den Reinigungsmodus"),
    "color": ("die Farbe", "die Farbe"),
    "color_mode": ("der Farbmodus", "den Farbmodus"),
    "color_temperature": ("die Farbtemperatur", "die Farbtemperatur"),
    "current_direction": ("die Drehrichtung", "die Drehrichtung"),
    "current_humidity": ("die aktuelle Luftfeuchtigkeit", "die aktuelle Luftfeuchtigkeit"),
    "current_temperature": ("die aktuelle Temperatur", "die aktuelle Temperatur"),
    "current_water_temperature": ("die aktuelle Wassertemperatur", "die aktuelle Wassertemperatur"),
    "defend_enabled": ("der Einbruchschutz", "den Einbruchschutz"),
    "drying_enabled": ("die Trocknung", "die Trocknung"),
    "effect": ("der Lichteffekt", "den Lichteffekt"),
    "fan_level": ("die Lüfterstufe", "die Lüfterstufe"),
    "fan_speed": ("die Lüftergeschwindigkeit", "die Lüftergeschwindigkeit"),
    "favorite_level": ("die Lieblingsstufe", "die Lieblingsstufe"),
    "filter_life": ("die Filterrestlaufzeit", "die Filterrestlaufzeit"),
    "human_detected": ("die Anwesenheitserkennung", "die Anwesenheitserkennung"),
    "illuminance": ("die Beleuchtungsstärke", "die Beleuchtungsstärke"),
    "intensity": ("die Intensität", "die Intensität"),
    "media_name": ("der Titel", "den Titel"),
    "media_track": ("die Titelnummer", "die Titelnummer"),
    "no_move_duration": ("die Zeit ohne Bewegung", "die Zeit ohne Bewegung"),
    "oscillation_enabled": ("das Schwenken", "das Schwenken"),
    "pm25": ("der Feinstaubwert", "den Feinstaubwert"),
    "position": ("die Position", "die Position"),
    "preset_mode": ("der Lüftungsmodus", "den Lüftungsmodus"),
    "remaining_running_time": ("die Restlaufzeit", "die Restlaufzeit"),
    "remaining_time": ("die Restzeit", "die Restzeit"),
    "sleep_state": ("der Schlafzustand", "den Schlafzustand"),
    "speed_level": ("die Geschwindigkeitsstufe", "die Geschwindigkeitsstufe"),
    "state": ("der Zustand", "den Zustand"),
    "suction": ("die Saugkraft", "die Saugkraft"),
    "swing_enabled": ("das Schwenken der Lamellen", "das Schwenken der Lamellen"),
    "target_cooking_time": ("die Garzeit", "die Garzeit"),
    "target_humidity": ("die Zielluftfeuchtigkeit", "die Zielluftfeuchtigkeit"),
    "target_temperature": ("die Solltemperatur", "die Solltemperatur"),
    "target_water_quantity": ("die Wassermenge", "die Wassermenge"),
    "target_water_temperature": ("die Wassertemperatur", "die Wassertemperatur"),
    "tilt_angle": ("der Neigungswinkel", "den Neigungswinkel"),
    "volume_level": ("die Lautstärke", "die Lautstärke"),
    "volume_muted_enabled": ("die Stummschaltung", "die Stummschaltung"),
    "water_level": ("der Wasserstand", "den Wasserstand"),
    "water_tank_full": ("die Meldung „Wassertank voll“", "die Meldung „Wassertank voll“"),
    "work_mode": ("der Betriebsmodus", "den Betriebsmodus"),
    "work_state": ("der Betriebszustand", "den Betriebszustand"),
}
"""Per attribute (the locator's last part): its name with the article, nominative and accusative."""
VALUES = {
    "heat": "Heizen", "cool": "Kühlen", "auto": "Automatik", "dry": "Entfeuchten",
    "fan_only": "Umluft", "sweep": "Saugen", "mop": "Wischen", "sweep_and_mop": "Saugen und Wischen",
    "color": "Farbe", "color_temperature": "Weißlicht", "forward": "vorwärts",
    "reverse": "rückwärts", "static": "statisch", "breathing": "pulsierend",
    "rainbow": "Regenbogen", "flowing": "fließend", "music_sync": "Musiksynchron",
    "low": "niedrig", "medium": "mittel", "high": "hoch", "normal": "normal",
    "natural": "Naturwind", "sleep": "Schlafmodus", "awake": "wach", "fall_asleep": "Einschlafen",
    "deep_sleep": "Tiefschlaf", "on": "eingeschaltet", "off": "ausgeschaltet",
    "standby": "Bereitschaft", "cooking": "Garvorgang", "paused": "pausiert",
    "idle": "Leerlauf", "cleaning": "Reinigung", "returning": "Rückfahrt zur Station",
    "docked": "in der Station", "locked": "verriegelt", "unlocked": "entriegelt",
    "charging": "lädt", "yes": "ja", "no": "nein", "favorite": "Lieblingsstufe",
    "eco": "Sparmodus", "quick_heat": "Schnellheizen", "microwave": "Mikrowelle",
    "steam": "Dampfgaren", "bake": "Backen", "steam_bake": "Dampfbacken",
    "reheating": "Aufwärmen", "defrost": "Auftauen", "continuous": "Dauerbetrieb",
    "dry_clothes": "Wäschetrocknung", "standard": "Standard", "quick": "Kurzprogramm",
    "cotton": "Baumwolle", "wool": "Wolle", "synthetic": "Pflegeleicht", "playing": "Wiedergabe",
    "washing": "Waschen", "rinsing": "Spülen", "spinning": "Schleudern", "drying": "Trocknen",
    "done": "fertig", "heating": "Aufheizen", "keep_warm": "Warmhalten",
}  # fmt: skip
"""Per named value of an attribute (a mode, a state): how a German speaker says it."""
SUBCATS = {
    "ac_gateway": ("Klimasteuerung", "Klimasteuerungen", "f"),
    "air_cube": ("Klimawürfel", "Klimawürfel", "m"),
    "air_purifier": ("Luftreiniger", "Luftreiniger", "m"),
    "blind": ("Jalousie", "Jalousien", "f"),
    "builtin_microwave_steam_oven": ("Dampfbackofen", "Dampfbacköfen", "m"),
    "climate_sensor": ("Klimasensor", "Klimasensoren", "m"),
    "color_light": ("Farblampe", "Farblampen", "f"),
    "color_temperature_light": ("Weißlichtlampe", "Weißlichtlampen", "f"),
    "compound_washer": ("Waschtrockner", "Waschtrockner", "m"),
    "curtain": ("Vorhang", "Vorhänge", "m"),
    "dehumidifier": ("Luftentfeuchter", "Luftentfeuchter", "m"),
    "electric_water_heater": ("Warmwasserbereiter", "Warmwasserbereiter", "m"),
    "fan_light": ("Deckenventilator", "Deckenventilatoren", "m"),
    "floor_ac": ("Standklimagerät", "Standklimageräte", "n"),
    "human_sensor": ("Bewegungsmelder", "Bewegungsmelder", "m"),
    "humidifier": ("Luftbefeuchter", "Luftbefeuchter", "m"),
    "light": ("Lampe", "Lampen", "f"),
    "light_strip": ("LED-Streifen", "LED-Streifen", "m"),
    "robot_cleaner": ("Wischroboter", "Wischroboter", "m"),
    "smart_fan": ("Ventilator", "Ventilatoren", "m"),
    "smart_lock": ("Türschloss", "Türschlösser", "n"),
    "smart_screen": ("Bildschirm", "Bildschirme", "m"),
    "universal_speaker": ("Lautsprecher", "Lautsprecher", "m"),
    "vacuum_cleaner": ("Staubsauger", "Staubsauger", "m"),
}
"""Per kind of device of the home model: the noun, its plural, its gender."""
_MY = {"m": "mein", "f": "meine", "n": "mein"}
_BIG = {"m": "der große", "f": "die große", "n": "das große"}
_NOM = {"m": "der", "f": "die", "n": "das"}
_VON = {"m": "vom", "f": "von der", "n": "vom"}
_BEI = {"m": "beim", "f": "bei der", "n": "beim"}


def _with(name: str, articles: dict[str, str], bare: str) -> str:
    said = with_article(name, NAMES.KINDS, NAMES.NAMED, articles)
    return said if said != name else f"{bare} {name}".strip()


def device_parts(name: str) -> dict[str, str]:
    """A device's name as the templates use it: accusative, nominative, bare, after "von" and
    "bei"."""
    return {
        "dev": NAMES.the(name),
        "dev_nom": _with(name, _NOM, ""),
        "Dev": name,
        "name": name,
        "of_dev": _with(name, _VON, "von"),
        "at_dev": _with(name, _BEI, "bei"),
    }


def kind_parts(sub: str) -> dict[str, str]:
    """A kind of device as the templates use it (plural for counting, singular for names)."""
    one, many, gender = SUBCATS[sub]
    return {
        "kind": one,
        "kinds": many,
        "my_kind": f"{_MY[gender]} {one}",
        "big_kind": f"{_BIG[gender]} {one}",
    }


# ---------------------------------------------------------------------------------- scheduling
SCHEDULED = "Erledigt, die Regel ist eingerichtet."
TONIGHT = ("Heute Abend um {clock}", "Um {clock} heute Abend", "Heute um {clock}")
TOMORROW = ("Morgen um {clock}", "Um {clock} morgen")
DAILY = ("Jeden Tag um {clock}", "Täglich um {clock}", "Jeden Tag pünktlich um {clock}")
WEEKDAYS = ("Werktags um {clock}", "Montags bis freitags um {clock}")
WEEKEND = ("Am Wochenende um {clock}", "Jeden Samstag und Sonntag um {clock}")
NO_MOVE = (
    "Wenn sich {room_in} {minutes} Minuten lang nichts bewegt hat",
    "Sobald sich {room_in} seit {minutes} Minuten niemand mehr bewegt hat",
)
HOT = (
    "Wenn es {room_in} wärmer als {t} Grad wird",
    "Wenn die Temperatur {room_in} über {t} Grad steigt",
)
COLD = "Wenn es {room_in} kälter als {t} Grad wird"
HUMID = (
    "Wenn die Luftfeuchtigkeit {room_in} über {h} % steigt",
    "Wenn es {room_in} feuchter als {h} % wird",
)
DUSTY = "Wenn der Feinstaubwert {room_in} über {level} steigt"
TURNS = {
    "on": ("Wenn {dev_nom} eingeschaltet wird", "Immer wenn {dev_nom} angeht"),
    "off": ("Wenn {dev_nom} ausgeschaltet wird", "Immer wenn {dev_nom} ausgeht"),
}
BECOMES = ("Wenn {dev_nom} auf „{shown}“ wechselt", "Sobald {dev_nom} den Zustand „{shown}“ hat")
IF_HOT = (
    "wenn es {room_in} noch über {t} Grad hat",
    "aber nur, wenn die Temperatur {room_in} über {t} Grad liegt",
)
IF_HUMID = "wenn die Luftfeuchtigkeit {room_in} über {h} % liegt"
IF_STATE = "wenn {dev_nom} gerade {shown} ist"
WHEN_IF = "{when}, {cond}"
RULE = "{when}: {actions}."
SWITCH_ACTION = {"on": "{dev} einschalten", "off": "{dev} ausschalten"}
SET_ACTION = "{attr_acc} {of_dev} auf {val} stellen"
COMMA, AND = ", ", " und "


def clock(hour: int, minute: int) -> str:
    """A time as German speakers write it (``19 Uhr``, ``6:45 Uhr``)."""
    return f"{hour}:{minute:02d} Uhr" if minute else f"{hour} Uhr"


# ------------------------------------------------------------------------------------- memory
PHRASES = (
    (
        "sleep",
        ("Zeit zum Schlafen.", "Ich geh ins Bett.", "Schlafenszeit, bitte.", "Gut, Nachtruhe."),
    ),
    ("movie", ("Filmabend!", "Lass uns einen Film schauen.", "Mach alles bereit für einen Film.")),
    (
        "reading",
        ("Ich lese jetzt ein bisschen.", "Lesezeit.", "Richte mir alles zum Lesen ein, bitte."),
    ),
    ("wake-up", ("Guten Morgen!", "Ich bin wach.", "Morgenroutine, bitte.")),
    ("guests", ("Gleich kommen Gäste.", "Wir kriegen gleich Besuch, mach die Wohnung fertig.")),
    ("work", ("Zeit, mich auf die Arbeit zu konzentrieren.", "Ich fange jetzt mit der Arbeit an.")),
)
SCENES = {
    "sleep": "Schlafenszeit",
    "movie": "Filmabend",
    "reading": "Lesezeit",
    "wake-up": "Aufstehen",
    "guests": "Besuch",
    "work": "Arbeitszeit",
}
MEMORY_TARGET = "Wenn ich „{scene}“ sage, hätte ich gern {desc}."
MEMORY_OTHER = "Bei „{scene}“ will ich {desc} haben."
DESCRIBE_SWITCH = {"on": "{dev} eingeschaltet", "off": "{dev} ausgeschaltet"}
DESCRIBE_SET = "{attr_acc} {of_dev} auf {val}"
LONG_DONE = "Erledigt, so wie du es magst."
SAME = (
    "Mach dasselbe {at_dev}.",
    "Jetzt {dev} auch, gleiche Einstellung.",
    "Stell {dev} genauso ein wie eben.",
    "Das Gleiche für {dev}, bitte.",
    "Und {dev} – bitte angleichen.",
)
HISTORY_USER = "Stell {attr_acc} {of_dev} auf {val}."
HISTORY_DONE = "Erledigt, {attr} {of_dev} steht jetzt auf {val}."
SAME_DONE = "{dev_nom} ist jetzt genauso eingestellt."

globals().update(render.interface(sys.modules[__name__]))  # the functions of .en


# ------------------------------------------------------ dialogue: multi-turn (issue 41, item 3)
# continuation, topic_shift: the previous turn (a request and what the assistant said), the next
# request about the same device, a new topic after a marker.
SHIFTS = (
    "",
    "",
    "Ach, noch was anderes: ",
    "Was anderes: ",
    "Ganz was anderes: ",
    "Übrigens noch was: ",
    "Gut, als Nächstes: ",
)
"""How a user marks a new topic (empty: none); a full sentence follows the colon, capitalised."""
SHIFT_LOWER = False
PARTS = {
    "fan": {"part": "den Ventilator", "its_part": "den Ventilator daran"},
    "light": {"part": "das Licht", "its_part": "das Licht daran"},
}
"""The fan and the light of a fan light, accusative with the article (and "on it")."""
PART_SWITCH = {
    "on": ("Schalte {part} {of_dev} ein.", "Mach {part} {of_dev} an."),
    "off": ("Schalte {part} {of_dev} aus.", "Mach {part} {of_dev} aus."),
}
SAID_SWITCH = {
    "on": ("Erledigt, {dev_nom} ist jetzt an.", "Alles klar, ich habe {dev} eingeschaltet."),
    "off": ("Erledigt, {dev_nom} ist jetzt aus.", "Alles klar, ich habe {dev} ausgeschaltet."),
}
SAID_SET = (
    "Erledigt, {attr} {of_dev} steht jetzt auf {val}.",
    "Alles klar, ich habe {attr_acc} {of_dev} auf {val} gestellt.",
)
CONT_PART = {
    "on": ("Schalte {its_part} auch ein.", "Und mach {its_part} auch an."),
    "off": ("Schalte {its_part} auch aus.", "Und mach {its_part} auch aus."),
}
CONT_SWITCH = {
    "on": ("Jetzt bitte einschalten.", "Alles klar, und jetzt anmachen."),
    "off": ("Jetzt bitte ausschalten.", "Alles klar, und jetzt ausmachen."),
}
"""Switching the same device again: the infinitive, as Germans say it, needs no pronoun (er,
sie, es by the device's gender)."""
CONT_ALIAS = ("Ändere den Namen auch in {val}.", "Und benenn das Gerät in {val} um.")
CONT_SET = (
    "Stell auch {attr_acc} auf {val}.",
    "Jetzt bitte {attr_acc} auf {val}.",
    "Wo du schon dabei bist: Stell {attr_acc} auf {val}.",
    "Gleiches Gerät: {attr_acc} auf {val}, bitte.",
    "Super, und stell {attr_acc} noch auf {val}.",
)


def pronoun_parts(name: str) -> dict[str, str]:
    """German's templates name the device again by no pronoun."""
    return {}


CORRECTION = (
    "Ups, ich meinte {new_dev}. Stell {old_dev} bitte wieder zurück.",
    "Entschuldige, falsches Gerät: nicht {old_dev}, sondern {new_dev}.",
)
"""Correcting the previous turn's device (the old one goes back as it was)."""
CORRECTION_ROOMS = (
    "Nein, nicht {old_room_in}, sondern {new_room_in}.",
    "Moment, falscher Raum: Ich meinte {new_dev}, nicht {old_dev}.",
    "Lass {old_room_in} alles, wie es war, und nimm stattdessen {new_dev}.",
)
"""When both are the same kind of device: the rooms tell them apart."""
CORRECTION_DONE = (
    "Entschuldige: {old_dev_nom} ist wieder wie vorher, und {new_dev} habe ich jetzt umgestellt."
)

SAME_ROOM_TOO = {
    "on": (
        "Schalte {dev} auch ein.",
        "Und {dev} auch.",
        "{dev_nom} dort auch, bitte.",
        "Kannst du {dev} auch einschalten?",
    ),
    "off": (
        "Schalte {dev} auch aus.",
        "Und {dev} auch.",
        "{dev_nom} dort auch, bitte.",
        "Kannst du {dev} auch ausschalten?",
    ),
}
"""A device of the previous one's room, named by its kind only, switched the same way."""
SAME_ROOM_NOW = {
    "on": (
        "Jetzt schalte {dev} dort ein.",
        "Und mach {dev} dort an.",
        "Außerdem {dev} in dem Raum einschalten, bitte.",
    ),
    "off": (
        "Jetzt schalte {dev} dort aus.",
        "Und mach {dev} dort aus.",
        "Außerdem {dev} in dem Raum ausschalten, bitte.",
    ),
}
"""... switched the other way than the previous one."""
ANYTHING_ON = ("Ist {room_in} noch irgendwas an?", "Was ist {room_in} gerade eingeschaltet?")
ONLY_ON = ("Nur {dev_nom} ist an.", "Nur {dev_nom}; alles andere dort ist aus.")
THAT_ONE_OFF = (
    "Mach das aus.",
    "Gut, dann bitte ausschalten.",
    "Schalt das bitte für mich aus.",
    "Dann aus damit.",
)


globals().update(render.dialogue_interface(sys.modules[__name__]))
