"""Serve a bridge on loopback and set up Home Assistant's own ``matter`` integration against it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from aiohttp.test_utils import TestServer
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from homeassistant.util import slugify
from pytest_homeassistant_custom_component.common import MockConfigEntry

from sim_devices.matter_bridge.server import MatterBridge


@asynccontextmanager
async def served(bridge: MatterBridge) -> AsyncIterator[str]:
    """The bridge on an ephemeral loopback port; yields its ``ws://`` url."""
    server = TestServer(bridge.app(), host="127.0.0.1")
    await server.start_server()
    try:
        yield f"ws://127.0.0.1:{server.port}/ws"
    finally:
        await server.close()
        bridge.close()


async def setup_matter(hass: HomeAssistant, url: str) -> MockConfigEntry:
    entry = MockConfigEntry(domain="matter", data={"url": url}, title="Matter")
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


@asynccontextmanager
async def ha_matter(hass: HomeAssistant, bridge: MatterBridge) -> AsyncIterator[MockConfigEntry]:
    """HA's matter integration set up against the served bridge; unloaded before the server stops
    (else HA keeps retrying the connection and a failing test hangs in teardown)."""
    async with served(bridge) as url:
        entry = await setup_matter(hass, url)
        try:
            yield entry
        finally:
            await hass.config_entries.async_unload(entry.entry_id)
            await hass.async_block_till_done()


def entities_by_device(
    hass: HomeAssistant, entry: MockConfigEntry
) -> dict[str, dict[str, er.RegistryEntry]]:
    """Device id (from the node's serial number ``SMH-<did>``) -> entity key -> registry entry.

    The key is the domain, plus the slug of the entity's own name when it has one:
    ``climate`` for a device's main entity, ``sensor.operational_state`` for the others
    (the entity id less the device's slug, whatever the device is called).
    """
    devices = dr.async_get(hass)
    out: dict[str, dict[str, er.RegistryEntry]] = {}
    for entity in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id):
        device = devices.async_get(entity.device_id)
        assert device is not None and device.serial_number, entity.entity_id
        did = device.serial_number.removeprefix("SMH-")
        name = entity.original_name
        key = (
            f"{entity.domain}.{slugify(name)}" if isinstance(name, str) and name else entity.domain
        )
        assert key not in out.get(did, {}), f"two {key} entities on device {did}"
        out.setdefault(did, {})[key] = entity
    return out


async def wait_for(
    hass: HomeAssistant, predicate: Callable[[], bool], seconds: float = 3.0
) -> bool:
    """Let pushed events reach HA (no polling: only the event loop runs)."""
    for _ in range(int(seconds / 0.05)):
        await hass.async_block_till_done()
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return predicate()


async def api_url(hass: HomeAssistant, hass_client: Callable) -> str:
    """HA's REST, websocket and registry APIs served on a loopback port (``hass_client`` enables
    sockets), as a remote client (``smh ha map``, the hardware runner) talks to them."""
    for domain in ("homeassistant", "api", "websocket_api", "config", "conversation"):
        assert await async_setup_component(hass, domain, {})
    await hass.async_block_till_done()
    client = await hass_client()
    return str(client.make_url("")).rstrip("/")
