"""A Matter-shaped dimmable light, independent of the catalog, for the bridge's protocol tests;
and a home with one device of each Matter catalog type, for Home Assistant's discovery."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from matter_server.client import MatterClient

from sim_devices.catalog import instantiate, load_catalog
from sim_devices.matter_bridge.server import MatterBridge
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room


def matter_light(did: str = "1201", room: str = "living") -> dict:
    return {
        "name": "Reading Lamp",
        "userdata": {
            "did": did,
            "spid": "test.matter.light",
            "category": "light",
            "subcategory": "dimmable_light",
            "room": room,
        },
        "matter": {"device_types": {1: 0x0101}},
        "components": [
            {
                "name": "1.OnOff",
                "matter_cluster": 6,
                "attributes": [{"name": "OnOff", "matter_id": 0, "type": "bool", "value": False}],
                "services": [
                    {"name": "On", "matter_id": 1, "effects": [{"set": "OnOff", "value": True}]},
                    {"name": "Off", "matter_id": 0, "effects": [{"set": "OnOff", "value": False}]},
                ],
            },
            {
                "name": "1.LevelControl",
                "matter_cluster": 8,
                "attributes": [
                    {
                        "name": "CurrentLevel",
                        "matter_id": 0,
                        "type": "int",
                        "range": [1, 254],
                        "value": 100,
                    },
                    {"name": "MinLevel", "matter_id": 2, "type": "int", "value": 1},
                    {"name": "MaxLevel", "matter_id": 3, "type": "int", "value": 254},
                ],
                "services": [
                    {
                        "name": "MoveToLevelWithOnOff",
                        "matter_id": 4,
                        "arguments": [
                            {"name": "level", "type": "int", "range": [1, 254]},
                            {"name": "transitionTime", "type": "int", "required": False},
                        ],
                        "effects": [
                            {"set": "CurrentLevel", "arg": "level"},
                            {"set": "/1.OnOff.OnOff", "value": True},
                        ],
                    },
                    {
                        "name": "MoveToLevel",
                        "matter_id": 0,
                        "arguments": [
                            {"name": "level", "type": "int", "range": [1, 254]},
                            {"name": "transitionTime", "type": "int", "required": False},
                        ],
                        "requires": [
                            {
                                "attr": "/1.OnOff.OnOff",
                                "equals": True,
                                "message": "turn the light on first",
                            }
                        ],
                        "effects": [{"set": "CurrentLevel", "arg": "level"}],
                    },
                ],
            },
        ],
    }


@pytest.fixture
def light_engine() -> HomeEngine:
    home = Home.model_validate(
        {
            "name": "test-home",
            "rooms": [{"id": "living", "type": "living_room", "name": "Living Room"}],
            "devices": [matter_light()],
        }
    )
    return HomeEngine(home)


def catalog_home(types: list[str] | None = None) -> Home:
    """One device of each Matter catalog type (or of ``types``), named after its type, dids 3001...

    Naming each device after its type makes HA's entity ids ``<domain>.living_room_<type>[_<entity>]``
    (the bridge's node label puts the room first).
    """
    catalog = load_catalog("matter")
    chosen = sorted(catalog) if types is None else types
    devices = [
        instantiate(t, did=str(3001 + i), room="living", name=t, kind="matter")
        for i, t in enumerate(chosen)
    ]
    return Home(
        name="matter-catalog-home",
        rooms=[Room(id="living", type="living_room", name="Living Room")],
        devices=devices,
    )


@pytest.fixture
def catalog_engine() -> HomeEngine:
    return HomeEngine(catalog_home())


@pytest.fixture
def washer_engine() -> HomeEngine:
    """A home with one catalog laundry washer (did 3001, named ``laundry_washer``)."""
    return HomeEngine(catalog_home(["laundry_washer"]))


@asynccontextmanager
async def matter_client(bridge: MatterBridge) -> AsyncIterator[MatterClient]:
    """The bridge on a loopback port and python-matter-server's own client listening to it."""
    server = TestServer(bridge.app(), host="127.0.0.1")
    await server.start_server()
    session = aiohttp.ClientSession()
    client = MatterClient(f"ws://127.0.0.1:{server.port}/ws", session)
    ready = asyncio.Event()
    listener = asyncio.create_task(client.start_listening(ready))
    try:
        await asyncio.wait_for(ready.wait(), 5)
        yield client
    finally:
        await client.disconnect()
        listener.cancel()
        await asyncio.gather(
            listener, return_exceptions=True
        )  # its websocket closes on the way out
        await session.close()
        await server.close()
        bridge.close()


@pytest.fixture
async def served(light_engine, socket_enabled):
    """The light home's bridge and a listening client: ``(bridge, client)``."""
    bridge = MatterBridge(light_engine)
    async with matter_client(bridge) as client:
        yield bridge, client
