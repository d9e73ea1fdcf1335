"""`smh tasks import --from ha-datasets`: fixtures written here in home-assistant-datasets'
assist format (none of the dataset ships) become validated homes and tasks, with a report of
what was imported, approximated and skipped."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.importers.ha_datasets import import_ha_datasets, map_state
from smh_core.bench.runner import HomeCache, run_task
from smh_core.bench.task import load_tasks
from smh_core.cli.main import main
from smh_core.homeenv.engine import HomeEngine

SOURCE = Path(__file__).parent / "fixtures" / "ha_datasets"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("imported")
    tasks, report = import_ha_datasets(SOURCE, out)
    return out, tasks, report


def test_every_supported_test_sentence_becomes_a_task(imported):
    out, tasks, report = imported
    assert [t.id for t in tasks] == report.imported == [t.id for t in load_tasks([out / "ha_datasets.jsonl"])]
    assert len(tasks) == 8  # 2 + 1 light sentences, 2 door tests, 2 fan tests, the hall light
    by_id = {t.id: t for t in tasks}
    dim = by_id["had-datasets-assist-mini-flat-lights-lights-00-0"]
    assert dim.turns[0].text == "Dim the lounge lamp to 40 percent"
    assert dim.goal.critic == "device('light.lounge_lamp').state == on and brightness == 102"  # HA's 0-255, as is


def test_skips_and_approximations_carry_their_reasons(imported):
    _, _, report = imported
    skipped = dict(report.skipped)
    assert skipped["datasets/assist-mini/house-mixed: media_player.bedroom_speaker"] == \
        "no catalog type acts like HA's media_player entities"
    assert "needs media_player.bedroom_speaker" in skipped["datasets/assist-mini/house-mixed/fan-and-media test 2 sentence 0"]
    assert "no expected change" in skipped["datasets/assist-mini/flat-lights/lights test 2 sentence 0"]
    approximated = dict(report.approximated)
    assert "datasets/assist-mini/house-mixed: light.hall_light" not in approximated  # no area is kept as no room
    assert approximated["datasets/assist-mini/house-mixed/fan-and-media test 1 sentence 0"] == \
        "percentage 50 compared as speed level medium"
    md = (imported[0] / "ha_datasets.import.md").read_text()
    assert "| no catalog type acts like HA's media_player entities | 1 |" in md
    assert json.loads((imported[0] / "ha_datasets.import.json").read_text())["imported"] == report.imported


def test_homes_keep_the_fixture_names_areas_and_entity_ids(imported):
    out, _, _ = imported
    engine = HomeEngine.from_file(out / "homes" / "had-datasets-assist-mini-house-mixed.json")
    home = engine.home
    assert {d.userdata.did for d in home.devices} == {"lock.front_door", "cover.garage_door", "fan.ceiling_fan",
                                                      "light.hall_light"}
    rooms = {r.id: r.name for r in home.rooms}
    assert rooms == {"hallway": "Hallway", "garage": "Garage", "bedroom": "Bedroom"}
    assert engine.device("light.hall_light").userdata.room is None  # no area in the fixture: no room
    assert engine.value("lock.front_door", "state") == "locked"
    assert {d.userdata.did: d.name for d in home.devices}["cover.garage_door"] == "Garage Door"


async def test_oracle_passes_and_doing_nothing_fails_every_imported_task(imported):
    out, tasks, _ = imported
    cache = HomeCache(out)
    for task in tasks:
        assert (await run_task(task, OracleAgent(), cache))["passed"], task.id
        assert not (await run_task(task, NullAgent(), cache))["passed"], task.id


@pytest.mark.parametrize(("domain", "state", "attrs", "values"), [
    ("light", True, {"brightness": 255, "color_mode": "brightness"}, {"state": "on", "brightness": 255}),  # YAML on
    ("light", "off", {"brightness": 0, "supported_features": 0}, {"state": "off", "brightness": 0}),
    ("light", None, {"brightness": 100}, {"state": "on", "brightness": 100}),  # the source's lights: on when lit
    ("lock", "unlocked", {"device_class": "lock"}, {"state": "unlocked"}),
    ("cover", "open", {"current_position": 30}, {"position": 30}),
    ("fan", "off", {}, {"state": "off", "speed_level": "high"}),  # turned on, the source goes to 100 %
    ("fan", "on", {"percentage": 20, "oscillating": True}, {"state": "on", "speed_level": "low",
                                                             "oscillation_enabled": True}),
])
def test_states_map_onto_catalog_attributes(domain, state, attrs, values):
    assert map_state(domain, state, attrs).values == values


def test_an_expectation_the_setup_already_meets_becomes_a_no_change_task(tmp_path):
    folder = tmp_path / "src" / "two-locks"
    folder.mkdir(parents=True)
    (folder / "_fixtures.yaml").write_text(
        "areas: [{name: Hall, id: hall}]\ndevices: []\nentities:\n"
        "  - {name: Front Lock, id: lock.front, area: hall, state: unlocked}\n"
        "  - {name: Back Lock, id: lock.back, area: hall, state: unlocked}\n")
    (folder / "locks.yaml").write_text(
        "category: lock\ntests:\n  - sentences: [Lock the lock]\n"  # ambiguous: should ask, lock neither
        "    setup: {lock.front: {state: unlocked}, lock.back: {state: unlocked}}\n"
        "    expect_changes: {lock.front: {state: unlocked}, lock.back: {state: unlocked}}\n")
    [task], report = import_ha_datasets(tmp_path / "src", tmp_path / "out")
    assert task.goal.no_change and [d.locator for d in task.goal.decoys] == ["lock", "lock"]
    assert "no_change" in dict(report.approximated)["two-locks/locks test 0 sentence 0"]


def test_cli_writes_the_suite_and_names_a_missing_source(tmp_path, capsys):
    assert main(["tasks", "import", "--from", "ha-datasets", str(SOURCE), "--out", str(tmp_path / "o")]) == 0
    assert "8 tasks imported" in capsys.readouterr().out
    # in a child process: asyncio.run in this one would leave the test session without a loop
    run = subprocess.run([sys.executable, "-m", "smh_core.cli.main", "bench", "run", "--tasks",
                          str(tmp_path / "o" / "ha_datasets.jsonl"), "--agent", "oracle", "--out",
                          str(tmp_path / "run"), "--quiet"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "8 of 8 scored passed" in run.stdout, run.stderr
    assert main(["tasks", "import", "--from", "ha-datasets", str(tmp_path / "nowhere"), "--out",
                 str(tmp_path / "o2")]) == 2
    assert "nowhere" in capsys.readouterr().err
