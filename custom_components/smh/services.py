"""Every ``smh.*`` service, registered in one place from one table.

Who may call each service and why is the table in :mod:`custom_components.smh`'s docstring;
:data:`SERVICES` is that table as code: each service's name, the module that makes its handler
and holds its schema, whether it is an admin service, and what it answers. :func:`_register` is
the only call to HA's ``async_register``/``async_register_admin_service`` in the integration, so a
service's admin flag cannot differ between its placeholder and its real registration, nor between
two modules that both think they own it.

Two services are always there (``smh.execute`` and ``smh.snapshot``, made here). The others'
code is imported on their first call: the benchmark's and the automation synthesizer's need the
task model, the verifier and the LLM client, ~60 ms of imports no one who only lives in the home
should wait for at start-up. Until then a placeholder stands in with the real service's admin
check and response mode (a non-admin is refused before anything is imported); its first call
imports the module (in the executor), registers every service of that module over the
placeholders and passes the call on, so the real schema applies as if it had been there from the
start. A module names its schemas in ``SCHEMAS`` and makes its handlers with
``handlers(hass, entry_for)``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.importlib import async_import_module
from homeassistant.helpers.service import async_register_admin_service

from smh_core.sim.simulator import SimulationError

from .const import (
    DOMAIN,
    SERVICE_ADVANCE_TIME,
    SERVICE_AGENT_TRACE,
    SERVICE_CALL_TOOLS,
    SERVICE_CREATE_AUTOMATION,
    SERVICE_EXECUTE,
    SERVICE_LOAD_TASK,
    SERVICE_RESTORE_STATE,
    SERVICE_SNAPSHOT,
    SERVICE_VERIFY,
)
from .refusal import refusal
from .registry import readable_model
from .runtime import SmhConfigEntry

ATTR_ENTRY = "config_entry_id"

type Handler = Callable[[ServiceCall], Awaitable[ServiceResponse]]
type EntryFor = Callable[[ServiceCall], SmhConfigEntry]

OWN = "services"
"""The module name of the services made here (never imported lazily)."""


@dataclass(frozen=True)
class ServiceSpec:
    """One ``smh.*`` service: where its handler and schema are, who may call it, its answer."""

    name: str
    module: str
    """``services`` (this module) or the sibling module imported on the first call."""
    admin: bool
    """An admin service (:func:`~homeassistant.helpers.service.async_register_admin_service`:
    a non-admin's call raises ``Unauthorized``); see the table in the package's docstring."""
    responses: SupportsResponse


SERVICES: tuple[ServiceSpec, ...] = (
    ServiceSpec(SERVICE_EXECUTE, OWN, False, SupportsResponse.OPTIONAL),
    ServiceSpec(SERVICE_SNAPSHOT, OWN, False, SupportsResponse.ONLY),
    ServiceSpec(SERVICE_LOAD_TASK, "bench_services", True, SupportsResponse.OPTIONAL),
    ServiceSpec(SERVICE_RESTORE_STATE, "bench_services", True, SupportsResponse.OPTIONAL),
    ServiceSpec(SERVICE_ADVANCE_TIME, "bench_services", True, SupportsResponse.OPTIONAL),
    ServiceSpec(SERVICE_VERIFY, "bench_services", False, SupportsResponse.ONLY),
    ServiceSpec(SERVICE_AGENT_TRACE, "bench_services", False, SupportsResponse.ONLY),
    ServiceSpec(SERVICE_CREATE_AUTOMATION, "automation", True, SupportsResponse.OPTIONAL),
    ServiceSpec(SERVICE_CALL_TOOLS, "tool_calls", True, SupportsResponse.OPTIONAL),
)
"""Every service of the integration, once."""

EXECUTE_SCHEMA = vol.Schema(
    {
        vol.Optional(ATTR_ENTRY): cv.string,
        vol.Required("did"): cv.string,
        vol.Required("locator"): cv.string,
        vol.Optional("arguments", default={}): dict,
    }
)
SNAPSHOT_SCHEMA = vol.Schema({vol.Optional(ATTR_ENTRY): cv.string})
SCHEMAS: Mapping[str, vol.Schema] = {
    SERVICE_EXECUTE: EXECUTE_SCHEMA,
    SERVICE_SNAPSHOT: SNAPSHOT_SCHEMA,
}
_ANYTHING = vol.Schema({}, extra=vol.ALLOW_EXTRA)
"""A placeholder's schema: the real service's schema checks the data it passes on."""


def _register(hass: HomeAssistant, spec: ServiceSpec, handler: Handler, schema: vol.Schema) -> None:
    """The one registration: admin or not as :data:`SERVICES` says."""
    if spec.admin:
        async_register_admin_service(
            hass, DOMAIN, spec.name, handler, schema=schema, supports_response=spec.responses
        )
    else:
        hass.services.async_register(
            DOMAIN, spec.name, handler, schema=schema, supports_response=spec.responses
        )


def _register_module(
    hass: HomeAssistant, name: str, handlers: Mapping[str, Handler], schemas: Mapping[str, Any]
) -> None:
    """Every service of one module, with its real handler and schema."""
    for spec in SERVICES:
        if spec.module == name:
            _register(hass, spec, handlers[spec.name], schemas[spec.name])


def handlers(hass: HomeAssistant, entry_for: EntryFor) -> dict[str, Handler]:
    """``smh.execute`` and ``smh.snapshot``."""

    async def execute(call: ServiceCall) -> ServiceResponse:
        rt = entry_for(call).runtime_data
        try:
            result = await rt.async_execute(
                hass, call.data["did"], call.data["locator"], call.data["arguments"], call.context
            )
        except SimulationError as err:
            raise refusal("simulation_error", message=str(err)) from err
        if not result.ok:
            assert result.error is not None
            raise refusal("engine_error", message=str(result.error))
        return {"changes": [c.to_dict() for c in result.changes]}

    async def snapshot(call: ServiceCall) -> ServiceResponse:
        rt = entry_for(call).runtime_data
        await rt.async_check_read_all(hass, call.context)
        async with rt.lock:  # a consistent state, not one half-way through a slice
            state: dict[str, Any] = rt.engine.snapshot().to_dict()
        rooms = {r.id: r.name for r in rt.engine.home.rooms}
        about = {}  # who each id is, so the snapshot reads without the home file beside it
        for did in state:
            if did.startswith("@"):
                about[did] = {
                    "name": f"{rooms.get(did[1:], did[1:])} climate",
                    "room": did[1:],
                    "room_name": rooms.get(did[1:], did[1:]),
                    "model": "Simulated room",
                }
                continue
            dev = rt.engine.device(did)
            about[did] = {
                "name": dev.name,
                "room": dev.userdata.room,
                "room_name": rooms.get(dev.userdata.room, dev.userdata.room),
                "model": readable_model(dev.userdata.subcategory),
            }
        return {
            "home": rt.engine.home.name,
            "home_key": rt.home_key,
            "devices": state,
            "device_info": about,
        }

    return {SERVICE_EXECUTE: execute, SERVICE_SNAPSHOT: snapshot}


def async_register_services(hass: HomeAssistant) -> None:
    """Register every service of :data:`SERVICES` once: the real ones made here, a placeholder
    for each of the others (see the module's docstring)."""

    def entry_for(call: ServiceCall) -> SmhConfigEntry:
        entry_id = call.data.get(ATTR_ENTRY)
        entries = [
            e
            for e in hass.config_entries.async_loaded_entries(DOMAIN)
            if entry_id is None or e.entry_id == entry_id
        ]
        if not entries:
            raise refusal("no_home", entry=str(entry_id))
        if len(entries) > 1:
            raise refusal("which_home")
        return entries[0]

    def on_first_call(spec: ServiceSpec) -> Handler:
        async def first_call(call: ServiceCall) -> ServiceResponse:
            """Import the service's module (in the executor), register its services over these
            placeholders, and pass the call on to the real one: its schema, admin check and
            response apply as if it had been there from the start."""
            module: ModuleType = await async_import_module(hass, f"{__package__}.{spec.module}")
            _register_module(hass, spec.module, module.handlers(hass, entry_for), module.SCHEMAS)
            return await hass.services.async_call(
                DOMAIN,
                spec.name,
                dict(call.data),
                blocking=True,
                context=call.context,
                return_response=call.return_response,
            )

        return first_call

    for spec in SERVICES:
        if spec.module != OWN:  # a non-admin is refused before anything is imported
            _register(hass, spec, on_first_call(spec), _ANYTHING)
    _register_module(hass, OWN, handlers(hass, entry_for), SCHEMAS)
