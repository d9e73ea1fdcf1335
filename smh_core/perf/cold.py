"""Cold start: wall and CPU time of fresh ``smh`` processes, as a user meets them.

Each figure is the median of several fresh interpreters (``python -m smh_core.cli.main``) run
one after another: ``smh --help`` and ``smh bench run --suite sample --agent oracle`` into a new
folder each time. The CPU time is user plus system time of the process and of every child it
started and waited for (``RUSAGE_CHILDREN``): work moved to a child on a free core shortens the
wall time but is still paid for, on a busy machine or a one-core container. Python's bytecode
cache counts: the first run of a checkout compiles every module, later ones read
``__pycache__``; with ``PYTHONDONTWRITEBYTECODE`` set nothing is cached and modules without
bytecode compile on every run, so the figure says which case it measured.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

TARGET_SECONDS = 0.7


@dataclass(frozen=True)
class Timing:
    """One fresh process: wall seconds, and CPU seconds (user + system) of it and its children."""

    wall: float
    cpu: float


def median_timing(runs: list[Timing]) -> Timing:
    """The median wall time and the median CPU time of ``runs`` (each taken on its own)."""
    return Timing(statistics.median(t.wall for t in runs), statistics.median(t.cpu for t in runs))


@dataclass
class ColdStart:
    help_runs: list[Timing]
    run_runs: list[Timing]
    bytecode_cached: bool

    @property
    def met(self) -> bool:
        """Both commands within the target, in wall and in CPU time."""
        medians = [median_timing(self.help_runs), median_timing(self.run_runs)]
        return max(max(m.wall, m.cpu) for m in medians) <= TARGET_SECONDS


def smh_env() -> dict[str, str]:
    """The environment a fresh ``smh`` process needs to import this interpreter's packages."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def children_cpu() -> float:
    """User + system seconds of every child of this process that has been waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_smh(argv: list[str], env: dict[str, str]) -> Timing:
    """Wall and CPU seconds of one fresh ``smh ARGV`` process (its CPU counts the children it
    waited for, such as a chart drawer); a failure raises with its stderr's end."""
    cpu_before = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    cpu = children_cpu() - cpu_before
    if done.returncode != 0:
        raise RuntimeError(
            f"smh {' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-500:]}"
        )
    return Timing(seconds, cpu)


def measure_cold(tasks_dir: Path, repeats: int = 5) -> ColdStart:
    """Run each command ``repeats`` times (after one unmeasured warm-up that fills the bytecode
    cache where it may be written) and keep every wall and CPU time."""
    env = smh_env()
    cached = not env.get("PYTHONDONTWRITEBYTECODE")
    with tempfile.TemporaryDirectory(prefix="smh-cold-") as tmp:
        run = [
            "bench",
            "run",
            "--suite",
            "sample",
            "--agent",
            "oracle",
            "--tasks-dir",
            str(tasks_dir),
        ]
        timed_smh(["--help"], env)
        timed_smh([*run, "--out", str(Path(tmp) / "warm")], env)
        helps = [timed_smh(["--help"], env) for _ in range(repeats)]
        runs = [timed_smh([*run, "--out", str(Path(tmp) / f"run{i}")], env) for i in range(repeats)]
    return ColdStart(helps, runs, cached)
