"""Simulated homes: a HomeEnv home given a climate per room and a clock.

Room climates are drawn from a seeded generator (same seed, same bytes) around realistic
indoor values, with the window factor depending on the room type (a bathroom gets less daylight
than a living room).
"""

from __future__ import annotations

import random
from datetime import datetime

from smh_core.homeenv.dynamics import Environment
from smh_core.homeenv.generator import generate_home
from smh_core.homeenv.model import Home
from smh_core.homeenv.rules import Simulation

DEFAULT_START = datetime(2025, 6, 27, 12, 0, 0)
_WINDOW = {"living_room": 0.03, "bedroom": 0.02, "kitchen": 0.02, "study": 0.025, "balcony": 0.08,
           "bathroom": 0.005, "corridor": 0.005, "storage": 0.0, "garage": 0.002}


def with_climate(home: Home, seed: int, start: datetime = DEFAULT_START) -> Home:
    """``home`` with an :class:`Environment` on every room and a simulation clock at ``start``."""
    rng = random.Random(f"climate:{seed}")
    rooms = []
    for r in home.rooms:
        env = Environment(
            temperature=round(rng.uniform(20.0, 30.0), 1), humidity=round(rng.uniform(30.0, 65.0), 1),
            pm25=round(rng.uniform(5.0, 60.0), 1), pm10=round(rng.uniform(10.0, 90.0), 1),
            window_factor=_WINDOW.get(r.type, 0.015), base_lux=0.0)
        rooms.append(r.model_copy(update={"environment": env}))
    return home.model_copy(update={"rooms": rooms, "simulation": Simulation(now=start)})


def simulated_home(level: str, seed: int, start: datetime = DEFAULT_START) -> Home:
    """The generated HomeEnv home of ``level``/``seed`` with climates and a clock."""
    return with_climate(generate_home(level, seed), seed, start)  # type: ignore[arg-type]
