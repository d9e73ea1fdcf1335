"""Checkers are shared between equal attribute specs, and only between equal ones."""

from __future__ import annotations

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType, ValueSpec
from smh_core.homeenv.validation import shared_checker
from smh_core.homes.simulated import generate_matter_home


def test_devices_of_one_type_share_their_checkers() -> None:
    engine = HomeEngine(generate_matter_home(0))
    by_spid: dict[str, list[str]] = {}
    for did in engine.device_ids():
        by_spid.setdefault(engine.device(did).userdata.spid, []).append(did)
    a, b = next(dids for dids in by_spid.values() if len(dids) > 1)[:2]
    ca, cb = engine._devs[a].checkers, engine._devs[b].checkers
    assert ca.keys() == cb.keys()
    models = engine._devs[a].attr_models
    scalar = [
        loc for loc in ca if models[loc].items is None
    ]  # element schemas compile on their own
    assert len(scalar) > 5
    assert all(ca[loc] is cb[loc] for loc in scalar)


def test_specs_that_differ_get_their_own_checker() -> None:
    ints = shared_checker(ValueSpec(type=AttrType.INT, options=[0, 1]), "x")
    bools = shared_checker(ValueSpec(type=AttrType.BOOL, options=[False, True]), "x")
    assert ints is not bools
    assert ints(1) is None and ints(True) is not None
    assert bools(True) is None and bools(1) is not None
    coarse = shared_checker(ValueSpec(type=AttrType.FLOAT, range=(0, 10), precision=0.5), "t")
    fine = shared_checker(ValueSpec(type=AttrType.FLOAT, range=(0, 10), precision=0.1), "t")
    assert coarse(0.3) is not None and fine(0.3) is None
    other_name = shared_checker(ValueSpec(type=AttrType.FLOAT, range=(0, 10), precision=0.5), "u")
    assert other_name is not coarse
    assert "u=" in other_name(0.3)[1]  # messages name their own field
    assert (
        shared_checker(ValueSpec(type=AttrType.FLOAT, range=(0, 10), precision=0.5), "t") is coarse
    )
