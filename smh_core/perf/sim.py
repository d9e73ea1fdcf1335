"""Simulator speed: wall time to fast-forward 24 simulated hours of the complex home.

The home is the generated complex home (31 rooms, 135 devices) with a climate in every room,
every climate device running, lights on, and 20 automations of every trigger kind (cron,
state, numeric threshold on a room or a sensor, "for a duration"). SimuHome, stepping each
0.1 s tick, needs about 36 s for 24 h of a 27-device home on these machines (its paper's
setting); the target here is 2 s.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from smh_core.homeenv.capabilities import switches
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.simulated import simulated_home, with_matter_devices
from smh_core.sim.simulator import Simulator


@dataclass
class SimPerf:
    devices: int
    rooms: int
    rules: int
    simulated_hours: float
    wall_seconds: float
    rule_firings: int
    schedules_run: int
    ticks: int
    windows: int
    rooms_changed: int
    programmes_completed: int


def _rules(engine: HomeEngine, rng: random.Random) -> list[dict[str, Any]]:
    """Rules over the home's own devices: cron, state, numeric, for-duration (the appliance
    rules below bring the total to 20)."""
    dids = engine.device_ids()
    switchable = [(d, loc, s) for d in dids for loc, s in switches(engine.device(d)).items()]
    sensors = [
        (d, loc)
        for d in dids
        if engine.device(d).dynamics
        for loc in [s.attr for s in engine.device(d).dynamics.sensors]
        if loc.endswith("temperature") or loc.endswith("humidity")
    ]
    rooms = engine.simulated_rooms()
    out: list[dict[str, Any]] = []
    crons = ["0 0 * * * ? *", "0 */15 * * * ? *", "0 30 7 ? * 2-6 *", "0 0 22 * * ? *"]
    for i, cron in enumerate(crons):
        d, _, s = rng.choice(switchable)
        out.append(
            {
                "id": f"cron{i}",
                "triggers": [{"kind": "time", "cron": cron}],
                "actions": [{"did": d, "locator": s.on_service if i % 2 else s.off_service}],
            }
        )
    for i in range(5):
        (d1, loc1, s1), (d2, _, s2) = rng.sample(switchable, 2)
        out.append(
            {
                "id": f"state{i}",
                "triggers": [{"kind": "state", "did": d1, "locator": loc1, "to": s1.off_value}],
                "actions": [{"did": d2, "locator": s2.on_service}],
            }
        )
    for i in range(5):
        d2, _, s2 = rng.choice(switchable)
        if i % 2 and sensors:
            d, loc = rng.choice(sensors)
            trig = {
                "kind": "numeric",
                "did": d,
                "locator": loc,
                "below": 24.0 if "temp" in loc else 45.0,
            }
        else:
            trig = {
                "kind": "numeric",
                "did": f"@{rng.choice(rooms)}",
                "locator": "temperature",
                "below": 25.0,
            }
        out.append(
            {
                "id": f"numeric{i}",
                "triggers": [trig],
                "actions": [{"did": d2, "locator": s2.off_service}],
            }
        )
    for i in range(3):
        (d1, loc1, s1), (d2, _, s2) = rng.sample(switchable, 2)
        out.append(
            {
                "id": f"hold{i}",
                "triggers": [
                    {"kind": "state", "did": d1, "locator": loc1, "to": s1.off_value, "for_s": 900}
                ],
                "actions": [{"did": d2, "locator": s2.off_service}],
            }
        )
    return out


def _appliance_rules(engine: HomeEngine) -> list[dict[str, Any]]:
    """Appliances (Matter OperationalState) restarted every three hours."""
    out = []
    for did in engine.device_ids():
        cycle = engine.device(did).dynamics.cycle if engine.device(did).dynamics else None
        start = cycle.state_attr.rsplit(".", 1)[0] + ".Start" if cycle is not None else ""
        if start not in engine.services(
            did
        ):  # HomeEnv appliances start with arguments or after turn_on
            continue
        out.append(
            {
                "id": f"cycle{did}",
                "triggers": [{"kind": "time", "cron": f"0 {len(out) * 7} */3 * * ? *"}],
                "actions": [{"did": did, "locator": start}],
            }
        )
    return out


def switch_everything_on(engine: HomeEngine) -> None:
    """Every Matter device and every switchable part on: the most pulls, lamps and readings."""
    for did in engine.device_ids():
        if "1.OnOff.On" in engine.services(did):  # Matter devices
            engine.execute(did, "1.OnOff.On", {})
        for s in switches(engine.device(did)).values():
            engine.execute(did, s.on_service, {})


def busy_simulator(engine: HomeEngine, seed: int) -> Simulator:
    """A simulator over ``engine`` for a busy day: everything switched on, 20 automations of
    every trigger kind, 10 one-off schedules (the setting of every ``smh perf sim`` figure)."""
    switch_everything_on(engine)
    sim = Simulator(engine)
    rng = random.Random(seed)
    for rule in _rules(engine, rng):
        sim.add_rule(rule)
    for rule in _appliance_rules(engine)[: max(0, 20 - len(sim.rules()))]:
        sim.add_rule(rule)
    for i, did in enumerate(rng.sample(engine.device_ids(), 10)):  # 10 one-off schedules
        s = switches(engine.device(did))
        if s:
            sw = next(iter(s.values()))
            sim.schedule(
                sim.now.replace(hour=13 + i % 10, minute=7 * i % 60),
                [{"did": did, "locator": sw.off_service}],
            )
    return sim


def measure_sim(seed: int = 0, hours: float = 24.0) -> SimPerf:
    engine = HomeEngine(with_matter_devices(simulated_home("complex", seed), seed))
    sim = busy_simulator(engine, seed)
    before = {r: engine.environment(r) for r in engine.simulated_rooms()}
    t0 = time.perf_counter()
    sim.advance(hours * 3600)
    wall = time.perf_counter() - t0
    fired = sum(1 for e in sim.log if e.kind == "rule")
    changed = sum(
        1 for r, env in before.items() if engine.environment(r)["temperature"] != env["temperature"]
    )
    return SimPerf(
        len(engine.device_ids()),
        len(engine.simulated_rooms()),
        len(sim.rules()),
        hours,
        wall,
        fired,
        sum(1 for e in sim.log if e.kind == "schedule"),
        sim.tick,
        sim.windows,
        changed,
        sum(1 for e in sim.log if e.kind == "cycle_complete"),
    )
