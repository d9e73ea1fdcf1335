"""Covers (blinds, curtains, garage doors): open, close and position (0 closed, 100 open) where
the device has one. A cover that keeps open or closed as its own state (a garage door, or
HomeBench's curtain that can be open at degree 0) is closed when that state says so."""

from __future__ import annotations

from typing import Any

from homeassistant.components.cover import (
    ATTR_POSITION,
    CoverDeviceClass,
    CoverEntity,
    CoverEntityFeature,
)

from .entity import SmhRichEntity, rich_setup, role_value


class SmhCover(SmhRichEntity, CoverEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._attr_supported_features = self.features(CoverEntityFeature)
        if self.rich.device_class is not None:
            self._attr_device_class = CoverDeviceClass(self.rich.device_class)

    current_cover_position = role_value("position")

    @property
    def is_closed(self) -> bool:
        if "closed" in self.rich.roles:
            return self.get("closed") == "closed"
        return self.get("position") == 0

    async def async_open_cover(self, **kwargs: Any) -> None:
        self.run(self.rich.call("open"))

    async def async_close_cover(self, **kwargs: Any) -> None:
        self.run(self.rich.call("close"))

    async def async_set_cover_position(self, **kwargs: Any) -> None:
        self.run(self.rich.set("position", kwargs[ATTR_POSITION]))


async_setup_entry = rich_setup("cover", SmhCover)
