"""The async backend interface: the sync simulator behind :class:`AsyncAdapter` answers exactly
as it does synchronously, and :class:`AsyncGuardedBackend` takes the sync guard's decisions (one
decision, written once): a refused high-risk call stays refused on the async path and leaves the
home byte-identical."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from smh_core.agent.backend import AsyncAdapter, AsyncHomeBackend, HomeBackend
from smh_core.agent.safety import ActionGuard, AsyncGuardedBackend, GuardedBackend
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


def _lock(backend: HomeBackend) -> str:
    return next(d["did"] for d in backend.list_devices() if d["category"] == "lock")


def _rule(lock: str) -> dict[str, Any]:
    return {
        "name": "x",
        "triggers": [{"kind": "time", "cron": "0 0 21 * * ?"}],
        "actions": [{"did": lock, "locator": "open", "arguments": {}}],
    }


def test_the_protocol_is_the_sync_one_with_every_method_awaited() -> None:
    sync = {n for n, m in vars(HomeBackend).items() if callable(m) and not n.startswith("_")}
    assert set(METHODS) == sync and len(METHODS) == 13


@pytest.mark.parametrize("wrapper", [AsyncAdapter, None])
def test_the_adapter_and_the_async_guard_are_async_home_backends(wrapper) -> None:
    wrapped = AsyncAdapter(_home())
    backend = wrapped if wrapper else AsyncGuardedBackend(wrapped, ActionGuard([]))
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


async def test_a_refused_high_risk_call_stays_refused_on_the_async_path() -> None:
    """The same refusals as the sync guard, word for word, for a device call, a schedule and an
    automation; the guard records the same questions; the home is byte-identical."""
    sync_home, async_home = _home(), _home()
    lock = _lock(sync_home)
    before = _state(async_home)
    said = ["dim the lights at 9"]
    sync_guard, async_guard = ActionGuard(said), ActionGuard(said)
    sync, guarded = (
        GuardedBackend(sync_home, sync_guard),
        AsyncGuardedBackend(AsyncAdapter(async_home), async_guard),
    )
    results = [
        await guarded.execute(lock, "open", {}),
        await guarded.schedule(LATER, [{"did": lock, "locator": "open", "arguments": {}}]),
        await guarded.create_automation(_rule(lock)),
    ]
    expected = [
        sync.execute(lock, "open", {}),
        sync.schedule(LATER, [{"did": lock, "locator": "open", "arguments": {}}]),
        sync.create_automation(_rule(lock)),
    ]
    assert results == expected
    assert [r["error"]["code"] for r in results] == ["needs_confirmation"] * 3
    assert _state(async_home) == before == _state(sync_home)
    assert async_guard.refusals == sync_guard.refusals and len(async_guard.refusals) == 3
    assert async_guard.pending == sync_guard.pending
    assert await guarded.first_refusal([{"did": lock, "locator": "open"}], "x") is not None
    assert await guarded.list_schedules() == [] and await guarded.list_automations() == []


async def test_the_users_own_words_and_a_yes_run_it_on_the_async_path() -> None:
    home = _home()
    lock = _lock(home)
    guard = ActionGuard(["good evening"])
    guarded = AsyncGuardedBackend(AsyncAdapter(home), guard)
    assert (await guarded.execute(lock, "open", {}))["error"]["code"] == "needs_confirmation"
    assert home.engine.value(lock, "state") == "locked"
    assert [p.did for p in guard.answer("Yes, go ahead.")] == [lock]
    assert (await guarded.execute(lock, "open", {}))["ok"]
    assert home.engine.value(lock, "state") == "unlocked"

    said = AsyncGuardedBackend(AsyncAdapter(_home()), ActionGuard(["Unlock the foyer door please"]))
    assert (await said.execute(lock, "open", {}))["ok"]


async def test_everything_else_passes_through_unguarded() -> None:
    home = _home()
    guarded = AsyncGuardedBackend(AsyncAdapter(home), ActionGuard([]))
    lamp = next(d["did"] for d in home.list_devices() if d["category"] == "light")
    assert (await guarded.execute(lamp, "turn_on", {}))["ok"]
    assert await guarded.device_status(lamp) == home.device_status(lamp)
    assert guarded.backend.backend is home  # what the contract lacks stays reachable


class _Blind:
    """An async backend that cannot list its devices."""

    async def list_devices(self, **_: Any) -> Any:
        return None

    async def list_rooms(self) -> list[dict[str, Any]]:
        return []


async def test_a_guard_that_cannot_see_devices_fails_closed() -> None:
    guarded = AsyncGuardedBackend(_Blind(), ActionGuard([]))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="AsyncGuardedBackend needs a backend"):
        await guarded.execute("lock.front", "open", {})
