"""Long-running appliances: a programme's phases and countdown from the device state, started,
paused, resumed and completed as the device's state changes or time runs out."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from smh_core.homeenv.dynamics import Cycle

from .timebase import TICKS_PER_SECOND, SimEvent
from .triggers import same


@dataclass(slots=True)
class ApplianceRun:
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


class ApplianceCycles:
    """The ApplianceCycles part of :class:`~smh_core.sim.simulator.Simulator` (a mixin: the state lives
    on the simulator, set up in its ``__init__``)."""

    # ------------------------------------------------------------------ appliances
    def _mode(self, cyc: ApplianceRun) -> Any:
        return self.engine.value(cyc.did, cyc.spec.mode_attr) if cyc.spec.mode_attr else None

    def _load_program(self, cyc: ApplianceRun) -> None:
        ends, acc = [], 0
        for ph in cyc.spec.program(self._mode(cyc)):
            acc += ph.seconds * TICKS_PER_SECOND
            ends.append(acc)
        cyc.phase_ends = ends
        cyc.remaining = acc

    def _start_at_phase(self, cyc: ApplianceRun, index: int) -> None:
        """Run the programme from the start of phase ``index`` (a robot sent home skips to
        seeking its dock)."""
        self._load_program(cyc)
        cyc.remaining = cyc.total - (cyc.phase_ends[index - 1] if index else 0)
        cyc.seg_start = self._tick

    def _resume_cycle(self, cyc: ApplianceRun) -> None:
        """Rebuild a programme's progress from the device state (a home loaded mid-cycle)."""
        state = self.engine.value(cyc.did, cyc.spec.state_attr)
        at_phase = cyc.spec.phase_of(self._mode(cyc), state)
        left = self.engine.value(cyc.did, cyc.spec.countdown_attr)
        if at_phase is not None and isinstance(left, int) and left > 0:  # mid-way home: the time left
            self._start_at_phase(cyc, at_phase)
            cyc.remaining = min(cyc.remaining, left * TICKS_PER_SECOND)
            return
        if same(state, cyc.spec.running) or same(state, cyc.spec.paused):
            self._load_program(cyc)
            left = self.engine.value(cyc.did, cyc.spec.countdown_attr)
            if isinstance(left, int) and 0 < left * TICKS_PER_SECOND <= cyc.total:
                cyc.remaining = left * TICKS_PER_SECOND
            cyc.seg_start = self._tick if same(state, cyc.spec.running) else None

    def _cycle_changed(self, cyc: ApplianceRun, old: Any, new: Any) -> None:
        spec = cyc.spec
        at_phase = spec.phase_of(self._mode(cyc), new)
        if at_phase is not None:  # a phase's own state: the simulator's write, or a jump to it
            if cyc.seg_start is None or cyc.phase(self._tick) != at_phase:
                self._start_at_phase(cyc, at_phase)
                self._sync(rooms=(), cycles=(cyc.did,))
            return
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

    def _complete_cycle(self, cyc: ApplianceRun) -> None:
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
