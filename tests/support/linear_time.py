"""A linear-time check that holds on a busy machine: the time on a long input against the time
on one a fifth as long. A quadratic pattern takes 25 times as long on the long one, a linear one
5 times; an absolute limit in seconds fails whenever the machine is loaded, this ratio does not."""

from __future__ import annotations

import time
from collections.abc import Callable


def _seconds(run: Callable[[str], object], text: str) -> float:
    best = float("inf")
    for _ in range(2):  # the better of two: a pause of the machine is not the pattern's
        start = time.perf_counter()
        run(text)
        best = min(best, time.perf_counter() - start)
    return best


def assert_linear(run: Callable[[str], object], unit: str, length: int = 100_000) -> None:
    """``run`` on ``unit`` repeated to ``length`` characters grows about linearly from a fifth of it."""

    def text(n: int) -> str:
        return (unit * (n // len(unit) + 1))[:n]

    short, long = _seconds(run, text(length // 5)), _seconds(run, text(length))
    assert long < 0.3 or long < 12 * max(short, 0.02), (
        f"{short:.3f} s on {length // 5:,}, {long:.3f} s on {length:,}"
    )
