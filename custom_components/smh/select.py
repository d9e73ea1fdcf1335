"""Selects: attributes with a fixed option set and a setter (modes, speed levels ...)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.select import SelectEntity

from .entity import SmhEntity, platform_setup


class SmhSelect(SmhEntity, SelectEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._options = self.mirror.options  # HA-side values; _set turns one back into the engine's
        self._attr_options = [str(o) for o in self._options]

    @property
    def current_option(self) -> str | None:
        return str(self.value)

    async def async_select_option(self, option: str) -> None:
        self._set(self._options[self._attr_options.index(option)])


async_setup_entry = platform_setup("select", SmhSelect)
