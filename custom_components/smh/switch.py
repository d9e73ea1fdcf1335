"""Switches: power states with turn_on/turn_off, and booleans with a setter."""

from __future__ import annotations

from typing import Any

from homeassistant.components.switch import SwitchDeviceClass, SwitchEntity

from .entity import SmhEntity, platform_setup


class SmhSwitch(SmhEntity, SwitchEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        if self.mirror.device_named:  # the device's own switch: the class its source states
            stated = self.runtime.engine.device(self.mirror.did).userdata.device_class
            if stated in {c.value for c in SwitchDeviceClass}:
                self._attr_device_class = SwitchDeviceClass(stated)

    @property
    def is_on(self) -> bool:
        sw = self.mirror.switch
        return self.value == sw.on_value if sw is not None else bool(self.value)

    async def async_turn_on(self, **kwargs: Any) -> None:
        sw = self.mirror.switch
        self._execute(sw.on_service) if sw is not None else self._set(True)

    async def async_turn_off(self, **kwargs: Any) -> None:
        sw = self.mirror.switch
        self._execute(sw.off_service) if sw is not None else self._set(False)


async_setup_entry = platform_setup("switch", SmhSwitch)
