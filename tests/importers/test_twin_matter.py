"""The twin of a Matter home made with ``--matter`` (``smh_core.ha.twin_matter``): each device HA's
matter integration serves becomes the Matter device its node is, from the node as HA's Matter
diagnostics list it (built here by SMH's own bridge, the wire form HA reads), under its HA device
id, in its area, mapped onto all its entities. What does not fit one type for certain stays its
entities, with the reason; a broken diagnostics file names itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim_devices.catalog import instantiate
from sim_devices.matter_bridge.nodes import build_map, node_data
from smh_core.cli.main import main
from smh_core.ha.twin import Registries, twin_from
from smh_core.ha.twin_matter import MatterSourceError, matter_nodes_file, nodes_from_diagnostics
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home, Room

FABRIC = 0xC79F59DA
ROOMS = [Room(id="den", type="den", name="Den"), Room(id="bed", type="bed", name="Bedroom")]
AREAS = [{"area_id": "den", "name": "Den"}, {"area_id": "bed", "name": "Bedroom"}]


def _matter_home() -> Home:
    """What the bridge serves: a dimmable light on at level 127, two humidifiers, an AC."""
    return Home(
        name="bridge",
        rooms=ROOMS,
        devices=[
            instantiate(
                "dimmable_light",
                "3001",
                "den",
                "Dimmable Light 1",
                values={"1.OnOff.OnOff": True, "1.LevelControl.CurrentLevel": 127},
                kind="matter",
            ),
            instantiate("humidifier", "3002", "bed", "Humidifier 1", kind="matter"),
            instantiate("humidifier", "3003", "bed", "Air Helper", kind="matter"),
            instantiate("air_conditioner", "3004", "den", "Air Conditioner 1", kind="matter"),
        ],
    )


def _diagnostics(home: Home) -> dict[str, Any]:
    """HA's Matter diagnostics download for the bridge serving ``home``."""
    engine = HomeEngine(home)
    nodes = [node_data(engine, build_map(engine, d.did)) for d in home.devices]
    info = {"compressed_fabric_id": FABRIC}
    return {"home_assistant": {}, "data": {"server": {"info": info, "nodes": nodes}}}


def _ident(node: int, postfix: str) -> str:
    """HA's identifier of a Matter device: its node's, or (a number) a bridged endpoint's."""
    return f"deviceid_{FABRIC:016X}-{node:016X}-{postfix}"


def _ha_device(ha_id: str, node: int, name: str, model: str, area: str) -> dict[str, Any]:
    ident = _ident(node, "MatterNodeDevice")
    return {
        "id": ha_id,
        "name": name,
        "model": model,
        "area_id": area,
        "identifiers": [["matter", f"serial_SMH-{node}"], ["matter", ident]],
    }


DEVICES = [
    _ha_device("ha-light", 3001, "Den Dimmable Light 1", "Dimmable Light 1", "den"),
    _ha_device("ha-hum", 3002, "Bedroom Humidifier 1", "Humidifier 1", "bed"),
    _ha_device("ha-helper", 3003, "Bedroom Air Helper", "Air Helper", "bed"),
    _ha_device("ha-ac", 3004, "Den Air Conditioner 1", "Air Conditioner 1", "den"),
    {"id": "ha-plug", "name": "Kettle", "area_id": "den", "identifiers": [["zwave", "7"]]},
]
ENTITIES = [
    {"entity_id": "light.den_dimmable_light_1", "device_id": "ha-light", "platform": "matter"},
    {"entity_id": "button.den_dimmable_light_1_identify", "device_id": "ha-light",
     "platform": "matter", "entity_category": "config"},
    {"entity_id": "fan.bedroom_humidifier_1", "device_id": "ha-hum", "platform": "matter"},
    {"entity_id": "sensor.bedroom_humidifier_1_humidity", "device_id": "ha-hum",
     "platform": "matter"},
    {"entity_id": "fan.bedroom_air_helper", "device_id": "ha-helper", "platform": "matter"},
    {"entity_id": "climate.den_air_conditioner_1", "device_id": "ha-ac", "platform": "matter"},
    {"entity_id": "switch.kettle", "device_id": "ha-plug", "platform": "zwave_js"},
]  # fmt: skip
FAN = {"supported_features": 1, "percentage": 0, "preset_modes": ["low", "medium", "high"]}
STATES = [
    {"entity_id": "light.den_dimmable_light_1", "state": "on", "attributes": {
        "friendly_name": "Den Dimmable Light 1", "brightness": 127, "color_mode": "brightness",
        "supported_color_modes": ["brightness"]}},
    {"entity_id": "button.den_dimmable_light_1_identify", "state": "unknown", "attributes": {}},
    {"entity_id": "fan.bedroom_humidifier_1", "state": "off", "attributes": {
        "friendly_name": "Bedroom Humidifier 1", **FAN}},
    {"entity_id": "sensor.bedroom_humidifier_1_humidity", "state": "45.0", "attributes": {
        "friendly_name": "Bedroom Humidifier 1 Humidity", "device_class": "humidity",
        "unit_of_measurement": "%"}},
    {"entity_id": "fan.bedroom_air_helper", "state": "off", "attributes": {
        "friendly_name": "Bedroom Air Helper", **FAN}},
    {"entity_id": "climate.den_air_conditioner_1", "state": "off", "attributes": {
        "friendly_name": "Den Air Conditioner 1", "hvac_modes": ["off", "cool", "heat"],
        "current_temperature": 24.0, "temperature": 26.0, "min_temp": 16, "max_temp": 32,
        "supported_features": 385}},
    {"entity_id": "switch.kettle", "state": "off", "attributes": {"friendly_name": "Kettle"}},
]  # fmt: skip


def _registries(**changes: Any) -> Registries:
    base: dict[str, Any] = dict(
        floors=[],
        areas=AREAS,
        devices=DEVICES,
        entities=ENTITIES,
        states=STATES,
        matter=nodes_from_diagnostics(_diagnostics(_matter_home()), "download"),
    )
    return Registries(**{**base, **changes})


def test_each_node_a_fitting_type_fits_becomes_that_matter_device() -> None:
    twin = twin_from(_registries())
    devices = {d.did: d for d in twin.home.devices}
    # under their HA device ids; the helper (see below) and the Z-Wave plug stay entities
    assert sorted(devices) == [
        "fan.bedroom_air_helper",
        "ha-ac",
        "ha-hum",
        "ha-light",
        "switch.kettle",
    ]
    light = devices["ha-light"]
    assert (light.userdata.subcategory, light.name, light.userdata.room) == (
        "dimmable_light",
        "Den Dimmable Light 1",
        "den",
    )
    assert "matter" in light.userdata.tags and light.matter is not None
    values = {loc: a.value for loc, a in light.attributes_by_locator()}
    assert (values["1.OnOff.OnOff"], values["1.LevelControl.CurrentLevel"]) == (True, 127)
    # the node's name says humidifier: of the humidifier and dehumidifier it fits alike
    assert devices["ha-hum"].userdata.subcategory == "humidifier"
    assert devices["switch.kettle"].matter is None  # not a Matter device: one per entity
    # the light's entities are simulated by it; its config button is skipped as ever
    assert {"light.den_dimmable_light_1", "fan.bedroom_humidifier_1"} <= set(twin.report.imported)
    assert dict(twin.report.skipped)["button.den_dimmable_light_1_identify"].startswith("its state")
    approx = dict(twin.report.approximated)
    assert approx["Den Dimmable Light 1: ha-light"] == "a Matter dimmable light from its node"
    assert twin.summary().startswith(
        "6 of 7 entities simulated on 2 areas (3 Matter devices, each from its node's clusters)"
    )


def test_a_matter_device_maps_onto_all_its_entities() -> None:
    devices = {d.did: d for d in twin_from(_registries()).home.devices}
    light = devices["ha-light"].userdata.ha_mapping or {}
    assert {loc: e["entity"] for loc, e in light.items()} == {
        "1.OnOff.OnOff": "light.den_dimmable_light_1",
        "1.LevelControl.CurrentLevel": "light.den_dimmable_light_1",
    }
    humidifier = devices["ha-hum"].userdata.ha_mapping or {}
    assert humidifier["1.FanControl.PercentSetting"]["entity"] == "fan.bedroom_humidifier_1"
    assert (
        humidifier["1.RelativeHumidityMeasurement.MeasuredValue"]["entity"]
        == "sensor.bedroom_humidifier_1_humidity"
    )


def test_a_node_two_types_fit_alike_stays_its_entities_with_why() -> None:
    twin = twin_from(_registries())
    devices = {d.did: d for d in twin.home.devices}
    assert "ha-helper" not in devices and "fan.bedroom_air_helper" in devices
    assert devices["fan.bedroom_air_helper"].matter is None
    assert dict(twin.report.approximated)["Bedroom Air Helper: ha-helper"] == (
        "its entities twinned one by one: its node fits a dehumidifier or humidifier alike, "
        "and its name and model name neither"
    )


def test_without_the_nodes_every_entity_is_a_device_as_before() -> None:
    twin = twin_from(_registries(matter=None))
    assert all(d.matter is None for d in twin.home.devices)
    assert "light.den_dimmable_light_1" in {d.did for d in twin.home.devices}
    assert "Matter" not in twin.summary()


@pytest.mark.parametrize(
    ("device", "why"),
    [
        (
            {**DEVICES[0], "identifiers": [["matter", _ident(99, "MatterNodeDevice")]]},
            "its Matter node is not in HA's Matter diagnostics",
        ),
        (
            {**DEVICES[0], "identifiers": [["matter", _ident(3001, "2")]]},
            "a device behind a Matter bridge (endpoint 2): not yet twinned as a Matter device",
        ),
    ],
)  # fmt: skip
def test_a_node_not_known_for_certain_stays_its_entities(device: dict, why: str) -> None:
    twin = twin_from(_registries(devices=[device, *DEVICES[1:]]))
    assert "light.den_dimmable_light_1" in {d.did for d in twin.home.devices}
    assert dict(twin.report.approximated)["Den Dimmable Light 1: ha-light"] == (
        f"its entities twinned one by one: {why}"
    )


def test_a_value_of_the_wrong_kind_is_not_taken() -> None:
    doc = _diagnostics(_matter_home())
    light = doc["data"]["server"]["nodes"][0]
    light["attributes"]["1/8/0"] = "bright"  # CurrentLevel as text
    twin = twin_from(_registries(matter=nodes_from_diagnostics(doc, "download")))
    why = dict(twin.report.approximated)["Den Dimmable Light 1: ha-light"]
    assert why.startswith("its entities twinned one by one: its node's values do not fit a ")
    assert "1.LevelControl.CurrentLevel" in why


def test_in_a_fahrenheit_home_a_thermostat_stays_its_entities() -> None:
    twin = twin_from(_registries(temperature_unit="°F"))
    ids = {d.did for d in twin.home.devices}
    assert "ha-ac" not in ids and "ha-light" in ids
    assert (
        "HA shows its temperatures in °F"
        in dict(twin.report.approximated)["Den Air Conditioner 1: ha-ac"]
    )


def test_the_same_registries_give_the_same_bytes() -> None:
    assert dump_home(twin_from(_registries()).home) == dump_home(twin_from(_registries()).home)


def test_a_broken_diagnostics_file_names_itself(tmp_path: Path) -> None:
    path = tmp_path / "matter.json"
    with pytest.raises(MatterSourceError, match=r"matter.json: not found"):
        matter_nodes_file(path)
    path.write_text("{")
    with pytest.raises(MatterSourceError, match=r"matter.json: not readable as JSON"):
        matter_nodes_file(path)
    path.write_text(json.dumps({"data": {"server": {"nodes": []}}}))
    with pytest.raises(MatterSourceError, match=r"compressed_fabric_id"):
        matter_nodes_file(path)
    doc = _diagnostics(_matter_home())
    doc["data"]["server"]["nodes"][1] = {"node_id": 3002}
    path.write_text(json.dumps(doc))
    with pytest.raises(MatterSourceError, match=r"nodes\[1\]: expected node_id and attributes"):
        matter_nodes_file(path)
    doc["data"]["server"]["nodes"].pop(1)
    path.write_text(json.dumps(doc))
    assert len(matter_nodes_file(path).nodes) == 3


def test_offline_the_cli_reads_a_diagnostics_download(tmp_path: Path, capsys) -> None:
    storage = tmp_path / ".storage"
    storage.mkdir()
    for name, key, items in (
        ("core.area_registry", "areas", AREAS),
        ("core.device_registry", "devices", DEVICES),
        ("core.entity_registry", "entities", ENTITIES),
    ):
        (storage / name).write_text(json.dumps({"data": {key: items}}))
    (tmp_path / "states.json").write_text(json.dumps(STATES))
    (tmp_path / "matter.json").write_text(json.dumps(_diagnostics(_matter_home())))
    offline = ["--storage", str(storage), "--states", str(tmp_path / "states.json")]
    out = tmp_path / "twin.json"
    assert main(["home", "from-ha", *offline, "--matter", "--out", str(out)]) == 2
    assert "--matter needs --matter-diagnostics" in capsys.readouterr().err
    assert main(["home", "from-ha", *offline, "--matter-diagnostics", "x", "--out", str(out)]) == 2
    assert "--matter-diagnostics is read with --matter" in capsys.readouterr().err
    diagnostics = ["--matter", "--matter-diagnostics", str(tmp_path / "matter.json")]
    assert main(["home", "from-ha", *offline, *diagnostics, "--out", str(out)]) == 0
    assert "(3 Matter devices, each from its node's clusters)" in capsys.readouterr().out
    home = HomeEngine.from_file(out).home
    assert dump_home(home) == dump_home(twin_from(_registries()).home)
