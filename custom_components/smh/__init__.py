"""SMH: mirror a HomeEnv simulated home into Home Assistant.

This first increment holds the home's engine per config entry and offers two services with
responses: ``smh.execute`` (a validated HomeEnv service call; engine errors surface as
``ServiceValidationError`` with the engine's message) and ``smh.snapshot`` (the canonical state).
Entities, areas and the conversation agent build on this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import voluptuous as vol
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.exceptions import ConfigEntryError, ServiceValidationError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.typing import ConfigType

from smh_core.homeenv.engine import HomeEngine

from .const import DOMAIN, SERVICE_EXECUTE, SERVICE_SNAPSHOT
from .home_source import HomeSourceError, build_home

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)

ATTR_ENTRY = "config_entry_id"

EXECUTE_SCHEMA = vol.Schema({
    vol.Optional(ATTR_ENTRY): cv.string,
    vol.Required("did"): cv.string,
    vol.Required("locator"): cv.string,
    vol.Optional("arguments", default={}): dict,
})
SNAPSHOT_SCHEMA = vol.Schema({vol.Optional(ATTR_ENTRY): cv.string})


@dataclass
class SmhRuntime:
    engine: HomeEngine


type SmhConfigEntry = ConfigEntry[SmhRuntime]


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the domain services once; they act on a loaded entry."""

    def runtime(call: ServiceCall) -> SmhRuntime:
        entry_id = call.data.get(ATTR_ENTRY)
        entries = [e for e in hass.config_entries.async_loaded_entries(DOMAIN)
                   if entry_id is None or e.entry_id == entry_id]
        if not entries:
            raise ServiceValidationError(translation_domain=DOMAIN, translation_key="no_home",
                                         translation_placeholders={"entry": str(entry_id)})
        if len(entries) > 1:
            raise ServiceValidationError(translation_domain=DOMAIN, translation_key="which_home")
        return entries[0].runtime_data

    async def execute(call: ServiceCall) -> ServiceResponse:
        engine = runtime(call).engine
        result = engine.execute(call.data["did"], call.data["locator"], call.data["arguments"])
        if not result.ok:
            assert result.error is not None
            raise ServiceValidationError(translation_domain=DOMAIN, translation_key="engine_error",
                                         translation_placeholders={"message": str(result.error)})
        return {"changes": [c.to_dict() for c in result.changes]}

    async def snapshot(call: ServiceCall) -> ServiceResponse:
        engine = runtime(call).engine
        home = engine.to_home()
        state: dict[str, Any] = engine.snapshot().to_dict()
        return {"home": home.name, "devices": state}

    hass.services.async_register(DOMAIN, SERVICE_EXECUTE, execute, schema=EXECUTE_SCHEMA,
                                 supports_response=SupportsResponse.OPTIONAL)
    hass.services.async_register(DOMAIN, SERVICE_SNAPSHOT, snapshot, schema=SNAPSHOT_SCHEMA,
                                 supports_response=SupportsResponse.ONLY)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: SmhConfigEntry) -> bool:
    data = {**entry.data, **entry.options}
    try:
        home = await hass.async_add_executor_job(build_home, hass.config.config_dir, data)
    except HomeSourceError as err:
        raise ConfigEntryError(err.detail) from err
    entry.runtime_data = SmhRuntime(HomeEngine(home))
    entry.async_on_unload(entry.add_update_listener(_reload_on_update))
    return True


async def _reload_on_update(hass: HomeAssistant, entry: SmhConfigEntry) -> None:
    await hass.config_entries.async_reload(entry.entry_id)


async def async_unload_entry(hass: HomeAssistant, entry: SmhConfigEntry) -> bool:
    return True
