"""Home Assistant's own ``matter`` integration discovers every Matter catalog type through the bridge.

One device of each of the 17 catalog types is served; HA's discovery schemas
(``homeassistant/components/matter/<platform>.py``, HA 2026.2.3) decide the entities from the
clusters, attributes, feature maps and device types the bridge serves. ``EXPECTED`` is the table
that follows from those schemas (measured, and checked against them by hand):

* lights: ``light`` (brightness for the dimmable one, on/off only for the other);
* air conditioner (Room Air Conditioner) and heat pump (Heat Pump + Thermostat): ``climate``
  with off/heat/cool; the heat pump also gets HA's thermostat temperature sensor (the schema
  is limited to Thermostat endpoints) and the electrical sensors; the air conditioner also gets
  ``fan`` (FanControl) and a power ``switch`` (OnOff on a non-light device type);
* fan, air purifier, humidifier, dehumidifier: ``fan`` with presets and a percentage (the bridge
  serves the percentage fans with MultiSpeed, SpeedMax 100), humidity sensors where measured; HA
  has no humidifier platform for Matter;
* washer, dryer, dishwasher: operational state/error/phase/end-time sensors, start/stop/pause/
  resume buttons, the mode select (no dryer-mode cluster on the dryer) and the washer's spin and
  rinse selects; HA has no select for the dryer's dryness level;
* fridge/freezer: mode select, temperature-setpoint number, temperature sensor;
* robot vacuum: ``vacuum`` plus operational state/error/phase, battery and clean-mode entities;
* window covering: ``cover`` (lift, position) and its config-status and target-position diagnostics;
* TV (Basic Video Player): only the power ``switch``; HA has no media player for Matter.

A type discovered with fewer entities than listed, or with weaker features, fails the test;
extra entities (a newer HA) do not.
"""

from __future__ import annotations

import logging

from homeassistant.components.climate import ClimateEntityFeature
from homeassistant.components.cover import CoverEntityFeature
from homeassistant.components.fan import FanEntityFeature
from homeassistant.components.vacuum import VacuumEntityFeature
from homeassistant.core import HomeAssistant

from sim_devices.catalog import load_catalog
from sim_devices.matter_bridge.server import MatterBridge
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.simulated import generate_matter_home

from .ha_setup import entities_by_device, ha_matter, wait_for

OPERATIONAL = {
    "button.start",
    "button.stop",
    "button.pause",
    "button.resume",
    "sensor.operational_state",
    "sensor.operational_error",
    "sensor.current_phase",
    "sensor.estimated_end_time",
    "switch.power",
}
ELECTRICAL = {"sensor.power", "sensor.voltage", "sensor.active_current", "sensor.energy"}
FRIDGE = {"select.mode", "number.temperature_setpoint", "sensor.temperature"}

EXPECTED: dict[str, set[str]] = {
    "air_conditioner": {"climate", "fan", "switch.power"},
    "air_purifier": {"fan", "switch.power", "button.identify"},
    "dehumidifier": {"fan", "sensor.humidity"},
    "dimmable_light": {"light"},
    "dishwasher": OPERATIONAL | {"select.mode"},
    "electrical_sensor": ELECTRICAL,
    "fan": {"fan"},
    "freezer": FRIDGE,
    "heat_pump": {"climate", "sensor.temperature"} | ELECTRICAL,
    "humidifier": {"fan", "sensor.humidity"},
    "laundry_dryer": OPERATIONAL,
    "laundry_washer": OPERATIONAL | {"select.mode", "select.spin_speed", "select.number_of_rinses"},
    "on_off_light": {"light"},
    "refrigerator": FRIDGE,
    "robot_vacuum": {
        "vacuum",
        "select.clean_mode",
        "sensor.operational_state",
        "sensor.operational_error",
        "sensor.current_phase",
        "sensor.battery",
        "sensor.battery_charge_state",
    },
    "tv": {"switch.power"},
    "window_covering": {
        "cover",
        "binary_sensor.configuration_status",
        "sensor.target_opening_position",
    },
}

FAN_PRESETS = {
    "preset_modes": ["low", "medium", "high", "auto"],
    "percentage_step": 1.0,
    "supported_features": FanEntityFeature.SET_SPEED
    | FanEntityFeature.PRESET_MODE
    | FanEntityFeature.TURN_ON
    | FanEntityFeature.TURN_OFF,
}
CLIMATE = {
    "hvac_modes": ["off", "heat", "cool"],
    "supported_features": ClimateEntityFeature.TARGET_TEMPERATURE
    | ClimateEntityFeature.TURN_ON
    | ClimateEntityFeature.TURN_OFF,
}
APPLIANCE = {
    "sensor.operational_state": {
        "state": "stopped",
        "options": ["stopped", "running", "paused", "error"],
    },
    "sensor.operational_error": {"state": "no_error"},
    "switch.power": {"state": "off"},
}
ELECTRICAL_VALUES = {
    "sensor.voltage": {"state": "230.0", "unit_of_measurement": "V"},
    "sensor.power": {"device_class": "power", "unit_of_measurement": "W"},
    "sensor.energy": {"device_class": "energy", "unit_of_measurement": "kWh"},
}

# Key features and states (the catalog's default values through Matter's encodings).
FEATURES: dict[str, dict[str, dict[str, object]]] = {
    "dimmable_light": {"light": {"state": "off", "supported_color_modes": ["brightness"]}},
    "on_off_light": {"light": {"state": "off", "supported_color_modes": ["onoff"]}},
    "air_conditioner": {"climate": {"state": "off", **CLIMATE}, "fan": FAN_PRESETS},
    "heat_pump": {
        "climate": {
            "state": "off",
            "current_temperature": 20.0,
            "min_temp": 7.0,
            "max_temp": 30.0,
            **CLIMATE,
        },
        "sensor.temperature": {"state": "20.0", "unit_of_measurement": "°C"},
        **ELECTRICAL_VALUES,
    },
    "electrical_sensor": {
        **ELECTRICAL_VALUES,
        "sensor.power": {"state": "100.0", "unit_of_measurement": "W"},
        "sensor.energy": {"state": "3500.0", "unit_of_measurement": "kWh"},
    },
    "fan": {"fan": FAN_PRESETS},
    "air_purifier": {"fan": FAN_PRESETS},
    "humidifier": {
        "fan": FAN_PRESETS,
        "sensor.humidity": {"state": "45.0", "unit_of_measurement": "%"},
    },
    "dehumidifier": {
        "fan": FAN_PRESETS,
        "sensor.humidity": {"state": "45.0", "unit_of_measurement": "%"},
    },
    "laundry_washer": {
        **APPLIANCE,
        "select.mode": {
            "state": "Normal",
            "options": ["Normal", "Delicate", "Heavy", "Whites", "Quick", "Heavy Whites"],
        },
        "select.spin_speed": {"state": "1200 rpm"},
        "sensor.current_phase": {"options": ["pre-wash", "wash", "rinse", "spin"]},
    },
    "laundry_dryer": APPLIANCE,
    "dishwasher": {**APPLIANCE, "select.mode": {"state": "Normal"}},
    "refrigerator": {
        "sensor.temperature": {"state": "4.0"},
        "number.temperature_setpoint": {"state": "4.0"},
    },
    "freezer": {
        "sensor.temperature": {"state": "-18.0"},
        "number.temperature_setpoint": {"state": "-18.0"},
    },
    "robot_vacuum": {
        "vacuum": {
            "state": "docked",
            "supported_features": VacuumEntityFeature.START
            | VacuumEntityFeature.PAUSE
            | VacuumEntityFeature.STOP
            | VacuumEntityFeature.RETURN_HOME
            | VacuumEntityFeature.STATE,
        },
        "sensor.operational_state": {"state": "docked"},
    },
    "window_covering": {
        "cover": {
            "state": "open",
            "device_class": "shade",
            "current_position": 100,
            "supported_features": CoverEntityFeature.OPEN
            | CoverEntityFeature.CLOSE
            | CoverEntityFeature.SET_POSITION
            | CoverEntityFeature.STOP,
        }
    },
    "tv": {"switch.power": {"state": "off"}},
}


def test_the_table_covers_the_catalog():
    assert set(EXPECTED) == set(load_catalog("matter"))


def _shortfalls(hass: HomeAssistant, found: dict[str, dict[str, object]]) -> dict[str, list[str]]:
    problems: dict[str, list[str]] = {}
    for type_name, expected in EXPECTED.items():
        entities = found.get(type_name, {})
        missing = sorted(expected - set(entities))
        if missing:
            problems.setdefault(type_name, []).append(
                f"missing {missing}; HA made {sorted(entities)}"
            )
        for key, wanted in FEATURES.get(type_name, {}).items():
            entry = entities.get(key)
            state = hass.states.get(entry.entity_id) if entry is not None else None
            if state is None:
                continue  # reported as missing above
            for attr, value in wanted.items():
                actual = state.state if attr == "state" else state.attributes.get(attr)
                ok = (
                    (int(actual or 0) & int(value) == int(value))
                    if attr == "supported_features"
                    else actual == value
                )
                if not ok:
                    problems.setdefault(type_name, []).append(
                        f"{key} {attr}: {actual!r}, expected {value!r}"
                    )
    return problems


async def test_ha_discovers_every_catalog_type(
    hass: HomeAssistant, catalog_engine, socket_enabled, caplog
):
    bridge = MatterBridge(catalog_engine)
    assert len(bridge.nodes) == len(EXPECTED)
    async with ha_matter(hass, bridge) as entry:
        found = {
            catalog_engine.device(did).name: entities
            for did, entities in entities_by_device(hass, entry).items()
        }
        assert set(found) == set(EXPECTED), "a device got no entity at all"
        assert _shortfalls(hass, found) == {}
        errors = [
            r.getMessage()
            for r in caplog.records
            if r.levelno >= logging.ERROR
            and r.name.startswith(
                ("homeassistant.components.matter", "matter_server", "sim_devices")
            )
        ]
        assert errors == []


async def test_ha_discovers_a_generated_home(hass: HomeAssistant, socket_enabled):
    """``generate_matter_home``'s 27 devices (presets applied, several of a type): every device gets
    at least its type's entities."""
    home = generate_matter_home(seed=3)
    type_of = {t.spid: name for name, t in load_catalog("matter").items()}
    expected = {d.userdata.did: EXPECTED[type_of[d.userdata.spid]] for d in home.devices}
    async with ha_matter(hass, MatterBridge(HomeEngine(home))) as entry:
        found = entities_by_device(hass, entry)
    missing = {did: sorted(keys - set(found.get(did, {}))) for did, keys in expected.items()}
    assert {did: keys for did, keys in missing.items() if keys} == {}
    assert len(found) == len(home.devices) == 27


async def test_ha_controls_a_heat_pump_and_a_cover(
    hass: HomeAssistant, catalog_engine, socket_enabled
):
    """The heat pump's climate entity (offered because the bridge lists the Thermostat device type
    on its endpoint) and the cover write through the engine; engine changes come back by push."""
    engine = catalog_engine
    did = {engine.device(d).name: d for d in engine.device_ids()}
    async with ha_matter(hass, MatterBridge(engine)):
        await hass.services.async_call(
            "climate",
            "set_hvac_mode",
            {"entity_id": "climate.living_room_heat_pump", "hvac_mode": "heat"},
            blocking=True,
        )
        await hass.services.async_call(
            "climate",
            "set_temperature",
            {"entity_id": "climate.living_room_heat_pump", "temperature": 22.5},
            blocking=True,
        )
        status = engine.status(did["heat_pump"])
        assert status["1.Thermostat.SystemMode"] == 4
        assert status["1.Thermostat.OccupiedHeatingSetpoint"] == 2250
        assert await wait_for(
            hass, lambda: hass.states.get("climate.living_room_heat_pump").state == "heat"
        )
        assert hass.states.get("climate.living_room_heat_pump").attributes["temperature"] == 22.5
        assert engine.execute(did["heat_pump"], "1.Thermostat.SystemMode", {"value": 3}).ok
        assert await wait_for(
            hass, lambda: hass.states.get("climate.living_room_heat_pump").state == "cool"
        )

        await hass.services.async_call(
            "cover",
            "set_cover_position",
            {"entity_id": "cover.living_room_window_covering", "position": 30},
            blocking=True,
        )
        assert (
            engine.status(did["window_covering"])[
                "1.WindowCovering.TargetPositionLiftPercent100ths"
            ]
            == 7000
        )
