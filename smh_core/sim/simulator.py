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
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from smh_core.homeenv.cron import parse_cron
from smh_core.homeenv.dynamics import DRIVEN_VARIABLES, Cycle, Dynamics, air_quality_class
from smh_core.homeenv.engine import ENV_PREFIX, HomeEngine
from smh_core.homeenv.errors import Change
from smh_core.homeenv.model import AttrType, Home
from smh_core.homeenv.rules import (
    Action,
    NumericCondition,
    NumericTrigger,
    Rule,
    ScheduledAction,
    Simulation,
    StateCondition,
    TimeCondition,
    TimeTrigger,
)

from .physics import DT, Pull, Track
from .triggers import edge, in_band, same, time_condition_holds

TICKS_PER_SECOND = 10
DEFAULT_START = datetime(2025, 6, 27, 12, 0, 0)
_US_PER_TICK = 100_000
_MAX_REACTIONS = 10_000


class SimulationError(RuntimeError):
    """The simulation cannot go on (e.g. rules that keep triggering each other forever)."""


@dataclass(slots=True)
class SimEvent:
    """Something the simulator did on its own, for logs, traces and tests."""

    time: datetime
    kind: str  # schedule | rule | cycle_complete
    ref: str
    ok: bool = True
    detail: str = ""


@dataclass(slots=True)
class _Cycle:
    did: str
    spec: Cycle
    phase_ends: list[int] = field(default_factory=list)  # cumulative ticks at each phase end
    remaining: int = 0  # ticks left when the current running segment began (or now, if paused)
    seg_start: int | None = None  # tick the current running segment began; None unless running

    @property
    def total(self) -> int:
        return self.phase_ends[-1] if self.phase_ends else 0

    def left(self, tick: int) -> int:
        return self.remaining - (tick - self.seg_start) if self.seg_start is not None else self.remaining

    def phase(self, tick: int) -> int:
        done = self.total - self.left(tick)
        for i, end in enumerate(self.phase_ends):
            if done < end:
                return i
        return max(len(self.phase_ends) - 1, 0)


@dataclass(slots=True)
class _Sensor:
    room: str
    variable: str
    scale: float
    is_int: bool
    lo: float | None
    hi: float | None
    precision: float | None = None

    def reading(self, x: float) -> float | int:
        """The attribute value for room value ``x``: scaled, clamped to the attribute's range,
        rounded to its precision (0.01 when it has none)."""
        v = x * self.scale
        if self.lo is not None:
            v = max(v, self.lo)
        if self.hi is not None:
            v = min(v, self.hi)
        if self.is_int:
            return int(round(v))
        step = self.precision or 0.01
        return round(round(v / step) * step, 6)


def _inputs(dyn: Dynamics) -> frozenset[str]:
    """The attributes a device's pulls, lamps and shades are computed from: a change to any of
    them changes its room's tracks or light level; a change to anything else cannot."""
    out: set[str] = set()
    for d in dyn.drives:
        out.update(w.attr for w in d.active_when)
        out.update(a for a in (d.target_attr, d.scale_attr) if a)
    for li in dyn.lights:
        out.update(w.attr for w in li.active_when)
        if li.level_attr:
            out.add(li.level_attr)
    out.update(sh.open_attr for sh in dyn.shades)
    return frozenset(out)


class Simulator:
    """Simulated time for one engine. Call :meth:`close` to detach it from the engine."""

    def __init__(self, engine: HomeEngine, *, now: datetime | None = None) -> None:
        home = engine.home
        settings = home.simulation or Simulation(now=now or DEFAULT_START)
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
        self._sensors: dict[tuple[str, str], _Sensor] = {}
        self._cycles: dict[str, _Cycle] = {}
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
                    self._sensors[(did, s.attr)] = _Sensor(room, s.variable, s.scale,
                                                           a.type == AttrType.INT, lo, hi, a.precision)
            if dev.dynamics.cycle is not None:
                self._cycles[did] = _Cycle(did, dev.dynamics.cycle)
        # devices whose state can change a room's light level at once (lamps, shades)
        self._lighting = {did for did, dyn in self._dyn.items() if dyn.lights or dyn.shades}
        # the attributes a room's tracks and light level are computed from, per device
        self._inputs = {did: _inputs(dyn) for did, dyn in self._dyn.items()}
        self._readings = {did: frozenset(s.attr for s in dyn.sensors) for did, dyn in self._dyn.items()}
        self._sensor_list = list(self._sensors.items())
        self._cycle_order = sorted(self._cycles.values(), key=lambda c: c.did)  # completion order
        self._x: dict[str, dict[str, float]] = {
            r: {v: float(engine.value(ENV_PREFIX + r, v)) for v in DRIVEN_VARIABLES} for r in self._rooms}

        self._schedules: dict[str, ScheduledAction] = {}
        self._rules: dict[str, Rule] = {}
        self._cron_next: dict[tuple[str, int], int | None] = {}
        self._timers: dict[tuple[str, int], int] = {}
        self._queue: list[tuple[list[Change], bool]] = []
        self._room_tracks: dict[str, tuple[tuple[str, Track], ...]] = {}
        self._lux_cache: dict[str, tuple[int, float]] = {}
        self._sources: dict[str, tuple[float, float, float | None]] = {}
        self._dirty: set[str] = set(self._rooms)  # rooms whose tracks and light level need rebuilding
        self._stale: set[str] = set()  # rooms written from outside: re-sync at the next window
        self._hour_span = (0, 0, -1)  # (first tick, end tick, hour) of the hour last looked up
        self._synced_hour = -1
        self._watch: dict[tuple[str, str], list[tuple[str, int]]] = {}
        self._reacting = False
        self._writing = False
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
        return self._start + timedelta(microseconds=tick * _US_PER_TICK)

    def tick_of(self, when: datetime) -> int:
        """The first tick at or after ``when``."""
        us = (when - self._start) // timedelta(microseconds=1)
        return -(-us // _US_PER_TICK)

    def advance(self, seconds: float, *, exact: bool = False) -> None:
        """Let ``seconds`` of simulated time pass (rounded to whole ticks)."""
        if seconds < 0:
            raise ValueError(f"cannot advance by a negative time ({seconds} s)")
        self._run(self._tick + int(round(seconds * TICKS_PER_SECOND)), exact=exact)

    def run_until(self, until: datetime | Callable[[Simulator], bool], *, max_seconds: float = 7 * 86400,
                  resolution: float = 1.0, exact: bool = False) -> bool:
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

    def _run(self, target: int, *, exact: bool, until: Callable[[Simulator], bool] | None = None) -> bool:
        self._fire_due()
        while self._tick < target:
            nxt = self._tick + 1 if exact else self._next_event(target)
            self.windows += 1
            moved = self._integrate(nxt - self._tick)
            self._tick = nxt
            self._sync_window(moved)
            self._fire_due()
            if until is not None and until(self):
                return True
        return False

    # ------------------------------------------------------------------ physics
    def _tracks_of(self, room: str) -> tuple[tuple[str, Track], ...]:
        """The room's law per driven variable, rebuilt only after a change to one of the
        attributes it is computed from (see :meth:`_mark`), not every window."""
        if room in self._dirty:
            self._refresh(room)
        return self._room_tracks[room]

    def _refresh(self, room: str) -> None:
        self._dirty.discard(room)
        self._lux_cache.pop(room, None)
        self._sources.pop(room, None)
        self._room_tracks[room] = tuple((v, self._build_track(room, v)) for v in DRIVEN_VARIABLES)

    def _build_track(self, room: str, var: str) -> Track:
        pulls = []
        for did in self._by_room[room]:
            state = self.engine.state_view(did)
            for d in self._dyn[did].drives:
                if d.variable != var or not all(w.holds(state[w.attr]) for w in d.active_when):
                    continue
                target = d.target if d.target is not None else float(state[d.target_attr]) * d.target_scale
                scale = 1.0
                if d.scale_attr is not None:
                    raw = state[d.scale_attr]
                    if d.scale_map is not None:
                        scale = d.scale_map.get(str(raw), 0.0)
                    elif isinstance(raw, (int, float)) and not isinstance(raw, bool):
                        scale = max(0.0, min(1.0, raw / d.scale_max))
                    else:
                        scale = 0.0
                if scale > 0:
                    pulls.append(Pull(d.rate * scale, target, d.direction, d.output))
        outdoor = float(getattr(self._outdoor, var))
        return Track(self._drift.get(var, 0.0), outdoor, tuple(pulls))

    def _integrate(self, n: int) -> set[str]:
        """Move every room's variables ``n`` ticks on; returns the rooms where one moved."""
        moved: set[str] = set()
        if n <= 0:
            return moved
        xs = self._x
        for room in self._rooms:
            x = xs[room]
            changed = False
            for var, track in self._tracks_of(room):
                x0 = x[var]
                fixed = track.fixed
                if fixed is None:
                    x1 = track.step(x0, n)
                elif fixed[0] == 0:
                    continue
                else:  # Track.at inlined (the per-tick hot path): the same arithmetic
                    star = fixed[1] / fixed[0]
                    x1 = star + (x0 - star) * (1.0 - fixed[0]) ** n
                if x1 != x0:
                    x[var] = x1
                    changed = True
            if changed:
                moved.add(room)
        return moved

    def _hour(self, tick: int) -> int:
        """The hour of day at ``tick``, worked out once per simulated hour (daylight changes
        hourly; date arithmetic on every tick was a tenth of a tick's cost)."""
        lo, hi, hour = self._hour_span
        if lo <= tick < hi:
            return hour
        t = self.time_of(tick)
        top = t.replace(minute=0, second=0, microsecond=0)
        self._hour_span = (self.tick_of(top), self.tick_of(top + timedelta(hours=1)), t.hour)
        return t.hour

    def _illuminance(self, room: str, tick: int) -> float:
        hour = self._hour(tick)
        if room in self._dirty:
            self._refresh(room)
        hit = self._lux_cache.get(room)
        if hit is not None and hit[0] == hour:
            return hit[1]
        lux = self._compute_illuminance(room, hour)
        self._lux_cache[room] = (hour, lux)
        return lux

    def _compute_illuminance(self, room: str, hour: int) -> float:
        lamps, window, shade = self._light_sources(room)
        daylight = self._outdoor.daylight[hour] * window
        if shade is not None:
            daylight *= shade
        return round(lamps + daylight, 2)

    def _light_sources(self, room: str) -> tuple[float, float, float | None]:
        """``(base + lamps lux, window factor, mean shade opening or None)``: the part of the
        light level that does not change with the hour, kept until the room is dirty."""
        hit = self._sources.get(room)
        if hit is not None:
            return hit
        r = self.engine.room(room)
        base = r.environment.base_lux if r and r.environment else 0.0
        window = r.environment.window_factor if r and r.environment else 0.0
        lux = base
        shades: list[float] = []
        for did in self._by_room[room]:
            dyn = self._dyn[did]
            state = self.engine.state_view(did)
            for li in dyn.lights:
                if all(w.holds(state[w.attr]) for w in li.active_when):
                    level = 1.0
                    if li.level_attr is not None:
                        raw = state[li.level_attr]
                        level = max(0.0, min(1.0, float(raw) / li.level_max)) if raw is not None else 0.0
                    lux += li.lux * level
            for sh in dyn.shades:
                raw = state[sh.open_attr]
                frac = max(0.0, min(1.0, float(raw) / sh.open_max)) if raw is not None else 1.0
                shades.append(1.0 - frac if sh.inverted else frac)
        out = (lux, window, sum(shades) / len(shades) if shades else None)
        self._sources[room] = out
        return out

    # ------------------------------------------------------------------ events
    def _next_event(self, limit: int) -> int:
        """The earliest tick in ``(now, limit]`` at which something happens (else ``limit``)."""
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
        for cyc in self._cycles.values():
            if cyc.seg_start is not None:
                done = cyc.total - cyc.left(now)
                for end in cyc.phase_ends:
                    if end > done:
                        best = min(best, now + (end - done))
                        break
        if self._rooms:
            t = self.time_of(now)
            nxt_hour = (t.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1))
            best = min(best, self.tick_of(nxt_hour))
        horizon = best - now
        if horizon <= 1:
            return max(best, now + 1)
        watched = self._watched_variables()
        for room in self._rooms:
            xs = self._x[room]
            for var, track in self._tracks_of(room):
                x = xs[var]
                if track.fixed is None:
                    n = track.next_switch(x, horizon)
                    if n is not None:
                        horizon = n
                for pred in watched.get((room, var), ()):
                    if pred(x):
                        continue
                    m = track.first_tick(x, horizon, pred)
                    if m is not None:
                        horizon = m
        return now + max(horizon, 1)

    def _watched_variables(self) -> dict[tuple[str, str], list[Callable[[float], bool]]]:
        """Numeric triggers on room variables or on sensors that report them, as predicates on
        the room variable (so physics can stop exactly at the crossing tick)."""
        out: dict[tuple[str, str], list[Callable[[float], bool]]] = {}
        for rule in self._rules.values():
            if not rule.enabled:
                continue
            for trig in rule.triggers:
                if not isinstance(trig, NumericTrigger):
                    continue
                above, below = trig.above, trig.below
                if trig.did.startswith(ENV_PREFIX):
                    room = trig.did[len(ENV_PREFIX):]
                    if trig.locator in DRIVEN_VARIABLES and room in self._x:
                        out.setdefault((room, trig.locator), []).append(
                            lambda x, a=above, b=below: in_band(x, a, b))
                    continue
                sensor = self._sensors.get((trig.did, trig.locator))
                if sensor is not None and sensor.variable in DRIVEN_VARIABLES:
                    out.setdefault((sensor.room, sensor.variable), []).append(
                        lambda x, s=sensor, a=above, b=below: in_band(s.reading(x), a, b))
        return out

    def _fire_due(self) -> None:
        for _ in range(_MAX_REACTIONS):
            if not self._fire_one():
                return
        raise SimulationError(f"more than {_MAX_REACTIONS} events at {self.now}; do rules trigger each other?")

    def _fire_one(self) -> bool:
        now = self._tick
        for cyc in self._cycle_order:
            if cyc.seg_start is not None and cyc.left(now) <= 0:
                self._complete_cycle(cyc)
                return True
        if self._schedules:
            due = sorted((s for s in self._schedules.values() if s.status == "pending" and self.tick_of(s.at) <= now),
                         key=lambda s: (s.at, s.id))
            if due:
                self._run_schedule(due[0])
                return True
        for key in sorted(k for k, t in self._cron_next.items() if t is not None and t <= now):
            rule = self._rules[key[0]]
            trig = rule.triggers[key[1]]
            assert isinstance(trig, TimeTrigger)
            nxt = parse_cron(trig.cron).next_after(self.now)
            self._cron_next[key] = None if nxt is None else self.tick_of(nxt)
            self._fire_rule(rule, f"time {trig.cron}")
            return True
        for key in sorted(k for k, t in self._timers.items() if t <= now):
            del self._timers[key]
            rule = self._rules.get(key[0])
            if rule is not None and rule.enabled:
                self._fire_rule(rule, "held for its duration")
            return True
        return False

    # ------------------------------------------------------------------ state sync
    def _sync(self, rooms: Iterable[str] | None = None, cycles: Iterable[str] | None = None) -> None:
        """Write room variables, sensor readings, lux, countdowns and phases into the engine
        (for the given rooms and appliances only, or everything)."""
        order = self._rooms if rooms is None else sorted(set(rooms))
        self._write(self._updates(order, cycles))

    def _sync_window(self, moved: set[str]) -> None:
        """:meth:`_sync` after a window, for the rooms whose values can differ from what the
        engine holds: those the physics moved, those written from outside since, and every
        room when the hour (daylight) changed. The others would write nothing."""
        hour = self._hour(self._tick)
        if hour != self._synced_hour:
            self._synced_hour = hour
            order = self._rooms
        else:
            todo = moved | self._stale
            order = [r for r in self._rooms if r in todo] if todo else []
        self._stale.clear()
        self._write(self._updates(order, None))

    def _updates(self, rooms: list[str], cycles: Iterable[str] | None) -> dict[str, dict[str, Any]]:
        """What :meth:`_sync` writes: room values first (in ``rooms`` order), then sensors,
        then appliance countdowns, each only where it differs from the engine's."""
        eng = self.engine
        updates: dict[str, dict[str, Any]] = {}
        for room in rooms:
            x = self._x[room]
            cur = eng.state_view(ENV_PREFIX + room)
            new = (("temperature", x["temperature"]), ("humidity", x["humidity"]),
                   ("illuminance", self._illuminance(room, self._tick)), ("pm25", x["pm25"]), ("pm10", x["pm10"]),
                   ("air_quality", air_quality_class(x["pm25"])))
            diff = {k: v for k, v in new if cur[k] != v}  # never booleans here: plain != is same()
            if diff:
                updates[ENV_PREFIX + room] = diff
        if rooms:
            room_set = set(rooms)
            xs, view = self._x, eng.state_view
            for (did, loc), s in self._sensor_list:
                if s.room not in room_set:
                    continue
                variable = s.variable
                if variable == "air_quality":
                    val: Any = air_quality_class(xs[s.room]["pm25"])
                elif variable == "illuminance":
                    val = s.reading(updates.get(ENV_PREFIX + s.room, {}).get(
                        "illuminance", view(ENV_PREFIX + s.room)["illuminance"]))
                else:
                    val = s.reading(xs[s.room][variable])
                cur = view(did)[loc]
                # same(), inlined: readings are numbers or words, never booleans against numbers
                if cur != val or isinstance(cur, bool) != isinstance(val, bool):
                    updates.setdefault(did, {})[loc] = val
        for did, cyc in self._cycles.items():
            if cyc.seg_start is None or (cycles is not None and did not in cycles):
                continue
            vals = {cyc.spec.countdown_attr: max(0, -(-cyc.left(self._tick) // TICKS_PER_SECOND))}
            if cyc.spec.phase_attr:
                vals[cyc.spec.phase_attr] = cyc.phase(self._tick)
            for loc, v in vals.items():
                if not same(eng.value(did, loc), v):
                    updates.setdefault(did, {})[loc] = v
        return updates

    def _write(self, updates: Mapping[str, Mapping[str, Any]]) -> None:
        """Commit the simulator's own values (valid by construction: see ``set_many_trusted``)."""
        if not updates:
            return
        self._writing = True
        try:
            self.engine.set_many_trusted(updates)
        finally:
            self._writing = False

    # ------------------------------------------------------------------ reactions
    def _on_changes(self, changes: list[Change]) -> None:
        self._queue.append((changes, self._writing))
        if self._reacting:
            return
        self._reacting = True
        try:
            for _ in range(_MAX_REACTIONS):
                if not self._queue:
                    return
                batch, from_sim = self._queue.pop(0)
                self._react(batch, from_sim)
            raise SimulationError(f"more than {_MAX_REACTIONS} reactions at {self.now}; "
                                  "do rules trigger each other?")
        finally:
            self._reacting = False

    def _react(self, changes: list[Change], from_sim: bool) -> None:
        if from_sim:
            self._react_own(changes)
            return
        relight: set[str] = set()
        for ch in changes:
            if ch.did.startswith(ENV_PREFIX):
                room = ch.did[len(ENV_PREFIX):]
                if not from_sim and room in self._x:
                    if ch.locator in DRIVEN_VARIABLES:
                        self._x[room][ch.locator] = float(ch.after)
                    self._stale.add(room)
            else:
                self._mark(ch, from_sim)
                cyc = self._cycles.get(ch.did)
                if cyc is not None and ch.locator == cyc.spec.state_attr:
                    self._cycle_changed(cyc, ch.before, ch.after)
                if ch.did in self._lighting and not from_sim:
                    room = self._room_of[ch.did]
                    if room in self._by_room:
                        relight.add(room)
        for ch in changes:
            self._trigger_on_change(ch)
        if relight:
            self._sync(rooms=relight, cycles=())

    def _react_own(self, changes: list[Change]) -> None:
        """:meth:`_react` to the simulator's own writes (room values, readings, countdowns),
        the bulk of all changes: they fire rules, and re-light nothing; the one loop skips
        room values, which only rules watch."""
        inputs, cycles, watch = self._inputs, self._cycles, self._watch
        for ch in changes:
            ins = inputs.get(ch.did)
            if ins is not None and ch.locator in ins:
                self._mark(ch, True)
            cyc = cycles.get(ch.did)
            if cyc is not None and ch.locator == cyc.spec.state_attr:
                self._cycle_changed(cyc, ch.before, ch.after)
        if watch:
            for ch in changes:
                if (ch.did, ch.locator) in watch:
                    self._trigger_on_change(ch)

    def _mark(self, ch: Change, from_sim: bool) -> None:
        """Dirty-room tracking: a device change rebuilds its room's tracks and light level, and
        re-syncs the room at the next window, only if it touches an attribute they are computed
        from; a reading written from outside re-syncs the room too (to put the reading back).
        Anything else (a washer's countdown, a setting no physics reads) and every other room
        are left alone."""
        room = self._room_of.get(ch.did)
        if room is None or room not in self._by_room:
            return
        if ch.locator in self._inputs[ch.did]:
            self._dirty.add(room)
            self._stale.add(room)
        elif not from_sim and ch.locator in self._readings[ch.did]:
            self._stale.add(room)

    # ------------------------------------------------------------------ appliances
    def _load_program(self, cyc: _Cycle) -> None:
        mode = self.engine.value(cyc.did, cyc.spec.mode_attr) if cyc.spec.mode_attr else None
        ends, acc = [], 0
        for ph in cyc.spec.program(mode):
            acc += ph.seconds * TICKS_PER_SECOND
            ends.append(acc)
        cyc.phase_ends = ends
        cyc.remaining = acc

    def _resume_cycle(self, cyc: _Cycle) -> None:
        """Rebuild a programme's progress from the device state (a home loaded mid-cycle)."""
        state = self.engine.value(cyc.did, cyc.spec.state_attr)
        if same(state, cyc.spec.running) or same(state, cyc.spec.paused):
            self._load_program(cyc)
            left = self.engine.value(cyc.did, cyc.spec.countdown_attr)
            if isinstance(left, int) and 0 < left * TICKS_PER_SECOND <= cyc.total:
                cyc.remaining = left * TICKS_PER_SECOND
            cyc.seg_start = self._tick if same(state, cyc.spec.running) else None

    def _cycle_changed(self, cyc: _Cycle, old: Any, new: Any) -> None:
        spec = cyc.spec
        if same(new, spec.running):
            if not same(old, spec.paused) or cyc.remaining <= 0:
                self._load_program(cyc)
            cyc.seg_start = self._tick
        elif same(new, spec.paused):
            if cyc.seg_start is not None:
                cyc.remaining = cyc.left(self._tick)
            cyc.seg_start = None
        else:
            cyc.seg_start, cyc.remaining = None, 0
            if not same(self.engine.value(cyc.did, spec.countdown_attr), 0):
                self._write({cyc.did: {spec.countdown_attr: 0}})
            return
        self._sync(rooms=(), cycles=(cyc.did,))

    def _complete_cycle(self, cyc: _Cycle) -> None:
        spec = cyc.spec
        cyc.seg_start, cyc.remaining = None, 0
        vals = {spec.countdown_attr: 0, **spec.on_complete}
        if spec.state_attr not in vals:
            vals[spec.state_attr] = spec.stopped
        self.log.append(SimEvent(self.now, "cycle_complete", cyc.did))
        self.engine.set_values(cyc.did, vals)

    def cycle_end(self, did: str) -> datetime | None:
        """When the appliance's running programme will finish (``None`` if it is not running)."""
        cyc = self._cycles.get(did)
        if cyc is None or cyc.seg_start is None:
            return None
        return self.time_of(self._tick + cyc.left(self._tick))

    # ------------------------------------------------------------------ schedules
    def schedule(self, at: datetime, actions: Iterable[Action | Mapping[str, Any]],
                 schedule_id: str | None = None) -> ScheduledAction:
        """Register actions to run at ``at``; devices and services are checked now."""
        acts = [a if isinstance(a, Action) else Action.model_validate(a) for a in actions]
        if not acts:
            raise ValueError("a schedule needs at least one action")
        if self.tick_of(at) < self._tick:
            raise ValueError(f"cannot schedule at {at.isoformat()}: it is already {self.now.isoformat()}")
        for a in acts:
            self._check_action(a)
        sid = schedule_id or f"s{next(self._ids)}"
        while sid in self._schedules:
            sid = f"s{next(self._ids)}"
        item = ScheduledAction(id=sid, at=at, actions=acts)
        self._schedules[sid] = item
        return item

    def cancel(self, schedule_id: str) -> ScheduledAction:
        item = self._schedules.get(schedule_id)
        if item is None:
            raise KeyError(f"no schedule {schedule_id!r}; schedules: {sorted(self._schedules)}")
        if item.status != "pending":
            raise ValueError(f"schedule {schedule_id!r} is already {item.status}")
        item.status = "cancelled"
        return item

    def schedules(self, include_done: bool = False) -> list[ScheduledAction]:
        items = sorted(self._schedules.values(), key=lambda s: (s.at, s.id))
        return [s for s in items if include_done or s.status == "pending"]

    def _check_action(self, a: Action) -> None:
        eng = self.engine
        if a.did not in eng.device_ids():
            raise ValueError(f"action names unknown device {a.did!r}")
        dev_locs = set(eng.services(a.did)) | set(eng.status(a.did))
        if a.locator not in dev_locs:
            raise ValueError(f"device {a.did} has no service or attribute {a.locator!r}")

    def _run_schedule(self, item: ScheduledAction) -> None:
        results = [self.engine.execute(a.did, a.locator, a.arguments) for a in item.actions]
        errors = [r.error.message for r in results if not r.ok and r.error is not None]
        item.status = "failed" if errors else "done"
        item.error = "; ".join(errors) or None
        self.log.append(SimEvent(self.now, "schedule", item.id, ok=not errors, detail=item.error or ""))

    # ------------------------------------------------------------------ rules
    def add_rule(self, rule: Rule | Mapping[str, Any]) -> Rule:
        """Store a rule (replacing one with the same id); cron and references are checked."""
        r = rule if isinstance(rule, Rule) else Rule.model_validate(rule)
        for trig in r.triggers:
            if isinstance(trig, TimeTrigger):
                parse_cron(trig.cron)
            else:
                self._check_ref(trig.did, trig.locator)
        for cond in r.conditions:
            if not isinstance(cond, TimeCondition):
                self._check_ref(cond.did, cond.locator)
        for a in r.actions:
            self._check_action(a)
        self.remove_rule(r.id, missing_ok=True)
        self._rules[r.id] = r
        for i, trig in enumerate(r.triggers):
            if isinstance(trig, TimeTrigger):
                nxt = parse_cron(trig.cron).next_after(self.now)
                self._cron_next[(r.id, i)] = None if nxt is None else self.tick_of(nxt)
            else:
                self._watch.setdefault((trig.did, trig.locator), []).append((r.id, i))
        return r

    def remove_rule(self, rule_id: str, *, missing_ok: bool = False) -> None:
        if rule_id not in self._rules:
            if missing_ok:
                return
            raise KeyError(f"no rule {rule_id!r}; rules: {sorted(self._rules)}")
        del self._rules[rule_id]
        for ref, keys in list(self._watch.items()):
            keys[:] = [k for k in keys if k[0] != rule_id]
            if not keys:
                del self._watch[ref]
        for d in (self._cron_next, self._timers):
            for key in [k for k in d if k[0] == rule_id]:
                del d[key]

    def rules(self) -> list[Rule]:
        return list(self._rules.values())

    def _check_ref(self, did: str, locator: str) -> None:
        try:
            self.engine.value(did, locator)
        except KeyError:
            raise ValueError(f"rule refers to unknown {did!r}/{locator!r}") from None

    def _trigger_on_change(self, ch: Change) -> None:
        for key in list(self._watch.get((ch.did, ch.locator), ())):
            rule = self._rules.get(key[0])
            if rule is None or not rule.enabled:
                continue
            trig = rule.triggers[key[1]]
            assert not isinstance(trig, TimeTrigger)  # time triggers are never watched
            entered, left = edge(trig, ch.before, ch.after)
            if left:
                self._timers.pop(key, None)
            if entered:
                if trig.for_s:
                    self._timers[key] = self._tick + int(round(trig.for_s * TICKS_PER_SECOND))
                else:
                    self._fire_rule(rule, f"{trig.kind} {trig.did}/{trig.locator}")

    def _conditions_hold(self, rule: Rule) -> bool:
        for c in rule.conditions:
            if isinstance(c, TimeCondition):
                if not time_condition_holds(c, self.now):
                    return False
                continue
            value = self.engine.value(c.did, c.locator)
            if isinstance(c, StateCondition):
                if c.in_ is not None:
                    if not any(same(value, v) for v in c.in_):
                        return False
                elif not same(value, c.equals):
                    return False
            elif isinstance(c, NumericCondition) and not in_band(value, c.above, c.below):
                return False
        return True

    def _fire_rule(self, rule: Rule, why: str) -> None:
        if not self._conditions_hold(rule):
            return
        results = [self.engine.execute(a.did, a.locator, a.arguments) for a in rule.actions]
        errors = [r.error.message for r in results if not r.ok and r.error is not None]
        self.log.append(SimEvent(self.now, "rule", rule.id, ok=not errors,
                                 detail="; ".join([why, *errors])))

    # ------------------------------------------------------------------ persistence
    def to_home(self) -> Home:
        """The whole simulated home: device and room state, clock, schedules and rules."""
        home = self.engine.to_home()
        sim = self._settings.model_copy(update={"now": self.now})
        return home.model_copy(update={
            "simulation": sim,
            "schedules": [s.model_copy(deep=True) for s in self.schedules(include_done=True)] or None,
            "automations": [r.model_copy(deep=True) for r in self._rules.values()] or None,
        })

    def close(self) -> None:
        self._unsubscribe()

    def __enter__(self) -> Simulator:
        return self

    def __exit__(self, *exc: object) -> None:
        """``with Simulator(engine) as sim:`` stops listening to the engine on the way out."""
        self.close()


__all__ = ["DEFAULT_START", "DT", "SimEvent", "SimulationError", "Simulator", "TICKS_PER_SECOND"]
