"""Benchmark speed: wall time for the oracle to run every shipped suite, verification included.

The oracle replays each task's reference through the same runner, backend and verifier an
LLM agent goes through (simulated futures for timed goals, rule equivalence for automations),
so this is the fixed cost the harness adds to every evaluation; the target is 60 s for all
suites on the 2-core machines we test on.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from smh_core.bench.agents import OracleAgent
from smh_core.bench.runner import run_suite
from smh_core.task.home import HomeCache
from smh_core.task.model import load_tasks

SUITE_ORDER = ("smh", "simuhome", "memhome", "sage", "safety", "sample")


@dataclass
class BenchPerf:
    tasks: int
    passed: int
    wall_seconds: float
    per_suite: dict[str, int] = field(default_factory=dict)
    seconds_per_suite: dict[str, float] = field(default_factory=dict)

    @property
    def tasks_per_second(self) -> float:
        return self.tasks / self.wall_seconds if self.wall_seconds else 0.0


def suite_files(tasks_dir: Path) -> list[Path]:
    """The shipped suites present in ``tasks_dir``, in a fixed order."""
    return [tasks_dir / f"{s}.jsonl" for s in SUITE_ORDER if (tasks_dir / f"{s}.jsonl").exists()]


def measure_bench(tasks_dir: Path = Path("tasks")) -> BenchPerf:
    files = suite_files(tasks_dir)
    if not files:
        raise FileNotFoundError(f"no suite files in {tasks_dir} (run `smh tasks generate`)")
    homes = HomeCache(tasks_dir)
    total, passed, per_suite, seconds = 0, 0, Counter[str](), {}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="smh-perf-bench-") as tmp:
        for f in files:
            tasks = load_tasks([f])
            t0 = time.perf_counter()
            loop = asyncio.new_event_loop()  # a private loop leaves the caller's policy alone
            try:
                log = loop.run_until_complete(
                    run_suite(tasks, OracleAgent(), Path(tmp) / f.stem, homes=homes, progress=False)
                )
            finally:
                loop.close()
            seconds[f.stem] = time.perf_counter() - t0
            records = list(log.records())
            total += len(records)
            passed += sum(r["passed"] for r in records)
            per_suite[f.stem] = len(records)
    return BenchPerf(total, passed, time.perf_counter() - start, dict(per_suite), seconds)
