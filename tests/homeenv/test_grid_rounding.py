"""A spec's ``rounding`` (what ``smh home probe`` learns from a device that rounds what it is
asked): service arguments and direct writes off the precision grid are taken to the grid
point it names; without one they are refused as before, and nothing else is rounded."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import ErrorCode
from smh_core.homeenv.model import Argument, Attribute, AttrType, Device, Home, Service, UserData
from smh_core.homeenv.samples import invalid_value


def _window(rounding: str | None, precision: float = 10, kind: str = "int") -> Home:
    grid = {"precision": precision, "rounding": rounding}
    window = Device(
        name="Window",
        attributes=[
            Attribute(
                name="position",
                value=70,
                type=AttrType(kind),
                range=(0, 100),
                writable=True,
                **grid,
            )
        ],
        services=[
            Service.model_validate(
                {
                    "name": "set_position",
                    "arguments": [{"name": "position", "type": kind, "range": [0, 100], **grid}],
                    "effects": [{"set": "position", "arg": "position"}],
                }
            )
        ],
        userdata=UserData(did="cover.w", spid="x", category="cover", subcategory="curtain"),
    )
    return Home(name="h", rooms=[], devices=[window])


def _settles(engine: HomeEngine, asked: object) -> object:
    result = engine.execute("cover.w", "set_position", {"position": asked})
    return engine.value("cover.w", "position") if result.ok else result.error.code


@pytest.mark.parametrize(
    ("rounding", "expected"),
    [
        (None, [ErrorCode.PRECISION_ERROR] * 4 + [100]),
        ("nearest", [40, 40, 60, 70, 100]),  # a tie to the even step, as Python's round
        ("down", [40, 40, 50, 60, 100]),
        ("up", [50, 50, 60, 70, 100]),
    ],
)
def test_an_off_grid_argument_is_taken_as_the_rounding_says(rounding, expected) -> None:
    engine = HomeEngine(_window(rounding))
    assert [_settles(engine, v) for v in (44, 45, 55, 67, 100)] == expected


def test_only_numbers_in_range_are_rounded_the_rest_refused_as_before() -> None:
    engine = HomeEngine(_window("nearest"))
    before = engine.snapshot()
    for asked, code in [
        (101, ErrorCode.OUT_OF_RANGE),
        (-3, ErrorCode.OUT_OF_RANGE),
        (44.0, ErrorCode.TYPE_ERROR),  # a float for an int: not coerced
        (True, ErrorCode.TYPE_ERROR),
        ("44", ErrorCode.TYPE_ERROR),
        (10**400, ErrorCode.OUT_OF_RANGE),
    ]:
        assert _settles(engine, asked) == code, asked
    assert engine.diff(before, engine.snapshot()) == []


def test_a_float_grid_and_a_direct_write_round_too() -> None:
    engine = HomeEngine(_window("up", precision=0.5, kind="float"))
    assert _settles(engine, 21.1) == 21.5
    assert engine.execute("cover.w", "position", {"value": 30.2}).ok
    assert engine.value("cover.w", "position") == 30.5
    assert _settles(engine, float("nan")) == ErrorCode.TYPE_ERROR


def test_task_setup_is_not_rounded() -> None:
    engine = HomeEngine(_window("nearest"))
    assert not engine.set_values("cover.w", {"position": 44}).ok
    assert engine.value("cover.w", "position") == 70


def test_a_rounding_needs_a_numeric_grid() -> None:
    with pytest.raises(ValidationError, match="rounding needs a number with a precision"):
        Argument(name="p", type=AttrType.INT, range=(0, 100), rounding="nearest")
    with pytest.raises(ValidationError, match="rounding needs a number with a precision"):
        Argument(name="p", type=AttrType.STR, precision=1, rounding="up")
    with pytest.raises(ValidationError):
        Argument(name="p", type=AttrType.INT, precision=10, rounding="sideways")


def test_an_off_grid_value_is_no_invalid_sample_where_the_device_rounds_it() -> None:
    spec = Argument(name="p", type=AttrType.INT, range=(0, 100), precision=10, rounding="down")
    rng = random.Random(0)
    engine = HomeEngine(_window("down"))
    for _ in range(200):
        bad = invalid_value(spec, rng)
        assert not engine.execute("cover.w", "set_position", {"position": bad}).ok, bad


def test_the_agent_is_shown_the_rounding() -> None:
    spec = HomeEngine(_window("nearest")).spec("cover.w")
    assert spec["services"]["set_position"]["arguments"]["position"]["rounding"] == "nearest"
    assert (
        "rounding"
        not in HomeEngine(_window(None)).spec("cover.w")["services"]["set_position"]["arguments"][
            "position"
        ]
    )
