"""Device controls HomeBench's valid requests need and the catalog lacked or refused: intensity
of humidifiers and dehumidifiers, an air purifier's fan speed, brightness 0, pausing what is
paused, water heaters above 75 °C (per device, with the action guard still on), a dehumidifier's
sleep mode and a fan's auto mode. Each is a real call on the engine; refusals leave the home as
it was."""

from __future__ import annotations

import pytest

from sim_devices.catalog import instantiate, load_catalog, with_ranges
from smh_core.agent.safety import ActionGuard, GuardedBackend
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room


def _engine(*devices) -> HomeEngine:
    return HomeEngine(Home(rooms=[Room(id="r", type="room", name="Room")], devices=list(devices)))


@pytest.mark.parametrize("type_name", ["humidifier", "dehumidifier"])
def test_intensity_is_a_control_kept_while_off(type_name):
    engine = _engine(instantiate(type_name, "d", "r"))
    assert engine.value("d", "state") == "off"
    assert engine.execute("d", "set_intensity", {"intensity": 30}).ok
    assert engine.status("d")["intensity"] == 30 and engine.value("d", "state") == "off"
    before = engine.snapshot()
    refused = engine.execute("d", "set_intensity", {"intensity": 101})
    assert refused.error.code == "out_of_range" and engine.diff(before, engine.snapshot()) == []


def test_dehumidifier_sleep_mode_runs_slower():
    engine = _engine(instantiate("dehumidifier", "d", "r"))
    assert engine.execute("d", "set_work_mode", {"work_mode": "sleep"}).ok
    drive = engine.device("d").dynamics.drives[0]
    assert drive.scale_map["sleep"] < drive.scale_map["auto"]


def test_air_purifier_fan_speed():
    engine = _engine(instantiate("air_purifier", "p", "r"))
    assert engine.execute("p", "set_fan_speed", {"fan_speed": "high"}).ok
    assert engine.value("p", "fan_speed") == "high"
    assert (
        engine.execute("p", "set_fan_speed", {"fan_speed": "turbo"}).error.code == "invalid_option"
    )


def test_fan_auto_mode_needs_the_fan_running():
    engine = _engine(instantiate("smart_fan", "f", "r"))
    assert (
        engine.execute("f", "set_preset_mode", {"preset_mode": "auto"}).error.code
        == "precondition_failed"
    )
    assert engine.execute("f", "turn_on", {}).ok
    assert engine.execute("f", "set_preset_mode", {"preset_mode": "auto"}).ok
    assert engine.value("f", "preset_mode") == "auto"


@pytest.mark.parametrize(
    ("type_name", "service", "ns"),
    [
        ("light", "set_brightness", ""),
        ("color_light", "set_brightness", ""),
        ("color_temperature_light", "set_brightness", ""),
        ("light_strip", "set_brightness", ""),
        ("fan_light", "light.set_brightness", "light."),
    ],
)
def test_brightness_zero_switches_off_and_keeps_the_last_level(type_name, service, ns):
    """As Home Assistant: brightness 0 means off; turning on again restores the old level."""
    engine = _engine(instantiate(type_name, "l", "r"))
    assert engine.execute("l", service, {"brightness": 40}).ok
    assert engine.value("l", f"{ns}state") == "on"
    assert engine.execute("l", service, {"brightness": 0}).ok
    assert engine.value("l", f"{ns}state") == "off" and engine.value("l", f"{ns}brightness") == 40
    assert engine.execute("l", f"{ns}turn_on", {}).ok and engine.value("l", f"{ns}brightness") == 40
    before = engine.snapshot()
    assert engine.execute("l", service, {"brightness": -1}).error.code == "out_of_range"
    assert engine.diff(before, engine.snapshot()) == []
    # a direct write still holds the attribute's own range: 0 % is not a stored brightness
    if dict(engine.device("l").attributes_by_locator())[f"{ns}brightness"].writable:
        assert not engine.execute("l", f"{ns}brightness", {"value": 0}).ok


@pytest.mark.parametrize(
    ("type_name", "pause"), [("universal_speaker", "player.pause"), ("smart_screen", "pause")]
)
def test_pausing_what_is_paused_is_a_no_op(type_name, pause):
    preset = "muted_pause" if type_name == "universal_speaker" else "movie_paused"
    engine = _engine(instantiate(type_name, "m", "r", preset=preset))
    result = engine.execute("m", pause, {})
    assert result.ok and result.changes == []
    stop = pause.replace("pause", "stop")
    assert engine.execute("m", stop, {}).ok
    assert engine.execute("m", pause, {}).error.code == "precondition_failed"  # nothing playing


def test_a_water_heater_can_carry_its_own_range_and_the_guard_still_asks():
    catalog_range = (
        load_catalog()["electric_water_heater"].attribute_specs()["target_water_temperature"].range
    )
    assert catalog_range == (30.0, 75.0)
    heater = instantiate(
        "electric_water_heater",
        "w",
        "r",
        ranges={"target_water_temperature": (30, 100)},
        values={"target_water_temperature": 90},
        name="Boiler Room Water Heater",
    )
    engine = _engine(heater, instantiate("electric_water_heater", "plain", "r"))
    assert engine.execute("w", "set_target_water_temperature", {"target_water_temperature": 95}).ok
    assert (
        engine.execute("w", "start_heating", {"target_water_temperature": 100}).error.code
        == "precondition_failed"
    )
    assert (
        engine.execute("w", "start_heating", {"target_water_temperature": 101}).error.code
        == "out_of_range"
    )
    assert (
        engine.execute(
            "plain", "set_target_water_temperature", {"target_water_temperature": 95}
        ).error.code
        == "out_of_range"
    )
    guarded = GuardedBackend(
        EmbeddedBackend(engine), ActionGuard(["set the water heater a bit warmer"])
    )
    refused = guarded.execute("w", "set_target_water_temperature", {"target_water_temperature": 80})
    assert (
        refused["error"]["rule"] == "scalding_water"
        and engine.value("w", "target_water_temperature") == 95
    )
    # two water heaters: the user names this one ("the water heater" alone would be asked about)
    said = "set the boiler room water heater to 80 degrees"
    asked = GuardedBackend(EmbeddedBackend(engine), ActionGuard([said]))
    assert asked.execute("w", "set_target_water_temperature", {"target_water_temperature": 80})[
        "ok"
    ]


@pytest.mark.parametrize(
    ("ranges", "match"),
    [
        ({"work_mode": (0, 1)}, "not a numeric attribute"),
        ({"nope": (0, 1)}, "not a numeric attribute"),
        ({"target_water_temperature": (80, 30)}, "low < high"),
    ],
)
def test_a_bad_range_override_is_refused_by_name(ranges, match):
    with pytest.raises(ValueError, match=match):
        with_ranges(load_catalog()["electric_water_heater"], ranges)


def test_aroma_diffuser_keeps_its_settings_while_off():
    """HomeBench's aromatherapy devices: intensity and the pause between bursts."""
    engine = _engine(instantiate("aroma_diffuser", "a", "r", preset="relax"))
    assert engine.execute("a", "turn_off", {}).ok
    assert engine.execute("a", "set_interval", {"interval": 10}).ok
    assert engine.execute("a", "set_intensity", {"intensity": 0}).ok
    assert engine.status("a") == {"state": "off", "intensity": 0, "interval": 10}
    before = engine.snapshot()
    assert engine.execute("a", "set_interval", {"interval": 5}).error.code == "out_of_range"
    assert engine.diff(before, engine.snapshot()) == []
