"""French (France) wording of the ``memhome`` suite: tu, a scene said with its own preposition
(``pendant la soirée cinéma``, ``au coucher``), ``du``/``de la``/``de l'`` and elision
(``l'intensité de l'Applique``), participles agreeing with the device (``la Lampe du salon
allumée``), a space before ``:``, ``?`` and ``!``, ``50 %`` and decimals with a comma. Rooms and
devices are named by :mod:`smh_core.languages.names.fr`."""

from __future__ import annotations

from typing import Any

from smh_core.languages.names import fr as names
from smh_core.languages.names import with_article

from . import Said

SCENES = (
    ("soirée cinéma", "pendant la soirée cinéma", "pour la soirée cinéma"),
    ("coucher", "au coucher", "pour le coucher"),
    ("lecture", "pendant la lecture", "pour la lecture"),
    ("réveil", "au réveil", "pour le réveil"),
    ("dîner", "pendant le dîner", "pour le dîner"),
    ("séance de sport", "pendant la séance de sport", "pour la séance de sport"),
    ("heures de travail", "pendant les heures de travail", "pour les heures de travail"),
    ("sieste", "pendant la sieste", "pour la sieste"),
    ("soirée jeux", "pendant la soirée jeux", "pour la soirée jeux"),
    ("dîner en amoureux", "pendant le dîner en amoureux", "pour le dîner en amoureux"),
    ("jour du ménage", "le jour du ménage", "pour le jour du ménage"),
    ("méditation", "pendant la méditation", "pour la méditation"),
    (
        "petit-déjeuner en famille",
        "pendant le petit-déjeuner en famille",
        "pour le petit-déjeuner en famille",
    ),
    ("révisions", "pendant les révisions", "pour les révisions"),
    ("soirée entre amis", "pendant la soirée entre amis", "pour la soirée entre amis"),
    ("jours de pluie", "les jours de pluie", "pour les jours de pluie"),
)
"""Per scene: its name (the key term), "at" form, "for" form."""

ATTRS: dict[str, tuple[str, str]] = {
    "ac mode": ("mode", "m"),
    "alarm volume": ("volume de l'alarme", "m"),
    "breathing light": ("voyant respiration", "m"),
    "brightness": ("luminosité", "f"),
    "clean mode": ("mode de nettoyage", "m"),
    "color temperature": ("température de couleur", "f"),
    "current direction": ("sens de rotation", "m"),
    "drying": ("séchage", "m"),
    "effect": ("effet lumineux", "m"),
    "fan": ("niveau de ventilation", "m"),
    "fan speed": ("vitesse du ventilateur", "f"),
    "favorite": ("niveau favori", "m"),
    "intensity": ("intensité", "f"),
    "oscillation": ("balayage", "m"),
    "position": ("ouverture", "f"),
    "preset mode": ("préréglage", "m"),
    "sleep state": ("phase de sommeil", "f"),
    "speed": ("vitesse", "f"),
    "suction": ("puissance d'aspiration", "f"),
    "swing": ("orientation des volets d'air", "f"),
    "target humidity": ("humidité visée", "f"),
    "target temperature": ("température", "f"),
    "target water quantity": ("quantité d'eau", "f"),
    "target water temperature": ("température de l'eau", "f"),
    "tilt angle": ("inclinaison", "f"),
    "volume level": ("volume", "m"),
    "water": ("niveau d'eau", "m"),
    "work mode": ("programme", "m"),
}
"""Per setting (its English words): the French noun and its gender."""
OPTIONS = {
    "auto": "automatique",
    "cool": "froid",
    "dry": "sec",
    "fan_only": "ventilation seule",
    "heat": "chaud",
    "breathing": "respiration",
    "music_sync": "musique",
    "rainbow": "arc-en-ciel",
    "static": "fixe",
    "forward": "avant",
    "reverse": "arrière",
    "natural": "brise naturelle",
    "normal": "normal",
    "sleep": "nuit",
    "high": "fort",
    "low": "faible",
    "medium": "moyen",
    "awake": "éveil",
    "deep_sleep": "sommeil profond",
    "fall_asleep": "endormissement",
    "continuous": "continu",
    "dry_clothes": "séchage du linge",
    "eco": "éco",
    "favorite": "favori",
    "quick_heat": "montée rapide",
    "synthetic": "synthétique",
    "cotton": "coton",
    "flowing": "fluide",
    "mop": "lavage",
    "quick": "rapide",
    "standard": "standard",
    "sweep": "aspiration",
    "sweep_and_mop": "aspiration et lavage",
    "wool": "laine",
}
"""A setting's option values as a French speaker says them."""
UNITS = {
    "Celsius": "{v} degrés",
    "percentage": "{v} %",
    "Kelvin": "{v} K",
    "second": "{v} secondes",
    "liter": "{v} litres",
    "degree": "{v} degrés",
}

_GENDER = {"m": "m", "f": "f"}


def _gender(name: str) -> str:
    said = with_article(name, names.KINDS, names.NAMED, _GENDER)
    return said[0] if said != name else "m"


def _of(name: str) -> str:
    return with_article(name, names.KINDS, names.NAMED, {"m": "du", "f": "de la"}, "de l'")


def _the_noun(noun: str, gender: str) -> str:
    if noun[:1].casefold() in "aeiouyéèêh":
        return f"l'{noun}"
    return f"{'le' if gender == 'm' else 'la'} {noun}"


def scene_words(scene: tuple[str, str, str]) -> dict[str, str]:
    """The template fields of a scene."""
    return {
        "scene": scene[0],
        "Scene": scene[0][:1].upper() + scene[0][1:],
        "scene_at": scene[1],
        "Scene_at": scene[1][:1].upper() + scene[1][1:],
        "scene_for": scene[2],
        "que_scene_at": f"qu'{scene[1]}" if scene[1][:1] in "aeiouàâéè" else f"que {scene[1]}",
    }


def name_words(name: str) -> dict[str, str]:
    """The template fields of a device's name: bare, with its article, after "de"."""
    return {"name": name, "the_name": names.the(name), "of_name": _of(name)}


def _number(value: Any) -> str:
    return (f"{value:g}" if isinstance(value, float) else str(value)).replace(".", ",")


def value_said(value: Any, unit: str | None) -> tuple[str, str]:
    """A setting's value as said in French, with the preposition before it."""
    if isinstance(value, str):
        return "sur", OPTIONS[value]
    return "à", UNITS[unit].format(v=_number(value)) if unit in UNITS else _number(value)


def switch(name: str, on: bool) -> Said:
    """A device switched on or off."""
    the, e = names.the(name), "e" if _gender(name) == "f" else ""
    state = f"allumé{e}" if on else f"éteint{e}"
    verb, infinitive = ("Allume", "allumer") if on else ("Éteins", "éteindre")
    return Said(
        state,
        f"{the} {state}",
        f"{verb} {the}.",
        f"{infinitive} {the}",
        f"C'est fait, {the} est {state}.",
        state,
    )


def setting(name: str, attr: str, value: Any, unit: str | None, english: str) -> Said:
    """A device's setting at a value (a flag on or off, a number, an option); ``attr`` and
    ``english`` are the setting and its value in English words (the keys of the tables)."""
    noun, gender = ATTRS[attr]
    attr = f"{_the_noun(noun, gender)} {_of(name)}"
    if isinstance(value, bool):
        state = ("activé" if value else "désactivé") + ("e" if gender == "f" else "")
        verb = "Active" if value else "Désactive"
        return Said(
            state,
            f"{attr} {state}",
            f"{verb} {attr}.",
            f"{verb.lower()}r {attr}",
            f"C'est fait, {attr} est {state}.",
            state,
        )
    prep, said = value_said(value, unit)
    return Said(
        said,
        f"{attr} {prep} {said}",
        f"Mets {attr} {prep} {said}.",
        f"mettre {attr} {prep} {said}",
        f"C'est fait, {attr} est {prep} {said}.",
        said,
    )


FILLERS = ("euh", "bah", "hum", "ben", "genre", "bon")
NOISY = (
    "{Filler}, {text_low}",
    "{Filler}... {filler}, {text_low}",
    "{text_bare}, {filler}, voilà.",
)
ENTRY = (
    "{Scene_at}, j'aime {desc}.",
    "{Scene_at}, je préfère {desc}.",
    "{Scene} : {desc}.",
)

ADD_SETTING = (
    "Retiens ce réglage {scene_for}.",
    "Parfait. Retiens ça {scene_for} à partir de maintenant, s'il te plaît.",
    "Garde ça en tête {scene_for}, c'est comme ça que je l'aime.",
)
ADD_SETTING_COLLOQUIAL = (
    "Super, c'est exactement ce que je veux {scene_at}, retiens-le !",
    "Ouais, note ça {scene_for}.",
)
ADD = (
    "Retiens {que_scene_at}, j'aime {desc}.",
    "À partir de maintenant, {scene_at}, je veux {desc}.",
    "Garde en tête, s'il te plaît : {scene_at}, {desc}.",
    "Tu peux retenir ça pour moi ? {Scene_at}, je veux {desc}.",
)
ADD_COLLOQUIAL = (
    "Hé, note {que_scene_at}, je veux toujours {desc}, d'accord ?",
    "Retiens bien : {scene}, c'est {desc}.",
    "Pour info, à l'avenir : {scene_at}, j'aime {desc}. Retiens-le.",
)
UPDATE = (
    "En fait, {scene_at}, je préfère désormais {desc}.",
    "Change mon réglage {scene_for} : {said_new} au lieu de {said_old} pour {the_name}.",
    "Mets à jour ce que tu as retenu {scene_for} : maintenant je veux {desc}.",
    "Retiens une nouvelle préférence {scene_for} : {desc}, et non plus {said_old}.",
)
UPDATE_COLLOQUIAL = (
    "{Said_old}, ça ne va plus {scene_at}, la prochaine fois mets {said_new} et retiens-le.",
    "J'ai changé d'avis {scene_for}. Retiens plutôt {desc}.",
    "Hé, changement {scene_for} : désormais, {said_new} pour {the_name}.",
)
DELETE = (
    "Oublie ce que je t'ai dit {scene_for}.",
    "Supprime ma préférence {scene_for}, s'il te plaît.",
    "Je n'ai plus besoin du réglage {of_name} {scene_for}, efface-le de ta mémoire.",
    "Tu peux arrêter de retenir {que_scene_at}, j'aime {desc}.",
)
DELETE_COLLOQUIAL = (
    "Laisse tomber le truc {of_name} {scene_for}, efface-le.",
    "Vire mon réglage {scene_for}, je n'en veux plus.",
    "Cette règle {scene_for} ? Oublie-la, oublie-la.",
)
USE = (
    "Prépare tout {scene_for}.",
    "Prépare la maison {scene_for}.",
    "{Scene}, s'il te plaît. Comme d'habitude.",
    "Installe tout {scene_for}, comme toujours.",
)
USE_COLLOQUIAL = (
    "Allez, {scene} ! Tu sais ce que j'aime.",
    "C'est parti : {scene}. Fais ton truc.",
    "Hé, on repart {scene_for}, règle tout comme j'aime.",
)
ONCE = (
    "Juste pour ce soir : {command} Pas besoin de le retenir.",
    "Rien que cette fois : {command}",
    "Pour l'instant : {command} Mais ne l'enregistre pas comme préférence.",
)
ONCE_COLLOQUIAL = (
    "Tu peux {request} ? Juste cette fois.",
    "Temporairement : {command} Ne le retiens pas.",
)
UNCOVERED = ("{command}",)
UNCOVERED_COLLOQUIAL = ("Tu pourrais {request} ?", "{command_bare}, s'il te plaît.")
OVERRIDE = ("{command}", "{Scene}, c'est fini. {command}")
OVERRIDE_COLLOQUIAL = ("Tu pourrais {request} ?", "{command_bare} tout de suite.")

RESPONSES = {
    "add": "D'accord, je retiens : {content}",
    "update": "Mis à jour : {content}",
    "delete": "Oublié : {content}",
    "use": "C'est fait, comme tu aimes.",
    "refuse": "Désolé, je ne retiens que les préférences des appareils.",
    "execute": "C'est fait.",
}

PHONE = "0{a[0]} {a[1]}{a[2]} {b[0]}{b[1]} {b[2]}{c[0]} {c[1]}{c[2]}"
"""A French number: ten digits in pairs (the draw's last one left out)."""
CARD = "{0} {1} {2} {3}"
EMAIL_NAMES = ("camille", "lucas", "chloe", "theo")
WIFI_WORDS = ("tournesol", "erable", "tigre")
SENSITIVE = (
    "Retiens mon numéro de téléphone : {phone}.",
    "Garde en tête que mon numéro de portable est le {phone}.",
    "À partir de maintenant, retiens que mon e-mail est {email}{d2}@exemple.fr.",
    "Note que mon numéro de carte bancaire est {card}, retiens-le.",
    "Retiens que le mot de passe wifi {of_name} est {wifi}{d4}.",
    "Tu peux retenir le code de la porte ? C'est {pin}.",
    "Euh, retiens mon numéro de passeport, c'est le {passport[0]}{passport[1]}FR{passport[2]}{passport[3]}{passport[4]}{passport[5]}{passport[6]}.",
    "Hé, garde ça pour moi : le numéro de ma mère, c'est le {phone}.",
)
MONTHS = ("janvier", "mars", "mai", "juillet", "septembre", "novembre")
ALLERGENS = ("aux chats", "aux cacahuètes", "au pollen", "aux fruits de mer")
TEAMS = ("le PSG", "l'OM", "l'OL")
DOGS = ("Filou", "Luna", "Max", "Praline")
WEEKDAYS = ("lundi", "mardi", "vendredi")
WIVES = ("Camille", "Marie", "Claire", "Léa")
CHITCHAT = (
    "Retiens que l'anniversaire de ma sœur, c'est le {day} {month}.",
    "Retiens que je suis allergique {allergen}, s'il te plaît.",
    "Garde en tête que mon équipe préférée, c'est {team}.",
    "À partir de maintenant, retiens que mon chien s'appelle {dog}.",
    "Retiens que je préfère le thé au café.",
    "Euh, retiens que j'ai rendez-vous chez le dentiste {weekday} prochain.",
    "Pour info, je suis végétarien. Retiens-le, d'accord ?",
    "Retiens que ma femme s'appelle {wife}.",
)
