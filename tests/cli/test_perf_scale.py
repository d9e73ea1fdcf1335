"""``smh perf sim --scale``: the scaled homes and the size curve's arithmetic and output."""

from __future__ import annotations

import argparse

import pytest

from smh_core.cli import perf as perf_cli
from smh_core.cli.main import main
from smh_core.perf.scale import ScalePoint, per_doubling, scaled_home


def test_a_scaled_home_is_k_separate_copies() -> None:
    one, three = scaled_home(1), scaled_home(3)
    assert len(three.devices) == 3 * len(one.devices)
    assert len(three.rooms) == 3 * len(one.rooms)
    assert len({d.did for d in three.devices}) == len(three.devices)
    rooms = {r.id for r in three.rooms}
    assert all(d.userdata.room in rooms for d in three.devices)
    assert all(r.parent is None or r.parent in rooms for r in three.rooms)
    copy2 = [d for d in three.devices if d.did.endswith("-2")]
    assert len(copy2) == len(one.devices) and all(d.userdata.room.endswith("-2") for d in copy2)
    with pytest.raises(ValueError, match="at least one copy"):
        scaled_home(0)


def test_different_homes_are_different_seeds_with_their_own_ids() -> None:
    """Issue 37: the curve of different homes (each its own climate and appliances, so its
    own event times), beside the copies of one."""
    copies, different = scaled_home(3), scaled_home(3, kind="different")
    assert len({d.did for d in different.devices}) == len(different.devices)
    rooms = {r.id for r in different.rooms}
    assert all(d.userdata.room in rooms for d in different.devices)
    part = {r.id: r for r in scaled_home(1, seed=1).rooms}
    climates = [r.environment for r in different.rooms if r.id.endswith("-1")]
    assert climates == [
        part[r.id.removesuffix("-1")].environment for r in different.rooms if r.id.endswith("-1")
    ]
    assert climates != [r.environment for r in copies.rooms if r.id.endswith("-1")]
    with pytest.raises(ValueError, match="kind"):
        scaled_home(2, kind="clones")


def _point(devices: int) -> ScalePoint:
    return ScalePoint(devices, 1, 0.0, 0.0, 1, 1.0, 1.0, 1.0)


def test_per_doubling_is_one_when_cost_grows_linearly() -> None:
    assert per_doubling(_point(100), _point(400), 1.0, 4.0) == pytest.approx(1.0)
    assert per_doubling(_point(100), _point(400), 1.0, 16.0) == pytest.approx(2.0)  # quadratic
    assert per_doubling(_point(100), _point(200), 1.0, 2.4) == pytest.approx(1.2)


@pytest.mark.parametrize("bad", ["0,1", "2,1", "1,1", "x", ""])
def test_copies_must_be_increasing_whole_numbers(bad: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        perf_cli._copies(bad)


def test_scale_prints_one_row_per_size_and_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perf", "sim", "--scale", "--copies", "1,2", "--hours", "0.5"]) == 0
    out = capsys.readouterr().out
    rows = [
        r for r in (line.split() for line in out.splitlines()) if len(r) == 10 and r[0][0].isdigit()
    ]
    assert "copies:" in out and "different:" in out  # both curves by default
    assert [r[0] for r in rows[:2]] == ["142", "284"] and len(rows) == 4
    assert (
        rows[0][5] == "-" and float(rows[1][5]) > 0
    )  # growth per doubling from the second size on
    assert "27-device Matter home" in out and "us/tick" in out
