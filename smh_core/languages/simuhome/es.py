"""Spanish wording of the ``simuhome`` suite (Spain, tuteo, as people talk to a home
assistant), with the lists of :mod:`.en` and as many phrasings in each. A device is named with
its article and its room's "in" form (``la Lavadora 1 en el cuarto de la caldera``), never
after ``de``/``a``, which would contract the article; object pronouns agree with the noun
(``ponla`` for a ``Luz regulable``, ``ponlo`` for an ``Aire acondicionado``). Numbers the Spanish
way: decimal comma (``21,5 °C``), ``45 %`` with a space, the 24-hour clock (``a las 15:40``).
"""

from __future__ import annotations

from datetime import datetime

from smh_core.languages.names.es import ROOMS, the

from . import forms_named

VARIABLES = {
    "temperature": ("la temperatura", "°C"),
    "humidity": ("la humedad", "%"),
    "illuminance": ("la luz", "lux"),
    "pm25": ("el nivel de PM2,5", "µg/m³"),
    "pm10": ("el nivel de PM10", "µg/m³"),
}
_LABELS = {  # kind -> (name with article, "no such", object pronoun)
    "dimmable_light": ("la Luz regulable", "ninguna luz regulable", "la"),
    "fan": ("el Ventilador", "ningún ventilador", "lo"),
    "air_purifier": ("el Purificador", "ningún purificador de aire", "lo"),
    "humidifier": ("el Humidificador", "ningún humidificador", "lo"),
    "dehumidifier": ("el Deshumidificador", "ningún deshumidificador", "lo"),
    "air_conditioner": ("el Aire acondicionado", "ningún aire acondicionado", "lo"),
    "on_off_light": ("la Luz", "ninguna luz", "la"),
}


def room(name: str) -> dict[str, str]:
    return forms_named(ROOMS, name)


def device(name: str, room_name: str) -> str:
    """A device with its article, then where it is (``el Ventilador 1 en el despacho``)."""
    return f"{the(name)} {room(room_name)['room_in']}"


def device_subject(name: str, room_name: str) -> str:
    return device(name, room_name)


def label(kind: str) -> dict[str, str]:
    the_label, none, it = _LABELS[kind]
    return {"the_label": the_label, "no_label": none, "it": it}


def number(value: float) -> str:
    return f"{value:g}".replace(".", ",")


def clock(t: datetime) -> str:
    return f"{t.hour}:{t.minute:02d}"


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


# QT1
NO_DEVICE_REASON = "no hay {no_label} {room_in}"
QT1_MISSING = (
    "¿A qué velocidad va {the_label} 1 {room_in}?",
    "¿Qué ID de fabricante tiene {the_label} {room_in}?",
    "¿Está en marcha {the_label} 1 {room_in}?",
)
QT1_MISSING_SORRY = "Lo siento, no hay {no_label} {room_in}, así que no te lo puedo decir."
QT1_ASK = (
    "Voy a ponerme a cocinar, ¿cómo está {words} {room_in} ahora mismo?",
    "¿Cuál es {words} {room_in}?",
    "¿Me miras {words} {room_in}? Quiero saber si se está a gusto.",
)
QT1_ANSWER = "{words} {room_in} es de {value} {unit}."

# QT2
COMPLAINTS = {
    "humidifier": (
        "el ambiente {room_in} está súper seco, tengo las manos tirantes",
        "me pica la garganta, el aire {room_in} está sequísimo",
    ),
    "dehumidifier": (
        "{room_in} hay mucha humedad, todo está pegajoso",
        "hace un bochorno horrible {room_in}, parece que todo está mojado",
    ),
    "air_purifier": (
        "{room_in} hay mucho polvo, me pican los ojos",
        "el aire {room_in} está cargado de polvo, cuesta respirar",
    ),
    "air_conditioner": ("{room_in} parece una sauna", "hace muchísimo calor {room_in}"),
}
FIX = {
    "humidifier": "humidificar el aire {room_in} más rápido",
    "dehumidifier": "quitar la humedad {room_in} más rápido",
    "air_purifier": "limpiar el aire {room_in} más rápido",
    "air_conditioner": "bajar la temperatura {room_in} más rápido",
}
AT_LIMIT_REASON = "{device} ya funciona a máxima potencia"
AT_LIMIT_SORRY = "Lo siento, {device} ya funciona a máxima potencia, así que no puedo {fix}."
NO_HELPER_REASON = "no hay {no_label} {room_in}, así que {words} no se puede cambiar"
NO_HELPER_SORRY = "Lo siento, no hay {no_label} {room_in}, así que no puedo cambiar {words}."
TURNED_ON = "He encendido {device}."

# QT3
QT3_MISSING = (
    "Enciende {the_label} 1 {room_in} y pon{it} al 80 por ciento.",
    "Enciende {the_label} 1 {room_in}, que esta mañana el ambiente está un poco cargado.",
)
QT3_MISSING_SORRY = "Lo siento, no hay {no_label} {room_in}, así que no puedo hacerlo."
LEVEL = ("enciende {device} y ponla al nivel {level}", "pon {device} al nivel {level}")
"""Dimmable lights (``la Luz regulable``: ``ponla``)."""
FAN = (
    "enciende {device} y pon la velocidad al {pct} por ciento",
    "pon en marcha {device} al {pct} %",
)
MODES = {3: "frío", 4: "calor"}
AC = (
    "enciende {device}, ponlo en modo {mode} y la velocidad al {pct} por ciento",
    "pon en marcha {device} en modo {mode} con el ventilador al {pct} %",
)
"""Air conditioners (``el Aire acondicionado``: ``ponlo``)."""
TURN_ON = "enciende {device}"
TURN_OFF = "apaga {device}"
QT3_OPENINGS = ("Por favor, ", "Oye, ", "")
AND = " y "
END = "."
DONE = "Hecho."

# QT4
SCHEDULED = "Programado para las {clock}."
WRONG_CLOCK = "Son las {claimed}, ¿no? Dentro de {minutes} minutos, a las {said}, {words}."
WRONG_CLOCK_REASON = "la hora que dice no coincide con la del reloj"
WRONG_CLOCK_SORRY = (
    "Lo siento, en realidad son las {now}, así que dentro de {minutes} minutos no serán las "
    "{said}. ¿A qué hora te refieres?"
)
LATER = (
    "Dentro de {minutes} minutos, {words}.",
    "{words} dentro de {minutes} minutos.",
    "Vuelvo enseguida: {words} dentro de {minutes} minutos.",
)
AFTER = (
    "En cuanto termine {app}, {words}.",
    "{delay} minutos después de que termine {app}, {words}.",
)
WRONG_FINISH = (
    "Creo que {app} termina a las {finish}, así que {before} minutos antes, a las {at}, {words}."
)
WRONG_FINISH_REASON = "la hora de fin que supone es incorrecta"
WRONG_FINISH_SORRY = (
    "Lo siento, no cuadra: {app} termina en realidad a las {real}, no a las {finish}."
)
DEADLINE = (
    "Vienen invitados dentro de poco: asegúrate de que {first} y {second} hayan terminado antes "
    "de las {deadline}."
)
DEADLINE_REASON = "el primer aparato por sí solo acaba después de la hora límite"
DEADLINE_SORRY = "Lo siento, es imposible: solo {first} ya necesita hasta las {until}."
THEN = (
    "Cuando termine {first}, pon en marcha {second}{extra}.",
    "Cuando termine {first}, espera {wait} minutos y luego pon en marcha {second}{extra}.",
)
DRYNESS = " con el nivel de secado {level}"
