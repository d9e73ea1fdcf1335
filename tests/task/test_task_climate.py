"""Per-task room climates and outdoor weather (SimuHome sets them per episode): applied to a
copy of the task's home when the task is prepared, checked against the home's rooms, never
leaking into the cached home other tasks use."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import prepare_world, run_task
from smh_core.homeenv.dynamics import air_quality_class
from smh_core.task.home import HomeCache, TaskError, prepare_engine
from smh_core.task.model import Task, dump_task

FIXTURES = Path(__file__).parents[1] / "fixtures"
AC = "2003"  # the office's air conditioner in matter home 0: on, cooling to 24 °C
# QT2-style: the user is cold; the one thing to do is switch the cooling off and let the office
# warm up. Whether that reaches 28 °C within the hour depends on the weather outside.
TOO_COLD = {
    "id": "qt2-cold-office",
    "suite": "simuhome",
    "category": "QT2",
    "subcategory": "feasible",
    "difficulty": "medium",
    "home": {"generator": "matter", "seed": 0},
    "turns": [{"text": "Brr, it's way too cold in the office, I want it warm in an hour."}],
    "goal": {
        "kind": "timed",
        "may_change": [AC],
        "checkpoints": [
            {"at_seconds": 3600, "critic": "device(@office).temperature >= 28", "not_before": False}
        ],
    },
    "reference": {
        "mode": "execute",
        "response": "I switched the office AC off.",
        "actions": [{"did": AC, "locator": "1.OnOff.Off"}],
    },
}
HOT_DAY = {"outdoor": {"temperature": 45}}


def _task(**fields: object) -> Task:
    return Task.model_validate({**TOO_COLD, **fields})


async def test_the_outdoor_temperature_decides_whether_the_task_is_feasible():
    homes = HomeCache()
    hot = await run_task(_task(climate=HOT_DAY), OracleAgent(), homes)
    assert hot["passed"], hot["verdict"]
    assert not (await run_task(_task(climate=HOT_DAY), NullAgent(), homes))[
        "passed"
    ]  # the AC holds 24 °C
    mild = await run_task(_task(), OracleAgent(), homes)  # the home's own weather: 24 °C outside
    assert not mild["passed"] and mild["verdict"]["error_class"] == "TR"


async def test_the_cached_home_keeps_its_own_climate():
    homes = HomeCache()
    task = _task(climate={"rooms": {"office": {"temperature": 19.5, "pm25": 80}}, **HOT_DAY})
    cached = homes.get(task)
    office = next(r for r in cached.rooms if r.id == "office")
    world = prepare_world(task, homes)
    try:
        assert world.engine.environment("office")["temperature"] == 19.5
        assert world.engine.environment("office")["air_quality"] == air_quality_class(80) != "good"
        assert world.sim.to_home().simulation.outdoor.temperature == 45
    finally:
        world.close()
    assert homes.get(task) is cached and next(r for r in cached.rooms if r.id == "office") == office
    assert cached.simulation.outdoor.temperature == 24.0
    plain = prepare_engine(_task(), homes)
    assert plain.environment("office")["temperature"] == office.environment.temperature


def test_an_unknown_room_is_named_and_nothing_is_built():
    with pytest.raises(
        TaskError, match=r"climate\.rooms\.attic: unknown room 'attic' \(the home's rooms: "
    ):
        prepare_engine(_task(climate={"rooms": {"attic": {"temperature": 20}}}), HomeCache())


async def test_an_unknown_room_is_the_tasks_error_not_the_agents():
    record = await run_task(
        _task(climate={"rooms": {"attic": {"temperature": 20}}}), OracleAgent(), HomeCache()
    )
    assert (
        record["task_error"]["kind"] == "climate"
        and record["task_error"]["field"] == "climate.rooms.attic"
    )


@pytest.mark.parametrize(
    ("climate", "field"),
    [
        ({"rooms": {"office": {"humidity": 120}}}, "climate.rooms.office.humidity"),
        ({"outdoor": {"temperature": -80}}, "climate.outdoor.temperature"),
        ({"outdoor": {"daylight": [0] * 23}}, "climate.outdoor.daylight"),
        ({"outdoor": {"wind": 3}}, "climate.outdoor.wind"),
    ],
)
def test_out_of_range_or_unknown_climate_values_are_refused(climate, field):
    with pytest.raises(ValidationError) as err:
        _task(climate=climate)
    assert ".".join(map(str, err.value.errors()[0]["loc"])) == field


def test_a_room_without_climate_becomes_simulated_and_tasks_without_climate_dump_as_before():
    task = Task.model_validate(
        {
            **TOO_COLD,
            "home": {"file": "tiny_home.json"},
            "goal": {"kind": "execute", "critic": "device(1001).state == on"},
            "climate": {"rooms": {"r3": {"temperature": 31}}},
        }
    )
    engine = prepare_engine(task, HomeCache(FIXTURES))
    assert engine.environment("r3")["temperature"] == 31 and engine.environment("r1") is None
    assert "climate" not in dump_task(_task())
