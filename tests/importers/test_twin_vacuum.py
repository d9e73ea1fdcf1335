"""A twin's robot vacuum onto the real HA vacuum (``smh ha map --twin``): its ``state`` is the
entity's activity under the same names, set by the service that leads to each activity the
entity offers; ``docked`` is reached by the robot, not a call; HA's ``error`` is the device's
fault, never a state an agent reached. Before this rule nothing of a vacuum mapped, and a
lone-vacuum home (home-assistant-datasets' ``home1-us-vacuum``) could not run on the real home."""

from __future__ import annotations

from typing import Any

import pytest

from sim_devices.catalog import instantiate
from smh_core.ha.device_sync import reach
from smh_core.ha.ha_inventory import inventory_from
from smh_core.ha.hardware_map import NOT_OBSERVED, HardwareMapping, ReadError, parse_mapping
from smh_core.ha.map_propose import render
from smh_core.ha.twin_map import twin_mapping
from smh_core.homeenv.model import Home
from smh_core.homeenv.snapshot import Snapshot
from smh_core.task.model import HomeRef

EVERY = 8192 | 4 | 8 | 16 | 4096  # START, PAUSE, STOP, RETURN_HOME, STATE
VAC = "vacuum.rover"


def _mapping(kind: str = "room_vacuum", features: int = EVERY) -> HardwareMapping:
    """The mapping ``smh ha map --twin`` writes for a home of one vacuum, read back."""
    home = Home(rooms=[], devices=[instantiate(kind, did=VAC, room=None, name="Rover")])
    states = [{"entity_id": VAC, "state": "docked", "attributes": {
        "friendly_name": "Rover", "supported_features": features}}]  # fmt: skip
    proposal = twin_mapping(
        home, HomeRef(file="homes/twin.json"), inventory_from([], [], [], states)
    )
    return parse_mapping(render(proposal))


@pytest.mark.parametrize("kind", ["room_vacuum", "robot_cleaner"])
def test_the_vacuums_activity_maps_with_a_call_per_offered_service(kind: str) -> None:
    state = _mapping(kind).get(VAC, "state")
    assert state is not None and state.entity == VAC
    assert state.calls("cleaning") == [("vacuum", "start", {"entity_id": VAC})]
    assert state.calls("paused") == [("vacuum", "pause", {"entity_id": VAC})]
    assert state.calls("returning") == [("vacuum", "return_to_base", {"entity_id": VAC})]
    # HA has no call that docks a robot at once: return_to_base makes it *return*
    assert state.calls("docked") == []
    if kind == "room_vacuum":  # the robot cleaner has no stop
        assert state.calls("idle") == [("vacuum", "stop", {"entity_id": VAC})]


def test_only_the_services_the_entity_offers_are_called() -> None:
    state = _mapping(features=8192 | 16 | 4096).get(VAC, "state")  # start and return home only
    assert state is not None
    assert state.calls("cleaning") and state.calls("returning")
    assert state.calls("paused") == [] and state.calls("idle") == []
    # offering none of them, the activity is still read: checked, never written
    read_only = _mapping(features=4096).get(VAC, "state")
    assert read_only is not None and read_only.set is None


def test_readings_and_what_an_agents_call_commands() -> None:
    state = _mapping().get(VAC, "state")
    assert state is not None
    for activity in ("cleaning", "docked", "returning", "idle", "paused"):
        assert state.read({"state": activity, "attributes": {}}, "docked") == activity
    with pytest.raises(ReadError, match="'error' has no HomeEnv value"):
        state.read({"state": "error", "attributes": {}}, "docked")
    data = {"entity_id": VAC}
    assert state.value_of_call("vacuum", "return_to_base", data, "docked") == "returning"
    assert state.value_of_call("vacuum", "start", data, "docked") == "cleaning"
    other = {"entity_id": "vacuum.other"}
    assert state.value_of_call("vacuum", "start", other, "docked") is NOT_OBSERVED


class Robot:
    """An HA vacuum as synthetic-home's: each service sets its activity at once, and a robot
    sent home stays ``returning`` (it never reports reaching its dock)."""

    def __init__(self, activity: str) -> None:
        self.activity = activity
        self.calls: list[str] = []

    async def states(self) -> dict[str, dict[str, Any]]:
        return {VAC: {"state": self.activity, "attributes": {"supported_features": EVERY}}}

    async def call(self, domain: str, name: str, data: dict[str, Any]) -> None:
        self.calls.append(f"{domain}.{name}")
        self.activity = {
            "start": "cleaning",
            "pause": "paused",
            "stop": "idle",
            "return_to_base": "returning",
        }[name]


async def test_a_start_state_is_put_on_the_robot_and_docked_is_not_forced() -> None:
    mapping = _mapping()
    robot = Robot("docked")
    done = await reach(robot, mapping, Snapshot({VAC: {"state": "cleaning"}}), 1.0, 0.01)
    assert done.problem is None and robot.calls == ["vacuum.start"]
    # docked cannot be asked for: the task cannot start here, which is not the device's fault
    away = Robot("returning")
    done = await reach(away, mapping, Snapshot({VAC: {"state": "docked"}}), 0.1, 0.01)
    assert away.calls == [] and not done.device_fault
    assert (
        done.problem is not None and "no call sets vacuum.rover/state to 'docked'" in done.problem
    )
    # a robot in error is the device's fault
    broken = Robot("error")
    done = await reach(broken, mapping, Snapshot({VAC: {"state": "cleaning"}}), 0.1, 0.01)
    assert done.device_fault and broken.calls == []
