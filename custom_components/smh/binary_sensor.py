"""Binary sensors: read-only booleans, and read-only yes/no attributes written in words."""

from __future__ import annotations

from typing import Any

from homeassistant.components.binary_sensor import BinarySensorDeviceClass, BinarySensorEntity

from .entity import SmhEntity, platform_setup
from .mirrors import binary_on_value

_DEVICE_CLASSES = {
    "human_detected": BinarySensorDeviceClass.OCCUPANCY,
    "motion": BinarySensorDeviceClass.MOTION,
    "occupancy": BinarySensorDeviceClass.OCCUPANCY,
}


def _source_class(name: str | None) -> BinarySensorDeviceClass | None:
    """The device class a source home states for its binary sensor (a twin's moisture sensor),
    if HA knows it."""
    try:
        return BinarySensorDeviceClass(name) if name else None
    except ValueError:
        return None


class SmhBinarySensor(SmhEntity, BinarySensorEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._on_value = binary_on_value(self.mirror.attribute)
        self._attr_device_class = _DEVICE_CLASSES.get(
            self.mirror.locator.rsplit(".", 1)[-1]
        ) or _source_class(self.runtime.engine.device(self.mirror.did).userdata.device_class)

    @property
    def is_on(self) -> bool:
        value = self.value
        return value == self._on_value if self._on_value is not None else bool(value)


async_setup_entry = platform_setup("binary_sensor", SmhBinarySensor)
