"""Narrowing a catalog device to exactly what a source's device has: what it keeps, what the
engine then refuses, and how everything that named a removed attribute is resolved."""

from __future__ import annotations

import pytest

from sim_devices.catalog import instantiate
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room
from smh_core.homeenv.narrowing import Narrowing, narrow


def _engine(*devices) -> HomeEngine:
    return HomeEngine(Home(rooms=[Room(id="r", type="room", name="R")], devices=list(devices)))


def test_a_colour_only_light_refuses_brightness_and_keeps_colour():
    light = instantiate("color_light", "l", "r", values={"state": "on", "brightness": 40})
    narrowed = narrow(
        light,
        Narrowing.of(
            ["state", "color"],
            ["turn_on", "turn_off", "set_color"],
            fixed={"color_mode": "color", "brightness": 100},
        ),
    )
    assert [a.name for a in narrowed.attributes] == ["state", "color"]
    assert [s.name for s in narrowed.services] == ["turn_on", "turn_off", "set_color"]
    set_color = next(s for s in narrowed.services if s.name == "set_color")
    assert [e.set for e in set_color.effects] == ["color", "state"]  # color_mode is gone
    engine = _engine(narrowed)
    before = engine.snapshot()
    refused = engine.execute("l", "set_brightness", {"brightness": 50})
    assert (
        refused.error.code == "service_not_found" and engine.diff(before, engine.snapshot()) == []
    )
    assert engine.execute("l", "set_color", {"color": "#FF0000"}).ok
    assert engine.value("l", "color") == "#FF0000"
    lux = narrowed.dynamics.lights[0]  # shines at its fixed full level
    assert lux.level_attr is None and lux.lux == 800


def test_options_and_ranges_are_the_sources_and_arguments_follow_them():
    ac = instantiate("floor_ac", "ac", "r", values={"state": "on", "ac_mode": "heat"})
    narrowed = narrow(
        ac,
        Narrowing.of(
            ["state", "ac_mode", "target_temperature"],
            ["turn_on", "turn_off", "set_ac_mode", "set_target_temperature"],
            options={"ac_mode": ["heat", "fan_only"]},
            ranges={"target_temperature": (16, 40)},
        ),
    )
    engine = _engine(narrowed)
    assert engine.execute("ac", "set_ac_mode", {"ac_mode": "cool"}).error.code in (
        "invalid_option",
        "bad_arguments",
    )
    assert engine.execute("ac", "set_target_temperature", {"target_temperature": 35.0}).ok
    assert engine.value("ac", "target_temperature") == 35.0


def test_a_removed_mode_keeps_its_value_for_good_in_preconditions_and_physics():
    """A heating unit without a mode heats: the cooling drive, active only in cool or auto,
    disappears; the heating one stays, unconditional on the mode."""
    ac = instantiate("floor_ac", "h", "r", values={"ac_mode": "heat"})
    narrowed = narrow(
        ac,
        Narrowing.of(
            ["state", "target_temperature"], ["turn_on", "turn_off", "set_target_temperature"]
        ),
    )
    drives = [
        (d.variable, d.direction, [w.attr for w in d.active_when]) for d in narrowed.dynamics.drives
    ]
    assert drives == [("temperature", "up", ["state"])]
    assert narrowed.dynamics.drives[0].scale_attr is None  # fan level fixed: folded into the rate
    assert narrowed.dynamics.sensors == []  # no current_temperature any more


def test_a_kept_service_that_could_never_run_is_an_error():
    fan = instantiate("smart_fan", "f", "r")
    with pytest.raises(ValueError, match="could never run"):
        narrow(
            fan,
            Narrowing.of(
                ["speed_level", "preset_mode"], ["set_preset_mode"], fixed={"state": "off"}
            ),
        )
    narrowed = narrow(
        fan,
        Narrowing.of(["speed_level", "preset_mode"], ["set_preset_mode"], fixed={"state": "on"}),
    )
    assert next(s for s in narrowed.services if s.name == "set_preset_mode").requires == []


@pytest.mark.parametrize(
    ("narrowing", "match"),
    [
        (Narrowing.of(["state", "volume"], []), r"cannot narrow to \['volume'\]"),
        (Narrowing.of(["state"], ["dance"]), r"cannot narrow to \['dance'\]"),
        (
            Narrowing.of(["state", "preset_mode"], [], options={"preset_mode": ["turbo"]}),
            "never adds an option",
        ),
        (
            Narrowing.of(["state"], [], options={"preset_mode": ["auto"]}),
            r"cannot narrow to \['preset_mode'\]",
        ),
        (Narrowing.of(["state"], [], fixed={"speed_level": "warp"}), "fixed value of speed_level"),
    ],
)
def test_a_narrowing_asking_for_what_the_device_lacks_is_refused_by_name(narrowing, match):
    with pytest.raises(ValueError, match=match):
        narrow(instantiate("smart_fan", "f", "r"), narrowing)


def test_a_programme_cannot_lose_what_it_runs_on():
    vacuum = instantiate("room_vacuum", "v", None)
    with pytest.raises(ValueError, match="programme needs"):
        narrow(vacuum, Narrowing.of(["state"], ["start"]))
    kept = narrow(
        vacuum,
        Narrowing.of(
            ["state", "dock_countdown", "cleaning_area"],
            ["start", "set_cleaning_area"],
            options={"cleaning_area": ["all", "kitchen"]},
        ),
    )
    engine = _engine(kept)
    assert engine.execute("v", "set_cleaning_area", {"cleaning_area": "kitchen"}).ok
    assert not engine.execute("v", "set_cleaning_area", {"cleaning_area": "attic"}).ok


def test_unrequired_drops_a_power_rule_for_the_narrowed_device_only():
    """A source whose devices take settings while off (HomeBench) narrows the catalog's "the
    unit must be running" away; the catalog type keeps it."""
    values = {"state": "off", "swing_enabled": False}
    keep = (
        ["state", "swing_enabled", "swing_position"],
        ["turn_on", "turn_off", "set_swing", "set_swing_position"],
    )
    plain = _engine(instantiate("split_ac", "ac", "r", values=values))
    refused = plain.execute("ac", "set_swing", {"swing_enabled": True})
    assert not refused.ok and "must be on" in refused.error.message
    source = narrow(
        instantiate("split_ac", "ac", "r", values=values), Narrowing.of(*keep, unrequired=["state"])
    )
    engine = _engine(source)
    assert engine.execute("ac", "set_swing", {"swing_enabled": True}).ok
    assert engine.value("ac", "swing_enabled") is True and engine.value("ac", "state") == "off"
    assert (
        _engine(narrow(instantiate("split_ac", "ac", "r", values=values), Narrowing.of(*keep)))
        .execute("ac", "set_swing", {"swing_enabled": True})
        .error
        is not None
    )  # without it the rule stays


def _active(drive, values: dict) -> bool:
    return all(w.holds(values[w.attr]) for w in drive.active_when)


def test_an_alias_is_a_second_name_that_behaves_as_the_option_it_names():
    """HA's thermostats may offer both ``auto`` and ``heat_cool`` (two modes regulating both
    ways) where the catalog air conditioner has one, ``auto``: an alias lets the twin take and
    report ``heat_cool``, with every drive of the unit as it is in ``auto``."""
    ac = instantiate("split_ac", "ac", "r", values={"state": "on", "ac_mode": "cool"})
    modes = ["heat_cool", "cool", "auto"]
    narrowed = narrow(
        ac,
        Narrowing.of(
            ["state", "ac_mode", "target_temperature"],
            ["turn_on", "turn_off", "set_ac_mode", "set_target_temperature"],
            options={"ac_mode": modes},
            aliases={"ac_mode": {"heat_cool": "auto"}},
        ),
    )
    drives = narrowed.dynamics.drives
    assert drives and any(_active(d, {"state": "on", "ac_mode": "auto"}) for d in drives)
    for mode in ("heat_cool", "auto", "cool", "dry"):
        alike = "auto" if mode == "heat_cool" else mode
        assert [_active(d, {"state": "on", "ac_mode": mode}) for d in drives] == [
            _active(d, {"state": "on", "ac_mode": alike}) for d in drives
        ], mode
    engine = _engine(narrowed)
    assert engine.execute("ac", "set_ac_mode", {"ac_mode": "heat_cool"}).ok
    assert engine.value("ac", "ac_mode") == "heat_cool"
    assert not engine.execute("ac", "set_ac_mode", {"ac_mode": "heat"}).ok  # not its option
    # the catalog type is untouched: it has no heat_cool
    assert not _engine(ac).execute("ac", "set_ac_mode", {"ac_mode": "heat_cool"}).ok


@pytest.mark.parametrize(
    ("options", "aliases", "match"),
    [
        # an alias of an option the type lacks: it would invent a behaviour
        (["cool", "warm"], {"warm": "sauna"}, "an alias names one of the type's options"),
        # an alias that is one of the type's own options: a second meaning for it
        (["cool", "heat"], {"heat": "auto"}, "an alias names one of the type's options"),
        # an alias the narrowing does not keep as an option
        (["cool", "auto"], {"heat_cool": "auto"}, "not in the options the narrowing keeps"),
        # an option neither the type's nor an alias: still refused
        (["cool", "heat_cool"], {}, "never adds an option"),
    ],
)
def test_an_alias_that_is_not_a_second_name_is_refused(options, aliases, match):
    ac = instantiate("split_ac", "ac", "r")
    with pytest.raises(ValueError, match=match):
        narrow(
            ac,
            Narrowing.of(
                ["state", "ac_mode"],
                ["set_ac_mode"],
                options={"ac_mode": options},
                aliases={"ac_mode": aliases},
            ),
        )
