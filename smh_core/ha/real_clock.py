"""HA's clock for tasks that play out in time on a real home: waiting on it, and when a task's
times come on it.

A real home's clock cannot be run forward as the twin's is, so a rule or schedule task waits
for HA's own time (:class:`WallClock`, real waiting with a progress bar; tests pass HA's test
clock instead, which is why waiting is a :class:`Clock` the runner is given). Times of day stay
the task's: "every day at 12:30" waits for the next 12:30, and a one-shot date ("tomorrow at
6 pm", written for the task's start day) keeps its distance from today (:func:`real_cron`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Protocol

from smh_core.homeenv.cron import parse_cron
from smh_core.homeenv.rules import TimeCondition
from smh_core.homeenv.shapes import TimeConditionShape
from smh_core.progress import tqdm


class TimeSource(Protocol):
    """What waiting needs of an HA client: HA's own clock."""

    async def now(self) -> datetime: ...


class Clock(Protocol):
    """How the runner lets HA's time pass: :class:`WallClock` waits; a test moves HA's clock."""

    step: float
    """Seconds between readings while a checkpoint's window is open."""

    async def wait_until(self, client: TimeSource, when: datetime) -> None: ...


class WallClock:
    """Real waiting until HA's clock (local, naive) reads ``when``, with a progress bar."""

    step = 1.0

    def __init__(self, progress: bool = True) -> None:
        self.progress = progress

    async def wait_until(self, client: TimeSource, when: datetime) -> None:
        now = await client.now()
        total = (when - now).total_seconds()
        if total <= 0:
            return
        with tqdm(
            total=round(total), disable=not self.progress or total < 5, unit="s", desc="waiting"
        ) as bar:
            while (left := (when - now).total_seconds()) > 0:
                await asyncio.sleep(min(left, 1.0))
                now = await client.now()
                bar.n = min(round(total - max(left, 0.0)), round(total))
                bar.refresh()


def _one_shot(text: str) -> tuple[int, int, int] | None:
    """``(year, month, day)`` of a Quartz cron that names one date (``0 0 18 28 6 ? 2024``)."""
    f = text.split()
    if len(f) == 7 and all(x.isdigit() for x in (f[3], f[4], f[6])):
        return int(f[6]), int(f[4]), int(f[3])
    return None


def real_cron(text: str, task_start: datetime, today: datetime) -> str:
    """``text`` on the real clock: a one-shot date keeps its distance in days from the task's
    start day ("tomorrow at 6 pm" is tomorrow's); every other cron stays as it is."""
    date = _one_shot(text)
    if date is None:
        return text
    offset = datetime(*date).date() - task_start.date()
    real = today.date() + offset
    f = text.split()
    f[3], f[4], f[6] = str(real.day), str(real.month), str(real.year)
    return " ".join(f)


def next_firing(
    crons: Iterable[str], conditions: Iterable[Any], after: datetime, limit: int = 400
) -> datetime | None:
    """The first time after ``after`` a time trigger fires with the time conditions met."""
    times = [c for c in conditions if isinstance(c, TimeConditionShape)]
    best: datetime | None = None
    for text in crons:
        when: datetime | None = after
        for _ in range(limit):
            when = parse_cron(text).next_after(when) if when is not None else None
            if when is None:
                break
            if all(_time_ok(c, when) for c in times):
                best = when if best is None else min(best, when)
                break
    return best


def _time_ok(c: TimeCondition, when: datetime) -> bool:
    if c.weekdays is not None and when.weekday() not in c.weekdays:
        return False
    clock = when.strftime("%H:%M:%S")
    after = (c.after or "00:00") + (":00" if c.after and c.after.count(":") == 1 else "")
    before = (c.before or "") + (":00" if c.before and c.before.count(":") == 1 else "")
    if c.after is None and c.before is None:
        return True
    if not before:
        return clock >= after
    if after <= before:
        return after <= clock < before
    return clock >= after or clock < before
