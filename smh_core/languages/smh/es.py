"""The ``smh`` suite in Spanish (Spain): tú, as a household talks to its assistant; opening
``¿``; a device named with its article and the contractions ``del``/``al`` (``el brillo de la Luz
del salón``); decimal comma, a space before ``%``."""

from __future__ import annotations

import sys
from typing import Any

from smh_core.languages.names import es as NAMES

from . import render

DONE = "Hecho."
FILLERS = ("eh", "em", "mmm", "este", "o sea", "pues")
SET_CLEAR = (
    "Pon {attr} {of_dev} en {val}.",
    "Por favor, ajusta {attr} {of_dev} a {val}.",
    "Cambia {attr} {of_dev} a {val}.",
)
SET_COLLOQUIAL = (
    "¿Puedes poner {attr} {of_dev} en {val}?",
    "Oye, déjame {attr} {of_dev} en {val}, ¿vale?",
    "Quiero {attr} {of_dev} en {val}, gracias.",
    "¿Me pones {attr} {of_dev} a {val}?",
)
SET_NOISY_DECOY = (
    "{F}, pon {decoy}… no, espera, {dev}, {attr} en {val}.",
    "Pon {decoy}, perdón, quiero decir {dev}, {f}, {attr} en {val}.",
)
SET_NOISY = "{F}, {f}, {dev}… {attr} en {val}, {attr} en {val}, por favor."
SWITCH_CLEAR = {
    "on": ("Enciende {dev}.", "Activa {dev}."),
    "off": ("Apaga {dev}.", "Desactiva {dev}."),
}
SWITCH_COLLOQUIAL = {
    "on": ("¿Puedes encender {dev}?", "Venga, pon en marcha {dev}.", "Enciéndeme {dev}, porfa."),
    "off": ("¿Puedes apagar {dev}?", "Apaga {dev}, anda.", "Apágame {dev}, porfa."),
}
SWITCH_NOISY_DECOY = {
    "on": "{F}, enciende {decoy}, no, no, {dev}.",
    "off": "{F}, apaga {decoy}, no, no, {dev}.",
}
SWITCH_NOISY = {
    "on": "{F}… enciende, {f}, enciende {dev}.",
    "off": "{F}… apaga, {f}, apaga {dev}.",
}
STATUS = (
    "¿Cuál es {attr} {of_dev} ahora mismo?",
    "Dime cómo está {attr} {of_dev}.",
    "¿Cómo está {attr} {of_dev} en este momento?",
)
STATUS_ANSWER = "{attr} {of_dev} está en {value}."
QUANTITY_ROOM = ("¿{how_many} {kinds} hay {room_in}?", "Cuéntame {the_kinds} que hay {room_in}.")
QUANTITY_ON = (
    "¿{how_many} {kinds} están {on_adj} ahora mismo?",
    "¿{how_many} {kinds} hay {on_adj} en este momento?",
)
QUANTITY_ANSWER = "Hay {n}."
ALIASES = ("{kind} {room_of}", "{my_kind}", "{kind} junto a la ventana", "{big_kind}")
DECIMAL = ","
ON_OFF = ("activado", "desactivado")
QUOTE = "«{}»"
UNITS = {
    "Celsius": "{n} grados",
    "percentage": "{n} %",
    "Kelvin": "{n} K",
    "second": "{n} segundos",
    "liter": "{n} litros",
    "degree": "{n} grados",
    "lux": "{n} lux",
}
ATTRS = {
    "ac_mode": ("el modo", "el modo"),
    "alarm_volume": ("el volumen de la alarma", "el volumen de la alarma"),
    "alias": ("el nombre", "el nombre"),
    "battery_level": ("el nivel de batería", "el nivel de batería"),
    "breathing_light_enabled": ("la luz pulsante", "la luz pulsante"),
    "brightness": ("el brillo", "el brillo"),
    "clean_mode": ("el modo de limpieza", "el modo de limpieza"),
    "color": ("el color", "el color"),
    "color_mode": ("el modo de color", "el modo de color"),
    "color_temperature": ("la temperatura de color", "la temperatura de color"),
    "current_direction": ("el sentido de giro", "el sentido de giro"),
    "current_humidity": ("la humedad actual", "la humedad actual"),
    "current_temperature": ("la temperatura actual", "la temperatura actual"),
    "current_water_temperature": ("la temperatura actual del agua", "la temperatura actual del agua"),
    "defend_enabled": ("la alarma antirrobo", "la alarma antirrobo"),
    "drying_enabled": ("el secado", "el secado"),
    "effect": ("el efecto de luz", "el efecto de luz"),
    "fan_level": ("el nivel del ventilador", "el nivel del ventilador"),
    "fan_speed": ("la velocidad del ventilador", "la velocidad del ventilador"),
    "favorite_level": ("el nivel favorito", "el nivel favorito"),
    "filter_life": ("la vida útil del filtro", "la vida útil del filtro"),
    "human_detected": ("la detección de presencia", "la detección de presencia"),
    "illuminance": ("la luminosidad", "la luminosidad"),
    "intensity": ("la intensidad", "la intensidad"),
    "media_name": ("el título", "el título"),
    "media_track": ("el número de pista", "el número de pista"),
    "no_move_duration": ("el tiempo sin movimiento", "el tiempo sin movimiento"),
    "oscillation_enabled": ("la oscilación", "la oscilación"),
    "pm25": ("el nivel de partículas finas", "el nivel de partículas finas"),
    "position": ("la posición", "la posición"),
    "preset_mode": ("el modo preestablecido", "el modo preestablecido"),
    "remaining_running_time": ("el tiempo de funcionamiento restante", "el tiempo de funcionamiento restante"),
    "remaining_time": ("el tiempo restante", "el tiempo restante"),
    "sleep_state": ("el estado de sueño", "el estado de sueño"),
    "speed_level": ("el nivel de velocidad", "el nivel de velocidad"),
    "state": ("el estado", "el estado"),
    "suction": ("la potencia de aspiración", "la potencia de aspiración"),
    "swing_enabled": ("la oscilación de las lamas", "la oscilación de las lamas"),
    "target_cooking_time": ("el tiempo de cocción", "el tiempo de cocción"),
    "target_humidity": ("la humedad deseada", "la humedad deseada"),
    "target_temperature": ("la temperatura deseada", "la temperatura deseada"),
    "target_water_quantity": ("la cantidad de agua", "la cantidad de agua"),
    "target_water_temperature": ("la temperatura del agua", "la temperatura del agua"),
    "tilt_angle": ("el ángulo de inclinación", "el ángulo de inclinación"),
    "volume_level": ("el volumen", "el volumen"),
    "volume_muted_enabled": ("el silencio", "el silencio"),
    "water_level": ("el nivel de agua", "el nivel de agua"),
    "water_tank_full": ("el aviso de depósito lleno", "el aviso de depósito lleno"),
    "work_mode": ("el modo de funcionamiento", "el modo de funcionamiento"),
    "work_state": ("el estado de funcionamiento", "el estado de funcionamiento"),
}  # fmt: skip
"""Per attribute (the locator's last part): its name with the article (Spanish has one form)."""
VALUES = {
    "heat": "calor", "cool": "frío", "auto": "automático", "heat_cool": "calor y frío", "dry": "deshumidificación",
    "fan_only": "solo ventilación", "sweep": "aspirar", "mop": "fregar",
    "sweep_and_mop": "aspirar y fregar", "color": "color", "color_temperature": "luz blanca",
    "forward": "hacia delante", "reverse": "hacia atrás", "static": "fijo",
    "breathing": "respiración", "rainbow": "arcoíris", "flowing": "fluido",
    "music_sync": "al ritmo de la música", "low": "bajo", "medium": "medio", "high": "alto",
    "normal": "normal", "natural": "brisa natural", "sleep": "descanso", "awake": "despierto",
    "fall_asleep": "conciliando el sueño", "deep_sleep": "sueño profundo", "on": "encendido",
    "off": "apagado", "standby": "en espera", "cooking": "cocinando", "paused": "en pausa",
    "idle": "inactivo", "cleaning": "limpiando", "returning": "volviendo a la base",
    "docked": "en la base", "locked": "cerrado con llave", "unlocked": "abierto",
    "charging": "cargando", "yes": "sí", "no": "no", "favorite": "favorito", "eco": "ecológico",
    "quick_heat": "calentamiento rápido", "microwave": "microondas", "steam": "vapor",
    "bake": "horno", "steam_bake": "horno con vapor", "reheating": "recalentar",
    "defrost": "descongelar", "continuous": "continuo", "dry_clothes": "secado de ropa",
    "standard": "estándar", "quick": "rápido", "cotton": "algodón", "wool": "lana",
    "synthetic": "sintéticos", "playing": "reproduciendo", "washing": "lavando",
    "rinsing": "aclarando", "spinning": "centrifugando", "drying": "secando",
    "done": "terminado", "heating": "calentando", "keep_warm": "mantener caliente",
}  # fmt: skip
"""Per named value of an attribute (a mode, a state): how a Spanish speaker says it."""
SUBCATS = {
    "ac_gateway": ("pasarela de climatización", "pasarelas de climatización", "f"),
    "air_cube": ("cubo de clima", "cubos de clima", "m"),
    "air_purifier": ("purificador de aire", "purificadores de aire", "m"),
    "blind": ("persiana", "persianas", "f"),
    "builtin_microwave_steam_oven": ("horno de vapor", "hornos de vapor", "m"),
    "climate_sensor": ("sensor de clima", "sensores de clima", "m"),
    "color_light": ("luz de color", "luces de color", "f"),
    "color_temperature_light": ("luz blanca regulable", "luces blancas regulables", "f"),
    "compound_washer": ("lavasecadora", "lavasecadoras", "f"),
    "curtain": ("cortina", "cortinas", "f"),
    "dehumidifier": ("deshumidificador", "deshumidificadores", "m"),
    "electric_water_heater": ("termo", "termos", "m"),
    "fan_light": ("ventilador de techo", "ventiladores de techo", "m"),
    "floor_ac": ("aire acondicionado portátil", "aires acondicionados portátiles", "m"),
    "human_sensor": ("sensor de movimiento", "sensores de movimiento", "m"),
    "humidifier": ("humidificador", "humidificadores", "m"),
    "light": ("luz", "luces", "f"),
    "light_strip": ("tira led", "tiras led", "f"),
    "robot_cleaner": ("robot friegasuelos", "robots friegasuelos", "m"),
    "smart_fan": ("ventilador", "ventiladores", "m"),
    "smart_lock": ("cerradura", "cerraduras", "f"),
    "smart_screen": ("pantalla inteligente", "pantallas inteligentes", "f"),
    "universal_speaker": ("altavoz", "altavoces", "m"),
    "vacuum_cleaner": ("aspiradora", "aspiradoras", "f"),
}
"""Per kind of device of the home model: the noun, its plural, its gender."""


def _contract(text: str) -> str:
    """Spanish contractions: ``de el`` is ``del``, ``a el`` is ``al``."""
    return text.replace("de el ", "del ", 1).replace("a el ", "al ", 1)


def device_parts(name: str) -> dict[str, str]:
    """A device's name as the templates use it: with its article, bare, after "de" and "a"."""
    dev = NAMES.the(name)
    return {
        "dev": dev,
        "dev_nom": dev,
        "Dev": name,
        "name": name,
        "of_dev": _contract(f"de {dev}"),
        "at_dev": _contract(f"a {dev}"),
    }


def kind_parts(sub: str) -> dict[str, str]:
    """A kind of device as the templates use it (plural for counting, singular for names)."""
    one, many, gender = SUBCATS[sub]
    f = gender == "f"
    return {
        "kind": one,
        "kinds": many,
        "how_many": "cuántas" if f else "cuántos",
        "the_kinds": f"{'las' if f else 'los'} {many}",
        "on_adj": "encendidas" if f else "encendidos",
        "my_kind": f"mi {one}",
        "big_kind": f"{'la' if f else 'el'} {one} grande",
    }


# ---------------------------------------------------------------------------------- scheduling
SCHEDULED = "Hecho, ya está programado."
TONIGHT = ("Esta noche a las {clock}", "A las {clock} de esta noche", "Hoy a las {clock}")
TOMORROW = ("Mañana a las {clock}", "A las {clock} de mañana")
DAILY = ("Todos los días a las {clock}", "Cada día a las {clock}", "A diario a las {clock}")
WEEKDAYS = ("Entre semana a las {clock}", "De lunes a viernes a las {clock}")
WEEKEND = ("Los fines de semana a las {clock}", "Cada sábado y domingo a las {clock}")
NO_MOVE = (
    "Cuando no haya movimiento {room_in} durante {minutes} minutos",
    "En cuanto nadie se haya movido {room_in} en {minutes} minutos",
)
HOT = (
    "Cuando {room_in} se superen los {t} grados",
    "Si la temperatura {room_of} pasa de {t} grados",
)
COLD = "Cuando la temperatura {room_of} baje de {t} grados"
HUMID = (
    "Cuando la humedad {room_of} suba por encima del {h} %",
    "Si {room_in} hay más de un {h} % de humedad",
)
DUSTY = "Cuando las partículas finas {room_in} pasen de {level}"
TURNS = {
    "on": ("Cuando se encienda {dev}", "Cada vez que alguien encienda {dev}"),
    "off": ("Cuando se apague {dev}", "Cada vez que alguien apague {dev}"),
}
BECOMES = ("Cuando {dev_nom} pase a «{shown}»", "En cuanto el estado {of_dev} sea «{shown}»")
IF_HOT = (
    "si {room_in} sigue haciendo más de {t} grados",
    "pero solo si la temperatura {room_of} pasa de {t} grados",
)
IF_HUMID = "si la humedad {room_of} está por encima del {h} %"
IF_STATE = "si el estado {of_dev} es «{shown}»"
WHEN_IF = "{when}, {cond}"
RULE = "{when}, {actions}."
SWITCH_ACTION = {"on": "enciende {dev}", "off": "apaga {dev}"}
SET_ACTION = "pon {attr} {of_dev} en {val}"
COMMA, AND = ", ", " y "


def clock(hour: int, minute: int) -> str:
    """A time as written in Spain, on the 24-hour clock (``19:00``, ``6:45``)."""
    return f"{hour}:{minute:02d}"


# ------------------------------------------------------------------------------------- memory
PHRASES = (
    (
        "sleep",
        ("Hora de dormir.", "Me voy a la cama.", "A dormir, por favor.", "Vale, modo noche."),
    ),
    ("movie", ("¡Hora de peli!", "Vamos a ver una película.", "Prepáralo todo para ver una peli.")),
    ("reading", ("Voy a leer un rato.", "Hora de leer.", "Ponme todo listo para leer, por favor.")),
    ("wake-up", ("¡Buenos días!", "Ya me he levantado.", "Rutina de mañana, por favor.")),
    ("guests", ("Vienen invitados.", "Tenemos visita enseguida, deja la casa lista.")),
    ("work", ("Hora de concentrarme en el trabajo.", "Empiezo a trabajar ya.")),
)
SCENES = {
    "sleep": "hora de dormir",
    "movie": "hora de peli",
    "reading": "hora de leer",
    "wake-up": "hora de levantarse",
    "guests": "hay visita",
    "work": "hora de trabajar",
}
MEMORY_TARGET = "Cuando digo «{scene}», me gusta {desc}."
MEMORY_OTHER = "Para «{scene}», quiero {desc}."
DESCRIBE_SWITCH = {"on": "que se encienda {dev}", "off": "que se apague {dev}"}
DESCRIBE_SET = "tener {attr} {of_dev} en {val}"
LONG_DONE = "Hecho, como a ti te gusta."
SAME = (
    "Haz lo mismo con {dev}.",
    "Ahora {dev} también, con el mismo ajuste.",
    "Pon {dev} igual que antes.",
    "Lo mismo para {dev}, por favor.",
    "Y {dev}, que quede igual.",
)
HISTORY_USER = "Pon {attr} {of_dev} en {val}."
HISTORY_DONE = "Hecho, {attr} {of_dev} está ahora en {val}."
SAME_DONE = "Listo, {dev} ya está igual."


# ------------------------------------------- compositional control (issue 41: multi_device, batch)
# One request over several devices. Each phrasing is a pair: the imperative, tuteando ("enciende
# {obj}"), and the infinitive a question frame needs ("¿Podrías encender {obj}?"); {obj} is a
# device or a group with its article ("la lámpara del pasillo", "todas las luces del baño",
# "esas luces"), never after "a" or "de" (no contraction to make). As many phrasings per
# operation as English has (the draws are the same).
def _on_off() -> dict[Any, tuple[tuple[str, str], ...]]:
    return {
        ("state", "on"): (
            ("enciende {obj}", "encender {obj}"),
            ("pon en marcha {obj}", "poner en marcha {obj}"),
            ("activa {obj}", "activar {obj}"),
        ),
        ("state", "off"): (
            ("apaga {obj}", "apagar {obj}"),
            ("desactiva {obj}", "desactivar {obj}"),
            ("desconecta {obj}", "desconectar {obj}"),
        ),
    }


COMP_OPS: dict[str, dict[Any, tuple[Any, ...]]] = {
    "lights": {
        **_on_off(),
        "brightness": (
            ("pon {obj} al {v} % de brillo", "poner {obj} al {v} % de brillo"),
            ("ajusta {obj} al {v} %", "ajustar {obj} al {v} %"),
            ("deja {obj} al {v} % de brillo", "dejar {obj} al {v} % de brillo"),
        ),
        ("color_temperature", 2700): (
            ("pon {obj} en blanco cálido (2700 K)", "poner {obj} en blanco cálido (2700 K)"),
            ("cambia {obj} al blanco más cálido", "cambiar {obj} al blanco más cálido"),
        ),
        ("color_temperature", 6500): (
            ("pon {obj} en luz de día fría (6500 K)", "poner {obj} en luz de día fría (6500 K)"),
            ("cambia {obj} al blanco más frío", "cambiar {obj} al blanco más frío"),
        ),
        ("color_temperature", 4000): (
            ("pon {obj} en blanco neutro de 4000 K", "poner {obj} en blanco neutro de 4000 K"),
        ),
    },
    "fans": {
        **_on_off(),
        "speed_level": (
            ("pon {obj} a velocidad {v}", "poner {obj} a velocidad {v}"),
            ("cambia {obj} a velocidad {v}", "cambiar {obj} a velocidad {v}"),
        ),
        "preset_mode": (
            ("pon {obj} en modo {v}", "poner {obj} en modo {v}"),
            ("cambia {obj} al modo {v}", "cambiar {obj} al modo {v}"),
        ),
        ("oscillation_enabled", True): (
            ("activa la oscilación en {obj}", "activar la oscilación en {obj}"),
            ("pon {obj} a oscilar", "poner {obj} a oscilar"),
        ),
        ("oscillation_enabled", False): (
            ("desactiva la oscilación en {obj}", "desactivar la oscilación en {obj}"),
            ("quita la oscilación en {obj}", "quitar la oscilación en {obj}"),
        ),
    },
    "acs": {
        **_on_off(),
        "ac_mode": (
            ("pon {obj} en modo {v}", "poner {obj} en modo {v}"),
            ("cambia {obj} al modo {v}", "cambiar {obj} al modo {v}"),
        ),
        "target_temperature": (
            ("pon {obj} a {v} grados", "poner {obj} a {v} grados"),
            ("ajusta {obj} a {v} grados", "ajustar {obj} a {v} grados"),
        ),
    },
    "covers": {
        ("position", 0): (
            ("cierra {obj}", "cerrar {obj}"),
            ("baja del todo {obj}", "bajar del todo {obj}"),
            ("cierra por completo {obj}", "cerrar por completo {obj}"),
        ),
        ("position", 100): (
            ("abre {obj}", "abrir {obj}"),
            ("abre del todo {obj}", "abrir del todo {obj}"),
            ("abre por completo {obj}", "abrir por completo {obj}"),
        ),
        ("position", 50): (
            ("abre {obj} hasta la mitad", "abrir {obj} hasta la mitad"),
            ("abre {obj} a medias", "abrir {obj} a medias"),
        ),
        "position": (
            ("pon {obj} al {v} % de apertura", "poner {obj} al {v} % de apertura"),
            ("abre {obj} al {v} %", "abrir {obj} al {v} %"),
        ),
    },
    "media": {
        **_on_off(),
        "volume_level": (
            ("pon {obj} a volumen {v}", "poner {obj} a volumen {v}"),
            ("ajusta {obj} al volumen {v}", "ajustar {obj} al volumen {v}"),
        ),
        ("work_state", "paused"): (
            ("pausa {obj}", "pausar {obj}"),
            ("pon en pausa lo que suena en {obj}", "poner en pausa lo que suena en {obj}"),
        ),
        ("volume_muted_enabled", True): (("silencia {obj}", "silenciar {obj}"),),
    },
    "water_heaters": {
        **_on_off(),
        "target_water_temperature": (
            ("pon {obj} a {v} grados", "poner {obj} a {v} grados"),
            ("calienta {obj} a {v} grados", "calentar {obj} a {v} grados"),
        ),
        ("work_mode", "eco"): (
            ("pon {obj} en modo eco", "poner {obj} en modo eco"),
            ("cambia {obj} al modo eco", "cambiar {obj} al modo eco"),
        ),
    },
    "dehumidifiers": {
        **_on_off(),
        "target_humidity": (
            ("pon {obj} al {v} % de humedad", "poner {obj} al {v} % de humedad"),
            ("ajusta {obj} para llegar al {v} %", "ajustar {obj} para llegar al {v} %"),
        ),
    },
    "humidifiers": {
        **_on_off(),
        "target_humidity": (
            ("pon {obj} al {v} % de humedad", "poner {obj} al {v} % de humedad"),
            ("ajusta {obj} para llegar al {v} %", "ajustar {obj} para llegar al {v} %"),
        ),
    },
    "purifiers": {
        **_on_off(),
        "work_mode": (
            ("pon {obj} en modo {v}", "poner {obj} en modo {v}"),
            ("cambia {obj} al modo {v}", "cambiar {obj} al modo {v}"),
        ),
    },
}
"""Per kind of device the compositional requests name: its operations' phrasings, by
(attribute, value) or by attribute (with {v}, the value)."""
COMP_VALUES = {
    "fans": {"low": "baja", "medium": "media", "high": "alta", "normal": "normal",
             "natural": "brisa natural", "sleep": "sueño"},
    "acs": {"cool": "frío", "heat": "calor", "dry": "deshumidificación", "auto": "automático"},
    "purifiers": {"sleep": "sueño", "auto": "automático"},
}  # fmt: skip
"""Per kind: the named values its phrasings say ({v})."""
_COMP_KINDS = {
    "lights": (("luces", "lámparas"), "f", "cada luz"),
    "fans": (("ventiladores",), "m", "cada ventilador"),
    "acs": (("aires acondicionados", "aparatos de aire"), "m", "cada aire acondicionado"),
    "covers": (("cortinas y persianas", "persianas y cortinas"), "f", "cada cortina y cada persiana"),
    "media": (("altavoces y pantallas", "reproductores"), "m", "cada reproductor"),
    "water_heaters": (("termos",), "m", "cada termo"),
    "dehumidifiers": (("deshumidificadores",), "m", "cada deshumidificador"),
    "humidifiers": (("humidificadores",), "m", "cada humidificador"),
    "purifiers": (("purificadores de aire", "purificadores"), "m", "cada purificador"),
}  # fmt: skip
"""Per kind: its plurals (as many as English has), their gender and "every one"."""
COMP_ALL = (
    "{all} {kinds}{where}",
    "absolutamente {all} {kinds}{where}",
    "{every}{where}",
    "{each} {kinds}{where}",
)
COMP_THEM = "{those} {kinds}"
COMP_IN_ROOM = (" {room_of}", " {room_in}", " que hay {room_in}")
COMP_IN_HOME = ("", " de la casa", " de toda la casa", " de casa")
COMP_REQUEST = (
    "{imp}.",
    "Por favor, {imp}.",
    "¿Podrías {inf}?",
    "¿Me puedes {inf}?",
    "Hazme el favor de {inf}.",
)
COMP_THEN = "Primero {first}, luego {rest}."
COMP_ALSO = "{first}. Y también {rest}, por favor."
COMP_DONE = ("Hecho.", "Todo listo.", "Hecho, ya están actualizados.", "Vale, hecho.")
COMP_RANKS = {
    "lights": {
        "high": (
            ("la luz más brillante{where}", "las {n} {kinds} más brillantes{where}"),
            ("la luz{where} con más brillo", "las {n} {kinds}{where} con más brillo"),
        ),
        "low": (
            ("la luz más tenue{where}", "las {n} {kinds} más tenues{where}"),
            ("la luz{where} con menos brillo", "las {n} {kinds}{where} con menos brillo"),
        ),
    },
    "fans": {
        "high": (
            ("el ventilador más rápido{where}", "los {n} {kinds} más rápidos{where}"),
            ("el ventilador{where} con la velocidad más alta", "los {n} {kinds}{where} con la velocidad más alta"),
        ),
        "low": (
            ("el ventilador más lento{where}", "los {n} {kinds} más lentos{where}"),
            ("el ventilador{where} con la velocidad más baja", "los {n} {kinds}{where} con la velocidad más baja"),
        ),
    },
    "acs": {
        "high": (
            ("el aire acondicionado{where} con el ajuste más cálido", "los {n} {kinds}{where} con el ajuste más cálido"),
            ("el aire acondicionado{where} con la temperatura objetivo más alta", "los {n} {kinds}{where} con la temperatura objetivo más alta"),
        ),
        "low": (
            ("el aire acondicionado{where} con el ajuste más frío", "los {n} {kinds}{where} con el ajuste más frío"),
            ("el aire acondicionado{where} con la temperatura objetivo más baja", "los {n} {kinds}{where} con la temperatura objetivo más baja"),
        ),
    },
    "covers": {
        "high": (
            ("la cortina o persiana más abierta{where}", "las {n} {kinds} más abiertas{where}"),
            ("la cortina o persiana{where} con mayor apertura", "las {n} {kinds}{where} con mayor apertura"),
        ),
        "low": (
            ("la cortina o persiana más cerrada{where}", "las {n} {kinds} más cerradas{where}"),
            ("la cortina o persiana{where} con menor apertura", "las {n} {kinds}{where} con menor apertura"),
        ),
    },
    "media": {
        "high": (
            ("el reproductor más ruidoso{where}", "los {n} {kinds} más ruidosos{where}"),
            ("el reproductor{where} con el volumen más alto", "los {n} {kinds}{where} con el volumen más alto"),
        ),
        "low": (
            ("el reproductor más silencioso{where}", "los {n} {kinds} más silenciosos{where}"),
            ("el reproductor{where} con el volumen más bajo", "los {n} {kinds}{where} con el volumen más bajo"),
        ),
    },
    "water_heaters": {
        "high": (
            ("el termo más caliente{where}", "los {n} {kinds} más calientes{where}"),
            ("el termo{where} con el ajuste más caliente", "los {n} {kinds}{where} con el ajuste más caliente"),
        ),
        "low": (
            ("el termo menos caliente{where}", "los {n} {kinds} menos calientes{where}"),
            ("el termo{where} con el ajuste más bajo", "los {n} {kinds}{where} con el ajuste más bajo"),
        ),
    },
}  # fmt: skip
"""Per kind that can be ranked: the highest and the lowest, each phrasing for one device
(singular) and for {n} of them, the adjectives agreeing with the noun."""
COMP_NUMBERS = {2: "dos", 3: "tres"}
COMP_ONLY = "{imp}, solo {those} {n}."
_RUNNING_M = (
    "{kinds} que están funcionando",
    "{kinds} encendidos ahora",
    "{kinds} que siguen funcionando",
)
COMP_PREDS = {
    "lights": {
        ("brightness", ">"): ("{kinds} con el brillo por encima del {t} %", "{kinds} con más del {t} % de brillo", "{kinds} puestas a más del {t} %"),
        ("brightness", "<"): ("{kinds} con el brillo por debajo del {t} %", "{kinds} con menos del {t} % de brillo", "{kinds} puestas a menos del {t} %"),
        ("state", "=="): ("{kinds} encendidas", "{kinds} que siguen encendidas", "{kinds} encendidas ahora mismo"),
    },
    "fans": {
        ("speed_level", "=="): ("{kinds} en velocidad alta", "{kinds} que van a velocidad alta", "{kinds} puestos en velocidad alta"),
        ("preset_mode", "=="): ("{kinds} en modo sueño", "{kinds} que funcionan en modo sueño"),
        ("state", "=="): _RUNNING_M,
    },
    "acs": {
        ("ac_mode", "=="): ("{kinds} en modo calor", "{kinds} puestos a calentar"),
        ("target_temperature", "<"): ("{kinds} puestos por debajo de {t} grados", "{kinds} con la temperatura objetivo por debajo de {t} grados"),
        ("state", "=="): _RUNNING_M,
    },
    "covers": {
        ("position", ">"): ("{kinds} abiertas más de la mitad", "{kinds} que están más que medio abiertas"),
        ("position", "=="): ("{kinds} cerradas del todo", "{kinds} que están cerradas"),
    },
    "media": {
        ("volume_level", ">"): ("{kinds} con el volumen por encima de {t}", "{kinds} con un volumen mayor que {t}"),
        ("state", "=="): ("{kinds} encendidos", "{kinds} que siguen encendidos", "{kinds} encendidos ahora mismo"),
    },
    "water_heaters": {
        ("target_water_temperature", ">"): ("{kinds} puestos a más de {t} grados", "{kinds} que calientan a más de {t} grados"),
    },
}  # fmt: skip
"""Per kind with state predicates, by (attribute, comparison): the group that satisfies it, the
plural with its modifier ({t}: the threshold), adjectives agreeing with the noun."""
COMP_WHICH = ("{the} {x}", "{all} {x}", "absolutamente {all} {x}", "{each} {x}")
COMP_ROOM_SAID = ("{room}: {text}", "{room_in}, {text_low}")
COMP_COND = {
    "current_humidity": (" en las habitaciones con más del {t} % de humedad", " en cualquier habitación cuyo sensor marque más del {t} % de humedad", " en las habitaciones con una humedad superior al {t} %"),
    "current_temperature": (" en las habitaciones a más de {t} grados", " en cualquier habitación donde la temperatura pase de {t} grados", " en las habitaciones cuyo sensor marque más de {t} grados"),
    "human_detected": (" en las habitaciones donde se detecta movimiento", " en cualquier habitación donde alguien se esté moviendo", " en las habitaciones donde el sensor de movimiento ve a alguien"),
    "state": (" en las habitaciones con el aire acondicionado encendido", " en cualquier habitación con el aire puesto", " en las habitaciones donde está funcionando el aire acondicionado"),
}  # fmt: skip
"""Per room condition (the sensed attribute): the rooms that meet it ({t}: the threshold)."""
COMP_COND_SAID = ("{the} {kinds}{where}", "{where}, {imp}", "{all} {kinds}{where}", "{the} {kinds}")
"""The clause about such rooms: the group there, the rooms put first, all of the group there,
and the group alone (for the rooms put first)."""
COMP_EXCEPT = (
    "Excepto {room_in}, {clause}.",
    "{clause}, pero no toques nada {room_in}.",
    "{clause}, menos {room_in}.",
)
COMP_ALL_BUT = (
    "{all} {kinds} menos {the} {room_of}",
    "{the} {kinds} de toda la casa menos {room_in}",
    "{the} {kinds} de todas las habitaciones salvo {room_in}",
)
COMP_STOP = "."


def comp_kind(kind: str, noun: int) -> dict[str, str]:
    """A kind's words for a group request: its ``noun``-th plural and the words that agree with
    it ("todas las", "cada uno de los", "esos")."""
    kinds, gender, every = _COMP_KINDS[kind]
    f = gender == "f"
    return {
        "kinds": kinds[noun],
        "the": "las" if f else "los",
        "all": "todas las" if f else "todos los",
        "every": every,
        "each": "cada una de las" if f else "cada uno de los",
        "those": "esas" if f else "esos",
    }


def tidy(text: str) -> str:
    """Spanish needs no elision ({obj} never follows "a" or "de")."""
    return text


globals().update(render.interface(sys.modules[__name__]))  # the functions of .en


# ------------------------------------------------------ dialogue: multi-turn (issue 41, item 3)
# continuation, topic_shift: the previous turn (a request and what the assistant said), the next
# request about the same device, a new topic after a marker.
SHIFTS = (
    "",
    "",
    "Ah, otra cosa: ",
    "Cambiando de tema: ",
    "No tiene nada que ver, pero ",
    "Por cierto, ",
    "Vale, lo siguiente: ",
)
"""How a user marks a new topic (empty: none); the request goes on in lower case."""
SHIFT_LOWER = True
PARTS = {
    "fan": {"part": "el ventilador", "its_part": "su ventilador"},
    "light": {"part": "la luz", "its_part": "su luz"},
}
"""The fan and the light of a fan light, with the article and with "su"."""
PART_SWITCH = {
    "on": ("Enciende {part} {of_dev}.", "Activa {part} {of_dev}."),
    "off": ("Apaga {part} {of_dev}.", "Desactiva {part} {of_dev}."),
}
SAID_SWITCH = {
    "on": ("Hecho, ya encendí {dev}.", "Vale, he encendido {dev}."),
    "off": ("Hecho, ya apagué {dev}.", "Vale, he apagado {dev}."),
}
SAID_SET = (
    "Hecho, {attr} {of_dev} está ahora en {val}.",
    "Vale, he puesto {attr} {of_dev} en {val}.",
)
CONT_PART = {
    "on": ("Enciende también {its_part}.", "Y activa {its_part} también."),
    "off": ("Apaga también {its_part}.", "Y desactiva {its_part} también."),
}
CONT_SWITCH = {
    "on": ("Ahora enciénde{pro}.", "Vale, y ahora enciénde{pro}."),
    "off": ("Ahora apága{pro}.", "Vale, y ahora apága{pro}."),
}
"""Switching the same device again, named by the enclitic pronoun of its gender."""
CONT_ALIAS = ("Cámbiale también el nombre a {val}.", "Y ponle de nombre {val}.")
CONT_SET = (
    "Pon también {attr} en {val}.",
    "Ahora pon {attr} en {val}.",
    "Ya que estás, cambia {attr} a {val}.",
    "El mismo aparato: {attr} en {val}, por favor.",
    "Genial, y ahora pon {attr} en {val}.",
)


def pronoun_parts(name: str) -> dict[str, str]:
    """The object pronoun the device takes (apágalo, apágala), by its article."""
    article = NAMES.the(name).split(" ", 1)[0]
    return {"pro": {"la": "la", "las": "las", "los": "los"}.get(article, "lo")}


CORRECTION = (
    "Uy, quería decir {new_dev}. Deja {old_dev} como estaba.",
    "Perdona, me equivoqué: no {old_dev}, sino {new_dev}.",
)
"""Correcting the previous turn's device (the old one goes back as it was)."""
CORRECTION_ROOMS = (
    "No, {old_room_in} no, {new_room_in}.",
    "Espera, habitación equivocada: quería decir {new_dev}, no {old_dev}.",
    "No toques nada {old_room_in}; hazlo mejor con {new_dev}.",
)
"""When both are the same kind of device: the rooms tell them apart."""
CORRECTION_DONE = "Perdona: {old_dev} vuelve a estar como antes y ya he ajustado {new_dev}."

SAME_ROOM_TOO = {
    "on": (
        "Enciende también {dev}.",
        "Y {dev} también.",
        "{dev} de ahí también, por favor.",
        "¿Puedes encender también {dev}?",
    ),
    "off": (
        "Apaga también {dev}.",
        "Y {dev} también.",
        "{dev} de ahí también, por favor.",
        "¿Puedes apagar también {dev}?",
    ),
}
"""A device of the previous one's room, named by its kind only, switched the same way."""
SAME_ROOM_NOW = {
    "on": (
        "Ahora enciende {dev} de ahí.",
        "Y enciende {dev} de esa habitación.",
        "Además, en esa habitación, enciende {dev}, por favor.",
    ),
    "off": (
        "Ahora apaga {dev} de ahí.",
        "Y apaga {dev} de esa habitación.",
        "Además, en esa habitación, apaga {dev}, por favor.",
    ),
}
"""... switched the other way than the previous one."""
ANYTHING_ON = ("¿Queda algo encendido {room_in}?", "¿Qué está encendido ahora mismo {room_in}?")
ONLY_ON = ("Solo queda {dev}.", "Solo {dev}; todo lo demás ahí está apagado.")
THAT_ONE_OFF = (
    "Apaga eso.",
    "Vale, pues apága{pro}.",
    "Apágame eso, por favor.",
    "Entonces apága{pro}.",
)


globals().update(render.dialogue_interface(sys.modules[__name__]))


# ---------------------------------------------------- dialogue: ambiguous intent (issue 41, item 3)
# state_level, scene_level, slot_missing: a request the assistant must ask about, its question and
# the simulated user's reply. As many phrasings of each as English has (the draws are the same).
OPENERS = ("", "", "Uf, ", "Madre mía, ", "La verdad, ", "Oye, ")
"""How a complaint may open (empty: plainly); the complaint goes on in lower case."""
HERE = "aquí"
COMPLAINTS = {
    "bright": (
        "Hay demasiada luz {where}.",
        "El resplandor {where} me está matando los ojos.",
        "Me deslumbra todo {where}.",
    ),
    "cold": (
        "Hace un frío que pela {where}.",
        "Brr, qué frío hace {where}.",
        "Tengo frío {where}.",
    ),
    "dark": (
        "Está muy oscuro {where}.",
        "No veo nada {where}.",
        "¿Por qué está todo tan oscuro {where}?",
        "Esto parece una cueva {where}.",
    ),
    "dry": (
        "El aire está muy seco {where}.",
        "Tengo la garganta reseca {where}.",
        "Está todo secísimo {where}.",
    ),
    "hot": (
        "Parece una sauna {where}.",
        "Me estoy asando {where}.",
        "Estoy sudando a chorros {where}.",
        "Hace muchísimo calor {where}.",
    ),
    "humid": (
        "Hay un bochorno horrible {where}.",
        "Todo está húmedo y pegajoso {where}.",
        "Hay demasiada humedad {where}.",
    ),
    "loud": (
        "Hay demasiado ruido {where}.",
        "La música está a todo volumen {where}.",
        "No me oigo ni pensar {where}.",
    ),
    "stuffy": (
        "El ambiente está muy cargado {where}.",
        "El aire huele a cerrado {where}.",
        "Está tan cargado {where} que casi no puedo respirar.",
    ),
}
"""Per complaint: its phrasings ({where}: "en el despacho", or :data:`HERE`)."""
STATE_DONE = "Hecho, eso debería ayudar."
STATE_ASK = ("¿En qué habitación estás?", "¿Dónde estás ahora mismo?", "¿Qué habitación dices?")
STATE_REPLY = ("Estoy {room_in}.", "{room_in}.", "Aquí, {room_in}.")
AT = " {room_in}"
SCENE_PHRASES = {
    "dinner": ("¡La cena está lista{at}!", "Nos sentamos a comer{at}.", "Hora de cenar{at}."),
    "guests": (
        "Vienen amigos{at} dentro de un rato.",
        "Esta noche tenemos invitados{at}, prepáralo todo.",
        "¡Hora de fiesta{at}!",
    ),
    "movie": (
        "¡Noche de peli{at}!",
        "Vamos a ver una película{at}.",
        "Prepara el ambiente para una peli{at}, ¿vale?",
        "Voy a ver algo{at}, déjalo todo listo.",
    ),
    "reading": (
        "Voy a leer un rato{at}.",
        "Me apetece acurrucarme con un libro{at}.",
        "Quiero leer un poco{at}.",
    ),
    "rest": (
        "Voy a descansar un rato{at}.",
        "Hora de una siestecita{at}.",
        "No puedo más, me voy a tumbar un rato{at}.",
        "Voy a echar una cabezadita{at}.",
    ),
    "wakeup": (
        "¡Buenos días, ya me he levantado{at}!",
        "Acabo de levantarme{at}, buenos días.",
        "Me acabo de despertar{at}.",
    ),
    "workout": (
        "Hora de entrenar{at}.",
        "Voy a empezar a hacer ejercicio{at}.",
        "Vamos con el entrenamiento{at}.",
    ),
}
"""Per scene: its phrasings ({at}: " en el dormitorio" where the room is named, else nothing)."""
SCENE_DONE = "Todo listo, que lo disfrutes."
SCENE_ASK = ("¿En qué habitación vas a estar?", "Claro, ¿en qué habitación?", "¿Dónde lo preparo?")
SCENE_REPLY = ("{room_in}.", "{room_in}, por favor.", "Voy a estar {room_in}.")
VALUE_ALIAS = (
    "Ponle un nombre nuevo {at_dev}.",
    "Cámbiale el nombre {at_dev}.",
    "Quiero cambiar cómo se llama {dev}.",
)
VALUE_ALIAS_QUESTION = "¿Qué nombre le pongo?"
VALUE_ALIAS_REPLY = ("Ponle {val}.", "Que se llame {val}.")
VALUE_SET = (
    "Cambia {attr} {of_dev}.",
    "¿Puedes ajustar {attr} {of_dev}?",
    "Quiero configurar {attr} {of_dev}.",
    "Ajusta {attr} {of_dev}, por favor.",
)
VALUE_QUESTION = "¿A qué valor pongo {attr}?"
VALUE_REPLY = ("{val}.", "En {val}, por favor.", "Vamos con {val}.", "{val}, por favor.")
ROOM_SWITCH = {
    "on": ("Enciende {dev}.", "¿Puedes encender {dev}?", "Oye, enciende {dev}, por favor."),
    "off": ("Apaga {dev}.", "¿Puedes apagar {dev}?", "Oye, apaga {dev}, por favor."),
}
"""Switching a device named by its kind only ({dev}: "la Lámpara de techo"), which several rooms
have."""
ROOM_ASK = ("¿{dev} de qué habitación?", "Hay en varias habitaciones, ¿cuál quieres decir?")
ROOM_REPLY = ("{dev} {room_of}.", "{room_in}.", "Me refiero {at_dev} {room_of}.")
LIGHT_IN_ROOM = {
    "on": (
        "Enciende la luz {room_of}.",
        "Oye, la luz {room_of}, enciéndela.",
        "¿Me enciendes la luz {room_of}?",
    ),
    "off": (
        "Apaga la luz {room_of}.",
        "Oye, la luz {room_of}, apágala.",
        "¿Me apagas la luz {room_of}?",
    ),
}
"""Switching "the light" of a room that has several."""
LIGHT_WHICH = ("Hay {n} luces {room_in}, ¿cuál quieres decir?", "¿Cuál quieres decir?")
LIGHT_REPLY = ("{dev}.", "{dev}, por favor.")
OVEN = "el horno"
"""The oven, as the cooking requests name it."""
COOKING = {
    "defrost": ("descongelar el pollo", "descongelar las gambas congeladas"),
    "microwave": ("calentar el café", "calentar este bol de arroz"),
    "reheating": ("calentar la comida", "recalentar las sobras", "calentar la sopa"),
    "steam": ("hacer unas empanadillas al vapor", "hacer el pescado al vapor"),
}
"""Per cooking mode of the oven: the jobs a user asks it for (the infinitive)."""
COOK_TEXT = (
    "Usa {oven} para {task}.",
    "¿Puedes {task} en {oven}?",
    "Tengo que {task}, enciende {oven}.",
)
COOK_QUESTION = ("¿Durante cuánto tiempo?", "¿Cuánto tiempo lo pongo?")
COOK_REPLY = ("{d}.", "Más o menos {d}.", "Ponlo {d}.")
DURATIONS = {
    60: "un minuto",
    90: "minuto y medio",
    120: "dos minutos",
    180: "tres minutos",
    300: "cinco minutos",
    600: "diez minutos",
    900: "un cuarto de hora",
    1200: "veinte minutos",
    1800: "media hora",
}
"""The cooking times asked for, as said."""
HEATER = "el termo"
"""The only water heater, as a household calls it."""
HEAT_TEXT = (
    "Calienta agua con {heater} para ducharme.",
    "Pon {heater} a calentar.",
    "Luego quiero darme un baño, enciende {heater}.",
)
HEAT_QUESTION = ("¿A qué temperatura la quieres?", "¿Cómo de caliente la quieres?")
HEAT_REPLY = ("A {t} grados.", "Ponla a {t} grados.", "Unos {t}.")


globals().update(render.ambiguous_interface(sys.modules[__name__]))
