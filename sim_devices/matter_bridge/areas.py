"""Put the bridge's devices into their rooms' areas in Home Assistant, after its matter
integration has discovered them.

Matter gives a controller no room: Home Assistant's ``matter`` integration creates each node's
device without an area (it reads BasicInformation's NodeLabel for the name and nothing for a
place; FixedLabel/UserLabel only rename entities of a few vendors). So the room travels in the
node label ("Living Room Air Conditioner 2") and, to get areas, this module assigns them
through HA's websocket API (``smh matter-areas``): every device of HA's matter integration whose
serial number is ``SMH-<device id>`` of the home goes into the area named after its room,
which is created when missing. It only talks JSON to the websocket, so it imports nothing of HA.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from smh_core.homeenv.model import Home

type WsCall = Callable[
    [dict[str, Any]], Awaitable[Any]
]  # one websocket command -> its result (smh_core.ha.websocket.connect)
SERIAL_PREFIX = "SMH-"  # the bridge's BasicInformation SerialNumber: SMH-<did>


def _matter_device(device: dict[str, Any]) -> bool:
    return any(ident and ident[0] == "matter" for ident in device.get("identifiers", []))


def area_plan(home: Home, devices: list[dict[str, Any]]) -> dict[str, str]:
    """HA device id -> the room name its bridged device belongs in (matter devices only)."""
    rooms = {r.id: r.name for r in home.rooms}
    room_of = {d.did: rooms[d.userdata.room] for d in home.devices if d.userdata.room in rooms}
    out = {}
    for device in devices:
        serial = device.get("serial_number") or ""
        did = serial.removeprefix(SERIAL_PREFIX)
        if _matter_device(device) and serial.startswith(SERIAL_PREFIX) and did in room_of:
            out[device["id"]] = room_of[did]
    return out


async def assign_areas(call: WsCall, home: Home) -> dict[str, str]:
    """Move the home's bridged devices into their rooms' areas; returns HA device id -> area id
    of the devices it moved (devices already in the right area are left alone)."""
    devices = await call({"type": "config/device_registry/list"})
    plan = area_plan(home, devices)
    areas = {
        a["name"].casefold(): a["area_id"]
        for a in await call({"type": "config/area_registry/list"})
    }
    for name in sorted(set(plan.values())):
        if name.casefold() not in areas:
            created = await call({"type": "config/area_registry/create", "name": name})
            areas[name.casefold()] = created["area_id"]
    current = {d["id"]: d.get("area_id") for d in devices}
    moved = {}
    for device_id, room in sorted(plan.items()):
        area_id = areas[room.casefold()]
        if current.get(device_id) != area_id:
            await call(
                {
                    "type": "config/device_registry/update",
                    "device_id": device_id,
                    "area_id": area_id,
                }
            )
            moved[device_id] = area_id
    return moved
