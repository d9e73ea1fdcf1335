"""Vacuums (robot cleaners): start, pause, stop, return to base, fan speed (suction), and for a
robot that cleans chosen rooms the ``clean_area`` command (``vacuum.send_command`` with
``params: {area: kitchen}``: the robot starts cleaning there).

The battery stays a battery sensor of the same device: HA deprecated the vacuum's own battery
attribute in favour of one."""

from __future__ import annotations

from typing import Any

from homeassistant.components.vacuum import StateVacuumEntity, VacuumActivity, VacuumEntityFeature
from homeassistant.exceptions import ServiceValidationError

from .const import DOMAIN
from .entity import SmhRichEntity, rich_setup, role_value

CLEAN_AREA = "clean_area"
"""The ``vacuum.send_command`` command that cleans one area (room) of the home."""


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

    async def async_stop(self, **kwargs: Any) -> None:
        self.run(self.rich.call("stop"))

    async def async_return_to_base(self, **kwargs: Any) -> None:
        self.run(self.rich.call("return_to_base"))

    async def async_send_command(
        self, command: str, params: dict[str, Any] | list[Any] | None = None, **kwargs: Any
    ) -> None:
        if (
            command != CLEAN_AREA
            or "area" not in self.rich
            or not isinstance(params, dict)
            or "area" not in params
        ):
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="engine_error",
                translation_placeholders={
                    "message": f"unknown vacuum command {command!r}: "
                    f"this robot takes {CLEAN_AREA!r} with params "
                    "{area: <room>}"
                },
            )
        self.run(self.rich.set("area", str(params["area"])), self.rich.call("start"))

    async def async_set_fan_speed(self, fan_speed: str, **kwargs: Any) -> None:
        self.run(self.rich.set("fan_speed", fan_speed))


async_setup_entry = rich_setup("vacuum", SmhVacuum)
