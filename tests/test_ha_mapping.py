"""Hardware mapping files: parsing, value conversion both ways, and errors that name the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from smh_core.cli.main import main
from smh_core.ha.hardware import MEMORY_UNSEEN, check_home, overlay, skip_reason, touched
from smh_core.ha.hardware_map import (
    NOT_OBSERVED,
    MappingFileError,
    ReadError,
    load_mapping,
    parse_mapping,
)
from smh_core.task.home import HomeCache, prepare_engine
from smh_core.task.model import ExecuteGoal, MemoryGoal, load_tasks

ROOT = Path(__file__).parent.parent
EXAMPLE = ROOT / "examples" / "hardware-mapping.yaml"
TASKS = ROOT / "tasks"

HEAD = "home: {file: homes/tiny.json}\ndevices:\n"


def _state(state: str, **attributes) -> dict:
    return {"entity_id": "x.y", "state": state, "attributes": attributes}


@pytest.fixture(scope="module")
def example():
    return load_mapping(EXAMPLE)


def test_example_parses_and_fits_the_tiny_home(example) -> None:
    assert example.home.key() == "file:homes/tiny.json"
    assert example.entities() == [
        "climate.hvac",
        "fan.living_room_fan",
        "light.bed_light",
        "light.ceiling_lights",
    ]
    assert [f"{d}/{loc}" for d, loc, _ in example.items()][:3] == [
        "1001/state",
        "1001/brightness",
        "1002/light.state",
    ]
    check_home(example, load_tasks([TASKS / "sample.jsonl"]), HomeCache(TASKS))


def test_on_off_are_strings_and_services_take_the_value(example) -> None:
    state = example.get("1001", "state")
    assert state.calls("on") == [("light", "turn_on", {"entity_id": "light.bed_light"})]
    assert state.calls("off") == [("light", "turn_off", {"entity_id": "light.bed_light"})]
    assert state.read(_state("on", brightness=10), "off") == "on"


def test_linear_scale_round_trips_in_the_attribute_type(example) -> None:
    brightness = example.get("1001", "brightness")
    assert brightness.calls(30) == [
        ("light", "turn_on", {"entity_id": "light.bed_light", "brightness": 76})
    ]
    for pct in (1, 30, 50, 99, 100):
        ((_, _, data),) = brightness.calls(pct)
        got = brightness.read(_state("on", brightness=data["brightness"]), 50)
        assert got == pct and type(got) is int
    assert (
        brightness.read(_state("off", brightness=None), 50) is NOT_OBSERVED
    )  # HA drops it while off


def test_value_maps_with_tolerance_ignore_and_otherwise(example) -> None:
    speed = example.get("1002", "fan.speed_level")
    assert speed.calls("high") == [
        ("fan", "set_percentage", {"entity_id": "fan.living_room_fan", "percentage": 100})
    ]
    assert speed.read(_state("on", percentage=67), "low") == "medium"  # within the tolerance of 66
    assert speed.read(_state("off", percentage=0), "low") is NOT_OBSERVED
    with pytest.raises(ReadError, match="percentage = 50 has no HomeEnv value"):
        speed.read(_state("on", percentage=50), "low")
    power = example.get("1003", "state")
    assert power.read(_state("heat"), "on") == "on" and power.read(_state("off"), "on") == "off"
    assert power.calls("on") == [("climate", "turn_on", {"entity_id": "climate.hvac"})]
    mode = example.get("1003", "ac_mode")
    assert (
        mode.read(_state("dry"), "cool") == "dry"
        and mode.read(_state("off"), "cool") is NOT_OBSERVED
    )
    assert (
        example.get("1003", "target_temperature").read(_state("cool", temperature=22), 24.0) == 22.0
    )


def test_unavailable_or_missing_entities_are_read_errors(example) -> None:
    state = example.get("1001", "state")
    with pytest.raises(ReadError, match="light.bed_light is unavailable"):
        state.read(_state("unavailable"), "off")
    with pytest.raises(ReadError, match="no such entity"):
        state.read(None, "off")


def test_booleans_and_read_only_attributes() -> None:
    m = parse_mapping(
        HEAD + "  '1003':\n    child_lock:\n      entity: switch.ac_lock\n"
        "    state:\n      entity: sensor.ac_power\n"
    )
    lock = m.get("1003", "child_lock")
    assert lock.read(_state("on"), False) is True and lock.read(_state("off"), True) is False
    assert lock.calls(True) == []  # no set: read-only, checked but never written
    with pytest.raises(ReadError, match="not a boolean"):
        lock.read(_state("maybe"), False)


def test_touched_attributes_and_skips(example) -> None:
    tasks = {t.id: t for t in load_tasks([TASKS / "sample.jsonl"])}
    homes = HomeCache(TASKS)
    exec2 = tasks["exec-2"]
    assert touched(exec2, prepare_engine(exec2, homes).snapshot()) == [
        ("1002", "fan.state"),
        ("1002", "fan.speed_level"),
        ("1003", "target_temperature"),
    ]
    implicit = tasks["exec-1"]  # "device(1001).state == on and brightness == 30"
    assert ("1001", "brightness") in touched(implicit, prepare_engine(implicit, homes).snapshot())
    assert (
        skip_reason(tasks["required-1"], example)
        == "needs the agent's tool trace (only SMH's own agent reports one)"
    )
    assert skip_reason(tasks["required-1"], example, traced=True) is None
    assert (
        skip_reason(
            exec2.model_copy(update={"home": exec2.home.model_copy(update={"file": "other.json"})}),
            example,
        )
        == "other home"
    )
    assert skip_reason(exec2, example) is None


def test_a_memory_goal_runs_for_a_player_that_reports_its_decision(example) -> None:
    """MemHome on a real home: the decision and the bank are the player's to report (HA's
    conversation API shows neither), the command it runs is read from the devices."""
    tasks = {t.id: t for t in load_tasks([TASKS / "sample.jsonl"])}
    exec2 = tasks["exec-2"]
    assert isinstance(exec2.goal, ExecuteGoal)
    memory = exec2.model_copy(
        update={"goal": MemoryGoal(kind="memory", prefix="rewrite", then=exec2.goal)}
    )
    assert skip_reason(memory, example, traced=True) == MEMORY_UNSEEN
    assert skip_reason(memory, example, traced=True, decides=True) is None
    # its command's attributes are what the run puts in place and reads back
    initial = prepare_engine(exec2, HomeCache(TASKS)).snapshot()
    assert touched(memory, initial) == touched(exec2, initial)
    passive = exec2.model_copy(update={"goal": MemoryGoal(kind="memory", prefix="memory")})
    assert skip_reason(passive, example, decides=True) is None


def test_overlay_keeps_unobserved_values(example) -> None:
    task = load_tasks([TASKS / "sample.jsonl"])[0]
    initial = prepare_engine(task, HomeCache(TASKS)).snapshot()
    snap = overlay(
        initial,
        {
            ("1001", "state"): "on",
            ("1001", "brightness"): NOT_OBSERVED,
            ("1003", "ac_mode"): ReadError("gone"),
        },
    )
    assert snap.value("1001", "state") == "on" and snap.value("1001", "brightness") == 50
    assert (
        snap.value("1003", "ac_mode") is None and snap.value("1003", "target_temperature") == 24.0
    )


MATTER_AC = (
    HEAD.replace("homes/tiny.json", "x.json")
    + """\
  '2003':
    1.Thermostat.OccupiedCoolingSetpoint: {entity: climate.ac, attribute: temperature, when_state: [cool],
      scale: {home: [0, 100], ha: [0, 1], decimals: 2},
      set: {service: climate.set_temperature, data: {temperature: '{value}'}}}
    1.Thermostat.SystemMode: {entity: climate.ac, values: {3: cool, 4: heat, 8: dry}, ignore: ['off'],
      set: {3: {service: climate.set_hvac_mode, data: {hvac_mode: cool}},
            4: {service: climate.set_hvac_mode, data: {hvac_mode: heat}}}}
skip: [2024]
"""
)


def test_values_seen_only_in_a_state_and_hundredths() -> None:
    """A climate's ``temperature`` is the cooling setpoint only while it cools; 0.01 degC is read and
    written in degC to two decimals (not rounded to whole degrees)."""
    mapping = parse_mapping(MATTER_AC)
    cool = mapping.get("2003", "1.Thermostat.OccupiedCoolingSetpoint")
    assert cool.read(_state("cool", temperature=24.5), 2400) == 2450
    assert cool.read(_state("heat", temperature=20.0), 2400) is NOT_OBSERVED
    assert cool.calls(2455) == [
        ("climate", "set_temperature", {"entity_id": "climate.ac", "temperature": 24.55})
    ]
    assert mapping.skip == ["2024"]


def test_a_call_seen_in_ha_gives_back_the_commanded_value(example) -> None:
    """What an agent's service call told an attribute, through the mapping (the inverse of its set)."""
    brightness, state = example.get("1001", "brightness"), example.get("1001", "state")
    seen = {"entity_id": ["light.bed_light"], "brightness": 76, "transition": 1}
    assert brightness.value_of_call("light", "turn_on", seen, 50) == 30
    assert state.value_of_call("light", "turn_on", seen, "off") == "on"
    assert (
        state.value_of_call("light", "turn_on", {"entity_id": "light.ceiling_lights"}, "off")
        is NOT_OBSERVED
    )
    assert (
        brightness.value_of_call("light", "turn_on", {"entity_id": "light.bed_light"}, 50)
        is NOT_OBSERVED
    )
    speed = example.get("1002", "fan.speed_level")
    assert (
        speed.value_of_call(
            "fan", "set_percentage", {"entity_id": "fan.living_room_fan", "percentage": 66}, "low"
        )
        == "medium"
    )
    assert (
        speed.value_of_call(
            "fan", "set_percentage", {"entity_id": "fan.living_room_fan", "percentage": 22}, "low"
        )
        is NOT_OBSERVED
    )  # no speed of the task home
    mode = parse_mapping(MATTER_AC).get("2003", "1.Thermostat.SystemMode")
    assert (
        mode.value_of_call(
            "climate", "set_hvac_mode", {"entity_id": "climate.ac", "hvac_mode": "heat"}, 3
        )
        == 4
    )
    assert mode.calls(8) == []  # HA offers no dry mode here: nothing sets it


@pytest.mark.parametrize(
    ("text", "line", "field", "message"),
    [
        (
            HEAD + "  '1001':\n    state:\n      entity: Bed Light\n",
            5,
            "devices.1001.state.entity",
            "not an entity id",
        ),
        (
            HEAD + "  '1001':\n    state:\n      entity: light.a\n      set: {service: turn_on}\n",
            6,
            "devices.1001.state.set.service",
            "not a service name",
        ),
        (
            HEAD
            + "  '1001':\n    state:\n      entity: light.a\n      set:\n        on: {data: {}}\n",
            7,
            "devices.1001.state.set.on.service",
            "Field required",
        ),
        (
            HEAD
            + "  '1001':\n    brightness:\n      entity: light.a\n      scale: {home: [0, 100], ha: [5, 5]}\n",
            6,
            "devices.1001.brightness.scale",
            "range ends must differ",
        ),
        (
            HEAD
            + "  '1001':\n    state:\n      entity: light.a\n      values: {on: 1}\n      scale: {home: [0, 1], ha: [0, 2]}\n",
            4,
            "devices.1001.state",
            "values or scale",
        ),
        (
            HEAD + "  '1001':\n    state:\n      entitiy: light.a\n",
            4,
            "devices.1001.state.entity",
            "Field required",
        ),
        (
            "home: {file: homes/tiny.json}\ntimeout_seconds: -1\ndevices: {'1': {s: {entity: a.b}}}\n",
            2,
            "timeout_seconds",
            "greater than 0",
        ),
        (
            "home: {level: simple}\ndevices: {'1': {s: {entity: a.b}}}\n",
            1,
            "home",
            "level and seed",
        ),
        (
            HEAD + "  '1001':\n    state: {entity: light.a]\n  '1002': {}\n",
            4,
            "(yaml)",
            "expected ',' or '}'",
        ),
    ],
)
def test_malformed_files_name_line_and_field(
    text: str, line: int, field: str, message: str
) -> None:
    with pytest.raises(MappingFileError) as exc:
        parse_mapping(text, "m.yaml")
    assert (exc.value.line, exc.value.field) == (line, field), str(exc.value)
    assert message in str(exc.value) and str(exc.value).startswith(f"m.yaml:{line}: {field}: ")


def test_unknown_device_or_attribute_is_reported_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(
        HEAD + "  '1001':\n    state: {entity: light.a}\n    colour: {entity: light.a}\n"
    )
    with pytest.raises(
        MappingFileError, match=r"m.yaml:5: devices.1001.colour: device '1001' has no attribute"
    ):
        check_home(load_mapping(path), [], HomeCache(TASKS))
    path.write_text(
        HEAD + "  '1001':\n    state: {entity: light.a}\n  '9':\n    state: {entity: light.b}\n"
    )
    with pytest.raises(MappingFileError, match=r"m.yaml:5: devices.9: no device '9'"):
        check_home(load_mapping(path), [], HomeCache(TASKS))


def test_check_mapping_cli(tmp_path: Path, capsys) -> None:
    assert main(["ha", "check-mapping", str(EXAMPLE), "--tasks-dir", str(TASKS)]) == 0
    assert "9 attributes of 3 devices on 4 entities" in capsys.readouterr().out
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD + "  '1001':\n    state:\n      entity: nope\n")
    assert main(["ha", "check-mapping", str(bad), "--tasks-dir", str(TASKS)]) == 2
    assert f"{bad}:5: devices.1001.state.entity" in capsys.readouterr().err


def test_bench_run_mapping_needs_the_ha_backend(tmp_path: Path, capsys) -> None:
    assert (
        main(
            [
                "bench",
                "run",
                "--tasks",
                str(TASKS / "sample.jsonl"),
                "--mapping",
                str(EXAMPLE),
                "--out",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "--mapping needs --backend ha" in capsys.readouterr().err


# ---------------------------------------------------------------------------- a light's colour
def _colour_binding(space: str | None, modes: list[str]):
    from smh_core.ha.ha_inventory import HaEntity, Unit
    from smh_core.ha.map_rules import TaskAttr, bind
    from smh_core.homeenv.model import Attribute

    spec = Attribute(name="color", type="hex", range=(0, 0xFFFFFF), colour=space)
    light = HaEntity(
        "light.l", "L", None, None, state="on", attributes={"supported_color_modes": modes}
    )
    return bind(
        TaskAttr("light.l", "color", spec, {"color": "#FF0000"}), Unit("u", "L", None, (light,))
    )


def _colour_map(space: str, modes: list[str]):
    from smh_core.ha.hardware_map import AttributeMap
    from smh_core.ha.map_rules import Binding

    binding = _colour_binding(space, modes)
    assert isinstance(binding, Binding), binding
    return AttributeMap.model_validate(binding.entry())


def test_an_hs_lights_colour_is_set_as_rgb_and_read_back_exactly() -> None:
    amap = _colour_map("hue_saturation", ["color_temp", "hs"])
    assert amap.calls("#FF8000") == [
        ("light", "turn_on", {"entity_id": "light.l", "rgb_color": [255, 128, 0]})
    ]
    shown = _state("on", color_mode="hs", rgb_color=[255, 128, 0], hs_color=[30.118, 100.0])
    assert amap.read(shown, "#FF8000") == "#FF8000"
    # exactly: the twin rounds as HA does, so one step off is another colour
    assert amap.read(_state("on", color_mode="hs", rgb_color=[255, 127, 0]), "#FF8000") == "#FF7F00"
    # in colour-temperature mode HA's rgb_color comes from the temperature: not observed
    warm = _state("on", color_mode="color_temp", rgb_color=[255, 167, 87])
    assert amap.read(warm, "#FF8000") is NOT_OBSERVED
    assert amap.read(_state("off", color_mode=None, rgb_color=None), "#FF8000") is NOT_OBSERVED
    seen = amap.value_of_call(
        "light", "turn_on", {"entity_id": "light.l", "rgb_color": [0, 255, 0]}, "#FF0000"
    )
    assert seen == "#00FF00"


@pytest.mark.parametrize("modes", [["rgb"], ["rgbw"], ["rgbww"], ["hs", "rgbw"]])
def test_a_light_that_keeps_channels_is_read_within_one_a_channel(modes) -> None:
    amap = _colour_map("channels", modes)
    assert amap.tolerance == 1
    mode = modes[-1]
    assert amap.read(_state("on", color_mode=mode, rgb_color=[254, 129, 0]), "#FF8000") == "#FF8000"
    assert amap.read(_state("on", color_mode=mode, rgb_color=[253, 128, 0]), "#FF8000") == "#FD8000"
    with pytest.raises(ReadError, match="not an RGB colour"):
        amap.read(_state("on", color_mode=mode, rgb_color=[255, 0]), "#FF8000")


@pytest.mark.parametrize(
    ("space", "modes", "why"),
    [
        (None, ["hs"], "says nothing of which colours the light holds"),  # the catalog's lights
        ("hue_saturation", ["color_temp"], "shows no colour"),
        ("hue_saturation", ["onoff"], "shows no colour"),
        ("hue_saturation", ["xy"], "only as xy"),
        ("hue_saturation", ["rgbw"], "are not the twin's"),  # the light changed since the twin
        ("channels", ["hs"], "are not the twin's"),
    ],
)
def test_a_colour_the_light_cannot_show_stays_unmapped_with_why(space, modes, why) -> None:
    out = _colour_binding(space, modes)
    assert isinstance(out, str) and why in out, out


def test_rgb_is_its_own_conversion() -> None:
    text = (
        HEAD
        + "  '1001':\n    color:\n      entity: light.a\n      rgb: true\n      values: {a: b}\n"
    )
    with pytest.raises(MappingFileError, match="rgb is its own conversion"):
        parse_mapping(text, "m.yaml")
