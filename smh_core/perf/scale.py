"""``smh perf sim --scale``: how the simulator's cost grows with the size of the home.

A home of ``k`` copies of the complex home (with its Matter appliances) is ``k`` times the
rooms, devices, sensors and thermostats; the busy day of :func:`.sim.busy_simulator` runs on
it (20 automations over the whole home, 10 schedules). Copies share the layout and climate of
seed 0, so their events fall on the same ticks and the number of event windows stays put:
what grows is the work per window, which is what dirty-room tracking keeps in proportion.
``k`` *different* homes (seeds 0 to k-1) bring their own event times, so the windows grow with
the home too: the cost a simulator that touches every room in every window pays twice over
(issue 37), measured beside the copies.

Per size: engine build time, 24 simulated hours, memory per device (tracemalloc over building
the engine and the simulator, the home model excluded), and the cost of one tick when stepping
every tick (``exact=True``) next to :mod:`.reference`'s plain loop timed on the same home in
the same process, since wall times on a shared machine move with the other jobs.

Times are this process's CPU time (``time.process_time``): on the project's 2-core machines,
shared by several jobs, wall time also counts the turns other processes get (a 24 h run of
the largest home measured 2.9-9.0 s wall within minutes); CPU time is what the code costs and
what wall time is on an idle core.
"""

from __future__ import annotations

import gc
import math
import time
import tracemalloc
from dataclasses import dataclass

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.homes.simulated import generate_matter_home, simulated_home, with_matter_devices
from smh_core.perf.reference import reference_us_per_tick
from smh_core.perf.sim import busy_simulator, switch_everything_on
from smh_core.sim.simulator import Simulator

DEFAULT_COPIES = (1, 2, 4, 9, 18, 35, 70, 140)
"""142 to 19,880 devices, each size about twice the one before."""

GROWTH_FROM = 1_250
"""Devices from which the cost per device per doubling is held to its target (issue 37)."""


@dataclass(frozen=True)
class ScalePoint:
    """One home size's figures."""

    devices: int
    rooms: int
    build_s: float
    day_s: float
    windows: int
    kib_per_device: float
    exact_us: float
    reference_us: float

    @property
    def reference_ratio(self) -> float:
        """How many times faster a tick is than the plain loop's (above 1: faster)."""
        return self.reference_us / self.exact_us


HOME_KINDS = ("copies", "different")
"""How a large home is made of small ones: ``copies`` of one home (seed 0: the rooms share their
climate, so their events fall on the same ticks) or ``different`` homes (seeds 0, 1, 2 ...: each
home its own climate, appliances and layout, so each brings its own event times, as a real
large home with many timers and programmes does)."""


def _part(seed: int) -> Home:
    return with_matter_devices(simulated_home("complex", seed), seed)


def scaled_home(copies: int, seed: int = 0, kind: str = "copies") -> Home:
    """``copies`` complex homes with their Matter appliances, as one home: copies of the home of
    ``seed`` or, with ``kind="different"``, the homes of seeds ``seed``, ``seed + 1`` ...; room
    ids and device ids of part ``k > 0`` end in ``-k``, so every part is its own set of rooms
    and devices."""
    if copies < 1:
        raise ValueError(f"a scaled home needs at least one copy, got {copies}")
    if kind not in HOME_KINDS:
        raise ValueError(f"kind must be one of {HOME_KINDS}, got {kind!r}")
    base = _part(seed)
    rooms, devices = [], []
    for k in range(copies):
        tail = f"-{k}" if k else ""
        part = base if kind == "copies" or k == 0 else _part(seed + k)
        for r in part.rooms:
            parent = None if r.parent is None else r.parent + tail
            rooms.append(r.model_copy(update={"id": r.id + tail, "parent": parent}))
        for d in part.devices:
            ud = d.userdata.model_copy(
                update={"did": d.userdata.did + tail, "room": d.userdata.room + tail}
            )
            devices.append(d.model_copy(update={"userdata": ud}))
    return base.model_copy(
        update={"name": f"complex x{copies} ({kind})", "rooms": rooms, "devices": devices}
    )


def memory_per_device(home: Home) -> float:
    """KiB held per device by an engine and a simulator built for ``home``."""
    tracemalloc.start()
    try:
        engine = HomeEngine(home)
        sim = Simulator(engine)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    sim.close()
    return held / 1024 / len(engine.device_ids())


def exact_tick_us(engine: HomeEngine, ticks: int) -> float:
    """Microseconds per tick of ``advance(..., exact=True)`` over ``engine`` as it is."""
    with Simulator(engine) as sim:
        t0 = time.process_time()
        sim.advance(ticks / 10, exact=True)
        return (time.process_time() - t0) / ticks * 1e6


def measure_point(
    copies: int, seed: int = 0, hours: float = 24.0, exact_ticks: int = 200, kind: str = "copies"
) -> ScalePoint:
    kib = memory_per_device(scaled_home(copies, seed, kind))
    home = scaled_home(copies, seed, kind)  # new device objects: the engine compiles them afresh
    t0 = time.process_time()
    engine = HomeEngine(home)
    build = time.process_time() - t0
    with busy_simulator(engine, seed) as sim:
        # the garbage of building this size and the ones before is collected first: a full
        # collection over it that falls inside the day is the harness's cost, not the day's
        # (one moved the 9,940-device day from 0.2 to 1.4 s)
        gc.collect()
        t0 = time.process_time()
        sim.advance(hours * 3600)
        day = time.process_time() - t0
        windows = sim.windows
    reference = reference_us_per_tick(engine, exact_ticks)
    exact = exact_tick_us(engine, exact_ticks)
    return ScalePoint(
        len(engine.device_ids()),
        len(engine.simulated_rooms()),
        build,
        day,
        windows,
        kib,
        exact,
        reference,
    )


def per_doubling(a: ScalePoint, b: ScalePoint, seconds: float, seconds_b: float) -> float:
    """How much the cost per device grows each time the home doubles, between two sizes
    (1.0: linear; 1.2: 20 % more per device at twice the size)."""
    doublings = math.log2(b.devices / a.devices)
    return ((seconds_b / b.devices) / (seconds / a.devices)) ** (1 / doublings)


def matter_home_tick(seed: int = 0, ticks: int = 20_000) -> tuple[int, float, float]:
    """``(devices, exact µs/tick, reference µs/tick)`` on SimuHome's 27-device Matter home with
    everything switched on (the setting of SimuHome's own per-tick timing)."""
    engine = HomeEngine(generate_matter_home(seed))
    switch_everything_on(engine)
    reference = reference_us_per_tick(engine, ticks)
    return len(engine.device_ids()), exact_tick_us(engine, ticks), reference
