"""The simulator: physics, appliances, schedules, rules, and fast-forward == tick-by-tick."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.errors import ErrorCode
from smh_core.homeenv.model import Home
from smh_core.sim.simulator import SimulationError, Simulator
from tests.support import sim_home as sh


def temp(sim: Simulator, room: str = "living") -> float:
    return sim.engine.value(f"@{room}", "temperature")


# ----------------------------------------------------------------------------- physics
def test_running_ac_cools_towards_setpoint_and_holds_it():
    eng = sh.engine(sh.ac("ac1", "living", on=True, setpoint=2400, fan=40))
    sim = Simulator(eng)
    readings = [temp(sim)]
    while readings[-1] > 24.0:
        sim.advance(15)
        readings.append(temp(sim))
        assert readings[-1] < readings[-2]  # falling, never below the setpoint
    assert readings[-1] == 24.0  # reaches the setpoint and holds it
    assert 60 <= (len(readings) - 1) * 15 <= 600  # over simulated minutes
    sim.advance(3600)
    assert temp(sim) == 24.0
    assert eng.value("ac1", "local_temperature") == 2400
    # the other room only drifts towards the 24 °C outdoors: (2) with no device
    elapsed_ticks = (sim.now - sh.START).total_seconds() * 10
    drift = (1 - 0.1 * 0.0002) ** elapsed_ticks
    assert eng.value("@kitchen", "temperature") == pytest.approx(24 + 4 * drift, rel=1e-9)


def test_higher_fan_speed_cools_faster():
    def after(fan: int) -> float:
        sim = Simulator(sh.engine(sh.ac("ac1", "living", on=True, setpoint=1600, fan=fan)))
        sim.advance(120)
        return temp(sim)

    assert after(100) < after(50) < after(10) < 28.0


def test_ac_at_lowest_setpoint_and_top_fan_has_a_floor():
    """Drift towards a hot outdoors balances the AC: the room settles above its setpoint."""
    eng = sh.engine(
        sh.ac("ac1", "living", on=True, setpoint=1600, fan=100, rate=0.0005),
        outdoor={"temperature": 38.0},
    )
    sim = Simulator(eng)
    sim.advance(6 * 3600)
    floor = temp(sim)
    assert floor > 16.0
    sim.advance(3600)
    assert temp(sim) == pytest.approx(floor, abs=1e-4)  # cannot cool any further
    assert floor == pytest.approx((0.0005 * 10 + 0.0002 * 38) / 0.0007, abs=1e-4)  # x* of (2)
    rejected = eng.execute("ac1", "cool_setpoint", {"value": 1500})
    assert not rejected.ok and rejected.error.code == ErrorCode.OUT_OF_RANGE


def test_ac_off_and_heat_mode():
    eng = sh.engine(
        sh.ac("ac1", "living", on=False), env={"temperature": 18.0}, outdoor={"temperature": 10.0}
    )
    sim = Simulator(eng)
    sim.advance(600)
    assert 17.0 < temp(sim) < 18.0  # only drift towards the 10 °C outdoors
    assert eng.execute("ac1", "turn_on").ok
    assert eng.execute("ac1", "mode", {"value": 4}).ok
    assert eng.execute("ac1", "heat_setpoint", {"value": 2200}).ok
    sim.advance(3600)
    assert temp(sim) == pytest.approx(22.0)


def test_dependency_rule_rejected_with_state_unchanged():
    eng = sh.engine(sh.ac("ac1", "living", on=False))
    sim = Simulator(eng)
    before = dump_home(sim.to_home())
    res = eng.execute("ac1", "fan", {"value": 80})
    assert not res.ok and res.error.code == ErrorCode.PRECONDITION_FAILED
    assert "turn the AC on first" in res.error.message
    assert dump_home(sim.to_home()) == before


def test_humidifier_purifier_lamp_and_blind():
    eng = sh.engine(
        sh.humidifier("h1", "living", on=True),
        sh.purifier("p1", "living", on=True),
        sh.lamp("l1", "kitchen", on=False, level=127),
        sh.blind("b1", "kitchen", closed=10000),
    )
    sim = Simulator(eng)
    assert eng.value("@kitchen", "illuminance") == 0.0  # blind fully closed, lamp off
    assert eng.execute("l1", "turn_on").ok
    assert eng.value("@kitchen", "illuminance") == pytest.approx(400 * 127 / 254)  # at once
    assert eng.execute("b1", "closed", {"value": 0}).ok
    noon_daylight = eng.home.simulation.outdoor.daylight[12] * 0.01
    assert eng.value("@kitchen", "illuminance") == pytest.approx(200 + noon_daylight)
    sim.advance(1800)
    env = eng.environment("living")
    assert env["humidity"] > 55 and env["pm25"] < 5 and env["air_quality"] == "good"
    assert eng.value("h1", "humidity") == round(env["humidity"] * 100)
    sim.advance(12 * 3600)  # night: no daylight any more
    assert eng.value("@kitchen", "illuminance") == pytest.approx(200)


# ----------------------------------------------------------------------------- appliances
def test_washer_59_minute_programme_completes_at_12_59():
    eng = sh.engine(sh.washer("w1", "kitchen"))
    sim = Simulator(eng)
    assert eng.execute("w1", "start").ok
    assert eng.value("w1", "countdown") == 59 * 60
    assert sim.cycle_end("w1") == sh.START + timedelta(minutes=59)
    sim.advance(600)
    assert eng.value("w1", "phase") == 1 and eng.value("w1", "countdown") == 49 * 60
    reached = sim.run_until(lambda s: s.engine.value("w1", "op_state") == 0)
    assert reached and sim.now == sh.START + timedelta(minutes=59)
    assert eng.value("w1", "countdown") == 0
    assert [e.kind for e in sim.log] == ["cycle_complete"]


def test_washer_pause_resume_shifts_completion_and_mode_change_is_refused_while_running():
    eng = sh.engine(sh.washer("w1", "kitchen"))
    sim = Simulator(eng)
    eng.execute("w1", "change_mode", {"mode": 1})
    eng.execute("w1", "start")
    res = eng.execute("w1", "change_mode", {"mode": 0})
    assert not res.ok and res.error.code == ErrorCode.PRECONDITION_FAILED
    sim.advance(600)
    eng.execute("w1", "pause")
    sim.advance(900)
    assert eng.value("w1", "countdown") == 1200
    eng.execute("w1", "resume")
    assert sim.cycle_end("w1") == sim.now + timedelta(seconds=1200)
    sim.run_until(sim.now + timedelta(seconds=1199))
    assert eng.value("w1", "op_state") == 1
    sim.advance(1)
    assert eng.value("w1", "op_state") == 0


# ----------------------------------------------------------------------------- schedules
def test_schedule_fires_at_its_time_and_not_before():
    eng = sh.engine(sh.lamp("l1", "living"))
    sim = Simulator(eng)
    at = sh.START + timedelta(minutes=9)
    item = sim.schedule(at, [{"did": "l1", "locator": "turn_on"}])
    sim.run_until(at - timedelta(seconds=0.1))
    assert eng.value("l1", "on") is False and item.status == "pending"
    sim.advance(0.1)
    assert eng.value("l1", "on") is True and item.status == "done"
    assert sim.log[-1].time == at


def test_schedule_cancel_and_errors():
    eng = sh.engine(sh.lamp("l1", "living"), sh.ac("ac1", "living"))
    sim = Simulator(eng)
    s = sim.schedule(sh.START + timedelta(minutes=5), [{"did": "l1", "locator": "turn_on"}])
    sim.cancel(s.id)
    sim.advance(600)
    assert eng.value("l1", "on") is False
    with pytest.raises(ValueError, match="already"):
        sim.schedule(sh.START, [{"did": "l1", "locator": "turn_on"}])
    with pytest.raises(ValueError, match="unknown device"):
        sim.schedule(sim.now + timedelta(minutes=1), [{"did": "nope", "locator": "turn_on"}])
    failing = sim.schedule(
        sim.now + timedelta(minutes=1),
        [{"did": "ac1", "locator": "fan", "arguments": {"value": 80}}],
    )
    sim.advance(60)
    assert failing.status == "failed" and "turn the AC on first" in failing.error


# ----------------------------------------------------------------------------- rules
def _fires(sim: Simulator, rule_id: str) -> list:
    return [e.time for e in sim.log if e.kind == "rule" and e.ref == rule_id]


def test_cron_trigger_quartz_fires_each_match():
    eng = sh.engine(sh.lamp("l1", "living"))
    sim = Simulator(eng)
    sim.add_rule(
        {
            "id": "r",
            "triggers": [{"kind": "time", "cron": "0 0 14 * * ? *"}],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        }
    )
    sim.advance(3 * 86400)
    assert _fires(sim, "r") == [sh.START.replace(hour=14) + timedelta(days=d) for d in range(3)]


def test_state_trigger_fires_once_per_transition():
    eng = sh.engine(sh.lamp("l1", "living"), sh.lamp("l2", "kitchen"))
    sim = Simulator(eng)
    sim.add_rule(
        {
            "id": "r",
            "triggers": [{"kind": "state", "did": "l1", "locator": "on", "to": True}],
            "actions": [{"did": "l2", "locator": "turn_on"}],
        }
    )
    eng.execute("l1", "turn_on")
    eng.execute("l1", "turn_on")  # no transition: no second firing
    assert eng.value("l2", "on") is True and len(_fires(sim, "r")) == 1
    eng.execute("l1", "turn_off")
    eng.execute("l1", "turn_on")
    assert len(_fires(sim, "r")) == 2


def test_a_change_nothing_models_is_skipped_unless_a_rule_watches_it():
    """A lamp in a room the simulator does not model: its changes reach no room, appliance or
    reaction loop (the simulator returns at once), yet a rule watching it still fires."""
    h = sh.home(sh.lamp("l1", "living"), sh.lamp("x", "kitchen"))
    rooms = [
        r.model_copy(update={"environment": None}) if r.id == "kitchen" else r for r in h.rooms
    ]
    eng = HomeEngine(h.model_copy(update={"rooms": rooms}))  # the kitchen is not modelled
    sim = Simulator(eng)
    assert "x" not in sim._interest and "l1" in sim._interest
    eng.execute("x", "turn_on")  # nobody watches it yet: nothing logged, no room touched
    assert sim.log == [] and eng.value("l1", "on") is False
    sim.add_rule(
        {
            "id": "r",
            "triggers": [{"kind": "state", "did": "x", "locator": "on", "to": False}],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        }
    )
    eng.execute("x", "turn_off")
    assert eng.value("l1", "on") is True and len(_fires(sim, "r")) == 1


def test_numeric_trigger_fires_at_the_crossing_tick_once():
    eng = sh.engine(
        sh.ac("ac1", "living", on=True, setpoint=2000, fan=100), sh.lamp("l1", "living")
    )
    sim = Simulator(eng)
    sim.add_rule(
        {
            "id": "r",
            "triggers": [
                {"kind": "numeric", "did": "ac1", "locator": "local_temperature", "below": 2500}
            ],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        }
    )
    sim.advance(900)
    fires = _fires(sim, "r")
    assert len(fires) == 1
    assert eng.value("l1", "on") is True
    exact = Simulator(
        sh.engine(sh.ac("ac1", "living", on=True, setpoint=2000, fan=100), sh.lamp("l1", "living"))
    )
    exact.add_rule(sim.rules()[0])
    exact.advance(900, exact=True)
    assert _fires(exact, "r") == fires  # same tick as stepping every 0.1 s


def test_for_duration_trigger_no_motion_for_900_s():
    eng = sh.engine(sh.motion("m1", "living"), sh.lamp("l1", "living", on=True))
    sim = Simulator(eng)
    sim.add_rule(
        {
            "id": "r",
            "triggers": [
                {"kind": "state", "did": "m1", "locator": "occupied", "to": False, "for_s": 900}
            ],
            "actions": [{"did": "l1", "locator": "turn_off"}],
        }
    )
    eng.execute("m1", "occupied", {"value": True})
    eng.execute("m1", "occupied", {"value": False})
    sim.advance(600)
    eng.execute("m1", "occupied", {"value": True})  # motion again: the timer is cancelled
    eng.execute("m1", "occupied", {"value": False})
    sim.advance(899)
    assert eng.value("l1", "on") is True
    sim.advance(1)
    assert eng.value("l1", "on") is False
    assert _fires(sim, "r") == [sh.START + timedelta(seconds=1500)]


def test_conditions_gate_actions():
    eng = sh.engine(sh.lamp("l1", "living"), sh.lamp("l2", "living"))
    sim = Simulator(eng)
    sim.add_rule(
        {
            "id": "r",
            "triggers": [{"kind": "time", "cron": "0 0 * * * ? *"}],
            "conditions": [
                {"kind": "time", "after": "22:00", "before": "06:00"},
                {"kind": "state", "did": "l2", "locator": "on", "equals": False},
            ],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        }
    )
    sim.run_until(sh.START.replace(hour=21, minute=59))
    assert eng.value("l1", "on") is False
    sim.run_until(sh.START.replace(hour=22, minute=0, second=1))
    assert eng.value("l1", "on") is True


def test_rule_loop_is_reported_not_hung():
    eng = sh.engine(sh.lamp("l1", "living"))
    sim = Simulator(eng)
    sim.add_rule(
        {
            "id": "a",
            "triggers": [{"kind": "state", "did": "l1", "locator": "on", "to": True}],
            "actions": [{"did": "l1", "locator": "turn_off"}],
        }
    )
    sim.add_rule(
        {
            "id": "b",
            "triggers": [{"kind": "state", "did": "l1", "locator": "on", "to": False}],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        }
    )
    with pytest.raises(SimulationError, match="trigger each other"):
        eng.execute("l1", "turn_on")


def test_bad_rules_are_refused():
    sim = Simulator(sh.engine(sh.lamp("l1", "living")))
    with pytest.raises(ValueError, match="cron"):
        sim.add_rule(
            {
                "id": "r",
                "triggers": [{"kind": "time", "cron": "0 0 25 * * ? *"}],
                "actions": [{"did": "l1", "locator": "turn_on"}],
            }
        )
    with pytest.raises(ValueError, match="unknown"):
        sim.add_rule(
            {
                "id": "r",
                "triggers": [{"kind": "state", "did": "zz", "locator": "on"}],
                "actions": [{"did": "l1", "locator": "turn_on"}],
            }
        )
    assert sim.rules() == []


# ----------------------------------------------------------------------------- persistence
def test_saved_mid_cycle_and_reloaded_continues_like_an_uninterrupted_run():
    def build() -> tuple[HomeEngine, Simulator]:
        eng = sh.engine(
            sh.washer("w1", "kitchen"),
            sh.ac("ac1", "living", on=True, fan=70),
            sh.lamp("l1", "living"),
        )
        sim = Simulator(eng)
        sim.add_rule(
            {
                "id": "r",
                "triggers": [{"kind": "state", "did": "w1", "locator": "op_state", "to": 0}],
                "actions": [{"did": "l1", "locator": "turn_on"}],
            }
        )
        sim.schedule(sh.START + timedelta(hours=2), [{"did": "ac1", "locator": "turn_off"}])
        eng.execute("w1", "start")
        return eng, sim

    _, straight = build()
    straight.advance(3 * 3600)
    _, first = build()
    first.advance(1234.5)
    saved = dump_home(first.to_home())
    second = Simulator(HomeEngine(Home.model_validate(json.loads(saved))))
    second.advance(3 * 3600 - 1234.5)
    assert_same(json.loads(dump_home(straight.to_home())), json.loads(dump_home(second.to_home())))


def assert_same(a, b, path="") -> None:
    """Equal, with floats equal to 1e-9 relative (closed forms split at other ticks)."""
    if isinstance(a, float) or isinstance(b, float):
        assert a == pytest.approx(b, rel=1e-9, abs=1e-9), path
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            assert_same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]")
    else:
        assert a == b, path
