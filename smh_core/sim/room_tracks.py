"""Room physics as the simulator keeps it: each room's law per driven variable (tracks,
rebuilt only when an attribute they are computed from changes), its light level per hour,
the closed-form integration between events, and the write-back of room values, sensor
readings and countdowns to the engine (only what differs, without re-validation).

Between events each room keeps its own clock (issue 37): a room is integrated only up to the
times something needs it — its own next event (its law switching, a watched threshold), a
change to one of its devices, a rule reading it, the end of the run — so a window costs the
rooms it touches, not every room of the home."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from smh_core.homeenv.engine import ENV_PREFIX
from smh_core.homeenv.errors import Change, new_change
from smh_core.homeenv.shapes import DRIVEN_VARIABLES, air_quality_class

from .physics import Pull, Track
from .timebase import queue_due, queue_head

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from smh_core.homeenv.dynamics import Drive, Dynamics

type Updates = tuple[dict[str, dict[str, Any]], list[Change], int]
"""What :meth:`RoomTracks._updates` returns: the values to write, per device, the changes
writing them makes, and how many of those (the first ones) are room values."""

PLAN_TICKS = 864_000
"""How far ahead (one simulated day) a room's next event is looked for; a room with nothing
due within it is looked at again then, so a plan never depends on how long a run is."""


@dataclass(slots=True)
class RoomSensor:
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
        lo, hi = self.lo, self.hi
        if lo is not None and lo > v:  # max(v, lo) and min(v, hi), without the calls
            v = lo
        if hi is not None and hi < v:
            v = hi
        if self.is_int:
            return int(round(v))
        step = self.precision or 0.01
        return round(round(v / step) * step, 6)


def track_inputs(dyn: Dynamics) -> frozenset[str]:
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


def _pull(d: Drive, state: Mapping[str, Any]) -> Pull | None:
    """The drive's pull on its variable in the device's ``state``: ``None`` while a condition
    does not hold or its setting is at zero."""
    if not all(w.holds(state[w.attr]) for w in d.active_when):
        return None
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
    return Pull(d.rate * scale, target, d.direction, d.output) if scale > 0 else None


class RoomTracks:
    """The RoomTracks part of :class:`~smh_core.sim.simulator.Simulator` (a mixin: the state lives
    on the simulator, set up in its ``__init__``)."""

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
        tracks = tuple((v, self._build_track(room, v)) for v in DRIVEN_VARIABLES)
        self._room_tracks[room] = tracks
        # the variables that can move (a switching law, or a fixed one with a pull or drift)
        moving = tuple(
            (v, t, t.star, t.keep) for v, t in tracks if t.fixed is None or t.star is not None
        )
        self._moving[room] = moving
        if moving:
            self._still.discard(room)
        else:
            self._still.add(room)  # no drift, nothing acting: its values cannot move

    def _build_track(self, room: str, var: str) -> Track:
        pulls = []
        for did in self._by_room[room]:
            state = self.engine.state_view(did)
            for d in self._dyn[did].drives:
                if d.variable == var and (pull := _pull(d, state)) is not None:
                    pulls.append(pull)
        outdoor = float(getattr(self._outdoor, var))
        return Track(self._drift.get(var, 0.0), outdoor, tuple(pulls))

    def driving(self, did: str) -> set[str]:
        """The room variables the device acts on now (an oven baking: ``{"temperature"}``);
        empty for a device in no simulated room or doing nothing to it."""
        if self._room_of.get(did) not in self._by_room:
            return set()
        state = self.engine.state_view(did)
        return {d.variable for d in self._dyn[did].drives if _pull(d, state) is not None}

    def _integrate(self, n: int, rooms: Iterable[str] | None = None) -> set[str]:
        """Move the rooms' variables (every room's by default) ``n`` ticks on; returns the
        rooms where one moved."""
        moved: set[str] = set()
        if n <= 0:
            return moved
        xs, dirty, moving, one = self._x, self._dirty, self._moving, n == 1
        for room in self._rooms if rooms is None else rooms:
            x = xs[room]
            changed = False
            if room in dirty:  # _tracks_of, inlined (once per room per tick when stepping)
                self._refresh(room)
            for var, track, star, keep in moving[room]:
                x0 = x[var]
                if star is None:
                    x1 = track.step(x0, n)
                else:  # a fixed regime: Track.at inlined (the per-tick hot path); keep ** 1 is keep
                    x1 = star + (x0 - star) * (keep if one else keep**n)
                if x1 != x0:
                    x[var] = x1
                    changed = True
            if changed:
                moved.add(room)
        return moved

    # ------------------------------------------------------------------ room clocks
    def _catch_up(self, room: str) -> None:
        """Move the room's anchor (its values and the tick they are at) to now, under the law
        it had since: before that law changes (a device input, a value written from outside)
        and at the room's own events. Reading a room never moves its anchor (see
        :meth:`_values`), so where a run is cut into slices, or who looks at a room when,
        changes no value."""
        n = self._tick - self._at[room]
        if n > 0 and not self._stepping:
            self._at[room] = self._tick
            if self._integrate(n, (room,)):
                self._unwritten.add(room)
            self._replan.add(room)

    def _values(self, room: str) -> dict[str, float]:
        """The room's values now: its anchor carried forward in closed form, without moving it
        (the write-back and rules read this; only :meth:`_catch_up` moves the anchor)."""
        n = self._tick - self._at[room]
        if n <= 0 or self._stepping or room in self._still:
            return self._x[room]
        hit = self._views.get(room)
        if hit is not None and hit[0] == self._tick and hit[1] == self._at[room]:
            return hit[2]
        if room in self._dirty:
            self._refresh(room)
        x = dict(self._x[room])
        for var, track, _star, _keep in self._moving[room]:  # what _integrate moves, on a copy
            x[var] = track.step(x[var], n)
        self._views[room] = (self._tick, self._at[room], x)
        return x

    def _plan(self, room: str) -> None:
        """Put the room's next own event on the queue: the first tick its law switches (a
        thermostat's pull turning off) or a watched threshold is crossed, looked for up to
        :data:`PLAN_TICKS` ahead. A room whose law never switches and that no rule watches has
        none: it is only integrated when something else needs it."""
        watched = self._watched_now
        horizon = PLAN_TICKS
        busy = False
        xs = self._x[room]
        for var, track in self._tracks_of(room):
            x = xs[var]
            if track.fixed is None:
                busy = True
                n = track.next_switch(x, horizon)
                if n is not None:
                    horizon = n
            for pred in watched.get((room, var), ()):
                busy = True
                if pred(x):
                    continue
                m = track.first_tick(x, horizon, pred)
                if m is not None:
                    horizon = m
        if not busy:
            self._due.pop(room, None)
            return
        due = self._at[room] + max(horizon, 1)
        if self._due.get(room) != due:
            self._due[room] = due
            heapq.heappush(self._queue_rooms, (due, room))

    def _replan_rooms(self) -> None:
        """Plan every room whose values or law changed since it was last planned."""
        if self._replan:
            for room in sorted(self._replan):
                self._plan(room)
            self._replan.clear()

    def _next_room_event(self) -> int | None:
        """The earliest planned room event."""
        return queue_head(self._queue_rooms, self._due)

    def _run_room_events(self) -> None:
        """Integrate the rooms whose own event is now up to it, and plan their next one."""
        due = self._due
        for room in queue_due(self._queue_rooms, due, self._tick):
            del due[room]
            self._catch_up(room)
            self._replan.add(room)

    def _fresh(self, did: str) -> None:
        """Write the room ``did`` reports on (a room itself or a device with readings), or the
        appliance's countdown, as it is now, before a rule's condition or action reads it in the
        middle of a run."""
        room = did[len(ENV_PREFIX) :] if did.startswith(ENV_PREFIX) else self._room_of.get(did)
        if room is not None and room in self._at and self._behind(room):
            self._sync(rooms=(room,), cycles=())
        if did in self._cycles and self._lazy:  # its countdown, as it is now
            self._sync(rooms=(), cycles=(did,))

    def _behind(self, room: str) -> bool:
        """Whether the engine may hold other values for the room than it has now."""
        return (self._at[room] < self._tick and room not in self._still) or room in self._unwritten

    def _flush(self) -> None:
        """At the end of a run (or before the caller's test looks): every room written as it
        is now, every running appliance's countdown shown."""
        hour = self._hour(self._tick)
        if hour != self._synced_hour:  # daylight: every room's light level
            self._synced_hour = hour
            rooms = self._rooms
        else:
            stale = self._stale
            rooms = [r for r in self._rooms if self._behind(r) or r in stale]
        self._stale.clear()
        self._unwritten.difference_update(rooms)
        self._write(self._updates(rooms, None))

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
                        level = (
                            max(0.0, min(1.0, float(raw) / li.level_max))
                            if raw is not None
                            else 0.0
                        )
                    lux += li.lux * level
            for sh in dyn.shades:
                raw = state[sh.open_attr]
                frac = max(0.0, min(1.0, float(raw) / sh.open_max)) if raw is not None else 1.0
                shades.append(1.0 - frac if sh.inverted else frac)
        out = (lux, window, sum(shades) / len(shades) if shades else None)
        self._sources[room] = out
        return out

    # ------------------------------------------------------------------ state sync
    def _sync(
        self, rooms: Iterable[str] | None = None, cycles: Iterable[str] | None = None
    ) -> None:
        """Write room variables, sensor readings, lux, countdowns and phases into the engine
        (for the given rooms and appliances only, or everything)."""
        order = self._rooms if rooms is None else sorted(set(rooms))
        self._unwritten.difference_update(order)
        self._write(self._updates(order, cycles))

    def _sync_window(self, moved: set[str]) -> None:
        """:meth:`_sync` after a window, for the rooms whose values can differ from what the
        engine holds: those the physics moved, those written from outside since, and every
        room when the hour (daylight) changed. The others would write nothing."""
        tick = self._tick
        lo, hi, hour = self._hour_span  # _hour(), inlined: the same hour until hi
        if not lo <= tick < hi:
            hour = self._hour(tick)
        if hour != self._synced_hour:
            self._synced_hour = hour
            order = self._rooms
        else:
            todo = moved | self._stale
            if len(todo) == len(self._rooms):  # every room (both are sets of the home's rooms)
                order = self._rooms
            else:
                order = [r for r in self._rooms if r in todo] if todo else []
        self._stale.clear()
        self._write(self._updates(order, None))

    def _updates(self, rooms: list[str], cycles: Iterable[str] | None) -> Updates:
        """What :meth:`_sync` writes: room values first (in ``rooms`` order, distinct rooms of
        the home), then sensors, then appliance countdowns, each only where it differs from the
        engine's; and the changes that makes, in that order (made here, where each value is
        compared with the engine's, for ``set_many_trusted``)."""
        eng = self.engine
        updates: dict[str, dict[str, Any]] = {}
        changes: list[Change] = []
        add = changes.append
        # room values' changes are read by rules watching them and by other listeners (the
        # HA integration, a trace); with neither, only this simulator would get them, and it
        # skips them (_react_own): they are not made (a fifth of a tick's cost)
        tell = bool(self._watch) or not eng.listened_only_by(self._on_changes)
        view, tick = eng.state_lookup(), self._tick
        hour, lux_cache, dirty, env_of = (
            self._hour(tick),
            self._lux_cache,
            self._dirty,
            self._env_of,
        )
        # stepping, every room is at now: _values would return its anchor, without the call
        values = self._x.__getitem__ if self._stepping else self._values
        for room in rooms:
            x = values(room)
            env = env_of[room]
            cur = view(env)
            # never booleans here: plain != is same(); keys (and changes) in this order
            diff: dict[str, Any] = {}
            v, c = x["temperature"], cur["temperature"]
            if c != v:
                diff["temperature"] = v
                if tell:
                    add(new_change(Change, (env, "temperature", c, v)))
            v, c = x["humidity"], cur["humidity"]
            if c != v:
                diff["humidity"] = v
                if tell:
                    add(new_change(Change, (env, "humidity", c, v)))
            hit = lux_cache.get(room)  # _illuminance's cache hit, inlined (every room, every tick)
            v = (
                hit[1]
                if hit is not None and hit[0] == hour and room not in dirty
                else self._illuminance(room, tick)
            )
            c = cur["illuminance"]
            if c != v:
                diff["illuminance"] = v
                if tell:
                    add(new_change(Change, (env, "illuminance", c, v)))
            pm25, c = x["pm25"], cur["pm25"]
            if c != pm25:
                diff["pm25"] = pm25
                if tell:
                    add(new_change(Change, (env, "pm25", c, pm25)))
            v, c = x["pm10"], cur["pm10"]
            if c != v:
                diff["pm10"] = v
                if tell:
                    add(new_change(Change, (env, "pm10", c, v)))
            v, c = air_quality_class(pm25), cur["air_quality"]
            if c != v:
                diff["air_quality"] = v
                if tell:
                    add(new_change(Change, (env, "air_quality", c, v)))
            if diff:
                updates[env] = diff
        room_changes = len(changes)
        devices: dict[str, dict[str, Any]] = {}  # readings and countdowns, after the rooms
        if rooms:
            if len(rooms) == len(self._rooms):  # every room (the usual case when stepping)
                sensors = self._sensor_list
            elif len(rooms) * 4 >= len(self._rooms):
                room_set = set(rooms)
                sensors = [item for item in self._sensor_list if item[1].room in room_set]
            else:  # a few rooms: their own sensors, in the home's order
                sensors = [
                    item
                    for _, item in sorted(
                        (entry for room in rooms for entry in self._sensors_in.get(room, ())),
                        key=lambda entry: entry[0],
                    )
                ]
            for (did, loc), s in sensors:
                variable, room = s.variable, s.room
                if variable == "air_quality":
                    val: Any = air_quality_class(values(room)["pm25"])
                elif variable == "illuminance":
                    env = env_of[room]
                    val = s.reading(
                        updates.get(env, {}).get("illuminance", view(env)["illuminance"])
                    )
                else:
                    val = s.reading(values(room)[variable])
                cur = view(did)[loc]
                # same(), inlined: readings are numbers or words, never booleans against numbers
                if cur != val or isinstance(cur, bool) != isinstance(val, bool):
                    devices.setdefault(did, {})[loc] = val
        running = (
            self._cycles.items()
            if cycles is None
            else [
                (did, self._cycles[did]) for did in sorted(cycles, key=self._cycle_rank.__getitem__)
            ]
        )
        for did, cyc in running:
            if cyc.seg_start is None:
                continue
            shows = view(did)  # countdowns, phases and states: scalars, read without a copy
            for loc, v in cyc.shown(tick).items():
                c = shows[loc]
                if c != v or isinstance(c, bool) != isinstance(v, bool):  # not same(), inlined
                    devices.setdefault(did, {})[loc] = v
        for did, written in devices.items():  # each differs (not same() above), in this order
            cur = view(did)
            for loc, v in written.items():
                add(new_change(Change, (did, loc, cur[loc], v)))
            updates[did] = written
        return updates, changes, room_changes

    def _write(self, updates: Updates | Mapping[str, Mapping[str, Any]]) -> None:
        """Commit the simulator's own values (valid by construction: see ``set_many_trusted``),
        with the changes :meth:`_updates` made while comparing them."""
        values, changes, rooms = updates if isinstance(updates, tuple) else (updates, None, 0)
        if not values:
            return
        self._writing = True
        self._own_batch = (changes, rooms)  # for _react_own: which changes are room values
        try:
            self.engine.set_many_trusted(values, changes)
        finally:
            self._writing = False
            self._own_batch = (None, 0)

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
            if room not in self._dirty:  # up to now under the law it had until this change
                self._catch_up(room)
            self._dirty.add(room)
            self._stale.add(room)
            self._replan.add(room)
        elif not from_sim and ch.locator in self._readings[ch.did]:
            self._stale.add(room)
