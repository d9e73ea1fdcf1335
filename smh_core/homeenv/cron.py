"""Cron expressions for time triggers: Unix (5 fields) and Quartz (6 or 7 fields).

SMH-Bench writes time triggers in the Quartz form ``sec min hour day month weekday [year]``
(``0 0 22 27 6 ? 2024`` = 22:00:00 on 27 June 2024, ``0 0 14 * * ? *`` = every day at 14:00).
croniter evaluates them once three Quartz conventions are translated:

* ``?`` ("no specific value") becomes ``*``, and day-of-month and weekday are combined with
  AND (croniter's default ORs them, which would turn "the 27th" into "every day");
* Quartz weekdays are 1-7 from Sunday, cron's are 0-6 from Sunday;
* the seconds field comes first.

croniter is imported on the first expression, not with this module: importing it costs 15 ms
and runs ``file`` on the interpreter (``platform.architecture()``), paid by every command that
loads the engine, most of which never see a time trigger.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from croniter import croniter


class CronError(ValueError):
    """A cron expression that cannot be parsed; the message names the expression."""


@lru_cache(maxsize=1024)
def _expanded(normalised: str, seconds: bool) -> croniter:
    """A croniter for ``normalised``, parsed once: parsing (field expansion) dominates the cost
    of a single ``next_after``, and the verifier asks for hundreds of fire times per rule.
    Callers copy it before moving its cursor."""
    from croniter import croniter

    return croniter(normalised, datetime(2000, 1, 1), second_at_beginning=seconds, day_or=False)


@dataclass(frozen=True, slots=True)
class Cron:
    """A parsed expression, normalised for croniter (seconds first when ``seconds``)."""

    text: str
    normalised: str
    seconds: bool

    def next_after(self, when: datetime) -> datetime | None:
        """The first match strictly after ``when``, or ``None`` if there is none (a past year)."""
        from croniter import CroniterBadDateError

        try:
            it = copy.copy(_expanded(self.normalised, self.seconds))
            it.set_current(when, force=True)
            return it.get_next(datetime)
        except CroniterBadDateError:
            return None

    def matches(self, when: datetime) -> bool:
        """Whether ``when`` (to the second) is a match."""
        t = when.replace(microsecond=0)
        return self.next_after(t - timedelta(seconds=1)) == t


def _quartz_weekday(field: str) -> str:
    """Shift numeric Quartz weekdays (1 = Sunday) to cron's (0 = Sunday); names pass through."""

    def shift(m: re.Match[str]) -> str:
        n = int(m.group(0))
        if not 1 <= n <= 7:
            raise CronError(f"Quartz weekday {n} is outside 1-7")
        return str(n - 1)

    # numbers after '#' are "nth weekday of the month" counts, not weekdays
    head, sep, tail = field.partition("#")
    head = re.sub(r"(?<![A-Za-z/])\d+", shift, head)
    return head + sep + tail


@lru_cache(maxsize=4096)
def parse_cron(text: str) -> Cron:
    """Parse a 5-field Unix or 6/7-field Quartz expression; :class:`CronError` if invalid."""

    fields = text.split()
    if len(fields) == 5:
        normalised, seconds = " ".join(f.replace("?", "*") for f in fields), False
    elif len(fields) in (6, 7):
        fs = [f.replace("?", "*") for f in fields]
        if fields[5] != "?":
            try:
                fs[5] = _quartz_weekday(fields[5])
            except CronError as e:
                raise CronError(f"cron {text!r}: {e}") from None
        normalised, seconds = " ".join(fs), True
    else:
        raise CronError(
            f"cron {text!r}: expected 5 (Unix) or 6-7 (Quartz) fields, got {len(fields)}"
        )
    from croniter import CroniterBadCronError, croniter

    try:
        croniter(normalised, datetime(2000, 1, 1), second_at_beginning=seconds, day_or=False)
    except (CroniterBadCronError, ValueError, KeyError) as e:
        raise CronError(f"cron {text!r}: {e}") from None
    return Cron(text, normalised, seconds)
