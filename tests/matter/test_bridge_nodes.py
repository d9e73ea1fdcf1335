"""What the bridge adds to the catalog's clusters so that Matter clients discover the devices."""

from __future__ import annotations

from sim_devices.matter_bridge.nodes import build_map, node_data
from smh_core.homeenv.engine import HomeEngine

from .conftest import catalog_home


def _attributes(types: list[str]) -> list[dict]:
    engine = HomeEngine(catalog_home(types))
    return [node_data(engine, build_map(engine, did))["attributes"] for did in engine.device_ids()]


def test_operational_state_clusters_get_their_mandatory_lists():
    washer, vacuum = _attributes(["laundry_washer", "robot_vacuum"])
    assert washer["1/96/3"] == [{"0": 0}, {"0": 1}, {"0": 2}, {"0": 3}]  # OperationalStateList
    assert washer["1/96/5"] == {"0": 0}  # OperationalError: NoError
    assert {3, 4, 5} <= set(washer["1/96/65531"])  # in the AttributeList
    assert washer["1/96/65528"] == [4]  # OperationalCommandResponse
    assert [s["0"] for s in vacuum["1/97/3"]] == [
        0,
        1,
        2,
        3,
        64,
        65,
        66,
    ]  # Rvc states from the catalog
    assert vacuum["1/97/4"] == 66


def test_a_heat_pump_endpoint_is_also_a_thermostat_and_an_electrical_sensor():
    heat_pump, air_conditioner, electrical_sensor = _attributes(
        ["heat_pump", "air_conditioner", "electrical_sensor"]
    )
    assert [t["0"] for t in heat_pump["1/29/0"]] == [0x0309, 0x0301, 0x0510]
    assert [t["0"] for t in air_conditioner["1/29/0"]] == [0x0072]  # already a climate device type
    assert [t["0"] for t in electrical_sensor["1/29/0"]] == [0x0510]


def test_node_labels_are_unique_and_say_the_room():
    """Matter gives a controller no room; the node label (what HA's matter integration names the
    device after) carries it, unique in the home, while the product name stays the type's."""
    from smh_core.homes.simulated import generate_matter_home

    for seed in (0, 1, 2):
        engine = HomeEngine(generate_matter_home(seed))
        rooms = {r.id: r.name for r in engine.rooms()}
        labels = []
        for did in engine.device_ids():
            attributes = node_data(engine, build_map(engine, did))["attributes"]
            device = engine.device(did)
            assert attributes["0/40/3"] == device.name  # ProductName
            label = attributes["0/40/5"]  # NodeLabel
            assert label.startswith(rooms[device.userdata.room]) and label.endswith(device.name)
            labels.append(label)
        assert len(set(labels)) == len(labels)
