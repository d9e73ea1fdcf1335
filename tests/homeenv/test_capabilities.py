"""Setter and switch discovery from device schemas, checked against the engine itself."""

from __future__ import annotations

import random

import pytest

from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.capabilities import setters, switches
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room
from smh_core.homeenv.samples import valid_value

TYPES = sorted(load_catalog())


def _engine(type_name: str) -> HomeEngine:
    device = instantiate(type_name, did="1", room="r1")
    return HomeEngine(
        Home(rooms=[Room(id="r1", type="living_room", name="Living Room")], devices=[device])
    )


def test_fan_light_capabilities():
    device = instantiate("fan_light", did="1", room="r1")
    sw = switches(device)
    assert sw["light.state"].on_service == "light.turn_on" and sw["fan.state"].off_value == "off"
    st = setters(device)
    assert st["fan.speed_level"].service == "fan.set_speed_level"
    assert st["light.brightness"].argument == "brightness"


@pytest.mark.parametrize("type_name", TYPES)
def test_every_setter_and_switch_really_sets_its_attribute(type_name):
    """Through the engine: turn the device on first where needed, then each setter lands."""
    engine = _engine(type_name)
    device = engine.device("1")
    rng = random.Random(0)
    for loc, sw in switches(device).items():
        assert engine.execute("1", sw.off_service).ok
        assert engine.value("1", loc) == sw.off_value
        assert engine.execute("1", sw.on_service).ok, (type_name, sw)
        assert engine.value("1", loc) == sw.on_value
    specs = {a.name: a for a in device.attributes}
    specs.update({f"{c.name}.{a.name}": a for c in device.components for a in c.attributes})
    for loc, setter in setters(device).items():
        svc = next(
            s
            for p, s in [("", s) for s in device.services]
            + [(c.name + ".", s) for c in device.components for s in c.services]
            if p + s.name == setter.service
        )
        arg = next(a for a in svc.arguments if a.name == setter.argument)
        value = valid_value(arg, rng)
        result = engine.execute("1", setter.service, {setter.argument: value})
        if result.ok:
            assert engine.value("1", loc) == value, (type_name, loc)
        else:  # only a precondition may stop it (e.g. an appliance that must be idle)
            assert result.error.code == "precondition_failed", (type_name, loc, result.error)
