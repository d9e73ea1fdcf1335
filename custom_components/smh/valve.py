"""Valves (water mains, irrigation): open, close and, where the valve has it, a position
(0 closed, 100 fully open)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.valve import ValveDeviceClass, ValveEntity, ValveEntityFeature

from .entity import SmhRichEntity, rich_setup, role_value


class SmhValve(SmhRichEntity, ValveEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._attr_supported_features = self.features(ValveEntityFeature)
        self._attr_reports_position = "SET_POSITION" in self.rich.features
        if self.rich.device_class is not None:
            self._attr_device_class = ValveDeviceClass(self.rich.device_class)

    current_valve_position = role_value("position")

    @property
    def is_closed(self) -> bool:
        return self.get("position") == 0

    async def async_open_valve(self) -> None:
        self.run(self.rich.call("open"))

    async def async_close_valve(self) -> None:
        self.run(self.rich.call("close"))

    async def async_set_valve_position(self, position: int) -> None:
        self.run(self.rich.set("position", position))


async_setup_entry = rich_setup("valve", SmhValve)
