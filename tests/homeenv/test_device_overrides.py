"""Per-device narrowing in a home file: a device's attribute may carry its own range, options
and precision (a unit that only cools to 18-26 °C, an AC without a heat mode), and the
services that write the attribute follow it: a value outside is a bad argument naming what the
attribute allows, the device's schema (what an agent reads) says so, and the home is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smh_core.agent.tools import dispatch
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_task
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Argument, Attribute, AttrType, Home
from smh_core.homeenv.validation import narrowed_to
from tests.support.file_task import execute_task_on

FIXTURES = Path(__file__).parents[1] / "fixtures"


def narrowed_home_data() -> dict:
    """The tiny home with its kitchen AC (1003) narrowed: 18-26 °C in whole degrees, no heat
    mode; the catalog-style service arguments still say 16-30 in halves and list heat."""
    data = json.loads((FIXTURES / "tiny_home.json").read_text())
    for a in data["devices"][2]["attributes"]:
        if a["name"] == "target_temperature":
            a.update(range=[18, 26], precision=1.0)
        if a["name"] == "ac_mode":
            a["options"] = ["cool", "auto", "dry", "fan_only"]
    return data


@pytest.fixture
def engine() -> HomeEngine:
    return HomeEngine(Home.model_validate(narrowed_home_data()))


@pytest.mark.parametrize(
    ("locator", "arguments", "code", "allowed"),
    [
        (
            "set_target_temperature",
            {"target_temperature": 28},
            "out_of_range",
            {"type": "float", "range": [18, 26], "precision": 1.0},
        ),
        (
            "set_target_temperature",
            {"target_temperature": 16},
            "out_of_range",
            {"type": "float", "range": [18, 26], "precision": 1.0},
        ),
        (
            "set_target_temperature",
            {"target_temperature": 22.5},
            "precision_error",
            {"type": "float", "range": [18, 26], "precision": 1.0},
        ),
        ("set_ac_mode", {"ac_mode": "heat"}, "invalid_option", ["cool", "auto", "dry", "fan_only"]),
    ],
)
def test_services_refuse_what_the_narrowed_attribute_refuses_as_a_bad_argument(
    engine, locator, arguments, code, allowed
):
    before = engine.snapshot()
    result = engine.execute("1003", locator, arguments)
    assert not result.ok and result.error.code == code
    assert result.error.field == next(iter(arguments)) and result.error.allowed == allowed
    assert engine.diff(before, engine.snapshot()) == []


def test_values_inside_the_narrowed_constraints_still_apply(engine):
    assert engine.execute("1003", "set_target_temperature", {"target_temperature": 19}).ok
    assert engine.execute("1003", "set_ac_mode", {"ac_mode": "dry"}).ok
    assert (
        engine.status("1003")["target_temperature"] == 19
        and engine.status("1003")["ac_mode"] == "dry"
    )


def test_the_agents_schema_shows_the_narrowed_arguments(engine):
    spec = dispatch(EmbeddedBackend(engine), "get_device_spec", {"did": "1003"})
    assert spec["attributes"]["target_temperature"]["range"] == [18, 26]
    arg = spec["services"]["set_target_temperature"]["arguments"]["target_temperature"]
    assert arg["range"] == [18, 26] and arg["precision"] == 1.0
    assert spec["services"]["set_ac_mode"]["arguments"]["ac_mode"]["options"] == [
        "cool",
        "auto",
        "dry",
        "fan_only",
    ]


def test_an_unnarrowed_home_keeps_its_argument_specs():
    engine = HomeEngine(Home.model_validate(json.loads((FIXTURES / "tiny_home.json").read_text())))
    arg = engine.spec("1003")["services"]["set_target_temperature"]["arguments"][
        "target_temperature"
    ]
    assert arg["range"] == [16, 30] and arg["precision"] == 0.5


def test_an_argument_that_can_never_fit_its_attribute_is_refused_at_load():
    data = narrowed_home_data()
    data["devices"][2]["services"][0]["arguments"][0]["range"] = [27, 30]
    with pytest.raises(
        ValueError,
        match=r"device 1003: service 'set_target_temperature': argument "
        r"'target_temperature' range \[27\.0, 30\.0\] and the attribute's",
    ):
        HomeEngine(Home.model_validate(data))


@pytest.mark.parametrize(
    ("arg", "attr", "expected"),
    [
        # a wider argument takes the attribute's bounds; a narrower one keeps its own
        ({"range": [0, 100]}, {"range": [10, 50]}, {"range": (10, 50)}),
        ({"range": [20, 40]}, {"range": [10, 50]}, {"range": (20, 40)}),
        ({"range": None}, {"range": [10, 50]}, {"range": (10, 50)}),
        ({"precision": 0.5}, {"precision": 1.0}, {"precision": 1.0}),
        ({"precision": 2.0}, {"precision": 1.0}, {"precision": 2.0}),
    ],
)
def test_narrowing_rules(arg, attr, expected):
    a = Argument(name="x", type=AttrType.INT, **arg)
    got = narrowed_to(a, Attribute(name="x", type=AttrType.FLOAT, **attr))
    assert {k: getattr(got, k) for k in expected} == expected


def test_options_keep_booleans_apart_and_other_kinds_are_left_alone():
    arg = Argument(name="x", type=AttrType.ENUM, options=[True, 1, "on"])
    assert narrowed_to(arg, Attribute(name="x", type=AttrType.ENUM, options=[1, "on"])).options == [
        1,
        "on",
    ]
    text = Argument(name="x", type=AttrType.STR)
    assert narrowed_to(text, Attribute(name="x", type=AttrType.INT, range=(0, 5))) is text


async def test_oracle_and_null_on_a_task_in_the_narrowed_home(tmp_path):
    task, homes = execute_task_on(
        tmp_path,
        narrowed_home_data(),
        "device(1003).target_temperature == 26",
        [
            {
                "did": "1003",
                "locator": "set_target_temperature",
                "arguments": {"target_temperature": 26},
            }
        ],
    )
    assert (await run_task(task, OracleAgent(), homes))["passed"]
    assert not (await run_task(task, NullAgent(), homes))["passed"]
    wrong = task.model_copy(
        update={
            "reference": task.reference.model_copy(
                update={
                    "actions": [
                        task.reference.actions[0].model_copy(
                            update={"arguments": {"target_temperature": 28}}
                        )
                    ]
                }
            )
        }
    )
    record = await run_task(wrong, OracleAgent(), homes)
    assert not record["passed"] and record["outcome"]["invalid_calls"] == 1
