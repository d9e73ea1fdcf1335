"""The async backend interface: the sync simulator behind :class:`AsyncAdapter` answers exactly
as it does synchronously."""

from __future__ import annotations

import inspect
from typing import Any

from smh_core.agent.backend import AsyncAdapter, AsyncHomeBackend, HomeBackend
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homes.generator import generate_home
from smh_core.sim.simulator import Simulator

LATER = "2099-01-01T21:00:00"
METHODS = [
    name for name, member in vars(AsyncHomeBackend).items() if inspect.iscoroutinefunction(member)
]


def _home() -> EmbeddedBackend:
    """The complex home (the Foyer Door Lock, two water heaters) with a simulated clock, so
    schedules and automations are stored rather than refused."""
    sim = Simulator(HomeEngine(generate_home("complex", 0)))
    return EmbeddedBackend(sim.engine, sim=sim)


def _state(backend: EmbeddedBackend) -> str:
    """The whole home as its saved JSON, schedules and rules beside it."""
    return "\n".join(
        [
            dump_home(backend.engine.to_home()),
            repr(backend.list_schedules()),
            repr(backend.list_automations()),
        ]
    )


def _rule(lock: str) -> dict[str, Any]:
    return {
        "name": "x",
        "triggers": [{"kind": "time", "cron": "0 0 21 * * ?"}],
        "actions": [{"did": lock, "locator": "open", "arguments": {}}],
    }


def test_the_protocol_is_the_sync_one_with_every_method_awaited() -> None:
    sync = {n for n, m in vars(HomeBackend).items() if callable(m) and not n.startswith("_")}
    assert set(METHODS) == sync and len(METHODS) == 13


def test_the_adapter_is_an_async_home_backend() -> None:
    backend = AsyncAdapter(_home())
    assert isinstance(backend, AsyncHomeBackend)
    assert all(inspect.iscoroutinefunction(getattr(backend, name)) for name in METHODS)


async def test_the_adapter_answers_as_the_sync_backend_does() -> None:
    """Every method, reads and writes, on two copies of the same home: the same answers and
    the same home after."""
    sync, wrapped = _home(), _home()
    adapter = AsyncAdapter(wrapped)
    lamp = next(d["did"] for d in sync.list_devices() if d["category"] == "light")
    room = sync.list_rooms()[0]["id"]
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("list_rooms", (), {}),
        ("list_devices", (), {}),
        ("list_devices", (), {"room": room, "category": "light", "tags": None}),
        ("device_status", (lamp,), {}),
        ("device_status", ("nope",), {}),
        ("device_spec", (lamp,), {}),
        ("execute", (lamp, "turn_on", {}), {}),
        ("execute", (lamp, "no_such_service", {}), {}),
        ("room_environment", (room,), {}),
        ("now", (), {}),
        ("schedule", (LATER, [{"did": lamp, "locator": "turn_off", "arguments": {}}]), {}),
        ("list_schedules", (), {}),
        ("cancel_schedule", ("s1",), {}),
        (
            "create_automation",
            (_rule(lamp) | {"actions": [{"did": lamp, "locator": "turn_off"}]},),
            {},
        ),
        ("list_automations", (), {}),
        ("delete_automation", ("a1",), {}),
    ]
    assert {c[0] for c in calls} == set(METHODS)
    for name, args, kwargs in calls:
        expected = getattr(sync, name)(*args, **kwargs)
        assert await getattr(adapter, name)(*args, **kwargs) == expected, name
    assert _state(wrapped) == _state(sync)
    assert adapter.backend is wrapped
