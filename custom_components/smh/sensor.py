"""Sensors: read-only attributes (measurements, remaining times, work states, lists)."""

from __future__ import annotations

import json
from typing import Any

from homeassistant.components.sensor import SensorEntity, SensorStateClass
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from smh_core.homeenv.model import AttrType

from .entity import SmhEntity


async def async_setup_entry(hass: HomeAssistant, entry: Any, async_add_entities: AddConfigEntryEntitiesCallback) -> None:
    runtime = entry.runtime_data
    async_add_entities(SmhSensor(runtime, entry.entry_id, m) for m in runtime.mirrors("sensor"))


class SmhSensor(SmhEntity, SensorEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        attr = self.mirror.attribute
        self._numeric = attr.type in (AttrType.INT, AttrType.FLOAT) and not attr.options
        if self._numeric:
            self._attr_state_class = SensorStateClass.MEASUREMENT
            self._attr_native_unit_of_measurement = self.mirror.unit

    @property
    def native_value(self) -> Any:
        value = self.value
        if self._numeric or isinstance(value, str):
            return value
        return json.dumps(value, ensure_ascii=False)[:255]
