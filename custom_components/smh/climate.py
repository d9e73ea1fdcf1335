"""Climates (air conditioners, air cubes, Matter thermostats): HVAC mode (off, or the device's
operating mode), target and current temperature, and fan modes, swing, presets and humidity
where present.

A device without a power switch (a Matter heat pump) is off when its mode says "off". A
device with a cooling and a heating setpoint (Matter's Thermostat) shows and sets the one of
its current mode: the heating setpoint in heat mode, the cooling one otherwise."""

from __future__ import annotations

from typing import Any

from homeassistant.components.climate import (
    ATTR_HVAC_MODE,
    SWING_OFF,
    SWING_ON,
    ClimateEntity,
    ClimateEntityFeature,
    HVACMode,
)
from homeassistant.const import ATTR_TEMPERATURE, UnitOfTemperature

from smh_core.homeenv.shapes import AttrType

from .compat import NATIVE_TEMPERATURES
from .entity import SmhRichEntity, rich_setup, role_value
from .rich import Action


class SmhClimate(SmhRichEntity, ClimateEntity):
    _attr_native_temperature_unit = UnitOfTemperature.CELSIUS

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        roles = self.rich.roles
        self._attr_supported_features = self.features(ClimateEntityFeature)
        self._attr_hvac_modes = list(
            dict.fromkeys([HVACMode.OFF, *(HVACMode(m) for m in roles["mode"].options)])
        )
        targets = [
            roles[r] for r in ("target_temperature", "heat_target_temperature") if r in roles
        ]
        self._attr_min_temp = min(t.range[0] for t in targets)
        self._attr_max_temp = max(t.range[1] for t in targets)
        target = targets[0]
        if target.convert.linear:  # Matter's 0.01 °C: offer tenths
            self._attr_target_temperature_step = 0.1
        else:
            self._attr_target_temperature_step = target.attribute.precision or (
                1 if target.attribute.type == AttrType.INT else 0.1
            )
        if "fan_mode" in roles:
            self._attr_fan_modes = [str(o) for o in roles["fan_mode"].options]
        if "swing" in roles:
            self._attr_swing_modes = [SWING_ON, SWING_OFF]
        if "preset" in roles:
            self._attr_preset_modes = [str(o) for o in roles["preset"].options]
        if "target_humidity" in roles:
            self._attr_min_humidity, self._attr_max_humidity = roles["target_humidity"].range

    @property
    def hvac_mode(self) -> HVACMode:
        if "power" in self.rich and not self.powered:
            return HVACMode.OFF
        return HVACMode(self.get("mode"))

    def _target_role(self, mode: str | None = None) -> str:
        """The setpoint that applies in ``mode`` (default: the current one)."""
        mode = self.get("mode") if mode is None else mode
        return (
            "heat_target_temperature"
            if mode == HVACMode.HEAT and "heat_target_temperature" in self.rich
            else "target_temperature"
        )

    native_current_temperature = role_value("current_temperature")

    @property
    def native_target_temperature(self) -> float | None:
        return self.get(self._target_role())

    if not NATIVE_TEMPERATURES:  # HA before 2026.11 reads the old names (see compat.py)
        _attr_temperature_unit = _attr_native_temperature_unit
        current_temperature = native_current_temperature
        target_temperature = native_target_temperature

    current_humidity = role_value("current_humidity")
    target_humidity = role_value("target_humidity")
    fan_mode = role_value("fan_mode")

    @property
    def swing_mode(self) -> str | None:
        return None if "swing" not in self.rich else SWING_ON if self.get("swing") else SWING_OFF

    preset_mode = role_value("preset")

    def _off(self) -> Action:
        return (
            self.rich.power(False)
            if "power" in self.rich
            else self.rich.set("mode", str(HVACMode.OFF))
        )

    def _mode_actions(self, mode: HVACMode) -> list[Action]:
        if mode == HVACMode.OFF:
            return [self._off()]
        on_first = self.power_on_first() if "power" in self.rich else []
        return [*on_first, self.rich.set("mode", str(mode))]

    async def async_set_hvac_mode(self, hvac_mode: HVACMode) -> None:
        self.run(*self._mode_actions(hvac_mode))

    async def async_set_temperature(self, **kwargs: Any) -> None:
        mode = kwargs.get(ATTR_HVAC_MODE)
        actions = self._mode_actions(mode) if mode not in (None, HVACMode.OFF) else []
        if ATTR_TEMPERATURE in kwargs:
            role = self._target_role(None if mode in (None, HVACMode.OFF) else str(mode))
            actions.append(self.rich.set(role, kwargs[ATTR_TEMPERATURE]))
        if mode == HVACMode.OFF:
            actions.append(self._off())
        self.run(*actions)

    async def async_set_humidity(self, humidity: int) -> None:
        self.run(self.rich.set("target_humidity", humidity))

    async def async_set_fan_mode(self, fan_mode: str) -> None:
        self.run(self.rich.set("fan_mode", fan_mode))

    async def async_set_swing_mode(self, swing_mode: str) -> None:
        self.run(self.rich.set("swing", swing_mode == SWING_ON))

    async def async_set_preset_mode(self, preset_mode: str) -> None:
        self.run(self.rich.set("preset", preset_mode))

    async def async_turn_on(self) -> None:
        self.run(self.rich.power(True))

    async def async_turn_off(self) -> None:
        self.run(self._off())


async_setup_entry = rich_setup("climate", SmhClimate)
