"""SMH: mirror a HomeEnv simulated home into Home Assistant.

Each config entry holds one engine. Rooms become areas on floors, devices become device
entries, devices (or their components) become rich entities where HA has a platform for what
they are (a light, a climate, a fan ... see :mod:`.rich`), and every attribute no rich entity
covers becomes one generic entity (see :mod:`.mirrors`), all pushed on every engine change.
Two services with responses: ``smh.execute`` (a validated HomeEnv service call) and
``smh.snapshot`` (the canonical state); the benchmark's services are in :mod:`.bench_services`
and ``smh.create_automation`` in :mod:`.automation`, and every service is registered from one
table in :mod:`.services`. With a model set in the options, the entry
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

from homeassistant.core import HassJob, HomeAssistant
from homeassistant.exceptions import ConfigEntryError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.importlib import async_import_module
from homeassistant.helpers.typing import ConfigType
from homeassistant.setup import async_when_setup

from smh_core.homeenv.engine import HomeEngine

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
)
from .home_source import HomeSourceError, build_home, entry_home_key
from .persistence import StatePersistence
from .registry import (
    apply_entity_settings,
    area_prefix,
    link_room_sensors,
    mirror_layout,
    prune_entities,
)
from .runtime import SmhConfigEntry, SmhRuntime
from .services import async_register_services

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the domain services once (:mod:`.services`); they act on a loaded entry."""
    async_register_services(hass)

    async def offer_llm_api(hass: HomeAssistant, _component: str) -> None:
        """SMH's tools as an LLM API, once HA's conversation integration is there: every user
        of an LLM API (the conversation agents, the MCP server, AI tasks) depends on it, and it
        has imported HA's LLM helpers already. Offered by name only: the tools, the consent
        grammar and the guard's policy are loaded by the first agent that uses it
        (:mod:`.llm_api_offer`)."""
        (await async_import_module(hass, f"{__package__}.llm_api_offer")).offer(hass)

    async_when_setup(hass, "conversation", offer_llm_api)
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
    apply_entity_settings(hass, entry, runtime.engine, runtime.entity_plan())
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
