"""Device faults on the bridge, seen through python-matter-server's own ``MatterClient`` (what HA
runs): an unavailable node, lost, late and altered reports; the ``--fault`` syntax; the devices'
own trace of their state; MultiSpeed for percentage fans."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from chip.clusters import Objects as Clusters
from matter_server.client import MatterClient
from matter_server.common.errors import NodeNotReady

from sim_devices.matter_bridge.faults import DeviceFault, parse_fault
from sim_devices.matter_bridge.server import MatterBridge
from sim_devices.matter_bridge.trace import DeviceTrace, disagreements, state_at
from smh_core.homeenv.engine import HomeEngine

from .conftest import catalog_home, matter_client

LAMP = "1201"


@pytest.fixture
def expected_lingering_timers() -> bool:
    return True  # the Matter client's heartbeat timer (see test_bridge_client.py)


ON_OFF = Clusters.OnOff.Attributes.OnOff


def _on(client: MatterClient) -> bool:
    return client.get_node(int(LAMP)).get_attribute_value(1, Clusters.OnOff, ON_OFF)


async def test_an_unavailable_node_refuses_commands_and_comes_back_whole(served):
    bridge, client = served
    bridge.set_fault(LAMP, DeviceFault(unavailable=True))
    await asyncio.sleep(0.1)
    assert client.get_node(int(LAMP)).available is False  # node_updated reached the client
    with pytest.raises(NodeNotReady, match="unavailable"):
        await client.send_device_command(int(LAMP), 1, Clusters.OnOff.Commands.On())
    assert bridge.engine.status(LAMP)["1.OnOff.OnOff"] is False
    bridge.engine.execute(LAMP, "1.OnOff.On")  # changed while unreachable (by hand at the device)
    await asyncio.sleep(0.1)
    assert _on(client) is False  # nothing reported meanwhile
    bridge.set_fault(LAMP, DeviceFault())
    await asyncio.sleep(0.1)
    assert (
        client.get_node(int(LAMP)).available is True and _on(client) is True
    )  # its whole state again


async def test_lost_and_altered_reports(served):
    bridge, client = served
    bridge.set_fault(LAMP, DeviceFault(drop=True))
    await client.send_device_command(int(LAMP), 1, Clusters.OnOff.Commands.On())
    await asyncio.sleep(0.1)
    assert (
        bridge.engine.status(LAMP)["1.OnOff.OnOff"] is True and _on(client) is False
    )  # it did, nobody heard
    bridge.set_fault(
        LAMP, DeviceFault(alter={"1.OnOff.OnOff": False, "1.LevelControl.CurrentLevel": 7})
    )
    await asyncio.sleep(0.1)
    assert _on(client) is False  # reports the altered value
    assert await client.read_attribute(int(LAMP), "1/8/0") == {"1/8/0": 7}
    await client.send_device_command(
        int(LAMP), 1, Clusters.LevelControl.Commands.MoveToLevelWithOnOff(level=200)
    )
    await asyncio.sleep(0.1)
    assert bridge.engine.status(LAMP)["1.LevelControl.CurrentLevel"] == 200
    assert (
        client.get_node(int(LAMP)).get_attribute_value(
            1, Clusters.LevelControl, Clusters.LevelControl.Attributes.CurrentLevel
        )
        == 7
    )


async def test_a_slow_node_answers_late_without_holding_up_others(served):
    bridge, client = served
    bridge.set_fault(LAMP, DeviceFault(delay=0.5))
    started = time.monotonic()
    command = asyncio.create_task(
        client.send_device_command(int(LAMP), 1, Clusters.OnOff.Commands.On())
    )
    info = await client.send_command("server_info")  # answered meanwhile
    assert info["schema_version"] == 11 and time.monotonic() - started < 0.4
    await command
    assert time.monotonic() - started >= 0.5
    assert _on(client) is False  # the report is late too
    await asyncio.sleep(0.6)
    assert _on(client) is True


async def test_faults_can_be_set_over_the_protocol(served):
    bridge, client = served
    result = await client.send_command("smh_set_fault", did=LAMP, drop=True)
    assert result["drop"] is True and bridge.faults[LAMP].drop
    with pytest.raises(Exception, match="not served by this bridge"):
        await client.send_command("smh_set_fault", did="9999", drop=True)
    with pytest.raises(Exception, match="delay"):
        await client.send_command("smh_set_fault", did=LAMP, delay=-1)


@pytest.mark.parametrize(
    ("spec", "did", "fault"),
    [
        ("2004:unavailable", "2004", DeviceFault(unavailable=True)),
        ("2004:delay=2.5", "2004", DeviceFault(delay=2.5)),
        (
            "2004:drop,alter=1.OnOff.OnOff=false",
            "2004",
            DeviceFault(drop=True, alter={"1.OnOff.OnOff": False}),
        ),
    ],
)
def test_fault_specs(spec, did, fault):
    assert parse_fault(spec) == (did, fault)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("2004", "expected DID:unavailable"),
        ("2004:slow", "unknown fault 'slow'"),
        ("2004:delay=soon", "delay must be a number"),
        ("2004:alter=1.OnOff.OnOff=maybe", "must be JSON"),
    ],
)
def test_bad_fault_specs_say_what_is_expected(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_fault(spec)


def test_the_trace_replays_the_devices_state(light_engine, tmp_path):
    path = tmp_path / "trace.jsonl"
    trace = DeviceTrace(light_engine, path)
    before = time.time()
    time.sleep(0.01)
    light_engine.execute(LAMP, "1.LevelControl.MoveToLevelWithOnOff", {"level": 150})
    after = time.time()
    trace.close()
    assert state_at(path, before)[LAMP]["1.OnOff.OnOff"] is False
    assert state_at(path, after)[LAMP]["1.LevelControl.CurrentLevel"] == 150
    record = {
        "task_id": "t",
        "read_at": after,
        "final_state": {LAMP: {"1.OnOff.OnOff": True, "1.LevelControl.CurrentLevel": 140}},
    }
    assert disagreements(path, [record]) == {
        "t": {f"{LAMP}/1.LevelControl.CurrentLevel": (140, 150)}
    }
    assert (
        json.loads(path.read_text().splitlines()[0])["state"][LAMP]["1.LevelControl.CurrentLevel"]
        == 100
    )


async def test_percentage_fans_are_served_with_multispeed(socket_enabled):
    """SpeedMax 100 and the speeds mirroring the percentages; writing a speed writes the percentage."""
    engine = HomeEngine(catalog_home(["fan"]))
    bridge = MatterBridge(engine)
    engine.execute("3001", "1.OnOff.On")
    async with matter_client(bridge) as client:
        fan = Clusters.FanControl
        node = client.get_node(3001)
        assert (
            node.get_attribute_value(1, fan, fan.Attributes.FeatureMap)
            & fan.Bitmaps.Feature.kMultiSpeed
        )
        assert node.get_attribute_value(1, fan, fan.Attributes.SpeedMax) == 100
        await client.write_attribute(3001, "1/514/5", 40)  # SpeedSetting
        await asyncio.sleep(0.1)
        assert engine.status("3001")["1.FanControl.PercentSetting"] == 40
        assert client.get_node(3001).get_attribute_value(1, fan, fan.Attributes.SpeedSetting) == 40
