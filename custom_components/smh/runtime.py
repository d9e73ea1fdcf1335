"""An entry's runtime object (``entry.runtime_data``): its engine, clock, loaded task, agent
traces and the fan-out of engine changes to entities, plus the permission checks every service
that acts as the home's entities goes through.

Its own module (not the package ``__init__``) so the platforms, the conversation agent and the
LLM API can import the type they are handed without importing the integration's set-up.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from homeassistant.auth.permissions.const import POLICY_CONTROL, POLICY_READ
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import Unauthorized, UnknownUser
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.entity_platform import async_get_platforms

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import Change, ExecResult
from smh_core.homeenv.snapshot import Snapshot

from .clock import SimClock
from .const import DOMAIN, PLATFORMS
from .entity_plan import plan
from .mirrors import Mirror, unique_id
from .rich import Rich
from .room import ROOM_VARIABLES, room_did

if TYPE_CHECKING:
    from smh_core.agent.safety import ActionGuard
    from smh_core.ha.automation_export import SmhEntityMap
    from smh_core.task.model import Task

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
    task: Task | None = None  # the task loaded by smh.load_task
    task_before: Snapshot | None = None
    task_plans: frozenset[str] = frozenset()
    """The home's schedules (with their status) and rules when the task was loaded: a turn that
    changed them did something beside its device changes (read by ``smh.verify``'s claim check)."""
    clock: SimClock | None = None  # simulated time (physics, appliances, schedules, rules)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by whoever changes the engine across an await: a slice of smh.advance_time running
    in the executor, and the services here around their engine calls (they wait for a slice)."""
    loop_thread: int | None = None  # HA's event loop thread: entity state is written only there
    area_prefix: str = (
        ""  # the entry's namespace ("Home 2"): also before the entity ids a home file asks for
    )
    agent_traces: OrderedDict[str, list[dict[str, Any]]] = field(default_factory=OrderedDict)
    """SMH's conversation agent's turns per conversation id (usage, tool calls, questions,
    seconds), the last :data:`TRACES_KEPT` conversations, for ``smh.agent_trace``."""
    awaiting_confirmation: OrderedDict[str, ActionGuard] = field(default_factory=OrderedDict)
    """Per conversation id, the action guard whose question (confirm these high-risk calls)
    the agent's last reply asked, until that conversation's next turn, which alone can answer
    it; the last :data:`TRACES_KEPT` conversations (one nobody continued is forgotten, so a
    client opening conversations cannot grow it). ``smh.agent_trace`` lists its pending calls
    so the benchmark's simulated user answers the guard as it does on the simulator."""

    def keep_awaiting(self, conversation_id: str, guard: ActionGuard) -> None:
        """Remember ``guard`` as the one asking in ``conversation_id`` (bounded)."""
        waiting = self.awaiting_confirmation
        waiting.pop(conversation_id, None)
        waiting[conversation_id] = guard
        while len(waiting) > TRACES_KEPT:
            waiting.popitem(last=False)

    _mirrors: list[Mirror] = field(default_factory=list)
    _riches: list[Rich] = field(default_factory=list)
    # (did, locator) -> callbacks; each tuple is replaced, never mutated, so a change's
    # fan-out walks the one it started with, without a copy
    _subscribers: dict[tuple[str, str], tuple[Callable[[], None], ...]] = field(
        default_factory=dict
    )
    _held: dict[tuple[str, str], None] = field(
        default_factory=dict
    )  # changed off the loop, not yet pushed

    def plans(self) -> frozenset[str]:
        """The home's schedules (id and status) and rules (id) now."""
        if self.clock is None:
            return frozenset()
        sim = self.clock.sim
        return frozenset(
            [f"schedule:{s.id}:{s.status}" for s in sim.schedules(include_done=True)]
            + [f"rule:{r.id}" for r in sim.rules()]
        )

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
        ids |= {
            (Platform.SENSOR, unique_id(entry_id, room_did(room), variable))
            for room in self.engine.simulated_rooms()
            for variable in ROOM_VARIABLES
        }
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

    def subscribe(
        self, did: str, locators: Iterable[str], callback: Callable[[], None]
    ) -> Callable[[], None]:
        keys = [(did, loc) for loc in locators]
        subscribers = self._subscribers
        for key in keys:
            subscribers[key] = (*subscribers.get(key, ()), callback)

        def unsubscribe() -> None:
            for key in keys:
                subs = list(subscribers[key])
                subs.remove(callback)  # ValueError if already removed, as before
                subscribers[key] = tuple(subs)

        return unsubscribe

    def _on_changes(self, changes: list[Change]) -> None:
        if self.loop_thread is not None and threading.get_ident() != self.loop_thread:
            # a slice of smh.advance_time in the executor: HA state is written on the loop only,
            # so note what changed; flush_held pushes it after the slice, once per entity
            self._held.update(dict.fromkeys((c.did, c.locator) for c in changes))
            return
        if len(changes) == 1:
            c = changes[0]
            for callback in self._subscribers.get((c.did, c.locator), ()):
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

    def entity_map(self, hass: HomeAssistant) -> SmhEntityMap:
        """Where HA shows each ``did/locator`` of this entry's home, from the entity registry."""
        from smh_core.ha.automation_export import EntityRef, SmhEntityMap  # for an export only

        registry = er.async_get(hass)
        entities: dict[tuple[str, str], str | EntityRef] = {}
        riches, mirrors = self.entity_plan()
        for m in mirrors:
            entity_id = registry.async_get_entity_id(
                m.platform, DOMAIN, unique_id(self.entry_id, m.did, m.key)
            )
            if (
                entity_id is not None
            ):  # a converted value (Matter °C, a label) is read raw, from homeenv
                entities[(m.did, m.locator)] = (
                    EntityRef(entity_id, "homeenv", m.locator)
                    if m.converted
                    else EntityRef(entity_id)
                )
        for r in riches:
            entity_id = registry.async_get_entity_id(
                r.platform, DOMAIN, unique_id(self.entry_id, r.did, r.key)
            )
            if entity_id is not None:
                for locator in r.locators:
                    entities[(r.did, locator)] = EntityRef(entity_id, "homeenv", locator)
        for room in self.engine.simulated_rooms():
            for variable in ROOM_VARIABLES:
                did = room_did(room)
                entity_id = registry.async_get_entity_id(
                    "sensor", DOMAIN, unique_id(self.entry_id, did, variable)
                )
                if entity_id is not None:
                    entities[(did, variable)] = EntityRef(entity_id)
        return SmhEntityMap(entities, config_entry_id=self.entry_id)

    def entity_ids(self, hass: HomeAssistant) -> dict[tuple[str, str], str]:
        """``(did, locator) -> entity id`` of the entity showing each attribute (registry)."""
        entities = self.entity_map(hass).entities
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

    async def async_check_control(
        self, hass: HomeAssistant, did: str, locator: str, context: Context | None
    ) -> set[str]:
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
                    if entity_id is None or not user.permissions.check_entity(
                        entity_id, POLICY_CONTROL
                    ):
                        raise Unauthorized(
                            context=context, entity_id=entity_id, permission=POLICY_CONTROL
                        )
        return {entity_id for entity_id in targets if entity_id is not None}

    async def async_execute(
        self,
        hass: HomeAssistant,
        did: str,
        locator: str,
        arguments: dict[str, Any],
        context: Context | None,
    ) -> ExecResult:
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
