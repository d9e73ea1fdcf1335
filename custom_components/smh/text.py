"""Texts: free-string attributes that can be set (aliases, media names ...)."""

from __future__ import annotations

from homeassistant.components.text import TextEntity

from .entity import SmhEntity, platform_setup


class SmhText(SmhEntity, TextEntity):
    @property
    def native_value(self) -> str | None:
        return self.value

    async def async_set_value(self, value: str) -> None:
        self._set(value)


async_setup_entry = platform_setup("text", SmhText)
