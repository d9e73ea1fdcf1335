"""Edge semantics of state and numeric triggers, shared by the simulator and the verifier.

A rule fires once per matching *event*: the value entering the wanted state or band, never
while it merely stays there. The verifier's rule-equivalence check asks the same question of
two rules over probe transitions, so both must use this one definition.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from smh_core.homeenv.shapes import StateTriggerShape, same

if TYPE_CHECKING:  # either form of each (smh_core.homeenv.plain)
    from smh_core.homeenv.rules import NumericTrigger, StateTrigger, TimeCondition


def in_band(value: Any, above: float | None, below: float | None) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    return (above is None or value > above) and (below is None or value < below)


def edge(trigger: StateTrigger | NumericTrigger, before: Any, after: Any) -> tuple[bool, bool]:
    """``(entered, left)`` for a change of the watched value from ``before`` to ``after``.

    ``entered`` fires the rule (or arms its ``for_s`` timer); ``left`` cancels an armed timer.
    """
    if isinstance(trigger, StateTriggerShape):
        entered = (
            (trigger.to is None or same(after, trigger.to))
            and (trigger.from_ is None or same(before, trigger.from_))
            and not same(before, after)
        )
        left = trigger.to is not None and not same(after, trigger.to)
        return entered, left
    was = in_band(before, trigger.above, trigger.below)
    now = in_band(after, trigger.above, trigger.below)
    return now and not was, was and not now


def _seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return parts[0] * 3600 + parts[1] * 60 + (parts[2] if len(parts) > 2 else 0)


def time_condition_holds(cond: TimeCondition, when: datetime) -> bool:
    """Daily window ``after`` (inclusive) to ``before`` (exclusive), wrapping past midnight when
    ``after > before``; and the weekday (0 = Monday) if given."""
    if cond.weekdays is not None and when.weekday() not in cond.weekdays:
        return False
    sec = when.hour * 3600 + when.minute * 60 + when.second
    lo = _seconds(cond.after) if cond.after else None
    hi = _seconds(cond.before) if cond.before else None
    if lo is not None and hi is not None and lo > hi:
        return sec >= lo or sec < hi
    return (lo is None or sec >= lo) and (hi is None or sec < hi)
