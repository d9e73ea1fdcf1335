"""A task's home in time: engine, simulator, and the home as it was before the agent acted.

The verifier needs more than two snapshots for goals that play out later: it runs the agent's
final home forward (schedules and rules included) and compares it with the same home left
alone, run forward just as far. Both futures are fresh copies; the task's own world is never
advanced by verification.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from smh_core.homeenv.engine import ENV_PREFIX, HomeEngine
from smh_core.homeenv.rules import Rule
from smh_core.homeenv.snapshot import Snapshot
from smh_core.sim.simulator import Simulator


def derived_locators(engine: HomeEngine) -> set[tuple[str, str]]:
    """Attributes the simulator writes by itself (sensor readings, countdowns, phases)."""
    out: set[tuple[str, str]] = set()
    for did in engine.device_ids():
        dyn = engine.device(did).dynamics
        if dyn is not None:
            out |= {(did, loc) for loc in dyn.derived()}
    return out


def room_climate(did: str, locator: str) -> bool:
    """A room variable (temperature, light level ...): physics and devices move it, never an
    agent directly, so no goal counts it as a change the agent made."""
    return did.startswith(ENV_PREFIX)


def not_the_agents(engine: HomeEngine) -> Callable[[str, str], bool]:
    """:meth:`World.ignored` for a home without its world (inside Home Assistant): room climate
    and what the simulator writes itself are no agent's change."""
    derived = derived_locators(engine)
    return lambda did, locator: room_climate(did, locator) or (did, locator) in derived


@dataclass
class World:
    engine: HomeEngine
    sim: Simulator
    initial: Snapshot
    initial_rules: list[Rule]
    start: datetime
    derived: set[tuple[str, str]] = field(default_factory=set)
    initial_schedules: set[str] = field(default_factory=set)

    @classmethod
    def attach(cls, engine: HomeEngine, start: datetime) -> World:
        """Put ``engine`` (task overrides applied) on a simulated clock starting at ``start``."""
        sim = Simulator(engine, now=start)
        return cls(
            engine,
            sim,
            engine.snapshot(),
            sim.rules(),
            start,
            derived_locators(engine),
            {s.id for s in sim.schedules()},
        )

    def ignored(self, did: str, locator: str) -> bool:
        """Not part of preservation checks: room climate and simulator-written attributes."""
        return room_climate(did, locator) or (did, locator) in self.derived

    def future(self) -> Simulator:
        """A copy of the agent's final home, with its clock, schedules and rules."""
        return Simulator(HomeEngine(self.sim.to_home()))

    def untouched_future(self) -> Simulator:
        """A copy of the home as it was before the agent acted (the loaded home's schedules
        and rules, none of the agent's)."""
        engine = HomeEngine(self.engine.home)
        engine.restore(self.initial)
        return Simulator(engine, now=self.start)

    def close(self) -> None:
        self.sim.close()
