"""Water heaters: on/off, target and current water temperature, and the heating mode as the
operation mode (``off`` when the heater is off)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.water_heater import (
    ATTR_OPERATION_MODE,
    STATE_OFF,
    STATE_ON,
    WaterHeaterEntity,
    WaterHeaterEntityFeature,
)
from homeassistant.const import ATTR_TEMPERATURE, UnitOfTemperature

from .compat import NATIVE_TEMPERATURES
from .entity import PowerToggle, SmhRichEntity, rich_setup, role_value
from .rich import Action


class SmhWaterHeater(PowerToggle, SmhRichEntity, WaterHeaterEntity):
    _attr_native_temperature_unit = UnitOfTemperature.CELSIUS

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        roles = self.rich.roles
        self._attr_supported_features = self.features(WaterHeaterEntityFeature)
        target = roles["target_temperature"]
        self._attr_min_temp, self._attr_max_temp = target.range
        self._attr_target_temperature_step = target.attribute.precision or 1
        modes = [str(o) for o in roles["mode"].options] if "mode" in roles else [STATE_ON]
        self._attr_operation_list = [STATE_OFF, *modes]

    @property
    def current_operation(self) -> str:
        if not self.powered:
            return STATE_OFF
        return self.get("mode") if "mode" in self.rich else STATE_ON

    native_current_temperature = role_value("current_temperature")
    native_target_temperature = role_value("target_temperature")

    if not NATIVE_TEMPERATURES:  # HA before 2026.11 reads the old names (see compat.py)
        _attr_temperature_unit = _attr_native_temperature_unit
        current_temperature = native_current_temperature
        target_temperature = native_target_temperature

    def _mode_actions(self, mode: str) -> list[Action]:
        if mode == STATE_OFF:
            return [self.rich.power(False)]
        actions = self.power_on_first()
        if "mode" in self.rich and mode != STATE_ON:
            actions.append(self.rich.set("mode", mode))
        return actions

    async def async_set_temperature(self, **kwargs: Any) -> None:
        actions = [self.rich.set("target_temperature", kwargs[ATTR_TEMPERATURE])]
        if (mode := kwargs.get(ATTR_OPERATION_MODE)) is not None:
            actions += self._mode_actions(mode)
        self.run(*actions)

    async def async_set_operation_mode(self, operation_mode: str) -> None:
        self.run(*(self._mode_actions(operation_mode) or [self.rich.power(True)]))


async_setup_entry = rich_setup("water_heater", SmhWaterHeater)
