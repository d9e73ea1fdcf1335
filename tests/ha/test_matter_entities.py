"""Matter-style devices in SMH's own integration are usable HA entities: every Matter catalog
type gets its platform (a light, a climate, a fan ...), a state-changing HA call on that entity
changes the engine's Matter attributes in the cluster's units, refusals carry the engine's
message and change nothing, and raw cluster details are diagnostic and disabled by default."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.compat import device_for
from custom_components.smh.const import DOMAIN
from custom_components.smh.entity_plan import plan
from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry

DID = "100"


@dataclass(frozen=True)
class Call:
    """One Matter type: its main entity (key), an HA call on it, the engine values after it and
    the HA attributes (or state) the entity then shows."""

    type: str
    key: str  # rich entity: its platform; generic entity: its locator
    service: str
    data: dict[str, Any]
    engine: dict[str, Any]
    shown: dict[str, Any]

    @property
    def platform(self) -> str:
        return self.service.split(".")[0]


CALLS = [
    Call(
        "air_conditioner",
        "climate",
        "climate.set_temperature",
        {"hvac_mode": "heat", "temperature": 21.5},
        {
            "1.OnOff.OnOff": True,
            "1.Thermostat.SystemMode": 4,
            "1.Thermostat.OccupiedHeatingSetpoint": 2150,
        },
        {
            "state": "heat",
            "temperature": 21.5,
            "current_temperature": 26,
            "min_temp": 7,
            "max_temp": 32,
        },
    ),
    Call(
        "heat_pump",
        "climate",
        "climate.set_temperature",
        {"hvac_mode": "cool", "temperature": 23},
        {"1.Thermostat.SystemMode": 3, "1.Thermostat.OccupiedCoolingSetpoint": 2300},
        {"state": "cool", "temperature": 23},
    ),
    Call(
        "fan",
        "fan",
        "fan.set_percentage",
        {"percentage": 70},
        {"1.OnOff.OnOff": True, "1.FanControl.PercentSetting": 70},
        {"state": "on", "percentage": 70},
    ),
    Call(
        "air_purifier",
        "fan",
        "fan.set_percentage",
        {"percentage": 35},
        {"1.OnOff.OnOff": True, "1.FanControl.PercentSetting": 35},
        {"state": "on", "percentage": 35},
    ),
    Call(
        "humidifier",
        "fan",
        "fan.turn_on",
        {"percentage": 90},
        {"1.OnOff.OnOff": True, "1.FanControl.PercentSetting": 90},
        {"state": "on", "percentage": 90},
    ),
    Call(
        "dehumidifier",
        "fan",
        "fan.turn_on",
        {"percentage": 20},
        {"1.OnOff.OnOff": True, "1.FanControl.PercentSetting": 20},
        {"state": "on", "percentage": 20},
    ),
    Call(
        "dimmable_light",
        "light",
        "light.turn_on",
        {"brightness": 255},
        {"1.OnOff.OnOff": True, "1.LevelControl.CurrentLevel": 254},
        {"state": "on", "brightness": 255},
    ),
    Call(
        "on_off_light",
        "light",
        "light.turn_on",
        {},
        {"1.OnOff.OnOff": True},
        {"state": "on", "color_mode": "onoff"},
    ),
    Call(
        "window_covering",
        "cover",
        "cover.set_cover_position",
        {"position": 30},
        {"1.WindowCovering.CurrentPositionLiftPercent100ths": 7000},
        {"state": "open", "current_position": 30},
    ),
    Call(
        "robot_vacuum",
        "vacuum",
        "vacuum.start",
        {},
        {"1.RvcRunMode.CurrentMode": 1, "1.RvcOperationalState.OperationalState": 1},
        {"state": "cleaning"},
    ),
    Call(
        "dishwasher",
        "1.OnOff.OnOff",
        "switch.turn_on",
        {},
        {"1.OnOff.OnOff": True},
        {"state": "on"},
    ),
    Call(
        "laundry_washer",
        "1.OnOff.OnOff",
        "switch.turn_on",
        {},
        {"1.OnOff.OnOff": True},
        {"state": "on"},
    ),
    Call(
        "laundry_dryer",
        "1.OnOff.OnOff",
        "switch.turn_on",
        {},
        {"1.OnOff.OnOff": True},
        {"state": "on"},
    ),
    Call(
        "tv",
        "media_player",
        "media_player.turn_on",
        {},
        {"1.OnOff.OnOff": True},
        {"state": "idle", "device_class": "tv"},
    ),
    Call(
        "refrigerator",
        "1.TemperatureControl.TemperatureSetpoint",
        "number.set_value",
        {"value": 5},
        {"1.TemperatureControl.TemperatureSetpoint": 500},
        {
            "state": "5",
            "unit_of_measurement": "°C",
            "device_class": "temperature",
            "min": 1,
            "max": 7,
        },
    ),
    Call(
        "freezer",
        "1.TemperatureControl.TemperatureSetpoint",
        "number.set_value",
        {"value": -20},
        {"1.TemperatureControl.TemperatureSetpoint": -2000},
        {"state": "-20", "unit_of_measurement": "°C"},
    ),
]
READ_ONLY = {"electrical_sensor"}  # a meter: nothing to change


def test_every_matter_type_has_a_case() -> None:
    assert {c.type for c in CALLS} | READ_ONLY == set(load_catalog("matter"))


def _home(type_name: str) -> Home:
    device = instantiate(type_name, did=DID, room="living", kind="matter")
    return Home(
        name="matter-one",
        rooms=[Room(id="living", type="living_room", name="Living Room")],
        devices=[device],
    )


def _entity_id(hass: HomeAssistant, entry: MockConfigEntry, domain: str, key: str) -> str:
    entity_id = er.async_get(hass).async_get_entity_id(
        domain, DOMAIN, f"{entry.entry_id}_{DID}_{key}"
    )
    assert entity_id is not None, (domain, key)
    return entity_id


@pytest.mark.parametrize("case", CALLS, ids=lambda c: c.type)
async def test_matter_type_is_a_usable_entity(hass: HomeAssistant, case: Call) -> None:
    entry = await setup_home_entry(hass, _home(case.type), time_scale=0.0)
    engine = entry.runtime_data.engine
    entity_id = _entity_id(hass, entry, case.platform, case.key)
    assert engine.device(DID).name in hass.states.get(entity_id).name
    await hass.services.async_call(
        case.platform,
        case.service.split(".")[1],
        {"entity_id": entity_id, **case.data},
        blocking=True,
    )
    assert {loc: engine.value(DID, loc) for loc in case.engine} == case.engine
    state = hass.states.get(entity_id)
    shown = {"state": state.state, **state.attributes}
    assert {k: shown.get(k) for k in case.shown} == case.shown


def test_no_attribute_is_shown_twice_and_raw_details_are_diagnostic() -> None:
    """Attributes a platform entity shows get no generic entity; what is left is either named
    for people (no cluster or endpoint in the name) or diagnostic."""
    for type_name in load_catalog("matter"):
        device = _home(type_name).devices[0]
        riches, mirrors = plan(device)
        covered = {loc for r in riches for loc in r.locators}
        assert not covered & {m.locator for m in mirrors}, type_name
        assert len(covered) + len(mirrors) == len(device.attributes_by_locator())
        for m in mirrors:
            assert m.name and not m.name[0].isdigit() and "." not in m.name, (
                type_name,
                m.locator,
                m.name,
            )
            assert m.unit is None or not m.unit.startswith("0.01"), (type_name, m.locator)


async def test_units_are_converted_for_sensors(hass: HomeAssistant) -> None:
    entry = await setup_home_entry(hass, _home("refrigerator"), time_scale=0.0)
    engine = entry.runtime_data.engine
    temperature = hass.states.get(
        _entity_id(hass, entry, "sensor", "1.TemperatureMeasurement.MeasuredValue")
    )
    assert float(temperature.state) == pytest.approx(
        engine.value(DID, "1.TemperatureMeasurement.MeasuredValue") / 100
    )
    assert temperature.attributes["device_class"] == "temperature"
    assert temperature.attributes["unit_of_measurement"] == "°C"
    raw = engine.value(DID, "1.TemperatureMeasurement.MeasuredValue")  # kept for automations on it
    assert temperature.attributes["homeenv"] == {"1.TemperatureMeasurement.MeasuredValue": raw}
    mode = hass.states.get(
        _entity_id(
            hass, entry, "select", "1.RefrigeratorAndTemperatureControlledCabinetMode.CurrentMode"
        )
    )
    assert mode.attributes["options"] == ["normal", "rapid cool", "energy save"]
    await hass.services.async_call(
        "select",
        "select_option",
        {"entity_id": mode.entity_id, "option": "rapid cool"},
        blocking=True,
    )
    assert engine.value(DID, "1.RefrigeratorAndTemperatureControlledCabinetMode.CurrentMode") == 1


async def test_meter_shows_watts_and_raw_details_are_disabled(hass: HomeAssistant) -> None:
    entry = await setup_home_entry(hass, _home("electrical_sensor"), time_scale=0.0)
    engine = entry.runtime_data.engine
    power = hass.states.get(
        _entity_id(hass, entry, "sensor", "1.ElectricalPowerMeasurement.ActivePower")
    )
    assert (
        power.attributes["device_class"] == "power"
        and power.attributes["unit_of_measurement"] == "W"
    )
    assert float(power.state) == pytest.approx(
        engine.value(DID, "1.ElectricalPowerMeasurement.ActivePower") / 1000
    )
    registry = er.async_get(hass)
    raw = registry.async_get(
        _entity_id(hass, entry, "sensor", "1.ElectricalPowerMeasurement.PowerMode")
    )
    assert (
        raw.entity_category == "diagnostic"
        and raw.disabled_by is er.RegistryEntryDisabler.INTEGRATION
    )
    assert hass.states.get(raw.entity_id) is None  # disabled: no state until a user enables it


@pytest.mark.parametrize(
    ("type_name", "service", "key", "data", "message"),
    [
        (
            "air_conditioner",
            "number.set_value",
            "1.FanControl.PercentSetting",
            {"value": 80},
            "turn the air conditioner on first",
        ),
        ("robot_vacuum", "vacuum.pause", "vacuum", {}, "the robot is not cleaning"),
        (
            "refrigerator",
            "number.set_value",
            "1.TemperatureControl.TemperatureSetpoint",
            {"value": 9},
            None,
        ),  # HA refuses a value past the entity's range before the engine sees it
    ],
)
async def test_refusals_change_nothing(
    hass: HomeAssistant,
    type_name: str,
    service: str,
    key: str,
    data: dict[str, Any],
    message: str | None,
) -> None:
    entry = await setup_home_entry(hass, _home(type_name), time_scale=0.0)
    engine = entry.runtime_data.engine
    before = engine.snapshot()
    domain, name = service.split(".")
    with pytest.raises(ServiceValidationError) as exc:
        await hass.services.async_call(
            domain, name, {"entity_id": _entity_id(hass, entry, domain, key), **data}, blocking=True
        )
    if message is not None:
        assert message in str(exc.value)
    assert engine.diff(before, engine.snapshot()) == []


async def test_a_matter_home_is_a_usable_home(hass: HomeAssistant) -> None:
    """A generated Matter home: unique device names in their rooms' areas, platform entities for
    its lights, climates, fans, covers and vacuum, and no enabled entity named after a cluster."""
    data = {"source": "matter", "seed": 1, "time_scale": 0.0}
    entry = MockConfigEntry(domain=DOMAIN, data=data, options=data)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    engine = entry.runtime_data.engine
    devices = dr.async_get(hass)
    ours = [
        device_for(devices, (DOMAIN, f"{entry.entry_id}_{did}"), entry.entry_id)
        for did in engine.device_ids()
    ]
    names = [d.name for d in ours]
    assert len(set(names)) == len(names) == len(engine.device_ids())
    assert "Living Room Air Conditioner 2" in names
    areas = ar.async_get(hass)
    for did, device in zip(engine.device_ids(), ours, strict=True):
        area = areas.async_get_area(device.area_id)
        assert area.name == next(
            r.name for r in engine.rooms() if r.id == engine.device(did).userdata.room
        )
        assert device.name.startswith(area.name)
    entries = er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
    enabled = [e for e in entries if e.disabled_by is None]
    domains = {e.domain for e in enabled}
    assert {"climate", "light", "fan", "cover", "vacuum", "switch", "select", "sensor"} <= domains
    for e in enabled:
        state = hass.states.get(e.entity_id)
        assert state is not None
        assert not any(
            word in state.name
            for word in ("OnOff", "Thermostat", "FanControl", "LevelControl", "Measurement")
        ), state.name
        if e.domain == "sensor" and state.attributes.get("device_class") == "temperature":
            assert state.attributes["unit_of_measurement"] == "°C" and -60 < float(state.state) < 60


async def test_a_washer_is_started_from_its_buttons(hass: HomeAssistant) -> None:
    """Commands people press are buttons; a press the engine refuses (start while off) raises its
    message and changes nothing; after power on, Start runs a cycle and the sensor says so."""
    entry = await setup_home_entry(hass, _home("laundry_washer"), time_scale=0.0)
    engine = entry.runtime_data.engine
    start = _entity_id(hass, entry, "button", "1.OperationalState.Start.button")
    assert hass.states.get(start).name.endswith("Start")
    before = engine.snapshot()
    with pytest.raises(ServiceValidationError, match="power the washer on first"):
        await hass.services.async_call("button", "press", {"entity_id": start}, blocking=True)
    assert engine.diff(before, engine.snapshot()) == []
    await hass.services.async_call(
        "switch",
        "turn_on",
        {"entity_id": _entity_id(hass, entry, "switch", "1.OnOff.OnOff")},
        blocking=True,
    )
    await hass.services.async_call("button", "press", {"entity_id": start}, blocking=True)
    assert engine.value(DID, "1.OperationalState.OperationalState") == 1
    operation = _entity_id(hass, entry, "sensor", "1.OperationalState.OperationalState")
    assert hass.states.get(operation).state == "running"
    await hass.services.async_call(
        "button",
        "press",
        {"entity_id": _entity_id(hass, entry, "button", "1.OperationalState.Pause.button")},
        blocking=True,
    )
    assert hass.states.get(operation).state == "paused"


async def test_a_tv_is_a_media_player(hass: HomeAssistant) -> None:
    """A Matter video player is HA's media player (power, play, pause, stop, next, previous);
    playing while off is refused by the engine with its message and changes nothing."""
    entry = await setup_home_entry(hass, _home("tv"), time_scale=0.0)
    engine = entry.runtime_data.engine
    player = _entity_id(hass, entry, "media_player", "media_player")
    assert hass.states.get(player).state == "off"
    before = engine.snapshot()
    with pytest.raises(ServiceValidationError):
        await hass.services.async_call(
            "media_player", "media_play", {"entity_id": player}, blocking=True
        )
    assert engine.diff(before, engine.snapshot()) == []
    await hass.services.async_call("media_player", "turn_on", {"entity_id": player}, blocking=True)
    await hass.services.async_call(
        "media_player", "media_play", {"entity_id": player}, blocking=True
    )
    assert engine.value(DID, "1.MediaPlayback.CurrentState") == 0
    assert hass.states.get(player).state == "playing"
    await hass.services.async_call(
        "media_player", "media_pause", {"entity_id": player}, blocking=True
    )
    assert (
        hass.states.get(player).state == "paused"
        and engine.value(DID, "1.MediaPlayback.CurrentState") == 1
    )
    assert _entity_id(
        hass, entry, "button", "1.MediaPlayback.StartOver.button"
    )  # no media player call for it
