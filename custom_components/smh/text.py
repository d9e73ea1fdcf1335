"""Texts: free-string attributes that can be set (aliases, media names ...)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.text import TextEntity
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import SmhEntity


async def async_setup_entry(hass: HomeAssistant, entry: Any, async_add_entities: AddConfigEntryEntitiesCallback) -> None:
    runtime = entry.runtime_data
    async_add_entities(SmhText(runtime, entry.entry_id, m) for m in runtime.mirrors("text"))


class SmhText(SmhEntity, TextEntity):
    @property
    def native_value(self) -> str | None:
        return self.value

    async def async_set_value(self, value: str) -> None:
        self._set(value)
