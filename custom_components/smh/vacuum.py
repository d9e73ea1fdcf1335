"""Vacuums (robot cleaners): start, pause, return to base, fan speed (suction).

The battery stays a battery sensor of the same device: HA deprecated the vacuum's own battery
attribute in favour of one."""

from __future__ import annotations

from typing import Any

from homeassistant.components.vacuum import StateVacuumEntity, VacuumActivity, VacuumEntityFeature

from .entity import SmhRichEntity, rich_setup, role_value


class SmhVacuum(SmhRichEntity, StateVacuumEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._attr_supported_features = self.features(VacuumEntityFeature)
        if "fan_speed" in self.rich:
            self._attr_fan_speed_list = [str(o) for o in self.rich.roles["fan_speed"].options]

    @property
    def activity(self) -> VacuumActivity:
        return VacuumActivity(self.get("state"))

    fan_speed = role_value("fan_speed")

    async def async_start(self) -> None:
        self.run(self.rich.call("start"))

    async def async_pause(self) -> None:
        self.run(self.rich.call("pause"))

    async def async_return_to_base(self, **kwargs: Any) -> None:
        self.run(self.rich.call("return_to_base"))

    async def async_set_fan_speed(self, fan_speed: str, **kwargs: Any) -> None:
        self.run(self.rich.set("fan_speed", fan_speed))


async_setup_entry = rich_setup("vacuum", SmhVacuum)
