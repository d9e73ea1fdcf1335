"""Spanish names of rooms and devices, shared by every suite written in Spanish (:mod:`smh_core.languages.names`): the
names a Spanish-speaking household gives its rooms and devices, and how a request names
a device (:func:`the`)."""

from __future__ import annotations

from . import with_article

ROOMS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "living_room": (("Salón", "del salón", "en el salón"),),
    "kitchen": (
        ("Cocina", "de la cocina", "en la cocina"),
        ("Office", "del office", "en el office"),
    ),
    "master_bedroom": (
        ("Dormitorio principal", "del dormitorio principal", "en el dormitorio principal"),
    ),
    "bathroom": (
        ("Baño", "del baño", "en el baño"),
        ("Aseo", "del aseo", "en el aseo"),
        ("Baño de invitados", "del baño de invitados", "en el baño de invitados"),
        ("Baño de arriba", "del baño de arriba", "en el baño de arriba"),
    ),
    "bedroom": (
        ("Dormitorio", "del dormitorio", "en el dormitorio"),
        ("Dormitorio pequeño", "del dormitorio pequeño", "en el dormitorio pequeño"),
    ),
    "balcony": (
        ("Balcón", "del balcón", "en el balcón"),
        ("Terraza", "de la terraza", "en la terraza"),
    ),
    "foyer": (("Recibidor", "del recibidor", "en el recibidor"),),
    "dining_room": (("Comedor", "del comedor", "en el comedor"),),
    "staircase": (("Escalera", "de la escalera", "en la escalera"),),
    "study": (("Despacho", "del despacho", "en el despacho"),),
    "kids_room": (
        ("Cuarto de los niños", "del cuarto de los niños", "en el cuarto de los niños"),
        ("Habitación de Lucía", "de la habitación de Lucía", "en la habitación de Lucía"),
    ),
    "guest_room": (
        ("Cuarto de invitados", "del cuarto de invitados", "en el cuarto de invitados"),
    ),
    "storage": (("Trastero", "del trastero", "en el trastero"),),
    "cloakroom": (("Vestidor", "del vestidor", "en el vestidor"),),
    "laundry": (("Lavadero", "del lavadero", "en el lavadero"),),
    "entertainment_room": (("Sala de juegos", "de la sala de juegos", "en la sala de juegos"),),
    "hallway": (
        ("Pasillo", "del pasillo", "en el pasillo"),
        ("Pasillo de arriba", "del pasillo de arriba", "en el pasillo de arriba"),
    ),
    "garage": (("Garaje", "del garaje", "en el garaje"),),
    "parents_room": (
        (
            "Habitación de matrimonio",
            "de la habitación de matrimonio",
            "en la habitación de matrimonio",
        ),
    ),
    "gym": (("Gimnasio", "del gimnasio", "en el gimnasio"),),
    "utility_room": (
        ("Cuarto de la caldera", "del cuarto de la caldera", "en el cuarto de la caldera"),
    ),
    "office": (("Oficina", "de la oficina", "en la oficina"),),
    "*": (("Habitación", "de la habitación", "en la habitación"),),
}
"""Per room type: the names a home's rooms of that type take in turn (name, "of" form, "in"
form), numbered past the list (``Baño 5``)."""
KINDS: dict[str, tuple[str, str]] = {
    "Air Conditioner": ("Aire acondicionado", "m"),
    "Air Purifier": ("Purificador", "m"),
    "Dehumidifier": ("Deshumidificador", "m"),
    "Dimmable Light": ("Luz regulable", "f"),
    "Dishwasher": ("Lavavajillas", "m"),
    "Dryer": ("Secadora", "f"),
    "Electrical Sensor": ("Medidor de consumo", "m"),
    "Fan": ("Ventilador", "m"),
    "Freezer": ("Congelador", "m"),
    "Heat Pump": ("Bomba de calor", "f"),
    "Humidifier": ("Humidificador", "m"),
    "On/Off Light": ("Luz", "f"),
    "Refrigerator": ("Nevera", "f"),
    "Robot Vacuum": ("Robot aspirador", "m"),
    "TV": ("Tele", "f"),
    "Washer": ("Lavadora", "f"),
    "Window Covering": ("Persiana", "f"),
    "Air Cube": ("Climatizador", "m"),
    "Ambient Light": ("Luz ambiental", "f"),
    "Blind": ("Estor", "m"),
    "Ceiling Light": ("Lámpara de techo", "f"),
    "Central AC": ("Aire central", "m"),
    "Color Light": ("Bombilla de color", "f"),
    "Cove Light Strip": ("Luz indirecta", "f"),
    "Curtain": ("Cortina", "f"),
    "Door Lock": ("Cerradura", "f"),
    "Downlight": ("Foco empotrado", "m"),
    "Fan Light": ("Ventilador de techo", "m"),
    "Floor AC": ("Aire portátil", "m"),
    "Floor Lamp": ("Lámpara de pie", "f"),
    "Light Strip": ("Tira LED", "f"),
    "Motion Sensor": ("Sensor de movimiento", "m"),
    "Robot Cleaner": ("Robot friegasuelos", "m"),
    "Sheer Curtain": ("Visillo", "m"),
    "Smart Screen": ("Pantalla inteligente", "f"),
    "Speaker": ("Altavoz", "m"),
    "Spotlight": ("Foco", "m"),
    "Steam Oven": ("Horno de vapor", "m"),
    "Temperature-Humidity Sensor": ("Termómetro", "m"),
    "Vacuum": ("Aspiradora", "f"),
    "Wall Lamp": ("Aplique", "m"),
    "Washer-Dryer": ("Lavasecadora", "f"),
    "Water Heater": ("Termo", "m"),
}
"""Per kind of device (the English name's part after the room): the Spanish noun, its gender."""
NAMED = {"Front Door Lock": ("Cerradura de la entrada", "f")}
"""Devices whose whole English name has a Spanish name of its own."""
DEVICE_NAME = "{kind} {room_of}"
NUMBERED_NAME = "{kind} {n}"
_ARTICLE = {"m": "el", "f": "la"}


def the(name: str) -> str:
    """A device's name as a request's object: with its article (``el Termo del baño``)."""
    return with_article(name, KINDS, NAMED, _ARTICLE)
