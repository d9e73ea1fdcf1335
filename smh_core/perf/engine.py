"""Engine throughput: validated service calls per second and snapshot+diff latency.

Measured on a generated complex home (31 rooms, 135 devices). The call mix is every service
of every device with schema-valid arguments, precomputed so only ``execute`` is timed; calls
that fail a precondition still count as validated calls (they run the full validation path).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.samples import valid_arguments
from smh_core.homes.generator import generate_home


@dataclass
class EnginePerf:
    devices: int
    calls: int
    calls_per_second: float
    ok_fraction: float
    snapshot_diff_ms: float
    snapshot_ms: float
    diff_ms: float
    wide_diff_ms: float
    wide_diff_changes: int


def _call_mix(engine: HomeEngine, rng: random.Random, size: int) -> list[tuple[str, str, dict]]:
    pool = []
    for did in engine.device_ids():
        pool += [(did, loc, s) for loc, s in engine.device(did).services_by_locator()]
    return [
        (did, loc, valid_arguments(s, rng))
        for did, loc, s in (rng.choice(pool) for _ in range(size))
    ]


def measure_engine(
    level: str = "complex", seed: int = 0, calls: int = 200_000, snapshot_rounds: int = 2_000
) -> EnginePerf:
    engine = HomeEngine(generate_home(level, seed))  # type: ignore[arg-type]
    rng = random.Random(seed)
    mix = _call_mix(engine, rng, 10_000)
    n = len(mix)
    execute = engine.execute
    ok = 0
    t0 = time.perf_counter()
    for i in range(calls):
        did, loc, args = mix[i % n]
        if execute(did, loc, args).ok:
            ok += 1
    elapsed = time.perf_counter() - t0

    snap_t = diff_t = 0.0
    for i in range(snapshot_rounds):
        did, loc, args = mix[i % n]
        before = engine.snapshot()
        execute(did, loc, args)
        t1 = time.perf_counter()
        after = engine.snapshot()
        t2 = time.perf_counter()
        engine.diff(before, after)
        t3 = time.perf_counter()
        snap_t += t2 - t1
        diff_t += t3 - t2
    # Worst case: a diff against the load-time state, after the call mix touched most devices.
    fresh = HomeEngine(engine.home).snapshot()
    now = engine.snapshot()
    t0 = time.perf_counter()
    for _ in range(100):
        wide = engine.diff(fresh, now)
    wide_ms = (time.perf_counter() - t0) / 100 * 1000
    snap_ms = snap_t / snapshot_rounds * 1000
    diff_ms = diff_t / snapshot_rounds * 1000
    return EnginePerf(
        len(engine.device_ids()),
        calls,
        calls / elapsed,
        ok / calls,
        snap_ms + diff_ms,
        snap_ms,
        diff_ms,
        wide_ms,
        len(wide),
    )
