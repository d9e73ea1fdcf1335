"""Room physics: the aggregator's per-tick law, its closed form, and its switching rule.

For one room variable ``x`` (temperature °C, humidity %RH, PM µg/m³) during a tick of
``DT = 0.1`` s::

    x' = x + DT * ( d * (o - x)  +  Σ_active k_i * (T_i - x) )          (1)

``d`` is the drift rate towards the outdoor value ``o`` (1/s); device ``i`` pulls with
``k_i = rate_i * scale_i`` (1/s, ``scale_i`` its setting as a fraction, e.g. fan 60 % -> 0.6)
towards ``T_i``: its output (an AC's supply air, ~10 °C) or, without one, its target. Writing ``a = DT * (d + Σ k_i)`` and ``b = DT * (d*o + Σ k_i T_i)``,
(1) is ``x' = (1 - a) x + b``: with a fixed set of active devices it has the exact solution::

    x_n = x* + (x_0 - x*) (1 - a)^n,   x* = b / a                          (2)

so fast-forward jumps ``n`` ticks in one step and lands on the value tick-by-tick stepping
computes (up to float rounding). ``x*`` is also the physical limit: an AC at top fan speed
cannot take the room below the ``x*`` where its pull balances the drift from a hot outdoors,
whatever its setpoint.

A directional pull (cooling: only while ``x`` is above the setpoint ``S``; heating: only while
below) switches on or off when ``x`` crosses ``S``; the tick of the switch is where (2) first changes the active set.
When both sides of ``S`` push back towards it (a thermostat holding its setpoint), ``x`` stays
at ``S`` ("held"); both the closed form and tick-by-tick stepping apply this rule at the tick
of the crossing, so both paths agree.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

DT = 0.1
"""Seconds per tick (SimuHome's tick)."""


@dataclass(frozen=True, slots=True)
class Pull:
    """One device's pull on a room variable: ``k`` (1/s, already scaled) towards ``aim``
    while the variable is on the acting side of ``target`` (its setpoint)."""

    k: float
    target: float
    direction: str = "both"  # down | up | both
    aim: float | None = None
    """What the device pushes towards while it acts (an AC's cold air); defaults to ``target``."""

    @property
    def towards(self) -> float:
        return self.target if self.aim is None else self.aim

    def acts_at(self, x: float) -> bool:
        if self.direction == "down":
            return x > self.target
        if self.direction == "up":
            return x < self.target
        return True


@dataclass(frozen=True, slots=True)
class Track:
    """The law (1) for one room variable while no device setting changes."""

    drift: float
    outdoor: float
    pulls: tuple[Pull, ...]
    fixed: tuple[float, float] | None = field(init=False, repr=False, compare=False)
    """``(a, b)`` when no pull switches (none is directional): one regime everywhere, so the
    coefficients are worked out once instead of on every step (same arithmetic, same floats)."""
    star: float | None = field(init=False, repr=False, compare=False)
    """``x* = b / a`` of the fixed regime (``None`` when it switches or cannot move)."""
    keep: float = field(init=False, repr=False, compare=False)
    """``1 - a`` of the fixed regime: (2) is ``star + (x - star) * keep ** n``."""
    _switching: tuple[Pull, ...] = field(init=False, repr=False, compare=False)
    _tests: tuple[tuple[float, bool], ...] = field(init=False, repr=False, compare=False)
    _key: Callable[[float], object] = field(init=False, repr=False, compare=False)
    _targets: frozenset[float] = field(init=False, repr=False, compare=False)
    _held: dict[float, bool] = field(init=False, repr=False, compare=False)
    _regimes: dict[object, tuple[float, float, float | None, float]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        switching = tuple(p for p in self.pulls if p.direction != "both")
        object.__setattr__(self, "_switching", switching)
        tests = tuple((p.target, p.direction == "down") for p in switching)
        object.__setattr__(self, "_tests", tests)
        if len(tests) == 1:  # one thermostat-like pull (the usual case): its flag alone, in C
            target, down = tests[0]
            object.__setattr__(self, "_key", partial(operator.lt if down else operator.gt, target))
        else:
            object.__setattr__(self, "_key", self._flags)
        object.__setattr__(self, "_targets", frozenset(p.target for p in switching))
        object.__setattr__(self, "_held", {})
        object.__setattr__(self, "_regimes", {})
        fixed = None if switching else self._sum(0.0)
        object.__setattr__(self, "fixed", fixed)
        moving = fixed is not None and fixed[0] != 0
        object.__setattr__(self, "star", fixed[1] / fixed[0] if moving else None)
        object.__setattr__(self, "keep", 1.0 - fixed[0] if moving else 1.0)

    def _sum(self, x: float) -> tuple[float, float]:
        a = self.drift
        b = self.drift * self.outdoor
        for p in self.pulls:
            if p.acts_at(x):
                a += p.k
                b += p.k * p.towards
        return a * DT, b * DT

    def active(self, x: float) -> tuple[bool, ...]:
        return tuple(p.acts_at(x) for p in self.pulls)

    def coefficients(self, x: float) -> tuple[float, float]:
        """``(a, b)`` of ``x' = (1 - a) x + b`` in the regime that holds at ``x``."""
        return self._sum(x) if self.fixed is None else self.fixed

    def limit(self, x: float) -> float:
        """``x*``: where the regime holding at ``x`` would settle."""
        a, b = self.coefficients(x)
        return x if a == 0 else b / a

    def _flags(self, x: float) -> tuple[bool, ...]:
        """Which switching pulls act at ``x`` (the others always do): the regime's key."""
        return tuple([x > t if down else x < t for t, down in self._tests])

    def _regime(self, x: float) -> tuple[float, float, float | None, float]:
        """``(a, b, x*, 1 - a)`` of the regime at ``x`` (``x*`` ``None`` where ``a`` is 0),
        worked out once per regime: :meth:`_sum` depends on ``x`` only through which switching
        pulls act, so the cached numbers are the same floats. The regime's key is
        :meth:`_flags`, or with one switching pull its flag alone (``target < x`` for a pull
        down, ``target > x`` for a pull up)."""
        key = self._key(x)
        hit = self._regimes.get(key)
        if hit is None:
            a, b = self._sum(x)
            hit = self._regimes[key] = (a, b, None if a == 0 else b / a, 1.0 - a)
        return hit

    def at(self, x0: float, n: int) -> float:
        """Closed form (2): the value after ``n`` ticks if the regime at ``x0`` held throughout."""
        if self.fixed is not None:
            star = self.star
            if star is None or n == 0:
                return x0
            return star + (x0 - star) * self.keep**n
        _, _, star, keep = self._regime(x0)
        if star is None or n == 0:
            return x0
        return star + (x0 - star) * keep**n

    def held(self, x: float) -> bool:
        """Whether ``x`` sits on a switching target that both neighbouring regimes push towards."""
        if x not in self._targets:  # the usual case, answered without a loop
            return False
        hit = self._held.get(x)  # a thermostat holding its setpoint asks again every window
        if hit is None:  # x is some switching pull's target: do both sides push back to it?
            eps = max(abs(x), 1.0) * 1e-9
            hit = self._held[x] = self.limit(x + eps) <= x and self.limit(x - eps) >= x
        return hit

    def settle(self, x0: float, x1: float) -> float:
        """Apply the switching rule after a move from ``x0`` to ``x1`` that changed the regime."""
        lo, hi = min(x0, x1), max(x0, x1)
        crossed = sorted(
            (
                p.target
                for p in self.pulls
                if p.direction != "both" and lo <= p.target <= hi and p.target != x0
            ),
            key=lambda t: abs(t - x0),
        )
        for t in crossed:
            far = self.limit(x1)
            if (x1 > x0 and far <= t) or (x1 < x0 and far >= t):
                return t
        return x1

    def step(self, x0: float, n: int) -> float:
        """Advance ``n`` ticks within which the regime changes at most at the last tick."""
        if self.fixed is not None:
            return self.at(x0, n)
        if x0 in self._targets and self.held(x0):  # held()'s own first test, without the call
            return x0
        # at(), inlined: only directional pulls can switch, so comparing their flags at both
        # ends is comparing the active sets
        flags = self._key
        key = flags(x0)
        hit = self._regimes.get(key)
        if hit is None:
            hit = self._regime(x0)
        star = hit[2]
        if star is None or n == 0:
            x1 = x0
        else:  # keep ** 1 is keep
            x1 = star + (x0 - star) * (hit[3] if n == 1 else hit[3] ** n)
        if flags(x1) != key:
            return self.settle(x0, x1)
        return x1

    def first_tick(self, x0: float, horizon: int, pred: Callable[[float], bool]) -> int | None:
        """The first ``n`` in ``1..horizon`` with ``pred(at(x0, n))``, for predicates monotone
        along the trajectory (thresholds); ``None`` if it does not happen within the horizon."""
        if horizon < 1 or self.held(x0) or not pred(self.at(x0, horizon)):
            return None
        lo, hi = 1, horizon
        while lo < hi:
            mid = (lo + hi) // 2
            if pred(self.at(x0, mid)):
                hi = mid
            else:
                lo = mid + 1
        return lo

    def next_switch(self, x0: float, horizon: int) -> int | None:
        """The first tick at which the active set of pulls changes (a regime boundary)."""
        if self.fixed is not None:
            return None
        start = self.active(x0)
        return self.first_tick(x0, horizon, lambda x: self.active(x) != start)


def ticks_for(seconds: float) -> int:
    """Whole ticks in ``seconds`` (rounded to the nearest tick)."""
    return int(round(seconds / DT))


def crossing_seconds(x0: float, target: float, track: Track) -> float | None:
    """Seconds until ``x`` reaches ``target`` under (2), or ``None`` if it never does.

    A convenience for task generators and agents' explanations ("about 6 minutes").
    """
    a, b = track.coefficients(x0)
    if a == 0:
        return None
    star = b / a
    if (
        (x0 - star) == 0
        or (target - star) / (x0 - star) <= 0
        or abs(target - star) > abs(x0 - star)
    ):
        return None
    n = math.log((target - star) / (x0 - star)) / math.log(1.0 - a)
    return n * DT
