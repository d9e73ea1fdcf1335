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


# Rooms keep their own clocks between events (issue 37): a room no rule watches is integrated
# only when something needs it. These scenarios put the needs where only that path has them: a
# rule's condition reading a room nobody watches, a rule acting on a device in such a room, a
# heater holding its setpoint there (its law switches on its own clock), a room written from
# outside mid-run, and a caller's test between events.
lagging = st.fixed_dictionaries(
    {
        "kitchen": st.floats(min_value=15, max_value=30),
        "heat_to": st.integers(min_value=1800, max_value=2800),
        "above": st.floats(min_value=18, max_value=29),
        "cron_min": st.integers(min_value=1, max_value=9),
        "waits": st.lists(st.integers(min_value=1, max_value=300), min_size=1, max_size=4),
        "writes": st.lists(st.floats(min_value=10, max_value=35), max_size=2),
        "left": st.integers(min_value=3200, max_value=3539),  # true after a few minutes
    }
)


def _build_lagging(sc: dict) -> Simulator:
    eng = sh.engine(
        sh.ac("ac1", "kitchen", on=True, mode=4, fan=100),
        sh.lamp("l1", "living"),
        sh.purifier("p1", "bedroom"),
        sh.washer("w1", "living"),
        rooms=("living", "kitchen", "bedroom"),
        env={"temperature": sc["kitchen"]},
    )
    eng.execute("ac1", "heat_setpoint", {"value": sc["heat_to"]})
    sim = Simulator(eng)
    eng.execute("w1", "start")
    sim.add_rule(  # a condition on a countdown no rule watches
        {
            "id": "washer-nearly-done",
            "triggers": [{"kind": "time", "cron": f"15 */{sc['cron_min']} * * * ?"}],
            "conditions": [
                {"kind": "numeric", "did": "w1", "locator": "countdown", "below": sc["left"]}
            ],
            "actions": [{"did": "p1", "locator": "turn_on"}],
        }
    )
    sim.add_rule(
        {
            "id": "warm-kitchen",
            "triggers": [{"kind": "time", "cron": f"0 */{sc['cron_min']} * * * ?"}],
            "conditions": [
                {
                    "kind": "numeric",
                    "did": "@kitchen",
                    "locator": "temperature",
                    "above": sc["above"],
                }
            ],
            "actions": [
                {"did": "l1", "locator": "turn_on"},
                {"did": "p1", "locator": "turn_on"},
            ],
        }
    )
    sim.add_rule(
        {
            "id": "cold-kitchen",
            "triggers": [{"kind": "time", "cron": f"30 */{sc['cron_min']} * * * ?"}],
            "conditions": [
                {"kind": "numeric", "did": "ac1", "locator": "local_temperature", "below": 2300}
            ],
            "actions": [{"did": "l1", "locator": "turn_off"}, {"did": "p1", "locator": "turn_off"}],
        }
    )
    return sim


def _play_lagging(sc: dict, exact: bool) -> tuple[dict, list, list, tuple[bool, int]]:
    sim = _build_lagging(sc)
    seen = []
    writes = list(sc["writes"])
    for wait in sc["waits"]:
        sim.advance(wait, exact=exact)
        seen.append(sim.engine.value("ac1", "local_temperature"))
        if writes:
            sim.engine.set_values("@kitchen", {"temperature": writes.pop()})
    state = json.loads(dump_home(sim.to_home()))
    log = [(e.time, e.kind, e.ref) for e in sim.log]
    # the test is asked at every event and at least every second (every tick when exact)
    hit = sim.run_until(
        lambda s: s.engine.value("@bedroom", "pm25") < 29, max_seconds=120, exact=exact
    )
    return state, log, seen, (hit, sim.tick)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lagging)
def test_rooms_on_their_own_clocks_end_where_tick_by_tick_does(sc: dict) -> None:
    fast_state, fast_log, fast_seen, (fast_hit, fast_tick) = _play_lagging(sc, exact=False)
    exact_state, exact_log, exact_seen, (exact_hit, exact_tick) = _play_lagging(sc, exact=True)
    assert fast_log == exact_log
    assert fast_seen == exact_seen
    assert_same(fast_state, exact_state)
    assert fast_hit == exact_hit
    assert 0 <= fast_tick - exact_tick < 10


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lagging, st.lists(st.integers(min_value=1, max_value=4000), min_size=1, max_size=6))
def test_a_run_cut_into_slices_is_the_same_run_to_the_byte(sc: dict, cuts: list[int]) -> None:
    """Reading a room (a slice's end writes every room) never moves it: only its own events and
    changes to it do, so how a run is sliced (HA advances an hour at a time) changes nothing."""
    whole, sliced = _build_lagging(sc), _build_lagging(sc)
    total = sum(cuts)
    whole.advance(total)
    for seconds in cuts:
        sliced.advance(seconds)
    assert dump_home(sliced.to_home()) == dump_home(whole.to_home())
    assert [(e.time, e.kind, e.ref) for e in sliced.log] == [
        (e.time, e.kind, e.ref) for e in whole.log
    ]
