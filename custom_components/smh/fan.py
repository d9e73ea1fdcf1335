"""Fans (standing fans, ceiling fans, air purifiers): on/off, speed as a percentage of the
device's speed levels (or level range), presets, oscillation and direction where present.

The percentage reads back what HA wrote: a fan of three levels holds 50 % as "medium", and
shows 50 (not medium's 67) for as long as it stays there; a speed changed from anywhere else
shows its own percentage. Turned on without a speed, a fan runs at its last one."""

from __future__ import annotations

import math
from typing import Any

from homeassistant.components.fan import FanEntity, FanEntityFeature
from homeassistant.util.percentage import (
    ordered_list_item_to_percentage,
    percentage_to_ordered_list_item,
    percentage_to_ranged_value,
    ranged_value_to_percentage,
)

from .entity import SmhRichEntity, Written, rich_setup, role_value


class SmhFan(SmhRichEntity, FanEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        roles = self.rich.roles
        self._attr_supported_features = self.features(FanEntityFeature)
        self._written = Written()
        speed = roles["speed"]
        self._levels = speed.options  # ordered speed names, or [] for a numeric level range
        self._scale = (0.0, 0.0) if self._levels else speed.range
        self._attr_speed_count = len(self._levels) or int(self._scale[1] - self._scale[0] + 1)
        if "preset" in roles:
            self._attr_preset_modes = [str(o) for o in roles["preset"].options]

    is_on = SmhRichEntity.powered

    @property
    def percentage(self) -> int:
        if not self.powered:
            return 0
        speed = self.get("speed")
        if self._levels:
            scaled = ordered_list_item_to_percentage(self._levels, speed)
        else:
            scaled = ranged_value_to_percentage(self._scale, speed)
        return self._written.shown(speed, scaled)

    def _set_speed(self, percentage: int, first: list[Any], then: list[Any] | None = None) -> None:
        """Run ``first``, set the speed for ``percentage``, then ``then``, as one batch, and
        remember what HA asked for."""
        speed = self._speed(percentage)
        with self._written.writing(speed, percentage):
            self.run(*first, self.rich.set("speed", speed), *(then or []))
        self.async_write_ha_state()  # the device speed may not have moved (50 % and 67 % are both medium)

    preset_mode = role_value("preset")
    oscillating = role_value("oscillation")
    current_direction = role_value("direction")

    def _speed(self, percentage: int) -> Any:
        if self._levels:
            return percentage_to_ordered_list_item(self._levels, percentage)
        return math.ceil(percentage_to_ranged_value(self._scale, percentage))

    async def async_set_percentage(self, percentage: int) -> None:
        if percentage == 0:
            self.run(self.rich.power(False))
        else:
            self._set_speed(percentage, self.power_on_first())

    async def async_turn_on(
        self, percentage: int | None = None, preset_mode: str | None = None, **kwargs: Any
    ) -> None:
        preset = [] if preset_mode is None else [self.rich.set("preset", preset_mode)]
        if percentage:
            self._set_speed(percentage, self.power_on_first(), preset)
        else:
            self.run(*((self.power_on_first() + preset) or [self.rich.power(True)]))

    async def async_turn_off(self, **kwargs: Any) -> None:
        self.run(self.rich.power(False))

    async def async_set_preset_mode(self, preset_mode: str) -> None:
        self.run(self.rich.set("preset", preset_mode))

    async def async_oscillate(self, oscillating: bool) -> None:
        self.run(self.rich.set("oscillation", oscillating))

    async def async_set_direction(self, direction: str) -> None:
        self.run(self.rich.set("direction", direction))


async_setup_entry = rich_setup("fan", SmhFan)
