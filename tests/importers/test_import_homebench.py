"""`smh tasks import --from homebench`: homes and instructions written here in HomeBench's
published format (HomeBench has no licence; none of it ships) become validated homes and tasks,
with a report of what was imported, approximated and skipped."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_task
from smh_core.cli.main import main
from smh_core.importers.homebench import (
    LABEL_CONFLICT,
    import_homebench,
    parse_call,
    split_gold,
)
from smh_core.importers.homebench_replay import replay_gold
from smh_core.task.home import HomeCache, prepare_engine
from smh_core.task.model import load_tasks

SOURCE = Path(__file__).parents[1] / "fixtures" / "homebench"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The fixtures imported once: (output folder, tasks by id, report)."""
    tasks, report = import_homebench(SOURCE, out := tmp_path_factory.mktemp("homebench"))
    return out, {t.id: t for t in tasks}, report


def test_each_kind_of_instruction_is_imported_or_skipped_with_its_reason(imported):
    out, tasks, report = imported
    assert sorted(tasks) == sorted(t.id for t in load_tasks([out / "homebench_import.jsonl"]))
    assert len(tasks) == 26 and len(report.skipped) == 5 and len(report.approximated) == 4
    by_sub = {}
    for t in tasks.values():
        by_sub.setdefault(t.subcategory, []).append(
            t.goal.kind if t.goal else "+".join(g.kind for g in t.goals)
        )
    assert by_sub == {
        "normal": ["execute"] * 17,
        "unexist_device": ["infeasible"],
        "unexist_attribute": ["infeasible"] * 4,
        "multi_normal": ["execute", "execute"],
        "multi_mix": ["execute+infeasible"],
        "multi_error": ["infeasible"],
    }
    assert dict(report.skipped) == {
        "home_status_method.jsonl:3": "home_status: expected dict, got list []",
        "test_data.jsonl:10 (home0_one_010)": "no counterpart here: choosing music by style",
        "test_data.jsonl:17": "(line): not JSON (Unterminated string starting at at column 34)",
        "test_data.jsonl:21": "output: expected str, got int 42",
        "test_data.jsonl:22 (home7_one_001)": "home 7 is not in home_status_method.jsonl (or could not be read)",
    }
    approximated = dict(report.approximated)
    assert approximated["home 0: vacuum_robot"] == "HomeBench's robot starts 'on': imported as idle"
    assert (
        "test_data.jsonl:15 (home0_multi_002)" not in approximated
    )  # a mixed line is imported whole
    md = (out / "homebench_import.import.md").read_text()
    assert "| no counterpart here: choosing music by style | 1 |" in md
    assert (
        "6 of 7 refused, 1 carried out by the source's own home (each task kept with that home "
        "and its label, marked `label_conflict`); 1 more could not be read into a device call."
    ) in md
    assert (
        json.loads((out / "homebench_import.import.json").read_text())["imported"]
        == report.imported
    )


def test_goals_are_the_states_the_gold_calls_ask_for(imported):
    _, tasks, _ = imported
    assert (
        tasks["hb-home0_one_003"].goal.critic == 'device(living_room_light).state == "off"'
    )  # brightness 0
    assert tasks["hb-home0_one_007"].goal.critic == 'device(kitchen_fan).preset_mode == "auto"'
    # HomeBench's gold is the lone setting call on a fan that is off, and HomeBench scores it
    # correct: the imported fan takes it while off (the catalog's swing fan would refuse it)
    assert [a.locator for a in tasks["hb-home0_one_007"].reference.actions] == ["set_preset_mode"]
    mixed = tasks[
        "hb-home0_multi_002"
    ]  # valid and invalid requests: an execute and an infeasible goal
    assert mixed.goal is None and [g.kind for g in mixed.goals] == ["execute", "infeasible"]
    assert mixed.goals[0].critic == (
        'device(living_room_light).color == "#0000FF"; device(living_room_light).state '
        '== "on"; device(living_room_curtain).state == "open"'
    )
    assert mixed.goals[1].reason.startswith(
        "1 of the 3 requests name a device or setting the home does not have"
    )
    assert tasks["hb-home0_multi_003"].goal.reason.startswith("none of the requested devices")
    assert tasks["hb-home0_one_012"].goal.reason.endswith("(HomeBench unexist_device)")
    assert (
        tasks["hb-home0_one_014"].goal.critic
        == "device(master_bedroom_aromatherapy).interval == 40"
    )
    # the lost state: a swing direction, a robot's cleaning area, a trash bin
    assert tasks["hb-home0_one_019"].goal.critic == (
        "device(living_room_air_conditioner).swing_enabled == False; "
        'device(living_room_air_conditioner).swing_position == "down"'
    )
    assert tasks["hb-home1_one_004"].goal.critic == (
        "device(study_room_fan).oscillation_enabled == False; "
        'device(study_room_fan).swing_position == "middle"'
    )
    assert (
        tasks["hb-home0_one_017"].goal.critic == 'device(vacuum_robot).cleaning_area == "kitchen"'
    )
    assert tasks["hb-home0_one_018"].goal.critic == 'device(living_room_trash).state == "empty"'


async def test_a_request_the_home_already_satisfies_still_wants_its_call(imported):
    """HomeBench's gold is ``turn_on()`` for a light that is on, and its scorer wants that call:
    the task is a no_change goal (the state must not move, wrong actions fail) whose call is
    required, so saying "it is already on" without calling fails, as it does there."""
    out, tasks, _ = imported
    task = tasks["hb-home0_one_011"]  # the living room light is on already
    assert task.goal.no_change
    assert [(a.did, a.locator) for a in task.reference.actions] == [
        ("living_room_light", "turn_on")
    ]
    assert [(r.tool, r.arguments) for r in task.required_actions] == [
        ("control_device", {"did": "living_room_light", "locator": "turn_on"})
    ]
    assert [(d.did, d.locator) for d in task.goal.decoys] == [("living_room_light", "turn_off")]
    nothing = await run_task(task, NullAgent(), HomeCache(out))
    assert not nothing["passed"] and "required tool calls missing" in nothing["verdict"]["reason"]


def test_devices_have_exactly_what_homebench_gives_them(imported):
    out, tasks, _ = imported
    engine = prepare_engine(tasks["hb-home0_one_001"], HomeCache(out))

    def shape(did):
        device = engine.device(did)
        return sorted(loc for loc, _ in device.attributes_by_locator()), sorted(
            loc for loc, _ in device.services_by_locator()
        )

    assert shape("kitchen_light") == (
        ["state"],
        ["turn_off", "turn_on"],
    )  # HomeBench gives it no brightness
    assert shape("living_room_light") == (
        ["brightness", "color", "state"],
        ["set_brightness", "set_color", "turn_off", "turn_on"],
    )
    assert shape("kitchen_fan") == (
        ["preset_mode", "speed_level", "state"],
        ["set_preset_mode", "set_speed_level", "turn_off", "turn_on"],
    )
    assert shape("master_bedroom_aromatherapy") == (
        ["interval", "state"],
        ["set_interval", "turn_off", "turn_on"],
    )
    assert engine.spec("kitchen_fan")["attributes"]["preset_mode"]["options"] == ["auto", "normal"]
    assert engine.spec("living_room_air_conditioner")["attributes"]["ac_mode"]["options"] == [
        "cool",
        "heat",
        "fan_only",
        "dry",
    ]
    assert engine.spec("living_room_media_player")["attributes"]["state"]["options"] == [
        "playing",
        "paused",
        "idle",
    ]
    refused = engine.execute("kitchen_light", "set_brightness", {"brightness": 50})
    assert (
        refused.error.code == "service_not_found"
        and engine.value("kitchen_light", "state") == "off"
    )
    assert (
        engine.execute("master_bedroom_aromatherapy", "set_intensity", {"intensity": 20}).error.code
        == "service_not_found"
    )
    assert engine.execute(
        "living_room_air_conditioner", "set_ac_mode", {"ac_mode": "auto"}
    ).error.code in ("invalid_option", "bad_arguments")


class _SetsBrightness:
    """Does what a label-conflict request asks although the label says it cannot be done."""

    name = "sets-brightness"

    async def run(self, task, backend, user):
        from smh_core.bench.verifier import Outcome

        backend.execute("living_room_light", "set_brightness", {"brightness": 30})
        return Outcome(response="Done, the brightness is 30.", stop="answered")


async def test_a_label_the_home_contradicts_keeps_the_home_and_is_marked(imported):
    """HomeBench labels "set the brightness" of a light with brightness impossible (its generator
    writes such requests for every light): the task keeps HomeBench's home, is marked
    ``label_conflict``, and is scored by the label: saying it cannot passes, doing it fails."""
    out, tasks, report = imported
    task = tasks["hb-home0_one_016"]
    assert task.home.file == tasks["hb-home0_one_001"].home.file == "homes/hb-home-0.json"
    assert "living_room.light.set_brightness(30)" in (task.label_conflict or "")
    engine = prepare_engine(task, HomeCache(out))
    assert "brightness" in engine.spec("living_room_light")["attributes"]
    assert not list((out / "homes").glob("*denies*"))  # no home narrowed past the source's
    assert (
        "test_data.jsonl:25 (home0_one_016)",
        "living_room.light.set_brightness(30)",
        f"{LABEL_CONFLICT}set_brightness({{'brightness': 30}})",
    ) in report.invalid
    marked = {t.id for t in tasks.values() if t.label_conflict}
    assert marked == {"hb-home0_one_016"}
    cache = HomeCache(out)
    assert (await run_task(task, OracleAgent(), cache))["passed"]
    acted = await run_task(task, _SetsBrightness(), cache)
    assert not acted["passed"] and acted["label_conflict"] == task.label_conflict


def test_the_home_keeps_rooms_values_and_homebench_limits(imported):
    out, tasks, _ = imported
    engine = prepare_engine(tasks["hb-home0_one_005"], HomeCache(out))
    assert [r.id for r in engine.home.rooms] == ["living_room", "kitchen", "master_bedroom"]
    assert engine.value("living_room_curtain", "degree") == 0  # from the " degree" attribute
    assert engine.value("living_room_curtain", "state") == "closed"
    assert engine.value("living_room_light", "color") == "#FFC864"
    assert engine.value("living_room_media_player", "state") == "playing"
    assert engine.value("master_bedroom_humidifier", "water_level") == 80
    assert (
        engine.value("vacuum_robot", "battery_level") == 90
        and engine.device("vacuum_robot").userdata.room is None
    )
    heater = dict(engine.device("kitchen_water_heater").attributes_by_locator())[
        "target_water_temperature"
    ]
    assert heater.range == (30.0, 100.0)  # HomeBench's limits, wider than the catalog's 75 °C
    heating = prepare_engine(tasks["hb-home1_one_001"], HomeCache(out))
    assert dict(heating.device("study_room_heating").attributes_by_locator())[
        "target_temperature"
    ].range == (16.0, 30.0)
    assert heating.value("study_room_heating", "ac_mode") == "heat"
    assert heating.value("study_room_fan", "swing_position") == "up"


async def test_oracle_passes_every_task_and_doing_nothing_fails_every_one(imported):
    out, tasks, _ = imported
    cache = HomeCache(out)
    verdicts = {
        t.id: (
            (await run_task(t, OracleAgent(), cache))["passed"],
            (await run_task(t, NullAgent(), cache))["passed"],
        )
        for t in tasks.values()
    }
    # hb-home0_one_011 is no_change, but HomeBench wants its call: doing nothing fails there too
    assert verdicts == dict.fromkeys(tasks, (True, False))


def test_same_input_same_bytes(imported, tmp_path):
    out, _, _ = imported
    import_homebench(SOURCE, tmp_path)
    written = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert written == sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert len(written) == 5  # the two homes as HomeBench declares them, the tasks, two reports
    for rel in written:
        assert (out / rel).read_bytes() == (tmp_path / rel).read_bytes(), rel


def test_gold_answers_split_and_parse_as_published():
    assert split_gold("'''a.light.set_color((0, 0, 255)),error_input,b.fan.turn_on(),'''") == [
        "a.light.set_color((0, 0, 255))",
        "error_input",
        "b.fan.turn_on()",
    ]
    assert split_gold("''' kitchen.light.turn_on()'''") == ["kitchen.light.turn_on()"]
    call = parse_call(
        "a.light.set_color((0, 0, 255))", {("light", "set_color"): "typing.Tuple[int, int, int]"}
    )
    assert (call.room, call.device, call.method, call.argument) == (
        "a",
        "light",
        "set_color",
        [0, 0, 255],
    )
    assert parse_call("vacuum_robot.set_mode(strong)", {}).room == ""
    # HomeBench's generator writes the curtain's method with a space; its scorer drops spaces
    spaced = parse_call("balcony.curtain.set_ degree(80)", {("curtain", "set_degree"): "int"})
    assert (spaced.method, spaced.argument) == ("set_degree", 80)
    area = parse_call("vacuum_robot.set_cleaning_area(master bedroom)", {})
    assert area.argument == "master bedroom"  # the argument keeps its words
    with pytest.raises(ValueError, match="is not room.device.method"):
        parse_call("turn on the light", {})


@pytest.mark.parametrize(
    ("files", "error", "match"),
    [
        (None, FileNotFoundError, "nowhere"),
        ({}, ValueError, "no home_status_method.jsonl"),
        ({"test_data.jsonl": ""}, ValueError, "no home_status_method.jsonl"),
        ({"home_status_method.jsonl": ""}, ValueError, "no instruction files"),
    ],
)
def test_a_missing_or_wrong_source_is_a_clear_error_and_writes_nothing(
    tmp_path, files, error, match
):
    source = tmp_path / "nowhere"
    if files is not None:
        source.mkdir()
        for name, text in files.items():
            (source / name).write_text(text)
    with pytest.raises(error, match=match):
        import_homebench(source, tmp_path / "o")
    assert not (tmp_path / "o").exists()


def test_gold_replay_lists_every_call_that_does_not_land():
    replay = replay_gold(SOURCE)
    assert (replay.calls, replay.landed) == (25, 23)
    assert replay.disagreements == [
        (
            "test_data.jsonl:10",
            "living_room.media_player.set_style(jazz)",
            "no counterpart: choosing music by style",
        ),
        ("test_data.jsonl:22", "hall.light.turn_on()", "its home is not imported"),
    ]


def _bench_run(tasks_dir: Path, out: Path) -> subprocess.CompletedProcess:
    """In a child process: asyncio.run in this one would leave the test session without a loop."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "bench",
            "run",
            "--suite",
            "homebench_import",
            "--tasks-dir",
            str(tasks_dir),
            "--agent",
            "oracle",
            "--out",
            str(out),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_imports_and_bench_runs_the_suite_by_name(tmp_path, capsys):
    missing = _bench_run(tmp_path, tmp_path / "run0")
    assert missing.returncode == 2
    assert "smh tasks import --from homebench PATH --out" in missing.stderr
    assert (
        main(
            [
                "tasks",
                "import",
                "--from",
                "homebench",
                str(SOURCE),
                "--out",
                str(tmp_path / "imported"),
            ]
        )
        == 0
    )
    assert "26 tasks imported" in capsys.readouterr().out
    run = _bench_run(tmp_path, tmp_path / "run")
    assert run.returncode == 0 and "26 of 26 scored passed" in run.stdout, run.stderr


def test_fidelity_script_reports_tasks_and_gold_replay():
    script = Path(__file__).parents[2] / "scripts" / "import_fidelity.py"
    run = subprocess.run(
        [sys.executable, str(script), "--from", "homebench", str(SOURCE)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "| all | 26 | 26 | 0 |" in run.stdout and "REFERENCE FAILS" not in run.stdout
    assert (
        "23 of 25 valid calls land in the state they ask for, every attribute they set checked (92.0%)"
        in run.stdout
    )
    assert "| room_vacuum | 1 | 1 |" in run.stdout and "| trash_bin | 1 | 1 |" in run.stdout
    assert (
        "replayed on the task's home: 6 of 7 refused (85.7%), 1 carried out by the source's own "
        "home (label conflicts"
    ) in run.stdout
    assert "| light | 3 | 2 |" in run.stdout
    assert "LABEL CONFLICT: test_data.jsonl:25 (home0_one_016)" in run.stdout


def test_import_report_option_prints_the_fidelity_report(tmp_path, capsys):
    assert (
        main(
            [
                "tasks",
                "import",
                "--from",
                "homebench",
                str(SOURCE),
                "--out",
                str(tmp_path),
                "--report",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "# Import fidelity: HomeBench" in out and "| all | 26 | 26 | 0 |" in out


def test_gold_as_written_is_read_as_homebench_scores_it():
    from smh_core.importers.homebench_gold import gold_items

    assert gold_items(
        "''' balcony.curtain.set_ degree(80),error_input,a.light.set_color((0, 0, 255)),'''"
    ) == [
        "balcony.curtain.set_degree(80)",
        "error_input",
        "a.light.set_color((0, 0, 255))",
    ]


def test_the_independent_check_picks_services_from_the_spec_alone(imported):
    from smh_core.importers.homebench_gold import plan_call

    out, tasks, _ = imported
    engine = prepare_engine(tasks["hb-home0_one_007"], HomeCache(out))
    fan = engine.spec("kitchen_fan")
    # "auto" is no speed level of the fan, so the next service that takes it is its preset
    assert plan_call(fan, "set_speed", "auto") == ("set_preset_mode", {"preset_mode": "auto"})
    ac = engine.spec("living_room_air_conditioner")
    assert plan_call(ac, "set_swing", "auto") == ("set_swing", {"swing_enabled": True})
    assert plan_call(ac, "set_swing", "down") == ("set_swing_position", {"swing_position": "down"})
    assert plan_call(ac, "set_mode", "cool") == ("set_ac_mode", {"ac_mode": "cool"})
    refused = plan_call(ac, "set_mode", "turbo")
    assert isinstance(refused, str) and "does not take 'turbo'" in refused
    light = engine.spec("living_room_light")
    assert plan_call(light, "set_color", "(0, 0, 255)") == ("set_color", {"color": "#0000FF"})
    assert plan_call(light, "teleport", "") == "no service teleport (or a synonym) on the device"


async def test_the_independent_check_passes_every_imported_fixture_task(imported):
    from smh_core.importers.homebench_gold import check_gold, source_golds

    out, tasks, _ = imported
    check = await check_gold(list(tasks.values()), out, source_golds(SOURCE))
    assert check.tasks == len(tasks) and check.failed == [] and check.passed == check.tasks
    assert check.calls == check.landed > 20 and check.label_conflicts == 1


def test_a_satisfied_setter_is_still_a_call_that_can_be_required(imported):
    from smh_core.importers.homebench import _same_call

    out, tasks, _ = imported
    engine = prepare_engine(tasks["hb-home0_one_001"], HomeCache(out))
    assert _same_call(engine, "living_room_light", "turn_on", {"state": "on"}) == {}
    assert _same_call(engine, "living_room_light", "set_brightness", {"brightness": 57}) == {
        "brightness": 57
    }
    assert _same_call(engine, "living_room_light", "set_color", {"state": "on"}) is None
    assert _same_call(engine, "living_room_light", "teleport", {}) is None
