"""``smh perf sim --peer-simuhome PATH``: SMH's per-tick stepping beside SimuHome's own, same run.

SimuHome (github.com/standardwish/SimuHome, the paper's simulator; not on PyPI) is loaded from
the user's checkout with its own imports (its simulator core needs only pydantic; its server,
agents and LLM clients are not imported). One of its episodes (by default the first of its
``data/benchmark`` episodes with 27 devices, the home size of the paper's timing) becomes
both homes:

- SimuHome: its ``Home`` filled by its own ``initialize_home_from_config`` from the episode's
  ``initial_home_config`` (its device classes, its four aggregators per room), then its own
  simulation loop run in this thread with ``fast_forward`` (no sleeping) for ``ticks`` ticks.
  Each tick: every time-aware device's clusters tick (appliance timers), every room's
  temperature, humidity, illuminance and PM10 aggregators poll their devices, recompute their
  effects if a device changed, take one Euler step and write the readings into the devices'
  sensor attributes; then the workflow and API queues are looked at (both empty). Its
  fast-forward step (``__advance_one_tick``: the same without the API queue and the loop's
  clock reads) is timed too.
- SMH: the same episode through the SimuHome importer (:func:`.importers.simuhome.episode_home`:
  same rooms and device ids, the Matter catalog's devices with the episode's attribute values,
  the room state as the room's initial climate), an engine and a simulator over it, and
  ``advance(ticks / 10, exact=True)``: every tick, every room's temperature, humidity, PM2.5
  and PM10 take one step of the room law, every changed room value, sensor reading, light
  level, air-quality class and appliance countdown is written into the engine, and appliance
  ends, schedules, cron rules and timers are checked. A write's changes go to the engine's
  listeners; those of room values are made only when someone besides the simulator listens
  (or a rule watches room values), so SMH is timed twice: alone, as SimuHome's loop (which
  tells nobody), and with a second listener on the engine (as with the HA integration
  attached), where every room value's change is made.

Not the same physics (SimuHome's aggregators and SMH's room law are different models with
different constants) nor the same values: the same home, ticked by each simulator's own code.
Each round builds both homes afresh (outside the timing), so every round times the same first
``ticks`` ticks of the episode; the order alternates between rounds; times are this process's
CPU time (``time.process_time``), as the machine is shared.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PEER_DEVICES = 27
"""Devices of the episode picked by default (the home size of SimuHome's own timing)."""

HOW_TO_GET = (
    "get a checkout with `git clone https://github.com/standardwish/SimuHome` (its simulator "
    "needs Python >= 3.13 and pydantic; nothing else of its requirements is imported)"
)
MARKER = Path("src/simulator/domain/home.py")
EPISODES = Path("data/benchmark")


class PeerUnavailable(Exception):
    """The SimuHome checkout cannot be used here; the message says why and what to do."""


@dataclass(frozen=True)
class PeerRound:
    """One round's CPU microseconds per tick on each side."""

    simuhome_us: float
    """SimuHome's simulation loop (``fast_forward``), per tick."""
    simuhome_step_us: float
    """SimuHome's fast-forward step (the loop's tick without the API queue), per tick."""
    smh_us: float
    """SMH's ``advance(..., exact=True)``, per tick (the simulator the engine's one listener)."""
    smh_listened_us: float
    """The same with a second listener on the engine (as the HA integration or a trace is):
    every tick's room-value changes are made for it."""

    @property
    def ratio(self) -> float:
        """How many times faster SMH's tick is than SimuHome's loop's (above 1: faster)."""
        return self.simuhome_us / self.smh_us

    @property
    def step_ratio(self) -> float:
        """The same against SimuHome's leaner fast-forward step."""
        return self.simuhome_step_us / self.smh_us

    @property
    def listened_ratio(self) -> float:
        """SimuHome's loop against SMH with a second listener."""
        return self.simuhome_us / self.smh_listened_us


@dataclass(frozen=True)
class PeerResult:
    episode: str
    simuhome_devices: int
    smh_devices: int
    rooms: int
    ticks: int
    rounds: tuple[PeerRound, ...]
    left_out: tuple[str, ...]
    """What the importer could not carry over (device or attribute, and why)."""

    @property
    def simuhome_us(self) -> float:
        return statistics.median(r.simuhome_us for r in self.rounds)

    @property
    def simuhome_step_us(self) -> float:
        return statistics.median(r.simuhome_step_us for r in self.rounds)

    @property
    def smh_us(self) -> float:
        return statistics.median(r.smh_us for r in self.rounds)

    @property
    def ratio(self) -> float:
        """The median of the rounds' ratios (each round's two sides ran moments apart)."""
        return statistics.median(r.ratio for r in self.rounds)

    @property
    def smh_listened_us(self) -> float:
        return statistics.median(r.smh_listened_us for r in self.rounds)

    @property
    def step_ratio(self) -> float:
        return statistics.median(r.step_ratio for r in self.rounds)

    @property
    def listened_ratio(self) -> float:
        return statistics.median(r.listened_ratio for r in self.rounds)


def device_count(config: dict[str, Any]) -> int:
    """Devices in an episode's ``initial_home_config``."""
    return sum(len(room.get("devices") or []) for room in (config.get("rooms") or {}).values())


def pick_episode(root: Path, episode: Path | None = None) -> Path:
    """``episode`` (a path, or a file name under the checkout's ``data/benchmark``), or the
    first episode there (in name order) with :data:`PEER_DEVICES` devices."""
    folder = root / EPISODES
    if episode is not None:
        for candidate in (episode, folder / episode):
            if candidate.is_file():
                return candidate
        raise PeerUnavailable(f"no episode file {episode} (nor {folder / episode})")
    if not folder.is_dir():
        raise PeerUnavailable(f"{root} has no {EPISODES} folder of episodes; {HOW_TO_GET}")
    for path in sorted(folder.glob("qt*_seed_*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if device_count(data["initial_home_config"]) == PEER_DEVICES:
            return path
    raise PeerUnavailable(f"no episode with {PEER_DEVICES} devices under {folder}")


@contextmanager
def simuhome_modules(root: Path) -> Iterator[tuple[Any, Any, Any]]:
    """SimuHome's ``Home``, ``SimulationConfig`` and ``initialize_home_from_config``, imported
    from the checkout at ``root`` (its package is named ``src``; ``root`` is on ``sys.path``
    only while the block runs)."""
    if not (root / MARKER).is_file():
        raise PeerUnavailable(f"{root} is not a SimuHome checkout (no {MARKER}); {HOW_TO_GET}")
    loaded = sys.modules.get("src")
    if loaded is not None and not str(getattr(loaded, "__file__", "")).startswith(
        str(root.resolve())
    ):
        raise PeerUnavailable(
            f"another package named 'src' is already imported ({loaded!r}); SimuHome's package "
            "has that name: run the comparison in a fresh process"
        )
    entry = str(root.resolve())
    sys.path.insert(0, entry)
    try:
        try:
            from src.simulator.application.home_initializer import (  # type: ignore[import-not-found]
                SimulationConfig,
                initialize_home_from_config,
            )
            from src.simulator.domain.home import Home  # type: ignore[import-not-found]
        except ModuleNotFoundError as e:
            raise PeerUnavailable(
                f"SimuHome's simulator imports {e.name!r}, which this Python lacks (install "
                "it into this environment to compare; SMH itself does not need it)"
            ) from e
        yield Home, SimulationConfig, initialize_home_from_config
    finally:
        sys.path.remove(entry)


def _simuhome_home(modules: tuple[Any, Any, Any], config: dict[str, Any]) -> Any:
    home_cls, config_cls, initialize = modules
    cfg = config_cls(**config)
    home = home_cls(
        tick_interval=cfg.tick_interval,
        enable_aggregators=cfg.enable_aggregators,
        fast_forward=True,
        base_time=cfg.base_time,
    )
    result = initialize(home, cfg)
    if not result.success:
        raise PeerUnavailable(
            f"SimuHome could not build the episode's home: {result.error_message}"
        )
    return home


def _simuhome_loop_us(home: Any, ticks: int) -> float:
    """SimuHome's own simulation loop, run in this thread until ``ticks`` more ticks."""
    target = home.current_tick + ticks
    home.max_ticks = target
    home.is_running = True
    t0 = time.process_time()
    home._Home__simulation_loop()
    spent = time.process_time() - t0
    if home._fatal_error is not None or home.current_tick != target:
        raise PeerUnavailable(
            f"SimuHome's loop stopped at tick {home.current_tick}: {home._fatal_error}"
        )
    return spent / ticks * 1e6


def _simuhome_step_us(home: Any, ticks: int) -> float:
    """SimuHome's fast-forward step (what its ``_fast_forward_to`` runs tick by tick)."""
    step = home._Home__advance_one_tick
    t0 = time.process_time()
    for _ in range(ticks):
        step(None, start_workflow_inline=True)
    return (time.process_time() - t0) / ticks * 1e6


def _smh_us(home: Any, ticks: int, listened: bool = False) -> float:
    from smh_core.homeenv.engine import HomeEngine
    from smh_core.sim.simulator import Simulator

    engine = HomeEngine(home)
    if listened:
        engine.add_listener(lambda changes: None)
    with Simulator(engine) as sim:
        t0 = time.process_time()
        sim.advance(ticks / 10, exact=True)
        return (time.process_time() - t0) / ticks * 1e6


def measure_peer(
    root: Path, episode: Path | None = None, ticks: int = 20_000, rounds: int = 5
) -> PeerResult:
    """Interleaved rounds of both simulators' per-tick cost on one episode's home."""
    if ticks < 1:
        raise ValueError(f"ticks must be at least 1, got {ticks}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    from smh_core.importers.simuhome import episode_home

    with simuhome_modules(root) as modules:
        path = pick_episode(root, episode)
        config = json.loads(path.read_text(encoding="utf-8"))["initial_home_config"]
        home, report = episode_home(path)
        done: list[PeerRound] = []
        for i in range(rounds):
            loop_home = _simuhome_home(modules, config)
            step_home = _simuhome_home(modules, config)
            if i % 2:
                smh = _smh_us(home, ticks)
                heard = _smh_us(home, ticks, listened=True)
                loop = _simuhome_loop_us(loop_home, ticks)
                step = _simuhome_step_us(step_home, ticks)
            else:
                loop = _simuhome_loop_us(loop_home, ticks)
                step = _simuhome_step_us(step_home, ticks)
                heard = _smh_us(home, ticks, listened=True)
                smh = _smh_us(home, ticks)
            done.append(PeerRound(loop, step, smh, heard))
    return PeerResult(
        episode=path.name,
        simuhome_devices=device_count(config),
        smh_devices=len(home.devices),
        rooms=len(config.get("rooms") or {}),
        ticks=ticks,
        rounds=tuple(done),
        left_out=tuple(f"{item}: {why}" for item, why in report.skipped),
    )
