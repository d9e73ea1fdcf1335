"""One minimal entity class per platform and the shared platform set-up."""

from __future__ import annotations

from typing import Any

from homeassistant.components.binary_sensor import BinarySensorEntity
from homeassistant.components.climate import ClimateEntity, ClimateEntityFeature, HVACMode
from homeassistant.components.cover import CoverEntity, CoverEntityFeature
from homeassistant.components.fan import FanEntity, FanEntityFeature
from homeassistant.components.humidifier import HumidifierEntity
from homeassistant.components.light import ATTR_BRIGHTNESS, ColorMode, LightEntity
from homeassistant.components.lock import LockEntity
from homeassistant.components.media_player import (
    MediaPlayerEntity,
    MediaPlayerEntityFeature,
    MediaPlayerState,
)
from homeassistant.components.number import NumberEntity
from homeassistant.components.select import SelectEntity
from homeassistant.components.sensor import SensorEntity
from homeassistant.components.switch import SwitchEntity
from homeassistant.components.text import TextEntity
from homeassistant.components.vacuum import StateVacuumEntity, VacuumActivity, VacuumEntityFeature
from homeassistant.components.water_heater import WaterHeaterEntity, WaterHeaterEntityFeature
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import UnitOfTemperature
from homeassistant.core import HomeAssistant
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity import Entity
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

DOMAIN = "plain_home"


class PlainEntity(Entity):
    _attr_should_poll = False
    _attr_has_entity_name = True

    def __init__(
        self, entry_id: str, platform: str, index: int, device: int, name: str, room: str
    ) -> None:
        self._attr_unique_id = f"{entry_id}_{platform}_{index}"
        self._attr_name = f"{platform} {index}"
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, f"{entry_id}_{device}")}, name=name, suggested_area=room or None
        )


class PlainLight(PlainEntity, LightEntity):
    _attr_supported_color_modes = {ColorMode.BRIGHTNESS}
    _attr_color_mode = ColorMode.BRIGHTNESS
    _attr_is_on = False
    _attr_brightness = 0

    async def async_turn_on(self, **kwargs: Any) -> None:
        if (brightness := kwargs.get(ATTR_BRIGHTNESS)) is not None:
            self._attr_brightness = brightness
        self._attr_is_on = True
        self.async_write_ha_state()

    async def async_turn_off(self, **kwargs: Any) -> None:
        self._attr_is_on = False
        self.async_write_ha_state()


class PlainSwitch(PlainEntity, SwitchEntity):
    _attr_is_on = False

    async def async_turn_on(self, **kwargs: Any) -> None:
        self._attr_is_on = True
        self.async_write_ha_state()

    async def async_turn_off(self, **kwargs: Any) -> None:
        self._attr_is_on = False
        self.async_write_ha_state()


class PlainSensor(PlainEntity, SensorEntity):
    _attr_native_value = 21.5


class PlainBinarySensor(PlainEntity, BinarySensorEntity):
    _attr_is_on = False


class PlainClimate(PlainEntity, ClimateEntity):
    _attr_temperature_unit = UnitOfTemperature.CELSIUS
    _attr_hvac_modes = [HVACMode.OFF, HVACMode.COOL]
    _attr_hvac_mode = HVACMode.OFF
    _attr_supported_features = ClimateEntityFeature.TARGET_TEMPERATURE
    _attr_target_temperature = 24.0
    _attr_current_temperature = 25.0


class PlainCover(PlainEntity, CoverEntity):
    _attr_supported_features = CoverEntityFeature.OPEN | CoverEntityFeature.CLOSE
    _attr_is_closed = True


class PlainFan(PlainEntity, FanEntity):
    _attr_supported_features = (
        FanEntityFeature.SET_SPEED | FanEntityFeature.TURN_ON | FanEntityFeature.TURN_OFF
    )
    _attr_is_on = False
    _attr_percentage = 0


class PlainHumidifier(PlainEntity, HumidifierEntity):
    _attr_is_on = False
    _attr_target_humidity = 50


class PlainLock(PlainEntity, LockEntity):
    _attr_is_locked = True


class PlainMediaPlayer(PlainEntity, MediaPlayerEntity):
    _attr_supported_features = MediaPlayerEntityFeature.TURN_ON | MediaPlayerEntityFeature.TURN_OFF
    _attr_state = MediaPlayerState.OFF


class PlainNumber(PlainEntity, NumberEntity):
    _attr_native_value = 1.0


class PlainSelect(PlainEntity, SelectEntity):
    _attr_options = ["a", "b"]
    _attr_current_option = "a"


class PlainText(PlainEntity, TextEntity):
    _attr_native_value = ""


class PlainVacuum(PlainEntity, StateVacuumEntity):
    _attr_supported_features = VacuumEntityFeature.START | VacuumEntityFeature.STATE
    _attr_activity = VacuumActivity.DOCKED


class PlainWaterHeater(PlainEntity, WaterHeaterEntity):
    _attr_temperature_unit = UnitOfTemperature.CELSIUS
    _attr_supported_features = WaterHeaterEntityFeature.TARGET_TEMPERATURE
    _attr_current_temperature = 45.0
    _attr_target_temperature = 50.0


CLASSES: dict[str, type[PlainEntity]] = {
    "light": PlainLight,
    "switch": PlainSwitch,
    "sensor": PlainSensor,
    "binary_sensor": PlainBinarySensor,
    "climate": PlainClimate,
    "cover": PlainCover,
    "fan": PlainFan,
    "humidifier": PlainHumidifier,
    "lock": PlainLock,
    "media_player": PlainMediaPlayer,
    "number": PlainNumber,
    "select": PlainSelect,
    "text": PlainText,
    "vacuum": PlainVacuum,
    "water_heater": PlainWaterHeater,
}


def platform_setup(platform: str):
    async def async_setup_entry(
        hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
    ) -> None:
        devices = entry.runtime_data  # spread over the home's devices, as many as it has
        async_add_entities(
            CLASSES[platform](
                entry.entry_id, platform, i, i % len(devices), *devices[i % len(devices)]
            )
            for i in range(entry.data["counts"][platform])
        )

    return async_setup_entry
