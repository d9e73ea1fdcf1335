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

A jump survives a restart (:class:`Jump`): its target is stored (through ``on_jump``, the
entry's persistence) before the first slice runs. When HA stops (a shutdown job, before HA
stops its HTTP server and its executor) or the entry unloads, the running slice finishes, no
new one starts, and the call answers with how far it got (``finished: false``); after the
restart the entry resumes the rest (:meth:`SimClock.async_resume`), or, with resuming turned
off in the options, says in a persistent notification how far it got. After each slice an
``smh_advance_time`` event reports the progress.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from homeassistant.components import persistent_notification
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.helpers.start import async_at_started
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
EVENT_ADVANCE_TIME = "smh_advance_time"
"""Fired after each slice of a jump: the entry, where the jump started, where it goes, the
simulated time now, the seconds done of the total, and whether it finished."""


@dataclasses.dataclass(frozen=True)
class Jump:
    """One ``smh.advance_time``: the simulated time it started from and the time it goes to."""

    start: datetime
    target: datetime

    def to_dict(self) -> dict[str, str]:
        return {"from": self.start.isoformat(), "target": self.target.isoformat()}

    @classmethod
    def from_dict(cls, data: Any) -> Jump | None:
        """The stored jump, or ``None`` for anything that is not one."""
        try:
            start, target = (
                datetime.fromisoformat(data[k]).replace(tzinfo=None) for k in ("from", "target")
            )
        except (KeyError, TypeError, ValueError):
            return None
        return cls(start, target) if start <= target else None

    def progress(self, now: datetime) -> dict[str, Any]:
        """How far the jump got at simulated time ``now``."""
        total = (self.target - self.start).total_seconds()
        done = min(total, (now - self.start).total_seconds())
        return {
            "from": self.start.isoformat(),
            "target": self.target.isoformat(),
            "now": now.isoformat(),
            "done_seconds": done,
            "total_seconds": total,
            "finished": now >= self.target,
        }


class SimClock:
    def __init__(
        self,
        hass: HomeAssistant,
        engine: HomeEngine,
        time_scale: float,
        *,
        now: datetime | None = None,
        lock: asyncio.Lock | None = None,
        entry_id: str = "",
        on_jump: Callable[[], Awaitable[None]] | None = None,
        resume: bool = True,
    ) -> None:
        """``now``: where a restarted entry's clock stood (else the home's own clock, or HA's
        local time for a home without one, so "at 7 pm" means 7 pm). ``lock``: the entry's
        engine lock, held while a slice of :meth:`async_advance` runs in the executor.
        ``on_jump``: saves the state now (a jump's target before it starts, and its end);
        ``resume``: whether an interrupted jump goes on after a restart (the answer says so)."""
        self.hass = hass
        self.entry_id = entry_id
        self.jump: Jump | None = None
        """The running jump (stored with the state, so a restart can resume it)."""
        self._on_jump = on_jump
        self.resume = resume
        self._stopping = False  # HA stops or the entry unloads: the running slice is the last
        self.time_scale = max(0.0, float(time_scale))
        if now is None and engine.home.simulation is None:
            now = dt_util.now().replace(tzinfo=None, microsecond=0)
        self.sim = Simulator(engine, now=now)
        self.lock = lock if lock is not None else asyncio.Lock()
        self.in_slice = False
        """True while a slice runs in the executor: only that thread may touch the simulator."""
        self._slice_job: asyncio.Future[Any] | None = None  # the running slice's executor job
        self._advancing = (
            asyncio.Lock()
        )  # one smh.advance_time at a time (the tick pauses meanwhile)
        self._stopped = False
        self._listeners: list[Callable[[], None]] = []
        self._cancel: CALLBACK_TYPE | None = None

    def start(self) -> None:
        if self.time_scale > 0 and self._cancel is None:
            self._cancel = async_track_time_interval(
                self.hass, self._tick, TICK, name="smh simulated time", cancel_on_shutdown=True
            )

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
        """Jump ``seconds`` ahead in executor slices; returns the new time, what happened
        meanwhile and the jump's progress. A ``SimulationError`` stops it where the simulator
        gave up (the slices before stay done, as with one plain ``advance``)."""
        if not 0 <= seconds <= MAX_ADVANCE.total_seconds():
            raise ValueError(
                f"cannot advance by {seconds} s (0 to {MAX_ADVANCE.total_seconds():.0f} s)"
            )
        async with self._advancing:  # two calls of an hour each make two hours, one after the other
            now = self.sim.now
            target = self.sim.time_of(self.sim.tick + int(round(seconds * TICKS_PER_SECOND)))
            if self._stopping:  # queued behind a jump that HA's stop interrupted: never started
                return {
                    "now": now.isoformat(),
                    "events": [],
                    **Jump(now, target).progress(now),
                    "interrupted": True,
                    "resumes": False,
                }
            return await self._run(Jump(now, target))

    async def async_resume(self, jump: Jump) -> dict[str, Any]:
        """Go on with a jump a restart interrupted, to its stored target."""
        async with self._advancing:
            return await self._run(jump)

    async def async_shutdown(self) -> None:
        """HA is stopping: let the running slice finish, start no new one, and wait until the
        running call has answered (its target stays stored for the restart)."""
        self._stopping = True
        async with self._advancing:
            pass

    async def _run(self, jump: Jump) -> dict[str, Any]:
        self.jump = jump
        await self.async_store()  # the target is on disk before the first slice runs
        target = max(self.sim.tick, self.sim.tick_of(jump.target))
        events: list[dict[str, Any]] = []
        while True:  # at least one slice: advancing by 0 still runs what is due now
            try:
                done = await self._slice(self._slice_end(target))
            except SimulationError:  # the home's rules loop: nothing left to resume
                self.jump = None
                await self.async_store()
                raise
            events += done or []
            progress = jump.progress(self.sim.now)
            self.hass.bus.async_fire(
                EVENT_ADVANCE_TIME, {"config_entry_id": self.entry_id, **progress}
            )
            if done is None or (self.sim.tick < target and self._stopping):
                return {
                    "now": self.sim.now.isoformat(),
                    "events": events,
                    **progress,
                    "interrupted": True,
                    "resumes": self.resume,
                }
            if self.sim.tick >= target:
                break
        self.jump = None
        await self.async_store()
        return {"now": self.sim.now.isoformat(), "events": events, **progress}

    async def async_store(self) -> None:
        """Write the state now, with the running jump or without one (``on_jump``)."""
        if self._on_jump is not None:
            await self._on_jump()

    def _slice_end(self, target: int) -> int:
        """The next whole simulated hour, or ``target`` if that comes first."""
        now = self.sim.now
        hour = now.replace(minute=0, second=0, microsecond=0) + SLICE
        return min(target, self.sim.tick_of(hour))

    async def _slice(self, end: int) -> list[dict[str, Any]] | None:
        """Run the simulator to tick ``end`` in the executor, holding the lock until the thread
        is done, even if the caller is cancelled (the thread cannot be); ``None`` when the
        entry was unloaded meanwhile (nothing ran)."""
        await self.lock.acquire()
        if self._stopped:
            self.lock.release()
            return None
        self.in_slice = True
        job = self._slice_job = self.hass.async_add_executor_job(self._run_slice, end)
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
    def _slice_done(self, job: asyncio.Future[Any]) -> None:
        """On the loop, once the slice's thread finished: hand the changes to the listeners and
        release the lock. A second call for the same slice does nothing, and so does one for an
        earlier slice: its job's done callback may run only after the caller has already
        started the next slice (Python 3.14 / HA 2026.10 wake the caller first), and must not
        flush or unlock that one while its thread still runs."""
        if not self.in_slice or job is not self._slice_job:
            return
        self.in_slice = False
        self._slice_job = None
        try:
            for fn in list(self._listeners):
                fn()
        finally:
            self.lock.release()

    async def async_stop(self) -> None:
        """Stop the tick; wait for a running slice (an advance stops after it) and detach."""
        self._stopping = self._stopped = True
        if self._cancel is not None:
            self._cancel()
            self._cancel = None
        async with self.lock:
            self.sim.close()


@callback
def async_resume_jump(
    hass: HomeAssistant, entry: ConfigEntry, clock: SimClock, stored: Any
) -> None:
    """After a restart: go on with the jump that was running (once HA has started), or, with
    resuming off, leave a persistent notification saying how far it got."""
    jump = Jump.from_dict(stored)
    if jump is None or clock.sim.now >= jump.target:
        return
    if clock.resume:
        clock.jump = jump  # stored again until it is done, should HA stop once more first

        @callback
        def go(_hass: HomeAssistant) -> None:
            entry.async_create_background_task(
                hass, clock.async_resume(jump), f"smh advance_time {entry.entry_id}"
            )

        entry.async_on_unload(async_at_started(hass, go))
        return
    entry.async_create_task(
        hass, clock.async_store(), "smh forget the interrupted jump"
    )  # told once
    done = jump.progress(clock.sim.now)
    left = done["total_seconds"] - done["done_seconds"]
    persistent_notification.async_create(
        hass,
        f"Home Assistant stopped during smh.advance_time on {entry.title}: the simulated clock reached "
        f"{done['now']} of {done['target']} ({done['done_seconds'] / 3600:g} of {done['total_seconds'] / 3600:g} h, "
        f"{100 * done['done_seconds'] / max(done['total_seconds'], 1):.0f} %). Resuming is off in the "
        f"integration's options; call smh.advance_time with seconds: {left:g} to finish the jump.",
        title="SMH: simulated time jump not resumed",
        notification_id=f"smh_advance_time_{entry.entry_id}",
    )


def _trim(log: list[Any]) -> None:
    if len(log) > 2 * LOG_KEEP:
        del log[:-LOG_KEEP]


def _event(e: Any) -> dict[str, Any]:
    data = dataclasses.asdict(e)
    return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in data.items()}
