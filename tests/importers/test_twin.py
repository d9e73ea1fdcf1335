"""The twin of an HA home as a pure function of its registries (``smh_core.ha.twin``): the same
home read live (websocket listings) or offline (a ``.storage`` copy and a states dump) gives the
same bytes, in any input order; what cannot be simulated is listed with its reason; a broken
file names itself."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from smh_core.ha.twin import Registries, TwinSourceError, registries_from_storage, twin_from
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.importers.ha_entities import FEATURE_BITS, REMOVED_FEATURES, named_features

FLOORS = [
    {"floor_id": "up", "name": "Upstairs", "level": 1},
    {"floor_id": "ground", "name": "Ground", "level": None},
]
AREAS = [
    {"area_id": "den", "name": "Den", "floor_id": "ground", "aliases": ["TV room", " "]},
    {"area_id": "bed", "name": "Bedroom", "floor_id": "up", "aliases": []},
]
DEVICES = [{"id": "dev1", "area_id": "den", "name": "Hue bridge"}]
ENTITIES = [
    {"entity_id": "light.reading", "device_id": "dev1", "area_id": None, "aliases": ["Lamp"],
     "options": {"conversation": {"should_expose": True}}},
    {"entity_id": "lock.front", "area_id": "bed", "aliases": [],
     "options": {"conversation": {"should_expose": False}}},
    {"entity_id": "climate.hall", "area_id": "den"},
    {"entity_id": "switch.old", "disabled_by": "user"},
    {"entity_id": "switch.firmware", "entity_category": "config"},
    {"entity_id": "cover.gone"},
]  # fmt: skip
STATES = [
    {"entity_id": "light.reading", "state": "on", "attributes": {
        "friendly_name": "Reading light", "brightness": 128, "supported_color_modes": ["brightness"],
        "color_mode": "brightness", "supported_features": 40}},
    {"entity_id": "lock.front", "state": "locked", "attributes": {"friendly_name": "Front door", "supported_features": 1}},
    {"entity_id": "climate.hall", "state": "heat", "attributes": {}},
    {"entity_id": "switch.firmware", "state": "on", "attributes": {}},
    {"entity_id": "fan.yaml_fan", "state": "unavailable", "attributes": {}},
    {"entity_id": "switch.yaml_plug", "state": "off", "attributes": {"friendly_name": "Kettle plug"}},
]  # fmt: skip


def _registries(**changes) -> Registries:
    base = dict(
        floors=FLOORS,
        areas=AREAS,
        devices=DEVICES,
        entities=ENTITIES,
        states=STATES,
        exposed={"light.reading": True, "lock.front": False},
        name="Maple Street",
    )
    return Registries(**{**base, **changes})


def test_the_twin_keeps_layout_names_aliases_and_exposure() -> None:
    twin = twin_from(_registries())
    home = twin.home
    assert home.name == "twin of Maple Street"
    rooms = {r.id: r for r in home.rooms}
    assert (rooms["den"].name, rooms["den"].aliases) == ("Den", ["TV room"])
    # a floor without a level gets one after the highest
    assert (rooms["den"].floor, rooms["den"].floor_name) == (2, "Ground")
    assert (rooms["bed"].floor, rooms["bed"].aliases) == (1, None)
    devices = {d.did: d for d in home.devices}
    assert sorted(devices) == ["climate.hall", "light.reading", "lock.front", "switch.yaml_plug"]
    assert devices["climate.hall"].userdata.subcategory == "split_ac"
    light = devices["light.reading"].userdata
    assert (light.room, light.aliases, light.exposed) == ("den", ["Lamp"], True)  # device's area
    assert devices["lock.front"].userdata.exposed is False
    assert devices["switch.yaml_plug"].userdata.exposed is None  # not said: HA's default
    assert devices["switch.yaml_plug"].name == "Kettle plug"
    # HA renames only what its registry has: a YAML entity (no unique id) keeps its name
    assert light.renamable is True and devices["switch.yaml_plug"].userdata.renamable is False
    skipped = dict(twin.report.skipped)
    assert skipped == {
        "switch.old": "disabled in Home Assistant (by user)",
        "switch.firmware": "a config entity, not a device people ask for",
        "cover.gone": "has no state in Home Assistant",
        "fan.yaml_fan": "its state is unavailable in Home Assistant: nothing to start the twin from",
    }
    assert twin.summary().startswith("4 of 8 entities simulated on 2 areas")
    # the light's FLASH (8) and TRANSITION (32) are named as not simulated
    assert (
        "light.reading",
        "features not simulated: FLASH, TRANSITION",
    ) in twin.report.approximated


def test_climate_in_a_fahrenheit_home_is_listed_not_guessed() -> None:
    twin = twin_from(_registries(temperature_unit="°F"))
    assert "climate.hall" not in {d.did for d in twin.home.devices}
    assert dict(twin.report.skipped)["climate.hall"].startswith("a climate entity in °F")


def test_same_registries_in_any_order_give_the_same_bytes() -> None:
    first = dump_home(twin_from(_registries()).home)
    rng = random.Random(7)
    for _ in range(3):
        shuffled = {
            k: rng.sample(v, len(v)) for k, v in
            {"floors": FLOORS, "areas": AREAS, "entities": ENTITIES, "states": STATES}.items()
        }  # fmt: skip
        assert dump_home(twin_from(_registries(**shuffled)).home) == first


def _storage(tmp_path: Path) -> tuple[Path, Path]:
    storage = tmp_path / ".storage"
    storage.mkdir()

    def write(name: str, key: str, items: list) -> None:
        doc = {"version": 1, "key": name, "data": {key: items}}
        (storage / name).write_text(json.dumps(doc))

    write("core.floor_registry", "floors", FLOORS)
    write(
        "core.area_registry",
        "areas",
        [{**{k: v for k, v in a.items() if k != "area_id"}, "id": a["area_id"]} for a in AREAS],
    )
    write("core.device_registry", "devices", DEVICES)
    write("core.entity_registry", "entities", ENTITIES)
    (storage / "core.config").write_text(json.dumps({"data": {"location_name": "Maple Street"}}))
    states = tmp_path / "states.json"
    states.write_text(json.dumps(STATES))
    return storage, states  # fmt: skip


def test_offline_storage_gives_the_live_twin(tmp_path: Path) -> None:
    storage, states = _storage(tmp_path)
    offline = twin_from(registries_from_storage(storage, states))
    assert dump_home(offline.home) == dump_home(twin_from(_registries()).home)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("core.entity_registry", "{not json", "core.entity_registry: not readable as JSON"),
        ("core.area_registry", '{"data": {"areas": {}}}', "expected data.areas to be a list"),
        ("states.json", '{"light.x": "on"}', "expected a list of states with entity_id"),
    ],
)
def test_a_broken_file_names_itself_and_nothing_is_written(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    storage, states = _storage(tmp_path)
    (states if name == "states.json" else storage / name).write_text(text)
    with pytest.raises(TwinSourceError, match=message):
        registries_from_storage(storage, states)


def test_a_listed_item_without_its_id_is_refused_with_where() -> None:
    with pytest.raises(TwinSourceError, match=r"areas\[1\]: no area_id"):
        twin_from(_registries(areas=[AREAS[0], {"name": "Attic"}]))


def test_the_feature_table_is_home_assistants() -> None:
    """``FEATURE_BITS`` against HA's own enums (a renumbering in HA fails here), on the oldest
    and the newest HA alike: a flag HA removed is checked gone, its bit unused."""
    from awesomeversion import AwesomeVersion
    from homeassistant.components.climate import ClimateEntityFeature
    from homeassistant.components.cover import CoverEntityFeature
    from homeassistant.components.fan import FanEntityFeature
    from homeassistant.components.light import LightEntityFeature
    from homeassistant.components.lock import LockEntityFeature
    from homeassistant.components.media_player import MediaPlayerEntityFeature
    from homeassistant.components.todo import TodoListEntityFeature
    from homeassistant.components.vacuum import VacuumEntityFeature
    from homeassistant.components.valve import ValveEntityFeature
    from homeassistant.const import __version__ as HA_VERSION

    enums = {
        "cover": CoverEntityFeature,
        "valve": ValveEntityFeature,
        "fan": FanEntityFeature,
        "media_player": MediaPlayerEntityFeature,
        "vacuum": VacuumEntityFeature,
        "light": LightEntityFeature,
        "climate": ClimateEntityFeature,
        "lock": LockEntityFeature,
        "todo": TodoListEntityFeature,
    }
    running = AwesomeVersion(HA_VERSION)
    for domain, enum in enums.items():
        for name, bit in FEATURE_BITS[domain].items():
            removed_in = REMOVED_FEATURES.get((domain, name))
            if removed_in is not None and running >= AwesomeVersion(removed_in):
                # gone from this HA: its bit is not reused by another flag
                assert name not in enum.__members__, (domain, name, HA_VERSION)
                assert all(f.value != bit for f in enum), (domain, name, HA_VERSION)
            else:
                assert enum[name].value == bit, (domain, name, HA_VERSION)
    assert named_features("cover", {"supported_features": 5})["supported_features"] == [
        "OPEN",
        "SET_POSITION",
    ]
    # names stay names; a domain without a table keeps its integer
    assert named_features("cover", {"supported_features": ["OPEN"]}) == {
        "supported_features": ["OPEN"]
    }
    assert named_features("humidifier", {"supported_features": 1}) == {"supported_features": 1}


# ------------------------------------------------------------ twin and real, side by side
def _run(tmp_path: Path, name: str, records: list[dict], skipped: dict | None = None) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    if skipped is not None:
        (folder / "skipped_tasks.json").write_text(json.dumps(skipped))
    return folder


def _rec(task_id: str, changes: list[tuple], final: dict | None = None, **more) -> dict:
    return {
        "task_id": task_id,
        "passed": True,
        "changes": [
            {"did": d, "locator": loc, "before": b, "after": a} for d, loc, b, a in changes
        ],
        **({"final_state": final} if final is not None else {}),
        **more,
    }


def test_each_kind_of_difference_is_named_and_only_observed_values_count(tmp_path: Path) -> None:
    from smh_core.ha.twin_compare import compare_runs

    twin = _run(tmp_path, "twin", [
        _rec("t1", [("light.a", "state", "off", "on"), ("light.a", "brightness", 10, 200)]),
        _rec("t2", [("fan.f", "state", "off", "on"), ("light.b", "color", "#FFFFFF", "#FF0000")]),
        _rec("t3", [("cover.c", "position", 0, 50)]),
        _rec("t4", [("light.a", "state", "off", "on")]),
        _rec("t5", [("light.a", "state", "off", "on")]),
    ])  # fmt: skip
    real = _run(tmp_path, "real", [
        _rec("t1", [("light.a", "brightness", 10, 199)], {"light.a": {"state": "off", "brightness": 199}}),
        _rec("t2", [("fan.f", "state", "off", "on"), ("fan.f", "speed_level", "low", "medium")],
             {"fan.f": {"state": "on", "speed_level": "medium"}}),  # colour: not mapped
        _rec("t3", [("cover.c", "position", 0, 80)], {"cover.c": {"position": 80}},
             latency={"reports_s": 7.5}),
        {"task_id": "t4", "passed": False, "infra": {"kind": "device", "message":
         "the commanded state did not come back: light.a/state is 'off', want 'on'"}},
    ], skipped={"t5": "needs simulated time"})  # fmt: skip
    side = compare_runs(twin, real)
    kinds = {(d.task_id, d.did, d.locator, d.kind) for d in side.differences}
    assert kinds == {
        ("t1", "light.a", "state", "ignored"),
        ("t1", "light.a", "brightness", "rounded"),
        ("t2", "fan.f", "speed_level", "extra"),
        ("t3", "cover.c", "position", "different"),
        ("t3", "cover.c", "", "slow"),
        ("t4", "light.a", "state", "ignored"),
    }
    assert [t for t, _, _ in side.both] == ["t1", "t2", "t3"]
    assert side.only_twin["t5"] == "not run on the real home: needs simulated time"
    assert side.only_twin["t4"].startswith("not scored: the commanded state did not come back")
    text = side.markdown()
    assert "| light.a | 2 | 1 | 0 | 0 | 0 |" in text
    assert "cover.c: took 7.5 s to report the commanded state" in text


def test_a_count_still_at_its_value_before_the_turn_is_ignored_not_rounded(tmp_path: Path) -> None:
    """A to-do list that kept the item it was told to remove still counts it: one above what the
    twin counts, which is the call ignored, not a value rounded; one that moved elsewhere but
    close stays rounded."""
    from smh_core.ha.twin_compare import compare_runs

    twin = _run(tmp_path, "twin", [
        _rec("t1", [("todo.s", "items", [{"summary": "jam", "status": "needs_action"}], []),
                    ("todo.s", "open_items", 1, 0)]),
        _rec("t2", [("cover.c", "position", 0, 50)]),
    ])  # fmt: skip
    real = _run(tmp_path, "real", [
        {"task_id": "t1", "passed": False, "infra": {"kind": "device", "message":
         "the commanded state did not come back: todo.s/items is [{'summary': 'jam', 'status': "
         "'needs_action'}], want []; todo.s/open_items is 1, want 0"}},
        {"task_id": "t2", "passed": False, "infra": {"kind": "device", "message":
         "the commanded state did not come back: cover.c/position is 49, want 50"}},
    ])  # fmt: skip
    kinds = {(d.did, d.locator, d.kind) for d in compare_runs(twin, real).differences}
    assert kinds == {
        ("todo.s", "items", "ignored"),
        ("todo.s", "open_items", "ignored"),
        ("cover.c", "position", "rounded"),
    }


def test_only_the_device_that_reported_late_is_slow(tmp_path: Path) -> None:
    """A task's poll waits for its slowest device; the light that reported at once is not
    flagged with the cover that took 7 s (the demo's multi-device tasks flagged every light)."""
    from smh_core.ha.twin_compare import compare_runs

    changes = [("cover.c", "position", 0, 80), ("light.a", "state", "off", "on")]
    final = {"cover.c": {"position": 80}, "light.a": {"state": "on"}}
    twin = _run(tmp_path, "twin", [_rec("t1", changes)])
    by_device = {"reports_s": 7.1, "reports_s_by_device": {"cover.c": 7.1, "light.a": 0.2}}
    real = _run(tmp_path, "real", [_rec("t1", changes, final, latency=by_device)])
    slow = {(d.did, d.real) for d in compare_runs(twin, real).differences if d.kind == "slow"}
    assert slow == {("cover.c", 7.1)}
    # a run from before devices were timed apart: the task's time, for every device
    old = _run(tmp_path, "old", [_rec("t1", changes, final, latency={"reports_s": 7.1})])
    assert {d.did for d in compare_runs(twin, old).differences if d.kind == "slow"} == {
        "cover.c",
        "light.a",
    }


def test_a_calibrated_device_is_slow_only_beyond_its_measured_speed(tmp_path: Path) -> None:
    """A window ``smh home probe`` measured at 10 %/s needs 8 s for 0 -> 80: 7.1 s is its normal
    pace, not a difference; 25 s is slower than its calibration and is flagged, with both."""
    from sim_devices.catalog import instantiate
    from smh_core.ha.twin_compare import compare_runs
    from smh_core.homeenv.model import Home

    window = instantiate("curtain", did="cover.c", room=None, name="Window")
    changes = [("cover.c", "position", 0, 80)]
    final = {"cover.c": {"position": 80}}
    twin = _run(tmp_path, "twin", [_rec("t1", changes)])
    real = _run(tmp_path, "real", [_rec("t1", changes, final, latency={"reports_s": 7.1})])
    late = _run(tmp_path, "late", [_rec("t1", changes, final, latency={"reports_s": 25.0})])
    assert [
        d.kind for d in compare_runs(twin, real, Home(rooms=[], devices=[window])).differences
    ] == ["slow"]
    window.userdata.travel = {"position": 10.0}
    home = Home(rooms=[], devices=[window])
    assert compare_runs(twin, real, home).differences == []
    (slow,) = compare_runs(twin, late, home).differences
    assert (slow.kind, slow.twin, slow.real) == ("slow", 8.0, 25.0)
    assert (
        "took 25.0 s to report the commanded state (its measured speed: 8.0 s)" in slow.describe()
    )


def test_values_the_twin_never_knew_are_not_compared(tmp_path: Path) -> None:
    from sim_devices.catalog import instantiate
    from smh_core.ha.twin_compare import compare_runs
    from smh_core.homeenv.model import Home

    light = instantiate("color_light", did="light.a", room=None, name="Lamp")
    light.userdata.unstated = ["color_temperature"]
    twin = _run(tmp_path, "twin", [_rec("t1", [("light.a", "state", "off", "on")])])
    real = _run(tmp_path, "real", [_rec(
        "t1", [("light.a", "state", "off", "on"), ("light.a", "color_temperature", 4000, 2700)],
        {"light.a": {"state": "on", "color_temperature": 2700}})])  # fmt: skip
    assert len(compare_runs(twin, real).differences) == 1
    assert compare_runs(twin, real, Home(rooms=[], devices=[light])).differences == []
    # a value the real device showed before the turn and then changed by itself is compared
    shown = _run(tmp_path, "shown", [_rec(
        "t1", [("light.a", "state", "off", "on"), ("light.a", "color_temperature", 4000, 2700)],
        {"light.a": {"state": "on", "color_temperature": 2700}},
        initial_state={"light.a": {"state": "off", "color_temperature": 4000}})])  # fmt: skip
    (extra,) = compare_runs(twin, shown, Home(rooms=[], devices=[light])).differences
    assert (extra.locator, extra.kind) == ("color_temperature", "extra")


def test_a_broken_results_line_names_file_and_line(tmp_path: Path) -> None:
    from smh_core.ha.twin_compare import compare_runs

    twin = _run(tmp_path, "twin", [_rec("t1", [])])
    real = _run(tmp_path, "real", [_rec("t1", [])])
    (real / "results.jsonl").write_text('{"task_id": "t1"}\n{oops\n')
    with pytest.raises(ValueError, match=r"results.jsonl:2: not a JSON record"):
        compare_runs(twin, real)


def test_high_risk_devices_are_left_out_unless_named() -> None:
    from sim_devices.catalog import instantiate
    from smh_core.ha.ha_inventory import inventory_from
    from smh_core.ha.twin_map import twin_mapping
    from smh_core.homeenv.model import Home
    from smh_core.task.model import HomeRef

    home = Home(rooms=[], devices=[
        instantiate("smart_lock", did="lock.front", room=None, name="Front door"),
        instantiate("light", did="light.hall", room=None, name="Hall light"),
    ])  # fmt: skip
    states = [
        {"entity_id": "lock.front", "state": "locked", "attributes": {"friendly_name": "Front door"}},
        {"entity_id": "light.hall", "state": "on", "attributes": {
            "friendly_name": "Hall light", "brightness": 100, "supported_color_modes": ["brightness"]}},
    ]  # fmt: skip
    inventory = inventory_from([], [], [], states)  # no registry entries: YAML entities
    ref = HomeRef(file="homes/twin.json")
    proposal = twin_mapping(home, ref, inventory)
    assert proposal.skipped == ["lock.front"]
    assert set(proposal.mapping().devices) == {"light.hall"}
    assert "unlocking a door is high-risk" in proposal.notes[0]
    allowed = twin_mapping(home, ref, inventory, ["lock.front"])
    assert allowed.skipped == [] and "lock.front" in allowed.mapping().devices
    with pytest.raises(ValueError, match="light.hall: not a high-risk device"):
        twin_mapping(home, ref, inventory, ["light.hall"])


def test_a_media_player_counting_tracks_from_zero_is_simulated() -> None:
    """synthetic-home's players report ``media_track: 0`` on their first track (they count from
    0); the catalog's tracks start at 1, which lost the whole player from the twin. The twin
    keeps the player, at track 0, and its next track is 1, as the real player's is."""

    player = {"entity_id": "media_player.nest_hub", "state": "playing", "attributes": {
        "friendly_name": "Nest Hub", "media_track": 0, "volume_level": 0.5,
        "supported_features": 16384 | 1 | 4 | 32 | 16}}  # fmt: skip
    twin = twin_from(_registries(entities=[], states=[player]))
    assert [d.did for d in twin.home.devices] == ["media_player.nest_hub"]
    assert not twin.report.skipped
    engine = HomeEngine(twin.home)
    assert engine.value("media_player.nest_hub", "media_track") == 0
    assert engine.execute("media_player.nest_hub", "next_track").ok
    assert engine.value("media_player.nest_hub", "media_track") == 1
    # a player on track 3 keeps the catalog's tracks from 1
    player["attributes"]["media_track"] = 3
    device = twin_from(_registries(entities=[], states=[player])).home.devices[0]
    track = next(a for a in device.attributes if a.name == "media_track")
    assert track.range[0] == 1


def test_a_climate_mode_change_turns_the_twin_on_as_in_home_assistant() -> None:
    """An HA climate entity's HVAC mode is its state: setting a mode on an off thermostat turns
    it on (synthetic-home's, and any HA climate, through ``climate.set_hvac_mode``). The twin's
    air conditioner did not, and differed from every real thermostat opted in to real runs."""

    thermostat = {"entity_id": "climate.hall", "state": "off", "attributes": {
        "friendly_name": "Thermostat", "hvac_modes": ["off", "cool", "heat", "auto"],
        "temperature": 22, "current_temperature": 22, "supported_features": 1 | 128 | 256}}  # fmt: skip
    engine = HomeEngine(twin_from(_registries(entities=[], states=[thermostat])).home)
    assert engine.value("climate.hall", "state") == "off"
    assert engine.execute("climate.hall", "set_ac_mode", {"ac_mode": "auto"}).ok
    assert (engine.value("climate.hall", "state"), engine.value("climate.hall", "ac_mode")) == (
        "on",
        "auto",
    )
    # the catalog's own air conditioner keeps its power apart (the change is the twin's only)
    from sim_devices.catalog import instantiate
    from smh_core.homeenv.model import Home

    ac = HomeEngine(
        Home(rooms=[], devices=[instantiate("split_ac", did="ac", room=None, name="AC")])
    )
    assert ac.execute("ac", "set_ac_mode", {"ac_mode": "auto"}).ok
    assert ac.value("ac", "state") == "off"


def test_a_home_where_nothing_maps_writes_no_mapping() -> None:
    """A twin whose only device maps onto nothing (its entity gone from HA since the twin was
    made) gave a file with ``devices:`` and nothing under it, which the runner's own loader
    refused; now nothing is written and the error says why."""
    from sim_devices.catalog import instantiate
    from smh_core.ha.ha_inventory import inventory_from
    from smh_core.ha.map_propose import render
    from smh_core.ha.twin_map import twin_mapping
    from smh_core.homeenv.model import Home
    from smh_core.task.model import HomeRef

    home = Home(rooms=[], devices=[
        instantiate("todo_list", did="todo.personal", room=None, name="Personal Tasks"),
    ])  # fmt: skip
    states = [{"entity_id": "todo.renamed", "state": "0", "attributes": {
        "friendly_name": "Personal Tasks", "supported_features": 1 | 2}}]  # fmt: skip
    proposal = twin_mapping(
        home, HomeRef(file="homes/twin.json"), inventory_from([], [], [], states)
    )
    with pytest.raises(
        ValueError, match=r"no device of the home .* maps onto an entity .*todo\.personal"
    ):
        render(proposal)


def test_a_heater_that_only_heats_and_a_frozen_thermostat_are_simulated() -> None:
    """Two climate entities of home-assistant-datasets' inventories the twin lost: an off pool
    heater offering only ``heat`` (the catalog's air conditioner starts in ``cool``, outside
    its narrowed modes) and a thermostat reading -17.2 °C (outside the catalog's -10 to 50)."""
    heater = {"entity_id": "climate.pool_heater", "state": "off", "attributes": {
        "friendly_name": "Pool heater", "hvac_modes": ["off", "heat"], "temperature": 28,
        "current_temperature": 24, "supported_features": 1 | 128 | 256}}  # fmt: skip
    frozen = {"entity_id": "climate.office", "state": "heat", "attributes": {
        "friendly_name": "Office", "hvac_modes": ["off", "heat"], "temperature": 20,
        "current_temperature": -17.2, "supported_features": 1 | 128 | 256}}  # fmt: skip
    twin = twin_from(_registries(entities=[], states=[heater, frozen]))
    assert not twin.report.skipped
    devices = {d.did: d for d in twin.home.devices}
    pool = devices["climate.pool_heater"]
    assert {a.name: a.value for a in pool.attributes}["ac_mode"] == "heat"
    assert "ac_mode" in pool.userdata.unstated  # HA did not say: the twin does not know it
    office = {a.name: a for a in devices["climate.office"].attributes}
    assert office["current_temperature"].value == -17.2
    assert office["current_temperature"].range[0] <= -17.2


def test_a_thermostat_in_tenths_of_a_degree_is_simulated_in_tenths() -> None:
    """A real thermostat reads 21.3 °C and is set to 20.3 °C; the catalog's air conditioner
    keeps half degrees, so its twin refused the entity. The twin keeps tenths for it, and the
    catalog's grid for one on half degrees."""

    tenths = {"entity_id": "climate.office", "state": "heat", "attributes": {
        "friendly_name": "Office", "hvac_modes": ["off", "heat"], "temperature": 20.3,
        "current_temperature": 21.3, "supported_features": 1 | 128 | 256}}  # fmt: skip
    halves = {"entity_id": "climate.hall", "state": "heat", "attributes": {
        "friendly_name": "Hall", "hvac_modes": ["off", "heat"], "temperature": 20.5,
        "current_temperature": 21, "supported_features": 1 | 128 | 256}}  # fmt: skip
    twin = twin_from(_registries(entities=[], states=[tenths, halves]))
    assert not twin.report.skipped
    engine = HomeEngine(twin.home)
    assert engine.value("climate.office", "target_temperature") == 20.3
    assert engine.execute(
        "climate.office", "set_target_temperature", {"target_temperature": 22.7}
    ).ok
    assert not engine.execute(
        "climate.hall", "set_target_temperature", {"target_temperature": 22.7}
    ).ok


@pytest.mark.parametrize(
    ("modes", "ha_auto"),
    [
        (["off", "heat", "cool", "heat_cool"], "heat_cool"),  # most real thermostats
        (["off", "heat", "cool", "auto"], "auto"),
        (["off", "heat_cool", "cool", "auto"], "auto"),  # HA's demo Ecobee: auto is HA's auto
    ],
)
def test_the_twin_s_automatic_mode_is_the_one_ha_offers(modes: list[str], ha_auto: str) -> None:
    """The import names HA's ``heat_cool`` the catalog's ``auto`` (it has one automatic mode);
    the mapping must set and read it as ``heat_cool`` where HA offers no ``auto``, or HA refuses
    every task that asks for it (and reads ``heat_cool`` as no mode the twin has)."""
    from smh_core.ha.ha_inventory import inventory_from
    from smh_core.ha.twin_map import twin_mapping
    from smh_core.task.model import HomeRef

    thermostat = {"entity_id": "climate.hall", "state": "cool", "attributes": {
        "friendly_name": "Thermostat", "hvac_modes": modes,
        "temperature": 22, "current_temperature": 22, "supported_features": 1 | 128 | 256}}  # fmt: skip
    home = twin_from(_registries(entities=[], states=[thermostat])).home
    ref = HomeRef(file="homes/twin.json")
    mapping = twin_mapping(home, ref, inventory_from([], [], [], [thermostat]), ["climate.hall"])
    mode = mapping.mapping().get("climate.hall", "ac_mode")
    assert mode is not None
    assert mode.calls("auto") == [
        ("climate", "set_hvac_mode", {"entity_id": "climate.hall", "hvac_mode": ha_auto})
    ]
    assert mode.calls("cool")[0][2]["hvac_mode"] == "cool"
    assert mode.to_home(mode.raw({**thermostat, "state": ha_auto}), "cool") == "auto"


def test_a_thermostat_offering_auto_and_heat_cool_names_both() -> None:
    """HA's demo Ecobee offers ``auto`` and ``heat_cool``; its twin has both (``heat_cool`` an
    alias of the catalog's ``auto``, :mod:`smh_core.homeenv.narrowing`), so a task can set it,
    the mapping sets and reads it as HA's own mode, and a real device that lands in it (HA's
    ``climate.turn_on``) is named, not read as no mode the twin has."""
    from smh_core.ha.ha_inventory import inventory_from
    from smh_core.ha.twin_map import twin_mapping
    from smh_core.task.model import HomeRef

    thermostat = {"entity_id": "climate.ecobee", "state": "heat_cool", "attributes": {
        "friendly_name": "Ecobee", "hvac_modes": ["off", "heat_cool", "cool", "auto", "dry", "fan_only"],
        "temperature": 22, "current_temperature": 22, "supported_features": 1 | 128 | 256}}  # fmt: skip
    home = twin_from(_registries(entities=[], states=[thermostat])).home
    engine = HomeEngine(home)
    assert engine.value("climate.ecobee", "ac_mode") == "heat_cool"  # as HA shows it
    options = next(a for a in engine.device("climate.ecobee").attributes if a.name == "ac_mode")
    assert options.options == ["heat_cool", "cool", "auto", "dry", "fan_only"]
    for mode in ("auto", "heat_cool", "cool"):
        assert engine.execute("climate.ecobee", "set_ac_mode", {"ac_mode": mode}).ok, mode
    assert not engine.execute("climate.ecobee", "set_ac_mode", {"ac_mode": "heat"}).ok
    ref = HomeRef(file="homes/twin.json")
    inventory = inventory_from([], [], [], [thermostat])
    mode = (
        twin_mapping(home, ref, inventory, ["climate.ecobee"])
        .mapping()
        .get("climate.ecobee", "ac_mode")
    )
    assert mode is not None
    for name in ("auto", "heat_cool"):
        assert mode.calls(name)[0][2]["hvac_mode"] == name
        assert mode.to_home(mode.raw({**thermostat, "state": name}), "cool") == name
    # one of them alone is still the catalog's auto (test above): nothing changes for them
    alone = {**thermostat, "attributes": {**thermostat["attributes"], "hvac_modes": ["off", "heat_cool", "cool"]}}  # fmt: skip
    assert (
        HomeEngine(twin_from(_registries(entities=[], states=[alone])).home).value(
            "climate.ecobee", "ac_mode"
        )
        == "auto"
    )


def test_a_climate_its_device_s_power_switch_gates_is_left_out_even_opted_in() -> None:
    """HA's matter integration shows a room air conditioner as a climate entity plus a
    ``power`` switch on the same HA device (its OnOff cluster): while that switch is off the
    climate shows off and HA refuses its turn_on, mode and setpoint calls (measured on the
    Matter bridge home: HTTP 500, "turn the air conditioner on first"), and switching the power
    on turns the climate on. The twin holds the two as two devices that know nothing of each
    other, so a run could not compare the climate soundly: it is left out of real runs even
    when the user opts it in, with why, and its power switch still runs (the --matter twin
    holds both as one Matter device)."""
    from smh_core.ha.ha_inventory import inventory_from
    from smh_core.ha.twin_map import twin_mapping
    from smh_core.task.model import HomeRef

    ac = {"entity_id": "climate.den_ac", "state": "off", "attributes": {
        "friendly_name": "Den AC", "hvac_modes": ["off", "heat", "cool"],
        "temperature": 20, "current_temperature": 26, "supported_features": 1 | 128 | 256}}  # fmt: skip
    power = {"entity_id": "switch.den_ac_power", "state": "off", "attributes": {
        "friendly_name": "Den AC Power", "device_class": "switch"}}  # fmt: skip
    entities = [
        {"entity_id": "climate.den_ac", "device_id": "dev1", "platform": "matter"},
        {"entity_id": "switch.den_ac_power", "device_id": "dev1", "platform": "matter",
         "translation_key": "power"},
    ]  # fmt: skip
    registries = _registries(entities=entities, states=[ac, power])
    home = twin_from(registries).home
    inventory = inventory_from([], DEVICES, entities, [ac, power])
    ref = HomeRef(file="homes/twin.json")
    proposal = twin_mapping(home, ref, inventory, ["climate.den_ac"])
    assert proposal.skipped == ["climate.den_ac"]
    assert set(proposal.mapping().devices) == {"switch.den_ac_power"}
    (note,) = proposal.notes
    assert note.startswith("climate.den_ac: left out of real runs: ")
    assert "switch.den_ac_power" in note and "--matter" in note
    # the same climate on a device without a power switch runs once opted in
    alone = inventory_from([], DEVICES, entities[:1], [ac])
    home_alone = twin_from(_registries(entities=entities[:1], states=[ac])).home
    assert twin_mapping(home_alone, ref, alone, ["climate.den_ac"]).skipped == []


def test_a_white_only_light_on_is_twinned_without_the_colours_ha_derives() -> None:
    """HA reports ``hs_color``, ``rgb_color`` and ``xy_color`` for a light in ``color_temp``
    mode, converted from its white: a white-only light that was on was left out of its twin
    ("unknown attribute 'color'"; 42 lights of the large generated home through SMH's own
    integration). Its twin is a colour-temperature light at its temperature; a colour light's
    colour is still read."""
    white = {"entity_id": "light.desk", "state": "on", "attributes": {
        "friendly_name": "Desk", "supported_color_modes": ["color_temp"], "color_mode": "color_temp",
        "brightness": 100, "color_temp_kelvin": 3000, "color_temp": 333,
        "min_color_temp_kelvin": 2000, "max_color_temp_kelvin": 6500, "hs_color": [27.8, 56.8],
        "rgb_color": [255, 177, 110], "xy_color": [0.5, 0.39], "supported_features": 0}}  # fmt: skip
    colour = {"entity_id": "light.strip", "state": "on", "attributes": {
        "friendly_name": "Strip", "supported_color_modes": ["hs"], "color_mode": "hs",
        "brightness": 100, "hs_color": [240.0, 100.0], "rgb_color": [0, 0, 255],
        "xy_color": [0.136, 0.04], "supported_features": 0}}  # fmt: skip
    twin = twin_from(_registries(entities=[], states=[white, colour]))
    assert twin.report.skipped == [] and twin.report.approximated == []
    engine = HomeEngine(twin.home)
    assert engine.device("light.desk").userdata.subcategory == "color_temperature_light"
    assert engine.status("light.desk") == {
        "state": "on",
        "brightness": 100,
        "color_temperature": 3000,
    }
    assert engine.value("light.strip", "color") == "#0000FF"
