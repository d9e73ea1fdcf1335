"""Cold start: wall time of fresh ``smh`` processes, as a user meets them.

Each figure is the median of several fresh interpreters (``python -m smh_core.cli.main``) run
one after another: ``smh --help`` and ``smh bench run --suite sample --agent oracle`` into a new
folder each time. Python's bytecode cache counts: the first run of a checkout compiles every
module, later ones read ``__pycache__``; with ``PYTHONDONTWRITEBYTECODE`` set nothing is cached
and modules without bytecode compile on every run, so the figure says which case it measured.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

TARGET_SECONDS = 0.7


@dataclass
class ColdStart:
    help_seconds: list[float]
    run_seconds: list[float]
    bytecode_cached: bool

    @property
    def help_median(self) -> float:
        return statistics.median(self.help_seconds)

    @property
    def run_median(self) -> float:
        return statistics.median(self.run_seconds)


def _timed(argv: list[str], env: dict[str, str]) -> float:
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
    if done.returncode != 0:
        raise RuntimeError(
            f"smh {' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()[-500:]}"
        )
    return seconds


def measure_cold(tasks_dir: Path, repeats: int = 5) -> ColdStart:
    """Run each command ``repeats`` times (after one unmeasured warm-up that fills the bytecode
    cache where it may be written) and keep every wall time."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
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
        _timed(["--help"], env)
        _timed([*run, "--out", str(Path(tmp) / "warm")], env)
        helps = [_timed(["--help"], env) for _ in range(repeats)]
        runs = [_timed([*run, "--out", str(Path(tmp) / f"run{i}")], env) for i in range(repeats)]
    return ColdStart(helps, runs, cached)
