"""SMH: mirror a HomeEnv simulated home into Home Assistant.

Each config entry holds one engine. Rooms become areas on floors, devices become device
entries, devices (or their components) become rich entities where HA has a platform for what
they are (a light, a climate, a fan ... see :mod:`.rich`), and every attribute no rich entity
covers becomes one generic entity (see :mod:`.mapping`), all pushed on every engine change.
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
schedules and running programmes: :mod:`.persistence`). The engine has one owner at a time: a
slice of ``smh.advance_time`` runs in the executor holding the entry's lock, and the services
here take that lock before they touch the engine (see :mod:`.clock`).

Every refusal of the engine, the simulator or the task checks is a ``ServiceValidationError``
with a translation key of ``strings.json`` and the engine's message (the websocket API and the
UI show it; HA's REST API answers every ``ServiceValidationError`` with a bare HTTP 500, a
limitation of HA's ``api`` integration, not of this one).
"""

from __future__ import annotations

from . import vendor  # noqa: F401  # first: puts the HACS zip's bundled smh_core on sys.path

# isort: split

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import voluptuous as vol
from homeassistant.auth.permissions.const import POLICY_CONTROL, POLICY_READ
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import (
    Context,
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
)
from homeassistant.exceptions import (
    ConfigEntryError,
    ServiceValidationError,
    Unauthorized,
    UnknownUser,
)
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.entity_platform import async_get_platforms
from homeassistant.helpers.typing import ConfigType

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import Change, ExecResult
from smh_core.homeenv.snapshot import Snapshot
from smh_core.sim.simulator import SimulationError

from . import automation, bench_services, llm_api
from .clock import SimClock
from .const import (
    CONF_AGENT,
    CONF_MODEL,
    CONF_TIME_SCALE,
    DEFAULT_TIME_SCALE,
    DOMAIN,
    SERVICE_EXECUTE,
    SERVICE_SNAPSHOT,
)
from .home_source import HomeSourceError, build_home, entry_home_key
from .mapping import Mirror, plan, unique_id
from .persistence import StatePersistence
from .registry import mirror_layout, prune_entities, readable_model
from .rich import Rich
from .room import ROOM_VARIABLES, room_did

PLATFORMS = [Platform.BINARY_SENSOR, Platform.BUTTON, Platform.CLIMATE, Platform.CONVERSATION, Platform.COVER,
             Platform.FAN, Platform.HUMIDIFIER, Platform.LIGHT, Platform.LOCK,
             Platform.MEDIA_PLAYER, Platform.NUMBER, Platform.SELECT, Platform.SENSOR,
             Platform.SWITCH, Platform.TEXT, Platform.VACUUM, Platform.WATER_HEATER]

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)

ATTR_ENTRY = "config_entry_id"

EXECUTE_SCHEMA = vol.Schema({
    vol.Optional(ATTR_ENTRY): cv.string,
    vol.Required("did"): cv.string,
    vol.Required("locator"): cv.string,
    vol.Optional("arguments", default={}): dict,
})
SNAPSHOT_SCHEMA = vol.Schema({vol.Optional(ATTR_ENTRY): cv.string})


TRACES_KEPT = 200


def agent_unique_id(entry_id: str) -> str:
    """The unique id of the entry's conversation agent entity."""
    return f"{entry_id}_agent"


@dataclass
class SmhRuntime:
    """The entry's engine plus a (did, locator) -> callbacks fan-out of engine changes."""

    engine: HomeEngine
    home_key: str = ""
    entry_id: str = ""
    agent: bool = False  # a model is configured: the entry offers a conversation agent
    initial: Snapshot | None = None  # the home's own initial state, before any restore
    task: Any = None  # the task loaded by smh.load_task
    task_before: Snapshot | None = None
    clock: SimClock | None = None  # simulated time (physics, appliances, schedules, rules)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by whoever changes the engine across an await: a slice of smh.advance_time running
    in the executor, and the services here around their engine calls (they wait for a slice)."""
    loop_thread: int | None = None  # HA's event loop thread: entity state is written only there
    agent_traces: OrderedDict[str, list[dict[str, Any]]] = field(default_factory=OrderedDict)
    """SMH's conversation agent's turns per conversation id (usage, tool calls, questions,
    seconds), the last :data:`TRACES_KEPT` conversations, for ``smh.agent_trace``."""
    _mirrors: list[Mirror] = field(default_factory=list)
    _riches: list[Rich] = field(default_factory=list)
    _subscribers: dict[tuple[str, str], list[Callable[[], None]]] = field(default_factory=dict)
    _held: dict[tuple[str, str], None] = field(default_factory=dict)  # changed off the loop, not yet pushed

    def __post_init__(self) -> None:
        for did in self.engine.device_ids():
            riches, mirrors = plan(self.engine.device(did))
            self._riches += riches
            self._mirrors += mirrors
        self._unlisten = self.engine.add_listener(self._on_changes)

    @property
    def platforms(self) -> list[Platform]:
        """The platforms this home has entities on (only those are set up)."""
        used = {m.platform for m in self._mirrors} | {r.platform for r in self._riches}
        if self.engine.simulated_rooms():
            used.add(Platform.SENSOR)  # the rooms' climate sensors
        if self.agent:
            used.add(Platform.CONVERSATION)
        return [p for p in PLATFORMS if p in used]

    def unique_ids(self, entry_id: str) -> set[tuple[str, str]]:
        """(domain, unique id) of every entity this home provides."""
        entities = (*self._mirrors, *self._riches)
        ids = {(x.platform, unique_id(entry_id, x.did, x.key)) for x in entities}
        ids |= {(Platform.SENSOR, unique_id(entry_id, room_did(room), variable))
                for room in self.engine.simulated_rooms() for variable in ROOM_VARIABLES}
        if self.agent:
            ids.add((Platform.CONVERSATION, agent_unique_id(entry_id)))
        return ids

    def entity_plan(self) -> tuple[list[Rich], list[Mirror]]:
        """Every rich entity and every generic one of this home."""
        return list(self._riches), list(self._mirrors)

    def mirrors(self, platform: str) -> list[Mirror]:
        return [m for m in self._mirrors if m.platform == platform]

    def riches(self, platform: str) -> list[Rich]:
        return [r for r in self._riches if r.platform == platform]

    def subscribe(self, did: str, locators: Iterable[str],
                  callback: Callable[[], None]) -> Callable[[], None]:
        lists = [self._subscribers.setdefault((did, loc), []) for loc in locators]
        for subs in lists:
            subs.append(callback)

        def unsubscribe() -> None:
            for subs in lists:
                subs.remove(callback)

        return unsubscribe

    def _on_changes(self, changes: list[Change]) -> None:
        if self.loop_thread is not None and threading.get_ident() != self.loop_thread:
            # a slice of smh.advance_time in the executor: HA state is written on the loop only,
            # so note what changed; flush_held pushes it after the slice, once per entity
            self._held.update(dict.fromkeys((c.did, c.locator) for c in changes))
            return
        if len(changes) == 1:
            c = changes[0]
            for callback in list(self._subscribers.get((c.did, c.locator), ())):
                callback()
            return
        # one state write per entity, even when a batch changes several of its attributes
        callbacks: dict[Callable[[], None], None] = {}
        for c in changes:
            callbacks.update(dict.fromkeys(self._subscribers.get((c.did, c.locator), ())))
        for callback in callbacks:
            callback()

    def flush_held(self) -> None:
        """Push what changed off the loop (on the loop, after a slice): one state write per
        entity still subscribed (an entity removed meanwhile is skipped)."""
        held, self._held = self._held, {}
        callbacks: dict[Callable[[], None], None] = {}
        for key in held:
            callbacks.update(dict.fromkeys(self._subscribers.get(key, ())))
        for callback in callbacks:
            callback()

    def close(self) -> None:
        self._unlisten()

    # ------------------------------------------------------------------ calls on behalf of a user
    def writes(self, did: str, locator: str) -> set[str]:
        """The attribute locators a call of ``locator`` on ``did`` may change.

        From the device model: a service's effects (all of them, conditional ones included), an
        attribute written directly itself, nothing for an unknown device or locator (the engine
        refuses those). A service with a named behaviour may set anything (behaviours are code),
        so it counts as writing every attribute of its device."""
        if did not in self.engine.device_ids():
            return set()
        device = self.engine.device(did)
        attributes = {loc for loc, _ in device.attributes_by_locator()}
        namespaces = [("", device.services), *((c.name, c.services) for c in device.components)]
        for ns, services in namespaces:
            for service in services:
                if _resolve(ns, service.name) != locator:
                    continue
                if service.behavior is not None:
                    return attributes
                return {_resolve(ns, effect.set) for effect in service.effects}
        return {locator} if locator in attributes else set()

    def entity_ids(self, hass: HomeAssistant) -> dict[tuple[str, str], str]:
        """``(did, locator) -> entity id`` of the entity showing each attribute (registry)."""
        entities = automation.entity_map(hass, self.entry_id, self).entities
        return {key: ref.entity_id for key, ref in entities.items()}

    @staticmethod
    async def async_check_read_all(hass: HomeAssistant, context: Context) -> None:
        """Refuse a whole-home read to a user who may not read every entity (HA's REST API
        hides such entities from that user; a dump of the home cannot)."""
        if not context.user_id:
            return
        user = await hass.auth.async_get_user(context.user_id)
        if user is None:
            raise UnknownUser(context=context, permission=POLICY_READ)
        if not user.permissions.access_all_entities(POLICY_READ):
            raise Unauthorized(context=context, permission=POLICY_READ)

    async def async_check_control(self, hass: HomeAssistant, did: str, locator: str,
                                  context: Context | None) -> set[str]:
        """Refuse (:class:`Unauthorized`) a call the context's user may not make on the entities
        it would change, as HA refuses an entity service; returns those entities' ids.

        A context without a user (automations, scripts, HA itself) may make any call."""
        writes = self.writes(did, locator)
        if not writes or context is None:
            return set()
        entity_ids = self.entity_ids(hass)
        targets = {entity_ids.get((did, loc)) for loc in writes}
        if context.user_id:
            user = await hass.auth.async_get_user(context.user_id)
            if user is None:
                raise UnknownUser(context=context, permission=POLICY_CONTROL)
            if not user.permissions.access_all_entities(POLICY_CONTROL):
                for entity_id in sorted(targets, key=str):
                    if entity_id is None or not user.permissions.check_entity(entity_id, POLICY_CONTROL):
                        raise Unauthorized(context=context, entity_id=entity_id, permission=POLICY_CONTROL)
        return {entity_id for entity_id in targets if entity_id is not None}

    async def async_execute(self, hass: HomeAssistant, did: str, locator: str, arguments: dict[str, Any],
                            context: Context | None) -> ExecResult:
        """One engine call made by ``context``'s user, as the device's entities would make it:
        checked against the user's entity permissions (:meth:`async_check_control`) and written
        to HA's state machine with ``context`` (HA's logbook names the user).

        Raises :class:`Unauthorized` or :class:`SimulationError` (the home's automations looped);
        an invalid call is an unsuccessful result and changes nothing."""
        targets = await self.async_check_control(hass, did, locator, context)
        if context is not None and targets:
            for platform in async_get_platforms(hass, DOMAIN):
                if platform.config_entry is None or platform.config_entry.entry_id != self.entry_id:
                    continue
                for entity_id in targets & platform.entities.keys():
                    platform.entities[entity_id].async_set_context(context)
        async with self.lock:  # not in the middle of an smh.advance_time slice
            return self.engine.execute(did, locator, arguments)


def _resolve(ns: str, rel: str) -> str:
    """A locator relative to a component namespace (``/x`` is device-absolute), as the engine
    resolves a service's effects."""
    if rel.startswith("/"):
        return rel[1:]
    return f"{ns}.{rel}" if ns else rel


type SmhConfigEntry = ConfigEntry[SmhRuntime]


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the domain services once; they act on a loaded entry."""

    def entry_for(call: ServiceCall) -> SmhConfigEntry:
        entry_id = call.data.get(ATTR_ENTRY)
        entries = [e for e in hass.config_entries.async_loaded_entries(DOMAIN)
                   if entry_id is None or e.entry_id == entry_id]
        if not entries:
            raise ServiceValidationError(translation_domain=DOMAIN, translation_key="no_home",
                                         translation_placeholders={"entry": str(entry_id)})
        if len(entries) > 1:
            raise ServiceValidationError(translation_domain=DOMAIN, translation_key="which_home")
        return entries[0]

    def runtime(call: ServiceCall) -> SmhRuntime:
        return entry_for(call).runtime_data

    async def execute(call: ServiceCall) -> ServiceResponse:
        rt = runtime(call)
        try:
            result = await rt.async_execute(hass, call.data["did"], call.data["locator"],
                                            call.data["arguments"], call.context)
        except SimulationError as err:
            raise ServiceValidationError(translation_domain=DOMAIN, translation_key="simulation_error",
                                         translation_placeholders={"message": str(err)}) from err
        if not result.ok:
            assert result.error is not None
            raise ServiceValidationError(translation_domain=DOMAIN, translation_key="engine_error",
                                         translation_placeholders={"message": str(result.error)})
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
                about[did] = {"name": f"{rooms.get(did[1:], did[1:])} climate", "room": did[1:],
                              "room_name": rooms.get(did[1:], did[1:]), "model": "Simulated room"}
                continue
            dev = rt.engine.device(did)
            about[did] = {"name": dev.name, "room": dev.userdata.room,
                          "room_name": rooms.get(dev.userdata.room, dev.userdata.room),
                          "model": readable_model(dev.userdata.subcategory)}
        return {"home": rt.engine.home.name, "home_key": rt.home_key, "devices": state, "device_info": about}

    bench_services.register(hass, runtime)
    automation.register(hass, entry_for)
    llm_api.register(hass)
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
    persistence = StatePersistence(hass, entry.entry_id)
    home = await persistence.async_load(home)  # with the stored schedules, if any
    engine = HomeEngine(home)
    initial = engine.snapshot()
    persistence.restore_values(engine)  # before the simulator: programmes resume from them
    runtime = SmhRuntime(engine, home_key=entry_home_key(data), entry_id=entry.entry_id,
                         initial=initial, agent=bool(data.get(CONF_AGENT, {}).get(CONF_MODEL, "").strip()),
                         loop_thread=hass.loop_thread_id)
    entry.runtime_data = runtime
    clock = SimClock(hass, engine, data.get(CONF_TIME_SCALE, DEFAULT_TIME_SCALE),
                     now=persistence.stored_now, lock=runtime.lock)
    persistence.restore_rules(clock.sim)
    runtime.clock = clock
    clock.add_listener(runtime.flush_held)
    persistence.start(engine, clock)
    entry.async_on_unload(lambda: _async_stop(clock, persistence))
    mirror_layout(hass, entry, runtime.engine)
    prune_entities(hass, entry, runtime.unique_ids(entry.entry_id))
    await hass.config_entries.async_forward_entry_setups(entry, runtime.platforms)
    clock.start()
    entry.async_on_unload(entry.add_update_listener(_reload_on_update))
    entry.async_on_unload(runtime.close)
    return True


async def _async_stop(clock: SimClock, persistence: StatePersistence) -> None:
    """Unload: stop simulated time (after a running slice), then write the final state."""
    await clock.async_stop()
    await persistence.async_stop()


async def _reload_on_update(hass: HomeAssistant, entry: SmhConfigEntry) -> None:
    await hass.config_entries.async_reload(entry.entry_id)


async def async_unload_entry(hass: HomeAssistant, entry: SmhConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, entry.runtime_data.platforms)
