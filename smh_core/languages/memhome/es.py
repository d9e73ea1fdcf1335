"""Spanish (Spain) wording of the ``memhome`` suite: tú, a scene said with its own preposition
(``en la noche de cine``, ``a la hora de dormir``), ``del``/``al`` contracted, adjectives agreeing
with the device (``la Lámpara de techo encendida``), a value with the preposition it takes
(``al 50 %``, ``a 22,5 grados``, ``en automático``), decimals with a comma. Rooms and devices are
named by :mod:`smh_core.languages.names.es`."""

from __future__ import annotations

from typing import Any

from smh_core.languages.names import es as names
from smh_core.languages.names import with_article

from . import Said

SCENES = (
    ("noche de cine", "en la noche de cine", "para la noche de cine"),
    ("hora de dormir", "a la hora de dormir", "para la hora de dormir"),
    ("rato de lectura", "durante el rato de lectura", "para el rato de lectura"),
    ("despertar", "al despertar", "para el despertar"),
    ("cena", "durante la cena", "para la cena"),
    ("entreno", "durante el entreno", "para el entreno"),
    ("horario de trabajo", "en horario de trabajo", "para el horario de trabajo"),
    ("siesta", "a la hora de la siesta", "para la siesta"),
    ("noche de juegos", "en la noche de juegos", "para la noche de juegos"),
    ("cena romántica", "en la cena romántica", "para la cena romántica"),
    ("día de limpieza", "el día de limpieza", "para el día de limpieza"),
    ("meditación", "durante la meditación", "para la meditación"),
    ("desayuno en familia", "en el desayuno en familia", "para el desayuno en familia"),
    ("hora de estudio", "a la hora de estudio", "para la hora de estudio"),
    ("noche de fiesta", "en la noche de fiesta", "para la noche de fiesta"),
    ("días de lluvia", "los días de lluvia", "para los días de lluvia"),
)
"""Per scene: its name (the key term), "at" form, "for" form."""

ATTRS: dict[str, tuple[str, str]] = {
    "ac mode": ("modo", "m"),
    "alarm volume": ("volumen de la alarma", "m"),
    "breathing light": ("luz de respiración", "f"),
    "brightness": ("brillo", "m"),
    "clean mode": ("modo de limpieza", "m"),
    "color temperature": ("temperatura de color", "f"),
    "current direction": ("sentido de giro", "m"),
    "drying": ("secado", "m"),
    "effect": ("efecto de luz", "m"),
    "fan": ("nivel de ventilación", "m"),
    "fan speed": ("velocidad del ventilador", "f"),
    "favorite": ("nivel favorito", "m"),
    "intensity": ("intensidad", "f"),
    "oscillation": ("oscilación", "f"),
    "position": ("apertura", "f"),
    "preset mode": ("modo predefinido", "m"),
    "sleep state": ("fase de sueño", "f"),
    "speed": ("velocidad", "f"),
    "suction": ("potencia de succión", "f"),
    "swing": ("oscilación de las lamas", "f"),
    "target humidity": ("humedad deseada", "f"),
    "target temperature": ("temperatura", "f"),
    "target water quantity": ("cantidad de agua", "f"),
    "target water temperature": ("temperatura del agua", "f"),
    "tilt angle": ("inclinación", "f"),
    "volume level": ("volumen", "m"),
    "water": ("nivel de agua", "m"),
    "work mode": ("programa", "m"),
}
"""Per setting (its English words): the Spanish noun and its gender."""
OPTIONS = {
    "auto": "automático",
    "cool": "frío",
    "dry": "seco",
    "fan_only": "solo ventilación",
    "heat": "calor",
    "breathing": "respiración",
    "music_sync": "música",
    "rainbow": "arcoíris",
    "static": "fijo",
    "forward": "hacia delante",
    "reverse": "hacia atrás",
    "natural": "brisa natural",
    "normal": "normal",
    "sleep": "descanso",
    "high": "alto",
    "low": "bajo",
    "medium": "medio",
    "awake": "despierto",
    "deep_sleep": "sueño profundo",
    "fall_asleep": "conciliar el sueño",
    "continuous": "continuo",
    "dry_clothes": "secado de ropa",
    "eco": "eco",
    "favorite": "favorito",
    "quick_heat": "calentamiento rápido",
    "synthetic": "sintéticos",
    "cotton": "algodón",
    "flowing": "fluido",
    "mop": "fregar",
    "quick": "rápido",
    "standard": "estándar",
    "sweep": "barrer",
    "sweep_and_mop": "barrer y fregar",
    "wool": "lana",
}
"""A setting's option values as a Spanish speaker says them."""
UNITS = {
    "Celsius": ("a", "{v} grados"),
    "percentage": ("al", "{v} %"),
    "Kelvin": ("a", "{v} K"),
    "second": ("a", "{v} segundos"),
    "liter": ("a", "{v} litros"),
    "degree": ("a", "{v} grados"),
}
"""Per unit: the preposition before the value, and the value."""

_THE = {"m": "el", "f": "la"}
_OF = {"m": "del", "f": "de la"}
_GENDER = {"m": "m", "f": "f"}


def _gender(name: str) -> str:
    said = with_article(name, names.KINDS, names.NAMED, _GENDER)
    return said[0] if said != name else "m"


def scene_words(scene: tuple[str, str, str]) -> dict[str, str]:
    """The template fields of a scene."""
    return {
        "scene": scene[0],
        "Scene": scene[0][:1].upper() + scene[0][1:],
        "scene_at": scene[1],
        "Scene_at": scene[1][:1].upper() + scene[1][1:],
        "scene_for": scene[2],
    }


def name_words(name: str) -> dict[str, str]:
    """The template fields of a device's name: bare, with its article, after "de"."""
    return {
        "name": name,
        "the_name": names.the(name),
        "of_name": with_article(name, names.KINDS, names.NAMED, _OF),
    }


def _number(value: Any) -> str:
    return (f"{value:g}" if isinstance(value, float) else str(value)).replace(".", ",")


def value_said(value: Any, unit: str | None) -> tuple[str, str]:
    """A setting's value as said in Spanish, with the preposition before it."""
    if isinstance(value, str):
        return "en", OPTIONS[value]
    if unit in UNITS:
        prep, shown = UNITS[unit]
        return prep, shown.format(v=_number(value))
    return "en", _number(value)


def switch(name: str, on: bool) -> Said:
    """A device switched on or off."""
    the, ending = names.the(name), "a" if _gender(name) == "f" else "o"
    state = ("encendid" if on else "apagad") + ending
    verb, infinitive = ("Enciende", "encender") if on else ("Apaga", "apagar")
    return Said(
        state,
        f"{the} {state}",
        f"{verb} {the}.",
        f"{infinitive} {the}",
        f"Hecho, {the} ya está {state}.",
        state,
    )


def setting(name: str, attr: str, value: Any, unit: str | None, english: str) -> Said:
    """A device's setting at a value (a flag on or off, a number, an option); ``attr`` and
    ``english`` are the setting and its value in English words (the keys of the tables)."""
    noun, gender = ATTRS[attr]
    attr = f"{_THE[gender]} {noun} {with_article(name, names.KINDS, names.NAMED, _OF)}"
    if isinstance(value, bool):
        state = ("activad" if value else "desactivad") + ("a" if gender == "f" else "o")
        verb = "Activa" if value else "Desactiva"
        return Said(
            state,
            f"{attr} {state}",
            f"{verb} {attr}.",
            f"{verb.lower()}r {attr}",
            f"Hecho, {attr} ya está {state}.",
            state,
        )
    prep, said = value_said(value, unit)
    return Said(
        said,
        f"{attr} {prep} {said}",
        f"Pon {attr} {prep} {said}.",
        f"poner {attr} {prep} {said}",
        f"Hecho, {attr} ya está {prep} {said}.",
        said,
    )


FILLERS = ("eh", "em", "mmm", "pues", "o sea", "bueno")
NOISY = (
    "{Filler}, {text_low}",
    "{Filler}... {filler}, {text_low}",
    "{text_bare}, {filler}, ¿vale?",
)
ENTRY = (
    "{Scene_at} me gusta {desc}.",
    "{Scene_at} prefiero {desc}.",
    "{Scene}: {desc}.",
)

ADD_SETTING = (
    "Recuerda este ajuste {scene_for}.",
    "Perfecto. A partir de ahora recuérdalo {scene_for}, por favor.",
    "Ten esto en cuenta {scene_for}, así es como me gusta.",
)
ADD_SETTING_COLLOQUIAL = (
    "Genial, justo así lo quiero siempre {scene_for}, ¡recuérdalo!",
    "Sí, apúntatelo {scene_for}.",
)
ADD = (
    "Recuerda que {scene_at} me gusta {desc}.",
    "A partir de ahora, {scene_at} quiero {desc}.",
    "Ten en cuenta, por favor: {scene_at}, {desc}.",
    "¿Puedes recordarme esto? {Scene_at} quiero {desc}.",
)
ADD_COLLOQUIAL = (
    "Oye, apunta que {scene_at} siempre quiero {desc}, ¿vale?",
    "Recuerda esto: {scene} significa {desc}.",
    "Para que lo sepas de cara al futuro: {scene_at} me gusta {desc}. Recuérdalo.",
)
UPDATE = (
    "En realidad, {scene_at} prefiero a partir de ahora {desc}.",
    "Cambia mi ajuste {scene_for}: {said_new} en vez de {said_old} para {the_name}.",
    "Actualiza lo que recuerdas {scene_for}: ahora quiero {desc}.",
    "Recuerda una nueva preferencia {scene_for}: {desc}, ya no {said_old}.",
)
UPDATE_COLLOQUIAL = (
    "{Said_old} ya no me va bien {scene_at}, la próxima vez pon {said_new} y recuérdalo.",
    "He cambiado de idea {scene_for}. Recuerda {desc} en su lugar.",
    "Oye, cambio {scene_for}: a partir de ahora {the_name} va a {said_new}.",
)
DELETE = (
    "Olvida lo que te dije {scene_for}.",
    "Borra mi preferencia {scene_for}, por favor.",
    "Ya no necesito el ajuste {of_name} {scene_for}, bórralo de la memoria.",
    "Ya no hace falta que recuerdes que {scene_at} me gusta {desc}.",
)
DELETE_COLLOQUIAL = (
    "Olvídate de lo {of_name} {scene_for}, bórralo.",
    "Quita mi ajuste {scene_for}, ya no lo quiero.",
    "¿Esa regla {scene_for}? Olvídala, olvídala.",
)
USE = (
    "Prepáralo todo {scene_for}.",
    "Deja la casa lista {scene_for}.",
    "{Scene}, por favor. Lo de siempre.",
    "Prepara la casa {scene_for}, como siempre.",
)
USE_COLLOQUIAL = (
    "¡Venga, {scene}! Ya sabes lo que me gusta.",
    "Allá vamos: {scene}. Haz lo tuyo.",
    "Oye, otra vez {scene}, déjalo todo como me gusta.",
)
ONCE = (
    "Solo por esta noche: {command} No hace falta que lo recuerdes.",
    "Solo esta vez: {command}",
    "Por ahora: {command} Pero no lo guardes como preferencia.",
)
ONCE_COLLOQUIAL = (
    "¿Puedes {request}? Solo esta vez.",
    "Temporalmente: {command} No lo recuerdes.",
)
UNCOVERED = ("{command}",)
UNCOVERED_COLLOQUIAL = ("¿Podrías {request}?", "{command_bare}, por favor.")
OVERRIDE = ("{command}", "{Scene}: se acabó. {command}")
OVERRIDE_COLLOQUIAL = ("¿Podrías {request}?", "{command_bare} ahora mismo.")

RESPONSES = {
    "add": "Vale, lo recordaré: {content}",
    "update": "Actualizado: {content}",
    "delete": "Olvidado: {content}",
    "use": "Hecho, como te gusta.",
    "refuse": "Lo siento, solo recuerdo preferencias de los dispositivos.",
    "execute": "Hecho.",
}

PHONE = "6{a[1]}{a[2]} {b} {c[0]}{c[1]}{c[2]}"
"""A Spanish mobile number: nine digits (the draw's last one left out)."""
CARD = "{0} {1} {2} {3}"
EMAIL_NAMES = ("lucia", "pablo", "sara", "dani")
WIFI_WORDS = ("girasol", "olivo", "tigre")
SENSITIVE = (
    "Recuerda mi número de teléfono: {phone}.",
    "Ten en cuenta que mi número de móvil es {phone}.",
    "A partir de ahora, recuerda que mi correo es {email}{d2}@ejemplo.es.",
    "Apunta que el número de mi tarjeta es {card}, recuérdalo.",
    "Recuerda que la contraseña del wifi {of_name} es {wifi}{d4}.",
    "¿Puedes recordar el PIN de la puerta? Es {pin}.",
    "Eh, recuerda mi número de pasaporte, es PA{passport}.",
    "Oye, guárdame esto: el número de mi madre es {phone}.",
)
MONTHS = ("enero", "marzo", "mayo", "julio", "septiembre", "noviembre")
ALLERGENS = ("a los gatos", "a los cacahuetes", "al polen", "al marisco")
TEAMS = ("el Betis", "el Atlético", "el Valencia")
DOGS = ("Toby", "Luna", "Rocky", "Canela")
WEEKDAYS = ("lunes", "martes", "viernes")
WIVES = ("Lucía", "Carmen", "Elena", "Marta")
CHITCHAT = (
    "Recuerda que el cumpleaños de mi hermana es el {day} de {month}.",
    "Por favor, recuerda que soy alérgico {allergen}.",
    "Ten en cuenta que mi equipo favorito es {team}.",
    "A partir de ahora, recuerda que mi perro se llama {dog}.",
    "Recuerda que prefiero el té al café.",
    "Eh, recuerda que tengo cita con el dentista el {weekday} que viene.",
    "Para que lo sepas, soy vegetariano. Recuérdalo, ¿vale?",
    "Recuerda que mi mujer se llama {wife}.",
)
