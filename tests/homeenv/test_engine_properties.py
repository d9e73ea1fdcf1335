"""Property test: arbitrary service calls never crash the engine or corrupt the state.

For random (valid or invalid) calls on every device of a home: ``execute`` never raises,
every attribute stays inside its declared type/range/options, and a rejected call leaves the
snapshot identical.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.homeenv.samples import invalid_value, valid_value
from smh_core.homeenv.validation import compile_checker

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"


def _homes() -> list[tuple[str, Home]]:
    homes = [("tiny", Home.model_validate_json(FIXTURE.read_text()))]
    from smh_core.homes.generator import generate_home

    homes.append(("medium-3", generate_home("medium", 3)))
    return homes


HOMES = _homes()


def _locators(engine: HomeEngine, did: str) -> list[tuple[str, list]]:
    dev = engine.device(did)
    out = [(s.name, s.arguments) for s in dev.services]
    out += [(f"{c.name}.{s.name}", s.arguments) for c in dev.components for s in c.services]
    return out


def _random_call(engine: HomeEngine, rng: random.Random) -> tuple[str, str, object]:
    dids = engine.device_ids()
    did = rng.choice(dids) if rng.random() < 0.95 else "no-such-device"
    if did not in dids:
        return did, "turn_on", {}
    locs = _locators(engine, did)
    roll = rng.random()
    if roll < 0.05:
        return did, "no_such_service", {}
    if roll < 0.10:
        attr = rng.choice(list(engine.status(did)))
        return did, attr, {"value": rng.choice([0, "x", True, None, 1.5])}
    name, arg_specs = rng.choice(locs)
    args: dict = {}
    for a in arg_specs:
        r = rng.random()
        if r < 0.7:
            args[a.name] = valid_value(a, rng)
        elif r < 0.9:
            args[a.name] = invalid_value(a, rng)
        # else: omitted
    if rng.random() < 0.05:
        args["unexpected"] = 1
    if rng.random() < 0.02:
        return did, name, ["not", "a", "dict"]
    return did, name, args


def _assert_state_valid(engine: HomeEngine) -> None:
    for did in engine.device_ids():
        dev = engine.device(did)
        attrs = [(a.name, a) for a in dev.attributes]
        attrs += [(f"{c.name}.{a.name}", a) for c in dev.components for a in c.attributes]
        state = engine.status(did)
        for loc, a in attrs:
            problem = compile_checker(a, loc)(state[loc])
            assert problem is None, f"{did}.{loc}: {problem}"


@pytest.mark.parametrize(("name", "home"), HOMES, ids=[h[0] for h in HOMES])
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1), steps=st.integers(min_value=1, max_value=40)
)
def test_random_calls_never_corrupt_state(name, home, seed, steps):
    engine = HomeEngine(home)
    rng = random.Random(seed)
    for _ in range(steps):
        did, loc, args = _random_call(engine, rng)
        before = engine.snapshot()
        result = engine.execute(did, loc, args)  # must not raise
        if not result.ok:
            assert result.error is not None and result.error.message
            assert engine.diff(before, engine.snapshot()) == []
        else:
            key = lambda c: (c.did, c.locator)  # noqa: E731
            assert engine.diff(before, engine.snapshot()) == sorted(result.changes, key=key)
    _assert_state_valid(engine)
