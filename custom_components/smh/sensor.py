"""Sensors: read-only attributes (measurements, remaining times, work states, lists)."""

from __future__ import annotations

import json
from typing import Any

from homeassistant.components.sensor import SensorDeviceClass, SensorEntity, SensorStateClass

from smh_core.homeenv.model import AttrType

from .entity import SmhEntity, platform_setup


class SmhSensor(SmhEntity, SensorEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        attr = self.mirror.attribute
        self._numeric = attr.type in (AttrType.INT, AttrType.FLOAT) and not attr.options
        if self._numeric:
            self._attr_state_class = SensorStateClass.MEASUREMENT
            self._attr_native_unit_of_measurement = self.mirror.unit
            if self.mirror.device_class is not None:
                self._attr_device_class = SensorDeviceClass(self.mirror.device_class)

    @property
    def native_value(self) -> Any:
        value = self.value
        if self._numeric or isinstance(value, str):
            return value
        return json.dumps(value, ensure_ascii=False)[:255]


async_setup_entry = platform_setup("sensor", SmhSensor)
