"""Binary sensors: read-only boolean attributes."""

from __future__ import annotations

from homeassistant.components.binary_sensor import BinarySensorEntity

from .entity import SmhEntity, platform_setup


class SmhBinarySensor(SmhEntity, BinarySensorEntity):
    @property
    def is_on(self) -> bool:
        return bool(self.value)


async_setup_entry = platform_setup("binary_sensor", SmhBinarySensor)
