"""Matter carries no room, so HA's matter integration puts the bridge's devices in no area;
``assign_areas`` moves each into its room's area through HA's websocket API (creating areas
that are missing), and a second run moves nothing. An area that already holds another home's
devices is not joined unless asked (issue 42: two homes merged into one Kitchen)."""

from __future__ import annotations

from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from sim_devices.matter_bridge.areas import assign_areas
from sim_devices.matter_bridge.server import MatterBridge
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.simulated import generate_matter_home

from .ha_setup import ha_matter


async def _ws(hass: HomeAssistant, hass_ws_client) -> Any:
    """One websocket command -> its result, as ``smh matter-areas`` talks to HA."""
    assert await async_setup_component(hass, "config", {})  # the registries' websocket commands
    client = await hass_ws_client(hass)

    async def call(message: dict[str, Any]) -> Any:
        await client.send_json_auto_id(message)
        reply = await client.receive_json()
        assert reply["success"], reply
        return reply["result"]

    return call


async def test_bridged_devices_land_in_their_rooms_areas(
    hass: HomeAssistant, hass_ws_client, socket_enabled
):
    home = generate_matter_home(seed=1)
    call = await _ws(hass, hass_ws_client)
    ar.async_get(hass).async_create("kitchen")  # an existing area is reused, whatever its case
    async with ha_matter(hass, MatterBridge(HomeEngine(home))) as entry:
        devices = dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
        assert len(devices) == 27 and all(d.area_id is None for d in devices)  # what Matter gives
        done = await assign_areas(call, home)
        again = await assign_areas(call, home)
        devices = dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
    assert len(done.moved) == 27 and again.moved == {} and done.prefix == again.prefix == ""
    areas = ar.async_get(hass)
    rooms = {r.id: r.name for r in home.rooms}
    for device in devices:
        did = device.serial_number.removeprefix("SMH-")
        room = rooms[next(d.userdata.room for d in home.devices if d.did == did)]
        assert areas.async_get_area(device.area_id).name.casefold() == room.casefold()
        assert device.name.startswith(room)  # the node label says the room too
    assert len([a for a in areas.async_list_areas() if a.name.casefold() == "kitchen"]) == 1


def _other_homes_kitchen_device(hass: HomeAssistant) -> dr.DeviceEntry:
    """A device of another integration (another home, the user's own) in an area "Kitchen"."""
    other = MockConfigEntry(domain="other_home")
    other.add_to_hass(hass)
    kitchen = ar.async_get(hass).async_create("Kitchen")
    devices = dr.async_get(hass)
    lamp = devices.async_get_or_create(config_entry_id=other.entry_id, identifiers={("other", "1")})
    return devices.async_update_device(lamp.id, area_id=kitchen.id) or lamp


def _area_names(hass: HomeAssistant, entry_id: str) -> set[str]:
    areas = ar.async_get(hass)
    return {
        areas.async_get_area(d.area_id).name
        for d in dr.async_entries_for_config_entry(dr.async_get(hass), entry_id)
    }


async def test_an_area_holding_another_homes_devices_is_not_joined(
    hass: HomeAssistant, hass_ws_client, socket_enabled
):
    home = generate_matter_home(seed=1)
    call = await _ws(hass, hass_ws_client)
    lamp = _other_homes_kitchen_device(hass)
    async with ha_matter(hass, MatterBridge(HomeEngine(home))) as entry:
        done = await assign_areas(call, home)
        again = await assign_areas(call, home)
        names = _area_names(hass, entry.entry_id)
    assert done.prefix == "Matter" and len(done.moved) == 27 and again.moved == {}
    assert "Matter Kitchen" in names and all(n.startswith("Matter ") for n in names)
    kitchen = ar.async_get(hass).async_get_area_by_name("Kitchen")
    assert [d.id for d in dr.async_entries_for_area(dr.async_get(hass), kitchen.id)] == [lamp.id]


async def test_sharing_or_naming_the_areas_is_the_users_choice(
    hass: HomeAssistant, hass_ws_client, socket_enabled
):
    home = generate_matter_home(seed=1)
    call = await _ws(hass, hass_ws_client)
    _other_homes_kitchen_device(hass)
    async with ha_matter(hass, MatterBridge(HomeEngine(home))) as entry:
        named = await assign_areas(call, home, prefix="Beach House")
        beach = _area_names(hass, entry.entry_id)
        shared = await assign_areas(call, home, share=True)
        joined = _area_names(hass, entry.entry_id)
    assert named.prefix == "Beach House" and all(n.startswith("Beach House ") for n in beach)
    assert shared.prefix == "" and len(shared.moved) == 27 and "Kitchen" in joined
    kitchen = ar.async_get(hass).async_get_area_by_name("Kitchen")
    assert len(dr.async_entries_for_area(dr.async_get(hass), kitchen.id)) > 1  # joined, as asked
