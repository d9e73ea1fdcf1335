"""The device kinds the imported sources use, as the engine and the simulator run them: a robot
vacuum that docks ten seconds after it is sent home, a media player that pauses from any state
but off, a to-do list, a curtain open at degree 0, and the action guard over the garage door
and the water valve."""

from __future__ import annotations

from datetime import datetime

import pytest

from sim_devices.catalog import instantiate
from smh_core.agent.safety import ActionGuard
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room
from smh_core.sim.simulator import Simulator


def _engine(type_name: str, **values) -> HomeEngine:
    device = instantiate(type_name, "d", "r", values=values or None)
    return HomeEngine(Home(rooms=[Room(id="r", type="room", name="R")], devices=[device]))


def test_a_robot_sent_home_docks_ten_seconds_later_and_waits_while_paused():
    engine = _engine("room_vacuum", state="cleaning")
    with Simulator(engine, now=datetime(2025, 1, 1, 9, 0)) as sim:
        assert engine.execute("d", "return_to_base", {}).ok
        sim.advance(5)
        assert (
            engine.value("d", "state") == "returning" and engine.value("d", "dock_countdown") == 5
        )
        assert engine.execute("d", "pause", {}).ok
        sim.advance(60)
        assert engine.value("d", "state") == "paused"
        assert engine.execute("d", "return_to_base", {}).ok  # on its way again: the 5 s left
        sim.advance(4)
        assert engine.value("d", "state") == "returning"
        sim.advance(1)
        assert engine.value("d", "state") == "docked" and engine.value("d", "dock_countdown") == 0


def test_a_robot_cleans_the_area_it_is_told_and_pauses_from_any_state():
    engine = _engine("room_vacuum")
    assert engine.execute("d", "set_cleaning_area", {"cleaning_area": "kitchen"}).ok
    assert engine.execute("d", "start", {}).ok and engine.value("d", "cleaning_area") == "kitchen"
    idle = _engine("room_vacuum", state="idle")
    assert idle.execute("d", "pause", {}).ok and idle.value("d", "state") == "paused"
    low = _engine("room_vacuum", battery_level=5)
    assert low.execute("d", "start", {}).error.code == "precondition_failed"


@pytest.mark.parametrize(
    ("state", "after"), [("playing", "paused"), ("idle", "paused"), ("paused", "paused")]
)
def test_a_player_pauses_from_any_state_but_off(state, after):
    engine = _engine("media_player", state=state)
    assert engine.execute("d", "pause", {}).ok and engine.value("d", "state") == after


def test_a_player_that_is_off_is_woken_and_nothing_plays_while_off():
    engine = _engine("media_player", state="off")
    assert engine.execute("d", "pause", {}).error.code == "precondition_failed"
    assert engine.execute("d", "turn_on", {}).ok and engine.value("d", "state") == "idle"
    assert engine.execute("d", "play", {"media_name": "jazz"}).ok
    assert (
        engine.execute("d", "turn_on", {}).ok and engine.value("d", "state") == "playing"
    )  # on already: as it was
    assert engine.execute("d", "next_track", {}).ok and engine.value("d", "media_track") == 2


def test_a_todo_list_adds_completes_and_removes_items_by_their_text():
    engine = _engine("todo_list")
    assert engine.execute("d", "add_item", {"item": "Milk"}).ok
    assert engine.execute("d", "add_item", {"item": "eggs"}).ok
    assert engine.value("d", "open_items") == 2
    # by its exact text, as HA's todo services find an item: "milk" names nothing here
    wrong_case = engine.execute("d", "complete_item", {"item": "milk"})
    assert wrong_case.error.code == "precondition_failed"
    assert engine.execute("d", "complete_item", {"item": "Milk"}).ok
    assert engine.value("d", "items") == [
        {"summary": "Milk", "status": "completed"},
        {"summary": "eggs", "status": "needs_action"},
    ]
    assert engine.value("d", "open_items") == 1
    before = engine.snapshot()
    refused = engine.execute("d", "remove_item", {"item": "bread"})
    assert (
        refused.error.code == "precondition_failed" and "no item 'bread'" in refused.error.message
    )
    assert engine.diff(before, engine.snapshot()) == []
    assert (
        engine.execute("d", "remove_item", {"item": "eggs"}).ok
        and engine.value("d", "open_items") == 0
    )


def test_a_todo_list_updates_items_and_removes_the_completed_ones_as_home_assistant_does():
    engine = _engine(
        "todo_list",
        items=[
            {"summary": "milk", "status": "completed"},
            {"summary": "eggs", "status": "needs_action"},
            {"summary": "bread", "status": "completed"},
        ],
        open_items=1,
    )
    before = engine.snapshot()
    refused = engine.execute("d", "update_item", {"item": "eggs"})  # neither rename nor status
    assert refused.error.code == "precondition_failed" and "rename" in refused.error.message
    refused = engine.execute("d", "update_item", {"item": "jam", "status": "completed"})
    assert refused.error.code == "precondition_failed" and "no item 'jam'" in refused.error.message
    assert engine.execute("d", "update_item", {"item": "eggs", "status": "done"}).error
    assert engine.diff(before, engine.snapshot()) == []
    assert engine.execute("d", "update_item", {"item": "milk", "status": "needs_action"}).ok
    assert engine.execute("d", "update_item", {"item": "eggs", "rename": " free-range eggs "}).ok
    assert engine.value("d", "open_items") == 2
    assert engine.execute("d", "remove_completed_items", {}).ok
    assert engine.value("d", "items") == [
        {"summary": "milk", "status": "needs_action"},
        {"summary": "free-range eggs", "status": "needs_action"},
    ]
    assert engine.value("d", "open_items") == 2
    before = engine.snapshot()
    result = engine.execute("d", "remove_completed_items", {})  # none done: nothing changes
    assert result.ok and engine.diff(before, engine.snapshot()) == []


def test_a_curtain_keeps_its_degree_when_opened_or_closed():
    engine = _engine("degree_curtain", state="closed", degree=0)
    assert engine.execute("d", "open", {}).ok
    assert (engine.value("d", "state"), engine.value("d", "degree")) == (
        "open",
        0,
    )  # open at degree 0
    assert (
        engine.execute("d", "set_degree", {"degree": 40}).ok
        and engine.value("d", "state") == "open"
    )


@pytest.mark.parametrize(
    ("type_name", "locator", "said", "verdict"),
    [
        ("garage_door", "open", "Turn on the porch light", "needs_confirmation"),
        ("garage_door", "open", "Open the garage door", None),
        ("valve", "open", "Turn on the porch light", "needs_confirmation"),
        ("valve", "set_position", "Open the water valve", None),
        ("valve", "set_position", "Water the garden", "needs_confirmation"),  # the guard asks first
    ],
)
def test_the_action_guard_covers_garage_doors_and_valves(type_name, locator, said, verdict):
    device = instantiate(type_name, "d", "r")
    info = {
        "did": "d",
        "name": device.name,
        "category": device.userdata.category,
        "subcategory": device.userdata.subcategory,
    }
    refusal = ActionGuard([said]).check(
        info, locator, {"position": 100} if locator == "set_position" else {}
    )
    assert (refusal or {}).get("error", {}).get("code") == verdict
