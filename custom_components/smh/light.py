"""Lights: on/off and brightness, plus color temperature, RGB color and effects where the
device has them. A light without brightness (a Matter on/off light) only switches.

Brightness reads back what HA wrote. A device whose brightness is in HA's own 0-255 units (a
light imported from an HA home) is shown and set as is. Any other range is scaled, and a
coarser range (a catalog light's 1-100 %) cannot hold all 255 HA levels: the entity then
remembers the last HA value it wrote and shows it for as long as the device holds what that
value became (HA's 100 is stored as 39 % and read back as 100, not 99); a change from anywhere
else shows the scaled value."""

from __future__ import annotations

from typing import Any

from homeassistant.components.light import (
    ATTR_BRIGHTNESS,
    ATTR_COLOR_TEMP_KELVIN,
    ATTR_EFFECT,
    ATTR_RGB_COLOR,
    ColorMode,
    LightEntity,
    LightEntityFeature,
)
from homeassistant.util.color import brightness_to_value, value_to_brightness

from .entity import (
    SmhRichEntity,
    Written,
    refusal,
    refuse_while_fast_forwarding,
    rich_setup,
    role_value,
)
from .rich import Action


def hex_to_rgb(value: str) -> tuple[int, int, int]:
    n = int(value.removeprefix("#").removeprefix("0x").removeprefix("0X"), 16)
    return (n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF


def rgb_to_hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02X}{:02X}{:02X}".format(*rgb)


class SmhLight(SmhRichEntity, LightEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        roles = self.rich.roles
        modes: set[ColorMode] = set()
        if "color" in roles:
            modes.add(ColorMode.RGB)
        if "color_temp" in roles:
            modes.add(ColorMode.COLOR_TEMP)
            low, high = roles["color_temp"].range
            self._attr_min_color_temp_kelvin, self._attr_max_color_temp_kelvin = int(low), int(high)
        dimmable = "brightness" in roles
        self._attr_supported_color_modes = modes or {
            ColorMode.BRIGHTNESS if dimmable else ColorMode.ONOFF
        }
        self._attr_supported_features = self.features(LightEntityFeature)
        if "effect" in roles:
            self._attr_effect_list = [str(o) for o in roles["effect"].options]
        self._written_brightness = Written()
        self._scale = roles["brightness"].range if dimmable else None
        self._native = self._scale is not None and self._scale[1] == 255
        if dimmable:
            setter = roles["brightness"].setter
            assert setter is not None
            self._setter = (setter.service, setter.argument)
        # the brightness scaling, worked out once per value (256 HA levels, the device's levels):
        # a repeated call costs a dict lookup, and so does the state write after it
        self._calls: dict[Any, tuple[int, Any]] = {}  # HA brightness -> (device value, argument)
        self._shown: dict[Any, int] = {}  # device value (HA-side units) -> HA brightness
        modes = self._attr_supported_color_modes
        self._only_mode = next(iter(modes)) if len(modes) == 1 else None
        self._refresh()

    _scale: tuple[float, float] | None = None
    _native = False  # brightness in HA's 0-255 units: no scaling
    _brightness: int | None = None
    _shown: dict[Any, int] = {}  # (before __init__ sets the entity's own)

    def _refresh(self) -> None:
        super()._refresh()
        value = self._values.get("brightness")
        if self._scale is None or value is None:
            self._brightness = None
        elif self._native:
            self._brightness = int(value)
        else:
            scaled = self._shown.get(value)
            if scaled is None:
                scaled = value_to_brightness(self._scale, value)
                if len(self._shown) < 1024:
                    self._shown[value] = scaled
            self._brightness = self._written_brightness.shown(value, scaled)

    def _brightness_call(self, brightness: int) -> tuple[int, Any]:
        """The device value (HA-side units) for an HA brightness, and the engine's argument."""
        value = self._device_brightness(brightness)
        return value, self.rich.roles["brightness"].from_ha(value)

    def _cached_call(self, brightness: Any) -> tuple[int, Any]:
        """:meth:`_brightness_call`, kept per HA brightness (0-255, so at most 256 entries)."""
        call = self._calls.get(brightness)
        if call is None:
            call = self._brightness_call(brightness)
            if type(brightness) is int and 0 <= brightness <= 255:
                self._calls[brightness] = call
        return call

    def _device_brightness(self, brightness: int) -> int:
        """The device value for an HA brightness (clamped to the device's range)."""
        assert self._scale is not None
        low, high = self._scale
        value = brightness if self._native else round(brightness_to_value(self._scale, brightness))
        return int(min(high, max(low, value)))

    is_on = SmhRichEntity.powered

    @property
    def brightness(self) -> int | None:
        return self._brightness

    @property
    def color_mode(self) -> ColorMode:
        if self._only_mode is not None:
            return self._only_mode
        mode = self.get("color_mode") if "color_mode" in self.rich else None
        if mode is not None:
            return ColorMode(mode)
        # no mode to show (a mode the source home does not state): the one its values show
        if self.get("color") is None and self.color_temp_kelvin is not None:
            return ColorMode.COLOR_TEMP
        return ColorMode.RGB

    color_temp_kelvin = role_value("color_temp")

    @property
    def rgb_color(self) -> tuple[int, int, int] | None:
        color = self.get("color")
        return None if color is None else hex_to_rgb(color)

    effect = role_value("effect")

    async def async_turn_on(self, **kwargs: Any) -> None:
        rich = self.rich
        if (
            self._powered
            and self._scale is not None
            and len(kwargs) == 1
            and ATTR_BRIGHTNESS in kwargs
        ):
            self._dim(kwargs[ATTR_BRIGHTNESS])  # dimming a light that is on: one engine call
            return
        actions: list[Action] = [] if self._powered and kwargs else [rich.power(True)]
        written: tuple[int, int] | None = None
        if ATTR_BRIGHTNESS in kwargs and self._scale is not None:
            brightness = kwargs[ATTR_BRIGHTNESS]
            value, argument = self._cached_call(brightness)
            service, name = self._setter
            actions.append({"did": rich.did, "locator": service, "arguments": {name: argument}})
            written = (value, int(brightness))
        if ATTR_COLOR_TEMP_KELVIN in kwargs and "color_temp" in rich:
            actions.append(rich.set("color_temp", kwargs[ATTR_COLOR_TEMP_KELVIN]))
        if ATTR_RGB_COLOR in kwargs and "color" in rich:
            actions.append(rich.set("color", rgb_to_hex(kwargs[ATTR_RGB_COLOR])))
        if ATTR_EFFECT in kwargs and "effect" in rich:
            actions.append(rich.set("effect", kwargs[ATTR_EFFECT]))
        if written is None:
            self.run(*actions)
            return
        with self._written_brightness.writing(*written):
            self.run(*actions)
        if self._brightness != written[1]:
            self._changed()  # the device value did not move (HA's 99 and 100 are both 39 %): show it

    def _dim(self, brightness: Any) -> None:
        """``turn_on`` with only a brightness, the light on: the most frequent call, as
        :meth:`async_turn_on` would make it (the same engine call, validation and state write),
        without building a batch of one."""
        value, argument = self._cached_call(brightness)
        service, name = self._setter
        runtime = self.runtime
        refuse_while_fast_forwarding(runtime)
        shown = int(brightness)
        written = self._written_brightness  # Written.writing, inlined: the state is written
        before = written.device, written.ha  # from inside the call, with HA's value
        written.device, written.ha = value, shown
        try:
            error = runtime.engine.execute(self.rich.did, service, {name: argument}).error
        except BaseException:
            written.device, written.ha = before
            raise
        if error is not None:
            written.device, written.ha = before
            raise refusal(str(error))
        if self._brightness != shown:
            self._changed()  # the device value did not move (HA's 99 and 100 are both 39 %): show it

    async def async_turn_off(self, **kwargs: Any) -> None:
        self.run(self.rich.power(False))


async_setup_entry = rich_setup("light", SmhLight)
