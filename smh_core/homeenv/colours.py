"""Which colours a light can hold, as Home Assistant keeps them (:attr:`ValueSpec.colour`).

HA keeps a light's colour in the colour mode the light offers. An ``hs`` light keeps hue and
saturation only, its brightness apart: asked for RGB (10, 20, 30) it shows (85, 170, 255), the
same hue and saturation at full value, with hue and saturation rounded to 3 decimals. An
``rgb``, ``rgbw`` or ``rgbww`` light keeps the channels (HA's conversions to and from the white
channels move one by at most 1, measured over 20,000 colours). A twin stores what HA would
report rather than refusing what the real light takes: an agent that asks a twin's hs light for
(10, 20, 30) is told it worked, as the real light tells it, and both then show (85, 170, 255).

Task colours are drawn from what every such light holds: a whole hue in degrees and a whole
saturation in percent at full value (the brightest channel at 255), as HA's colour picker
offers them; HA's hs light reports each back exactly, an rgbw or rgbww light within 1 a channel
(the hardware mapping compares within that, :mod:`smh_core.ha.map_rules`).

No Home Assistant import: the arithmetic is :mod:`colorsys`'s, rounded where HA rounds.
"""

from __future__ import annotations

import colorsys
import random
from collections.abc import Callable, Iterable
from typing import Any, Literal

ColourSpace = Literal["hue_saturation", "channels"]
"""How a light keeps a colour: ``hue_saturation`` (HA's hs and xy lights: at full value),
``channels`` (HA's rgb, rgbw and rgbww lights: as given)."""

HUE_SATURATION_MODES = frozenset({"hs", "xy"})
CHANNEL_MODES = frozenset({"rgb", "rgbw", "rgbww"})
COLOUR_MODES = HUE_SATURATION_MODES | CHANNEL_MODES
"""HA's colour modes that show a colour (``color_temp``, ``white``, ``onoff`` and
``brightness`` do not)."""


def mode_names(modes: Iterable[Any]) -> set[str]:
    """HA's colour mode names, as states give them (``hs``) or as an enum's text
    (``ColorMode.HS``)."""
    return {str(m).rsplit(".", 1)[-1].lower() for m in modes}


def space_of_modes(modes: Any) -> ColourSpace | None:
    """How a light with HA's ``supported_color_modes`` keeps an RGB colour it is given, or
    ``None`` when it shows none. HA's ``light.turn_on`` keeps ``rgb_color`` for an ``rgb``
    light and converts it for ``rgbw`` and ``rgbww`` (channels kept), else to ``hs`` or ``xy``
    (hue and saturation)."""
    if not isinstance(modes, (list, tuple, set, frozenset)):
        return None
    names = mode_names(modes)
    if names & CHANNEL_MODES:
        return "channels"
    if names & HUE_SATURATION_MODES:
        return "hue_saturation"
    return None


def rgb_of(value: str) -> tuple[int, int, int]:
    """``#RRGGBB`` (or ``RRGGBB``, ``0xRRGGBB``) as three channels 0-255; ``ValueError`` for
    anything else."""
    text = value.strip()
    text = text[1:] if text.startswith("#") else text
    text = text[2:] if text[:2].lower() == "0x" else text
    if len(text) != 6:
        raise ValueError(f"not an RGB hex colour: {value!r}")
    n = int(text, 16)
    return (n >> 16) & 0xFF, (n >> 8) & 0xFF, n & 0xFF


def hex_of(rgb: Any) -> str:
    """Three channels 0-255 (a list or tuple of numbers) as ``#RRGGBB``; ``ValueError`` else."""
    if not (
        isinstance(rgb, (list, tuple))
        and len(rgb) == 3
        and all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in rgb)
        and all(0 <= c <= 255 for c in rgb)
    ):
        raise ValueError(f"not three channels 0-255: {rgb!r}")
    return "#" + "".join(f"{round(c):02X}" for c in rgb)


def hs_hex(hue: float, saturation: float) -> str:
    """A hue in degrees and a saturation in percent at full value, as ``#RRGGBB`` (how HA shows
    an hs colour); ``ValueError`` if they give no colour (a saturation above 100)."""
    r, g, b = colorsys.hsv_to_rgb(hue / 360, saturation / 100, 1.0)
    return hex_of((r * 255, g * 255, b * 255))


def at_full_value(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """What HA's hs light reports for ``rgb``: its hue and saturation (each rounded to 3
    decimals, hue in degrees, saturation in percent) at full value, channels rounded. Black
    has no hue: white, as HA's hs (0, 0) shows."""
    h, s, _ = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    hue, sat = round(h * 360, 3), round(s * 100, 3)
    out = colorsys.hsv_to_rgb(hue / 360, sat / 100, 1.0)
    return round(out[0] * 255), round(out[1] * 255), round(out[2] * 255)


def held(space: ColourSpace | None, value: str) -> str:
    """The colour a light keeping colours in ``space`` shows when asked for ``value`` (hex,
    upper case as the twin stores it)."""
    rgb = rgb_of(value)
    return hex_of(at_full_value(rgb) if space == "hue_saturation" else rgb)


def colour_holder(spec: Any) -> Callable[[Any], Any] | None:
    """For a hex spec with a ``colour`` space, the function that takes a colour to what such a
    light shows (anything that is not a hex colour comes back as it is, for the checker to
    judge); ``None`` for every other spec."""
    space = getattr(spec, "colour", None)
    if space is None:
        return None

    def hold(v: Any) -> Any:
        if not isinstance(v, str):
            return v
        try:
            return held(space, v)
        except ValueError:
            return v

    return hold


def draw(space: ColourSpace, rng: random.Random) -> str:
    """A colour a light keeping colours in ``space`` holds: a whole hue in degrees and a whole
    saturation in percent at full value, as the light shows it (see the module's docstring)."""
    return held(space, hs_hex(rng.randrange(360), rng.randint(0, 100)))
