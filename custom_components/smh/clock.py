"""Simulated time for a config entry: the home's simulator, paced by HA's clock.

Room physics, appliance programmes, schedules and automations stored with the home run on
:class:`smh_core.sim.simulator.Simulator`. Every second of wall time the clock advances the
simulator by ``time_scale`` seconds (0 stops it). Changes the simulator makes go through the
engine like any other, so the runtime's engine listener pushes them to the entities at once,
without polling.

``smh.advance_time`` (:meth:`SimClock.async_advance`) jumps ahead off the event loop: a jump
of days with a rule firing every second is minutes of work, and HA's loop must keep serving its
API meanwhile. The jump runs in HA's executor in slices of at most one simulated hour, each
ending on a whole hour (the simulator breaks its physics windows there anyway, so the sliced
run ends in exactly the state of one plain ``advance``). While a slice runs, the entry's lock
is held (services that touch the engine wait for it), the wall-clock tick is skipped, and
engine listeners that write HA state only note what changed (the entry's runtime and its
persistence check the thread); after each slice the clock's listeners run on the loop and push
it all at once. Two calls run one after the other.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.util import dt as dt_util

from smh_core.homeenv.engine import HomeEngine
from smh_core.sim.simulator import TICKS_PER_SECOND, SimulationError, Simulator

TICK = timedelta(seconds=1)
LOG_KEEP = 500
"""Simulator events kept in memory (a home may run for months)."""
SLICE = timedelta(hours=1)
"""The longest simulated span one executor job runs before the loop gets the changes."""
MAX_ADVANCE = timedelta(days=31)
"""The longest ``smh.advance_time`` jump (minutes of work with a rule firing every second)."""


class SimClock:
    def __init__(self, hass: HomeAssistant, engine: HomeEngine, time_scale: float, *,
                 now: datetime | None = None, lock: asyncio.Lock | None = None) -> None:
        """``now``: where a restarted entry's clock stood (else the home's own clock, or HA's
        local time for a home without one, so "at 7 pm" means 7 pm). ``lock``: the entry's
        engine lock, held while a slice of :meth:`async_advance` runs in the executor."""
        self.hass = hass
        self.time_scale = max(0.0, float(time_scale))
        if now is None and engine.home.simulation is None:
            now = dt_util.now().replace(tzinfo=None, microsecond=0)
        self.sim = Simulator(engine, now=now)
        self.lock = lock if lock is not None else asyncio.Lock()
        self.in_slice = False
        """True while a slice runs in the executor: only that thread may touch the simulator."""
        self._advancing = asyncio.Lock()  # one smh.advance_time at a time (the tick pauses meanwhile)
        self._stopped = False
        self._listeners: list[Callable[[], None]] = []
        self._cancel: CALLBACK_TYPE | None = None

    def start(self) -> None:
        if self.time_scale > 0 and self._cancel is None:
            self._cancel = async_track_time_interval(self.hass, self._tick, TICK, name="smh simulated time",
                                                     cancel_on_shutdown=True)

    def add_listener(self, fn: Callable[[], None]) -> Callable[[], None]:
        """Call ``fn()`` on the loop after each slice of an advance (the engine is quiet then)."""
        self._listeners.append(fn)
        return lambda: self._listeners.remove(fn)

    @callback
    def _tick(self, _now: datetime) -> None:
        if self._advancing.locked() or self.lock.locked():
            return  # an advance drives time now (or a service holds the engine): skip, don't queue
        self.sim.advance(self.time_scale)
        _trim(self.sim.log)

    async def async_advance(self, seconds: float) -> dict[str, Any]:
        """Jump ``seconds`` ahead in executor slices; returns the new time and what happened
        meanwhile. A ``SimulationError`` stops it where the simulator gave up (the slices
        before stay done, as with one plain ``advance``)."""
        if not 0 <= seconds <= MAX_ADVANCE.total_seconds():
            raise ValueError(f"cannot advance by {seconds} s (0 to {MAX_ADVANCE.total_seconds():.0f} s)")
        async with self._advancing:  # two calls of an hour each make two hours, one after the other
            target = self.sim.tick + int(round(seconds * TICKS_PER_SECOND))
            events: list[dict[str, Any]] = []
            while True:  # at least one slice: advancing by 0 still runs what is due now
                events += await self._slice(self._slice_end(target))
                if self.sim.tick >= target:
                    break
            return {"now": self.sim.now.isoformat(), "events": events}

    def _slice_end(self, target: int) -> int:
        """The next whole simulated hour, or ``target`` if that comes first."""
        now = self.sim.now
        hour = now.replace(minute=0, second=0, microsecond=0) + SLICE
        return min(target, self.sim.tick_of(hour))

    async def _slice(self, end: int) -> list[dict[str, Any]]:
        """Run the simulator to tick ``end`` in the executor, holding the lock until the thread
        is done, even if the caller is cancelled (the thread cannot be)."""
        await self.lock.acquire()
        if self._stopped:
            self.lock.release()
            raise SimulationError("the home was unloaded during smh.advance_time")
        self.in_slice = True
        job = self.hass.async_add_executor_job(self._run_slice, end)
        # Whichever comes first hands the slice's changes over, once: the caller resuming (so
        # the entities show them before the service answers; the order of a future's done
        # callbacks and the caller's wake-up is not one to rely on) or, if the caller was
        # cancelled, the job's own callback (the lock must be released either way).
        job.add_done_callback(self._slice_done)
        events = await asyncio.shield(job)
        self._slice_done(job)
        return events

    def _run_slice(self, end: int) -> list[dict[str, Any]]:
        """In the executor: advance to ``end``; returns that slice's events, already converted
        (tens of thousands of them for a day of a 1 Hz rule: not work for the loop)."""
        log = self.sim.log
        before = len(log)
        self.sim.advance((end - self.sim.tick) / TICKS_PER_SECOND)
        events = [_event(e) for e in log[before:]]
        _trim(log)
        return events

    @callback
    def _slice_done(self, _job: asyncio.Future[Any]) -> None:
        """On the loop, once the slice's thread finished: hand the changes to the listeners and
        release the lock (a second call for the same slice does nothing)."""
        if not self.in_slice:
            return
        self.in_slice = False
        try:
            for fn in list(self._listeners):
                fn()
        finally:
            self.lock.release()

    async def async_stop(self) -> None:
        """Stop the tick; wait for a running slice (an advance stops after it) and detach."""
        self._stopped = True
        if self._cancel is not None:
            self._cancel()
            self._cancel = None
        async with self.lock:
            self.sim.close()


def _trim(log: list[Any]) -> None:
    if len(log) > 2 * LOG_KEEP:
        del log[:-LOG_KEEP]


def _event(e: Any) -> dict[str, Any]:
    data = dataclasses.asdict(e)
    return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in data.items()}
