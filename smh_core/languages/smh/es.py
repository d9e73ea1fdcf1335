"""The ``smh`` suite in Spanish (Spain): tú, as a household talks to its assistant; opening
``¿``; a device named with its article and the contractions ``del``/``al`` (``el brillo de la Luz
del salón``); decimal comma, a space before ``%``."""

from __future__ import annotations

import sys

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
    "heat": "calor", "cool": "frío", "auto": "automático", "dry": "deshumidificación",
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
