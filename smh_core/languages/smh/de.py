"""The ``smh`` suite in German: du-Form, as a household talks to its assistant; a device named
with its article in the case the sentence needs (``den Strahler Flur``, ``vom Farblicht
Wohnzimmer``, ``beim Luftreiniger Küche``); decimal comma, a space before ``%``."""

from __future__ import annotations

import re
import sys
from typing import Any

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
    "heat": "Heizen", "cool": "Kühlen", "auto": "Automatik", "heat_cool": "Heizen und Kühlen", "dry": "Entfeuchten",
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


# ------------------------------------------- compositional control (issue 41: multi_device, batch)
# One request over several devices. Each phrasing is a pair: the imperative ("schalte {obj} ein")
# and the infinitive a question frame needs ("Kannst du {obj} einschalten?"); {obj} is a device
# or a group in the accusative ("den Strahler Flur", "alle Lampen im Bad", "sie"). As many
# phrasings per operation as English has (the draws are the same).
def _on_off() -> dict[Any, tuple[tuple[str, str], ...]]:
    return {
        ("state", "on"): (
            ("schalte {obj} ein", "{obj} einschalten"),
            ("mach {obj} an", "{obj} anmachen"),
            ("schalt {obj} an", "{obj} anschalten"),
        ),
        ("state", "off"): (
            ("schalte {obj} aus", "{obj} ausschalten"),
            ("mach {obj} aus", "{obj} ausmachen"),
            ("stell {obj} ab", "{obj} abstellen"),
        ),
    }


def _to(*says: str) -> tuple[tuple[str, str], ...]:
    """Imperative and infinitive from one pattern "verb|infinitive rest+particle": "mach|machen
    {obj}+zu" is "mach {obj} zu" and "{obj} zumachen" (a particle ending in a space stays a
    word: "lass|lassen {obj}+schwenken " gives "{obj} schwenken lassen")."""
    out = []
    for say in says:
        verbs, rest = say.split(" ", 1)
        imp, inf = verbs.split("|")
        rest, _, particle = rest.partition("+")
        out.append((f"{imp} {rest} {particle}".rstrip(), f"{rest} {particle}{inf}"))
    return tuple(out)


COMP_OPS: dict[str, dict[Any, tuple[Any, ...]]] = {
    "lights": {
        **_on_off(),
        "brightness": _to(
            "stell|stellen {obj} auf {v} % Helligkeit",
            "setz|setzen {obj} auf {v} %",
            "bring|bringen {obj} auf {v} % Helligkeit",
        ),
        ("color_temperature", 2700): _to(
            "stell|stellen {obj} auf Warmweiß (2700 K)",
            "schalte|schalten {obj} auf das wärmste Weiß",
        ),
        ("color_temperature", 6500): _to(
            "stell|stellen {obj} auf kaltes Tageslicht (6500 K)",
            "schalte|schalten {obj} auf das kälteste Weiß",
        ),
        ("color_temperature", 4000): _to("stell|stellen {obj} auf neutrales Weiß mit 4000 K"),
    },
    "fans": {
        **_on_off(),
        "speed_level": _to(
            "stell|stellen {obj} auf die {v} Stufe", "schalte|schalten {obj} auf die {v} Stufe"
        ),
        "preset_mode": _to("stell|stellen {obj} auf {v}", "schalte|schalten {obj} in den {v}"),
        ("oscillation_enabled", True): _to(
            "schalte|schalten das Schwenken für {obj}+ein", "lass|lassen {obj}+schwenken "
        ),
        ("oscillation_enabled", False): _to(
            "schalte|schalten das Schwenken für {obj}+aus",
            "lass|lassen {obj} nicht mehr+schwenken ",
        ),
    },
    "acs": {
        **_on_off(),
        "ac_mode": _to("stell|stellen {obj} auf {v}", "schalte|schalten {obj} auf {v}+um"),
        "target_temperature": _to(
            "stell|stellen {obj} auf {v} Grad", "setz|setzen {obj} auf {v} Grad"
        ),
    },
    "covers": {
        ("position", 0): _to(
            "schließ|schließen {obj}", "mach|machen {obj}+zu", "mach|machen {obj} ganz+zu"
        ),
        ("position", 100): _to(
            "öffne|öffnen {obj}", "mach|machen {obj} ganz+auf", "öffne|öffnen {obj} vollständig"
        ),
        ("position", 50): _to("öffne|öffnen {obj} zur Hälfte", "mach|machen {obj} halb+auf"),
        "position": _to("stell|stellen {obj} auf {v} % Öffnung", "öffne|öffnen {obj} auf {v} %"),
    },
    "media": {
        **_on_off(),
        "volume_level": _to(
            "stell|stellen die Lautstärke für {obj} auf {v}", "dreh|drehen {obj} auf Lautstärke {v}"
        ),
        ("work_state", "paused"): _to(
            "pausier|pausieren {obj}", "halte|halten die Wiedergabe für {obj}+an"
        ),
        ("volume_muted_enabled", True): _to("schalte|schalten {obj}+stumm"),
    },
    "water_heaters": {
        **_on_off(),
        "target_water_temperature": _to(
            "stell|stellen {obj} auf {v} Grad", "heiz|heizen {obj} auf {v} Grad+auf"
        ),
        ("work_mode", "eco"): _to(
            "stell|stellen {obj} auf Sparmodus", "schalte|schalten {obj} in den Sparmodus"
        ),
    },
    "dehumidifiers": {
        **_on_off(),
        "target_humidity": _to(
            "stell|stellen {obj} auf {v} % Luftfeuchtigkeit",
            "lass|lassen {obj} auf {v} %+regeln ",
        ),
    },
    "humidifiers": {
        **_on_off(),
        "target_humidity": _to(
            "stell|stellen {obj} auf {v} % Luftfeuchtigkeit",
            "lass|lassen {obj} auf {v} %+regeln ",
        ),
    },
    "purifiers": {
        **_on_off(),
        "work_mode": _to("stell|stellen {obj} auf {v}", "schalte|schalten {obj} in den {v}"),
    },
}
"""Per kind of device the compositional requests name: its operations' phrasings, by
(attribute, value) or by attribute (with {v}, the value)."""
COMP_VALUES = {
    "fans": {"low": "niedrige", "medium": "mittlere", "high": "hohe", "normal": "Normalmodus",
             "natural": "Naturwindmodus", "sleep": "Schlafmodus"},
    "acs": {"cool": "Kühlen", "heat": "Heizen", "dry": "Entfeuchten", "auto": "Automatik"},
    "purifiers": {"sleep": "Schlafmodus", "auto": "Automatikmodus"},
}  # fmt: skip
"""Per kind: the named values its phrasings say ({v})."""
_COMP_KINDS = {
    "lights": (("Lampen", "Leuchten"), "jede Lampe", "jede einzelne Lampe"),
    "fans": (("Ventilatoren",), "jeden Ventilator", "jeden einzelnen Ventilator"),
    "acs": (("Klimageräte", "Klimaanlagen"), "jedes Klimagerät", "jedes einzelne Klimagerät"),
    "covers": (
        ("Vorhänge und Jalousien", "Jalousien und Vorhänge"),
        "jeden Vorhang und jede Jalousie",
        "jeden einzelnen Vorhang und jede einzelne Jalousie",
    ),
    "media": (
        ("Lautsprecher und Bildschirme", "Mediengeräte"),
        "jedes Mediengerät",
        "jedes einzelne Mediengerät",
    ),
    "water_heaters": (("Warmwasserbereiter",), "jeden Warmwasserbereiter", "jeden einzelnen Warmwasserbereiter"),
    "dehumidifiers": (("Luftentfeuchter",), "jeden Luftentfeuchter", "jeden einzelnen Luftentfeuchter"),
    "humidifiers": (("Luftbefeuchter",), "jeden Luftbefeuchter", "jeden einzelnen Luftbefeuchter"),
    "purifiers": (("Luftreiniger", "Luftreinigungsgeräte"), "jeden Luftreiniger", "jeden einzelnen Luftreiniger"),
}  # fmt: skip
"""Per kind: its plurals (as many as English has), "every one" and "each one" (accusative)."""
COMP_ALL = ("alle {kinds}{where}", "sämtliche {kinds}{where}", "{every}{where}", "{each}{where}")
COMP_THEM = "sie"
COMP_IN_ROOM = (" {room_in}", " {room_in}", " drüben {room_in}")
COMP_IN_HOME = ("", " im ganzen Haus", " in der ganzen Wohnung", " im Haus")
COMP_REQUEST = (
    "{imp}.",
    "Bitte {imp}.",
    "Könntest du {inf}?",
    "Kannst du mir {inf}?",
    "Sei so lieb und {imp}.",
)
COMP_THEN = "Zuerst {first}, dann {rest}."
COMP_ALSO = "{first}. Und {rest}, bitte."
COMP_DONE = (
    "Erledigt.",
    "Alles eingestellt.",
    "Erledigt, die Geräte sind angepasst.",
    "Alles klar, erledigt.",
)
COMP_RANKS = {
    "lights": {
        "high": (
            ("die hellste Lampe{where}", "die {n} hellsten {kinds}{where}"),
            ("die Lampe{where} mit der höchsten Helligkeit", "die {n} {kinds}{where} mit der höchsten Helligkeit"),
        ),
        "low": (
            ("die dunkelste Lampe{where}", "die {n} dunkelsten {kinds}{where}"),
            ("die Lampe{where} mit der niedrigsten Helligkeit", "die {n} {kinds}{where} mit der niedrigsten Helligkeit"),
        ),
    },
    "fans": {
        "high": (
            ("den schnellsten Ventilator{where}", "die {n} schnellsten {kinds}{where}"),
            ("den Ventilator{where} mit der höchsten Stufe", "die {n} {kinds}{where} mit der höchsten Stufe"),
        ),
        "low": (
            ("den langsamsten Ventilator{where}", "die {n} langsamsten {kinds}{where}"),
            ("den Ventilator{where} auf der niedrigsten Stufe", "die {n} {kinds}{where} auf der niedrigsten Stufe"),
        ),
    },
    "acs": {
        "high": (
            ("das Klimagerät{where} mit der wärmsten Einstellung", "die {n} {kinds}{where} mit der wärmsten Einstellung"),
            ("das Klimagerät{where} mit der höchsten Solltemperatur", "die {n} {kinds}{where} mit der höchsten Solltemperatur"),
        ),
        "low": (
            ("das Klimagerät{where} mit der kältesten Einstellung", "die {n} {kinds}{where} mit der kältesten Einstellung"),
            ("das Klimagerät{where} mit der niedrigsten Solltemperatur", "die {n} {kinds}{where} mit der niedrigsten Solltemperatur"),
        ),
    },
    "covers": {
        "high": (
            ("die am weitesten geöffnete Beschattung{where}", "die {n} am weitesten geöffneten {kinds}{where}"),
            ("die Beschattung{where} mit der größten Öffnung", "die {n} {kinds}{where} mit der größten Öffnung"),
        ),
        "low": (
            ("die am weitesten geschlossene Beschattung{where}", "die {n} am weitesten geschlossenen {kinds}{where}"),
            ("die Beschattung{where} mit der kleinsten Öffnung", "die {n} {kinds}{where} mit der kleinsten Öffnung"),
        ),
    },
    "media": {
        "high": (
            ("das lauteste Mediengerät{where}", "die {n} lautesten {kinds}{where}"),
            ("das Mediengerät{where} mit der höchsten Lautstärke", "die {n} {kinds}{where} mit der höchsten Lautstärke"),
        ),
        "low": (
            ("das leiseste Mediengerät{where}", "die {n} leisesten {kinds}{where}"),
            ("das Mediengerät{where} mit der niedrigsten Lautstärke", "die {n} {kinds}{where} mit der niedrigsten Lautstärke"),
        ),
    },
    "water_heaters": {
        "high": (
            ("den heißesten Warmwasserbereiter{where}", "die {n} heißesten {kinds}{where}"),
            ("den Warmwasserbereiter{where} mit der höchsten Einstellung", "die {n} {kinds}{where} mit der höchsten Einstellung"),
        ),
        "low": (
            ("den kühlsten Warmwasserbereiter{where}", "die {n} kühlsten {kinds}{where}"),
            ("den Warmwasserbereiter{where} mit der niedrigsten Einstellung", "die {n} {kinds}{where} mit der niedrigsten Einstellung"),
        ),
    },
}  # fmt: skip
"""Per kind that can be ranked: the highest and the lowest, each phrasing for one device
(singular, accusative) and for {n} of them."""
COMP_NUMBERS = {2: "zwei", 3: "drei"}
COMP_ONLY = "{imp}, nur diese {n}."
COMP_PREDS = {
    "lights": {
        ("brightness", ">"): ("{kinds} mit mehr als {t} % Helligkeit", "{kinds} mit über {t} % Helligkeit", "über {t} % gedimmten {kinds}"),
        ("brightness", "<"): ("{kinds} mit weniger als {t} % Helligkeit", "{kinds} mit unter {t} % Helligkeit", "unter {t} % gedimmten {kinds}"),
        ("state", "=="): ("eingeschalteten {kinds}", "noch brennenden {kinds}", "gerade eingeschalteten {kinds}"),
    },
    "fans": {
        ("speed_level", "=="): ("{kinds} auf hoher Stufe", "gerade auf hoher Stufe laufenden {kinds}", "auf hohe Stufe gestellten {kinds}"),
        ("preset_mode", "=="): ("{kinds} im Schlafmodus", "im Schlafmodus laufenden {kinds}"),
        ("state", "=="): ("laufenden {kinds}", "gerade eingeschalteten {kinds}", "noch laufenden {kinds}"),
    },
    "acs": {
        ("ac_mode", "=="): ("{kinds} im Heizmodus", "auf Heizen gestellten {kinds}"),
        ("target_temperature", "<"): ("auf unter {t} Grad gestellten {kinds}", "{kinds} mit einer Solltemperatur unter {t} Grad"),
        ("state", "=="): ("laufenden {kinds}", "gerade eingeschalteten {kinds}", "noch laufenden {kinds}"),
    },
    "covers": {
        ("position", ">"): ("mehr als halb geöffneten {kinds}", "über die Hälfte offenen {kinds}"),
        ("position", "=="): ("ganz geschlossenen {kinds}", "geschlossenen {kinds}"),
    },
    "media": {
        ("volume_level", ">"): ("{kinds} mit einer Lautstärke über {t}", "{kinds} mit Lautstärke über {t}"),
        ("state", "=="): ("eingeschalteten {kinds}", "noch laufenden {kinds}", "gerade eingeschalteten {kinds}"),
    },
    "water_heaters": {
        ("target_water_temperature", ">"): ("auf über {t} Grad eingestellten {kinds}", "{kinds} mit mehr als {t} Grad"),
    },
}  # fmt: skip
"""Per kind with state predicates, by (attribute, comparison): the group that satisfies it, as
a plural with its modifier ({t}: the threshold); an adjective before the noun takes the weak
plural ending after "die"/"alle"."""
COMP_WHICH = ("die {x}", "alle {x}", "sämtliche {x}", "wirklich alle {x}")
COMP_ROOM_SAID = ("{room}: {text}", "{room_in}: {text}")
COMP_COND = {
    "current_humidity": (" in Räumen mit mehr als {t} % Luftfeuchtigkeit", " in Räumen mit einer Luftfeuchtigkeit über {t} %", " in Räumen mit über {t} % Luftfeuchte"),
    "current_temperature": (" in Räumen mit mehr als {t} Grad", " in Räumen mit einer Temperatur über {t} Grad", " in Räumen wärmer als {t} Grad"),
    "human_detected": (" in Räumen mit Bewegung", " in Räumen, in denen sich gerade jemand bewegt,", " in Räumen mit erkannter Bewegung"),
    "state": (" in Räumen mit laufender Klimaanlage", " in Räumen, in denen die Klimaanlage läuft,", " in Räumen mit eingeschalteter Klimaanlage"),
}  # fmt: skip
"""Per room condition (the sensed attribute): the rooms that meet it ({t}: the threshold), as
they stand after the group they qualify."""
COMP_COND_SAID = ("die {kinds}{where}", "{where} {imp}", "alle {kinds}{where}", "die {kinds}")
"""The clause about such rooms: the group there, the rooms put first, all of the group there,
and the group alone (for the rooms put first)."""
COMP_EXCEPT = (
    "Außer {room_in}: {Clause}.",
    "{clause}, aber nicht {room_in}.",
    "{clause}, außer {room_in}.",
)
COMP_ALL_BUT = (
    "alle {kinds} außer denen {room_in}",
    "die {kinds} überall außer {room_in}",
    "die {kinds} in jedem Raum außer {room_in}",
)
COMP_STOP = "."


def comp_kind(kind: str, noun: int) -> dict[str, str]:
    """A kind's words for a group request: its ``noun``-th plural, "every" and "each"."""
    kinds, every, each = _COMP_KINDS[kind]
    return {"kinds": kinds[noun], "every": every, "each": each}


def tidy(text: str) -> str:
    """A relative clause's closing comma before other punctuation goes (``… läuft, schließen``
    keeps it; ``… läuft,.`` does not)."""
    return re.sub(r",\s*([,.?!])", r"\1", text)


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


# ---------------------------------------------------- dialogue: ambiguous intent (issue 41, item 3)
# state_level, scene_level, slot_missing: a request the assistant must ask about, its question and
# the simulated user's reply. As many phrasings of each as English has (the draws are the same).
OPENERS = ("", "", "Boah, ", "Mann, ", "Ehrlich, ", "Hey, ")
"""How a complaint may open (empty: plainly); the complaint goes on in lower case."""
HERE = "hier drin"
COMPLAINTS = {
    "bright": (
        "Es ist viel zu hell {where}.",
        "Das grelle Licht {where} tut mir in den Augen weh.",
        "Das blendet total {where}.",
    ),
    "cold": ("Es ist eiskalt {where}.", "Brr, ist das kalt {where}.", "Mir ist kalt {where}."),
    "dark": (
        "Es ist zu dunkel {where}.",
        "Ich sehe kaum was {where}.",
        "Warum ist es so düster {where}?",
        "Es ist wie in einer Höhle {where}.",
    ),
    "dry": (
        "Die Luft ist total trocken {where}.",
        "Mein Hals ist ganz ausgedörrt {where}.",
        "Es ist staubtrocken {where}.",
    ),
    "hot": (
        "Es ist wie in der Sauna {where}.",
        "Es ist brütend heiß {where}.",
        "Ich schwitze mich tot {where}.",
        "Es ist viel zu warm {where}.",
    ),
    "humid": (
        "Es ist so schwül {where}.",
        "Alles fühlt sich {where} feucht und klebrig an.",
        "Die Luftfeuchtigkeit ist viel zu hoch {where}.",
    ),
    "loud": (
        "Es ist viel zu laut {where}.",
        "Die Musik dröhnt {where}.",
        "Ich kann {where} keinen klaren Gedanken fassen.",
    ),
    "stuffy": (
        "Es ist stickig {where}.",
        "Die Luft {where} ist total abgestanden.",
        "Es ist so stickig {where}, ich krieg kaum Luft.",
    ),
}
"""Per complaint: its phrasings ({where}: "im Arbeitszimmer", or :data:`HERE`)."""
STATE_DONE = "Erledigt, das sollte helfen."
STATE_ASK = ("In welchem Raum bist du?", "Wo bist du gerade?", "Welchen Raum meinst du?")
STATE_REPLY = ("Ich bin {room_in}.", "Hier {room_in}.", "{room_in}.")
AT = " {room_in}"
SCENE_PHRASES = {
    "dinner": (
        "Wir essen jetzt{at}.",
        "Das Abendessen steht{at} auf dem Tisch!",
        "Zeit fürs Abendessen{at}.",
    ),
    "guests": (
        "Gleich sind Freunde{at} zu Besuch.",
        "Wir kriegen heute Abend Besuch{at}, mach alles fertig.",
        "Partyzeit{at}!",
    ),
    "movie": (
        "Filmabend{at}!",
        "Lass uns{at} einen Film schauen.",
        "Mach{at} alles bereit für einen Film, ja?",
        "Ich schau gleich{at} was, mach alles fertig.",
    ),
    "reading": (
        "Ich lese jetzt{at} eine Weile.",
        "Zeit, mich{at} mit einem Buch einzukuscheln.",
        "Ich will{at} ein bisschen lesen.",
    ),
    "rest": (
        "Ich ruh mich{at} ein bisschen aus.",
        "Zeit für ein kleines Nickerchen{at}.",
        "Ich bin fix und fertig, ich leg mich{at} kurz hin.",
        "Ich mach{at} mal kurz die Augen zu.",
    ),
    "wakeup": (
        "Guten Morgen, ich bin{at} wach!",
        "Ich bin{at} aufgestanden, guten Morgen.",
        "Ich bin gerade{at} aufgewacht.",
    ),
    "workout": (
        "Zeit für mein Training{at}.",
        "Ich fang gleich{at} mit dem Sport an.",
        "Ich trainiere jetzt{at}.",
    ),
}
"""Per scene: its phrasings ({at}: " im Schlafzimmer" where the room is named, else nothing)."""
SCENE_DONE = "Alles bereit, viel Spaß."
SCENE_ASK = (
    "In welchem Raum bist du dann?",
    "Klar, in welchem Raum?",
    "Wo soll ich das einrichten?",
)
SCENE_REPLY = ("{room_in}.", "{room_in}, bitte.", "Ich bin dann {room_in}.")
VALUE_ALIAS = (
    "Gib {dev} einen neuen Namen.",
    "Benenn {dev} für mich um.",
    "Ich will ändern, wie {dev_nom} heißt.",
)
VALUE_ALIAS_QUESTION = "Wie soll das Gerät heißen?"
VALUE_ALIAS_REPLY = ("Nenn es {val}.", "Nimm {val}.")
VALUE_SET = (
    "Ändere {attr_acc} {of_dev}.",
    "Kannst du {attr_acc} {of_dev} anpassen?",
    "Ich will {attr_acc} {of_dev} einstellen.",
    "Stell bitte {attr_acc} {of_dev} ein.",
)
VALUE_QUESTION = "Auf welchen Wert soll ich {attr_acc} stellen?"
VALUE_REPLY = ("{val}.", "Auf {val}, bitte.", "Stell es auf {val}.", "{val}, bitte.")
ROOM_SWITCH = {
    "on": ("Schalte {dev} ein.", "Kannst du {dev} anmachen?", "{Dev} an, bitte."),
    "off": ("Schalte {dev} aus.", "Kannst du {dev} ausmachen?", "{Dev} aus, bitte."),
}
"""Switching a device named by its kind only ({dev}: "die Deckenlampe"), which several rooms
have."""
ROOM_ASK = ("{dev_nom} in welchem Raum?", "Davon gibt es mehrere – welchen Raum meinst du?")
ROOM_REPLY = ("{room_in}.", "Ich meine {dev} {room_in}.", "{room_in}, bitte.")
LIGHT_IN_ROOM = {
    "on": (
        "Mach das Licht {room_in} an.",
        "Schalte das Licht {room_in} ein.",
        "Kannst du das Licht {room_in} anmachen?",
    ),
    "off": (
        "Mach das Licht {room_in} aus.",
        "Schalte das Licht {room_in} aus.",
        "Kannst du das Licht {room_in} ausmachen?",
    ),
}
"""Switching "the light" of a room that has several."""
LIGHT_WHICH = ("{room_in} gibt es {n} Lichter – welches meinst du?", "Welches meinst du?")
LIGHT_REPLY = ("{dev}.", "{dev}, bitte.")
OVEN = "den Ofen"
"""The oven, as the cooking requests name it (accusative)."""
COOKING = {
    "defrost": ("das Hähnchen auftauen", "die gefrorenen Garnelen auftauen"),
    "microwave": ("meinen Kaffee warm machen", "die Schüssel Reis kurz warm machen"),
    "reheating": ("mein Mittagessen aufwärmen", "die Reste aufwärmen", "meine Suppe aufwärmen"),
    "steam": ("ein paar Teigtaschen dämpfen", "den Fisch dämpfen"),
}
"""Per cooking mode of the oven: the jobs a user asks it for (the infinitive)."""
COOK_TEXT = (
    "Kannst du {oven} anwerfen und {task}?",
    "Ich muss {task}, mach mal {oven} an.",
    "Ich will {task} – nimm {oven} dafür.",
)
COOK_QUESTION = ("Wie lange?", "Wie lange soll das laufen?")
COOK_REPLY = ("{d}.", "Ungefähr {d}.", "Lass es {d} laufen.")
DURATIONS = {
    60: "eine Minute",
    90: "anderthalb Minuten",
    120: "zwei Minuten",
    180: "drei Minuten",
    300: "fünf Minuten",
    600: "zehn Minuten",
    900: "eine Viertelstunde",
    1200: "zwanzig Minuten",
    1800: "eine halbe Stunde",
}
"""The cooking times asked for, as said."""
HEATER = "den Boiler"
"""The only water heater, as a household calls it (accusative)."""
HEAT_TEXT = (
    "Heiz {heater} zum Duschen auf.",
    "Wirf {heater} an.",
    "Ich will nachher baden, heiz {heater} schon mal auf.",
)
HEAT_QUESTION = ("Welche Temperatur hättest du gern?", "Wie heiß soll das Wasser werden?")
HEAT_REPLY = ("{t} Grad.", "Mach {t} Grad.", "So etwa {t}.")


globals().update(render.ambiguous_interface(sys.modules[__name__]))
