"""A linear-time check that holds on a busy machine: the time on a long input against the time
on one a fifth as long. A quadratic pattern takes 25 times as long on the long one, a linear one
5 times; an absolute limit in seconds fails whenever the machine is loaded, this ratio does not.
Times are this process's CPU time with the cycle collector paused: on a loaded machine wall time
counts other jobs' turns, and a collection that happens to fall in the long run (it makes more
objects) cost one clean-clone run a 12.5x ratio on a linear function."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def _seconds(run: Callable[[str], object], text: str) -> float:
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        run(text)
        return time.process_time() - start
    finally:
        if enabled:
            gc.enable()


def _best_of_interleaved(
    run: Callable[[str], object], short: str, long: str, rounds: int = 2
) -> tuple[float, float]:
    """The better of ``rounds`` timings of each, taken in turn (short, long, short, long): a
    stretch of load from other jobs then slows both sizes alike instead of one of them."""
    best_short = best_long = float("inf")
    for _ in range(rounds):
        best_short = min(best_short, _seconds(run, short))
        best_long = min(best_long, _seconds(run, long))
    return best_short, best_long


def assert_linear(run: Callable[[str], object], unit: str, length: int = 100_000) -> None:
    """``run`` on ``unit`` repeated to ``length`` characters grows about linearly from a fifth of it."""

    def text(n: int) -> str:
        return (unit * (n // len(unit) + 1))[:n]

    short, long = _best_of_interleaved(run, text(length // 5), text(length))
    assert long < 0.3 or long < 12 * max(short, 0.02), (
        f"{short:.3f} s on {length // 5:,}, {long:.3f} s on {length:,}"
    )
