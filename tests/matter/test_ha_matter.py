"""Home Assistant's own ``matter`` integration against the bridge: discovery, control, push."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from sim_devices.matter_bridge.server import MatterBridge
from tests.matter.ha_setup import ha_matter, wait_for


async def test_ha_matter_discovers_and_controls_the_light(
    hass: HomeAssistant, light_engine, socket_enabled
):
    bridge = MatterBridge(light_engine)
    async with ha_matter(hass, bridge) as entry:
        entities = er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
        lights = [e.entity_id for e in entities if e.domain == "light"]
        assert len(lights) == 1
        state = hass.states.get(lights[0])
        assert state.state == "off"
        await hass.services.async_call(
            "light", "turn_on", {"entity_id": lights[0], "brightness": 128}, blocking=True
        )
        status = bridge.engine.status("1201")
        assert status["1.OnOff.OnOff"] is True and status["1.LevelControl.CurrentLevel"] in (
            127,
            128,
        )
        await hass.async_block_till_done()
        assert hass.states.get(lights[0]).state == "on"
        # simulator-side change shows up in HA
        bridge.engine.execute("1201", "1.OnOff.Off")
        assert await wait_for(hass, lambda: hass.states.get(lights[0]).state == "off", seconds=1.0)
