"""Tasks written for a twin are tasks its Home Assistant can run (issue 39): the twin records
how ``smh ha map --twin`` maps each device onto its entity (:mod:`smh_core.ha.twin_record`), and
``smh tasks generate`` asks the real runner's own checks of every draw
(:mod:`smh_core.ha.twin_runnable`). "Elm Street" has what no HA run can play: a thermostat's
room temperature (no HA service sets it), a speaker's title (no mapping rule carries it) and a
blind HA shows with no position; the rest of its tasks are written as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smh_core.cli.main import main
from smh_core.ha.ha_inventory import inventory_from
from smh_core.ha.twin import Registries, twin_from
from smh_core.ha.twin_map import high_risk, twin_mapping
from smh_core.ha.twin_probe import calibrated, learn
from smh_core.ha.twin_record import TwinRecordError, implied_mapping
from smh_core.ha.twin_runnable import NEVER_RUNS, NO_START, real_check
from smh_core.homeenv.engine import dump_home, load_home
from smh_core.homeenv.model import Home
from smh_core.suites.for_home import TwinUnchecked, generate_for_home, generate_sage
from smh_core.task.model import HomeRef, dump_task, load_tasks
from tests.test_twin_probe import DEMO

THERMOSTAT, SPEAKER, BLIND = (
    "climate.living_thermostat",
    "media_player.living_speaker",
    "cover.blind",
)
_CLIMATE = {
    "hvac_modes": ["off", "heat", "cool"],
    "current_temperature": 21,
    "temperature": 22,
    "min_temp": 7,
    "max_temp": 35,
    "supported_features": 385,
}
_ENTITIES = [
    (THERMOSTAT, "living", "heat", {"friendly_name": "Living Thermostat", **_CLIMATE}),
    (SPEAKER, "living", "playing", {"friendly_name": "Living Speaker", "volume_level": 0.3,
                                    "is_volume_muted": False, "media_title": "Morning news",
                                    "supported_features": 21389}),
    ("light.bedroom_lamp", "bedroom", "on", {"friendly_name": "Bedroom Lamp", "brightness": 200,
                                             "supported_color_modes": ["brightness"],
                                             "color_mode": "brightness"}),
    ("switch.kettle", "living", "off", {"friendly_name": "Kettle"}),
    (BLIND, "bedroom", "open", {"friendly_name": "Bedroom Blind", "supported_features": 3,
                                "device_class": "blind"}),
]  # fmt: skip
ROOM_TEMPERATURE = f"it watches {THERMOSTAT}/current_temperature ({THERMOSTAT}), which HA cannot"
TITLE = f"not mapped: {SPEAKER}/media_name"


def _regs(entities: list[tuple[str, str, str, dict]] = _ENTITIES) -> Registries:
    areas = [
        {"area_id": "living", "name": "Living Room", "floor_id": None},
        {"area_id": "bedroom", "name": "Bedroom", "floor_id": None},
    ]
    return Registries(
        floors=[],
        areas=areas,
        devices=[],
        entities=[{"entity_id": e, "area_id": a} for e, a, _, _ in entities],
        states=[{"entity_id": e, "state": s, "attributes": at} for e, _, s, at in entities],
        name="Elm Street",
    )


def _without_record(home: Home) -> Home:
    """The twin as ``smh home from-ha`` wrote it before it recorded its HA."""
    plain = home.model_copy(deep=True)
    for device in plain.devices:
        device.userdata.ha_mapping = None
    return plain


def test_the_twin_records_the_mapping_smh_ha_map_twin_makes_and_keeps_it(tmp_path: Path) -> None:
    regs = _regs()
    twin = twin_from(regs).home
    inventory = inventory_from(regs.areas, regs.devices, regs.entities, regs.states)
    risky = [d.did for d in twin.devices if high_risk(d)]
    assert THERMOSTAT in risky  # recorded all the same: opting it in is the user's choice
    wanted = twin_mapping(twin, HomeRef(file="homes/twin.json"), inventory, risky).mapping()
    # through the file (JSON keeps a map's keys as text: the per-value calls must survive)
    (tmp_path / "twin.json").write_text(dump_home(twin), encoding="utf-8")
    loaded = load_home(tmp_path / "twin.json")
    implied = implied_mapping(loaded)
    assert implied is not None and implied.devices == wanted.devices
    record = {d.did: d.userdata.ha_mapping for d in loaded.devices}
    assert record[THERMOSTAT]["current_temperature"] == {  # shown, never set
        "entity": THERMOSTAT,
        "attribute": "current_temperature",
    }
    assert "media_name" not in record[SPEAKER] and "volume_level" in record[SPEAKER]
    assert record[BLIND] == {}  # HA shows it open or closed, with no position: nothing binds
    # the probe changes how a setting moves, not where it lives: the record stays
    probed = calibrated(loaded, [learn(SPEAKER, "volume_level", 0, DEMO)])
    assert probed.devices != loaded.devices
    assert implied_mapping(probed) == implied


def test_what_its_ha_could_never_run_is_drawn_again_and_the_report_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twin = twin_from(_regs()).home
    (tmp_path / "twin.json").write_text(dump_home(twin), encoding="utf-8")
    out = tmp_path / "tasks"
    argv = ["tasks", "generate", "--home", str(tmp_path / "twin.json"), "--out", str(out)]
    assert main([*argv, "--suite", "smh", "--suite", "sage", "--per-subcategory", "2"]) == 0
    # before, the same draws wrote tasks a real run could only skip
    before = generate_for_home(_without_record(twin), tmp_path / "before", "twin", 0, 2)
    check = real_check(twin)
    assert check is not None
    never = {t.id: why for t in before.tasks if (why := check(t))}
    assert any(ROOM_TEMPERATURE in why for why in never.values()), never
    assert any(TITLE in why for why in never.values()), never
    after = load_tasks([out / "twin.smh.jsonl"])
    assert [t.id for t in after if check(t)] == []
    # the rest are the same tasks, byte for byte; a row no draw fits is left out, with why
    written = {t.id: dump_task(t) for t in after}
    kept = [t for t in before.tasks if t.id not in never]
    assert kept and all(written[t.id] == dump_task(t) for t in kept)
    blind = f"2 x its Home Assistant could never run it (not mapped: {BLIND}/position)"
    assert {t.id for t in before.tasks} - set(written) == {
        f"twin-state_level-00{i}" for i in (0, 1)
    }
    report = (out / "twin.smh.md").read_text(encoding="utf-8")
    assert f"| ambiguous_intent | state_level | 0 | {blind} |" in report
    assert "- a twin of a Home Assistant home: a draw that HA could never run" in report
    assert "- state_driven: draws its HA could never run, drawn again: " in report
    assert ROOM_TEMPERATURE in report and TITLE in report
    # nor any for SAGE's "darken the entire house" (it would close the blind)
    sage = (out / "twin.sage.md").read_text(encoding="utf-8")
    assert f"| intent_resolution+command_chaining | 0 | {blind} |" in sage
    assert blind in capsys.readouterr().out


def test_a_twin_is_refused_without_its_check_or_with_a_record_that_does_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twin = twin_from(_regs()).home
    with pytest.raises(TwinUnchecked, match="twin of Elm Street is a twin of a Home Assistant"):
        generate_for_home(twin, tmp_path / "a", "twin", 0, 1)
    bad = twin.model_copy(deep=True)
    lamp = next(d for d in bad.devices if d.did == "light.bedroom_lamp")
    lamp.userdata.ha_mapping = {"brightness": {"entity": "light.bedroom_lamp", "scale": "x"}}
    with pytest.raises(TwinRecordError, match=r"light.bedroom_lamp: ha_mapping.brightness .*scale"):
        real_check(bad)
    (tmp_path / "bad.json").write_text(dump_home(bad), encoding="utf-8")
    argv = ["tasks", "generate", "--home", str(tmp_path / "bad.json"), "--out", str(tmp_path)]
    assert main(argv) == 2
    assert "light.bedroom_lamp: ha_mapping.brightness" in capsys.readouterr().err
    assert not (tmp_path / "bad.smh.jsonl").exists()


def test_a_device_of_a_twin_that_records_nothing_maps_nothing(tmp_path: Path) -> None:
    twin = twin_from(_regs()).home
    lamp = next(d for d in twin.devices if d.did == "light.bedroom_lamp")
    lamp.userdata.ha_mapping = None  # a device added to the twin by hand
    made = generate_for_home(twin, tmp_path, "twin", 0, 2, real=real_check(twin))
    assert made.tasks
    touched = json.dumps([t.model_dump(mode="json") for t in made.tasks])
    assert "light.bedroom_lamp" not in touched


GATE = "cover.gate"
_GATE = (GATE, "bedroom", "closed", {"friendly_name": "Gate", "current_position": 0,
                                     "supported_features": 3, "device_class": "gate"})  # fmt: skip
"""A gate HA opens and closes (OPEN | CLOSE) and shows at 0 or 100, but cannot send to a
position (synthetic-home's ``cover.gate``): its position reads, and no call sets it."""


def test_a_start_state_no_call_of_its_ha_sets_is_drawn_again(tmp_path: Path) -> None:
    """SAGE's "darken the house" starts with every cover open: on this twin, with the gate
    closed and no call to open it to a position, HA's run could only stop at "initial state not
    reached" (as it did on home-assistant-datasets' amalfi-coast-villa-it)."""
    entities = [e for e in _ENTITIES if e[0] != BLIND] + [_GATE]
    twin = twin_from(_regs(entities)).home
    check = real_check(twin)
    assert check is not None
    assert check.mapping.get(GATE, "position") is not None  # it reads: the runner's own checks pass
    before = generate_sage(_without_record(twin), tmp_path / "before", "twin", 0, 2)
    opened = [t for t in before.tasks for o in t.overrides if o.did == GATE and o.values]
    assert opened and all(o.values.get("position") == 100 for t in opened for o in t.overrides
                          if o.did == GATE)  # fmt: skip
    for task in opened:
        assert check(task) == f"{NEVER_RUNS} ({NO_START}: {GATE}/position to 100)", task.id
    after = generate_sage(twin, tmp_path / "after", "twin", 0, 2, real=check)
    assert not [t.id for t in after.tasks for o in t.overrides if o.did == GATE and o.values]
    # a start the gate is in (closed) needs no call: such a task is still written
    closed = opened[0].model_copy(update={"overrides": []})
    assert check(closed) is None
