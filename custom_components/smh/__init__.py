"""SMH: mirror a HomeEnv simulated home into Home Assistant.

Each config entry holds one engine. Rooms become areas on floors, devices become device
entries, devices (or their components) become rich entities where HA has a platform for what
they are (a light, a climate, a fan ... see :mod:`.rich`), and every attribute no rich entity
covers becomes one generic entity (see :mod:`.mirrors`), all pushed on every engine change.
Two services with responses: ``smh.execute`` (a validated HomeEnv service call) and
``smh.snapshot`` (the canonical state); the benchmark's services are in :mod:`.bench_services`
and ``smh.create_automation`` in :mod:`.automation`. With a model set in the options, the entry
also offers SMH's agent to Assist (see :mod:`.conversation`).

Who may call what
-----------------
HA's users are admins, users, or read-only users (and a call without a user, from an
automation or script, is trusted like HA's own admin services trust it). The services that
replace the home, fast-forward it or write configuration are admin services
(:func:`homeassistant.helpers.service.async_register_admin_service`: a non-admin's call raises
:class:`~homeassistant.exceptions.Unauthorized`, HTTP 401 over the REST API); the others act as
the home's entities would, under HA's entity permissions:

=====================  ========  ===========================================================
service                who       why
=====================  ========  ===========================================================
smh.execute            user      one device call through the engine's validation, like a call
                                 on that device's entity: the caller needs HA's ``control``
                                 permission on every entity the call may change (read-only
                                 users may not), and the state changes carry its context
smh.snapshot           user      reads the whole home (the caller needs read access to all
                                 entities, as every HA user but a restricted one has)
smh.verify             user      scores the loaded task from snapshots; reads, changes nothing
smh.load_task          admin     replaces every device's state with the task's, bypassing the
                                 devices' services and preconditions (the simulator's hand)
smh.restore_state      admin     puts back the device values an smh.snapshot returned (checked
                                 first: one bad value changes nothing), as the simulator's hand
smh.advance_time       admin     fast-forwards simulated time up to 31 days: every schedule,
                                 automation and appliance programme due meanwhile runs (in
                                 the executor, an hour at a time: HA stays responsive)
smh.create_automation  admin     writes ``automations.yaml``, reloads HA's automations and spends
                                 the entry's model; the automation then runs with nobody's
                                 permissions (e.g. unlocking the front door every night)
=====================  ========  ===========================================================

The whole simulation survives a restart (device values, room climates, the clock, rules,
schedules and running programmes: :mod:`.persistence`), and so does a running
``smh.advance_time`` (its target is stored first; the rest runs after the restart: :mod:`.clock`). The engine has one owner at a time: a
slice of ``smh.advance_time`` runs in the executor holding the entry's lock, and the services
here take that lock before they touch the engine (see :mod:`.clock`).

Every refusal of the engine, the simulator or the task checks is a :class:`.refusal.Refusal`
(a ``ServiceValidationError`` that is also a ``vol.Invalid``) with a translation key of
``strings.json`` and the engine's message: HA's REST API answers it with HTTP 400 on every
supported version (a plain ``ServiceValidationError`` is a 500 with a traceback on 2026.2), the
websocket API and the UI show its message.
"""

from __future__ import annotations

from . import vendor  # noqa: F401  # first: puts the HACS zip's bundled smh_core on sys.path

# isort: split

from collections.abc import Awaitable, Callable
from typing import Any

import voluptuous as vol
from homeassistant.core import (
    HassJob,
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
)
from homeassistant.exceptions import (
    ConfigEntryError,
)
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.importlib import async_import_module
from homeassistant.helpers.service import async_register_admin_service
from homeassistant.helpers.typing import ConfigType
from homeassistant.setup import async_when_setup

from smh_core.homeenv.engine import HomeEngine
from smh_core.sim.simulator import SimulationError

from .clock import SimClock, async_resume_jump
from .const import (
    CONF_AGENT,
    CONF_MODEL,
    CONF_RESUME_ADVANCE,
    CONF_TIME_SCALE,
    DEFAULT_RESUME_ADVANCE,
    DEFAULT_TIME_SCALE,
    DOMAIN,
    PLATFORMS,  # noqa: F401  (HA convention: the package names its platforms)
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
from .home_source import HomeSourceError, build_home, entry_home_key
from .persistence import StatePersistence
from .refusal import refusal
from .registry import area_prefix, link_room_sensors, mirror_layout, prune_entities, readable_model
from .runtime import SmhConfigEntry, SmhRuntime

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)

ATTR_ENTRY = "config_entry_id"

EXECUTE_SCHEMA = vol.Schema(
    {
        vol.Optional(ATTR_ENTRY): cv.string,
        vol.Required("did"): cv.string,
        vol.Required("locator"): cv.string,
        vol.Optional("arguments", default={}): dict,
    }
)
SNAPSHOT_SCHEMA = vol.Schema({vol.Optional(ATTR_ENTRY): cv.string})

# Services whose code is imported on their first call (module, admin only, responses): the
# benchmark's and the automation synthesizer's need the task model, the verifier and the LLM
# client, ~60 ms of imports no one who only lives in the home should wait for at start-up.
ON_FIRST_CALL: dict[str, tuple[str, bool, SupportsResponse]] = {
    SERVICE_LOAD_TASK: ("bench_services", True, SupportsResponse.OPTIONAL),
    SERVICE_RESTORE_STATE: ("bench_services", True, SupportsResponse.OPTIONAL),
    SERVICE_ADVANCE_TIME: ("bench_services", True, SupportsResponse.OPTIONAL),
    SERVICE_VERIFY: ("bench_services", False, SupportsResponse.ONLY),
    SERVICE_AGENT_TRACE: ("bench_services", False, SupportsResponse.ONLY),
    SERVICE_CREATE_AUTOMATION: ("automation", True, SupportsResponse.OPTIONAL),
    SERVICE_CALL_TOOLS: ("tool_calls", True, SupportsResponse.OPTIONAL),
}


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the domain services once; they act on a loaded entry."""

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

    def runtime(call: ServiceCall) -> SmhRuntime:
        return entry_for(call).runtime_data

    async def execute(call: ServiceCall) -> ServiceResponse:
        rt = runtime(call)
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
        rt = runtime(call)
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

    registrars: dict[str, Callable[[Any], None]] = {
        "bench_services": lambda module: module.register(hass, runtime),
        "automation": lambda module: module.register(hass, entry_for),
        "tool_calls": lambda module: module.register(hass),
    }

    def on_first_call(
        service: str, module_name: str
    ) -> Callable[[ServiceCall], Awaitable[ServiceResponse]]:
        async def first_call(call: ServiceCall) -> ServiceResponse:
            """Import the service's module (in the executor), let it register its services
            over these placeholders, and pass the call on to the real one: its schema, admin
            check and response apply as if it had been there from the start."""
            module = await async_import_module(hass, f"{__package__}.{module_name}")
            registrars[module_name](module)
            return await hass.services.async_call(
                DOMAIN,
                service,
                dict(call.data),
                blocking=True,
                context=call.context,
                return_response=call.return_response,
            )

        return first_call

    anything = vol.Schema({}, extra=vol.ALLOW_EXTRA)  # the real service's schema checks the data
    for service, (module_name, admin, responses) in ON_FIRST_CALL.items():
        placeholder = on_first_call(service, module_name)
        if admin:  # a non-admin is refused before anything is imported
            async_register_admin_service(
                hass, DOMAIN, service, placeholder, schema=anything, supports_response=responses
            )
        else:
            hass.services.async_register(
                DOMAIN, service, placeholder, schema=anything, supports_response=responses
            )

    async def offer_llm_api(hass: HomeAssistant, _component: str) -> None:
        """SMH's tools as an LLM API, once HA's conversation integration is there: every user
        of an LLM API (the conversation agents, the MCP server, AI tasks) depends on it, and it
        has imported HA's LLM helpers already. The guard's policy and consent grammar are read
        first, in the executor (their files would otherwise be read on the event loop by the
        first tool call)."""
        from smh_core.agent.safety import load_policy

        await hass.async_add_executor_job(load_policy)
        (await async_import_module(hass, f"{__package__}.llm_api")).register(hass)

    async_when_setup(hass, "conversation", offer_llm_api)
    hass.services.async_register(
        DOMAIN,
        SERVICE_EXECUTE,
        execute,
        schema=EXECUTE_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
    hass.services.async_register(
        DOMAIN,
        SERVICE_SNAPSHOT,
        snapshot,
        schema=SNAPSHOT_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
    return True


async def async_setup_entry(hass: HomeAssistant, entry: SmhConfigEntry) -> bool:
    data = {**entry.data, **entry.options}
    try:
        home = await hass.async_add_executor_job(build_home, hass.config.config_dir, data)
    except HomeSourceError as err:
        raise ConfigEntryError(err.detail) from err
    persistence = StatePersistence(hass, entry.entry_id)
    home = await persistence.async_load(home)  # with the stored schedules, if any
    engine = HomeEngine(home)
    initial = engine.snapshot()
    persistence.restore_values(engine)  # before the simulator: programmes resume from them
    runtime = SmhRuntime(
        engine,
        home_key=entry_home_key(data),
        entry_id=entry.entry_id,
        initial=initial,
        agent=bool(data.get(CONF_AGENT, {}).get(CONF_MODEL, "").strip()),
        loop_thread=hass.loop_thread_id,
        area_prefix=area_prefix(entry),
    )
    entry.runtime_data = runtime
    clock = SimClock(
        hass,
        engine,
        data.get(CONF_TIME_SCALE, DEFAULT_TIME_SCALE),
        now=persistence.stored_now,
        lock=runtime.lock,
        entry_id=entry.entry_id,
        on_jump=persistence.async_save_now,
        resume=bool(data.get(CONF_RESUME_ADVANCE, DEFAULT_RESUME_ADVANCE)),
    )
    persistence.restore_rules(clock.sim)
    runtime.clock = clock
    clock.add_listener(runtime.flush_held)
    persistence.start(engine, clock)
    entry.async_on_unload(lambda: _async_stop(clock, persistence))
    area_of = mirror_layout(hass, entry, runtime.engine)
    prune_entities(hass, entry, runtime.unique_ids(entry.entry_id))
    await hass.config_entries.async_forward_entry_setups(entry, runtime.platforms)
    link_room_sensors(hass, entry, runtime.engine, area_of)  # the sensors have states now
    clock.start()
    entry.async_on_unload(hass.async_add_shutdown_job(HassJob(_async_shutdown), clock, persistence))
    async_resume_jump(hass, entry, clock, persistence.stored_jump)
    entry.async_on_unload(entry.add_update_listener(_reload_on_update))
    entry.async_on_unload(runtime.close)
    return True


async def _async_stop(clock: SimClock, persistence: StatePersistence) -> None:
    """Unload: stop simulated time (after a running slice), then write the final state."""
    await clock.async_stop()
    await persistence.async_stop()


async def _async_shutdown(clock: SimClock, persistence: StatePersistence) -> None:
    """HA stops: a running smh.advance_time ends after its slice and answers, then the state
    (with the jump's target, for the restart) is written."""
    await clock.async_shutdown()
    await persistence.async_save_now()


async def _reload_on_update(hass: HomeAssistant, entry: SmhConfigEntry) -> None:
    await hass.config_entries.async_reload(entry.entry_id)


async def async_unload_entry(hass: HomeAssistant, entry: SmhConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, entry.runtime_data.platforms)
