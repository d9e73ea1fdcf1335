"""A task's room climates and outdoor weather, applied to its home.

Homes are cached and shared by every task on them (:class:`~smh_core.task.home.HomeCache`),
so the climate goes into a copy: the rooms' :class:`~smh_core.homeenv.dynamics.Environment`
(the engine's starting room variables and the simulator's baselines) and the simulation's
:class:`~smh_core.homeenv.rules.Outdoor` (what rooms drift towards, daylight). A room named
that the home does not have is refused by name, before anything is built.
"""

from __future__ import annotations

from smh_core.homeenv.dynamics import Environment
from smh_core.homeenv.model import Home
from smh_core.homeenv.rules import Simulation
from smh_core.sim.simulator import DEFAULT_START

from .model import TaskClimate


class ClimateError(ValueError):
    """A task climate that does not fit its home; ``field`` is the task field at fault."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


def apply_climate(home: Home, climate: TaskClimate) -> Home:
    """A copy of ``home`` with ``climate`` applied (``home`` itself is left as it was). A room
    without an environment gets one (defaults, then the task's values): the task asked for it
    to be simulated."""
    known = [r.id for r in home.rooms]
    for rid in climate.rooms:
        if rid not in known:
            raise ClimateError(
                f"climate.rooms.{rid}",
                f"unknown room {rid!r} (the home's rooms: {', '.join(known)})",
            )
    rooms = []
    for room in home.rooms:
        wanted = climate.rooms.get(room.id)
        if wanted is not None:
            env = (room.environment or Environment()).model_copy(
                update=wanted.model_dump(exclude_none=True)
            )
            room = room.model_copy(update={"environment": env})
        rooms.append(room)
    simulation = home.simulation
    if climate.outdoor is not None:
        base = simulation or Simulation(now=DEFAULT_START)
        outdoor = base.outdoor.model_copy(update=climate.outdoor.model_dump(exclude_none=True))
        simulation = base.model_copy(update={"outdoor": outdoor})
    return home.model_copy(update={"rooms": rooms, "simulation": simulation})
