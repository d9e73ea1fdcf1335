"""The simulated rooms' climate as HA shows it (pure: no HA imports).

Each simulated room gets one device ("<room> climate") in its area with a sensor per room
variable; the engine keeps these values under the pseudo device ``@<room id>``.
"""

from __future__ import annotations

from smh_core.homeenv.engine import ENV_PREFIX

ROOM_VARIABLES: dict[str, str] = {
    "temperature": "Temperature",
    "humidity": "Humidity",
    "illuminance": "Illuminance",
    "pm25": "PM2.5",
    "pm10": "PM10",
    "air_quality": "Air quality",
}
"""Variable -> entity name, in the order HA lists them."""

AIR_QUALITY = ["good", "fair", "moderate", "poor", "very_poor", "extremely_poor"]

ROOM_PRECISION: dict[str, int] = {
    "temperature": 1,
    "humidity": 0,
    "illuminance": 0,
    "pm25": 1,
    "pm10": 1,
}
"""Decimals a room variable's state carries: what a thermometer or hygrometer shows (the physics
keeps full floats; a state of ``23.4166666666667`` is noise in history and in Assist's answers)."""

ROOM_ICONS: dict[str, str] = {
    "living_room": "mdi:sofa",
    "master_bedroom": "mdi:bed-king",
    "bedroom": "mdi:bed",
    "guest_room": "mdi:bed",
    "parents_room": "mdi:bed",
    "kids_room": "mdi:teddy-bear",
    "kitchen": "mdi:stove",
    "dining_room": "mdi:silverware-fork-knife",
    "bathroom": "mdi:shower",
    "study": "mdi:desk",
    "office": "mdi:desk",
    "balcony": "mdi:balcony",
    "hallway": "mdi:door",
    "foyer": "mdi:door-open",
    "staircase": "mdi:stairs",
    "laundry": "mdi:washing-machine",
    "utility_room": "mdi:washing-machine",
    "garage": "mdi:garage",
    "cloakroom": "mdi:hanger",
    "storage": "mdi:package-variant-closed",
    "entertainment_room": "mdi:television",
    "gym": "mdi:dumbbell",
}
"""Area icon by room type (the generators' types and SimuHome's)."""
NAME_ICONS: tuple[tuple[str, str], ...] = (
    ("living", "mdi:sofa"),
    ("lounge", "mdi:sofa"),
    ("kitchen", "mdi:stove"),
    ("dining", "mdi:silverware-fork-knife"),
    ("bath", "mdi:shower"),
    ("toilet", "mdi:toilet"),
    ("bed", "mdi:bed"),
    ("nursery", "mdi:teddy-bear"),
    ("kid", "mdi:teddy-bear"),
    ("office", "mdi:desk"),
    ("study", "mdi:desk"),
    ("garage", "mdi:garage"),
    ("garden", "mdi:flower"),
    ("yard", "mdi:flower"),
    ("patio", "mdi:flower"),
    ("balcony", "mdi:balcony"),
    ("laundry", "mdi:washing-machine"),
    ("utility", "mdi:washing-machine"),
    ("hall", "mdi:door"),
    ("entr", "mdi:door-open"),
    ("foyer", "mdi:door-open"),
    ("stair", "mdi:stairs"),
    ("closet", "mdi:hanger"),
    ("cloak", "mdi:hanger"),
    ("basement", "mdi:stairs-down"),
    ("attic", "mdi:home-roof"),
    ("gym", "mdi:dumbbell"),
    ("storage", "mdi:package-variant-closed"),
    ("tv", "mdi:television"),
    ("media", "mdi:television"),
)
"""Words in a room's name -> icon, for room types the table above does not know (imported homes)."""
DEFAULT_ROOM_ICON = "mdi:floor-plan"


def room_icon(room_type: str, name: str) -> str:
    """The icon of a room's area: by its type, else by a word of its name, else a floor plan."""
    if room_type in ROOM_ICONS:
        return ROOM_ICONS[room_type]
    lowered = name.lower()
    return next((icon for word, icon in NAME_ICONS if word in lowered), DEFAULT_ROOM_ICON)


def prefixed(prefix: str, name: str) -> str:
    """A name in an entry's namespace: ``Beach House Living Room`` for prefix ``Beach House``."""
    return f"{prefix} {name}" if prefix else name


def room_did(room: str) -> str:
    """The engine's pseudo device id of a room's variables."""
    return ENV_PREFIX + room


def room_device_id(entry_id: str, room: str) -> str:
    """The device registry identifier of a simulated room's climate sensors."""
    return f"{entry_id}_{room_did(room)}"
