"""What writing a suite's tasks for one given home shares across suites: the result with its
report, the home's size, which of its values it never reported, the one draw-and-validate loop.

A suite's own makers draw each task; here a draw that fails (no fit, the maker raising on a home
it was not written for, a goal judging a value the home never reported, for a twin of a Home
Assistant home a task that HA could never run) is retried up to :data:`DRAWS` times, then left
out and counted with its reason; a task that does not validate is left out the same way. A
subcategory with fewer tasks than asked says why.

Which tasks a twin's HA can run is the real runner's to say, a layer above
(:mod:`smh_core.ha.twin_runnable`): the caller hands it in as a :data:`RealCheck`, and a twin
given none is refused (:func:`real_for`) rather than written tasks its HA would skip.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smh_core.homeenv.critic import Compare, Lit, parse
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home
from smh_core.task.home import override_updates
from smh_core.task.model import Difficulty, Task

DRAWS = 40
"""Draws per task before a subcategory is given up on this home."""

RealCheck = Callable[[Task], "str | None"]
"""Why a task drawn for a twin could never run on the Home Assistant it was made from (the
runner's reason), or None when it can."""

MAKER_ERRORS = (ValueError, KeyError, IndexError, TypeError, AttributeError, RuntimeError)
"""What a suite's maker raises on a home it was not written for: counted, never fatal."""


@dataclass
class HomeTasks:
    """What generating one suite for one home gave: the tasks, and per subcategory why it has
    fewer than asked."""

    tasks: list[Task]
    wanted: int
    """Tasks asked for per subcategory."""
    short: dict[str, str] = field(default_factory=dict)
    """Subcategory -> why it has fewer than ``wanted`` tasks (none: the home cannot support it)."""
    suite: str = "smh"
    title: str = "SMH-Bench"
    subcategories: dict[str, str] = field(default_factory=dict)
    """Row -> its label, in report order: subcategory -> its category, or (``unit`` category)
    category -> its subcategories."""
    unit: str = "subcategory"
    """What a row counts: ``subcategory``, or ``category`` for a suite drawn per category (the
    safety suite: a category's subcategory follows from the home's devices)."""
    notes: list[str] = field(default_factory=list)
    """What the whole suite lacks on this home (a high-risk action no device of it can take)."""

    def counts(self) -> Counter[str]:
        return Counter(t.category for t in self.tasks)

    def markdown(self, home_name: str) -> str:
        by_row = Counter(getattr(t, self.unit) for t in self.tasks)
        per = "subcategory" if self.unit == "subcategory" else "category"
        lines = [
            f"# {self.title} tasks for {home_name}",
            "",
            f"{len(self.tasks)} tasks, {self.wanted} asked per {per}; each validated "
            "(the reference passes on this home, doing nothing fails).",
            "",
        ]
        lines += [f"- {note}" for note in self.notes] + ([""] if self.notes else [])
        if self.unit == "subcategory":
            lines += ["| category | subcategory | tasks | why fewer |", "|---|---|---:|---|"]
        else:
            lines += ["| category | subcategories | tasks | why fewer |", "|---|---|---:|---|"]
        for row, label in self.subcategories.items():
            cells = (label, row) if self.unit == "subcategory" else (row, label)
            lines.append(f"| {cells[0]} | {cells[1]} | {by_row[row]} | {self.short.get(row, '')} |")
        return "\n".join(lines) + "\n"


def difficulty(home: Home) -> Difficulty:
    """The home's size in SMH-Bench's terms (its generated homes: simple up to 10 devices,
    medium up to 40)."""
    n = len(home.devices)
    return "simple" if n <= 10 else "medium" if n <= 40 else "complex"


class TwinUnchecked(ValueError):
    """A twin's tasks were asked for without the check of what its HA can run."""


def is_twin(home: Home) -> bool:
    """Whether ``home`` is a twin that records the Home Assistant it was made from
    (``userdata.ha_mapping``; SMH's own homes record none)."""
    return any(d.userdata.ha_mapping is not None for d in home.devices)


def real_for(home: Home, real: RealCheck | None) -> RealCheck | None:
    """``real``, the check a twin's tasks go through; :class:`TwinUnchecked` for a twin given
    none (its tasks would include ones its HA can never run, as if they were fine)."""
    if real is None and is_twin(home):
        raise TwinUnchecked(
            f"{home.name} is a twin of a Home Assistant home: its tasks are written with the "
            "check of what that HA can run (smh_core.ha.twin_runnable.real_check; `smh tasks "
            "generate --home` passes it)"
        )
    return real


def unknown_values(home: Home) -> dict[str, set[str]]:
    """Per device, the attributes its source home never reported (a twin's off light's colour
    temperature): their values are the catalog's defaults, not the real device's."""
    return {
        d.userdata.did: set(d.userdata.unstated or ()) for d in home.devices if d.userdata.unstated
    }


def pins_unknown(task: Task, home: Home, unknown: dict[str, set[str]]) -> str | None:
    """Why ``task`` would judge a value the home never reported, or None. A goal that compares
    such a value ("put the bed light back how it was": to the default it was given), or a
    question about one, holds on the twin and says nothing about the real home; a value the
    task's own start state sets is known."""
    if not unknown:
        return None
    set_here = {(o.did, loc) for o in task.overrides for loc in o.values}
    goal = task.goal
    critic = getattr(goal, "critic", None)
    for node in parse(critic).comparisons() if critic else ():
        ref = node.left
        if ref.path not in unknown.get(ref.did, ()):
            continue
        # known only when the task's start state sets it and the goal wants another value
        # than the home's default ("back how it was" wants that)
        wanted = (
            node.right.raw if isinstance(node, Compare) and isinstance(node.right, Lit) else None
        )
        default = str(_default(home, ref.did, ref.path))
        if (ref.did, ref.path) not in set_here or wanted is None or wanted == default:
            return f"its goal judges {ref.did} {ref.path}, which the home never reported"
        hidden = _still_unreported(task, home, ref.did)
        if hidden is not None:
            return (
                f"its goal judges {ref.did} {ref.path}, which the home never reported while "
                f"the device was {hidden!r}, as the task leaves it"
            )
    if goal.kind == "query":
        text = " ".join(t.text for t in task.turns).casefold()
        names = {d.userdata.did: d.name.casefold() for d in home.devices}
        for did, locs in unknown.items():
            if names.get(did, "\0") in text:
                for loc in locs:
                    words = loc.rsplit(".", 1)[-1].replace("_", " ")
                    if words in text:
                        return f"it asks for {did} {loc}, which the home never reported"
    return None


def _still_unreported(task: Task, home: Home, did: str) -> str | None:
    """The device's power state when ``task``'s reference is done, if it is the state the home
    was read in (and so the state in which the home did not report the judged value), else
    None. A value HA hides in a state (an off media player's volume, an off light's brightness)
    is not shown by setting it: the task's start state may set it, but while the device stays
    in that state HA shows nothing to judge."""
    device = next(d for d in home.devices if d.userdata.did == did)
    power = dict(device.attributes_by_locator()).get("state")
    if power is None:
        return None
    engine = HomeEngine(home)
    for _field, which, values in override_updates(task):
        engine.set_values(which, values)
    for action in task.reference.actions:
        engine.execute(action.did, action.locator, action.arguments)
    after = engine.value(did, "state")
    return str(after) if after == power.value else None


def _default(home: Home, did: str, locator: str) -> Any:
    device = next(d for d in home.devices if d.userdata.did == did)
    return dict(device.attributes_by_locator())[locator].value


def write_home(home: Home, out: Path, stem: str) -> str:
    """Write ``home`` to ``out/homes/<stem>.json`` (what the tasks name); its path there."""
    home_file = f"homes/{stem}.json"
    (out / "homes").mkdir(parents=True, exist_ok=True)
    (out / home_file).write_text(dump_home(home), encoding="utf-8")
    return home_file


Draw = Callable[[random.Random], "Task | str | None"]
"""One draw of a task: the task, why this draw has none (a string), or None (no fit)."""


def first_draw(
    rng: random.Random,
    draw: Draw,
    home: Home,
    unknown: dict[str, set[str]],
    failure: str,
    real: RealCheck | None = None,
) -> tuple[Task | None, str]:
    """The first of up to :data:`DRAWS` draws that makes a task judging only values the home
    reported and, for a twin, one its HA can run (``real``), or None and why the last draw
    failed (``failure`` if none said)."""
    for _ in range(DRAWS):
        try:
            made = draw(rng)
        except MAKER_ERRORS as e:
            failure = f"the maker fails on this home ({type(e).__name__}: {str(e)[:80]})"
            continue
        if made is None:
            continue
        if isinstance(made, str):
            failure = made
            continue
        why = pins_unknown(made, home, unknown)
        if why is None and real is not None:
            why = real(made)
        if why is None:
            return made, ""
        failure = why
    return None, failure


def collect(
    result: HomeTasks,
    subcategories: Iterable[str],
    make: Callable[[str, int], tuple[Task | None, str]],
    check: Callable[[Task], None],
) -> HomeTasks:
    """``result.wanted`` tasks per subcategory from ``make(sub, idx)`` (a task or why none),
    each kept only when ``check`` (the suite's validation, raising ``ValueError``) accepts it;
    the reasons for the ones left out, counted, go to ``result.short``."""
    for sub in subcategories:
        reasons: list[str] = []
        for idx in range(result.wanted):
            task, why = make(sub, idx)
            if task is None:
                reasons.append(why)
                continue
            try:
                check(task)
            except ValueError as e:
                reasons.append(f"does not validate on this home ({str(e)[:100]})")
                continue
            result.tasks.append(task)
        if reasons:
            result.short[sub] = "; ".join(f"{n} x {w}" for w, n in Counter(reasons).items())
    return result
