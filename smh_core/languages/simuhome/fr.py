"""French wording of the ``simuhome`` suite (France, tutoiement, as people talk to a home
assistant), with the lists of :mod:`.en` and as many phrasings in each. A device is named with
its article, elided before a vowel (``l'Humidificateur 1 dans la salle de bain``), and its
room's "in" form; never after ``de``/``à``, which would contract the article (``après que …
a fini``, not ``après la fin du …``). Pronouns agree with the noun (``règle-la`` for a ``Lampe
variable``, ``passe-le`` for a ``Climatiseur``). Numbers the French way: decimal comma
(``21,5 °C``), ``45 %`` and ``?`` after a space, times as ``15 h 40``.
"""

from __future__ import annotations

from datetime import datetime

from smh_core.languages.names.fr import ROOMS, the

from . import forms_named

VARIABLES = {
    "temperature": ("la température", "°C"),
    "humidity": ("l'humidité", "%"),
    "illuminance": ("la luminosité", "lux"),
    "pm25": ("le taux de PM2,5", "µg/m³"),
    "pm10": ("le taux de PM10", "µg/m³"),
}
_LABELS = {  # kind -> (name with article, "no such" after "pas", object pronoun)
    "dimmable_light": ("la Lampe variable", "de lampe variable", "la"),
    "fan": ("le Ventilateur", "de ventilateur", "le"),
    "air_purifier": ("le Purificateur", "de purificateur d'air", "le"),
    "humidifier": ("l'Humidificateur", "d'humidificateur", "le"),
    "dehumidifier": ("le Déshumidificateur", "de déshumidificateur", "le"),
    "air_conditioner": ("le Climatiseur", "de climatiseur", "le"),
    "on_off_light": ("la Lampe", "de lampe", "la"),
}


def room(name: str) -> dict[str, str]:
    return forms_named(ROOMS, name)


def device(name: str, room_name: str) -> str:
    """A device with its article, then where it is (``le Ventilateur 1 dans le bureau``)."""
    return f"{the(name)} {room(room_name)['room_in']}"


def device_subject(name: str, room_name: str) -> str:
    return device(name, room_name)


def label(kind: str) -> dict[str, str]:
    the_label, none, it = _LABELS[kind]
    return {"the_label": the_label, "no_label": none, "it": it}


def number(value: float) -> str:
    return f"{value:g}".replace(".", ",")


def clock(t: datetime) -> str:
    return f"{t.hour} h {t.minute:02d}" if t.minute else f"{t.hour} h"


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


# QT1
NO_DEVICE_REASON = "il n'y a pas {no_label} {room_in}"
QT1_MISSING = (
    "À quelle vitesse tourne {the_label} 1 {room_in} ?",
    "{the_label} {room_in}, c'est quoi son identifiant fabricant ?",
    "Est-ce que {the_label} 1 {room_in} est en marche ?",
)
QT1_MISSING_SORRY = "Désolé, il n'y a pas {no_label} {room_in}, je ne peux donc pas te le dire."
QT1_ASK = (
    "Je vais me mettre à cuisiner : {words} {room_in}, ça donne quoi en ce moment ?",
    "C'est combien, {words} {room_in} ?",
    "Tu peux vérifier {words} {room_in} ? Je veux savoir si on y est bien.",
)
QT1_ANSWER = "{words} {room_in} est de {value} {unit}."

# QT2
COMPLAINTS = {
    "humidifier": (
        "l'air est hyper sec {room_in}, j'ai les mains qui tiraillent",
        "j'ai la gorge qui gratte, l'air {room_in} est tellement sec",
    ),
    "dehumidifier": (
        "c'est humide et collant {room_in}",
        "c'est vraiment moite {room_in}, tout a l'air mouillé",
    ),
    "air_purifier": (
        "il y a plein de poussière {room_in}, j'ai les yeux qui piquent",
        "l'air {room_in} est chargé de poussière, on respire mal",
    ),
    "air_conditioner": (
        "on se croirait dans un sauna {room_in}",
        "il fait beaucoup trop chaud {room_in}",
    ),
}
FIX = {
    "humidifier": "humidifier l'air {room_in} plus vite",
    "dehumidifier": "assécher l'air {room_in} plus vite",
    "air_purifier": "purifier l'air {room_in} plus vite",
    "air_conditioner": "faire baisser la température {room_in} plus vite",
}
AT_LIMIT_REASON = "{device} tourne déjà à pleine puissance"
AT_LIMIT_SORRY = "Désolé, {device} tourne déjà à pleine puissance, je ne peux pas {fix}."
NO_HELPER_REASON = "il n'y a pas {no_label} {room_in}, donc pas moyen de changer {words}"
NO_HELPER_SORRY = "Désolé, il n'y a pas {no_label} {room_in}, je ne peux donc pas changer {words}."
TURNED_ON = "J'ai allumé {device}."

# QT3
QT3_MISSING = (
    "Allume {the_label} 1 {room_in} et règle-{it} sur 80 pour cent.",
    "Allume {the_label} 1 {room_in}, ça sent un peu le renfermé ce matin.",
)
QT3_MISSING_SORRY = "Désolé, il n'y a pas {no_label} {room_in}, je ne peux donc pas le faire."
LEVEL = ("allume {device} et règle-la sur le niveau {level}", "mets {device} au niveau {level}")
"""Dimmable lights (``la Lampe variable``: ``règle-la``)."""
FAN = (
    "allume {device} et règle la ventilation sur {pct} pour cent",
    "mets {device} en marche à {pct} %",
)
MODES = {3: "froid", 4: "chaud"}
AC = (
    "allume {device}, passe-le en mode {mode} et règle la ventilation sur {pct} pour cent",
    "mets {device} en marche en mode {mode}, ventilation à {pct} %",
)
"""Air conditioners (``le Climatiseur``: ``passe-le``)."""
TURN_ON = "allume {device}"
TURN_OFF = "éteins {device}"
QT3_OPENINGS = ("S'il te plaît, ", "Vas-y, ", "")
AND = " et "
END = "."
DONE = "C'est fait."

# QT4
SCHEDULED = "C'est programmé pour {clock}."
WRONG_CLOCK = "Il est {claimed}, c'est bien ça ? Dans {minutes} minutes, donc à {said}, {words}."
WRONG_CLOCK_REASON = "l'heure annoncée ne correspond pas à l'horloge"
WRONG_CLOCK_SORRY = (
    "Désolé, il est en fait {now}, donc dans {minutes} minutes il ne sera pas {said}. Tu voulais "
    "dire quelle heure ?"
)
LATER = (
    "Dans {minutes} minutes, {words}.",
    "{words} dans {minutes} minutes.",
    "Je reviens tout de suite : {words} dans {minutes} minutes.",
)
AFTER = ("Dès que {app} a fini, {words}.", "{delay} minutes après que {app} a fini, {words}.")
WRONG_FINISH = "Je crois que {app} finit à {finish}, donc {before} minutes avant, à {at}, {words}."
WRONG_FINISH_REASON = "l'heure de fin supposée est fausse"
WRONG_FINISH_SORRY = "Désolé, ça ne colle pas : {app} finit en fait à {real}, pas à {finish}."
DEADLINE = (
    "Des invités arrivent bientôt : fais en sorte que {first} et {second} aient tous les deux "
    "fini avant {deadline}."
)
"""Washers, dishwashers and dryers are all masculine (``tous les deux``)."""
DEADLINE_REASON = "le premier appareil finit à lui seul après l'heure limite"
DEADLINE_SORRY = "Désolé, c'est impossible : {first} doit tourner à lui seul jusqu'à {until}."
THEN = (
    "Quand {first} a fini, lance {second}{extra}.",
    "Quand {first} a fini, attends {wait} minutes puis lance {second}{extra}.",
)
DRYNESS = " avec le niveau de séchage {level}"
