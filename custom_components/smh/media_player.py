"""Media players (smart screens, speakers, Matter TVs, networked players): on/off, volume (set,
step, mute), and play, pause, stop, next/previous, play_media (by title) and the input source
where the device has them. A player whose one state is off, idle, playing or paused (the
catalog's media player) is switched by its turn_on/turn_off services rather than a power role."""

from __future__ import annotations

from typing import Any

from homeassistant.components.media_player import (
    MediaPlayerDeviceClass,
    MediaPlayerEntity,
    MediaPlayerEntityFeature,
    MediaPlayerState,
    MediaType,
)

from .entity import PowerToggle, SmhRichEntity, Written, rich_setup, role_value


class SmhMediaPlayer(PowerToggle, SmhRichEntity, MediaPlayerEntity):
    _attr_volume_step = 0.1  # the devices' volume_up/volume_down move by 10 of 100

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._written = Written()
        self._attr_supported_features = self.features(MediaPlayerEntityFeature)
        if self.rich.device_class is not None:
            self._attr_device_class = MediaPlayerDeviceClass(self.rich.device_class)
        self._switched = "power" in self.rich.roles  # else its one state says whether it is off
        if "source" in self.rich:
            self._attr_source_list = [str(o) for o in self.rich.roles["source"].options]

    @property
    def state(self) -> MediaPlayerState:
        if not self._switched:
            return MediaPlayerState(self.get("state"))
        return MediaPlayerState(self.get("state")) if self.powered else MediaPlayerState.OFF

    source = role_value("source")
    media_track = role_value("track")

    async def async_turn_on(self, **kwargs: Any) -> None:
        self.run(self.rich.power(True) if self._switched else self.rich.call("turn_on"))

    async def async_turn_off(self, **kwargs: Any) -> None:
        self.run(self.rich.power(False) if self._switched else self.rich.call("turn_off"))

    async def async_select_source(self, source: str) -> None:
        self.run(self.rich.set("source", source))

    @property
    def volume_level(self) -> float | None:
        volume = self.get("volume")
        return None if volume is None else self._written.shown(volume, volume / 100)

    is_volume_muted = role_value("muted")

    @property
    def media_title(self) -> str | None:
        return self.get("title") or None

    async def async_set_volume_level(self, volume: float) -> None:
        """Set the volume in whole percent; HA reads back the level it asked for (0.555, not 0.56)."""
        level = round(volume * 100)
        with self._written.writing(level, volume):
            self.run(self.rich.set("volume", level))
        self.async_write_ha_state()

    async def async_volume_up(self) -> None:
        self.run(self.rich.call("volume_up"))

    async def async_volume_down(self) -> None:
        self.run(self.rich.call("volume_down"))

    async def async_mute_volume(self, mute: bool) -> None:
        self.run(self.rich.call("mute" if mute else "unmute"))

    async def async_media_play(self) -> None:
        self.run(self.rich.call("play"))

    async def async_media_pause(self) -> None:
        self.run(self.rich.call("pause"))

    async def async_media_stop(self) -> None:
        self.run(self.rich.call("stop"))

    async def async_media_next_track(self) -> None:
        self.run(self.rich.call("next"))

    async def async_media_previous_track(self) -> None:
        self.run(self.rich.call("previous"))

    async def async_play_media(
        self, media_type: MediaType | str, media_id: str, **kwargs: Any
    ) -> None:
        self.run(self.rich.call("play_media", media_name=media_id))


async_setup_entry = rich_setup("media_player", SmhMediaPlayer)
