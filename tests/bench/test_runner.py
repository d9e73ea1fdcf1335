"""Verifier and runner on a small hand-written task file: oracle 100%, null what it deserves,
resumable runs, and every failure classified."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_suite, run_task
from smh_core.bench.verifier import Outcome, verify
from smh_core.task.home import HomeCache
from smh_core.task.model import iter_tasks

FIXTURES = Path(__file__).parents[1] / "fixtures"
TASKS = list(iter_tasks(FIXTURES / "tasks_tiny.jsonl"))


@pytest.fixture
def homes() -> HomeCache:
    return HomeCache(FIXTURES)


async def test_oracle_passes_everything(tmp_path, homes):
    log = await run_suite(TASKS, OracleAgent(), tmp_path, homes=homes, progress=False)
    failed = {r["task_id"]: r["verdict"] for r in log.records() if not r["passed"]}
    assert failed == {}
    assert len(log) == len(TASKS)


async def test_null_agent_gets_what_doing_nothing_deserves(tmp_path, homes):
    log = await run_suite(TASKS, NullAgent(), tmp_path, homes=homes, progress=False)
    classes = {r["task_id"]: (r["passed"], r["verdict"]["error_class"]) for r in log.records()}
    assert classes == {
        "exec-1": (False, "DC"),
        "exec-2": (False, "DC"),  # no-op
        "query-1": (False, "EP"),
        "query-2": (False, "EP"),  # no answer
        "clarify-1": (False, "MS"),
        "clarify-2": (False, "MS"),  # did not ask
        "infeasible-1": (False, "CB"),  # did not say it is impossible
        "required-1": (False, "EP"),  # state already right, no info gathered
    }
    assert all(r["verdict"]["reason"] for r in log.records())


async def test_resume_equals_uninterrupted_run(tmp_path, homes):
    full = await run_suite(TASKS, OracleAgent(), tmp_path / "full", homes=homes, progress=False)
    part = tmp_path / "part"
    await run_suite(TASKS[:3], OracleAgent(), part, homes=homes, progress=False)
    # simulate a crash mid-write: a torn final line
    with (part / "results.jsonl").open("a") as fh:
        fh.write('{"task_id": "exec-2", "pas')
    resumed = await run_suite(TASKS, OracleAgent(), part, homes=homes, progress=False)

    def strip(records):
        return {r["task_id"]: {k: v for k, v in r.items() if k != "seconds"} for r in records}

    assert strip(resumed.records()) == strip(full.records())
    lines = (part / "results.jsonl").read_text().splitlines()
    assert len(lines) == len(TASKS) == len({json.loads(x)["task_id"] for x in lines})


async def _verdict(task_id, homes, act=None, **outcome):
    from smh_core.task.home import prepare_engine

    task = next(t for t in TASKS if t.id == task_id)
    engine = prepare_engine(task, homes)
    before = engine.snapshot()
    for did, loc, args in act or []:
        assert engine.execute(did, loc, args).ok
    return await verify(task, before, engine.snapshot(), Outcome(**outcome))


async def test_failure_classes(homes):
    v = await _verdict("exec-1", homes, [("1001", "turn_on", {})])
    assert (v.passed, v.error_class) == (False, "AP")  # half the goal
    v = await _verdict(
        "exec-1",
        homes,
        [
            ("1001", "turn_on", {}),
            ("1001", "set_brightness", {"brightness": 30}),
            ("1002", "fan.turn_on", {}),
        ],
    )
    assert (v.passed, v.error_class) == (False, "DC") and "outside the goal" in v.reason
    v = await _verdict("exec-1", homes, questions=["which lamp?"])
    assert v.error_class == "MS"
    v = await _verdict("exec-1", homes, [("1001", "turn_on", {})], stop="budget")
    assert v.error_class == "IE"
    v = await _verdict("exec-1", homes, [("1001", "turn_on", {})], invalid_calls=2)
    assert v.error_class == "AV"
    v = await _verdict("exec-1", homes, agent_error="FRF")
    assert v.error_class == "FRF"
    v = await _verdict("query-1", homes, [("1001", "turn_on", {})], response="2")
    assert v.error_class == "MS"  # a query must not change anything
    v = await _verdict("query-1", homes, response="There are three.")
    assert (v.passed, v.error_class, v.decided_by) == (False, "EP", "deterministic")
    v = await _verdict("query-1", homes, response="two devices")
    assert v.passed and v.decided_by == "deterministic"
    v = await _verdict("infeasible-1", homes, [("1001", "turn_on", {})], response="Sorry, I can't.")
    assert v.error_class == "CM"
    v = await _verdict("required-1", homes, [("1003", "set_ac_mode", {"ac_mode": "cool"})])
    assert (v.passed, v.error_class) == (False, "EP") and "list_devices" in v.reason
    v = await _verdict("clarify-1", homes, questions=["How bright?"], response="How bright?")
    assert v.passed


async def test_agent_crash_is_recorded_as_the_harness_not_the_model(homes):
    class Boom:
        name = "boom"

        async def run(self, task, backend, user):
            raise RuntimeError("agent bug")

    record = await run_task(TASKS[0], Boom(), homes)
    assert record["passed"] is False and record["verdict"]["error_class"] == "INFRA"
    assert record["infra"]["kind"] == "harness" and "agent bug" in record["infra"]["message"]


def test_bad_override_is_a_clear_error(tmp_path, homes):
    from smh_core.task.home import prepare_engine
    from smh_core.task.model import Task

    task = Task.model_validate(
        {**TASKS[0].model_dump(), "overrides": [{"did": "1001", "values": {"brightness": 500}}]}
    )
    with pytest.raises(ValueError, match="exec-1: override of 1001"):
        prepare_engine(task, homes)
    shutil.rmtree(tmp_path, ignore_errors=True)


async def test_replay_rescoring_matches_the_recorded_run(tmp_path, homes):
    from smh_core.bench.agents import ReplayAgent

    original = await run_suite(TASKS, OracleAgent(), tmp_path / "orig", homes=homes, progress=False)
    replayed = await run_suite(
        TASKS,
        ReplayAgent(tmp_path / "orig" / "results.jsonl"),
        tmp_path / "replay",
        homes=homes,
        progress=False,
    )
    key = {r["task_id"]: (r["passed"], r["changes"]) for r in original.records()}
    assert {r["task_id"]: (r["passed"], r["changes"]) for r in replayed.records()} == key


def test_replay_rejects_foreign_files(tmp_path):
    from smh_core.bench.agents import ReplayAgent

    bad = tmp_path / "x.jsonl"
    bad.write_text('{"hello": 1}\n')
    with pytest.raises(ValueError, match=r"x\.jsonl:1: not a results record"):
        ReplayAgent(bad)


def test_an_or_critic_passes_when_one_side_holds():
    from smh_core.bench.verifier import check_state
    from smh_core.homeenv.engine import HomeEngine
    from smh_core.homes.generator import generate_home

    engine = HomeEngine(generate_home("simple", 0))
    did = next(d for d in engine.device_ids() if engine.status(d).get("state") == "off")
    before = engine.snapshot()
    assert engine.execute(did, "turn_on").ok
    after = engine.snapshot()
    either = f"device({did}).state == on or device({did}).state == standby"
    assert check_state(either, before, after, preserve=True, may_change=[]).passed
    neither = f"device({did}).state == standby or device({did}).state == off"
    verdict = check_state(neither, before, after, preserve=True, may_change=[])
    assert not verdict.passed and verdict.details["failed"]


async def test_room_climate_is_no_stray_change_without_a_world():
    """Inside Home Assistant a task is judged without its world; the rooms' climate still moves
    there (physics, a lamp lighting its room), which must not count as the agent changing
    another device. A real stray change still fails."""
    from smh_core.homeenv.engine import HomeEngine, load_home
    from smh_core.homes.simulated import with_room_climate

    task = next(t for t in TASKS if t.id == "exec-1")
    engine = HomeEngine(with_room_climate(load_home(FIXTURES / "tiny_home.json"), 0))
    before = engine.snapshot()
    for action in task.reference.actions:
        assert engine.execute(action.did, action.locator, action.arguments).ok
    room = engine.device("1001").userdata.room
    warmer = before[f"@{room}"]["temperature"] + 1.5
    assert engine.set_values(f"@{room}", {"temperature": warmer, "illuminance": 400.0}).ok
    verdict = await verify(task, before, engine.snapshot(), Outcome(response="Done."))
    assert verdict.passed, verdict.reason
    assert engine.execute(
        "1003", "set_target_temperature", {"target_temperature": 20}
    ).ok  # not asked for
    verdict = await verify(task, before, engine.snapshot(), Outcome(response="Done."))
    assert not verdict.passed and verdict.error_class == "DC"
