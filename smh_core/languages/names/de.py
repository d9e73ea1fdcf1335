"""German names of rooms and devices, shared by every suite written in German (:mod:`smh_core.languages.names`): the
names a German-speaking household gives its rooms and devices, and how a request names
a device (:func:`the`)."""

from __future__ import annotations

from . import with_article

ROOMS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "living_room": (("Wohnzimmer", "Wohnzimmer", "im Wohnzimmer"),),
    "kitchen": (("Küche", "Küche", "in der Küche"), ("Wohnküche", "Wohnküche", "in der Wohnküche")),
    "master_bedroom": (("Schlafzimmer", "Schlafzimmer", "im Schlafzimmer"),),
    "bathroom": (
        ("Bad", "Bad", "im Bad"),
        ("Gästebad", "Gästebad", "im Gästebad"),
        ("Bad oben", "Bad oben", "im Bad oben"),
        ("Duschbad", "Duschbad", "im Duschbad"),
    ),
    "bedroom": (
        ("Schlafzimmer Nord", "Schlafzimmer Nord", "im Schlafzimmer Nord"),
        ("Schlafzimmer Süd", "Schlafzimmer Süd", "im Schlafzimmer Süd"),
    ),
    "balcony": (
        ("Balkon", "Balkon", "auf dem Balkon"),
        ("Terrasse", "Terrasse", "auf der Terrasse"),
        ("Balkon Schlafzimmer", "Balkon Schlafzimmer", "auf dem Balkon Schlafzimmer"),
    ),
    "foyer": (("Flur", "Flur", "im Flur"),),
    "dining_room": (("Esszimmer", "Esszimmer", "im Esszimmer"),),
    "staircase": (
        ("Treppenhaus", "Treppenhaus", "im Treppenhaus"),
        ("Treppe oben", "Treppe oben", "an der Treppe oben"),
    ),
    "study": (("Arbeitszimmer", "Arbeitszimmer", "im Arbeitszimmer"),),
    "kids_room": (
        ("Kinderzimmer", "Kinderzimmer", "im Kinderzimmer"),
        ("Zimmer Lena", "Zimmer Lena", "in Lenas Zimmer"),
    ),
    "guest_room": (("Gästezimmer", "Gästezimmer", "im Gästezimmer"),),
    "storage": (("Abstellraum", "Abstellraum", "im Abstellraum"),),
    "cloakroom": (
        ("Ankleide", "Ankleide", "in der Ankleide"),
        ("Garderobe", "Garderobe", "in der Garderobe"),
    ),
    "laundry": (("Waschküche", "Waschküche", "in der Waschküche"),),
    "entertainment_room": (("Hobbyraum", "Hobbyraum", "im Hobbyraum"),),
    "hallway": (
        ("Diele", "Diele", "in der Diele"),
        ("Flur oben", "Flur oben", "im Flur oben"),
    ),
    "garage": (("Garage", "Garage", "in der Garage"),),
    "parents_room": (("Elternschlafzimmer", "Elternschlafzimmer", "im Elternschlafzimmer"),),
    "gym": (("Fitnessraum", "Fitnessraum", "im Fitnessraum"),),
    "utility_room": (("Hauswirtschaftsraum", "Hauswirtschaftsraum", "im Hauswirtschaftsraum"),),
    "office": (("Büro", "Büro", "im Büro"),),
    "*": (("Raum", "Raum", "im Raum"),),
}
"""Per room type: the names a home's rooms of that type take in turn (name, "of" form, "in"
form), numbered past the list (``Bad 5``)."""
KINDS: dict[str, tuple[str, str]] = {
    "Air Conditioner": ("Klimagerät", "n"),
    "Air Purifier": ("Luftreiniger", "m"),
    "Dehumidifier": ("Luftentfeuchter", "m"),
    "Dimmable Light": ("Dimmbare Lampe", "f"),
    "Dishwasher": ("Spülmaschine", "f"),
    "Dryer": ("Trockner", "m"),
    "Electrical Sensor": ("Strommesser", "m"),
    "Fan": ("Ventilator", "m"),
    "Freezer": ("Gefrierschrank", "m"),
    "Heat Pump": ("Wärmepumpe", "f"),
    "Humidifier": ("Luftbefeuchter", "m"),
    "On/Off Light": ("Lampe", "f"),
    "Refrigerator": ("Kühlschrank", "m"),
    "Robot Vacuum": ("Saugroboter", "m"),
    "TV": ("Fernseher", "m"),
    "Washer": ("Waschmaschine", "f"),
    "Window Covering": ("Rollladen", "m"),
    "Air Cube": ("Klimawürfel", "m"),
    "Ambient Light": ("Stimmungslicht", "n"),
    "Blind": ("Jalousie", "f"),
    "Ceiling Light": ("Deckenlampe", "f"),
    "Central AC": ("Klimaanlage", "f"),
    "Color Light": ("Farblicht", "n"),
    "Cove Light Strip": ("Voutenbeleuchtung", "f"),
    "Curtain": ("Vorhang", "m"),
    "Door Lock": ("Türschloss", "n"),
    "Downlight": ("Einbauspot", "m"),
    "Fan Light": ("Deckenventilator", "m"),
    "Floor AC": ("Standklimagerät", "n"),
    "Floor Lamp": ("Stehlampe", "f"),
    "Light Strip": ("LED-Streifen", "m"),
    "Motion Sensor": ("Bewegungsmelder", "m"),
    "Robot Cleaner": ("Wischroboter", "m"),
    "Sheer Curtain": ("Gardine", "f"),
    "Smart Screen": ("Smart Display", "n"),
    "Speaker": ("Lautsprecher", "m"),
    "Spotlight": ("Strahler", "m"),
    "Steam Oven": ("Dampfbackofen", "m"),
    "Temperature-Humidity Sensor": ("Thermometer", "n"),
    "Vacuum": ("Staubsauger", "m"),
    "Wall Lamp": ("Wandleuchte", "f"),
    "Washer-Dryer": ("Waschtrockner", "m"),
    "Water Heater": ("Warmwasserbereiter", "m"),
}
"""Per kind of device (the English name's part after the room): the German noun, its gender."""
NAMED = {"Front Door Lock": ("Haustürschloss", "n")}
"""Devices whose whole English name has a German name of its own."""
DEVICE_NAME = "{kind} {room}"
NUMBERED_NAME = "{kind} {n}"
_ARTICLE = {"m": "den", "f": "die", "n": "das"}


def the(name: str) -> str:
    """A device's name as a request's object: with its accusative article (``den Strahler
    Flur``)."""
    return with_article(name, KINDS, NAMED, _ARTICLE)
