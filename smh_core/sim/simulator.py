"""The SimuHome layer: simulated time over a HomeEngine (clock, physics, appliances, rules).

Time is counted in 0.1 s ticks from the home's ``simulation.now``. ``advance`` does not step
every tick: it jumps from event to event — a schedule's time, a cron match, a "for" timer, an
appliance phase or programme end, an hour boundary (daylight), a room variable crossing a
thermostat target or an automation threshold — and integrates the room physics in closed form
between them (:mod:`.physics`). ``advance(..., exact=True)`` steps every tick instead; both
give the same state, which the test suite checks on random scenarios.

The simulator listens to the engine, so a change from anywhere (an agent's call, the Home
Assistant integration, a rule's action) starts programmes, re-lights rooms and fires rules at
once, at the current simulated time.

This module is the coordinator: the clock, event-to-event runs and reactions to changes. Its
parts live beside it, each a mixin over the simulator's state: room physics and the write-back
to the engine (:mod:`.room_tracks`), appliance programmes (:mod:`.appliances`), schedules and
automation rules (:mod:`.automations`), and the time base they share (:mod:`.timebase`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from smh_core.homeenv.cron import parse_cron
from smh_core.homeenv.engine import ENV_PREFIX, HomeEngine
from smh_core.homeenv.errors import Change
from smh_core.homeenv.plain import same_form
from smh_core.homeenv.shapes import DRIVEN_VARIABLES, AttrType, TimeTriggerShape

from .appliances import ApplianceCycles, ApplianceRun
from .automations import Automations
from .physics import DT, Track
from .room_tracks import RoomSensor, RoomTracks, track_inputs
from .timebase import (
    DEFAULT_START,
    MAX_REACTIONS,
    TICKS_PER_SECOND,
    US_PER_TICK,
    SimEvent,
    SimulationError,
)

if TYPE_CHECKING:  # either form of each (smh_core.homeenv.plain)
    from smh_core.homeenv.dynamics import Dynamics
    from smh_core.homeenv.model import Home
    from smh_core.homeenv.rules import Rule, ScheduledAction


class Simulator(RoomTracks, ApplianceCycles, Automations):
    """Simulated time for one engine. Call :meth:`close` to detach it from the engine."""

    def __init__(self, engine: HomeEngine, *, now: datetime | None = None) -> None:
        home = engine.home
        settings = home.simulation or same_form(home, "Simulation", {"now": now or DEFAULT_START})
        if now is not None:
            settings = settings.model_copy(update={"now": now})
        self.engine = engine
        self._settings = settings
        self._start = settings.now
        self._tick = 0
        self._outdoor = settings.outdoor
        self._drift = settings.drift
        self.log: list[SimEvent] = []
        self.windows = 0
        """Integration windows run so far (event-to-event jumps, or ticks when stepping)."""
        self._ids = itertools.count(1)

        self._rooms = engine.simulated_rooms()
        self._dyn: dict[str, Dynamics] = {}
        self._room_of: dict[str, str] = {}
        self._by_room: dict[str, list[str]] = {r: [] for r in self._rooms}
        self._sensors: dict[tuple[str, str], RoomSensor] = {}
        self._cycles: dict[str, ApplianceRun] = {}
        for did in engine.device_ids():
            dev = engine.device(did)
            if dev.dynamics is None:
                continue
            self._dyn[did] = dev.dynamics
            room = dev.userdata.room
            self._room_of[did] = room
            if room in self._by_room:
                self._by_room[room].append(did)
                specs = dict(dev.attributes_by_locator())
                for s in dev.dynamics.sensors:
                    a = specs[s.attr]
                    lo, hi = a.range if a.range is not None else (None, None)
                    self._sensors[(did, s.attr)] = RoomSensor(
                        room, s.variable, s.scale, a.type == AttrType.INT, lo, hi, a.precision
                    )
            if dev.dynamics.cycle is not None:
                self._cycles[did] = ApplianceRun(did, dev.dynamics.cycle)
        # devices whose state can change a room's light level at once (lamps, shades)
        self._lighting = {did for did, dyn in self._dyn.items() if dyn.lights or dyn.shades}
        # the attributes a room's tracks and light level are computed from, per device
        self._inputs = {did: track_inputs(dyn) for did, dyn in self._dyn.items()}
        self._readings = {
            did: frozenset(s.attr for s in dyn.sensors) for did, dyn in self._dyn.items()
        }
        self._env_of = {r: ENV_PREFIX + r for r in self._rooms}
        # devices whose change from outside the simulator can matter to it (a modelled room's
        # device or sensor, an appliance, a modelled room's values); a change of any other
        # matters only to a rule watching it (_on_changes)
        self._interest = frozenset(
            [did for did, room in self._room_of.items() if room in self._by_room]
            + list(self._cycles)
            + list(self._env_of.values())
        )
        self._sensor_list = list(self._sensors.items())
        self._sensors_in: dict[str, list[tuple[int, tuple[tuple[str, str], RoomSensor]]]] = {}
        for i, item in enumerate(self._sensor_list):
            self._sensors_in.setdefault(item[1].room, []).append((i, item))
        self._cycle_order = sorted(self._cycles.values(), key=lambda c: c.did)  # completion order
        self._cycle_rank = {did: i for i, did in enumerate(self._cycles)}
        self._x: dict[str, dict[str, float]] = {
            r: {v: float(engine.value(ENV_PREFIX + r, v)) for v in DRIVEN_VARIABLES}
            for r in self._rooms
        }

        self._schedules: dict[str, ScheduledAction] = {}
        self._rules: dict[str, Rule] = {}
        self._cron_next: dict[tuple[str, int], int | None] = {}
        self._timers: dict[tuple[str, int], int] = {}
        self._queue: list[tuple[list[Change], bool]] = []
        self._room_tracks: dict[str, tuple[tuple[str, Track], ...]] = {}
        # per room, the variables that can move: (variable, law, x* and 1 - a of a fixed law)
        self._moving: dict[str, tuple[tuple[str, Track, float | None, float], ...]] = {}
        self._lux_cache: dict[str, tuple[int, float]] = {}
        self._sources: dict[str, tuple[float, float, float | None]] = {}
        self._dirty: set[str] = set(
            self._rooms
        )  # rooms whose tracks and light level need rebuilding
        self._stale: set[str] = set()  # rooms written from outside: re-sync at the next window
        self._hour_span = (0, 0, -1)  # (first tick, end tick, hour) of the hour last looked up
        self._synced_hour = -1
        self._watch: dict[tuple[str, str], list[tuple[str, int]]] = {}
        # each room's own clock between events (see room_tracks): the tick its values are at,
        # its next own event (and the queue of them), rooms to plan again, rooms moved since
        # their last write; rules' thresholds as predicates, and the rooms and appliances that
        # rules watch (written at every event, as everything was before)
        self._lazy = False
        self._stepping = False
        self._at: dict[str, int] = dict.fromkeys(self._rooms, 0)
        self._views: dict[str, tuple[int, int, dict[str, float]]] = {}
        self._still: set[str] = set()
        self._due: dict[str, int] = {}
        self._queue_rooms: list[tuple[int, str]] = []
        self._replan: set[str] = set(self._rooms)
        self._unwritten: set[str] = set()
        self._watch_key: tuple[tuple[str, bool], ...] | None = None
        self._watched_now: dict[tuple[str, str], list[Callable[[float], bool]]] = {}
        self._watched_rooms: list[str] = []
        self._watched_cycles: set[str] = set()
        # appliances' next phase ends, queued (see appliances): programmes changed since they
        # were last queued, and those whose phase ends at the window's end
        self._cycle_next: dict[str, int] = {}
        self._cycle_queue: list[tuple[int, str]] = []
        self._cycles_touched: set[str] = set(self._cycles)
        self._cycle_check: set[str] = set()
        self._reacting = False
        self._writing = False
        self._own_batch: tuple[list[Change] | None, int] = (None, 0)
        for s in home.schedules or ():
            self._schedules[s.id] = s.model_copy(deep=True)
        for r in home.automations or ():
            self.add_rule(r)
        for cyc in self._cycles.values():
            self._resume_cycle(cyc)
        self._unsubscribe = engine.add_listener(self._on_changes)
        self._sync()

    # ------------------------------------------------------------------ clock
    @property
    def tick(self) -> int:
        return self._tick

    @property
    def now(self) -> datetime:
        return self.time_of(self._tick)

    def time_of(self, tick: int) -> datetime:
        return self._start + timedelta(microseconds=tick * US_PER_TICK)

    def tick_of(self, when: datetime) -> int:
        """The first tick at or after ``when``."""
        us = (when - self._start) // timedelta(microseconds=1)
        return -(-us // US_PER_TICK)

    def advance(self, seconds: float, *, exact: bool = False) -> None:
        """Let ``seconds`` of simulated time pass (rounded to whole ticks)."""
        if seconds < 0:
            raise ValueError(f"cannot advance by a negative time ({seconds} s)")
        self._run(self._tick + int(round(seconds * TICKS_PER_SECOND)), exact=exact)

    def run_until(
        self,
        until: datetime | Callable[[Simulator], bool],
        *,
        max_seconds: float = 7 * 86400,
        resolution: float = 1.0,
        exact: bool = False,
    ) -> bool:
        """Run to a time, or until ``until(sim)`` holds (checked at every event and at least every
        ``resolution`` seconds); returns whether it was reached within ``max_seconds``."""
        limit = self._tick + int(round(max_seconds * TICKS_PER_SECOND))
        if isinstance(until, datetime):
            target = self.tick_of(until)
            if target < self._tick:
                raise ValueError(f"{until} is in the past (now {self.now})")
            if target > limit:
                self._run(limit, exact=exact)
                return False
            self._run(target, exact=exact)
            return True
        if until(self):
            return True
        step = max(1, int(round(resolution * TICKS_PER_SECOND)))
        while self._tick < limit:
            if self._run(min(self._tick + step, limit), exact=exact, until=until):
                return True
        return False

    def _run(
        self, target: int, *, exact: bool, until: Callable[[Simulator], bool] | None = None
    ) -> bool:
        if exact:
            return self._run_ticks(target, until)
        return self._run_events(target, until)

    def _run_ticks(self, target: int, until: Callable[[Simulator], bool] | None) -> bool:
        """Every tick, every room: the reference the event-to-event run is checked against."""
        for room in self._rooms:
            self._catch_up(room)  # every room from its anchor to now, then tick by tick
        self._stepping = True
        try:
            self._fire_due()
            while self._tick < target:
                nxt = self._tick + 1
                self.windows += 1
                moved = self._integrate(1)
                self._tick = nxt
                self._sync_window(moved)
                self._fire_due()
                if until is not None and until(self):
                    return True
            return False
        finally:  # every room moved: each is at now, and plans its next event again
            self._stepping = False
            self._at = dict.fromkeys(self._rooms, self._tick)
            self._replan.update(self._rooms)

    def _run_events(self, target: int, until: Callable[[Simulator], bool] | None) -> bool:
        """Event to event. A window integrates and writes only the rooms something needs at
        its end (their own event, a change to their devices, a rule watching or reading them);
        the others catch up when they are next needed, and all of them when the run ends."""
        self._fire_due()
        self._refresh_watch()
        self._lazy = True
        try:
            while self._tick < target:
                self._replan_rooms()
                nxt, cycles = self._next_event(target)
                self.windows += 1
                self._tick = nxt
                self._run_room_events()
                self._sync_watched(cycles)
                self._fire_due()
                if until is not None:
                    self._flush()
                    if until(self):
                        return True
            return False
        finally:
            self._flush()
            self._lazy = False

    def _refresh_watch(self) -> None:
        """Rules' thresholds on room values as predicates, and the rooms and appliances rules
        watch, worked out again only when the rules (or which of them are enabled) changed."""
        key = tuple((rid, r.enabled) for rid, r in self._rules.items())
        if key == self._watch_key:
            return
        self._watch_key = key
        self._watched_now = self._watched_variables()
        rooms: set[str] = set()
        cycles: set[str] = set()
        for did, loc in self._watch:
            if did.startswith(ENV_PREFIX):
                room = did[len(ENV_PREFIX) :]
                if room in self._x:
                    rooms.add(room)
            elif (did, loc) in self._sensors:
                rooms.add(self._sensors[(did, loc)].room)
        # an appliance's phase and state change only at its phase ends, which are windows of
        # their own; its countdown changes all the time: written at every window only where a
        # rule watches it or a room's law reads it
        for did, cyc in self._cycles.items():
            countdown = cyc.spec.countdown_attr
            if (did, countdown) in self._watch or countdown in self._inputs.get(did, ()):
                cycles.add(did)
        self._watched_rooms = [r for r in self._rooms if r in rooms]
        self._watched_cycles = cycles
        self._replan.update(self._rooms)

    def _sync_watched(self, cycles: set[str]) -> None:
        """After a window: write what rules can see change now — the rooms they watch, rooms
        written from outside (to put their values back), the appliances whose phase ended and
        those rules watch."""
        stale = self._stale
        rooms = self._watched_rooms
        if stale:
            todo = stale.union(rooms)
            rooms = [r for r in self._rooms if r in todo]
            stale.clear()
        self._unwritten.difference_update(rooms)
        self._write(self._updates(rooms, cycles | self._watched_cycles))

    # ------------------------------------------------------------------ events
    def _next_event(self, limit: int) -> tuple[int, set[str]]:
        """The earliest tick in ``(now, limit]`` at which something happens (else ``limit``),
        and the appliances whose phase ends then."""
        now = self._tick
        best = limit
        for s in self._schedules.values():
            if s.status == "pending":
                best = min(best, max(self.tick_of(s.at), now + 1))
        for t in self._cron_next.values():
            if t is not None:
                best = min(best, max(t, now + 1))
        for t in self._timers.values():
            best = min(best, max(t, now + 1))
        self._plan_cycles()
        cycle_event = self._next_cycle_event()
        if cycle_event is not None:
            best = min(best, cycle_event)
        if self._watched_rooms:  # daylight changes what watched rooms and light sensors read
            t = self.time_of(now)
            nxt_hour = t.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
            best = min(best, self.tick_of(nxt_hour))
        room_event = self._next_room_event()
        if room_event is not None:
            best = min(best, room_event)
        best = max(best, now + 1)
        ending = self._cycles_ending(best) if cycle_event == best else set()
        self._cycle_check = ending
        return best, ending

    def _fire_due(self) -> None:
        for _ in range(MAX_REACTIONS):
            if not self._fire_one():
                return
        raise SimulationError(
            f"more than {MAX_REACTIONS} events at {self.now}; do rules trigger each other?"
        )

    def _fire_one(self) -> bool:
        now = self._tick
        # between events only an appliance whose phase ends now or whose programme changed
        # since can have finished; stepping every tick, any can
        cycles = (
            [self._cycles[did] for did in sorted(self._cycle_check | self._cycles_touched)]
            if self._lazy
            else self._cycle_order
        )
        for cyc in cycles:
            if cyc.seg_start is not None and cyc.left(now) <= 0:
                self._complete_cycle(cyc)
                return True
        if self._schedules:
            due = sorted(
                (
                    s
                    for s in self._schedules.values()
                    if s.status == "pending" and self.tick_of(s.at) <= now
                ),
                key=lambda s: (s.at, s.id),
            )
            if due:
                self._run_schedule(due[0])
                return True
        for key in (
            sorted(k for k, t in self._cron_next.items() if t is not None and t <= now)
            if self._cron_next
            else ()
        ):
            rule = self._rules[key[0]]
            trig = rule.triggers[key[1]]
            assert isinstance(trig, TimeTriggerShape)
            nxt = parse_cron(trig.cron).next_after(self.now)
            self._cron_next[key] = None if nxt is None else self.tick_of(nxt)
            self._fire_rule(rule, f"time {trig.cron}")
            return True
        for key in sorted(k for k, t in self._timers.items() if t <= now) if self._timers else ():
            del self._timers[key]
            rule = self._rules.get(key[0])
            if rule is not None and rule.enabled:
                self._fire_rule(rule, "held for its duration")
            return True
        return False

    # ------------------------------------------------------------------ reactions
    def _on_changes(self, changes: list[Change]) -> None:
        if not (self._writing or self._reacting or self._queue):
            # a change from outside (an HA call, an agent's) of devices that nothing here reads
            # (no modelled room, no appliance run, no rule watching it): nothing to react to,
            # and no reaction loop to start for it
            interest, watch = self._interest, self._watch
            for ch in changes:
                if ch.did in interest or (watch and (ch.did, ch.locator) in watch):
                    break
            else:
                return
        if self._reacting:
            self._queue.append((changes, self._writing))
            return
        self._reacting = True
        try:
            batch, from_sim = (
                changes,
                self._writing,
            )  # the usual case: no round trip through the queue
            if self._queue:  # left by a reaction loop that failed: the oldest goes first
                self._queue.append((batch, from_sim))
                batch, from_sim = self._queue.pop(0)
            for i in range(MAX_REACTIONS):
                if i:
                    if not self._queue:
                        return
                    batch, from_sim = self._queue.pop(0)
                self._react(batch, from_sim)
            raise SimulationError(
                f"more than {MAX_REACTIONS} reactions at {self.now}; do rules trigger each other?"
            )
        finally:
            self._reacting = False

    def _react(self, changes: list[Change], from_sim: bool) -> None:
        if from_sim:
            self._react_own(changes)
            return
        relight: set[str] = set()
        started: list[Change] = []
        retimed: dict[str, ApplianceRun] = {}
        for ch in changes:
            if ch.did.startswith(ENV_PREFIX):
                room = ch.did[len(ENV_PREFIX) :]
                if not from_sim and room in self._x:
                    if ch.locator in DRIVEN_VARIABLES:
                        self._catch_up(room)  # the other values up to now first
                        self._x[room][ch.locator] = float(ch.after)
                        self._replan.add(room)
                    self._stale.add(room)
            else:
                self._mark(ch, from_sim)
                cyc = self._cycles.get(ch.did)
                if cyc is not None:
                    self._cycles_touched.add(ch.did)
                if cyc is not None and ch.locator == cyc.spec.state_attr:
                    started.append(ch)
                elif cyc is not None and ch.locator in cyc.spec.timing_attrs():
                    retimed[ch.did] = cyc
                if ch.did in self._lighting and not from_sim:
                    room = self._room_of[ch.did]
                    if room in self._by_room:
                        relight.add(room)
        for ch in started:
            if ch.did not in retimed:
                self._cycle_changed(self._cycles[ch.did], ch.before, ch.after)
        for (
            cyc
        ) in retimed.values():  # a countdown or length given with the state: the device's word
            self._cycle_retimed(cyc)
        for ch in changes:
            self._trigger_on_change(ch)
        if relight:
            self._sync(rooms=relight, cycles=())

    def _react_own(self, changes: list[Change]) -> None:
        """:meth:`_react` to the simulator's own writes (room values, readings, countdowns),
        the bulk of all changes: they fire rules, and re-light nothing; the one loop skips
        room values, which only rules watch."""
        inputs, cycles, watch = self._inputs, self._cycles, self._watch
        batch, rooms = self._own_batch  # a batch _write made starts with its room values
        for ch in changes[rooms:] if batch is changes else changes:
            did = ch.did
            if did not in inputs:  # room values and devices without dynamics: nothing to mark
                continue
            if ch.locator in inputs[did]:
                self._mark(ch, True)
            cyc = cycles.get(did)
            if cyc is not None and ch.locator == cyc.spec.state_attr:
                self._cycles_touched.add(did)
                self._cycle_changed(cyc, ch.before, ch.after)
        if watch:
            for ch in changes:
                if (ch.did, ch.locator) in watch:
                    self._trigger_on_change(ch)

    # ------------------------------------------------------------------ persistence
    def to_home(self) -> Home:
        """The whole simulated home: device and room state, clock, schedules and rules."""
        home = self.engine.to_home()
        sim = self._settings.model_copy(update={"now": self.now})
        return home.model_copy(
            update={
                "simulation": sim,
                "schedules": [s.model_copy(deep=True) for s in self.schedules(include_done=True)]
                or None,
                "automations": [r.model_copy(deep=True) for r in self._rules.values()] or None,
            }
        )

    def close(self) -> None:
        self._unsubscribe()

    def __enter__(self) -> Simulator:
        return self

    def __exit__(self, *exc: object) -> None:
        """``with Simulator(engine) as sim:`` stops listening to the engine on the way out."""
        self.close()


__all__ = ["DEFAULT_START", "DT", "SimEvent", "SimulationError", "Simulator", "TICKS_PER_SECOND"]
