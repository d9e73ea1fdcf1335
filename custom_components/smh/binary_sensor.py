"""Binary sensors: read-only boolean attributes."""

from __future__ import annotations

from typing import Any

from homeassistant.components.binary_sensor import BinarySensorEntity
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import SmhEntity


async def async_setup_entry(hass: HomeAssistant, entry: Any, async_add_entities: AddConfigEntryEntitiesCallback) -> None:
    runtime = entry.runtime_data
    async_add_entities(SmhBinarySensor(runtime, entry.entry_id, m) for m in runtime.mirrors("binary_sensor"))


class SmhBinarySensor(SmhEntity, BinarySensorEntity):
    @property
    def is_on(self) -> bool:
        return bool(self.value)
