"""Long-running appliances: a programme's phases and countdown from the device state, started,
paused, resumed and completed as the device's state changes or time runs out."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .timebase import TICKS_PER_SECOND, SimEvent, queue_due, queue_head
from .triggers import same

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from smh_core.homeenv.dynamics import Cycle


@dataclass(slots=True)
class ApplianceRun:
    did: str
    spec: Cycle
    phase_ends: list[int] = field(default_factory=list)  # cumulative ticks at each phase end
    phase_names: list[str] = field(default_factory=list)
    phase_states: list[Any] = field(default_factory=list)  # what each phase shows (None: running)
    remaining: int = 0  # ticks left when the current running segment began (or now, if paused)
    seg_start: int | None = None  # tick the current running segment began; None unless running
    _memo: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)
    """What :meth:`shown` showed last, the programme and segment it was for and the ticks it
    holds for: ``(phase_ends, seg_start, remaining, first tick, end tick, values)``."""

    @property
    def total(self) -> int:
        return self.phase_ends[-1] if self.phase_ends else 0

    def left(self, tick: int) -> int:
        return (
            self.remaining - (tick - self.seg_start)
            if self.seg_start is not None
            else self.remaining
        )

    def phase(self, tick: int) -> int:
        done = self.total - self.left(tick)
        for i, end in enumerate(self.phase_ends):
            if done < end:
                return i
        return max(len(self.phase_ends) - 1, 0)

    def shown(self, tick: int) -> dict[str, Any]:
        """What the device shows while running: its countdown (whole seconds, rounded up) and
        its phase (an index into the phase list, or the phase's name as its state). Read-only:
        the same mapping is returned for every tick until the countdown or the phase changes
        (stepping every tick, it was worked out ten times per second for one change)."""
        memo = self._memo
        if (
            memo is not None
            and memo[3] <= tick < memo[4]
            and memo[0] is self.phase_ends  # a new programme is a new list (_load_program)
            and memo[1] == self.seg_start
            and memo[2] == self.remaining
        ):
            vals: dict[str, Any] = memo[5]
            return vals
        left = self.left(tick)
        vals = {self.spec.countdown_attr: max(0, -(-left // TICKS_PER_SECOND))}
        phase = self.phase(tick)
        if self.spec.phase_attr:
            vals[self.spec.phase_attr] = phase
        elif self.spec.phase_in_state and self.phase_names:
            vals[self.spec.state_attr] = self.phase_names[phase]
        if (
            phase < len(self.phase_states) and self.phase_states[phase] is not None
        ):  # a robot seeking its dock
            vals[self.spec.state_attr] = self.phase_states[phase]
        self._memo = (
            self.phase_ends,
            self.seg_start,
            self.remaining,
            tick,
            tick + self._holds(left, phase),
            vals,
        )
        return vals

    def _holds(self, left: int, phase: int) -> int | float:
        """For how many ticks from now (``left`` ticks left, in ``phase``) the countdown and
        the phase stay as they are: until the countdown's next whole second or the phase's
        end, whichever is first; for ever while paused or once both are at their last."""
        if self.seg_start is None:
            return math.inf
        ticks: int | float = math.inf
        if left > 0:  # ceil(left / 10) drops once left reaches the whole second below
            ticks = left - (-(-left // TICKS_PER_SECOND) - 1) * TICKS_PER_SECOND
        done = self.total - left
        if phase < len(self.phase_ends) and done < self.phase_ends[phase]:
            ticks = min(ticks, self.phase_ends[phase] - done)
        return ticks


class ApplianceCycles:
    """The ApplianceCycles part of :class:`~smh_core.sim.simulator.Simulator` (a mixin: the state lives
    on the simulator, set up in its ``__init__``)."""

    # ------------------------------------------------------------------ appliances
    def _load_program(self, cyc: ApplianceRun) -> None:
        ends, acc = [], 0
        phases = cyc.spec.phases_for(self.engine.state_view(cyc.did))
        for _name, seconds in phases:
            acc += seconds * TICKS_PER_SECOND
            ends.append(acc)
        cyc.phase_ends = ends
        cyc.phase_names = [name for name, _seconds in phases]
        cyc.phase_states = cyc.spec.phase_states(self.engine.state_view(cyc.did))
        cyc.remaining = acc

    def _showing(self, cyc: ApplianceRun, state: Any) -> int | None:
        """The phase of the programme the device's settings select that shows ``state``."""
        return next(
            (
                i
                for i, shown in enumerate(cyc.spec.phase_states(self.engine.state_view(cyc.did)))
                if shown is not None and same(shown, state)
            ),
            None,
        )

    def _start_at_phase(self, cyc: ApplianceRun, index: int) -> None:
        """Run the programme from the start of phase ``index`` (a robot sent home skips to
        seeking its dock)."""
        self._load_program(cyc)
        cyc.remaining = cyc.total - (cyc.phase_ends[index - 1] if index else 0)
        cyc.seg_start = self._tick

    def _resume_cycle(self, cyc: ApplianceRun) -> None:
        """Rebuild a programme's progress from the device state (a home loaded mid-cycle, or a
        countdown written from outside): the programme its settings select, at the countdown's
        second when that fits in it, else from the start."""
        state = self.engine.value(cyc.did, cyc.spec.state_attr)
        at_phase = self._showing(cyc, state)
        left = self.engine.value(cyc.did, cyc.spec.countdown_attr)
        if (
            at_phase is not None
            and isinstance(left, int)
            and not isinstance(left, bool)
            and left > 0
        ):
            self._start_at_phase(cyc, at_phase)  # mid-way home: the time it has left
            cyc.remaining = min(cyc.remaining, left * TICKS_PER_SECOND)
            return
        running = cyc.spec.is_running(state)
        if running or same(state, cyc.spec.paused):
            self._load_program(cyc)
            left = self.engine.value(cyc.did, cyc.spec.countdown_attr)
            if (
                isinstance(left, int)
                and not isinstance(left, bool)
                and 0 < left * TICKS_PER_SECOND <= cyc.total
            ):
                cyc.remaining = left * TICKS_PER_SECOND
            cyc.seg_start = self._tick if running else None

    def _cycle_changed(self, cyc: ApplianceRun, old: Any, new: Any) -> None:
        spec = cyc.spec
        at_phase = self._showing(cyc, new)
        if at_phase is not None:  # a phase's own state: the simulator's write, or a jump to it
            if cyc.seg_start is None or cyc.phase(self._tick) != at_phase:
                self._start_at_phase(cyc, at_phase)
                self._sync(rooms=(), cycles=(cyc.did,))
            return
        if spec.is_running(new):
            if spec.is_running(old):
                return  # the next phase (the state names it): the programme runs on
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

    def _cycle_retimed(self, cyc: ApplianceRun) -> None:
        """The countdown, the length or the mode was written from outside, with or without
        the state (an oven started again, a task's state loaded): the programme follows what
        the device now says, as when a home is loaded mid-cycle."""
        state = self.engine.value(cyc.did, cyc.spec.state_attr)
        if not (cyc.spec.is_running(state) or same(state, cyc.spec.paused)):
            self._cycle_changed(cyc, None, state)  # stopped
            return
        self._resume_cycle(cyc)
        self._sync(rooms=(), cycles=(cyc.did,))

    def _complete_cycle(self, cyc: ApplianceRun) -> None:
        spec = cyc.spec
        cyc.seg_start, cyc.remaining = None, 0
        vals = {spec.countdown_attr: 0, **spec.on_complete}
        if spec.state_attr not in vals:
            vals[spec.state_attr] = spec.stopped
        self.log.append(SimEvent(self.now, "cycle_complete", cyc.did))
        self.engine.set_values(cyc.did, vals)

    # ------------------------------------------------------------------ phase ends, queued
    def _plan_cycles(self) -> None:
        """Queue the next phase end of every appliance whose programme changed (or whose
        queued phase end has passed): while a segment runs, its phase ends are fixed ticks, so
        a window looks at the appliances whose end it is, not at every appliance."""
        q, nxt, now = self._cycle_queue, self._cycle_next, self._tick
        self._cycles_ending(now)  # passed: the appliance's next phase end, if any
        for did in sorted(self._cycles_touched):
            cyc = self._cycles[did]
            nxt.pop(did, None)
            if cyc.seg_start is None:
                continue
            done = cyc.total - cyc.left(now)
            for end in cyc.phase_ends:
                if end > done:
                    nxt[did] = now + (end - done)
                    heapq.heappush(q, (now + (end - done), did))
                    break
        self._cycles_touched.clear()

    def _next_cycle_event(self) -> int | None:
        """The earliest queued phase end."""
        return queue_head(self._cycle_queue, self._cycle_next)

    def _cycles_ending(self, tick: int) -> set[str]:
        """The appliances whose queued phase end is ``tick`` (the window's end), taken off the
        queue: each queues its next phase end after the window."""
        out = set(queue_due(self._cycle_queue, self._cycle_next, tick))
        self._cycles_touched.update(out)
        return out

    def cycle_end(self, did: str) -> datetime | None:
        """When the appliance's running programme will finish (``None`` if it is not running)."""
        cyc = self._cycles.get(did)
        if cyc is None or cyc.seg_start is None:
            return None
        return self.time_of(self._tick + cyc.left(self._tick))
