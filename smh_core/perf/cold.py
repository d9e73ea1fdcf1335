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


def smh_env() -> dict[str, str]:
    """The environment a fresh ``smh`` process needs to import this interpreter's packages."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def timed_smh(argv: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one fresh ``smh ARGV`` process; a failure raises with its stderr's end."""
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
