"""SMH-Bench's task categories written for one given home: a user's twin of their HA home
(``smh home from-ha``), or any home file (issue 39, item 2).

The suite's own makers (:mod:`.smh_suite`) draw each task from a home; here they draw from the
user's home alone, so every request names that home's devices, rooms and values. Each task is
validated as every generated task is (its reference passes on the home, doing nothing fails);
a draw the home cannot support, a maker that fails on it, or a task that does not validate is
left out, and a subcategory with no task is listed with the reason. Same home, same seed, same
bytes.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smh_core.homeenv.critic import Compare, Lit, parse
from smh_core.homeenv.engine import dump_home
from smh_core.homeenv.model import Home
from smh_core.task.home import HomeCache
from smh_core.task.model import Difficulty, Task

from .common import validate
from .smh_suite import SUBCATEGORIES, TASK_FIELDS, make_task

DRAWS = 40
"""Draws per task before a subcategory is given up on this home."""

SUITES = ("smh",)
"""Suites that can be written for a given home (the others draw generated homes of their own
shape: SimuHome's Matter homes, SAGE's hand-written ones, the safety suites' injected names)."""


@dataclass
class HomeTasks:
    """What generating for one home gave: the tasks, and per subcategory why it has fewer."""

    tasks: list[Task]
    wanted: int
    """Tasks asked for per subcategory."""
    short: dict[str, str] = field(default_factory=dict)
    """Subcategory -> why it has fewer than ``wanted`` tasks (none: the home cannot support it)."""

    def counts(self) -> Counter[str]:
        return Counter(t.category for t in self.tasks)

    def markdown(self, home_name: str) -> str:
        by_sub = Counter(t.subcategory for t in self.tasks)
        lines = [
            f"# SMH-Bench tasks for {home_name}",
            "",
            f"{len(self.tasks)} tasks, {self.wanted} asked per subcategory; each validated "
            "(the reference passes on this home, doing nothing fails).",
            "",
            "| category | subcategory | tasks | why fewer |",
            "|---|---|---:|---|",
        ]
        for sub, category in SUBCATEGORIES.items():
            lines.append(f"| {category} | {sub} | {by_sub[sub]} | {self.short.get(sub, '')} |")
        return "\n".join(lines) + "\n"


def difficulty(home: Home) -> Difficulty:
    """The home's size in SMH-Bench's terms (its generated homes: simple up to 10 devices,
    medium up to 40)."""
    n = len(home.devices)
    return "simple" if n <= 10 else "medium" if n <= 40 else "complex"


def _unknown(home: Home) -> dict[str, set[str]]:
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


def _default(home: Home, did: str, locator: str) -> Any:
    device = next(d for d in home.devices if d.userdata.did == did)
    return dict(device.attributes_by_locator())[locator].value


def _task(
    sub: str,
    idx: int,
    home: Home,
    home_file: str,
    seed: int,
    stem: str,
    unknown: dict[str, set[str]],
) -> tuple[Task | None, str]:
    """One task of ``sub`` on ``home`` (drawn up to :data:`DRAWS` times), or why there is none
    (``unknown``: :func:`_unknown` of the home)."""
    level = difficulty(home)
    rng = random.Random(f"home:{stem}:{seed}:{sub}:{idx}")
    failure = "no device or room of this home fits"
    for _ in range(DRAWS):
        try:
            made = make_task(sub, idx, level, 0, home.model_copy(deep=True), rng)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
            failure = f"the maker fails on this home ({type(e).__name__}: {str(e)[:80]})"
            continue
        if made is None:
            continue
        task = Task.model_validate(
            {
                "id": f"{stem}-{sub}-{idx:03d}",
                "suite": "smh",
                "category": SUBCATEGORIES[sub],
                "subcategory": sub,
                "difficulty": level,
                "home": {"file": home_file},
                "turns": [{"text": made["text"], "replies": made.get("replies", [])}],
                "goal": made["goal"],
                "reference": made["reference"],
                **{k: made[k] for k in TASK_FIELDS if k in made},
            }
        )
        why = pins_unknown(task, home, unknown)
        if why is None:
            return task, ""
        failure = why
    return None, failure


def generate_for_home(
    home: Home, out: Path, stem: str, seed: int = 0, per_subcategory: int = 10
) -> HomeTasks:
    """SMH-Bench's subcategories on ``home``, ``per_subcategory`` tasks each where the home
    allows; the home is written to ``out/homes/<stem>.json`` (what the tasks name)."""
    home_file = f"homes/{stem}.json"
    (out / "homes").mkdir(parents=True, exist_ok=True)
    (out / home_file).write_text(dump_home(home), encoding="utf-8")
    cache = HomeCache(out)
    result = HomeTasks([], per_subcategory)
    unknown = _unknown(home)
    for sub in SUBCATEGORIES:
        reasons: list[str] = []
        for idx in range(per_subcategory):
            task, why = _task(sub, idx, home, home_file, seed, stem, unknown)
            if task is None:
                reasons.append(why)
                continue
            try:
                validate([task], cache)
            except ValueError as e:
                reasons.append(f"does not validate on this home ({str(e)[:100]})")
                continue
            result.tasks.append(task)
        if reasons:
            result.short[sub] = "; ".join(f"{n} x {w}" for w, n in Counter(reasons).items())
    return result
