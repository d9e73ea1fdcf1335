"""The ``smh`` suite in French: tu, as a household talks to its assistant; a device named with
its article, elided before a vowel and contracted after ``de``/``à`` (``la luminosité de la Lampe
du salon``, ``de l'Enceinte``); a space before ``?``, ``:`` and ``%``; decimal comma."""

from __future__ import annotations

import re
import sys
from typing import Any

from smh_core.languages.names import fr as NAMES

from . import render

DONE = "C'est fait."
FILLERS = ("euh", "hum", "bah", "ben", "genre", "bref")
SET_CLEAR = (
    "Règle {attr} {of_dev} sur {val}.",
    "S'il te plaît, mets {attr} {of_dev} sur {val}.",
    "Passe {attr} {of_dev} à {val}.",
)
SET_COLLOQUIAL = (
    "Tu peux mettre {attr} {of_dev} sur {val} ?",
    "Hé, mets-moi {attr} {of_dev} sur {val}, tu veux bien ?",
    "J'aimerais {attr} {of_dev} sur {val}, merci.",
    "Tu me passes {attr} {of_dev} à {val} ?",
)
SET_NOISY_DECOY = (
    "{F}, règle {decoy}… non, attends, {dev}, {attr} sur {val}.",
    "Règle {decoy}, pardon, je veux dire {dev}, {f}, {attr} sur {val}.",
)
SET_NOISY = "{F}, {f}, {dev}… {attr} sur {val}, {attr} sur {val}, s'il te plaît."
SWITCH_CLEAR = {
    "on": ("Allume {dev}.", "Mets en marche {dev}."),
    "off": ("Éteins {dev}.", "Arrête {dev}."),
}
SWITCH_COLLOQUIAL = {
    "on": ("Tu peux allumer {dev} ?", "Allez, on lance {dev}.", "Allume-moi {dev}, s'il te plaît."),
    "off": ("Tu peux éteindre {dev} ?", "Coupe {dev}, s'il te plaît.", "Éteins-moi {dev}, s'il te plaît."),
}  # fmt: skip
SWITCH_NOISY_DECOY = {
    "on": "{F}, allume {decoy}, non, non, {dev}.",
    "off": "{F}, éteins {decoy}, non, non, {dev}.",
}
SWITCH_NOISY = {
    "on": "{F}… allume, {f}, allume {dev}.",
    "off": "{F}… éteins, {f}, éteins {dev}.",
}
STATUS = (
    "Où en est {attr} {of_dev} en ce moment ?",
    "Dis-moi {attr} {of_dev}.",
    "C'est quoi, {attr} {of_dev}, là ?",
)
STATUS_ANSWER = "{attr} {of_dev} : {value}."
QUANTITY_ROOM = (
    "Combien {de_kinds} y a-t-il {room_in} ?",
    "Compte {the_kinds} {room_in} pour moi.",
)
QUANTITY_ON = (
    "Combien {de_kinds} sont {on_adj} en ce moment ?",
    "Combien {de_kinds} tournent, là, maintenant ?",
)
QUANTITY_ANSWER = "Il y en a {n}."
ALIASES = ("{kind} {room_of}", "{my_kind}", "{kind} près de la fenêtre", "{big_kind}")
DECIMAL = ","
ON_OFF = ("activé", "désactivé")
QUOTE = "« {} »"
UNITS = {
    "Celsius": "{n} degrés",
    "percentage": "{n} %",
    "Kelvin": "{n} K",
    "second": "{n} secondes",
    "liter": "{n} litres",
    "degree": "{n} degrés",
    "lux": "{n} lux",
}
ATTRS = {
    "ac_mode": ("le mode", "le mode"),
    "alarm_volume": ("le volume de l'alarme", "le volume de l'alarme"),
    "alias": ("le nom", "le nom"),
    "battery_level": ("le niveau de batterie", "le niveau de batterie"),
    "breathing_light_enabled": ("le voyant lumineux", "le voyant lumineux"),
    "brightness": ("la luminosité", "la luminosité"),
    "clean_mode": ("le mode de nettoyage", "le mode de nettoyage"),
    "color": ("la couleur", "la couleur"),
    "color_mode": ("le mode de couleur", "le mode de couleur"),
    "color_temperature": ("la température de couleur", "la température de couleur"),
    "current_direction": ("le sens de rotation", "le sens de rotation"),
    "current_humidity": ("l'humidité actuelle", "l'humidité actuelle"),
    "current_temperature": ("la température actuelle", "la température actuelle"),
    "current_water_temperature": ("la température actuelle de l'eau", "la température actuelle de l'eau"),
    "defend_enabled": ("la protection anti-intrusion", "la protection anti-intrusion"),
    "drying_enabled": ("le séchage", "le séchage"),
    "effect": ("l'effet lumineux", "l'effet lumineux"),
    "fan_level": ("le niveau de ventilation", "le niveau de ventilation"),
    "fan_speed": ("la vitesse de ventilation", "la vitesse de ventilation"),
    "favorite_level": ("le niveau favori", "le niveau favori"),
    "filter_life": ("la durée de vie du filtre", "la durée de vie du filtre"),
    "human_detected": ("la détection de présence", "la détection de présence"),
    "illuminance": ("l'éclairement", "l'éclairement"),
    "intensity": ("l'intensité", "l'intensité"),
    "media_name": ("le titre", "le titre"),
    "media_track": ("le numéro de piste", "le numéro de piste"),
    "no_move_duration": ("la durée sans mouvement", "la durée sans mouvement"),
    "oscillation_enabled": ("l'oscillation", "l'oscillation"),
    "pm25": ("le taux de particules fines", "le taux de particules fines"),
    "position": ("la position", "la position"),
    "preset_mode": ("le mode préréglé", "le mode préréglé"),
    "remaining_running_time": ("le temps de fonctionnement restant", "le temps de fonctionnement restant"),
    "remaining_time": ("le temps restant", "le temps restant"),
    "sleep_state": ("l'état de sommeil", "l'état de sommeil"),
    "speed_level": ("le niveau de vitesse", "le niveau de vitesse"),
    "state": ("l'état", "l'état"),
    "suction": ("la puissance d'aspiration", "la puissance d'aspiration"),
    "swing_enabled": ("le balayage des volets d'air", "le balayage des volets d'air"),
    "target_cooking_time": ("le temps de cuisson", "le temps de cuisson"),
    "target_humidity": ("l'humidité cible", "l'humidité cible"),
    "target_temperature": ("la température de consigne", "la température de consigne"),
    "target_water_quantity": ("la quantité d'eau", "la quantité d'eau"),
    "target_water_temperature": ("la température de l'eau", "la température de l'eau"),
    "tilt_angle": ("l'angle d'inclinaison", "l'angle d'inclinaison"),
    "volume_level": ("le volume", "le volume"),
    "volume_muted_enabled": ("la sourdine", "la sourdine"),
    "water_level": ("le niveau d'eau", "le niveau d'eau"),
    "water_tank_full": ("l'alerte réservoir plein", "l'alerte réservoir plein"),
    "work_mode": ("le mode de fonctionnement", "le mode de fonctionnement"),
    "work_state": ("l'état de fonctionnement", "l'état de fonctionnement"),
}  # fmt: skip
"""Per attribute (the locator's last part): its name with the article (French has one form)."""
VALUES = {
    "heat": "chauffage", "cool": "froid", "auto": "automatique", "heat_cool": "chaud et froid", "dry": "déshumidification",
    "fan_only": "ventilation seule", "sweep": "aspiration", "mop": "lavage",
    "sweep_and_mop": "aspiration et lavage", "color": "couleur",
    "color_temperature": "lumière blanche", "forward": "sens normal", "reverse": "sens inverse",
    "static": "fixe", "breathing": "respiration", "rainbow": "arc-en-ciel",
    "flowing": "défilement", "music_sync": "au rythme de la musique", "low": "faible",
    "medium": "moyen", "high": "élevé", "normal": "normal", "natural": "brise naturelle",
    "sleep": "nuit", "awake": "éveillé", "fall_asleep": "endormissement",
    "deep_sleep": "sommeil profond", "on": "allumé", "off": "éteint", "standby": "en veille",
    "cooking": "en cuisson", "paused": "en pause", "idle": "inactif", "cleaning": "en nettoyage",
    "returning": "retour à la base", "docked": "sur sa base", "locked": "verrouillé",
    "unlocked": "déverrouillé", "charging": "en charge", "yes": "oui", "no": "non",
    "favorite": "favori", "eco": "éco", "quick_heat": "chauffe rapide",
    "microwave": "micro-ondes", "steam": "vapeur", "bake": "cuisson au four",
    "steam_bake": "four vapeur", "reheating": "réchauffage", "defrost": "décongélation",
    "continuous": "continu", "dry_clothes": "séchage du linge", "standard": "standard",
    "quick": "rapide", "cotton": "coton", "wool": "laine", "synthetic": "synthétique",
    "playing": "en lecture", "washing": "lavage en cours", "rinsing": "rinçage",
    "spinning": "essorage", "drying": "séchage", "done": "terminé", "heating": "en chauffe",
    "keep_warm": "maintien au chaud",
}  # fmt: skip
"""Per named value of an attribute (a mode, a state): how a French speaker says it."""
SUBCATS = {
    "ac_gateway": ("passerelle de climatisation", "passerelles de climatisation", "f"),
    "air_cube": ("cube climatique", "cubes climatiques", "m"),
    "air_purifier": ("purificateur d'air", "purificateurs d'air", "m"),
    "blind": ("store", "stores", "m"),
    "builtin_microwave_steam_oven": ("four vapeur", "fours vapeur", "m"),
    "climate_sensor": ("capteur climatique", "capteurs climatiques", "m"),
    "color_light": ("lampe de couleur", "lampes de couleur", "f"),
    "color_temperature_light": ("lampe à blanc réglable", "lampes à blanc réglable", "f"),
    "compound_washer": ("lave-linge séchant", "lave-linge séchants", "m"),
    "curtain": ("rideau", "rideaux", "m"),
    "dehumidifier": ("déshumidificateur", "déshumidificateurs", "m"),
    "electric_water_heater": ("chauffe-eau", "chauffe-eau", "m"),
    "fan_light": ("ventilateur de plafond", "ventilateurs de plafond", "m"),
    "floor_ac": ("climatiseur mobile", "climatiseurs mobiles", "m"),
    "human_sensor": ("détecteur de mouvement", "détecteurs de mouvement", "m"),
    "humidifier": ("humidificateur", "humidificateurs", "m"),
    "light": ("lampe", "lampes", "f"),
    "light_strip": ("ruban led", "rubans led", "m"),
    "robot_cleaner": ("robot laveur", "robots laveurs", "m"),
    "smart_fan": ("ventilateur", "ventilateurs", "m"),
    "smart_lock": ("serrure", "serrures", "f"),
    "smart_screen": ("écran connecté", "écrans connectés", "m"),
    "universal_speaker": ("enceinte", "enceintes", "f"),
    "vacuum_cleaner": ("aspirateur", "aspirateurs", "m"),
}
"""Per kind of device of the home model: the noun, its plural, its gender."""
_VOWEL = "aeiouyéèêâîôh"


def _contract(text: str) -> str:
    """French contractions: ``de le`` is ``du``, ``à le`` is ``au``."""
    return text.replace("de le ", "du ", 1).replace("à le ", "au ", 1)


def device_parts(name: str) -> dict[str, str]:
    """A device's name as the templates use it: with its article, bare, after "de" and "à"."""
    dev = NAMES.the(name)
    return {
        "dev": dev,
        "dev_nom": dev,
        "Dev": name,
        "name": name,
        "of_dev": _contract(f"de {dev}"),
        "at_dev": _contract(f"à {dev}"),
    }


def kind_parts(sub: str) -> dict[str, str]:
    """A kind of device as the templates use it (plural for counting, singular for names)."""
    one, many, gender = SUBCATS[sub]
    f, vowel = gender == "f", one[:1].casefold() in _VOWEL
    return {
        "kind": one,
        "kinds": many,
        "de_kinds": f"d'{many}" if vowel else f"de {many}",
        "the_kinds": f"les {many}",
        "on_adj": "allumées" if f else "allumés",
        "my_kind": f"{'ma' if f and not vowel else 'mon'} {one}",
        "big_kind": f"la grande {one}" if f else f"le grand {one}",
    }


# ---------------------------------------------------------------------------------- scheduling
SCHEDULED = "C'est fait, la règle est en place."
TONIGHT = ("Ce soir à {clock}", "À {clock} ce soir", "Aujourd'hui à {clock}")
TOMORROW = ("Demain à {clock}", "À {clock} demain")
DAILY = ("Tous les jours à {clock}", "Chaque jour à {clock}", "Quotidiennement à {clock}")
WEEKDAYS = ("En semaine à {clock}", "Du lundi au vendredi à {clock}")
WEEKEND = ("Le week-end à {clock}", "Chaque samedi et dimanche à {clock}")
NO_MOVE = (
    "Quand personne n'a bougé {room_in} depuis {minutes} minutes",
    "Dès qu'il n'y a eu aucun mouvement {room_in} pendant {minutes} minutes",
)
HOT = (
    "Quand il fait plus de {t} degrés {room_in}",
    "Si la température {room_of} dépasse {t} degrés",
)
COLD = "Quand la température {room_of} descend sous les {t} degrés"
HUMID = ("Quand l'humidité {room_of} dépasse {h} %", "S'il y a plus de {h} % d'humidité {room_in}")
DUSTY = "Quand le taux de particules fines {room_of} dépasse {level}"
TURNS = {
    "on": ("Quand {dev} s'allume", "Chaque fois qu'on allume {dev}"),
    "off": ("Quand {dev} s'éteint", "Chaque fois qu'on éteint {dev}"),
}
BECOMES = ("Quand {dev} passe à « {shown} »", "Dès que l'état {of_dev} est « {shown} »")
IF_HOT = (
    "s'il fait encore plus de {t} degrés {room_in}",
    "mais seulement si la température {room_of} dépasse {t} degrés",
)
IF_HUMID = "si l'humidité {room_of} dépasse {h} %"
IF_STATE = "si l'état {of_dev} est « {shown} »"
WHEN_IF = "{when}, {cond}"
RULE = "{when}, {actions}."
SWITCH_ACTION = {"on": "allume {dev}", "off": "éteins {dev}"}
SET_ACTION = "règle {attr} {of_dev} sur {val}"
COMMA, AND = ", ", " et "


def clock(hour: int, minute: int) -> str:
    """A time as written in France (``19 h``, ``6 h 45``)."""
    return f"{hour} h {minute:02d}" if minute else f"{hour} h"


# ------------------------------------------------------------------------------------- memory
PHRASES = (
    (
        "sleep",
        (
            "C'est l'heure de dormir.",
            "Je vais me coucher.",
            "Au lit, s'il te plaît.",
            "Bon, mode nuit.",
        ),
    ),
    ("movie", ("Soirée film !", "On regarde un film.", "Prépare tout pour un film.")),
    (
        "reading",
        (
            "Je vais lire un peu.",
            "C'est l'heure de lire.",
            "Installe-moi pour la lecture, s'il te plaît.",
        ),
    ),
    ("wake-up", ("Bonjour !", "Je suis debout.", "Routine du matin, s'il te plaît.")),
    ("guests", ("Des invités arrivent.", "On a de la visite bientôt, prépare la maison.")),
    ("work", ("Il est temps de me concentrer sur le travail.", "Je commence à travailler.")),
)
SCENES = {
    "sleep": "dodo",
    "movie": "soirée film",
    "reading": "lecture",
    "wake-up": "réveil",
    "guests": "invités",
    "work": "boulot",
}
MEMORY_TARGET = "Quand je dis « {scene} », j'aime {desc}."
MEMORY_OTHER = "Pour « {scene} », je veux {desc}."
DESCRIBE_SWITCH = {"on": "qu'on allume {dev}", "off": "qu'on éteigne {dev}"}
DESCRIBE_SET = "avoir {attr} {of_dev} sur {val}"
LONG_DONE = "C'est fait, comme tu aimes."
SAME = (
    "Fais pareil pour {dev}.",
    "Maintenant {dev} aussi, même réglage.",
    "Règle {dev} comme tout à l'heure.",
    "Pareil pour {dev}, s'il te plaît.",
    "Et {dev}, pareil.",
)
HISTORY_USER = "Règle {attr} {of_dev} sur {val}."
HISTORY_DONE = "C'est fait, {attr} {of_dev} est maintenant sur {val}."
SAME_DONE = "C'est fait, même réglage pour {dev}."


# ------------------------------------------- compositional control (issue 41: multi_device, batch)
# One request over several devices. Each phrasing is a pair: the imperative, tutoyant ("allume
# {obj}"), and the infinitive a question frame needs ("Tu pourrais allumer {obj} ?"); {obj} is a
# device or a group with its article ("la lampe du couloir", "toutes les lampes de la salle de
# bain", "ces lampes"), never after "à" or "de" (no contraction to make); "de" before a vowel is
# elided where a frame puts it before a verb (:func:`tidy`). As many phrasings per operation as
# English has (the draws are the same).
def _on_off() -> dict[Any, tuple[tuple[str, str], ...]]:
    return {
        ("state", "on"): (
            ("allume {obj}", "allumer {obj}"),
            ("mets en marche {obj}", "mettre en marche {obj}"),
            ("active {obj}", "activer {obj}"),
        ),
        ("state", "off"): (
            ("éteins {obj}", "éteindre {obj}"),
            ("arrête {obj}", "arrêter {obj}"),
            ("coupe {obj}", "couper {obj}"),
        ),
    }


COMP_OPS: dict[str, dict[Any, tuple[Any, ...]]] = {
    "lights": {
        **_on_off(),
        "brightness": (
            ("règle {obj} à {v} % de luminosité", "régler {obj} à {v} % de luminosité"),
            ("mets {obj} à {v} %", "mettre {obj} à {v} %"),
            ("passe {obj} à {v} % de luminosité", "passer {obj} à {v} % de luminosité"),
        ),
        ("color_temperature", 2700): (
            ("mets {obj} en blanc chaud (2700 K)", "mettre {obj} en blanc chaud (2700 K)"),
            ("passe {obj} au blanc le plus chaud", "passer {obj} au blanc le plus chaud"),
        ),
        ("color_temperature", 6500): (
            (
                "mets {obj} en lumière du jour froide (6500 K)",
                "mettre {obj} en lumière du jour froide (6500 K)",
            ),
            ("passe {obj} au blanc le plus froid", "passer {obj} au blanc le plus froid"),
        ),
        ("color_temperature", 4000): (
            ("mets {obj} en blanc neutre à 4000 K", "mettre {obj} en blanc neutre à 4000 K"),
        ),
    },
    "fans": {
        **_on_off(),
        "speed_level": (
            ("mets {obj} en vitesse {v}", "mettre {obj} en vitesse {v}"),
            ("passe {obj} en vitesse {v}", "passer {obj} en vitesse {v}"),
        ),
        "preset_mode": (
            ("mets {obj} en mode {v}", "mettre {obj} en mode {v}"),
            ("passe {obj} en mode {v}", "passer {obj} en mode {v}"),
        ),
        ("oscillation_enabled", True): (
            ("active l'oscillation sur {obj}", "activer l'oscillation sur {obj}"),
            ("fais osciller {obj}", "faire osciller {obj}"),
        ),
        ("oscillation_enabled", False): (
            ("désactive l'oscillation sur {obj}", "désactiver l'oscillation sur {obj}"),
            ("arrête l'oscillation sur {obj}", "arrêter l'oscillation sur {obj}"),
        ),
    },
    "acs": {
        **_on_off(),
        "ac_mode": (
            ("mets {obj} en mode {v}", "mettre {obj} en mode {v}"),
            ("passe {obj} en mode {v}", "passer {obj} en mode {v}"),
        ),
        "target_temperature": (
            ("règle {obj} sur {v} degrés", "régler {obj} sur {v} degrés"),
            ("mets {obj} à {v} degrés", "mettre {obj} à {v} degrés"),
        ),
    },
    "covers": {
        ("position", 0): (
            ("ferme {obj}", "fermer {obj}"),
            ("baisse complètement {obj}", "baisser complètement {obj}"),
            ("ferme complètement {obj}", "fermer complètement {obj}"),
        ),
        ("position", 100): (
            ("ouvre {obj}", "ouvrir {obj}"),
            ("ouvre {obj} en grand", "ouvrir {obj} en grand"),
            ("ouvre complètement {obj}", "ouvrir complètement {obj}"),
        ),
        ("position", 50): (
            ("ouvre {obj} à moitié", "ouvrir {obj} à moitié"),
            ("ouvre {obj} jusqu'à mi-hauteur", "ouvrir {obj} jusqu'à mi-hauteur"),
        ),
        "position": (
            ("mets {obj} à {v} % d'ouverture", "mettre {obj} à {v} % d'ouverture"),
            ("ouvre {obj} à {v} %", "ouvrir {obj} à {v} %"),
        ),
    },
    "media": {
        **_on_off(),
        "volume_level": (
            ("règle {obj} au volume {v}", "régler {obj} au volume {v}"),
            ("mets {obj} au volume {v}", "mettre {obj} au volume {v}"),
        ),
        ("work_state", "paused"): (
            ("mets {obj} en pause", "mettre {obj} en pause"),
            ("mets en pause ce qui passe sur {obj}", "mettre en pause ce qui passe sur {obj}"),
        ),
        ("volume_muted_enabled", True): (("mets {obj} en sourdine", "mettre {obj} en sourdine"),),
    },
    "water_heaters": {
        **_on_off(),
        "target_water_temperature": (
            ("règle {obj} sur {v} degrés", "régler {obj} sur {v} degrés"),
            ("fais chauffer {obj} à {v} degrés", "faire chauffer {obj} à {v} degrés"),
        ),
        ("work_mode", "eco"): (
            ("mets {obj} en mode éco", "mettre {obj} en mode éco"),
            ("passe {obj} en mode éco", "passer {obj} en mode éco"),
        ),
    },
    "dehumidifiers": {
        **_on_off(),
        "target_humidity": (
            ("règle {obj} sur {v} % d'humidité", "régler {obj} sur {v} % d'humidité"),
            ("règle {obj} pour viser {v} %", "régler {obj} pour viser {v} %"),
        ),
    },
    "humidifiers": {
        **_on_off(),
        "target_humidity": (
            ("règle {obj} sur {v} % d'humidité", "régler {obj} sur {v} % d'humidité"),
            ("règle {obj} pour viser {v} %", "régler {obj} pour viser {v} %"),
        ),
    },
    "purifiers": {
        **_on_off(),
        "work_mode": (
            ("mets {obj} en mode {v}", "mettre {obj} en mode {v}"),
            ("passe {obj} en mode {v}", "passer {obj} en mode {v}"),
        ),
    },
}
"""Per kind of device the compositional requests name: its operations' phrasings, by
(attribute, value) or by attribute (with {v}, the value)."""
COMP_VALUES = {
    "fans": {"low": "basse", "medium": "moyenne", "high": "haute", "normal": "normal",
             "natural": "brise naturelle", "sleep": "nuit"},
    "acs": {"cool": "froid", "heat": "chauffage", "dry": "déshumidification", "auto": "auto"},
    "purifiers": {"sleep": "nuit", "auto": "auto"},
}  # fmt: skip
"""Per kind: the named values its phrasings say ({v})."""
_COMP_KINDS = {
    "lights": (("lampes", "lumières"), "f", "chaque lampe"),
    "fans": (("ventilateurs",), "m", "chaque ventilateur"),
    "acs": (("climatiseurs", "appareils de clim"), "m", "chaque climatiseur"),
    "covers": (("rideaux et stores", "stores et rideaux"), "m", "chaque rideau et chaque store"),
    "media": (("écrans et enceintes", "appareils multimédia"), "m", "chaque appareil multimédia"),
    "water_heaters": (("chauffe-eau",), "m", "chaque chauffe-eau"),
    "dehumidifiers": (("déshumidificateurs",), "m", "chaque déshumidificateur"),
    "humidifiers": (("humidificateurs",), "m", "chaque humidificateur"),
    "purifiers": (("purificateurs d'air", "purificateurs"), "m", "chaque purificateur"),
}  # fmt: skip
"""Per kind: its plurals (as many as English has), their gender and "every one"."""
COMP_ALL = (
    "{all} les {kinds}{where}",
    "l'ensemble des {kinds}{where}",
    "{every}{where}",
    "{each} des {kinds}{where}",
)
COMP_THEM = "ces {kinds}"
COMP_IN_ROOM = (" {room_of}", " {room_in}", " qui sont {room_in}")
COMP_IN_HOME = ("", " de la maison", " de toute la maison", " dans la maison")
COMP_REQUEST = (
    "{imp}.",
    "S'il te plaît, {imp}.",
    "Tu pourrais {inf} ?",
    "Tu peux {inf}, s'il te plaît ?",
    "Merci de {inf}.",
)
COMP_THEN = "D'abord, {first}, puis {rest}."
COMP_ALSO = "{first}. Et aussi, {rest}, s'il te plaît."
COMP_DONE = (
    "C'est fait.",
    "Tout est réglé.",
    "C'est fait, tout est à jour.",
    "D'accord, c'est fait.",
)
COMP_RANKS = {
    "lights": {
        "high": (
            ("la lampe la plus lumineuse{where}", "les {n} {kinds} les plus lumineuses{where}"),
            ("la lampe{where} avec la luminosité la plus forte", "les {n} {kinds}{where} avec la luminosité la plus forte"),
        ),
        "low": (
            ("la lampe la plus faible{where}", "les {n} {kinds} les plus faibles{where}"),
            ("la lampe{where} avec la luminosité la plus basse", "les {n} {kinds}{where} avec la luminosité la plus basse"),
        ),
    },
    "fans": {
        "high": (
            ("le ventilateur le plus rapide{where}", "les {n} {kinds} les plus rapides{where}"),
            ("le ventilateur{where} avec la vitesse la plus élevée", "les {n} {kinds}{where} avec la vitesse la plus élevée"),
        ),
        "low": (
            ("le ventilateur le plus lent{where}", "les {n} {kinds} les plus lents{where}"),
            ("le ventilateur{where} avec la vitesse la plus basse", "les {n} {kinds}{where} avec la vitesse la plus basse"),
        ),
    },
    "acs": {
        "high": (
            ("le climatiseur{where} avec le réglage le plus chaud", "les {n} {kinds}{where} avec le réglage le plus chaud"),
            ("le climatiseur{where} avec la consigne la plus haute", "les {n} {kinds}{where} avec la consigne la plus haute"),
        ),
        "low": (
            ("le climatiseur{where} avec le réglage le plus froid", "les {n} {kinds}{where} avec le réglage le plus froid"),
            ("le climatiseur{where} avec la consigne la plus basse", "les {n} {kinds}{where} avec la consigne la plus basse"),
        ),
    },
    "covers": {
        "high": (
            ("le rideau ou store le plus ouvert{where}", "les {n} {kinds} les plus ouverts{where}"),
            ("le rideau ou store{where} avec la plus grande ouverture", "les {n} {kinds}{where} avec la plus grande ouverture"),
        ),
        "low": (
            ("le rideau ou store le plus fermé{where}", "les {n} {kinds} les plus fermés{where}"),
            ("le rideau ou store{where} avec la plus petite ouverture", "les {n} {kinds}{where} avec la plus petite ouverture"),
        ),
    },
    "media": {
        "high": (
            ("l'appareil multimédia le plus fort{where}", "les {n} {kinds} les plus forts{where}"),
            ("l'appareil multimédia{where} avec le volume le plus haut", "les {n} {kinds}{where} avec le volume le plus haut"),
        ),
        "low": (
            ("l'appareil multimédia le moins fort{where}", "les {n} {kinds} les moins forts{where}"),
            ("l'appareil multimédia{where} avec le volume le plus bas", "les {n} {kinds}{where} avec le volume le plus bas"),
        ),
    },
    "water_heaters": {
        "high": (
            ("le chauffe-eau le plus chaud{where}", "les {n} {kinds} les plus chauds{where}"),
            ("le chauffe-eau{where} avec le réglage le plus chaud", "les {n} {kinds}{where} avec le réglage le plus chaud"),
        ),
        "low": (
            ("le chauffe-eau le moins chaud{where}", "les {n} {kinds} les moins chauds{where}"),
            ("le chauffe-eau{where} avec le réglage le plus bas", "les {n} {kinds}{where} avec le réglage le plus bas"),
        ),
    },
}  # fmt: skip
"""Per kind that can be ranked: the highest and the lowest, each phrasing for one device
(singular) and for {n} of them, the adjectives agreeing with the noun."""
COMP_NUMBERS = {2: "deux", 3: "trois"}
COMP_ONLY = "{imp}, seulement ces {n}-là."
_RUNNING_M = ("{kinds} en marche", "{kinds} allumés en ce moment", "{kinds} encore en marche")
COMP_PREDS = {
    "lights": {
        ("brightness", ">"): ("{kinds} dont la luminosité dépasse {t} %", "{kinds} à plus de {t} %", "{kinds} réglées au-dessus de {t} %"),
        ("brightness", "<"): ("{kinds} dont la luminosité est sous les {t} %", "{kinds} à moins de {t} %", "{kinds} réglées en dessous de {t} %"),
        ("state", "=="): ("{kinds} allumées", "{kinds} encore allumées", "{kinds} allumées en ce moment"),
    },
    "fans": {
        ("speed_level", "=="): ("{kinds} en vitesse haute", "{kinds} qui tournent en vitesse haute", "{kinds} réglés sur la vitesse haute"),
        ("preset_mode", "=="): ("{kinds} en mode nuit", "{kinds} qui tournent en mode nuit"),
        ("state", "=="): _RUNNING_M,
    },
    "acs": {
        ("ac_mode", "=="): ("{kinds} en mode chauffage", "{kinds} réglés sur chauffage"),
        ("target_temperature", "<"): ("{kinds} réglés sous {t} degrés", "{kinds} dont la consigne est sous {t} degrés"),
        ("state", "=="): _RUNNING_M,
    },
    "covers": {
        ("position", ">"): ("{kinds} ouverts à plus de la moitié", "{kinds} plus qu'à moitié ouverts"),
        ("position", "=="): ("{kinds} complètement fermés", "{kinds} fermés"),
    },
    "media": {
        ("volume_level", ">"): ("{kinds} dont le volume dépasse {t}", "{kinds} au-dessus du volume {t}"),
        ("state", "=="): ("{kinds} allumés", "{kinds} encore allumés", "{kinds} allumés en ce moment"),
    },
    "water_heaters": {
        ("target_water_temperature", ">"): ("{kinds} réglés au-dessus de {t} degrés", "{kinds} à plus de {t} degrés"),
    },
}  # fmt: skip
"""Per kind with state predicates, by (attribute, comparison): the group that satisfies it, the
plural with its modifier ({t}: the threshold), participles agreeing with the noun."""
COMP_WHICH = ("les {x}", "{all} les {x}", "l'ensemble des {x}", "{each} des {x}")
COMP_ROOM_SAID = ("{room} : {text}", "{room_in}, {text_low}")
COMP_COND = {
    "current_humidity": (" dans les pièces où l'humidité dépasse {t} %", " dans toute pièce dont le capteur indique plus de {t} % d'humidité", " dans les pièces à plus de {t} % d'humidité"),
    "current_temperature": (" dans les pièces à plus de {t} degrés", " dans toute pièce où la température dépasse {t} degrés", " dans les pièces dont le capteur indique plus de {t} degrés"),
    "human_detected": (" dans les pièces où un mouvement est détecté", " dans toute pièce où quelqu'un bouge", " dans les pièces où le détecteur voit quelqu'un"),
    "state": (" dans les pièces où la clim est allumée", " dans toute pièce où la climatisation tourne", " dans les pièces où la clim marche"),
}  # fmt: skip
"""Per room condition (the sensed attribute): the rooms that meet it ({t}: the threshold)."""
COMP_COND_SAID = ("les {kinds}{where}", "{where}, {imp}", "{all} les {kinds}{where}", "les {kinds}")
"""The clause about such rooms: the group there, the rooms put first, all of the group there,
and the group alone (for the rooms put first)."""
COMP_EXCEPT = (
    "Sauf {room_in}, {clause}.",
    "{clause}, mais ne touche à rien {room_in}.",
    "{clause}, sauf {room_in}.",
)
COMP_ALL_BUT = (
    "{all} les {kinds} sauf {those_of} {room_of}",
    "les {kinds} partout sauf {room_in}",
    "les {kinds} de toutes les pièces sauf {room_in}",
)
COMP_STOP = "."


def comp_kind(kind: str, noun: int) -> dict[str, str]:
    """A kind's words for a group request: its ``noun``-th plural and the words that agree with
    it ("toutes", "chacune")."""
    kinds, gender, every = _COMP_KINDS[kind]
    f = gender == "f"
    return {
        "kinds": kinds[noun],
        "all": "toutes" if f else "tous",
        "every": every,
        "each": "chacune" if f else "chacun",
        "those_of": "celles" if f else "ceux",
    }


def tidy(text: str) -> str:
    """French elision where a frame puts ``de`` before a verb: "Merci d'éteindre"."""
    return re.sub(r"^Merci de ([aeiouéèêâîôû])", r"Merci d'\1", text)


globals().update(render.interface(sys.modules[__name__]))  # the functions of .en


# ------------------------------------------------------ dialogue: multi-turn (issue 41, item 3)
# continuation, topic_shift: the previous turn (a request and what the assistant said), the next
# request about the same device, a new topic after a marker.
SHIFTS = (
    "",
    "",
    "Ah, autre chose : ",
    "Autre chose : ",
    "Rien à voir, mais ",
    "Au fait, ",
    "Bon, ensuite : ",
)
"""How a user marks a new topic (empty: none); the request goes on in lower case."""
SHIFT_LOWER = True
PARTS = {
    "fan": {"part": "le ventilateur", "its_part": "son ventilateur"},
    "light": {"part": "la lumière", "its_part": "sa lumière"},
}
"""The fan and the light of a fan light, with the article and with the possessive."""
PART_SWITCH = {
    "on": ("Allume {part} {of_dev}.", "Mets en marche {part} {of_dev}."),
    "off": ("Éteins {part} {of_dev}.", "Arrête {part} {of_dev}."),
}
SAID_SWITCH = {
    "on": ("C'est fait, j'ai allumé {dev}.", "OK, {dev} est maintenant en marche."),
    "off": ("C'est fait, j'ai éteint {dev}.", "OK, {dev} est maintenant à l'arrêt."),
}
SAID_SET = (
    "C'est fait, {attr} {of_dev} est maintenant sur {val}.",
    "OK, j'ai réglé {attr} {of_dev} sur {val}.",
)
CONT_PART = {
    "on": ("Allume aussi {its_part}.", "Et mets {its_part} en marche aussi."),
    "off": ("Éteins aussi {its_part}.", "Et arrête {its_part} aussi."),
}
CONT_SWITCH = {
    "on": ("Maintenant, tu peux l'allumer ?", "OK, et maintenant tu l'allumes."),
    "off": ("Maintenant, tu peux l'éteindre ?", "OK, et maintenant tu l'éteins."),
}
"""Switching the same device again: the elided pronoun (l') fits either gender."""
CONT_ALIAS = ("Modifie aussi son nom en {val}.", "Et donne-lui le nom {val}.")
CONT_SET = (
    "Règle aussi {attr} sur {val}.",
    "Maintenant, mets {attr} sur {val}.",
    "Pendant que tu y es, passe {attr} à {val}.",
    "Même appareil : {attr} sur {val}, s'il te plaît.",
    "Super, et mets {attr} sur {val}.",
)


def pronoun_parts(name: str) -> dict[str, str]:
    """French's templates use l', the same for either gender."""
    return {}


CORRECTION = (
    "Oups, je voulais dire {new_dev}. Remets {old_dev} comme avant.",
    "Pardon, mauvais appareil : pas {old_dev}, {new_dev}.",
)
"""Correcting the previous turn's device (the old one goes back as it was)."""
CORRECTION_ROOMS = (
    "Non, pas {old_room_in}, {new_room_in}.",
    "Attends, mauvaise pièce : je voulais dire {new_dev}, pas {old_dev}.",
    "Ne touche à rien {old_room_in} ; occupe-toi plutôt {new_of_dev}.",
)
"""When both are the same kind of device: the rooms tell them apart."""
CORRECTION_DONE = "Désolé : j'ai remis {old_dev} comme avant et réglé {new_dev}."

SAME_ROOM_TOO = {
    "on": (
        "Allume aussi {dev}.",
        "Et {dev} aussi.",
        "{dev} de cette pièce aussi, s'il te plaît.",
        "Tu peux allumer {dev} aussi ?",
    ),
    "off": (
        "Éteins aussi {dev}.",
        "Et {dev} aussi.",
        "{dev} de cette pièce aussi, s'il te plaît.",
        "Tu peux éteindre {dev} aussi ?",
    ),
}
"""A device of the previous one's room, named by its kind only, switched the same way."""
SAME_ROOM_NOW = {
    "on": (
        "Maintenant, allume {dev} de cette pièce.",
        "Et allume {dev} là-bas.",
        "Et dans cette pièce, allume {dev}, s'il te plaît.",
    ),
    "off": (
        "Maintenant, éteins {dev} de cette pièce.",
        "Et éteins {dev} là-bas.",
        "Et dans cette pièce, éteins {dev}, s'il te plaît.",
    ),
}
"""... switched the other way than the previous one."""
ANYTHING_ON = (
    "Il y a encore quelque chose d'allumé {room_in} ?",
    "Qu'est-ce qui est allumé {room_in} en ce moment ?",
)
ONLY_ON = ("Il n'y a que {dev}.", "Seulement {dev} ; tout le reste est éteint.")
THAT_ONE_OFF = (
    "Éteins ça.",
    "OK, alors tu peux l'éteindre.",
    "Coupe-moi ça, s'il te plaît.",
    "Alors, éteins-moi ça.",
)


globals().update(render.dialogue_interface(sys.modules[__name__]))


# ---------------------------------------------------- dialogue: ambiguous intent (issue 41, item 3)
# state_level, scene_level, slot_missing: a request the assistant must ask about, its question and
# the simulated user's reply. As many phrasings of each as English has (the draws are the same).
OPENERS = ("", "", "Pff, ", "Oh là là, ", "Franchement, ", "Dis, ")
"""How a complaint may open (empty: plainly); the complaint goes on in lower case."""
HERE = "ici"
COMPLAINTS = {
    "bright": (
        "Il y a beaucoup trop de lumière {where}.",
        "La lumière {where} me fait mal aux yeux.",
        "C'est éblouissant {where}.",
    ),
    "cold": ("On gèle {where}.", "Brr, il fait frisquet {where}.", "J'ai froid {where}."),
    "dark": (
        "Il fait trop sombre {where}.",
        "Je n'y vois rien {where}.",
        "Pourquoi c'est si sombre {where} ?",
        "On se croirait dans une grotte {where}.",
    ),
    "dry": (
        "L'air est vraiment sec {where}.",
        "J'ai la gorge toute sèche {where}.",
        "C'est sec comme le désert {where}.",
    ),
    "hot": (
        "On se croirait dans un sauna {where}.",
        "On étouffe de chaleur {where}.",
        "Je transpire à grosses gouttes {where}.",
        "Il fait beaucoup trop chaud {where}.",
    ),
    "humid": (
        "C'est tellement lourd {where}.",
        "Tout est humide et collant {where}.",
        "Il fait beaucoup trop humide {where}.",
    ),
    "loud": (
        "C'est beaucoup trop bruyant {where}.",
        "La musique est à fond {where}.",
        "Je ne m'entends plus penser {where}.",
    ),
    "stuffy": (
        "Ça sent le renfermé {where}.",
        "L'air est confiné {where}.",
        "On manque tellement d'air {where} que j'ai du mal à respirer.",
    ),
}
"""Per complaint: its phrasings ({where}: "dans le bureau", or :data:`HERE`)."""
STATE_DONE = "C'est fait, ça devrait aller mieux."
STATE_ASK = ("Tu es dans quelle pièce ?", "Tu es où, là ?", "Quelle pièce, exactement ?")
STATE_REPLY = ("Je suis {room_in}.", "{room_in}.", "Ici, {room_in}.")
AT = " {room_in}"
SCENE_PHRASES = {
    "dinner": ("À table{at} !", "On passe à table{at}.", "C'est l'heure du dîner{at}."),
    "guests": (
        "Des amis arrivent{at} tout à l'heure.",
        "On a des invités{at} ce soir, prépare tout.",
        "C'est la fête{at} !",
    ),
    "movie": (
        "Soirée film{at} !",
        "On regarde un film{at}.",
        "Mets l'ambiance pour un film{at}, tu veux bien ?",
        "Je vais regarder quelque chose{at}, prépare tout.",
    ),
    "reading": (
        "Je vais lire un moment{at}.",
        "C'est l'heure de me blottir avec un livre{at}.",
        "J'ai envie de lire un peu{at}.",
    ),
    "rest": (
        "Je vais me reposer un moment{at}.",
        "C'est l'heure d'une petite sieste{at}.",
        "Je n'en peux plus, je vais m'allonger un peu{at}.",
        "Je vais piquer un petit somme{at}.",
    ),
    "wakeup": (
        "Bonjour, je suis debout{at} !",
        "Je viens de me lever{at}, bonjour.",
        "Je viens de me réveiller{at}.",
    ),
    "workout": (
        "C'est l'heure de ma séance de sport{at}.",
        "Je vais commencer mon entraînement{at}.",
        "Allez, on attaque la séance{at}.",
    ),
}
"""Per scene: its phrasings ({at}: " dans la chambre" where the room is named, else nothing)."""
SCENE_DONE = "Tout est prêt, profite bien."
SCENE_ASK = (
    "Tu seras dans quelle pièce ?",
    "D'accord, dans quelle pièce ?",
    "Où est-ce que je prépare ça ?",
)
SCENE_REPLY = ("{room_in}.", "{room_in}, s'il te plaît.", "Je serai {room_in}.")
VALUE_ALIAS = (
    "Donne un nouveau nom {at_dev}.",
    "Renomme {dev}, s'il te plaît.",
    "Je veux changer le nom {of_dev}.",
)
VALUE_ALIAS_QUESTION = "Quel nom veux-tu lui donner ?"
VALUE_ALIAS_REPLY = ("Mets {val}.", "Donne-lui le nom {val}.")
VALUE_SET = (
    "Change {attr} {of_dev}.",
    "Tu peux ajuster {attr} {of_dev} ?",
    "Je veux régler {attr} {of_dev}.",
    "Règle {attr} {of_dev}, s'il te plaît.",
)
VALUE_QUESTION = "Je règle {attr} sur quelle valeur ?"
VALUE_REPLY = ("{val}.", "Mets {val}.", "Allez, {val}.", "{val}, s'il te plaît.")
ROOM_SWITCH = {
    "on": ("Allume {dev}.", "Tu peux allumer {dev} ?", "Allume-moi {dev}, s'il te plaît."),
    "off": ("Éteins {dev}.", "Tu peux éteindre {dev} ?", "Éteins-moi {dev}, s'il te plaît."),
}
"""Switching a device named by its kind only ({dev}: "le Plafonnier"), which several rooms
have."""
ROOM_ASK = ("{dev} de quelle pièce ?", "Il y en a plusieurs, de quelle pièce parles-tu ?")
ROOM_REPLY = ("{dev} {room_of}.", "{room_in}.", "Je parle {of_dev} {room_of}.")
LIGHT_IN_ROOM = {
    "on": (
        "Allume la lumière {room_in}.",
        "Mets la lumière {room_in}, s'il te plaît.",
        "Tu peux allumer la lumière {room_in} ?",
    ),
    "off": (
        "Éteins la lumière {room_in}.",
        "Coupe la lumière {room_in}, s'il te plaît.",
        "Tu peux éteindre la lumière {room_in} ?",
    ),
}
"""Switching "the light" of a room that has several."""
LIGHT_WHICH = ("Il y a {n} lumières {room_in}, laquelle veux-tu dire ?", "Laquelle veux-tu dire ?")
LIGHT_REPLY = ("{dev}.", "{dev}, s'il te plaît.")
OVEN = "le four"
"""The oven, as the cooking requests name it."""
COOKING = {
    "defrost": ("décongeler le poulet", "décongeler les crevettes surgelées"),
    "microwave": ("réchauffer mon café", "réchauffer ce bol de riz"),
    "reheating": ("réchauffer mon déjeuner", "réchauffer les restes", "réchauffer ma soupe"),
    "steam": ("cuire des raviolis à la vapeur", "cuire le poisson à la vapeur"),
}
"""Per cooking mode of the oven: the jobs a user asks it for (the infinitive)."""
COOK_TEXT = (
    "Utilise {oven} pour {task}.",
    "Tu peux {task} dans {oven} ?",
    "Je dois {task}, lance {oven}.",
)
COOK_QUESTION = ("Pendant combien de temps ?", "Ça doit tourner combien de temps ?")
COOK_REPLY = ("{d}.", "Environ {d}.", "Mets {d}.")
DURATIONS = {
    60: "une minute",
    90: "une minute et demie",
    120: "deux minutes",
    180: "trois minutes",
    300: "cinq minutes",
    600: "dix minutes",
    900: "un quart d'heure",
    1200: "vingt minutes",
    1800: "une demi-heure",
}
"""The cooking times asked for, as said."""
HEATER = "le chauffe-eau"
"""The only water heater, as a household calls it."""
HEAT_TEXT = (
    "Fais chauffer de l'eau pour la douche avec {heater}.",
    "Lance {heater}.",
    "Je veux prendre un bain tout à l'heure, mets {heater} en route.",
)
HEAT_QUESTION = ("Quelle température veux-tu ?", "L'eau doit être chaude à quel point ?")
HEAT_REPLY = ("{t} degrés.", "Mets {t} degrés.", "Environ {t}.")


globals().update(render.ambiguous_interface(sys.modules[__name__]))
