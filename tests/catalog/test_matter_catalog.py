"""The Matter device catalog (SimuHome's 17 device types, ``sim_devices/catalog/matter``).

What is checked, and why:

* every cluster, attribute and command carries the name and id ``chip.clusters.Objects`` gives
  it, with real command field names as argument names and real enum values as options, so the
  Matter bridge can serve the catalog to Home Assistant without a translation table;
* every command lands on a fresh device, and every dependency rule (fan speed needs the unit
  on, a running appliance keeps its program, setpoints stay within the absolute limits) rejects
  with an actionable message and leaves the home untouched;
* the ``dynamics`` blocks the simulator consumes are complete and consistent with the schema;
* Matter and HomeEnv devices share one :class:`HomeEngine`.
"""

from __future__ import annotations

import dataclasses
import random
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from chip.clusters import Objects as C
from matter_server.client.models import device_types as matter_device_types

from sim_devices.catalog import (
    DeviceType,
    instantiate,
    load_catalog,
    load_catalog_dir,
    validate_catalog,
)
from smh_core.homeenv.behaviors import FAN_STEP_PERCENT, MIN_CLEANING_BATTERY
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import ErrorCode
from smh_core.homeenv.model import Attribute, AttrType, Home, Requirement, Room, Service
from smh_core.homeenv.samples import valid_arguments, valid_value
from smh_core.sim.simulator import Simulator

CATALOG = load_catalog("matter")
CATALOG_DIR = Path(__file__).resolve().parents[2] / "sim_devices" / "catalog" / "matter"
ROOM = Room(id="r01", type="living_room", name="Living Room")
DID = "m001"
TYPES = sorted(CATALOG)

SIMUHOME_TYPES = {
    "air_conditioner",
    "air_purifier",
    "dehumidifier",
    "humidifier",
    "dimmable_light",
    "on_off_light",
    "dishwasher",
    "laundry_washer",
    "laundry_dryer",
    "fan",
    "freezer",
    "refrigerator",
    "heat_pump",
    "electrical_sensor",
    "window_covering",
    "tv",
    "robot_vacuum",
}
TABLE5_CLUSTERS = {  # SimuHome Table 5, minus BasicInformation/Descriptor (served by the bridge)
    "air_conditioner": {"OnOff", "FanControl", "Thermostat"},
    "air_purifier": {"FanControl", "OnOff"},
    "dehumidifier": {"FanControl", "OnOff", "RelativeHumidityMeasurement"},
    "humidifier": {"FanControl", "OnOff", "RelativeHumidityMeasurement"},
    "dimmable_light": {"LevelControl", "OnOff"},
    "on_off_light": {"OnOff"},
    "dishwasher": {"OnOff", "OperationalState", "DishwasherMode"},
    "electrical_sensor": {
        "ElectricalEnergyMeasurement",
        "ElectricalPowerMeasurement",
        "PowerTopology",
    },
    "fan": {"FanControl", "OnOff"},
    "freezer": {
        "RefrigeratorAndTemperatureControlledCabinetMode",
        "TemperatureControl",
        "TemperatureMeasurement",
    },
    "refrigerator": {
        "RefrigeratorAndTemperatureControlledCabinetMode",
        "TemperatureControl",
        "TemperatureMeasurement",
    },
    "heat_pump": {"Thermostat"},
    "laundry_washer": {"OperationalState", "LaundryWasherMode"},
    "laundry_dryer": {"OperationalState", "LaundryDryerControls"},
    "window_covering": {"WindowCovering"},
    "tv": {"OnOff", "MediaPlayback", "Channel", "KeypadInput"},
    "robot_vacuum": {"RvcRunMode", "RvcCleanMode", "RvcOperationalState", "PowerSource"},
}
ARGUMENT_OVERRIDES = {  # arguments a schema cannot make valid on its own (a lookup by name)
    ("tv", "1.Channel.ChangeChannel"): {"match": "Sports"},
    ("tv", "1.Channel.ChangeChannelByNumber"): {"majorNumber": 7, "minorNumber": 0},
}
LOCATOR_IN_TEXT = re.compile(r"\b\d+\.[A-Z]\w*\.[A-Z]\w*")


# ---------------------------------------------------------------------------------- helpers
def resolve(ns: str, rel: str) -> str:
    return rel[1:] if rel.startswith("/") else (f"{ns}.{rel}" if ns else rel)


def engine_for(type_name: str, preset: str | None = None, **values: Any) -> HomeEngine:
    dev = instantiate(type_name, DID, ROOM.id, preset=preset, values=values or None, kind="matter")
    return HomeEngine(Home(rooms=[ROOM], devices=[dev]))


def snap(engine: HomeEngine) -> dict[str, Any]:
    return engine.snapshot().to_dict()


def holds(req: Requirement, value: Any) -> bool:
    def same(a: Any, b: Any) -> bool:
        return a == b and isinstance(a, bool) == isinstance(b, bool)

    if req.in_ is not None:
        return any(same(value, x) for x in req.in_)
    if req.not_in is not None:
        return not any(same(value, x) for x in req.not_in)
    return same(value, req.equals)


def candidates(spec: Attribute) -> list[Any]:
    if spec.options:
        return list(spec.options)
    if spec.type == AttrType.BOOL:
        return [True, False]
    raise AssertionError(f"{spec.name}: requirements here test enums and booleans only")


def satisfying(spec: Attribute, req: Requirement) -> Any:
    return next(v for v in candidates(spec) if holds(req, v))


def violating(spec: Attribute, req: Requirement) -> Any:
    return next(v for v in candidates(spec) if not holds(req, v))


def meet(
    engine: HomeEngine, dt: DeviceType, ns: str, reqs: list[Requirement], skip: int | None = None
) -> None:
    """Put the device in a state meeting ``reqs`` (all but index ``skip``)."""
    specs = dt.attribute_specs()
    values = {}
    for i, r in enumerate(reqs):
        loc = resolve(ns, r.attr)
        if i != skip and not holds(r, engine.value(DID, loc)):
            values[loc] = satisfying(specs[loc], r)
    if values:
        assert engine.set_values(DID, values).ok


def effect_changes(
    dt: DeviceType, ns: str, svc: Service, pre: dict[str, Any], args: dict[str, Any]
) -> dict[str, Any]:
    """What the declared effects write, computed independently of the engine."""
    out: dict[str, Any] = {}
    for e in svc.effects:
        if e.when is not None and not holds(e.when, pre[resolve(ns, e.when.attr)]):
            continue
        loc = resolve(ns, e.set)
        if e.arg is not None:
            if args.get(e.arg) is not None:
                out[loc] = args[e.arg]
        elif e.attr is not None:
            out[loc] = pre[resolve(ns, e.attr)]
        elif e.toggle is not None:
            a, b = e.toggle
            out[loc] = b if pre[loc] == a else a
        else:
            assert e.add is None, "the Matter catalog uses no 'add' effects"
            out[loc] = e.value
    return out


def other_value(spec: Attribute, current: Any, rng: random.Random) -> Any:
    """A valid value for ``spec`` different from ``current`` (when there is one)."""
    for _ in range(50):
        v = valid_value(spec, rng)
        if v != current:
            return v
    return current


def chip_cluster(component_name: str) -> Any:
    return getattr(C, component_name.split(".", 1)[1])


def chip_enum(tp: Any) -> Any:
    """The Matter enum inside a chip type (``Union[Nullable, Enum]`` etc.), or ``None``."""
    if hasattr(tp, "__members__") and issubclass(tp, int):
        return tp
    for arg in typing.get_args(tp):
        found = chip_enum(arg)
        if found is not None:
            return found
    return None


def chip_struct(tp: Any) -> tuple[str, Any] | None:
    """``("list"|"struct", struct class)`` for chip list-of-struct and struct types."""
    if dataclasses.is_dataclass(tp):
        return "struct", tp
    if typing.get_origin(tp) in (list, typing.List):  # noqa: UP006 (chip spells typing.List)
        inner = typing.get_args(tp)[0]
        return ("list", inner) if dataclasses.is_dataclass(inner) else None
    for arg in typing.get_args(tp):
        found = chip_struct(arg)
        if found is not None:
            return found
    return None


def enum_values(enum: Any) -> set[int]:
    return {int(m) for m in enum if m.name != "kUnknownEnumValue"}


def struct_problems(spec: Any, struct: Any, where: str) -> list[str]:
    """Keys of a dict spec that are not fields of the chip struct (recursively)."""
    if not isinstance(spec.items, dict):
        return []
    fields = {f.name: f for f in dataclasses.fields(struct)}
    hints = typing.get_type_hints(struct)
    out = [
        f"{where}.{k} is not a field of {struct.__name__}" for k in spec.items if k not in fields
    ]
    for key, sub in spec.items.items():
        if key not in fields:
            continue
        inner = chip_struct(hints[key])
        if inner is None:
            continue
        kind, cls = inner
        sub_spec = sub.items if kind == "list" and sub.type == AttrType.LIST else sub
        out += struct_problems(sub_spec, cls, f"{where}.{key}")
    return out


SERVICES = [(t, loc) for t in TYPES for loc in CATALOG[t].service_specs()]
SERVICE_RULES = [
    (t, loc, i)
    for t, loc in SERVICES
    for i in range(len(CATALOG[t].service_specs()[loc][1].requires))
]
WRITABLE = [
    (t, loc) for t in TYPES for loc, a in CATALOG[t].attribute_specs().items() if a.writable
]
WRITE_RULES = [
    (t, loc, i)
    for t, loc in WRITABLE
    for i in range(len(CATALOG[t].attribute_specs()[loc].write_requires or ()))
]


def _id(case: tuple) -> str:
    return ":".join(str(p) for p in case)


def namespace_of(dt: DeviceType, loc: str) -> str:
    return next(c.name for c in dt.components if loc.startswith(c.name + "."))


# ---------------------------------------------------------------------------------- content
def test_catalog_has_exactly_the_17_simuhome_types():
    assert set(CATALOG) == SIMUHOME_TYPES
    assert len(CATALOG) == 17


def test_every_type_and_preset_compiles():
    assert validate_catalog("matter") == []


def test_packaged_directory_loads_like_load_catalog():
    assert list(load_catalog_dir(CATALOG_DIR)) == TYPES


@pytest.mark.parametrize("type_name", TYPES)
def test_identity_and_matter_device_type(type_name):
    dt = CATALOG[type_name]
    assert (CATALOG_DIR / f"{type_name}.yaml").is_file()
    assert dt.spid == f"smh.matter.{type_name}.v1"
    assert dt.name and dt.description and "matter" in dt.tags and dt.presets
    assert dt.attributes == [] and dt.services == [], "Matter state lives in cluster components"
    assert dt.matter is not None and set(dt.matter.device_types) == {1}
    known = {
        cls.device_type
        for cls in vars(matter_device_types).values()
        if isinstance(cls, type) and isinstance(getattr(cls, "device_type", None), int)
    }
    assert dt.matter.device_types[1] in known


@pytest.mark.parametrize("type_name", TYPES)
def test_clusters_follow_simuhome_table_5(type_name):
    dt = CATALOG[type_name]
    names = [c.name for c in dt.components]
    assert all(re.fullmatch(r"1\.[A-Z][A-Za-z]+", n) for n in names), names
    assert len(set(names)) == len(names)
    assert {n.split(".", 1)[1] for n in names} >= TABLE5_CLUSTERS[type_name]


@pytest.mark.parametrize("type_name", TYPES)
def test_names_and_ids_are_chips(type_name):
    problems = []
    for comp in CATALOG[type_name].components:
        cluster = chip_cluster(comp.name)
        if comp.matter_cluster != cluster.id:
            problems.append(f"{comp.name}: cluster id {comp.matter_cluster} != {cluster.id}")
        for a in comp.attributes:
            chip_attr = getattr(cluster.Attributes, a.name, None)
            if chip_attr is None:
                problems.append(f"{comp.name}.{a.name}: no such chip attribute")
            elif a.matter_id != chip_attr.attribute_id:
                problems.append(
                    f"{comp.name}.{a.name}: id {a.matter_id} != {chip_attr.attribute_id}"
                )
        for s in comp.services:
            cmd = getattr(cluster.Commands, s.name, None)
            if cmd is None or not cmd.is_client:
                problems.append(f"{comp.name}.{s.name}: no such client command")
                continue
            if s.matter_id != cmd.command_id:
                problems.append(f"{comp.name}.{s.name}: id {s.matter_id} != {cmd.command_id}")
            fields = {f.name for f in dataclasses.fields(cmd)}
            problems += [
                f"{comp.name}.{s.name}({a.name}): not a field of the chip command"
                for a in s.arguments
                if a.name not in fields
            ]
    assert problems == []


@pytest.mark.parametrize("type_name", TYPES)
def test_enum_options_and_structs_match_chip(type_name):
    """Options of enum-typed attributes and arguments are values of the chip enum; dict and
    list-of-dict values use the chip struct's field names."""
    problems = []
    for comp in CATALOG[type_name].components:
        cluster = chip_cluster(comp.name)
        for a in comp.attributes:
            tp = getattr(cluster.Attributes, a.name).attribute_type.Type
            enum = chip_enum(tp)
            if enum is not None and a.type == AttrType.INT:
                bad = set(a.options or []) - enum_values(enum)
                if not a.options or bad:
                    problems.append(f"{comp.name}.{a.name}: options {a.options} vs {enum.__name__}")
            struct = chip_struct(tp)
            if struct is not None:
                kind, cls = struct
                spec = a.items if kind == "list" else a
                problems += struct_problems(spec, cls, f"{comp.name}.{a.name}")
        for s in comp.services:
            fields = {f.Label: f.Type for f in getattr(cluster.Commands, s.name).descriptor.Fields}
            for arg in s.arguments:
                enum = chip_enum(fields[arg.name])
                if enum is not None:
                    bad = set(arg.options or []) - enum_values(enum)
                    if not arg.options or bad:
                        problems.append(f"{comp.name}.{s.name}({arg.name}): options {arg.options}")
    assert problems == []


@pytest.mark.parametrize(
    "type_name",
    [
        t
        for t in TYPES
        if any(c.name.endswith("Mode") and c.services for c in CATALOG[t].components)
    ],
)
def test_mode_clusters_list_their_modes(type_name):
    """SupportedModes agrees with CurrentMode's options, and its tags are the cluster's tags."""
    for comp in CATALOG[type_name].components:
        if not comp.name.endswith("Mode"):
            continue
        attrs = {a.name: a for a in comp.attributes}
        modes = attrs["SupportedModes"].value
        assert [m["mode"] for m in modes] == attrs["CurrentMode"].options
        assert [a.options for a in comp.services[0].arguments] == [attrs["CurrentMode"].options]
        tags = enum_values(chip_cluster(comp.name).Enums.ModeTag)
        assert {t["value"] for m in modes for t in m["modeTags"]} <= tags
        assert all(m["label"] and m["modeTags"] for m in modes)


@pytest.mark.parametrize("type_name", TYPES)
def test_presets_are_coherent(type_name):
    """Presets set what they name, and fan speed readings agree with the power state."""
    dt = CATALOG[type_name]
    assert dt.presets
    for preset, values in dt.presets.items():
        status = engine_for(type_name, preset).status(DID)
        for loc, v in values.items():
            assert status[loc] == v, (preset, loc)
        if "1.FanControl.PercentCurrent" in status:
            on = status["1.OnOff.OnOff"]
            want = status["1.FanControl.PercentSetting"] if on else 0
            assert status["1.FanControl.PercentCurrent"] == want, preset


# ---------------------------------------------------------------------------------- commands
@pytest.mark.parametrize(("type_name", "locator"), SERVICES, ids=[_id(c) for c in SERVICES])
def test_valid_call_lands_on_a_fresh_device(type_name, locator):
    dt = CATALOG[type_name]
    ns, svc = dt.service_specs()[locator]
    engine = engine_for(type_name)
    meet(engine, dt, ns, svc.requires)
    pre = engine.status(DID)
    args = valid_arguments(svc, random.Random(f"{type_name}:{locator}"))
    args.update(ARGUMENT_OVERRIDES.get((type_name, locator), {}))
    expected = effect_changes(dt, ns, svc, pre, args)

    result = engine.execute(DID, locator, args)

    assert result.ok, result.error
    post = engine.status(DID)
    for loc, v in expected.items():
        assert post[loc] == v and type(post[loc]) is type(v), loc
    if svc.behavior is None:
        assert {c.locator for c in result.changes} == {
            loc for loc, v in expected.items() if pre[loc] != v
        }


@pytest.mark.parametrize(
    ("type_name", "locator", "index"), SERVICE_RULES, ids=[_id(c) for c in SERVICE_RULES]
)
def test_command_rule_rejects_and_changes_nothing(type_name, locator, index):
    dt = CATALOG[type_name]
    ns, svc = dt.service_specs()[locator]
    req = svc.requires[index]
    loc = resolve(ns, req.attr)
    engine = engine_for(type_name)
    meet(engine, dt, ns, svc.requires, skip=index)
    assert engine.set_values(DID, {loc: violating(dt.attribute_specs()[loc], req)}).ok
    args = valid_arguments(svc, random.Random(locator))
    args.update(ARGUMENT_OVERRIDES.get((type_name, locator), {}))
    before = snap(engine)

    result = engine.execute(DID, locator, args)

    assert not result.ok
    assert result.error.code == ErrorCode.PRECONDITION_FAILED
    assert result.error.field == loc
    assert req.message in result.error.message
    assert snap(engine) == before


@pytest.mark.parametrize(("type_name", "locator"), WRITABLE, ids=[_id(c) for c in WRITABLE])
def test_writable_attribute_accepts_a_valid_write(type_name, locator):
    dt = CATALOG[type_name]
    spec = dt.attribute_specs()[locator]
    engine = engine_for(type_name)
    meet(engine, dt, namespace_of(dt, locator), spec.write_requires or [])
    value = other_value(spec, engine.value(DID, locator), random.Random(locator))

    result = engine.execute(DID, locator, {"value": value})

    assert result.ok, result.error
    assert engine.value(DID, locator) == value
    if (
        spec.on_write is None
    ):  # attributes tied to others by a write behaviour: see test_fan_writes_*
        assert {c.locator for c in result.changes} <= {locator}


@pytest.mark.parametrize(
    ("type_name", "locator", "index"), WRITE_RULES, ids=[_id(c) for c in WRITE_RULES]
)
def test_write_rule_rejects_and_changes_nothing(type_name, locator, index):
    dt = CATALOG[type_name]
    spec = dt.attribute_specs()[locator]
    ns = namespace_of(dt, locator)
    rules = spec.write_requires or []
    req = rules[index]
    loc = resolve(ns, req.attr)
    engine = engine_for(type_name)
    meet(engine, dt, ns, rules, skip=index)
    assert engine.set_values(DID, {loc: violating(dt.attribute_specs()[loc], req)}).ok
    value = other_value(spec, engine.value(DID, locator), random.Random(locator))
    before = snap(engine)

    result = engine.execute(DID, locator, {"value": value})

    assert not result.ok
    assert result.error.code == ErrorCode.PRECONDITION_FAILED
    assert result.error.field == loc
    assert req.message in result.error.message
    assert snap(engine) == before


def test_there_are_rules_to_test():
    assert len(SERVICE_RULES) >= 30
    assert len(WRITE_RULES) >= 15


@pytest.mark.parametrize("type_name", TYPES)
def test_every_rule_says_what_to_do(type_name):
    """Each rule has its own message naming a Matter locator the agent can act on."""
    dt = CATALOG[type_name]
    rules = [r for _, s in dt.service_specs().values() for r in s.requires]
    rules += [r for a in dt.attribute_specs().values() for r in a.write_requires or ()]
    for r in rules:
        assert r.message and LOCATOR_IN_TEXT.search(r.message), r


# ---------------------------------------------------------------------------------- named rules
def test_air_conditioner_fan_speed_needs_it_on():
    engine = engine_for("air_conditioner", "off")
    before = snap(engine)
    result = engine.execute(DID, "1.FanControl.PercentSetting", {"value": 80})
    assert not result.ok and result.error.code == ErrorCode.PRECONDITION_FAILED
    assert "turn the air conditioner on first (1.OnOff.On)" in result.error.message
    assert snap(engine) == before


def test_simuhome_ac_request_on_cool_fan_50():
    """QT3 example: "turn the AC on, switch it to cooling mode and set the fan to 50 percent"."""
    engine = engine_for("air_conditioner", "off", **{"1.Thermostat.SystemMode": 4})
    results = engine.execute_many(
        [
            {"did": DID, "locator": "1.OnOff.On"},
            {"did": DID, "locator": "1.Thermostat.SystemMode", "arguments": {"value": 3}},
            {"did": DID, "locator": "1.FanControl.PercentSetting", "arguments": {"value": 50}},
        ]
    )
    assert all(r.ok for r in results), [r.error for r in results]
    status = engine.status(DID)
    assert (
        status["1.OnOff.OnOff"],
        status["1.Thermostat.SystemMode"],
        status["1.FanControl.PercentSetting"],
    ) == (True, 3, 50)


@pytest.mark.parametrize("type_name", ["air_conditioner", "heat_pump"])
def test_setpoints_stay_within_the_absolute_limits(type_name):
    engine = engine_for(type_name, "heating")
    status = engine.status(DID)
    spec = CATALOG[type_name].attribute_specs()
    for kind, setpoint in (
        ("Cool", "OccupiedCoolingSetpoint"),
        ("Heat", "OccupiedHeatingSetpoint"),
    ):
        lo = status[f"1.Thermostat.AbsMin{kind}SetpointLimit"]
        hi = status[f"1.Thermostat.AbsMax{kind}SetpointLimit"]
        assert spec[f"1.Thermostat.{setpoint}"].range == (lo, hi)
        before = snap(engine)
        for value in (lo - 1, hi + 1):
            result = engine.execute(DID, f"1.Thermostat.{setpoint}", {"value": value})
            assert not result.ok and result.error.code == ErrorCode.OUT_OF_RANGE
        assert snap(engine) == before
        assert engine.execute(DID, f"1.Thermostat.{setpoint}", {"value": hi}).ok


@pytest.mark.parametrize(
    ("type_name", "mode_loc"),
    [
        ("dishwasher", "1.DishwasherMode.ChangeToMode"),
        ("laundry_washer", "1.LaundryWasherMode.ChangeToMode"),
    ],
)
@pytest.mark.parametrize("preset", ["running", "paused"])
def test_appliance_mid_cycle_keeps_its_program(type_name, mode_loc, preset):
    engine = engine_for(type_name, preset)
    before = snap(engine)
    result = engine.execute(DID, mode_loc, {"newMode": 1})
    assert not result.ok and result.error.code == ErrorCode.PRECONDITION_FAILED
    assert "1.OperationalState.Stop" in result.error.message
    assert snap(engine) == before
    assert engine.execute(DID, "1.OperationalState.Stop").ok
    assert engine.execute(DID, mode_loc, {"newMode": 1}).ok


@pytest.mark.parametrize("preset", ["running", "paused"])
def test_dryer_mid_cycle_keeps_its_dryness_level(preset):
    engine = engine_for("laundry_dryer", preset)
    before = snap(engine)
    result = engine.execute(DID, "1.LaundryDryerControls.SelectedDrynessLevel", {"value": 0})
    assert not result.ok and result.error.code == ErrorCode.PRECONDITION_FAILED
    assert snap(engine) == before


@pytest.mark.parametrize("type_name", ["dishwasher", "laundry_washer", "laundry_dryer"])
def test_appliance_cycle_commands(type_name):
    engine = engine_for(type_name, "off")
    assert (
        engine.execute(DID, "1.OperationalState.Start").error.code == ErrorCode.PRECONDITION_FAILED
    )  # dead front: power on first
    assert engine.execute(DID, "1.OnOff.On").ok
    assert (
        engine.execute(DID, "1.OperationalState.Resume").error.code == ErrorCode.PRECONDITION_FAILED
    )  # nothing paused
    for cmd, state in (("Start", 1), ("Pause", 2), ("Resume", 1), ("Stop", 0), ("Start", 1)):
        assert engine.execute(DID, f"1.OperationalState.{cmd}").ok, cmd
        assert engine.value(DID, "1.OperationalState.OperationalState") == state
    assert (
        engine.execute(DID, "1.OperationalState.Start").error.code == ErrorCode.PRECONDITION_FAILED
    )  # already running
    assert engine.execute(DID, "1.OnOff.Off").ok  # powering off abandons the cycle
    assert engine.value(DID, "1.OperationalState.OperationalState") == 0
    assert engine.value(DID, "1.OperationalState.CountdownTime") == 0


# ---------------------------------------------------------------------------------- behaviours
@pytest.mark.parametrize(
    "type_name", ["air_conditioner", "air_purifier", "humidifier", "dehumidifier", "fan"]
)
def test_fan_step(type_name):
    engine = engine_for(type_name, "off")
    assert (
        engine.execute(DID, "1.FanControl.Step", {"direction": 0}).error.code
        == ErrorCode.PRECONDITION_FAILED
    )
    assert engine.execute(DID, "1.OnOff.On").ok
    start = engine.value(DID, "1.FanControl.PercentSetting")
    assert engine.execute(DID, "1.FanControl.Step", {"direction": 0}).ok
    status = engine.status(DID)
    assert status["1.FanControl.PercentSetting"] == start + FAN_STEP_PERCENT
    assert status["1.FanControl.PercentCurrent"] == start + FAN_STEP_PERCENT

    assert engine.execute(DID, "1.FanControl.PercentSetting", {"value": 100}).ok
    assert engine.execute(DID, "1.FanControl.Step", {"direction": 0, "wrap": True}).ok
    assert engine.value(DID, "1.FanControl.PercentSetting") == 0
    assert engine.value(DID, "1.FanControl.FanMode") == 0  # Off
    assert engine.execute(DID, "1.FanControl.Step", {"direction": 1, "lowestOff": False}).ok
    assert engine.value(DID, "1.FanControl.PercentSetting") == FAN_STEP_PERCENT
    assert engine.value(DID, "1.FanControl.FanMode") == 1  # Low


FAN_TYPES = ["air_conditioner", "air_purifier", "humidifier", "dehumidifier", "fan"]


@pytest.mark.parametrize("type_name", FAN_TYPES)
@pytest.mark.parametrize(
    ("percent", "mode"), [(0, 0), (1, 1), (33, 1), (34, 2), (66, 2), (67, 3), (100, 3)]
)
def test_fan_writes_percent_setting_moves_fan_mode_and_speed(type_name, percent, mode):
    """Matter ties FanMode to PercentSetting: a unit whose mode is Off must start blowing when
    a speed is written (SimuHome's gold writes the speed alone)."""
    engine = engine_for(type_name, "off")
    assert engine.execute(DID, "1.OnOff.On").ok
    assert engine.execute(DID, "1.FanControl.FanMode", {"value": 0}).ok
    assert engine.value(DID, "1.FanControl.PercentCurrent") == 0

    assert engine.execute(DID, "1.FanControl.PercentSetting", {"value": percent}).ok

    status = engine.status(DID)
    assert (
        status["1.FanControl.FanMode"],
        status["1.FanControl.PercentSetting"],
        status["1.FanControl.PercentCurrent"],
    ) == (mode, percent, percent)


@pytest.mark.parametrize("type_name", FAN_TYPES)
@pytest.mark.parametrize(("mode", "percent"), [(0, 0), (1, 33), (2, 66), (3, 100)])
def test_fan_writes_fan_mode_moves_speed(type_name, mode, percent):
    engine = engine_for(type_name, "off")
    assert engine.execute(DID, "1.OnOff.On").ok
    assert engine.execute(DID, "1.FanControl.PercentSetting", {"value": 45}).ok

    assert engine.execute(DID, "1.FanControl.FanMode", {"value": mode}).ok

    status = engine.status(DID)
    assert (status["1.FanControl.PercentSetting"], status["1.FanControl.PercentCurrent"]) == (
        percent,
        percent,
    )
    # Auto hands the speed to the unit: the setting stays where it was
    assert engine.execute(DID, "1.FanControl.FanMode", {"value": 5}).ok
    assert engine.value(DID, "1.FanControl.PercentSetting") == percent
    assert engine.value(DID, "1.FanControl.FanMode") == 5


def test_fan_write_refused_by_its_rule_changes_nothing_tied():
    engine = engine_for("air_conditioner", "off")
    before = snap(engine)
    assert (
        engine.execute(DID, "1.FanControl.PercentSetting", {"value": 80}).error.code
        == ErrorCode.PRECONDITION_FAILED
    )  # the unit is off
    assert snap(engine) == before


def test_air_conditioner_cools_after_a_speed_write_from_fan_mode_off():
    """End to end through the physics: SimuHome's QT gold sets an AC by PercentSetting."""
    dev = instantiate("air_conditioner", DID, ROOM.id, preset="off", kind="matter")
    room = {
        **ROOM.model_dump(mode="json"),
        "environment": {"temperature": 29.0, "window_factor": 0.0},
    }
    engine = HomeEngine(
        Home.model_validate(
            {
                "rooms": [room],
                "devices": [dev.model_dump(mode="json", by_alias=True)],
                "simulation": {"now": "2025-06-27T12:00:00"},
            }
        )
    )
    for loc, value in (
        ("1.Thermostat.SystemMode", 3),
        ("1.FanControl.FanMode", 0),
        ("1.Thermostat.OccupiedCoolingSetpoint", 2200),
        ("1.FanControl.PercentSetting", 100),
    ):
        if loc == "1.Thermostat.SystemMode":
            assert engine.execute(DID, "1.OnOff.On").ok
        assert engine.execute(DID, loc, {"value": value}).ok, loc
    sim = Simulator(engine)
    sim.advance(seconds=1800)
    assert engine.value(f"@{ROOM.id}", "temperature") < 27.0


def test_fan_percent_current_follows_power():
    engine = engine_for("fan", "off")
    assert engine.execute(DID, "1.OnOff.On").ok
    assert engine.value(DID, "1.FanControl.PercentCurrent") == 50
    assert engine.execute(DID, "1.OnOff.Toggle").ok
    assert engine.value(DID, "1.FanControl.PercentCurrent") == 0
    assert engine.execute(DID, "1.OnOff.Toggle").ok
    assert engine.value(DID, "1.FanControl.PercentCurrent") == 50


@pytest.mark.parametrize("type_name", ["air_conditioner", "heat_pump"])
def test_setpoint_raise_lower(type_name):
    engine = engine_for(type_name, "cooling")
    cool = engine.value(DID, "1.Thermostat.OccupiedCoolingSetpoint")
    heat = engine.value(DID, "1.Thermostat.OccupiedHeatingSetpoint")
    assert engine.execute(DID, "1.Thermostat.SetpointRaiseLower", {"mode": 1, "amount": 15}).ok
    assert engine.value(DID, "1.Thermostat.OccupiedCoolingSetpoint") == cool + 150
    assert engine.value(DID, "1.Thermostat.OccupiedHeatingSetpoint") == heat
    assert engine.execute(DID, "1.Thermostat.SetpointRaiseLower", {"mode": 2, "amount": -127}).ok
    assert engine.value(DID, "1.Thermostat.OccupiedCoolingSetpoint") == 1600  # clamped
    assert engine.value(DID, "1.Thermostat.OccupiedHeatingSetpoint") == heat - 1270


def test_air_conditioner_setpoint_raise_lower_needs_it_on():
    engine = engine_for("air_conditioner", "off")
    result = engine.execute(DID, "1.Thermostat.SetpointRaiseLower", {"mode": 1, "amount": 10})
    assert not result.ok and result.error.code == ErrorCode.PRECONDITION_FAILED


def test_dimmable_light_levels():
    engine = engine_for("dimmable_light", "off")
    before = snap(engine)
    result = engine.execute(DID, "1.LevelControl.MoveToLevel", {"level": 100})
    assert not result.ok and "MoveToLevelWithOnOff" in result.error.message
    assert snap(engine) == before

    assert engine.execute(DID, "1.LevelControl.MoveToLevelWithOnOff", {"level": 128}).ok
    assert engine.value(DID, "1.OnOff.OnOff") is True
    assert engine.value(DID, "1.LevelControl.CurrentLevel") == 128
    assert engine.execute(DID, "1.LevelControl.MoveToLevel", {"level": 60}).ok
    assert engine.execute(DID, "1.LevelControl.Step", {"stepMode": 0, "stepSize": 250}).ok
    assert engine.value(DID, "1.LevelControl.CurrentLevel") == 254
    assert engine.execute(DID, "1.LevelControl.StepWithOnOff", {"stepMode": 1, "stepSize": 254}).ok
    assert engine.value(DID, "1.LevelControl.CurrentLevel") == 1
    assert engine.value(DID, "1.OnOff.OnOff") is False
    assert engine.execute(DID, "1.LevelControl.StepWithOnOff", {"stepMode": 0, "stepSize": 9}).ok
    assert engine.status(DID)["1.OnOff.OnOff"] is True
    assert engine.execute(DID, "1.LevelControl.MoveToLevelWithOnOff", {"level": 0}).ok
    assert (
        engine.value(DID, "1.OnOff.OnOff"),
        engine.value(DID, "1.LevelControl.CurrentLevel"),
    ) == (False, 1)


def test_on_off_light_cannot_dim():
    engine = engine_for("on_off_light")
    assert (
        engine.execute(DID, "1.LevelControl.MoveToLevel", {"level": 10}).error.code
        == ErrorCode.SERVICE_NOT_FOUND
    )
    assert engine.execute(DID, "1.OnOff.Toggle").ok
    assert engine.value(DID, "1.OnOff.OnOff") is True


def test_robot_vacuum_session():
    engine = engine_for("robot_vacuum")
    assert engine.execute(DID, "1.RvcCleanMode.ChangeToMode", {"newMode": 2}).ok
    assert engine.execute(DID, "1.RvcRunMode.ChangeToMode", {"newMode": 1}).ok
    assert engine.value(DID, "1.RvcOperationalState.OperationalState") == 1

    before = snap(engine)
    for locator, args in (
        ("1.RvcRunMode.ChangeToMode", {"newMode": 2}),
        ("1.RvcCleanMode.ChangeToMode", {"newMode": 0}),
    ):
        result = engine.execute(DID, locator, args)
        assert not result.ok and result.error.code == ErrorCode.PRECONDITION_FAILED, locator
        assert "newMode 0" in result.error.message
    assert snap(engine) == before

    assert engine.execute(DID, "1.RvcOperationalState.Pause").ok
    assert engine.execute(DID, "1.RvcOperationalState.Resume").ok
    assert engine.execute(DID, "1.RvcRunMode.ChangeToMode", {"newMode": 0}).ok
    assert engine.value(DID, "1.RvcOperationalState.OperationalState") == 0
    assert engine.execute(DID, "1.RvcOperationalState.GoHome").ok
    assert engine.value(DID, "1.RvcOperationalState.OperationalState") == 66


def test_robot_vacuum_refuses_to_start_on_a_nearly_empty_battery():
    half_percents = 2 * MIN_CLEANING_BATTERY
    engine = engine_for("robot_vacuum", "low_battery")
    assert engine.set_values(DID, {"1.PowerSource.BatPercentRemaining": half_percents - 1}).ok
    before = snap(engine)
    result = engine.execute(DID, "1.RvcRunMode.ChangeToMode", {"newMode": 1})
    assert not result.ok and "battery" in result.error.message
    assert snap(engine) == before
    assert engine.set_values(DID, {"1.PowerSource.BatPercentRemaining": half_percents}).ok
    assert engine.execute(DID, "1.RvcRunMode.ChangeToMode", {"newMode": 1}).ok


def test_tv_channels_and_keys():
    engine = engine_for("tv", "off")
    assert engine.execute(DID, "1.MediaPlayback.Play").error.code == ErrorCode.PRECONDITION_FAILED
    assert engine.execute(DID, "1.OnOff.On").ok
    channel = "1.Channel.CurrentChannel"
    assert engine.execute(
        DID, "1.Channel.ChangeChannelByNumber", {"majorNumber": 9, "minorNumber": 0}
    ).ok
    assert engine.value(DID, channel)["name"] == "Movies"
    assert engine.execute(DID, "1.Channel.ChangeChannel", {"match": "knws"}).ok
    assert engine.value(DID, channel)["majorNumber"] == 5
    assert engine.execute(DID, "1.Channel.ChangeChannel", {"match": "11"}).ok
    assert engine.value(DID, channel)["name"] == "Kids"
    before = snap(engine)
    result = engine.execute(DID, "1.Channel.ChangeChannel", {"match": "Weather"})
    assert not result.ok and "Sports" in result.error.message
    assert snap(engine) == before
    assert engine.execute(DID, "1.Channel.SkipChannel", {"count": 2}).ok  # wraps past the end
    assert engine.value(DID, channel)["majorNumber"] == 5
    assert engine.execute(DID, "1.KeypadInput.SendKey", {"keyCode": 49}).ok  # ChannelDown
    assert engine.value(DID, channel)["majorNumber"] == 13
    assert engine.execute(DID, "1.KeypadInput.SendKey", {"keyCode": 68}).ok  # Play
    assert engine.value(DID, "1.MediaPlayback.CurrentState") == 0
    assert engine.execute(DID, "1.OnOff.Off").ok
    assert engine.value(DID, "1.MediaPlayback.CurrentState") == 2


KBS = [
    {"majorNumber": n, "minorNumber": 0, "name": name, "callSign": name}
    for n, name in ((1, "KBS1"), (2, "KBS2"), (3, "MBC"), (4, "SBS"), (5, "EBS"))
]


def test_tv_tunes_by_number_within_its_own_channel_list():
    """A TV whose home gives it another line-up (SimuHome's TVs carry KBS1..EBS on 1-5) tunes by
    that list, not by the catalog's shipped channels."""
    engine = engine_for(
        "tv", "off", **{"1.Channel.ChannelList": KBS, "1.Channel.CurrentChannel": KBS[0]}
    )
    assert engine.execute(DID, "1.OnOff.On").ok
    assert engine.execute(
        DID, "1.Channel.ChangeChannelByNumber", {"majorNumber": 3}
    ).ok  # minorNumber defaults to 0
    assert engine.value(DID, "1.Channel.CurrentChannel")["name"] == "MBC"
    before = snap(engine)
    result = engine.execute(
        DID, "1.Channel.ChangeChannelByNumber", {"majorNumber": 7, "minorNumber": 0}
    )
    assert result.error.code == ErrorCode.PRECONDITION_FAILED
    assert "4.0 SBS" in result.error.message  # the refusal lists this TV's channels
    assert snap(engine) == before


def test_tv_volume_is_a_level_control_not_coupled_to_power():
    engine = engine_for("tv", "off")
    before = snap(engine)
    assert (
        engine.execute(DID, "1.LevelControl.MoveToLevel", {"level": 30}).error.code
        == ErrorCode.PRECONDITION_FAILED
    )
    assert snap(engine) == before
    assert engine.execute(
        DID, "1.LevelControl.MoveToLevelWithOnOff", {"level": 30}
    ).ok  # in standby
    assert (
        engine.value(DID, "1.LevelControl.CurrentLevel"),
        engine.value(DID, "1.OnOff.OnOff"),
    ) == (30, False)
    assert engine.execute(DID, "1.OnOff.On").ok
    assert engine.execute(DID, "1.LevelControl.Step", {"stepMode": 0, "stepSize": 250}).ok
    assert engine.value(DID, "1.LevelControl.CurrentLevel") == 254  # held at MaxLevel
    assert engine.execute(DID, "1.LevelControl.MoveToLevel", {"level": 120}).ok
    assert engine.value(DID, "1.LevelControl.CurrentLevel") == 120


def test_window_covering_positions():
    engine = engine_for("window_covering", "open")
    assert engine.execute(
        DID, "1.WindowCovering.GoToLiftPercentage", {"liftPercent100thsValue": 2500}
    ).ok
    assert engine.value(DID, "1.WindowCovering.CurrentPositionLiftPercent100ths") == 2500
    assert engine.execute(DID, "1.WindowCovering.DownOrClose").ok
    assert engine.value(DID, "1.WindowCovering.CurrentPositionLiftPercent100ths") == 10000
    result = engine.execute(
        DID, "1.WindowCovering.GoToLiftPercentage", {"liftPercent100thsValue": 10001}
    )
    assert not result.ok and result.error.code == ErrorCode.OUT_OF_RANGE


# ---------------------------------------------------------------------------------- dynamics
DYNAMICS_KINDS = {
    "air_conditioner": {"drives", "sensors"},
    "heat_pump": {"drives", "sensors"},
    "air_purifier": {"drives"},
    "humidifier": {"drives", "sensors"},
    "dehumidifier": {"drives", "sensors"},
    "dimmable_light": {"lights"},
    "on_off_light": {"lights"},
    "window_covering": {"shades"},
    "dishwasher": {"cycle"},
    "laundry_washer": {"cycle"},
    "laundry_dryer": {"cycle"},
    "robot_vacuum": {"cycle"},
}


@pytest.mark.parametrize("type_name", TYPES)
def test_dynamics_blocks(type_name):
    dt = CATALOG[type_name]
    want = DYNAMICS_KINDS.get(type_name, set())
    if not want:
        assert dt.dynamics is None
        return
    dyn = dt.dynamics
    assert dyn is not None
    got = {k for k in ("drives", "lights", "shades", "sensors") if getattr(dyn, k)}
    got |= {"cycle"} if dyn.cycle is not None else set()
    assert got == want
    specs = dt.attribute_specs()
    assert all(loc in specs for _, loc in dyn.locators())
    for d in dyn.drives:
        assert d.rate <= 0.01, "time constants must be simulated minutes"
        if d.scale_attr is not None:
            assert d.scale_attr == "1.FanControl.PercentSetting" and d.scale_max == 100
        if d.target_attr is not None:
            assert d.target_scale == 0.01 and d.target_attr.startswith("1.Thermostat.Occupied")
    for s in dyn.sensors:
        assert s.scale == 100 and specs[s.attr].type == AttrType.INT


@pytest.mark.parametrize("type_name", [t for t, k in DYNAMICS_KINDS.items() if "cycle" in k])
def test_cycle_programs_cover_every_mode(type_name):
    dt = CATALOG[type_name]
    cyc = dt.dynamics.cycle
    specs = dt.attribute_specs()
    assert specs[cyc.countdown_attr].range == (0, 86400)
    assert {str(m) for m in specs[cyc.mode_attr].options} == set(cyc.programs)
    phases = specs[cyc.phase_attr.rsplit(".", 1)[0] + ".PhaseList"].value
    for mode, program in cyc.programs.items():
        assert [p.name for p in program] == phases, mode
        assert sum(p.seconds for p in program) <= 86400
    assert specs[cyc.phase_attr].range == (0, len(phases) - 1)
    for preset in dt.presets:  # mid-cycle presets fit their program
        status = engine_for(type_name, preset).status(DID)
        left = status[cyc.countdown_attr]
        if status[cyc.state_attr] in (cyc.running, cyc.paused):
            assert 0 < left <= sum(p.seconds for p in cyc.program(status[cyc.mode_attr])), preset
        else:
            assert left == 0, preset


def test_washer_and_dryer_programmes_take_simuhomes_lengths():
    """SimuHome's simulator (b2b0b40): washer Normal 60, Delicate 45, Heavy 90, Whites 60,
    Quick 15 and Heavy Whites 90 minutes; dryer Low/Normal/Extra/Max 30/45/60/75 minutes."""

    def minutes(type_name: str) -> list[float]:
        cyc = CATALOG[type_name].dynamics.cycle
        return [
            sum(p.seconds for p in cyc.program(int(m))) / 60 for m in sorted(cyc.programs, key=int)
        ]

    assert minutes("laundry_washer") == [60, 45, 90, 60, 15, 90]
    assert minutes("laundry_dryer") == [30, 45, 60, 75]
    assert minutes("dishwasher")[0] == 90


def test_broken_dynamics_locator_names_file_and_field(tmp_path):
    text = (CATALOG_DIR / "air_conditioner.yaml").read_text(encoding="utf-8")
    old = "target_attr: 1.Thermostat.OccupiedHeatingSetpoint"
    assert text.count(old) == 1
    (tmp_path / "air_conditioner.yaml").write_text(
        text.replace(old, "target_attr: 1.Thermostat.HeatingSetpoint"), encoding="utf-8"
    )
    with pytest.raises(ValueError) as err:
        load_catalog_dir(tmp_path)
    assert (
        "air_conditioner.yaml: dynamics.drives.1.target_attr: unknown attribute "
        "'1.Thermostat.HeatingSetpoint'"
    ) in str(err.value)


# ---------------------------------------------------------------------------------- mixed homes
def test_matter_and_homeenv_devices_share_one_engine():
    matter_light = instantiate("dimmable_light", "m100", ROOM.id, preset="off", kind="matter")
    matter_ac = instantiate("air_conditioner", "m101", ROOM.id, preset="off", kind="matter")
    homeenv_light = instantiate("light", "h100", ROOM.id, preset="off")
    engine = HomeEngine(Home(rooms=[ROOM], devices=[matter_light, matter_ac, homeenv_light]))

    results = engine.execute_many(
        [
            {
                "did": "m100",
                "locator": "1.LevelControl.MoveToLevelWithOnOff",
                "arguments": {"level": 200},
            },
            {"did": "h100", "locator": "turn_on"},
            {"did": "m101", "locator": "1.OnOff.On"},
            {"did": "m101", "locator": "1.FanControl.PercentSetting", "arguments": {"value": 70}},
        ]
    )

    assert all(r.ok for r in results), [r.error for r in results]
    assert engine.value("m100", "1.LevelControl.CurrentLevel") == 200
    assert engine.value("h100", "state") == "on"
    assert engine.value("m101", "1.FanControl.PercentSetting") == 70
    assert {d["did"] for d in engine.devices(room=ROOM.id)} == {"m100", "m101", "h100"}
    spec = engine.spec("m101")
    assert spec["attributes"]["1.FanControl.PercentSetting"]["matter_id"] == 2
    assert spec["services"]["1.OnOff.On"]["arguments"] == {}
