"""``smh home probe`` against devices that behave as real homes' do (a window HA drives through
``cover.set_cover_position``, faked here): how it rounds an off-grid value is learnt and the
twin then rounds alike; devices that never settle, that HA shows unavailable, that show no
value before the call, or a probe that fails half-way, teach nothing wrong and leave the
devices as they were."""

from __future__ import annotations

import math
from typing import Any

import pytest

from smh_core.ha.hardware_map import NOT_OBSERVED, parse_mapping
from smh_core.ha.twin_probe import Observation, calibrated, learn, probe_home
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Attribute, AttrType, Device, Home, Service, UserData

MAPPING = parse_mapping(
    "home: {file: homes/twin.json}\n"
    "devices:\n"
    "  cover.w:\n"
    "    position: {entity: cover.w, attribute: current_position,"
    " set: {service: cover.set_cover_position, data: {position: '{value}'}}}\n"
)
FAST = {"quiet": 0.05, "timeout": 0.5, "interval": 0.01}


def _home(position: int = 80) -> Home:
    spec = {"type": AttrType.INT, "range": (0, 100)}
    window = Device(
        name="Window",
        attributes=[Attribute(name="position", value=position, **spec)],
        services=[
            Service.model_validate(
                {
                    "name": "set_position",
                    "arguments": [{"name": "position", "type": "int", "range": [0, 100]}],
                    "effects": [{"set": "position", "arg": "position"}],
                }
            )
        ],
        userdata=UserData(did="cover.w", spid="x", category="cover", subcategory="curtain"),
    )
    return Home(name="h", rooms=[], devices=[window])


class Window:
    """An HA window holding steps of ``step`` that takes a value off them ``rule``-wise;
    ``restless``: its reading never stops changing; ``broken_call``: that call (1-based)
    fails as a dropped connection does."""

    def __init__(
        self,
        step: int = 10,
        rule: str = "nearest",
        position: int = 80,
        state: str = "open",
        restless: bool = False,
        broken_call: int = 0,
    ) -> None:
        self.step, self.rule, self.position, self.state = step, rule, position, state
        self.restless, self.broken_call = restless, broken_call
        self.calls: list[int] = []

    def rounded(self, asked: int) -> int:
        k = asked / self.step
        n = {"nearest": round, "down": math.floor, "up": math.ceil}[self.rule](k)
        return int(n * self.step)

    async def states(self) -> dict[str, dict[str, Any]]:
        if self.restless:
            self.position += 1 if self.position % 2 == 0 else -1
        attrs = {"current_position": self.position}
        return {"cover.w": {"state": self.state, "attributes": attrs}}

    async def call(self, domain: str, name: str, data: dict[str, Any]) -> None:
        self.calls.append(data["position"])
        if len(self.calls) == self.broken_call:
            raise OSError("connection reset")
        self.position = self.rounded(data["position"])


async def _probe(window: Window, home: Home | None = None):
    home = home or _home(window.position)
    return await probe_home(window, home, MAPPING, HomeEngine(home).snapshot(), **FAST)


@pytest.mark.parametrize("rule", ["nearest", "down", "up"])
async def test_how_a_device_rounds_is_learnt_and_its_twin_rounds_alike(rule: str) -> None:
    # steps of 20: asked 44 and 67 (both a little above a step) a device that rounds to the
    # nearest and one that rounds down stop at the same 40 and 60; a third value tells them apart
    window = Window(step=20, rule=rule)
    probe = await _probe(window)
    (got,) = probe.learnt
    assert (got.step, got.rounding) == (20, rule), got.describe()
    # 44 and 67; a third value where they leave two roundings; then put back where it moved
    asked = {"nearest": [44, 67, 39, 80], "down": [44, 67, 39, 80], "up": [44, 67]}
    assert window.calls == asked[rule]
    assert window.position == 80 and probe.restore_problems == []
    twin = HomeEngine(calibrated(_home(), probe.learnt))
    for asked in (13, 30, 51, 59, 99):
        assert twin.execute("cover.w", "set_position", {"position": asked}).ok
        assert twin.value("cover.w", "position") == window.rounded(asked), (rule, asked)


async def test_a_device_that_never_settles_teaches_nothing() -> None:
    probe = await _probe(Window(restless=True))
    (got,) = probe.learnt
    assert "still changing" in got.note, got.describe()
    assert (got.step, got.rate, got.rounding) == (None, None, None)


async def test_a_device_ha_shows_unavailable_is_not_moved() -> None:
    window = Window(state="unavailable")
    probe = await _probe(window)
    assert window.calls == []
    (got,) = probe.learnt
    assert "cover.w is unavailable: not moved" in got.describe()
    assert calibrated(_home(), probe.learnt) == _home()


async def test_a_probe_that_fails_half_way_still_puts_the_device_back() -> None:
    window = Window(broken_call=2)  # the first ask moved it to 40; the second call fails
    with pytest.raises(OSError):
        await _probe(window)
    assert window.position == 80


def test_a_light_that_was_off_and_fades_in_teaches_no_speed() -> None:
    # an off light shows no brightness: there is no distance travelled to time
    faded = [
        Observation(112, ((0.0, NOT_OBSERVED), (0.4, 60), (0.9, 112))),
        Observation(171, ((0.0, 112), (0.1, 171))),
    ]
    got = learn("light.l", "brightness", 0, faded)
    assert (got.step, got.rate, got.note) == (None, None, "")
