"""Home Assistant's own ``matter`` integration against the bridge: discovery, control, push."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp.test_utils import TestServer
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from sim_devices.matter_bridge.server import MatterBridge


@pytest.fixture
async def bridge_url(light_engine, socket_enabled):
    bridge = MatterBridge(light_engine)
    server = TestServer(bridge.app(), host="127.0.0.1")
    await server.start_server()
    yield bridge, f"ws://127.0.0.1:{server.port}/ws"
    await server.close()
    bridge.close()


async def _setup(hass: HomeAssistant, url: str) -> MockConfigEntry:
    entry = MockConfigEntry(domain="matter", data={"url": url}, title="Matter")
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def test_ha_matter_discovers_and_controls_the_light(hass: HomeAssistant, bridge_url):
    bridge, url = bridge_url
    entry = await _setup(hass, url)
    entities = er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
    lights = [e.entity_id for e in entities if e.domain == "light"]
    assert len(lights) == 1
    state = hass.states.get(lights[0])
    assert state.state == "off"
    await hass.services.async_call("light", "turn_on", {"entity_id": lights[0], "brightness": 128},
                                   blocking=True)
    status = bridge.engine.status("1201")
    assert status["1.OnOff.OnOff"] is True and status["1.LevelControl.CurrentLevel"] in (127, 128)
    await hass.async_block_till_done()
    assert hass.states.get(lights[0]).state == "on"
    # simulator-side change shows up in HA
    bridge.engine.execute("1201", "1.OnOff.Off")
    for _ in range(20):
        await hass.async_block_till_done()
        if hass.states.get(lights[0]).state == "off":
            break
        await asyncio.sleep(0.05)
    assert hass.states.get(lights[0]).state == "off"
    await hass.config_entries.async_unload(entry.entry_id)
