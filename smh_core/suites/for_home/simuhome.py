"""The ``simuhome`` suite written for one given home: SimuHome's six query types, feasible and
infeasible, over the device kinds that home has.

The suite's own makers (:data:`smh_core.suites.simuhome_suite.MAKERS`) draw on the given home at
a drawn start time; each task is validated as the shipped suite's are (the reference passes,
doing nothing fails). SimuHome's requests act through Matter clusters (``1.OnOff.OnOff``,
``1.Thermostat...``) and its room physics, so a home without Matter devices (an HA twin's
devices are HomeEnv devices, one per entity) supports none of them, and says so; a Matter home
supports the query types its device kinds allow (no appliance: no "after the dishwasher
finishes"). The twin of a Matter home made with ``smh home from-ha --matter`` holds its Matter
devices, but no room climate (HA shows none): the rows that ask about or act on the room's
temperature, humidity or particulates (QT1's feasible questions, QT2) say so, and the others
are written on its devices.
"""

from __future__ import annotations

import random
from pathlib import Path

from smh_core.homeenv.model import Home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from ..common import validate
from ..simuhome_suite import MAKERS, QUERY_TYPES, QueryHome, made_task, start_time
from .base import (
    HomeTasks,
    RealCheck,
    collect,
    first_draw,
    real_for,
    unknown_values,
    write_home,
)

VARIANTS = ("feasible", "infeasible")
NO_MATTER = (
    "SimuHome's query types act on Matter devices (their clusters and the room physics); "
    "this home has none (the twin of a Home Assistant home keeps the devices its matter "
    "integration serves as Matter devices when made with `smh home from-ha --matter`)"
)
NO_CLIMATE = (
    "SimuHome's {qt} reads the room physics (a room's temperature, humidity, particulates): "
    "this home simulates no room's climate (a twin: Home Assistant shows none)"
)
CLIMATE_ROWS = ("QT1-feasible", "QT2-feasible", "QT2-infeasible")
"""The rows whose every task reads or moves a room's climate."""


def rows() -> dict[str, str]:
    """Subcategory (query type and feasibility) -> query type, in the suite's order."""
    return {f"{qt}-{v}": qt for qt in QUERY_TYPES for v in VARIANTS}


def generate_simuhome(
    home: Home,
    out: Path,
    stem: str,
    seed: int = 0,
    per_subcategory: int = 10,
    *,
    real: RealCheck | None = None,
) -> HomeTasks:
    """SimuHome's query types on ``home``, ``per_subcategory`` tasks per type and feasibility
    where the home allows; the home is written to ``out/homes/<stem>.json``. ``real``: for a
    twin, what its HA can run (:func:`.base.real_for`)."""
    real = real_for(home, real)
    home_file = write_home(home, out, stem)
    result = HomeTasks(
        [], per_subcategory, suite="simuhome", title="SimuHome", subcategories=rows()
    )
    if not any("matter" in d.userdata.tags for d in home.devices):
        result.short = dict.fromkeys(rows(), NO_MATTER)
        return result
    subs = rows()
    if not any(r.environment is not None for r in home.rooms):
        for sub in CLIMATE_ROWS:
            result.short[sub] = NO_CLIMATE.format(qt=subs.pop(sub))
    cache = HomeCache(out)
    unknown = unknown_values(home)

    def make(sub: str, idx: int) -> tuple[Task | None, str]:
        qt, variant = sub.rsplit("-", 1)

        def draw(rng: random.Random) -> Task | None:
            start = start_time(rng)
            h = QueryHome(home.model_copy(deep=True), start)
            try:
                made = MAKERS[qt](h, rng, variant == "feasible")
            finally:
                h.sim.close()
            if made is None:
                return None
            task_id = f"{stem}-simuhome-{qt.lower()}-{variant[0]}-{idx:03d}"
            return made_task(made, task_id, qt, variant, {"file": home_file}, start)

        rng = random.Random(f"home:{stem}:{seed}:simuhome:{sub}:{idx}")
        return first_draw(rng, draw, home, unknown, "no device or room of this home fits", real)

    return collect(result, subs, make, lambda task: validate([task], cache))
