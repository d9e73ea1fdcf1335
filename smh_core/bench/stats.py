"""Interval estimates the reports and comparisons share (one module both import, so the
report, the voice report and ``bench compare`` compute the same interval)."""

from __future__ import annotations

import math


def wilson(passed: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a pass rate (95% by default): unlike the normal
    approximation it stays inside [0, 1] and is honest at small n and rates near 0 or 1."""
    if n == 0:
        return (0.0, 0.0)
    p = passed / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
