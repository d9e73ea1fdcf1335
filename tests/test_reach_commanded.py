"""Driving devices to a commanded state (``smh_core.ha.device_sync.reach``): a value HA does not
report is left alone when a task's initial state is put in place (an off light's brightness),
but after a command it must be written and must show; otherwise the command is never sent and
the task is scored against the agent with a value the device never had."""

from __future__ import annotations

from typing import Any

from smh_core.ha.device_sync import described_mismatches, reach
from smh_core.ha.hardware_map import parse_mapping
from smh_core.homeenv.snapshot import Snapshot

MAPPING = parse_mapping(
    "home: {file: homes/tiny.json}\n"
    "devices:\n"
    "  '1001':\n"
    "    state: {entity: light.lamp, set: {service: 'light.turn_{value}'}}\n"
    "    brightness: {entity: light.lamp, attribute: brightness,"
    " set: {service: light.turn_on, data: {brightness: '{value}'}}}\n"
)


class Lamp:
    """An HA light that turns on without a brightness until it is given one (as
    synthetic-home's colour lights do); ``deaf``: it ignores the brightness it is given."""

    def __init__(self, deaf: bool = False) -> None:
        self.on, self.brightness, self.deaf = False, None, deaf
        self.calls: list[dict[str, Any]] = []

    async def states(self) -> dict[str, dict[str, Any]]:
        attrs = {"brightness": self.brightness if self.on else None}
        return {"light.lamp": {"state": "on" if self.on else "off", "attributes": attrs}}

    async def call(self, domain: str, name: str, data: dict[str, Any]) -> None:
        self.calls.append({"service": f"{domain}.{name}", **data})
        self.on = name != "turn_off"
        if "brightness" in data and not self.deaf:
            self.brightness = int(data["brightness"])


WANT = Snapshot({"1001": {"state": "on", "brightness": 100}})
BOTH = {("1001", "state"), ("1001", "brightness")}


async def test_a_commanded_value_ha_does_not_report_is_written() -> None:
    lamp = Lamp()
    done = await reach(lamp, MAPPING, WANT, 1.0, 0.01, BOTH, commanded=True)
    assert done.problem is None
    assert (lamp.on, lamp.brightness) == (True, 100)
    assert {"service": "light.turn_on", "entity_id": "light.lamp", "brightness": 100} in lamp.calls


async def test_a_commanded_value_that_never_shows_is_the_devices_fault() -> None:
    done = await reach(Lamp(deaf=True), MAPPING, WANT, 0.2, 0.01, BOTH, commanded=True)
    assert done.device_fault
    assert done.problem == "1001/brightness is not reported, want 100"
    assert described_mismatches(done.problem) == [("1001", "brightness", "not reported", 100)]


async def test_an_unreported_value_is_left_alone_for_an_initial_state() -> None:
    lamp = Lamp()
    done = await reach(lamp, MAPPING, WANT, 1.0, 0.01, BOTH)
    assert done.problem is None  # on, its brightness not shown: nothing to correct
    assert lamp.calls == [{"service": "light.turn_on", "entity_id": "light.lamp"}]
