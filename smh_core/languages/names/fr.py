"""French names of rooms and devices, shared by every suite written in French (:mod:`smh_core.languages.names`): the
names a French-speaking household gives its rooms and devices, and how a request names
a device (:func:`the`)."""

from __future__ import annotations

from . import with_article

ROOMS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "living_room": (("Salon", "du salon", "dans le salon"),),
    "kitchen": (
        ("Cuisine", "de la cuisine", "dans la cuisine"),
        ("Kitchenette", "de la kitchenette", "dans la kitchenette"),
    ),
    "master_bedroom": (
        ("Chambre parentale", "de la chambre parentale", "dans la chambre parentale"),
    ),
    "bathroom": (
        ("Salle de bain", "de la salle de bain", "dans la salle de bain"),
        ("Salle d'eau", "de la salle d'eau", "dans la salle d'eau"),
        ("Salle de bain du haut", "de la salle de bain du haut", "dans la salle de bain du haut"),
    ),
    "bedroom": (
        ("Chambre", "de la chambre", "dans la chambre"),
        ("Chambre d'amis", "de la chambre d'amis", "dans la chambre d'amis"),
    ),
    "balcony": (
        ("Balcon", "du balcon", "sur le balcon"),
        ("Terrasse", "de la terrasse", "sur la terrasse"),
    ),
    "foyer": (("Entrée", "de l'entrée", "dans l'entrée"),),
    "dining_room": (("Salle à manger", "de la salle à manger", "dans la salle à manger"),),
    "staircase": (("Escalier", "de l'escalier", "dans l'escalier"),),
    "study": (("Bureau", "du bureau", "dans le bureau"),),
    "kids_room": (
        ("Chambre des enfants", "de la chambre des enfants", "dans la chambre des enfants"),
        ("Chambre de Léa", "de la chambre de Léa", "dans la chambre de Léa"),
    ),
    "guest_room": (("Chambre d'invités", "de la chambre d'invités", "dans la chambre d'invités"),),
    "storage": (("Cellier", "du cellier", "dans le cellier"),),
    "cloakroom": (("Dressing", "du dressing", "dans le dressing"),),
    "laundry": (("Buanderie", "de la buanderie", "dans la buanderie"),),
    "entertainment_room": (("Salle de jeux", "de la salle de jeux", "dans la salle de jeux"),),
    "hallway": (
        ("Couloir", "du couloir", "dans le couloir"),
        ("Couloir du haut", "du couloir du haut", "dans le couloir du haut"),
    ),
    "garage": (("Garage", "du garage", "dans le garage"),),
    "parents_room": (
        ("Chambre des parents", "de la chambre des parents", "dans la chambre des parents"),
    ),
    "gym": (("Salle de sport", "de la salle de sport", "dans la salle de sport"),),
    "utility_room": (("Local technique", "du local technique", "dans le local technique"),),
    "office": (("Bureau pro", "du bureau pro", "dans le bureau pro"),),
    "*": (("Pièce", "de la pièce", "dans la pièce"),),
}
"""Per room type: the names a home's rooms of that type take in turn (name, "of" form, "in"
form), numbered past the list (``Salle de bain 5``)."""
KINDS: dict[str, tuple[str, str]] = {
    "Air Conditioner": ("Climatiseur", "m"),
    "Air Purifier": ("Purificateur", "m"),
    "Dehumidifier": ("Déshumidificateur", "m"),
    "Dimmable Light": ("Lampe variable", "f"),
    "Dishwasher": ("Lave-vaisselle", "m"),
    "Dryer": ("Sèche-linge", "m"),
    "Electrical Sensor": ("Compteur électrique", "m"),
    "Fan": ("Ventilateur", "m"),
    "Freezer": ("Congélateur", "m"),
    "Heat Pump": ("Pompe à chaleur", "f"),
    "Humidifier": ("Humidificateur", "m"),
    "On/Off Light": ("Lampe", "f"),
    "Refrigerator": ("Frigo", "m"),
    "Robot Vacuum": ("Robot aspirateur", "m"),
    "TV": ("Télé", "f"),
    "Washer": ("Lave-linge", "m"),
    "Window Covering": ("Volet roulant", "m"),
    "Air Cube": ("Rafraîchisseur", "m"),
    "Ambient Light": ("Lumière d'ambiance", "f"),
    "Blind": ("Store", "m"),
    "Ceiling Light": ("Plafonnier", "m"),
    "Central AC": ("Clim centrale", "f"),
    "Color Light": ("Ampoule couleur", "f"),
    "Cove Light Strip": ("Corniche lumineuse", "f"),
    "Curtain": ("Rideau", "m"),
    "Door Lock": ("Serrure", "f"),
    "Downlight": ("Spot encastré", "m"),
    "Fan Light": ("Ventilateur de plafond", "m"),
    "Floor AC": ("Clim mobile", "f"),
    "Floor Lamp": ("Lampadaire", "m"),
    "Light Strip": ("Ruban LED", "m"),
    "Motion Sensor": ("Détecteur de mouvement", "m"),
    "Robot Cleaner": ("Robot laveur", "m"),
    "Sheer Curtain": ("Voilage", "m"),
    "Smart Screen": ("Écran connecté", "m"),
    "Speaker": ("Enceinte", "f"),
    "Spotlight": ("Projecteur", "m"),
    "Steam Oven": ("Four vapeur", "m"),
    "Temperature-Humidity Sensor": ("Thermomètre", "m"),
    "Vacuum": ("Aspirateur", "m"),
    "Wall Lamp": ("Applique", "f"),
    "Washer-Dryer": ("Lave-linge séchant", "m"),
    "Water Heater": ("Chauffe-eau", "m"),
}
"""Per kind of device (the English name's part after the room): the French noun, its gender."""
NAMED = {"Front Door Lock": ("Serrure de la porte d'entrée", "f")}
"""Devices whose whole English name has a French name of its own."""
DEVICE_NAME = "{kind} {room_of}"
NUMBERED_NAME = "{kind} {n}"
_ARTICLE = {"m": "le", "f": "la"}


def the(name: str) -> str:
    """A device's name as a request's object: with its article, elided before a vowel
    (``le Chauffe-eau de la salle de bain``, ``l'Enceinte du salon``)."""
    return with_article(name, KINDS, NAMED, _ARTICLE, elided="l'")
