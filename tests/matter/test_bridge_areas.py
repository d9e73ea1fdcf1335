"""Matter carries no room, so HA's matter integration puts the bridge's devices in no area;
``assign_areas`` moves each into its room's area through HA's websocket API (creating areas
that are missing), and a second run moves nothing."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.setup import async_setup_component

from sim_devices.matter_bridge.areas import assign_areas
from sim_devices.matter_bridge.server import MatterBridge
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.simulated import generate_matter_home

from .ha_setup import ha_matter


async def test_bridged_devices_land_in_their_rooms_areas(
    hass: HomeAssistant, hass_ws_client, socket_enabled
):
    home = generate_matter_home(seed=1)
    assert await async_setup_component(hass, "config", {})  # the registries' websocket commands
    client = await hass_ws_client(hass)

    async def call(message: dict[str, Any]) -> Any:
        await client.send_json_auto_id(message)
        reply = await client.receive_json()
        assert reply["success"], reply
        return reply["result"]

    ar.async_get(hass).async_create("kitchen")  # an existing area is reused, whatever its case
    async with ha_matter(hass, MatterBridge(HomeEngine(home))) as entry:
        devices = dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
        assert len(devices) == 27 and all(d.area_id is None for d in devices)  # what Matter gives
        moved = await assign_areas(call, home)
        again = await assign_areas(call, home)
        devices = dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
    assert len(moved) == 27 and again == {}
    areas = ar.async_get(hass)
    rooms = {r.id: r.name for r in home.rooms}
    for device in devices:
        did = device.serial_number.removeprefix("SMH-")
        room = rooms[next(d.userdata.room for d in home.devices if d.did == did)]
        assert areas.async_get_area(device.area_id).name.casefold() == room.casefold()
        assert device.name.startswith(room)  # the node label says the room too
    assert len([a for a in areas.async_list_areas() if a.name.casefold() == "kitchen"]) == 1
