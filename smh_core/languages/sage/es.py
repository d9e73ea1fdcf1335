"""Spanish wording of the ``sage`` suite, written for speakers in Spain (tú, as people talk to a
voice assistant at home), with the lists of :mod:`.en` and as many phrasings in each.

People in Spain say "la tele" (never "la TV") and "la nevera"; devices are named by where they
are (``la tele del aparador``, ``la de al lado de la planta``, ``la luz de la mesilla``).
Numbers are written the Spanish way: ``40 %`` with a space, ``-18,4 °C`` with a decimal comma.
The stored preferences speak of "el usuario", as an assistant's notes do.
"""

from __future__ import annotations

# ----------------------------------------------------------------------------- homes
ROOMS = {
    "living_room": "Salón",
    "bedroom": "Dormitorio",
    "dining_room": "Comedor",
    "kitchen": "Cocina",
    "hallway": "Pasillo",
}
NAMES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": ("Tele Samsung", "Tele 1", "Tele del salón"),
    "tv_plant": ("Tele LG", "Tele 2", "Segunda tele"),
    "living_light": ("Luz del salón", "Plafón", "Luz principal"),
    "fireplace_light": ("Luz de la chimenea", "Lámpara de la repisa", "Lámpara de la chimenea"),
    "living_blind": ("Persiana del salón", "Persiana de la ventana", "Persianas"),
    "bed_lamp": ("Lámpara de pie", "Lámpara de lectura", "Lámpara"),
    "bedroom_ceiling": ("Luz del dormitorio", "Plafón", "Luz principal"),
    "bedroom_curtain": ("Cortinas del dormitorio", "Cortinas", "Visillos"),
    "dining_pendant": ("Luz del comedor", "Lámpara colgante", "Araña"),
    "dining_wall": ("Apliques", "Apliques de pared", "Aplique del comedor"),
    "dining_blind": ("Persiana del comedor", "Persiana", "Persiana de la terraza"),
    "kitchen_light": ("Luz de la cocina", "Plafón de la cocina", "Luz de la encimera"),
    "dishwasher": ("Lavavajillas", "Lavavajillas Bosch", "Lavavajillas"),
    "fridge": ("Nevera", "Frigorífico", "Nevera de la cocina"),
    "freezer": ("Congelador", "Arcón congelador", "Congelador vertical"),
    "hall_light": ("Luz del pasillo", "Luz de la entrada", "Luz del recibidor"),
}
PLACES: dict[str, tuple[str, str, str]] = {
    "tv_credenza": (
        "tele sobre el aparador",
        "tele encima del aparador de madera",
        "tele sobre el aparador junto a la pared",
    ),
    "tv_plant": (
        "tele junto a la planta grande",
        "tele al lado de la maceta grande",
        "tele junto al ficus grande",
    ),
    "living_light": ("plafón en el centro del salón",) * 3,
    "fireplace_light": (
        "luz encima de la chimenea",
        "lámpara sobre la repisa de la chimenea",
        "luz sobre la chimenea",
    ),
    "living_blind": ("persiana del ventanal del salón",) * 3,
    "bed_lamp": (
        "lámpara de pie en la mesilla junto a la cama",
        "lámpara en la mesilla al lado de la cama",
        "lámpara de lectura en la mesita de noche",
    ),
    "bedroom_ceiling": ("plafón en el centro del dormitorio",) * 3,
    "bedroom_curtain": ("cortinas de la ventana del dormitorio",) * 3,
    "dining_pendant": ("lámpara colgante encima de la mesa del comedor",) * 3,
    "dining_wall": ("apliques de pared del comedor",) * 3,
    "dining_blind": ("persiana de la ventana del comedor",) * 3,
    "kitchen_light": ("luz sobre la encimera de la cocina",) * 3,
    "dishwasher": ("lavavajillas debajo de la encimera",) * 3,
    "fridge": ("nevera de la cocina",) * 3,
    "freezer": ("congelador en el rincón de la cocina",) * 3,
    "hall_light": ("luz del pasillo junto a la puerta de entrada",) * 3,
}
DESCRIPTION = "{place}. {description}"
CHANNELS = {5: "Noticias", 7: "Deportes", 9: "Cine", 11: "Infantil", 13: "Música"}


def number(value: float) -> str:
    """A decimal number as written in Spain (``-18,4``)."""
    return f"{value:g}".replace(".", ",")


# ----------------------------------------------------------------------------- replies
DONE = "Hecho."
RULE_DONE = "Hecho, ya lo he configurado."

# ----------------------------------------------------------------------------- device resolution
BED_LIGHT = (
    "Enciende la luz de al lado de la cama.",
    "Enciende la lámpara junto a mi cama, por favor.",
    "¿Puedes encender la luz de la mesilla?",
)
CREDENZA_ON = (
    "¿Está encendida la tele del aparador?",
    "¿La tele que está sobre el aparador está encendida ahora mismo?",
    "Una pregunta: ¿está puesta la tele del aparador?",
)
CREDENZA_IS_ON = "Sí, la tele del aparador está encendida."
CREDENZA_IS_OFF = "No, la tele del aparador está apagada."
FREEZER_TEMP = (
    "¿A qué temperatura está el congelador?",
    "¿Cómo de frío está ahora el congelador?",
    "Dime la temperatura del congelador.",
)
FREEZER_IS = "El congelador está a {celsius} °C."
PLANT_CHANNEL = (
    "¿Qué canal tiene puesto la tele de al lado de la planta?",
    "¿Qué canal está poniendo la tele junto a la planta?",
    "¿Qué echan en la tele de al lado de la planta grande? ¿Qué canal es?",
)
PLANT_CHANNEL_IS = "La tele de al lado de la planta está en el canal {number}, {name}."
FIREPLACE_DIM = (
    "Baja la luz de la chimenea al {level} %.",
    "Pon la lámpara de la chimenea al {level} por ciento de brillo.",
    "Deja la luz de la repisa de la chimenea al {level} %.",
)
PLANT_TV_OFF = (
    "Apaga la tele de al lado de la planta.",
    "Apaga la televisión junto a la planta grande.",
    "Nadie está viendo la tele de la planta, apágala.",
)

# ----------------------------------------------------------------------------- intent resolution
DINING_BRIGHT = (
    "Hay demasiada luz en el comedor.",
    "El comedor está demasiado iluminado, me duelen los ojos.",
    "Uf, en el comedor ahora mismo hay una luz que deslumbra.",
)
DINING_DIMMED = "He bajado las luces del comedor al 40 %."
GREASY_HEAVY = (
    "Los platos están muy grasientos, elige un programa adecuado del lavavajillas.",
    "Las bandejas del asado tienen la grasa pegada; pon el lavavajillas en el programa que toque.",
)
GREASY_LIGHT = (
    "Son solo unos vasos casi sin usar, elige un programa del lavavajillas que vaya bien.",
    "El lavavajillas está casi vacío y las tazas apenas están sucias, elige un programa adecuado.",
)
PICKED_HEAVY = "He elegido el programa intensivo."
PICKED_LIGHT = "He elegido el programa delicado."
PHONE_CALL = (
    "Me están llamando, haz algo con la tele.",
    "¡Me suena el móvil, ocúpate de la tele!",
    "Tengo una llamada, ¿te encargas de la tele?",
)
PAUSED = "He pausado la tele."
TOO_DARK = (
    "Aquí está demasiado oscuro para leer.",
    "Casi no veo el libro aquí.",
    "Está oscurísimo aquí y estoy intentando leer.",
)
BED_LAMP_ON = "He encendido la lámpara de al lado de la cama."
GLARE = (
    "El sol da de lleno en la pantalla de la tele.",
    "No veo la tele, el sol pega en toda la pantalla.",
    "Hay muchísimo reflejo en la tele.",
)
BLINDS_LOWERED = "He bajado la persiana del salón."

# ----------------------------------------------------------------------------- personalization
COZY_MEMORY = (
    "Para un dormitorio acogedor, al usuario le gustan las luces del dormitorio en blanco cálido "
    "({kelvin} K) al {level} %.",
    "El usuario prefiere la persiana del salón subida durante el día.",
    "El canal favorito del usuario es Deportes.",
)
COZY = (
    "Pon el dormitorio acogedor.",
    "Vamos a dejar el dormitorio acogedor para la noche.",
    "Modo acogedor en el dormitorio, por favor.",
)
USERS = ("Lucía", "Pablo", "Marta", "Diego")
CHANNEL_MEMORY = (
    "El canal favorito de {user} es {name} (canal {number}).",
    "A los dos les gusta la luz del salón al 60 % por la noche.",
)
CHANNEL_REQUEST = (
    "Soy {user}. Pon mi canal favorito en la tele del aparador.",
    "Hola, soy {user}: cambia la tele del aparador a mi canal favorito.",
    "Soy {user}. Quiero mi canal favorito en la tele que está sobre el aparador.",
)
FRIDGE_MEMORY = (
    "El usuario tiene la nevera a {usual} °C.",
    "El usuario tiene el congelador a -18 °C.",
)
FRIDGE = (
    "Pon la nevera a mi temperatura de siempre.",
    "Deja la nevera como a mí me gusta.",
    "La nevera está mal puesta, ponla como la tengo siempre.",
)
CURTAIN_MEMORY = (
    "Por la mañana al usuario le gustan las cortinas del dormitorio abiertas al {level} %.",
    "Al usuario le gusta la persiana del comedor bajada del todo por la noche.",
)
CURTAINS = (
    "¡Buenos días! Abre las cortinas como a mí me gusta.",
    "Buenas. Las cortinas, como siempre, por favor.",
    "Ya estoy despierto, pon las cortinas del dormitorio como las quiero por la mañana.",
)
MOVIE_MEMORY = (
    "Para la noche de peli, el usuario quiere el plafón del salón apagado, la persiana del salón "
    "bajada y la tele de al lado de la planta en el canal {number} ({name}).",
    "Al usuario le gusta la luz de la chimenea al 20 % cuando lee.",
)
MOVIE = (
    "¡Noche de peli!",
    "Prepáralo todo para la noche de peli.",
    "Hoy toca noche de peli, deja el salón listo.",
)

# ----------------------------------------------------------------------------- persistence
TV_OFF_BED_LIGHT = (
    "Cuando se apague la tele, enciende la luz de al lado de la cama.",
    "Cada vez que se apague la tele, enciende la lámpara junto a la cama.",
    "En cuanto se apague la tele, enciende la luz de la mesilla.",
)
LAMP_CURTAINS = (
    "Cada vez que se encienda la lámpara de al lado de la cama, cierra las cortinas del "
    "dormitorio.",
    "A partir de ahora, cuando se encienda la lámpara de la mesilla, corre las cortinas del "
    "dormitorio.",
    "Configúralo para que las cortinas del dormitorio se cierren cuando encienda la lámpara de "
    "la mesilla.",
)
FREEZER_WARM = (
    "Si el congelador pasa de {limit} °C, ponlo en congelación rápida.",
    "Cada vez que la temperatura del congelador suba de {limit} grados, ponlo en congelación "
    "rápida.",
)
AFTER_DISHWASHER = "Lo haré cuando termine el lavavajillas."
DISHWASHER_NIGHTSTAND = (
    "Enciende la luz de la mesilla cuando termine el lavavajillas.",
    "En cuanto acabe el lavavajillas, enciende la lámpara de al lado de la cama.",
    "Cuando estén fregados los platos, enciende la lámpara de la mesilla.",
)
DISHWASHER_DINING = (
    "Cuando termine el lavavajillas, apaga las luces del comedor.",
    "Apaga las luces del comedor en cuanto haya terminado el lavavajillas.",
)
PLANT_TV_LATER = (
    "Apaga la tele de al lado de la planta dentro de {minutes} minutos.",
    "Dentro de {minutes} minutos, apaga la televisión junto a la planta grande.",
    "Déjala {minutes} minutos más y luego apaga la tele de la planta.",
)
PLANT_TV_GOES_OFF = "La tele de al lado de la planta se apagará dentro de {minutes} minutos."

# ----------------------------------------------------------------------------- command chaining
TVS_FIREPLACE = (
    "Apaga todas las teles y enciende la luz de la chimenea.",
    "Fuera las dos teles y enciende la luz de encima de la chimenea.",
    "Apaga todas las teles y luego enciende la lámpara de la chimenea.",
)
DARKEN = (
    "Deja toda la casa a oscuras.",
    "Oscurece toda la casa.",
    "A oscuras toda la casa, por favor.",
)
DIM_OFF = (
    "Apaga todas las luces que estén atenuadas.",
    "Apaga cualquier luz que esté con poca intensidad.",
    "Las luces que estén bajitas ahora mismo, apágalas.",
)
OFF_TO_WORK = (
    "Me voy a trabajar, apaga todo lo que no haga falta.",
    "Me voy al trabajo. Apaga lo que no tenga que quedarse encendido.",
    "Me marcho a la oficina, apaga todo lo que no sea imprescindible.",
)
OFF_TO_WORK_DONE = (
    "Todo lo prescindible está apagado; la nevera y el congelador siguen funcionando."
)
MOVE_CHANNEL = (
    "Pasa este canal a la otra tele y apaga esta.",
    "Pon lo que hay en esta tele en la otra y luego apaga esta.",
    "Manda este canal a la otra tele y apágame esta.",
)
MOVED = (
    "He puesto el canal {number} en la otra tele y he apagado la del aparador.",
    "He puesto el canal {number} en la otra tele y he apagado la de al lado de la planta.",
)
COVERS_LAMP = (
    "Cierra todas las persianas y cortinas y enciende la lámpara de al lado de la cama.",
    "Baja todas las persianas, cierra las cortinas de la casa y luego enciende la lámpara de la "
    "mesilla.",
)
