"""Fast-forward (event to event, closed-form physics) == stepping every 0.1 s tick."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smh_core.homeenv.engine import dump_home
from smh_core.sim.simulator import Simulator
from tests.sim.test_simulator import assert_same
from tests.support import sim_home as sh

_CALLS = [
    ("ac1", "turn_on", {}),
    ("ac1", "turn_off", {}),
    ("ac1", "fan", {"value": 100}),
    ("ac1", "fan", {"value": 20}),
    ("ac1", "cool_setpoint", {"value": 2550}),
    ("ac1", "mode", {"value": 4}),
    ("ac1", "heat_setpoint", {"value": 2900}),
    ("h1", "turn_on", {}),
    ("h1", "turn_off", {}),
    ("p1", "turn_on", {}),
    ("l1", "turn_on", {}),
    ("l1", "turn_off", {}),
    ("b1", "closed", {"value": 5000}),
    ("w1", "start", {}),
    ("w1", "pause", {}),
    ("w1", "resume", {}),
    ("w1", "change_mode", {"mode": 2}),
    ("w1", "stop", {}),
    ("m1", "occupied", {"value": True}),
    ("m1", "occupied", {"value": False}),
]

scenario = st.fixed_dictionaries(
    {
        "temp": st.floats(min_value=18, max_value=32),
        "ac_on": st.booleans(),
        "setpoint": st.integers(min_value=1600, max_value=3000),
        "fan": st.integers(min_value=0, max_value=100),
        "steps": st.lists(
            st.tuples(
                st.integers(min_value=0, max_value=len(_CALLS) - 1),
                st.integers(min_value=1, max_value=400),
            ),
            min_size=1,
            max_size=4,
        ),
        "threshold": st.integers(min_value=1800, max_value=3000),
        "quick_wash": st.booleans(),
    }
)


def _build(sc: dict) -> Simulator:
    eng = sh.engine(
        sh.ac("ac1", "living", on=sc["ac_on"], setpoint=sc["setpoint"], fan=sc["fan"]),
        sh.humidifier("h1", "living"),
        sh.purifier("p1", "kitchen"),
        sh.lamp("l1", "kitchen"),
        sh.blind("b1", "kitchen"),
        sh.washer("w1", "kitchen"),
        sh.motion("m1", "living"),
        env={"temperature": sc["temp"]},
    )
    sim = Simulator(eng)
    if sc["quick_wash"]:
        eng.execute("w1", "change_mode", {"mode": 2})
        eng.execute("w1", "start")
    sim.add_rule(
        {
            "id": "cool",
            "triggers": [
                {
                    "kind": "numeric",
                    "did": "ac1",
                    "locator": "local_temperature",
                    "below": sc["threshold"],
                }
            ],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        }
    )
    sim.add_rule(
        {
            "id": "done",
            "triggers": [{"kind": "state", "did": "w1", "locator": "op_state", "to": 0}],
            "actions": [{"did": "h1", "locator": "turn_on"}],
        }
    )
    sim.add_rule(
        {
            "id": "idle",
            "triggers": [
                {"kind": "state", "did": "m1", "locator": "occupied", "to": False, "for_s": 90}
            ],
            "actions": [{"did": "l1", "locator": "turn_off"}],
        }
    )
    sim.add_rule(
        {
            "id": "minute",
            "triggers": [{"kind": "time", "cron": "0 */3 * * * ?"}],
            "actions": [{"did": "b1", "locator": "closed", "arguments": {"value": 2500}}],
        }
    )
    return sim


def _play(sc: dict, exact: bool) -> tuple[dict, list]:
    sim = _build(sc)
    for call, wait in sc["steps"]:
        did, loc, args = _CALLS[call]
        sim.engine.execute(did, loc, args)
        sim.advance(wait, exact=exact)
    return json.loads(dump_home(sim.to_home())), [(e.time, e.kind, e.ref) for e in sim.log]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario)
def test_fast_forward_equals_tick_by_tick(sc: dict) -> None:
    fast_state, fast_log = _play(sc, exact=False)
    exact_state, exact_log = _play(sc, exact=True)
    assert fast_log == exact_log
    if (
        sc["quick_wash"]
        and sum(w for _, w in sc["steps"]) > 240
        and not any(_CALLS[c][1] in ("pause", "stop") for c, _ in sc["steps"])
    ):
        assert any(kind == "cycle_complete" for _, kind, _ in fast_log)
    assert_same(fast_state, exact_state)
