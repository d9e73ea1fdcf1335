"""Numbers: ranged numeric attributes with a setter (brightness, setpoints, volume ...)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.number import NumberEntity, NumberMode

from smh_core.homeenv.model import AttrType

from .entity import SmhEntity, platform_setup


class SmhNumber(SmhEntity, NumberEntity):
    _attr_mode = NumberMode.BOX

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        attr = self.mirror.attribute
        self._is_int = attr.type == AttrType.INT
        self._attr_native_min_value, self._attr_native_max_value = attr.range  # type: ignore[misc]
        self._attr_native_step = attr.precision or 1
        self._attr_native_unit_of_measurement = self.mirror.unit

    @property
    def native_value(self) -> float | None:
        return self.value

    async def async_set_native_value(self, value: float) -> None:
        self._set(int(value) if self._is_int and float(value).is_integer() else value)


async_setup_entry = platform_setup("number", SmhNumber)
