"""HomeEngine: every validation error kind, transitions, batches, snapshots, diff, I/O."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smh_core.homeenv.engine import HomeEngine, dump_home, load_home
from smh_core.homeenv.errors import ErrorCode
from smh_core.homeenv.model import Home

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"


@pytest.fixture
def engine() -> HomeEngine:
    return HomeEngine.from_file(FIXTURE)


# (did, locator, arguments, expected code, expected field)
INVALID_CALLS = [
    ("9999", "turn_on", {}, ErrorCode.DEVICE_NOT_FOUND, None),
    ("1001", "explode", {}, ErrorCode.SERVICE_NOT_FOUND, None),
    ("1001", "brightness", {"value": 3}, ErrorCode.NOT_WRITABLE, None),
    ("1001", "turn_on", ["x"], ErrorCode.BAD_ARGUMENTS, None),
    ("1001", "turn_on", {"brightness": 3}, ErrorCode.UNEXPECTED_ARGUMENT, "brightness"),
    ("1003", "set_target_temperature", {}, ErrorCode.MISSING_ARGUMENT, "target_temperature"),
    (
        "1003",
        "set_target_temperature",
        {"target_temperature": "22"},
        ErrorCode.TYPE_ERROR,
        "target_temperature",
    ),
    (
        "1003",
        "set_target_temperature",
        {"target_temperature": True},
        ErrorCode.TYPE_ERROR,
        "target_temperature",
    ),
    (
        "1003",
        "set_target_temperature",
        {"target_temperature": 31.0},
        ErrorCode.OUT_OF_RANGE,
        "target_temperature",
    ),
    (
        "1003",
        "set_target_temperature",
        {"target_temperature": 22.25},
        ErrorCode.PRECISION_ERROR,
        "target_temperature",
    ),
    (
        "1003",
        "set_target_temperature",
        {"target_temperature": float("nan")},
        ErrorCode.TYPE_ERROR,
        "target_temperature",
    ),
    ("1003", "set_ac_mode", {"ac_mode": "turbo"}, ErrorCode.INVALID_OPTION, "ac_mode"),
    (
        "1003",
        "set_ac_mode",
        {"ac_mode": "cool", "child_lock": "yes"},
        ErrorCode.TYPE_ERROR,
        "child_lock",
    ),
    ("1003", "set_schedule", {"hours": [1, 2, 3, 4]}, ErrorCode.OUT_OF_RANGE, "hours"),
    ("1003", "set_schedule", {"hours": [25]}, ErrorCode.OUT_OF_RANGE, "hours"),
    ("1003", "set_schedule", {"hours": "7"}, ErrorCode.TYPE_ERROR, "hours"),
    ("1003", "set_meta", {"meta": {"zone": 1}}, ErrorCode.TYPE_ERROR, "meta"),
    ("1003", "set_meta", {"meta": {"floor": "a"}}, ErrorCode.UNEXPECTED_ARGUMENT, "meta"),
    ("1001", "set_rgb", {"rgb": [1, 2]}, ErrorCode.TYPE_ERROR, "rgb"),
    ("1001", "set_rgb", {"rgb": [1, 2, 300]}, ErrorCode.OUT_OF_RANGE, "rgb"),
    ("1001", "set_brightness", {"brightness": 10}, ErrorCode.PRECONDITION_FAILED, "state"),
    ("1001", "set_brightness", {"brightness": 0}, ErrorCode.OUT_OF_RANGE, "brightness"),
    (
        "1002",
        "fan.set_speed_level",
        {"speed_level": "high"},
        ErrorCode.PRECONDITION_FAILED,
        "fan.state",
    ),
    (
        "1002",
        "fan.set_speed_level",
        {"speed_level": "turbo"},
        ErrorCode.INVALID_OPTION,
        "speed_level",
    ),
    ("1002", "set_speed_level", {"speed_level": "high"}, ErrorCode.SERVICE_NOT_FOUND, None),
    ("1001", "alias", {"value": 5}, ErrorCode.TYPE_ERROR, "value"),
    ("1001", "alias", {}, ErrorCode.MISSING_ARGUMENT, "value"),
    ("1001", "alias", {"value": "x", "extra": 1}, ErrorCode.UNEXPECTED_ARGUMENT, "extra"),
]


@pytest.mark.parametrize(("did", "locator", "args", "code", "field"), INVALID_CALLS)
def test_invalid_call_is_rejected_and_changes_nothing(engine, did, locator, args, code, field):
    before_bytes = dump_home(engine.to_home())
    before = engine.snapshot()
    result = engine.execute(did, locator, args)
    assert not result.ok
    assert result.error.code == code, result.error
    assert result.error.field == field
    assert result.error.message  # a human-readable reason
    assert engine.diff(before, engine.snapshot()) == []
    assert dump_home(engine.to_home()) == before_bytes


def test_errors_name_allowed_values(engine):
    err = engine.execute("1003", "set_ac_mode", {"ac_mode": "turbo"}).error
    assert err.allowed == ["heat", "cool", "auto", "dry", "fan_only"]
    assert "turbo" in err.message and "fan_only" in err.message
    err = engine.execute("1003", "set_target_temperature", {"target_temperature": 40.0}).error
    assert err.allowed == {"type": "float", "range": [16.0, 30.0], "precision": 0.5}
    err = engine.execute("1001", "explode").error
    assert "turn_on" in err.allowed and "alias" in err.allowed
    err = engine.execute("1001", "turn_on", {"brightness": 3}).error
    assert err.allowed == []


def test_valid_transitions(engine):
    r = engine.execute("1001", "turn_on")
    assert r.ok and [(c.locator, c.before, c.after) for c in r.changes] == [("state", "off", "on")]
    assert engine.execute("1001", "set_brightness", {"brightness": 80}).ok
    assert engine.value("1001", "brightness") == 80
    # add clamps to the range
    assert engine.execute("1001", "brighten").ok
    assert engine.value("1001", "brightness") == 100
    # toggle
    assert engine.execute("1001", "toggle").ok
    assert engine.value("1001", "state") == "off"
    # component namespaces and relative preconditions
    assert engine.execute("1002", "fan.turn_on").ok
    assert engine.execute("1002", "fan.set_speed_level", {"speed_level": "high"}).ok
    assert engine.status("1002")["fan.speed_level"] == "high"
    assert engine.status("1002")["light.state"] == "off"
    # optional argument absent: its effect is skipped
    assert engine.execute("1003", "set_ac_mode", {"ac_mode": "heat"}).ok
    assert engine.value("1003", "child_lock") is False
    # conditional effects read the pre-call state
    assert engine.execute("1003", "eco").ok
    assert engine.value("1003", "target_temperature") == 20.0
    # int is accepted for a float argument
    assert engine.execute("1003", "set_target_temperature", {"target_temperature": 22}).ok
    # writable attribute
    assert engine.execute("1001", "alias", {"value": "reading lamp"}).ok
    assert engine.value("1001", "alias") == "reading lamp"


def test_no_op_call_reports_no_changes(engine):
    r = engine.execute("1001", "turn_off")
    assert r.ok and r.changes == []


def test_execute_many_atomic_is_all_or_nothing(engine):
    before = engine.snapshot()
    results = engine.execute_many(
        [
            {"did": "1001", "locator": "turn_on"},
            {"did": "1001", "locator": "set_brightness", "arguments": {"brightness": 30}},
            {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "turbo"}},
            {"did": "1002", "locator": "fan.turn_on"},
        ]
    )
    assert [r.ok for r in results] == [True, True, False, False]
    assert results[2].error.code == ErrorCode.INVALID_OPTION
    assert engine.diff(before, engine.snapshot()) == []


def test_execute_many_atomic_sees_earlier_actions(engine):
    # set_brightness needs the lamp on: valid only because turn_on comes first in the batch
    results = engine.execute_many(
        [
            {"did": "1001", "locator": "turn_on"},
            {"did": "1001", "locator": "set_brightness", "arguments": {"brightness": 30}},
        ]
    )
    assert all(r.ok for r in results)
    assert engine.status("1001")["brightness"] == 30
    assert {(c.locator, c.after) for c in results[0].changes} == {
        ("state", "on"),
        ("brightness", 30),
    }


def test_execute_many_non_atomic_applies_valid_ones(engine):
    results = engine.execute_many(
        [
            {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "turbo"}},
            {"did": "1002", "locator": "fan.turn_on"},
        ],
        atomic=False,
    )
    assert [r.ok for r in results] == [False, True]
    assert engine.value("1002", "fan.state") == "on"


def test_snapshot_is_immutable_and_diff_is_attribute_level(engine):
    s0 = engine.snapshot()
    engine.execute("1001", "turn_on")
    engine.execute("1002", "light.set_brightness", {"brightness": 90})
    s1 = engine.snapshot()
    assert s0.value("1001", "state") == "off"  # old snapshot unaffected
    with pytest.raises(TypeError):
        s1["1001"]["state"] = "off"  # read-only view
    changes = [(c.did, c.locator, c.before, c.after) for c in engine.diff(s0, s1)]
    assert changes == [
        ("1001", "state", "off", "on"),
        ("1002", "light.brightness", 40, 90),
        ("1002", "light.state", "off", "on"),
    ]
    with pytest.raises(LookupError, match="no attribute"):
        s1.value("1001", "nope")
    with pytest.raises(LookupError, match="no device"):
        s1.value("42", "state")


def test_restore_returns_to_snapshot(engine):
    s0 = engine.snapshot()
    engine.execute("1001", "turn_on")
    changes = engine.restore(s0)
    assert [(c.locator, c.after) for c in changes] == [("state", "off")]
    assert engine.diff(s0, engine.snapshot()) == []


def test_listeners_see_every_change(engine):
    seen = []
    unsubscribe = engine.add_listener(seen.extend)
    engine.execute("1001", "turn_on")
    engine.execute("1001", "turn_on")  # no-op: no notification
    engine.execute("1001", "set_brightness", {"brightness": 0})  # invalid: no notification
    unsubscribe()
    engine.execute("1001", "turn_off")
    assert [(c.did, c.locator, c.after) for c in seen] == [("1001", "state", "on")]


def test_set_values_is_type_checked(engine):
    assert engine.set_values("1003", {"target_temperature": 18.5}).ok
    r = engine.set_values("1003", {"target_temperature": 99.0})
    assert not r.ok and r.error.code == ErrorCode.OUT_OF_RANGE
    assert engine.value("1003", "target_temperature") == 18.5


def test_json_round_trip_is_exact(engine, tmp_path):
    engine.execute("1001", "turn_on")
    engine.execute("1003", "set_schedule", {"hours": [7, 22]})
    out = tmp_path / "home.json"
    engine.save(out)
    text = out.read_text()
    again = HomeEngine.from_file(out)
    assert engine.diff(engine.snapshot(), again.snapshot()) == []
    assert dump_home(again.to_home()) == text
    assert dump_home(load_home(out)) == text


def test_load_errors_name_file_and_field(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"rooms": [], "devices": [}')
    with pytest.raises(ValueError, match=r"bad\.json:1:\d+: invalid JSON"):
        load_home(bad)
    data = json.loads(FIXTURE.read_text())
    data["devices"][0]["userdata"]["room"] = "nowhere"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="unknown room 'nowhere'"):
        load_home(bad)
    data = json.loads(FIXTURE.read_text())
    data["devices"][2]["attributes"][1]["range"] = [30, 16]
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"devices\.2\.attributes\.1"):
        load_home(bad)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["devices"][0]["attributes"][1].update(value=500), "initial value invalid"),
        (
            lambda d: d["devices"][0]["services"][0]["effects"][0].update(set="nope"),
            "unknown attribute",
        ),
        (
            lambda d: d["devices"][0]["services"][3]["effects"][0].update(arg="nope"),
            "unknown argument",
        ),
        (lambda d: d["devices"][0]["services"][0].update(behavior="nope"), "unknown behavior"),
        (
            lambda d: d["devices"][1].update(
                userdata={**d["devices"][1]["userdata"], "did": "1001"}
            ),
            "duplicate device ids",
        ),
        (lambda d: d["rooms"][0].update(parent="r2"), "cycle"),
    ],
)
def test_inconsistent_homes_are_rejected(mutate, message):
    data = json.loads(FIXTURE.read_text())
    mutate(data)
    with pytest.raises(ValueError, match=message):
        HomeEngine(Home.model_validate(data))


def test_read_api(engine):
    assert [r.id for r in engine.rooms()] == ["r1", "r2", "r3"]
    tree = engine.room_tree()
    assert [n["id"] for n in tree] == ["r1", "r3"]
    assert [n["id"] for n in tree[0]["children"]] == ["r2"]
    assert [d["did"] for d in engine.devices(room="r1")] == ["1001"]
    assert [d["did"] for d in engine.devices(room="r1", include_nested=True)] == ["1001", "1002"]
    assert [d["did"] for d in engine.devices(category="ac")] == ["1003"]
    assert [d["did"] for d in engine.devices(tags=["light"])] == ["1001", "1002"]
    assert [d["did"] for d in engine.devices(tags=["light", "fan"])] == ["1002"]
    assert engine.devices(subcategory="floor_ac")[0]["room_name"] == "Kitchen"
    spec = engine.spec("1003")
    assert spec["attributes"]["target_temperature"] == {
        "description": "",
        "type": "float",
        "range": [16.0, 30.0],
        "precision": 0.5,
        "unit": "Celsius",
    }
    assert set(spec["services"]["set_ac_mode"]["arguments"]) == {"ac_mode", "child_lock"}
    assert engine.spec("1002")["services"]["fan.set_speed_level"]["arguments"]["speed_level"][
        "options"
    ] == ["low", "medium", "high"]
    assert engine.spec("1001")["attributes"]["alias"]["writable"] is True


def test_requirements_keep_booleans_apart_from_numbers():
    data = json.loads(FIXTURE.read_text())
    lamp = data["devices"][0]
    lamp["attributes"].append({"name": "level", "type": "int", "value": 0, "range": [0, 1]})
    lamp["attributes"].append({"name": "flag", "type": "bool", "value": False})
    lamp["services"] += [
        {
            "name": "needs_level_0",
            "requires": [{"attr": "level", "equals": 0}],
            "effects": [{"set": "state", "value": "on"}],
        },
        {
            "name": "needs_flag_false",
            "requires": [{"attr": "flag", "equals": False}],
            "effects": [{"set": "state", "value": "on"}],
        },
        {
            "name": "needs_level_in_1",
            "requires": [{"attr": "level", "in": [1]}],
            "effects": [{"set": "state", "value": "on"}],
        },
        {
            "name": "needs_flag_not_0",
            "requires": [{"attr": "flag", "not_in": [0]}],
            "effects": [{"set": "state", "value": "on"}],
        },
    ]
    engine = HomeEngine(Home.model_validate(data))
    assert engine.execute("1001", "needs_level_0").ok
    assert engine.execute("1001", "needs_flag_false").ok
    assert engine.execute("1001", "needs_level_in_1").error.code == ErrorCode.PRECONDITION_FAILED
    assert engine.execute("1001", "needs_flag_not_0").ok  # False is not the number 0
    engine.set_values("1001", {"flag": True})
    assert engine.execute("1001", "needs_level_in_1").error.code == ErrorCode.PRECONDITION_FAILED


def test_saved_home_with_catalog_behaviours_loads_in_a_fresh_process(tmp_path):
    """Behaviours registered by the device catalog resolve even if nothing imported it."""
    import subprocess
    import sys

    from smh_core.homes.generator import generate_home

    home = generate_home("complex", 1)
    assert any(s.behavior for d in home.devices for s in d.services)
    path = tmp_path / "complex.json"
    path.write_text(dump_home(home))
    code = (
        "import sys; from smh_core.homeenv.engine import HomeEngine; "
        f"e = HomeEngine.from_file({str(path)!r}); print(len(e.device_ids()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    assert out.stdout.strip() == "135"
