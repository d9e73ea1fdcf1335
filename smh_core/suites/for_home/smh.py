"""SMH-Bench's task categories written for one given home: a user's twin of their HA home
(``smh home from-ha``), or any home file (issue 39, item 2).

The suite's own makers (:mod:`smh_core.suites.smh_suite`) draw each task from a home; here they
draw from the user's home alone, so every request names that home's devices, rooms and values.
Each task is validated as every generated task is (its reference passes on the home, doing
nothing fails); a draw the home cannot support, a maker that fails on it, or a task that does
not validate is left out, and a subcategory with no task is listed with the reason. Same home,
same seed, same bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from smh_core.homeenv.model import Home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from ..common import validate
from ..smh_suite import SUBCATEGORIES, TASK_FIELDS, make_task
from .base import (
    HomeTasks,
    RealCheck,
    collect,
    difficulty,
    first_draw,
    real_for,
    unknown_values,
    write_home,
)
from .todo import TODO_SUBCATEGORIES, todo_lists, todo_task


def _draw(
    sub: str, idx: int, home: Home, home_file: str, stem: str, unknown: dict[str, set[str]]
) -> Callable[[random.Random], Task | str | None]:
    """One draw of ``sub`` on a copy of ``home`` (the makers may change the home they get)."""
    level = difficulty(home)

    def draw(rng: random.Random) -> Task | str | None:
        if sub in TODO_SUBCATEGORIES:
            made = todo_task(sub, home, unknown, rng)
        else:
            made = make_task(sub, idx, level, 0, home.model_copy(deep=True), rng)
        if made is None or isinstance(made, str):
            return made
        return Task.model_validate(
            {
                "id": f"{stem}-{sub}-{idx:03d}",
                "suite": "smh",
                "category": {**SUBCATEGORIES, **TODO_SUBCATEGORIES}[sub],
                "subcategory": sub,
                "difficulty": level,
                "home": {"file": home_file},
                "turns": [{"text": made["text"], "replies": made.get("replies", [])}],
                "goal": made["goal"],
                "reference": made["reference"],
                **{k: made[k] for k in TASK_FIELDS if k in made},
            }
        )

    return draw


def generate_for_home(
    home: Home,
    out: Path,
    stem: str,
    seed: int = 0,
    per_subcategory: int = 10,
    *,
    real: RealCheck | None = None,
) -> HomeTasks:
    """SMH-Bench's subcategories on ``home``, ``per_subcategory`` tasks each where the home
    allows, and the to-do list ones (:mod:`.todo`) where it has lists; the home is written to
    ``out/homes/<stem>.json`` (what the tasks name). ``real``: for a twin, what its HA can run
    (:func:`.base.real_for`)."""
    real = real_for(home, real)
    home_file = write_home(home, out, stem)
    cache = HomeCache(out)
    unknown = unknown_values(home)

    def make(sub: str, idx: int) -> tuple[Task | None, str]:
        rng = random.Random(f"home:{stem}:{seed}:{sub}:{idx}")
        draw = _draw(sub, idx, home, home_file, stem, unknown)
        return first_draw(rng, draw, home, unknown, "no device or room of this home fits", real)

    rows = dict(SUBCATEGORIES) | (TODO_SUBCATEGORIES if todo_lists(home) else {})
    result = HomeTasks([], per_subcategory, subcategories=rows)
    return collect(result, rows, make, lambda task: validate([task], cache))
