"""Humidifiers and dehumidifiers: on/off, target and current humidity, and modes."""

from __future__ import annotations

from typing import Any

from homeassistant.components.humidifier import (
    HumidifierDeviceClass,
    HumidifierEntity,
    HumidifierEntityFeature,
)

from .entity import PowerToggle, SmhRichEntity, rich_setup, role_value


class SmhHumidifier(PowerToggle, SmhRichEntity, HumidifierEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        roles = self.rich.roles
        self._attr_supported_features = self.features(HumidifierEntityFeature)
        if self.rich.device_class is not None:
            self._attr_device_class = HumidifierDeviceClass(self.rich.device_class)
        target = roles["target_humidity"]
        self._attr_min_humidity, self._attr_max_humidity = target.range
        self._attr_target_humidity_step = target.attribute.precision
        if "mode" in roles:
            self._attr_available_modes = [str(o) for o in roles["mode"].options]

    is_on = SmhRichEntity.powered

    target_humidity = role_value("target_humidity")
    current_humidity = role_value("current_humidity")
    mode = role_value("mode")

    async def async_set_humidity(self, humidity: int) -> None:
        self.run(self.rich.set("target_humidity", humidity))

    async def async_set_mode(self, mode: str) -> None:
        self.run(self.rich.set("mode", mode))


async_setup_entry = rich_setup("humidifier", SmhHumidifier)
