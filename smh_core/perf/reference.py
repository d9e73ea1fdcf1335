"""A plain per-tick simulation loop, the yardstick ``smh perf sim`` divides by.

Wall times on a shared 2-core machine swing by 2x with the other jobs running, so the
simulator's per-tick cost is reported against this loop timed in the same process a moment
earlier (both in CPU time). It does what a straightforward SimuHome-style simulator does on every 0.1 s tick,
in plain Python over dicts: each room's variables take one explicit Euler step of the room
law (drift towards outdoors plus every active device's pull), and every device's state dict
is rebuilt with its sensors' readings — no closed forms, no caching, no validation.
"""

from __future__ import annotations

import time

from smh_core.homeenv.dynamics import DRIVEN_VARIABLES
from smh_core.homeenv.engine import ENV_PREFIX, HomeEngine
from smh_core.sim.physics import DT


def reference_us_per_tick(engine: HomeEngine, ticks: int = 20_000) -> float:
    """Microseconds per tick of the plain loop over ``engine``'s rooms and devices."""
    rooms = engine.simulated_rooms()
    settings = engine.home.simulation
    outdoor = {v: float(getattr(settings.outdoor, v)) for v in DRIVEN_VARIABLES} if settings else {}
    drift = dict(settings.drift) if settings else {}
    x = {r: {v: float(engine.value(ENV_PREFIX + r, v)) for v in DRIVEN_VARIABLES} for r in rooms}
    pulls: dict[str, dict[str, list[tuple[float, float]]]] = {
        r: {v: [] for v in DRIVEN_VARIABLES} for r in rooms
    }
    sensors: list[tuple[dict[str, object], str, str, str]] = []
    devices = []
    for did in engine.device_ids():
        dev = engine.device(did)
        state = dict(engine.state_view(did))
        devices.append(state)
        room = dev.userdata.room
        if dev.dynamics is None or room not in x:
            continue
        for d in dev.dynamics.drives:
            target = (
                d.target if d.target is not None else float(state[d.target_attr]) * d.target_scale
            )
            pulls[room][d.variable].append((d.rate, target))
        sensors += [(state, s.attr, room, s.variable) for s in dev.dynamics.sensors]
    t0 = time.process_time()
    for _ in range(ticks):
        for room in rooms:
            xs = x[room]
            for var in DRIVEN_VARIABLES:
                v = xs[var]
                rate = drift.get(var, 0.0) * (outdoor[var] - v)
                for k, target in pulls[room][var]:
                    rate += k * (target - v)
                xs[var] = v + DT * rate
        for state, attr, room, var in sensors:
            state[attr] = round(x[room].get(var, 0.0), 2)
        for i, state in enumerate(devices):
            devices[i] = dict(state)
    return (time.process_time() - t0) / ticks * 1e6
