"""Sensors: read-only attributes (measurements, remaining times, work states, lists), and the
simulated rooms' climate (temperature, humidity, light, particulates), one device per room.

Room variables change with simulated time (room physics) and with devices (a lamp lights
the room at once); showing them lets HA users watch the physics, and lets automations
(``smh.create_automation``) react to a room getting too warm.
"""

from __future__ import annotations

import json
from typing import Any

from homeassistant.components.sensor import SensorDeviceClass, SensorEntity, SensorStateClass
from homeassistant.const import (
    LIGHT_LUX,
    PERCENTAGE,
    UnitOfTemperature,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.util.unit_conversion import TemperatureConverter

from smh_core.homeenv.shapes import AttrType

from .compat import MICROGRAMS_PER_CUBIC_METER
from .const import DOMAIN
from .entity import SmhEntity, platform_setup
from .mirrors import unique_id
from .room import AIR_QUALITY, ROOM_PRECISION, ROOM_VARIABLES, room_device_id, room_did


def home_unit(hass: HomeAssistant | None, unit: str | None) -> str | None:
    """The unit HA shows a reading of ``unit`` in: °C becomes the home's temperature unit
    (see :func:`home_temperature`); every other unit is kept."""
    if hass is None or unit != UnitOfTemperature.CELSIUS:
        return unit
    return hass.config.units.temperature_unit


def home_temperature(
    hass: HomeAssistant | None, unit: str | None, value: Any, decimals: int
) -> tuple[str | None, Any]:
    """A Celsius reading in the home's own temperature unit, rounded as its meter rounds.

    Why: HA converts a °C sensor for an imperial home itself, but keeps the converted float
    (29.2 °C becomes the state "84.56"), and HA's Assist reads the state out while the tile
    rounds it: "84.56 degrees" beside "84.6 °F". Reporting in the home's unit with the meter's
    decimals gives one number everywhere; the engine itself stays in °C, and a Celsius home's
    values pass unchanged."""
    home = home_unit(hass, unit)
    if home == unit or not isinstance(value, int | float) or isinstance(value, bool):
        return unit, value
    converted = TemperatureConverter.convert(float(value), unit, home)
    return home, round(converted, decimals) if decimals else round(converted)


class SmhSensor(SmhEntity, SensorEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        attr = self.mirror.attribute
        labels = list(self.mirror.convert.values.values())
        self._numeric = (
            attr.type in (AttrType.INT, AttrType.FLOAT) and not attr.options and not labels
        )
        if labels:  # an enum shown by its names (a Matter OperationalState)
            self._attr_device_class = SensorDeviceClass.ENUM
            self._attr_options = labels
        self._unit = self.mirror.unit if self._numeric else None  # the engine's (°C ...)
        if self._numeric:
            self._attr_state_class = SensorStateClass.MEASUREMENT
            if self.mirror.device_class is not None:
                self._attr_device_class = SensorDeviceClass(self.mirror.device_class)

    @property
    def native_unit_of_measurement(self) -> str | None:
        return home_unit(self.hass, self._unit)

    @property
    def native_value(self) -> Any:
        value = self.value
        if self._numeric:
            return home_temperature(self.hass, self._unit, value, 1)[1]  # a thermometer's tenths
        if isinstance(value, str):
            return value
        return json.dumps(value, ensure_ascii=False)[:255]


ROOM_SENSOR_CLASSES: dict[str, tuple[SensorDeviceClass, str | None]] = {
    "temperature": (SensorDeviceClass.TEMPERATURE, UnitOfTemperature.CELSIUS),
    "humidity": (SensorDeviceClass.HUMIDITY, PERCENTAGE),
    "illuminance": (SensorDeviceClass.ILLUMINANCE, LIGHT_LUX),
    "pm25": (SensorDeviceClass.PM25, MICROGRAMS_PER_CUBIC_METER),
    "pm10": (SensorDeviceClass.PM10, MICROGRAMS_PER_CUBIC_METER),
    "air_quality": (SensorDeviceClass.ENUM, None),
}


class SmhRoomSensor(SensorEntity):
    """One climate variable of one simulated room (read-only: physics writes it)."""

    _attr_should_poll = False
    _attr_has_entity_name = True

    def __init__(self, runtime: Any, entry_id: str, room: str, variable: str) -> None:
        self.runtime = runtime
        self.did, self.variable = room_did(room), variable
        self._attr_unique_id = unique_id(entry_id, self.did, variable)
        self._attr_name = ROOM_VARIABLES[variable]
        self._attr_device_info = DeviceInfo(identifiers={(DOMAIN, room_device_id(entry_id, room))})
        device_class, unit = ROOM_SENSOR_CLASSES[variable]
        self._unit = unit  # the engine's
        self._attr_device_class = device_class
        self._attr_extra_state_attributes = {"did": self.did, "locator": variable}
        if device_class is SensorDeviceClass.ENUM:
            self._attr_options = AIR_QUALITY
        else:
            self._attr_state_class = SensorStateClass.MEASUREMENT
            self._attr_suggested_display_precision = ROOM_PRECISION[variable]

    @property
    def native_unit_of_measurement(self) -> str | None:
        return home_unit(self.hass, self._unit)

    @property
    def native_value(self) -> Any:
        """The room variable as a meter shows it (:data:`ROOM_PRECISION` decimals), a
        temperature in the home's unit."""
        value = self.runtime.engine.value(self.did, self.variable)
        digits = ROOM_PRECISION.get(self.variable)
        if digits is None or not isinstance(value, int | float) or isinstance(value, bool):
            return value
        value = home_temperature(self.hass, self._unit, value, digits)[1]
        return round(value, digits) if digits else round(value)

    async def async_added_to_hass(self) -> None:
        self.async_on_remove(
            self.runtime.subscribe(self.did, [self.variable], self.async_write_ha_state)
        )


_device_sensors = platform_setup("sensor", SmhSensor)


async def async_setup_entry(
    hass: HomeAssistant, entry: Any, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    await _device_sensors(hass, entry, async_add_entities)
    runtime = entry.runtime_data
    async_add_entities(
        SmhRoomSensor(runtime, entry.entry_id, room, variable)
        for room in runtime.engine.simulated_rooms()
        for variable in ROOM_VARIABLES
    )
