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
from smh_core.bench.runner import run_task
from smh_core.cli.main import main
from smh_core.homeenv.engine import HomeEngine
from smh_core.importers.ha_datasets import import_ha_datasets
from smh_core.importers.ha_entities import map_state
from smh_core.task.home import HomeCache
from smh_core.task.model import load_tasks

SOURCE = Path(__file__).parents[1] / "fixtures" / "ha_datasets"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("imported")
    tasks, report = import_ha_datasets(SOURCE, out)
    return out, tasks, report


def test_every_supported_test_sentence_becomes_a_task(imported):
    out, tasks, report = imported
    assert (
        [t.id for t in tasks]
        == report.imported
        == [t.id for t in load_tasks([out / "ha_datasets.jsonl"])]
    )
    assert (
        len(tasks) == 17 and report.items == 18
    )  # every sentence but a question that expects nothing
    by_id = {t.id: t for t in tasks}
    dim = by_id["had-datasets-assist-mini-flat-lights-lights-00-0"]
    assert dim.turns[0].text == "Dim the lounge lamp to 40 percent"
    assert (
        dim.goal.critic == "device('light.lounge_lamp').state == on and brightness == 102"
    )  # HA's 0-255, as is


def _more(tasks, n):
    return next(t for t in tasks if t.id == f"had-datasets-assist-mini-house-more-more-{n}")


def test_every_device_kind_the_source_uses_is_imported(imported):
    _, tasks, _ = imported
    assert _more(tasks, "00-0").goal.critic == "device('cover.garage_door_opener').state == open"
    assert _more(tasks, "01-0").goal.critic == "device('valve.irrigation').position > 0"
    assert _more(tasks, "02-0").goal.critic == "device('vacuum.rover').state == returning"
    assert _more(tasks, "03-0").goal.critic == "device('todo.shopping').open_items == 1"
    assert [(a.locator, a.arguments) for a in _more(tasks, "03-0").reference.actions] == [
        ("add_item", {"item": "milk"})
    ]
    assert (
        _more(tasks, "04-0").goal.critic == "device('media_player.kitchen_speaker').state == paused"
    )
    assert (
        _more(tasks, "06-0").goal.critic == "device('light.strip').color == \"#FF0000\""
    )  # rgb_color [255, 0, 0]


def test_a_request_that_should_be_asked_about_is_a_no_change_task(imported):
    """ "Set the volume to 20%" with two speakers playing expects no change: doing nothing passes,
    setting either speaker's volume fails."""
    _, tasks, _ = imported
    goal = _more(tasks, "05-0").goal
    assert goal.no_change and [(d.did, d.locator) for d in goal.decoys] == [
        ("media_player.kitchen_speaker", "set_volume"),
        ("media_player.porch_speaker", "set_volume"),
    ]


def test_devices_support_exactly_the_entitys_features(imported):
    out, _, _ = imported
    engine = HomeEngine.from_file(out / "homes" / "had-datasets-assist-mini-house-more.json")
    services = {
        d.did: sorted(loc for loc, _ in d.services_by_locator()) for d in engine.home.devices
    }
    assert services["vacuum.rover"] == [
        "return_to_base",
        "start",
    ]  # no PAUSE, STOP or FAN_SPEED feature
    assert services["media_player.kitchen_speaker"] == ["pause", "play", "set_volume"]
    assert services["todo.shopping"] == ["add_item"]
    assert services["cover.garage_door_opener"] == ["close", "open"]
    assert engine.execute("vacuum.rover", "pause", {}).error.code == "service_not_found"
    # the strip is set up in rgb mode in a test: it shows colours, undimmed (HA's onoff and rgb)
    assert sorted(engine.spec("light.strip")["attributes"]) == ["brightness", "color", "state"]
    # HA's class as the fixture states it, and none where it states none (the valve is no water valve)
    classes = {d.did: d.userdata.device_class for d in engine.home.devices}
    assert (
        classes["media_player.kitchen_speaker"] == "speaker"
        and classes["cover.garage_door_opener"] == "garage"
    )
    assert classes["valve.irrigation"] == "" and classes["media_player.porch_speaker"] == ""


def test_skips_and_approximations_carry_their_reasons(imported):
    _, _, report = imported
    skipped = dict(report.skipped)
    assert (
        skipped["datasets/assist-mini/house-more: weather.forecast_home"]
        == "no catalog type acts like HA's weather entities"
    )
    assert (
        "datasets/assist-mini/house-more: sensor.kitchen_temperature" not in skipped
    )  # a stand-in
    assert skipped["datasets/assist-mini/house-more/automation.yaml"].startswith(
        "cannot read automation.yaml (could not determine a constructor for the tag '!include_text')"
    )
    assert (
        "nothing to check" in skipped["datasets/assist-mini/flat-lights/lights test 2 sentence 0"]
    )
    approximated = dict(report.approximated)
    assert (
        "datasets/assist-mini/house-mixed: light.hall_light" not in approximated
    )  # no area is kept as no room
    assert (
        approximated["datasets/assist-mini/house-mixed/fan-and-media test 1 sentence 0"]
        == "percentage 50 compared as speed level medium"
    )
    md = (imported[0] / "ha_datasets.import.md").read_text()
    assert "| no catalog type acts like HA's weather entities | 1 |" in md
    assert (
        json.loads((imported[0] / "ha_datasets.import.json").read_text())["imported"]
        == report.imported
    )


def test_homes_keep_the_fixture_names_areas_and_entity_ids(imported):
    out, _, _ = imported
    engine = HomeEngine.from_file(out / "homes" / "had-datasets-assist-mini-house-mixed.json")
    home = engine.home
    assert {d.userdata.did for d in home.devices} == {
        "lock.front_door",
        "cover.garage_door",
        "fan.ceiling_fan",
        "light.hall_light",
        "media_player.bedroom_speaker",
    }
    rooms = {r.id: r.name for r in home.rooms}
    assert rooms == {"hallway": "Hallway", "garage": "Garage", "bedroom": "Bedroom"}
    assert (
        engine.device("light.hall_light").userdata.room is None
    )  # no area in the fixture: no room
    assert engine.value("lock.front_door", "state") == "locked"
    assert {d.userdata.did: d.name for d in home.devices}["cover.garage_door"] == "Garage Door"
    # what the fixture does not state, its synthetic-home entity does not report (issue 35)
    fan = engine.device("fan.ceiling_fan").userdata.unstated
    assert "speed_level" not in fan and "state" not in fan  # stated: percentage 0, its state
    speaker = engine.device("media_player.bedroom_speaker").userdata.unstated
    assert "volume_muted_enabled" in speaker and "state" not in speaker


async def test_oracle_passes_and_doing_nothing_fails_every_imported_task(imported):
    out, tasks, _ = imported
    cache = HomeCache(out)
    for task in tasks:
        assert (await run_task(task, OracleAgent(), cache))["passed"], task.id
        assert (await run_task(task, NullAgent(), cache))["passed"] == task.goal.no_change, task.id


@pytest.mark.parametrize(
    ("domain", "state", "attrs", "values"),
    [
        (
            "light",
            True,
            {"brightness": 255, "color_mode": "brightness"},
            {"state": "on", "brightness": 255},
        ),  # YAML on
        (
            "light",
            "off",
            {"brightness": 0, "supported_features": 0},
            {"state": "off", "brightness": 0},
        ),
        (
            "light",
            None,
            {"brightness": 100},
            {"state": "on", "brightness": 100},
        ),  # the source's lights: on when lit
        ("lock", "unlocked", {"device_class": "lock"}, {"state": "unlocked"}),
        ("cover", "open", {"current_position": 30}, {"position": 30}),
        (
            "fan",
            "off",
            {},
            {"state": "off", "speed_level": "high"},
        ),  # turned on, the source goes to 100 %
        (
            "fan",
            "on",
            {"percentage": 20, "oscillating": True},
            {"state": "on", "speed_level": "low", "oscillation_enabled": True},
        ),
        ("light", "on", {"hs_color": [0, 100]}, {"state": "on", "color": "#FF0000"}),
        ("light", "on", {"rgbw_color": [0, 255, 0, 0]}, {"state": "on", "color": "#00FF00"}),
        (
            "media_player",
            "on",
            {"volume_level": 0.35, "media_track": 3},
            {"state": "idle", "volume_level": 35, "media_track": 3},
        ),
        (
            "vacuum",
            "off",
            {"supported_features": ["vacuum.VacuumEntityFeature.START"]},
            {"state": "docked"},
        ),
        ("valve", "open", {}, {"position": 100}),
        (
            "todo",
            "2",
            {"todo_items": [{"summary": "milk", "status": "needs_action"}]},
            {"items": [{"summary": "milk", "status": "needs_action"}], "open_items": 1},
        ),
    ],
)
def test_states_map_onto_catalog_attributes(domain, state, attrs, values):
    assert map_state(domain, state, attrs).values == values


def test_an_expectation_the_setup_already_meets_becomes_a_no_change_task(tmp_path):
    folder = tmp_path / "src" / "two-locks"
    folder.mkdir(parents=True)
    (folder / "_fixtures.yaml").write_text(
        "areas: [{name: Hall, id: hall}]\ndevices: []\nentities:\n"
        "  - {name: Front Lock, id: lock.front, area: hall, state: unlocked}\n"
        "  - {name: Back Lock, id: lock.back, area: hall, state: unlocked}\n"
    )
    (folder / "locks.yaml").write_text(
        "category: lock\ntests:\n  - sentences: [Lock the lock]\n"  # ambiguous: should ask, lock neither
        "    setup: {lock.front: {state: unlocked}, lock.back: {state: unlocked}}\n"
        "    expect_changes: {lock.front: {state: unlocked}, lock.back: {state: unlocked}}\n"
    )
    [task], report = import_ha_datasets(tmp_path / "src", tmp_path / "out")
    assert task.goal.no_change and [d.locator for d in task.goal.decoys] == ["lock", "lock"]
    assert "no_change" in dict(report.approximated)["two-locks/locks test 0 sentence 0"]


def test_cli_writes_the_suite_and_names_a_missing_source(tmp_path, capsys):
    assert (
        main(
            ["tasks", "import", "--from", "ha-datasets", str(SOURCE), "--out", str(tmp_path / "o")]
        )
        == 0
    )
    assert "17 tasks imported of 18 source items" in capsys.readouterr().out
    # in a child process: asyncio.run in this one would leave the test session without a loop
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "bench",
            "run",
            "--tasks",
            str(tmp_path / "o" / "ha_datasets.jsonl"),
            "--agent",
            "oracle",
            "--out",
            str(tmp_path / "run"),
            "--quiet",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and "17 of 17 scored passed" in run.stdout, run.stderr
    assert (
        main(
            [
                "tasks",
                "import",
                "--from",
                "ha-datasets",
                str(tmp_path / "nowhere"),
                "--out",
                str(tmp_path / "o2"),
            ]
        )
        == 2
    )
    assert "nowhere" in capsys.readouterr().err
