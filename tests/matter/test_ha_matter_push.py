"""A washer started from Home Assistant runs its programme in the simulator; its completion reaches
HA's operational-state sensor by ``attribute_updated`` push, with no polling.

HA's matter integration exposes the washer as a power switch, a mode select and Start/Stop/Pause/
Resume buttons, so the whole start happens through HA services; only simulated time is advanced
engine-side (``Simulator.advance``), as ``smh matter-server``'s clock does.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
from homeassistant.core import HomeAssistant

from sim_devices.matter_bridge.server import MatterBridge
from smh_core.sim.simulator import Simulator

from .ha_setup import ha_matter, wait_for

WASHER = "3001"
STATE, PHASE, END = (
    "sensor.living_room_laundry_washer_operational_state",
    "sensor.living_room_laundry_washer_current_phase",
    "sensor.living_room_laundry_washer_estimated_end_time",
)
OPERATIONAL_STATE_PATH, COUNTDOWN_PATH = "1/96/4", "1/96/2"


async def _listen(url: str, events: list[list[Any]], ready: asyncio.Event) -> None:
    """A second, raw protocol client recording every ``attribute_updated`` event."""
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.receive_json()  # server info
        await ws.send_json({"message_id": "1", "command": "start_listening"})
        assert "result" in await ws.receive_json()
        ready.set()
        async for msg in ws:
            data = msg.json()
            if data.get("event") == "attribute_updated":
                events.append(data["data"])


def _state(hass: HomeAssistant, entity_id: str) -> str:
    state = hass.states.get(entity_id)
    assert state is not None, entity_id
    return state.state


async def test_washer_completion_is_pushed_to_ha(
    hass: HomeAssistant, washer_engine, socket_enabled
):
    engine = washer_engine
    sim = Simulator(engine)
    bridge = MatterBridge(engine, sim)
    reads: list[Any] = []
    read_attribute = bridge._handlers["read_attribute"]
    bridge._handlers["read_attribute"] = lambda args: reads.append(args) or read_attribute(args)
    events: list[list[Any]] = []
    ready = asyncio.Event()
    async with ha_matter(hass, bridge) as entry:
        url = entry.data["url"]
        listener = asyncio.create_task(_listen(url, events, ready))
        try:
            await asyncio.wait_for(ready.wait(), 5)
            assert _state(hass, STATE) == "stopped"

            # start it through HA: power on, choose Quick (15 min, SimuHome's: 112 + 450 + 225 + 113 s), press Start
            await hass.services.async_call(
                "switch",
                "turn_on",
                {"entity_id": "switch.living_room_laundry_washer_power"},
                blocking=True,
            )
            await hass.services.async_call(
                "select",
                "select_option",
                {"entity_id": "select.living_room_laundry_washer_mode", "option": "Quick"},
                blocking=True,
            )
            await hass.services.async_call(
                "button",
                "press",
                {"entity_id": "button.living_room_laundry_washer_start"},
                blocking=True,
            )
            status = engine.status(WASHER)
            assert status["1.OperationalState.OperationalState"] == 1
            assert status["1.LaundryWasherMode.CurrentMode"] == 4
            assert status["1.OperationalState.CountdownTime"] == 900
            assert await wait_for(hass, lambda: _state(hass, STATE) == "running")
            assert _state(hass, PHASE) == "pre-wash" and _state(hass, END) not in (
                "unknown",
                "unavailable",
            )

            sim.advance(300)  # into the wash phase
            assert await wait_for(hass, lambda: _state(hass, PHASE) == "wash")
            assert engine.status(WASHER)["1.OperationalState.CountdownTime"] == 600

            sim.advance(600)  # to the end of the programme
            assert [e.ref for e in sim.log if e.kind == "cycle_complete"] == [WASHER]
            assert engine.status(WASHER)["1.OperationalState.OperationalState"] == 0
            assert await wait_for(hass, lambda: _state(hass, STATE) == "stopped")
            assert _state(hass, PHASE) == "pre-wash"  # CurrentPhase back to 0

            node = bridge._by_did[WASHER].node_id
            assert await wait_for(hass, lambda: [node, OPERATIONAL_STATE_PATH, 0] in events)
            assert [node, OPERATIONAL_STATE_PATH, 1] in events
            assert [node, COUNTDOWN_PATH, 0] in events
            assert reads == []  # HA learnt everything from pushed events, never by reading
        finally:
            listener.cancel()  # an open socket would hold up the server's shutdown
            await asyncio.gather(listener, return_exceptions=True)
