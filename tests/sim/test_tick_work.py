"""Per-tick work the state does not need is skipped, with the same results (issue 37).

An appliance's shown countdown and phase are worked out once per change, not every tick; the
room-value changes of a tick are made only when someone besides the simulator reads them.
"""

from __future__ import annotations

import dataclasses
import random

from smh_core.homeenv.dynamics import Cycle, Phase
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import Change
from smh_core.homes.simulated import generate_matter_home
from smh_core.perf.sim import switch_everything_on
from smh_core.sim.appliances import ApplianceRun
from smh_core.sim.simulator import Simulator


def _spec(phase_attr: bool) -> Cycle:
    return Cycle(
        state_attr="state",
        running="running",
        paused="paused",
        stopped="stopped",
        countdown_attr="left",
        phase_attr="phase" if phase_attr else None,
        phase_in_state=not phase_attr,
        programs={"*": [Phase(name="wash", seconds=10), Phase(name="spin", seconds=5)]},
    )


def test_shown_is_what_a_fresh_reading_gives_at_every_tick() -> None:
    """Running, paused, resumed, restarted and past its end, with phases of random lengths:
    the remembered reading is always the one worked out from scratch."""
    rng = random.Random(7)
    for trial in range(40):
        ends, acc = [], 0
        for _ in range(rng.randint(1, 4)):
            acc += rng.randint(1, 60)
            ends.append(acc)
        run = ApplianceRun(
            "w1",
            _spec(phase_attr=trial % 2 == 0),
            phase_ends=ends,
            phase_names=[f"p{i}" for i in range(len(ends))],
            phase_states=[rng.choice([None, "docking"]) for _ in ends],
            remaining=acc,
            seg_start=0,
        )
        tick = 0
        while tick < acc + 40:
            fresh = dataclasses.replace(run, _memo=None).shown(tick)
            assert run.shown(tick) == fresh, (trial, tick)
            roll = rng.random()
            if roll < 0.03 and run.seg_start is not None:  # pause
                run.remaining, run.seg_start = run.left(tick), None
            elif roll < 0.06 and run.seg_start is None:  # resume
                run.seg_start = tick
            elif roll < 0.07:  # a new programme (a new list, as _load_program makes)
                run.phase_ends = [e + 5 for e in run.phase_ends]
                run.remaining, run.seg_start = run.phase_ends[-1], tick
            tick += rng.choice([1, 1, 1, 3, 10])


def _stepped(extra_listener: bool) -> tuple[HomeEngine, list[list[Change]]]:
    engine = HomeEngine(generate_matter_home(0))
    switch_everything_on(engine)
    seen: list[list[Change]] = []
    if extra_listener:
        engine.add_listener(seen.append)
    with Simulator(engine) as sim:
        sim.advance(120, exact=True)
    return engine, seen


def test_room_changes_reach_other_listeners_and_the_state_is_the_same_without_them() -> None:
    quiet, _ = _stepped(extra_listener=False)
    heard, seen = _stepped(extra_listener=True)
    assert quiet.snapshot() == heard.snapshot()
    assert len(seen) == 1 + 1200  # the simulator's first sync, then one batch per tick
    for batch in seen[1:]:  # every room drifts every tick: its values change in every batch
        assert {c.locator for c in batch if c.did.startswith("@")} >= {
            "temperature",
            "humidity",
            "pm25",
            "pm10",
        }
