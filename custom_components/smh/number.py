"""Numbers: ranged numeric attributes with a setter (brightness, setpoints, volume ...)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.number import NumberDeviceClass, NumberEntity, NumberMode

from .entity import SmhEntity, platform_setup


class SmhNumber(SmhEntity, NumberEntity):
    _attr_mode = NumberMode.BOX

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        attr, convert = self.mirror.attribute, self.mirror.convert
        self._attr_native_min_value, self._attr_native_max_value = convert.range(attr)
        self._attr_native_step = (attr.precision or 1) * abs(convert.scale)
        self._attr_native_unit_of_measurement = self.mirror.unit
        if self.mirror.device_class is not None:
            self._attr_device_class = NumberDeviceClass(self.mirror.device_class)

    @property
    def native_value(self) -> float | None:
        return self.value

    async def async_set_native_value(self, value: float) -> None:
        self._set(value)  # the conversion gives an int attribute an int


async_setup_entry = platform_setup("number", SmhNumber)
