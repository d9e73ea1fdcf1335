"""The simulator's time base and what its parts share: 0.1 s ticks, the default start, the
error that stops a simulation and the record of what it did on its own."""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

TICKS_PER_SECOND = 10
DEFAULT_START = datetime(2025, 6, 27, 12, 0, 0)
US_PER_TICK = 100_000
MAX_REACTIONS = 10_000
"""Reaction rounds to one change before rules are taken to trigger each other forever."""


class SimulationError(RuntimeError):
    """The simulation cannot go on (e.g. rules that keep triggering each other forever)."""


@dataclass(slots=True)
class SimEvent:
    """Something the simulator did on its own, for logs, traces and tests."""

    time: datetime
    kind: str  # schedule | rule | cycle_complete
    ref: str
    ok: bool = True
    detail: str = ""


def queue_due(queue: list[tuple[int, str]], current: Mapping[str, int], tick: int) -> list[str]:
    """Take every entry at or before ``tick`` off a queue of ``(tick, key)``; the keys whose
    entry was still ``current[key]``, each once, in queue order (see :func:`queue_head`; a key
    planned twice for the same tick has two entries)."""
    out: list[str] = []
    while queue and queue[0][0] <= tick:
        at, key = heapq.heappop(queue)
        if current.get(key) == at and key not in out:
            out.append(key)
    return out


def queue_head(queue: list[tuple[int, str]], current: Mapping[str, int]) -> int | None:
    """The earliest tick of a queue of ``(tick, key)`` whose entry is still ``current[key]``
    (entries superseded since are dropped on the way), or ``None``: the rooms' and appliances'
    event queues, where an entry is replaced by pushing a new one rather than found and moved."""
    while queue:
        tick, key = queue[0]
        if current.get(key) == tick:
            return tick
        heapq.heappop(queue)
    return None
