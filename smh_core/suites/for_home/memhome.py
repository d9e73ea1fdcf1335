"""The ``memhome`` suite written for one given home: memory add, update, delete and use
decisions (and requests that must not be remembered) about that home's devices and values.

The suite's own draw (:func:`smh_core.suites.memhome_suite.consistent_draw`: a maker, kept
when its memory bank is consistent) draws from the given home; each task is validated as the
shipped suite's are (the reference passes; doing nothing fails, or passes where doing nothing
is the right decision: a phone number is not a device preference).
"""

from __future__ import annotations

import random
from pathlib import Path

from smh_core.homeenv.model import Home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from ..common import validate
from ..memhome_suite import SUBCATEGORIES, consistent_draw, made_task
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


def generate_memhome(
    home: Home,
    out: Path,
    stem: str,
    seed: int = 0,
    per_subcategory: int = 10,
    *,
    real: RealCheck | None = None,
) -> HomeTasks:
    """MemHome's subcategories on ``home``, ``per_subcategory`` tasks each where the home
    allows; the home is written to ``out/homes/<stem>.json`` (what the tasks name). ``real``:
    for a twin, what its HA can run (:func:`.base.real_for`)."""
    real = real_for(home, real)
    home_file = write_home(home, out, stem)
    cache = HomeCache(out)
    unknown = unknown_values(home)
    level = difficulty(home)

    def make(sub: str, idx: int) -> tuple[Task | None, str]:
        def draw(rng: random.Random) -> Task | None:
            made = consistent_draw(sub, home.model_copy(deep=True), rng, idx)
            if made is None:
                return None
            task_id = f"{stem}-memhome-{sub}-{idx:03d}"
            return made_task(made, task_id, sub, level, {"file": home_file})

        rng = random.Random(f"home:{stem}:{seed}:memhome:{sub}:{idx}")
        return first_draw(rng, draw, home, unknown, "no device setting of this home fits", real)

    result = HomeTasks(
        [],
        per_subcategory,
        suite="memhome",
        title="MemHome",
        subcategories=dict.fromkeys(SUBCATEGORIES, "memory"),
    )
    return collect(result, SUBCATEGORIES, make, lambda task: validate([task], cache))
