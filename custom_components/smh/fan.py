"""Fans (standing fans, ceiling fans, air purifiers): on/off, speed as a percentage of the
device's speed levels (or level range), presets, oscillation and direction where present."""

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

from .entity import SmhRichEntity, rich_setup, role_value


class SmhFan(SmhRichEntity, FanEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        roles = self.rich.roles
        self._attr_supported_features = self.features(FanEntityFeature)
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
            return ordered_list_item_to_percentage(self._levels, speed)
        return ranged_value_to_percentage(self._scale, speed)

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
            self.run(*self.power_on_first(), self.rich.set("speed", self._speed(percentage)))

    async def async_turn_on(self, percentage: int | None = None, preset_mode: str | None = None,
                            **kwargs: Any) -> None:
        actions = self.power_on_first()
        if percentage:
            actions.append(self.rich.set("speed", self._speed(percentage)))
        if preset_mode is not None:
            actions.append(self.rich.set("preset", preset_mode))
        self.run(*(actions or [self.rich.power(True)]))

    async def async_turn_off(self, **kwargs: Any) -> None:
        self.run(self.rich.power(False))

    async def async_set_preset_mode(self, preset_mode: str) -> None:
        self.run(self.rich.set("preset", preset_mode))

    async def async_oscillate(self, oscillating: bool) -> None:
        self.run(self.rich.set("oscillation", oscillating))

    async def async_set_direction(self, direction: str) -> None:
        self.run(self.rich.set("direction", direction))


async_setup_entry = rich_setup("fan", SmhFan)
