"""The simulated rooms' climate as HA shows it (pure: no HA imports).

Each simulated room gets one device ("<room> climate") in its area with a sensor per room
variable; the engine keeps these values under the pseudo device ``@<room id>``.
"""

from __future__ import annotations

from smh_core.homeenv.engine import ENV_PREFIX

ROOM_VARIABLES: dict[str, str] = {
    "temperature": "Temperature", "humidity": "Humidity", "illuminance": "Illuminance",
    "pm25": "PM2.5", "pm10": "PM10", "air_quality": "Air quality",
}
"""Variable -> entity name, in the order HA lists them."""

AIR_QUALITY = ["good", "fair", "moderate", "poor", "very_poor", "extremely_poor"]


def room_did(room: str) -> str:
    """The engine's pseudo device id of a room's variables."""
    return ENV_PREFIX + room


def room_device_id(entry_id: str, room: str) -> str:
    """The device registry identifier of a simulated room's climate sensors."""
    return f"{entry_id}_{room_did(room)}"
