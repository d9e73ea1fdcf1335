"""The only door between an agent and a home.

Agents (EIA tool loop, DR, memory, synthesizer) talk to this protocol. The embedded simulator
implements it in :mod:`smh_core.backends.embedded`; the Home Assistant integration implements
it over HA entities. Agent code must never import the simulator itself, so the same agent is
scored the same way on both.

Every method returns JSON-friendly data; failures are returned as ``{"ok": False, "error":
{...}}`` with the exact invalid field and the allowed values, never raised, because the agent
hands them back to the model verbatim.
"""

from __future__ import annotations

import inspect
from collections.abc import Coroutine
from typing import Any, Protocol, runtime_checkable

NO_ROOM = "(no room)"
"""How prompts show a device whose summary has ``room: None`` (a device the home places in no
room): a visible word, so a model neither reads ``None`` as a room id nor guesses one."""


@runtime_checkable
class HomeBackend(Protocol):
    def list_rooms(self) -> list[dict[str, Any]]:
        """Rooms with id, name, type, floor and parent."""

    def list_devices(
        self, room: str | None = None, category: str | None = None, tags: list[str] | None = None
    ) -> list[dict[str, Any]]:
        """Device summaries (did, name, category, subcategory, room, tags); ``room`` is
        ``None`` for a device in no room, and a ``room`` filter never matches it."""

    def device_status(self, did: str) -> dict[str, Any]:
        """``{"ok": True, "did": ..., "status": {locator: value}}`` or an error."""

    def device_spec(self, did: str) -> dict[str, Any]:
        """Attributes with constraints and services with argument schemas, or an error."""

    def execute(self, did: str, locator: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Run one validated call: ``{"ok": True, "changes": [...]}`` or ``{"ok": False, "error": ...}``."""

    def room_environment(self, room: str) -> dict[str, Any]:
        """``{"ok": True, "environment": {temperature, humidity, illuminance, pm25, pm10,
        air_quality}}`` or an error."""

    def now(self) -> str:
        """Current (simulated or real) local time, ISO 8601."""

    def schedule(self, at: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Run service calls at a local time: ``{"ok": True, "schedule": {...}}`` or an error."""

    def cancel_schedule(self, schedule_id: str) -> dict[str, Any]:
        """Cancel a pending schedule."""

    def list_schedules(self) -> list[dict[str, Any]]:
        """Pending schedules."""

    def create_automation(self, rule: dict[str, Any]) -> dict[str, Any]:
        """Store a rule (triggers, conditions, actions): ``{"ok": True, "automation": {...}}``."""

    def list_automations(self) -> list[dict[str, Any]]:
        """Stored rules."""

    def delete_automation(self, rule_id: str) -> dict[str, Any]:
        """Remove a stored rule."""


@runtime_checkable
class AsyncHomeBackend(Protocol):
    """:class:`HomeBackend` with every method a coroutine: the one interface for code that runs
    on an event loop (inside Home Assistant).

    One contract, same payloads and errors as :class:`HomeBackend`; only the calling convention
    differs, so callers await every read and every control alike and never have to ask whether
    a result is a value or a coroutine. A sync backend joins it through :class:`AsyncAdapter`."""

    async def list_rooms(self) -> list[dict[str, Any]]:
        """As :meth:`HomeBackend.list_rooms`."""

    async def list_devices(
        self, room: str | None = None, category: str | None = None, tags: list[str] | None = None
    ) -> list[dict[str, Any]]:
        """As :meth:`HomeBackend.list_devices`."""

    async def device_status(self, did: str) -> dict[str, Any]:
        """As :meth:`HomeBackend.device_status`."""

    async def device_spec(self, did: str) -> dict[str, Any]:
        """As :meth:`HomeBackend.device_spec`."""

    async def execute(self, did: str, locator: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """As :meth:`HomeBackend.execute`."""

    async def room_environment(self, room: str) -> dict[str, Any]:
        """As :meth:`HomeBackend.room_environment`."""

    async def now(self) -> str:
        """As :meth:`HomeBackend.now`."""

    async def schedule(self, at: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """As :meth:`HomeBackend.schedule`."""

    async def cancel_schedule(self, schedule_id: str) -> dict[str, Any]:
        """As :meth:`HomeBackend.cancel_schedule`."""

    async def list_schedules(self) -> list[dict[str, Any]]:
        """As :meth:`HomeBackend.list_schedules`."""

    async def create_automation(self, rule: dict[str, Any]) -> dict[str, Any]:
        """As :meth:`HomeBackend.create_automation`."""

    async def list_automations(self) -> list[dict[str, Any]]:
        """As :meth:`HomeBackend.list_automations`."""

    async def delete_automation(self, rule_id: str) -> dict[str, Any]:
        """As :meth:`HomeBackend.delete_automation`."""


class AsyncAdapter:
    """A sync :class:`HomeBackend` (the embedded simulator, HomeEnv) as an
    :class:`AsyncHomeBackend`.

    Each method calls the wrapped one directly on the event loop: the simulator answers in
    microseconds from memory and is not thread-safe, so handing it to an executor would buy
    nothing and risk interleaving two turns' calls. The wrapped backend stays reachable as
    ``backend`` for what is not part of the contract (a simulated clock, a snapshot)."""

    def __init__(self, backend: HomeBackend) -> None:
        self.backend = backend

    async def list_rooms(self) -> list[dict[str, Any]]:
        return self.backend.list_rooms()

    async def list_devices(
        self, room: str | None = None, category: str | None = None, tags: list[str] | None = None
    ) -> list[dict[str, Any]]:
        return self.backend.list_devices(room=room, category=category, tags=tags)

    async def device_status(self, did: str) -> dict[str, Any]:
        return self.backend.device_status(did)

    async def device_spec(self, did: str) -> dict[str, Any]:
        return self.backend.device_spec(did)

    async def execute(self, did: str, locator: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.backend.execute(did, locator, arguments)

    async def room_environment(self, room: str) -> dict[str, Any]:
        return self.backend.room_environment(room)

    async def now(self) -> str:
        return self.backend.now()

    async def schedule(self, at: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        return self.backend.schedule(at, actions)

    async def cancel_schedule(self, schedule_id: str) -> dict[str, Any]:
        return self.backend.cancel_schedule(schedule_id)

    async def list_schedules(self) -> list[dict[str, Any]]:
        return self.backend.list_schedules()

    async def create_automation(self, rule: dict[str, Any]) -> dict[str, Any]:
        return self.backend.create_automation(rule)

    async def list_automations(self) -> list[dict[str, Any]]:
        return self.backend.list_automations()

    async def delete_automation(self, rule_id: str) -> dict[str, Any]:
        return self.backend.delete_automation(rule_id)


def as_async(backend: HomeBackend | AsyncHomeBackend) -> AsyncHomeBackend:
    """``backend`` as an :class:`AsyncHomeBackend`: itself when its methods are coroutines (Home
    Assistant's backends, a guarded async backend), else wrapped in :class:`AsyncAdapter`.

    The one place where sync and async backends meet: an agent takes either at construction and
    from then on awaits every call, so no result is ever inspected for being a coroutine."""
    if inspect.iscoroutinefunction(getattr(type(backend), "list_rooms", None)):
        return backend  # type: ignore[return-value]  # its methods are coroutines: the async contract
    return AsyncAdapter(backend)  # type: ignore[arg-type]  # no coroutine methods: the sync contract


def run_sync[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never waits, computed without an event loop.

    Code written once against :class:`AsyncHomeBackend` serves a sync caller this way over an
    :class:`AsyncAdapter`, whose methods return at once. A coroutine that does wait (real I/O)
    is closed, and this raises: it needs an event loop, and running part of it here could
    leave half of a call done."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    coroutine.close()
    raise RuntimeError("this call waits on I/O: await it on an event loop instead")
