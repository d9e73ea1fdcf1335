"""The agent's time tools (schedule, automation, room climate) through dispatch, as a model calls them."""

from __future__ import annotations

from datetime import timedelta

from smh_core.agent.tools import dispatch
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.sim.simulator import Simulator
from tests.support import sim_home as sh


def make() -> tuple[EmbeddedBackend, Simulator]:
    sim = Simulator(sh.engine(sh.lamp("l1", "living"), sh.ac("ac1", "living")))
    return EmbeddedBackend(sim.engine, sim=sim), sim


def test_schedule_then_list_then_cancel():
    backend, sim = make()
    at = (sh.START + timedelta(minutes=5)).isoformat()
    out = dispatch(
        backend, "schedule_actions", {"at": at, "actions": [{"did": "l1", "locator": "turn_on"}]}
    )
    assert out["ok"] and out["schedule"]["status"] == "pending"
    listed = dispatch(backend, "list_schedules", {})
    assert [s["id"] for s in listed] == [out["schedule"]["id"]]
    assert dispatch(backend, "cancel_schedule", {"schedule_id": out["schedule"]["id"]})["ok"]
    sim.advance(600)
    assert sim.engine.value("l1", "on") is False


def test_create_automation_with_quartz_cron_and_room_threshold():
    backend, sim = make()
    out = dispatch(
        backend,
        "create_automation",
        {
            "name": "night light",
            "triggers": [{"kind": "time", "cron": "0 0 22 * * ? *"}],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        },
    )
    assert out["ok"], out
    hot = dispatch(
        backend,
        "create_automation",
        {
            "triggers": [
                {"kind": "numeric", "did": "@living", "locator": "temperature", "above": 30}
            ],
            "actions": [{"did": "ac1", "locator": "turn_on"}],
        },
    )
    assert hot["ok"], hot
    assert {a["id"] for a in dispatch(backend, "list_automations", {})} == {
        out["automation"]["id"],
        hot["automation"]["id"],
    }
    sim.run_until(sh.START.replace(hour=22, second=1))
    assert sim.engine.value("l1", "on") is True
    assert dispatch(backend, "delete_automation", {"automation_id": out["automation"]["id"]})["ok"]


def test_bad_calls_name_the_field_and_change_nothing():
    backend, sim = make()
    before = dump_home(sim.to_home())
    missing = dispatch(backend, "create_automation", {"triggers": [], "actions": []})
    assert missing["ok"] is False and missing["error"]["field"] in ("triggers", "actions")
    bad_kind = dispatch(
        backend,
        "create_automation",
        {"triggers": [{"kind": "sunset"}], "actions": [{"did": "l1", "locator": "turn_on"}]},
    )
    assert bad_kind["ok"] is False and "triggers" in bad_kind["error"]["field"]
    bad_cron = dispatch(
        backend,
        "create_automation",
        {
            "triggers": [{"kind": "time", "cron": "every day"}],
            "actions": [{"did": "l1", "locator": "turn_on"}],
        },
    )
    assert bad_cron["ok"] is False and "cron" in bad_cron["error"]["message"]
    past = dispatch(
        backend,
        "schedule_actions",
        {"at": "2020-01-01T00:00:00", "actions": [{"did": "l1", "locator": "turn_on"}]},
    )
    assert past["ok"] is False and "already" in past["error"]["message"]
    bad_time = dispatch(
        backend, "schedule_actions", {"at": "tomorrow", "actions": [{"did": "l1", "locator": "x"}]}
    )
    assert bad_time["ok"] is False
    assert dispatch(backend, "get_room_environment", {"room": "attic"})["ok"] is False
    assert dump_home(sim.to_home()) == before


def test_without_a_clock_time_tools_explain():
    backend = EmbeddedBackend(HomeEngine(sh.home(sh.lamp("l1", "living"))))
    out = dispatch(
        backend,
        "schedule_actions",
        {"at": "2025-06-27T13:00:00", "actions": [{"did": "l1", "locator": "turn_on"}]},
    )
    assert out["ok"] is False and "clock" in out["error"]["message"]
    env = dispatch(backend, "get_room_environment", {"room": "living"})
    assert env["ok"] and env["environment"]["humidity"] == 40.0


def test_a_time_with_a_zone_is_a_clear_error_not_a_crash():
    """Found by the real local model: it scheduled at "...Z" and the simulator's naive clock
    raised TypeError (recorded as a harness failure). A zone is refused with the fix named."""
    backend, sim = make()
    before = sim.engine.snapshot()
    for at in ((sh.START + timedelta(minutes=5)).isoformat() + "Z", "2099-01-01T10:00:00+02:00"):
        out = dispatch(
            backend,
            "schedule_actions",
            {"at": at, "actions": [{"did": "l1", "locator": "turn_on"}]},
        )
        assert out["ok"] is False and "without a time zone" in out["error"]["message"]
    assert (
        dispatch(backend, "list_schedules", {}) == []
        and sim.engine.diff(before, sim.engine.snapshot()) == []
    )
