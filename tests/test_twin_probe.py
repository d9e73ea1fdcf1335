"""What a twin learns from its real devices (:mod:`smh_core.ha.twin_probe`), from observations
as the probe records them: a grid and a travel rate where the device shows them, nothing where
it ignores a call or stops where no grid explains (the report must still flag those)."""

from __future__ import annotations

import random

from smh_core.ha.twin_probe import Learnt, Observation, calibrated, learn
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Attribute, AttrType, Device, Home, Service, UserData
from smh_core.homeenv.samples import valid_value

# HA's demo window from 70: asked 44 it passes 60 and 50 and stops at 40, one step a second;
# asked 67 it goes back up to 70
DEMO = [
    Observation(44, ((0.0, 70), (0.8, 60), (1.8, 50), (2.8, 40))),
    Observation(67, ((0.0, 40), (0.9, 50), (1.9, 60), (2.9, 70))),
]


def test_a_window_that_moves_in_steps_of_ten_teaches_its_step_and_speed() -> None:
    got = learn("cover.w", "position", 0, DEMO)
    assert got.step == 10
    assert got.rate is not None and 10 <= got.rate <= 11  # 30 units in 2.8-2.9 s
    assert "holds steps of 10" in got.describe()


def test_an_exact_instant_device_teaches_nothing() -> None:
    exact = [Observation(44, ((0.0, 70), (0.1, 44))), Observation(67, ((0.0, 44), (0.1, 67)))]
    got = learn("light.l", "brightness", 0, exact)
    assert (got.step, got.rate, got.note) == (None, None, "")


def test_a_device_that_ignores_a_call_or_stops_off_grid_teaches_nothing() -> None:
    ignored = [Observation(44, ((0.0, 70),)), Observation(67, ((0.0, 70),))]
    assert learn("cover.w", "position", 0, ignored).step is None
    assert "ignored" in learn("cover.w", "position", 0, ignored).note
    odd = [Observation(44, ((0.0, 70), (0.1, 31))), Observation(67, ((0.0, 31), (0.1, 52)))]
    got = learn("cover.w", "position", 0, odd)
    assert (got.step, got.rate) == (None, None) and "no grid" in got.note
    refused = [Observation(44, ((0.0, 70),), refused="refused (500)")]
    assert "nothing learnt" in learn("cover.w", "position", 0, refused).note


def _window() -> Home:
    spec = {"type": AttrType.INT, "range": (0, 100)}
    window = Device(
        name="Window",
        attributes=[Attribute(name="position", value=70, **spec)],
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


def test_what_is_learnt_is_what_the_engine_and_the_generators_honour() -> None:
    home = _window()
    out = calibrated(home, [learn("cover.w", "position", 0, DEMO)])
    assert home.devices[0].attributes[0].precision is None  # the input is left as it was
    device = out.devices[0]
    assert device.attributes[0].precision == 10
    assert device.services[0].arguments[0].precision == 10
    assert device.userdata.travel is not None and 10 <= device.userdata.travel["position"] <= 11
    engine = HomeEngine(out)
    # asked 44 it stopped at 40 and asked 67 at 70: it rounds to the nearest step, as the twin
    assert device.services[0].arguments[0].rounding == "nearest"
    assert engine.execute("cover.w", "set_position", {"position": 44}).ok
    assert engine.value("cover.w", "position") == 40
    assert engine.execute("cover.w", "set_position", {"position": 67}).ok
    assert engine.value("cover.w", "position") == 70
    # a step whose rounding was not learnt: off-grid values refused, as a catalog device's
    unsure = Learnt("cover.w", "position", (), step=10)
    assert (
        not HomeEngine(calibrated(home, [unsure]))
        .execute("cover.w", "set_position", {"position": 44})
        .ok
    )
    rng = random.Random(0)
    drawn = {valid_value(device.services[0].arguments[0], rng) for _ in range(50)}
    assert drawn <= set(range(0, 101, 10)) and len(drawn) > 3
    untouched = calibrated(home, [Learnt("cover.w", "position", ())])
    assert untouched.devices[0].attributes[0].precision is None
    assert untouched.devices[0].userdata.travel is None
