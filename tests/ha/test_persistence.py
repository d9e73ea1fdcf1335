"""The simulated home's state survives a reload and a Home Assistant restart."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN


async def test_state_survives_reload(hass: HomeAssistant, tiny_entry) -> None:
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "1001", "locator": "turn_on"}, blocking=True
    )
    await hass.services.async_call(
        DOMAIN,
        "execute",
        {
            "did": "1003",
            "locator": "set_target_temperature",
            "arguments": {"target_temperature": 19.5},
        },
        blocking=True,
    )
    assert await hass.config_entries.async_reload(tiny_entry.entry_id)
    await hass.async_block_till_done()
    engine = tiny_entry.runtime_data.engine
    assert engine.value("1001", "state") == "on"
    assert engine.value("1003", "target_temperature") == 19.5


async def test_state_is_restored_from_storage_after_restart(
    hass: HomeAssistant, hass_storage: dict[str, Any], tiny_home_file: str
) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={
            "source": "file",
            "file": tiny_home_file,
            "level": "simple",
            "seed": 0,
            "time_scale": 1.0,
        },
    )
    # what a previous HA run left behind: one valid change, one value the schema no longer allows
    hass_storage[f"{DOMAIN}.{entry.entry_id}.state"] = {
        "version": 1,
        "minor_version": 1,
        "key": f"{DOMAIN}.{entry.entry_id}.state",
        "data": {
            "home": "tiny",
            "devices": {
                "1002": {"fan.state": "on", "fan.speed_level": "high"},
                "1003": {"target_temperature": 99.0},
                "9999": {"state": "on"},
            },
        },
    }
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    engine = entry.runtime_data.engine
    assert (
        engine.status("1002")["fan.speed_level"] == "high"
        and engine.status("1002")["fan.state"] == "on"
    )
    assert engine.value("1003", "target_temperature") == 24.0  # invalid stored value dropped


async def test_state_of_another_home_is_ignored(
    hass: HomeAssistant, hass_storage: dict[str, Any], tiny_home_file: str
) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={
            "source": "file",
            "file": tiny_home_file,
            "level": "simple",
            "seed": 0,
            "time_scale": 1.0,
        },
    )
    hass_storage[f"{DOMAIN}.{entry.entry_id}.state"] = {
        "version": 1,
        "minor_version": 1,
        "key": f"{DOMAIN}.{entry.entry_id}.state",
        "data": {"home": "other", "devices": {"1001": {"state": "on"}}},
    }
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.runtime_data.engine.value("1001", "state") == "off"
