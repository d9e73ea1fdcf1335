"""A physical home's devices through a mapping: read them, drive them to a state, and tell a
device's fault from what an agent did.

Physical devices fail in ways a simulator does not: they drop off the network (HA shows the
entity ``unavailable``), answer seconds late, or report a value other than the one they were
given. None of that is an agent's doing, so none of it may be scored as the agent's failure.
Two moments are checked:

* putting the devices in a state (a task's initial state, the oracle's actions, the state before
  the run): :func:`reach` writes each wrong attribute with the mapping's service calls and reads
  back until the devices agree or the mapping's timeout passes; a call HA refuses is tried again
  on the next round (a unit must be on before its mode can be set), so order does not matter.
  What is still wrong then is the device's fault, unless it is an attribute the mapping cannot
  set (then the state cannot be reached here at all);
* after an agent's turn: the service calls HA saw (its ``call_service`` events,
  :class:`CallWatch`) say what the agent commanded, turned into attribute values through the
  mapping (:meth:`~smh_core.ha.hardware_map.AttributeMap.value_of_call`); :func:`settle` waits
  until the devices report them and names every device that stays unavailable, silent or
  reports something else (:class:`DeviceFault`).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, Self

from smh_core.homeenv.snapshot import Snapshot

from .hardware_map import NOT_OBSERVED, HardwareMapping, ReadError, same_value
from .websocket import HaSocket

Readings = dict[tuple[str, str], Any]
"""``(did, locator) -> HomeEnv value``, ``NOT_OBSERVED`` or a :class:`ReadError`."""


class DeviceClient(Protocol):
    """What reading and driving devices needs of an HA client (:class:`~.hardware.HardwareClient`)."""

    async def states(self) -> dict[str, dict[str, Any]]: ...

    async def call(self, domain: str, name: str, data: dict[str, Any]) -> None: ...


class DeviceFault(RuntimeError):
    """A device, not the agent, kept the task from being judged (unavailable, too slow, or
    reporting another value than it was given); the task is not scored."""


# ---------------------------------------------------------------------------- reading
def read_all(
    mapping: HardwareMapping, states: Mapping[str, Mapping[str, Any]], like: Snapshot
) -> Readings:
    """Every mapped attribute as HA shows it now (``like``: the home, for the value types)."""
    out: Readings = {}
    for did, locator, amap in mapping.items():
        try:
            out[did, locator] = amap.read(states.get(amap.entity), like.value(did, locator))
        except ReadError as e:
            out[did, locator] = e
    return out


IN_MOTION = frozenset({"opening", "closing", "locking", "unlocking"})
"""HA states of an entity on its way to another state (a cover travelling, a lock turning)."""


def in_motion(
    mapping: HardwareMapping,
    states: Mapping[str, Mapping[str, Any]],
    keys: set[tuple[str, str]] | list[tuple[str, str]],
) -> list[tuple[str, str]]:
    """The attributes among ``keys`` whose entity HA shows in motion. A value read then is one
    the device is passing, not one it holds: HA's demo window asked for 10 while closing to 0
    reads 10 for a second and goes on to 0, so a state that matched in passing is not reached."""
    return [
        (did, loc)
        for did, loc in keys
        if (amap := mapping.get(did, loc)) is not None
        and str((states.get(amap.entity) or {}).get("state")) in IN_MOTION
    ]


def overlay(base: Snapshot, readings: Readings, fallback: Snapshot | None = None) -> Snapshot:
    """``base`` with the mapped attributes replaced by their readings; an attribute HA does
    not report keeps its ``fallback`` (else ``base``) value, an unreadable one becomes None."""
    devices = base.to_dict()
    for (did, locator), value in readings.items():
        if value is NOT_OBSERVED:
            value = (fallback or base).value(did, locator)
        elif isinstance(value, ReadError):
            value = None
        devices[did][locator] = value
    return Snapshot(devices)


def mapped_state(readings: Readings) -> dict[str, dict[str, Any]]:
    """The readings as ``did -> {locator: value}`` (unobserved left out, unreadable as None)."""
    out: dict[str, dict[str, Any]] = {}
    for (did, locator), value in readings.items():
        if value is not NOT_OBSERVED:
            out.setdefault(did, {})[locator] = None if isinstance(value, ReadError) else value
    return out


def mismatches(
    readings: Readings,
    want: Snapshot,
    only: set[tuple[str, str]] | None = None,
    essential: set[tuple[str, str]] | None = None,
    unreported_is_wrong: bool = False,
) -> list[tuple[str, str]]:
    """The attributes (of ``only``) that do not read as ``want``; with ``essential``, a device
    that cannot be read counts only for those attributes (an unavailable lamp does not keep a
    task about the heating from starting). An attribute HA does not report agrees with any
    value (an off light's brightness), unless ``unreported_is_wrong`` and a value is wanted:
    after a command, a value that does not show has not come back."""

    def wrong(key: tuple[str, str], got: Any) -> bool:
        if isinstance(got, ReadError):
            return essential is None or key in essential or not got.device_fault
        if got is NOT_OBSERVED:
            return unreported_is_wrong and want.value(*key) is not None
        return not same_value(got, want.value(*key))

    return [
        key for key, got in readings.items() if (only is None or key in only) and wrong(key, got)
    ]


def describe(readings: Readings, want: Snapshot, keys: list[tuple[str, str]]) -> str:
    parts = []
    for did, loc in keys:
        got = readings[did, loc]
        if isinstance(got, ReadError):
            parts.append(f"{did}/{loc}: {got}")
        else:
            shown = "not reported" if got is NOT_OBSERVED else repr(got)
            parts.append(f"{did}/{loc} is {shown}, want {want.value(did, loc)!r}")
    return "; ".join(parts)


_DESCRIBED = re.compile(
    r"(?P<did>[^\s/;]+)/(?P<loc>[^\s;]+) is (?P<got>.+?), want (?P<want>.+?)(?=; [^\s/;]+/|$)"
)


def described_mismatches(text: str) -> list[tuple[str, str, Any, Any]]:
    """``(did, locator, read, wanted)`` of each value mismatch :func:`describe` wrote into
    ``text`` (a device record's message); values it cannot read back are kept as text."""
    out = []
    for m in _DESCRIBED.finditer(text):
        values = []
        for raw in (m["got"], m["want"]):
            try:
                values.append(ast.literal_eval(raw))
            except (ValueError, SyntaxError):
                values.append(raw)
        out.append((m["did"], m["loc"], values[0], values[1]))
    return out


# ---------------------------------------------------------------------------- driving
@dataclass
class Reached:
    """How driving the devices to a state went."""

    readings: Readings
    problem: str | None = None
    """What is still wrong (None: every attribute agrees)."""
    device_fault: bool = False
    """The problem is a device's: unavailable, a refused call, a settable attribute that did not
    follow. Otherwise a read-only attribute differs, or a value the mapping has no call for is
    wanted (an HVAC mode HA does not offer): the state cannot be reached on this home."""
    seconds: float = 0.0
    calls: int = 0
    device_seconds: dict[str, float] = field(default_factory=dict)
    """Per device, when it first read back as wanted (a device still wrong at the end: absent).
    A task's poll waits for its slowest device; a twin comparison must not call the others slow."""


def _note_agreed(
    device_seconds: dict[str, float],
    devices: set[str],
    wrong: list[tuple[str, str]] | set[tuple[str, str]],
    elapsed: float,
) -> None:
    """Record ``elapsed`` for each device of ``devices`` with nothing ``wrong`` that has none yet."""
    behind = {did for did, _ in wrong}
    for did in devices - behind:
        device_seconds.setdefault(did, elapsed)


async def reach(
    client: DeviceClient,
    mapping: HardwareMapping,
    want: Snapshot,
    timeout: float,
    interval: float,
    only: set[tuple[str, str]] | None = None,
    *,
    essential: set[tuple[str, str]] | None = None,
    read_only_is_fault: bool = False,
    commanded: bool = False,
) -> Reached:
    """Write ``want`` to the devices until they read back as ``want`` (attributes HA does not
    report are left alone, and with ``only`` every attribute outside it; see :func:`mismatches`
    for ``essential``). A refused call is tried again next round until ``timeout``.
    ``read_only_is_fault``: a read-only attribute that does not follow is a device fault too
    (after commands that should have moved it). ``commanded``: ``only`` are values an agent
    set, so one HA does not report is written too and must show: a light that turns on without
    a brightness (synthetic-home's, until one is given) would otherwise never be given the
    brightness asked for, and the task be scored as the agent's failure."""
    started = time.monotonic()
    deadline = started + timeout
    refused: dict[tuple[str, str], str] = {}
    calls = 0
    agreed: dict[str, float] = {}
    devices = {did for did, _ in only} if only is not None else set()
    while True:
        states = await client.states()
        readings = read_all(mapping, states, want)
        wrong = mismatches(readings, want, only, essential, unreported_is_wrong=commanded)
        moving = in_motion(mapping, states, list(readings) if only is None else sorted(only))
        wrong += [key for key in moving if key not in wrong]
        _note_agreed(agreed, devices, wrong, time.monotonic() - started)
        if not wrong:
            return Reached(
                readings, seconds=time.monotonic() - started, calls=calls, device_seconds=agreed
            )
        if time.monotonic() >= deadline:
            done = _verdict(
                mapping,
                readings,
                want,
                wrong,
                refused,
                read_only_is_fault,
                time.monotonic() - started,
                calls,
            )
            done.device_seconds = agreed
            if moving and done.problem:
                done.problem += "".join(f"; {d}/{loc}: still moving" for d, loc in moving)
            return done
        for did, loc in wrong:
            if isinstance(readings[did, loc], ReadError):
                continue
            for domain, name, data in mapping.get(did, loc).calls(want.value(did, loc)):  # type: ignore[union-attr]
                calls += 1
                try:
                    await client.call(domain, name, data)
                    refused.pop((did, loc), None)
                except (
                    RuntimeError
                ) as e:  # HaError: HA (or the device behind it) refused; next round again
                    refused[did, loc] = f"{domain}.{name} failed: {str(e)[:200]}"
        await asyncio.sleep(interval)


def _verdict(
    mapping: HardwareMapping,
    readings: Readings,
    want: Snapshot,
    wrong: list[tuple[str, str]],
    refused: dict[tuple[str, str], str],
    read_only_is_fault: bool,
    seconds: float,
    calls: int,
) -> Reached:
    readable = [key for key in wrong if not isinstance(readings[key], ReadError)]
    fixed = [key for key in readable if mapping.get(*key).set is None]  # type: ignore[union-attr]
    unsettable = [
        key
        for key in readable
        if key not in fixed and not mapping.get(*key).calls(want.value(*key))
    ]  # type: ignore[union-attr]
    text = describe(readings, want, wrong)
    if unsettable:
        text += (
            " (no call sets "
            + ", ".join(f"{d}/{loc} to {want.value(d, loc)!r}" for d, loc in unsettable)
            + ")"
        )
    if refused:
        text += "; " + "; ".join(f"{d}/{loc}: {why}" for (d, loc), why in refused.items())
    fault = not unsettable and (read_only_is_fault or not fixed)
    return Reached(readings, text, device_fault=fault, seconds=seconds, calls=calls)


async def restore_prior(
    client: DeviceClient, mapping: HardwareMapping, like: Snapshot, prior: Readings, interval: float
) -> str | None:
    """Drive the devices back to ``prior`` (their readings before the run): only attributes that
    were read then (not unreported, not unreadable) and can be set (a sensor follows its room);
    returns what did not come back, or None."""
    readable = {
        key
        for key, value in prior.items()
        if value is not NOT_OBSERVED
        and not isinstance(value, ReadError)
        and mapping.get(*key).set is not None
    }  # type: ignore[union-attr]
    if not readable:
        return None
    done = await reach(
        client, mapping, overlay(like, prior), mapping.timeout_seconds, interval, readable
    )
    return done.problem


def write_restore(out_dir: Path, prior_state: dict[str, Any], problem: str | None) -> None:
    """``restore.json``: the devices as found before the run and whether they went back."""
    (out_dir / "restore.json").write_text(
        json.dumps(
            {"prior_state": prior_state, "restored": problem is None, "problem": problem},
            indent=2,
            sort_keys=True,
            default=str,
        )
        + "\n",
        encoding="utf-8",
    )


# ---------------------------------------------------------------------------- after an agent's turn
Call = tuple[str, str, dict[str, Any]]
"""A service call HA saw: ``(domain, service, data)``."""


class CallWatch(HaSocket):
    """HA's ``call_service`` events on their own websocket, while an agent acts. :meth:`calls`
    first makes sure every event fired so far has arrived (a ping answered after them)."""

    def __init__(self, url: str, token: str, session: Any) -> None:
        super().__init__(url, token, session)
        self._seen: list[Call] = []
        self._pong: asyncio.Event = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Self:
        await super().__aenter__()
        await self.call({"type": "subscribe_events", "event_type": "call_service"})
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await super().__aexit__(*exc)

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            data = msg.json()
            if data.get("type") == "event":
                event = data["event"].get("data", {})
                self._seen.append(
                    (
                        event.get("domain", ""),
                        event.get("service", ""),
                        dict(event.get("service_data") or {}),
                    )
                )
            elif data.get("type") == "pong":
                self._pong.set()

    def clear(self) -> None:
        self._seen.clear()

    async def calls(self, timeout: float = 5.0) -> list[Call]:
        """The calls seen since :meth:`clear` (after the events in flight arrived)."""
        assert self.ws is not None
        self._pong.clear()
        await self.ws.send_json({"id": next(self._ids), "type": "ping"})
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._pong.wait(), timeout)
        return list(self._seen)


def commanded(
    mapping: HardwareMapping, calls: list[Call], like: Snapshot
) -> dict[tuple[str, str], Any]:
    """What the calls told the mapped attributes to become (the last call wins)."""
    out: dict[tuple[str, str], Any] = {}
    for domain, service, data in calls:
        for did, locator, amap in mapping.items():
            value = amap.value_of_call(domain, service, data, like.value(did, locator))
            if value is not NOT_OBSERVED:
                out[did, locator] = value
    return out


@dataclass
class Settled:
    readings: Readings
    faults: list[str] = field(default_factory=list)
    seconds: float = 0.0
    device_seconds: dict[str, float] = field(default_factory=dict)
    """Per device, when it first reported all it was commanded (as :attr:`Reached.device_seconds`)."""


async def settle(
    client: DeviceClient,
    mapping: HardwareMapping,
    expected: dict[tuple[str, str], Any],
    before: Readings,
    like: Snapshot,
    timeout: float,
    interval: float,
) -> Settled:
    """Wait until the devices report what they were commanded (``expected``) or ``timeout``
    passes; then every attribute still unavailable, silent or reporting another value is a fault."""
    started = time.monotonic()
    agreed: dict[str, float] = {}
    devices = {did for did, _ in expected}
    while True:
        states = await client.states()
        readings = read_all(mapping, states, like)
        late = [
            key
            for key, want in expected.items()
            if isinstance(readings[key], ReadError) or not same_value(readings[key], want)
        ]
        late += [key for key in in_motion(mapping, states, list(expected)) if key not in late]
        _note_agreed(agreed, devices, late, time.monotonic() - started)
        if not late or time.monotonic() - started >= timeout:
            break
        await asyncio.sleep(interval)
    faults = []
    for key in late:
        got, want, was = readings[key], expected[key], before.get(key)
        where = f"{key[0]}/{key[1]}"
        if isinstance(got, ReadError):
            faults.append(f"{where}: {got}")
        elif got is NOT_OBSERVED:
            continue  # HA does not show it in the commanded state (a brightness set while off)
        elif same_value(got, was) if not isinstance(was, ReadError) else False:
            faults.append(
                f"{where}: commanded {want!r}, no report within {timeout:g} s (still {got!r})"
            )
        else:
            faults.append(f"{where}: commanded {want!r}, the device reports {got!r}")
    return Settled(readings, faults, time.monotonic() - started, agreed)


def unreadable_devices(readings: Readings, keys: list[tuple[str, str]]) -> list[str]:
    """The attributes among ``keys`` a device fault keeps from being read."""
    return [
        f"{d}/{loc}: {readings[d, loc]}"
        for d, loc in keys
        if isinstance(readings.get((d, loc)), ReadError) and readings[d, loc].device_fault
    ]
