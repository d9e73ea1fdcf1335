"""Simulated time for a config entry: the home's simulator, paced by HA's clock.

Room physics, appliance programmes, schedules and automations stored with the home run on
:class:`smh_core.sim.simulator.Simulator`. Every second of wall time the clock advances the
simulator by ``time_scale`` seconds (0 stops it; ``smh.advance_time`` jumps ahead at any
scale). Changes the simulator makes go through the engine like any other, so the runtime's
engine listener pushes them to the entities at once, without polling.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

from homeassistant.core import CALLBACK_TYPE, HomeAssistant, callback
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.util import dt as dt_util

from smh_core.homeenv.engine import HomeEngine
from smh_core.sim.simulator import Simulator

TICK = timedelta(seconds=1)
LOG_KEEP = 500
"""Simulator events kept in memory (a home may run for months)."""


class SimClock:
    def __init__(self, hass: HomeAssistant, engine: HomeEngine, time_scale: float) -> None:
        self.hass = hass
        self.time_scale = max(0.0, float(time_scale))
        # a home file without its own clock starts at HA's local time, so "at 7 pm" means 7 pm
        start = None if engine.home.simulation is not None else dt_util.now().replace(tzinfo=None, microsecond=0)
        self.sim = Simulator(engine, now=start)
        self._cancel: CALLBACK_TYPE | None = None

    def start(self) -> None:
        if self.time_scale > 0 and self._cancel is None:
            self._cancel = async_track_time_interval(self.hass, self._tick, TICK, name="smh simulated time",
                                                     cancel_on_shutdown=True)

    @callback
    def _tick(self, _now: datetime) -> None:
        self.sim.advance(self.time_scale)
        if len(self.sim.log) > 2 * LOG_KEEP:
            del self.sim.log[:-LOG_KEEP]

    def advance(self, seconds: float) -> dict[str, Any]:
        """Jump ``seconds`` ahead; returns the new time and what happened meanwhile."""
        before = len(self.sim.log)
        self.sim.advance(seconds)
        events = self.sim.log[before:]
        return {"now": self.sim.now.isoformat(), "events": [_event(e) for e in events]}

    def stop(self) -> None:
        if self._cancel is not None:
            self._cancel()
            self._cancel = None
        self.sim.close()


def _event(e: Any) -> dict[str, Any]:
    data = dataclasses.asdict(e)
    return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in data.items()}
