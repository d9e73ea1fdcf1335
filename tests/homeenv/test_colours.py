"""A light's colour as Home Assistant keeps it (``ValueSpec.colour``, smh_core/homeenv/colours.py):
the twin's arithmetic against HA's own colour util, the simulated light storing what HA would
report, task colours drawn only from what the light holds, and colours it does not understand
refused."""

from __future__ import annotations

import random

import pytest
from homeassistant.util import color as ha_colour

from sim_devices.catalog import instantiate, load_catalog, with_colours
from smh_core.homeenv.colours import at_full_value, draw, held, hex_of, rgb_of, space_of_modes
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, ValueSpec
from smh_core.homeenv.samples import valid_value


def _any_colours(n: int, seed: int = 0) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    return [tuple(rng.randint(0, 255) for _ in range(3)) for _ in range(n)]  # type: ignore[misc]


def test_an_hs_light_keeps_what_has_own_hs_round_trip_keeps() -> None:
    """HA's hs light given rgb_color: color_RGB_to_hs (3 decimals), reported as color_hs_to_RGB.
    The twin's arithmetic gives the same channels for every one of 5,000 colours."""
    for rgb in _any_colours(5000):
        assert at_full_value(rgb) == ha_colour.color_hs_to_RGB(*ha_colour.color_RGB_to_hs(*rgb))
    assert held("hue_saturation", "#0A141E") == "#55AAFF"  # the brief's (10, 20, 30)
    assert held("hue_saturation", "#000000") == "#FFFFFF"  # black has no hue: HA's hs (0, 0)


def test_a_light_that_keeps_channels_stores_them_as_given() -> None:
    assert held("channels", "#0A141E") == "#0A141E"
    assert held("channels", "#ff8000") == "#FF8000"  # stored upper case, as imported


@pytest.mark.parametrize("space", ["hue_saturation", "channels"])
def test_drawn_colours_are_held_by_every_ha_conversion_of_their_kind(space) -> None:
    """What the generator draws, HA reports back: exactly through an hs light's round trip,
    within 1 a channel through HA's rgbw and rgbww conversions (the demo's white points), and
    exactly on most of them (the mapping's tolerance is for the rest)."""
    rng = random.Random(3)
    drawn = [draw(space, rng) for _ in range(3000)]
    assert len(set(drawn)) > 2000
    moved = 0
    for value in drawn:
        rgb = rgb_of(value)
        assert max(rgb) == 255  # full value
        assert held(space, value) == value
        assert ha_colour.color_hs_to_RGB(*ha_colour.color_RGB_to_hs(*rgb)) == rgb
        rgbw = ha_colour.color_rgbw_to_rgb(*ha_colour.color_rgb_to_rgbw(*rgb))
        rgbww = ha_colour.color_rgbww_to_rgb(
            *ha_colour.color_rgb_to_rgbww(*rgb, 2000, 6535), 2000, 6535
        )
        for back in (rgbw, rgbww):
            assert max(abs(a - b) for a, b in zip(rgb, back, strict=True)) <= 1
            moved += back != rgb
    assert 0 < moved < len(drawn) * 2 * 0.1


def test_a_paler_colour_through_the_white_channels_moves_by_at_most_one() -> None:
    """Why a light that keeps channels is compared within 1 a channel (map_rules)."""
    worst = 0
    for rgb in _any_colours(3000, seed=1):
        if max(rgb) == 0:
            continue
        back = ha_colour.color_rgbw_to_rgb(*ha_colour.color_rgb_to_rgbw(*rgb))
        rgbww = ha_colour.color_rgb_to_rgbww(*rgb, 2000, 6535)
        back2 = ha_colour.color_rgbww_to_rgb(*rgbww, 2000, 6535)
        worst = max(worst, *(abs(a - b) for a, b in zip(rgb, back, strict=True)))
        worst = max(worst, *(abs(a - b) for a, b in zip(rgb, back2, strict=True)))
    assert worst == 1


def test_colour_modes_say_how_a_light_keeps_a_colour() -> None:
    assert space_of_modes(["hs", "color_temp"]) == "hue_saturation"
    assert space_of_modes(["xy"]) == "hue_saturation"
    assert space_of_modes(["rgbw"]) == "channels"
    assert space_of_modes(["hs", "rgb"]) == "channels"  # HA keeps rgb_color for an rgb light
    assert space_of_modes(["color_temp", "onoff"]) is None
    assert space_of_modes(None) is None


def _engine() -> HomeEngine:
    lights = [
        instantiate(
            "color_light", did="hs", room=None, name="Hs", colours={"color": "hue_saturation"}
        ),
        instantiate(
            "color_light", did="rgbw", room=None, name="Rgbw", colours={"color": "channels"}
        ),
        instantiate("color_light", did="plain", room=None, name="Plain"),
    ]
    return HomeEngine(Home(name="h", rooms=[], devices=lights))


def test_the_simulated_light_stores_what_ha_would_report() -> None:
    engine = _engine()
    assert engine.execute("hs", "set_color", {"color": "#0A141E"}).ok
    assert engine.value("hs", "color") == "#55AAFF"
    assert engine.value("hs", "color_mode") == "color"
    assert engine.execute("rgbw", "set_color", {"color": "#0A141E"}).ok
    assert engine.value("rgbw", "color") == "#0A141E"
    assert engine.execute("plain", "set_color", {"color": "#0A141E"}).ok  # the catalog's: as before
    assert engine.value("plain", "color") == "#0A141E"


@pytest.mark.parametrize("bad", ["#FFF", "#GG0000", "red", 255, None, "#FF00001"])
def test_a_colour_the_light_does_not_understand_is_refused_and_changes_nothing(bad) -> None:
    engine = _engine()
    before = engine.snapshot()
    result = engine.execute("hs", "set_color", {"color": bad})
    assert not result.ok and result.error is not None
    assert "hex" in result.error.message
    assert engine.snapshot().to_dict() == before.to_dict()


def test_the_catalog_light_still_takes_a_short_hex() -> None:
    """Unchanged for SMH's own homes: their tasks stay byte-identical."""
    assert _engine().execute("plain", "set_color", {"color": "#FFF"}).ok


def test_generators_draw_only_held_colours_and_are_deterministic() -> None:
    spec = ValueSpec(type="hex", range=(0, 0xFFFFFF), colour="hue_saturation")
    first = [valid_value(spec, random.Random(7)) for _ in range(3)]
    assert first == [valid_value(spec, random.Random(7)) for _ in range(3)]
    rng = random.Random(7)
    for _ in range(500):
        value = valid_value(spec, rng)
        assert max(rgb_of(value)) == 255 and held("hue_saturation", value) == value
    plain = ValueSpec(type="hex", range=(0, 0xFFFFFF))  # the catalog's: the same draws as before
    rng = random.Random(7)
    assert valid_value(plain, rng) == f"#{random.Random(7).randint(0, 0xFFFFFF):06X}"


def test_colour_space_only_on_hex_and_known_spaces() -> None:
    with pytest.raises(ValueError, match="colour needs a hex value"):
        ValueSpec(type="int", colour="channels")
    with pytest.raises(ValueError, match="colour"):
        ValueSpec(type="hex", colour="cmyk")
    light = load_catalog()["color_light"]
    with pytest.raises(ValueError, match="not a hex attribute"):
        with_colours(light, {"brightness": "channels"})
    with pytest.raises(ValueError, match="must be one of"):
        with_colours(light, {"color": "cmyk"})
    set_color = next(
        s for s in with_colours(light, {"color": "channels"}).services if s.name == "set_color"
    )
    assert set_color.arguments[0].colour == "channels"  # the argument written to it too


def test_hex_of_refuses_what_is_not_three_channels() -> None:
    assert hex_of([255, 128.4, 0]) == "#FF8000"
    for bad in ([255, 0], [256, 0, 0], [-1, 0, 0], [True, 0, 0], "255,0,0", None):
        with pytest.raises(ValueError):
            hex_of(bad)
