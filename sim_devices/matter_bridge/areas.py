"""Put the bridge's devices into their rooms' areas in Home Assistant, after its matter
integration has discovered them.

Matter gives a controller no room: Home Assistant's ``matter`` integration creates each node's
device without an area (it reads BasicInformation's NodeLabel for the name and nothing for a
place; FixedLabel/UserLabel only rename entities of a few vendors). So the room travels in the
node label ("Living Room Air Conditioner 2") and, to get areas, this module assigns them
through HA's websocket API (``smh matter-areas``): every device of HA's matter integration whose
serial number is ``SMH-<device id>`` of the home goes into the area named after its room,
which is created when missing. It only talks JSON to the websocket, so it imports nothing of HA.

Two homes never share an area unless asked. When an area named after one of the home's rooms
already holds a device that is not this home's (an SMH home's "Kitchen", the user's own), the
whole home's areas get a prefix ("Matter Kitchen"), as a second SMH home's do, so "turn on the
kitchen light" does not reach both homes. An empty area of that name is the user's place for it
and is used. ``prefix`` names the areas explicitly; ``share`` joins the existing ones.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from smh_core.homeenv.model import Home

type WsCall = Callable[
    [dict[str, Any]], Awaitable[Any]
]  # one websocket command -> its result (smh_core.ha.websocket.connect)
SERIAL_PREFIX = "SMH-"  # the bridge's BasicInformation SerialNumber: SMH-<did>
DEFAULT_PREFIX = "Matter"
"""The areas' prefix when a room's name is taken by an area holding other devices."""


@dataclass
class AreaAssignment:
    """What :func:`assign_areas` did: HA device id -> area id of the devices it moved, and the
    prefix the areas' names got ("" for the rooms' own names)."""

    moved: dict[str, str] = field(default_factory=dict)
    prefix: str = ""


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


def _clashing_prefix(
    plan: dict[str, str], devices: list[dict[str, Any]], areas: dict[str, str]
) -> str:
    """:data:`DEFAULT_PREFIX` when an area named after one of the rooms holds a device that is
    not one of this home's bridged devices, else "" (the rooms' own names)."""
    occupied = {d.get("area_id") for d in devices if d["id"] not in plan and d.get("area_id")}
    taken = any(areas.get(room.casefold()) in occupied for room in plan.values())
    return DEFAULT_PREFIX if taken else ""


async def assign_areas(
    call: WsCall, home: Home, prefix: str | None = None, share: bool = False
) -> AreaAssignment:
    """Move the home's bridged devices into their rooms' areas (devices already in the right
    area are left alone). ``prefix``: the areas are "<prefix> <room>"; else the rooms' own names,
    or "Matter <room>" when those areas hold other devices, unless ``share``."""
    devices = await call({"type": "config/device_registry/list"})
    plan = area_plan(home, devices)
    areas = {
        a["name"].casefold(): a["area_id"]
        for a in await call({"type": "config/area_registry/list"})
    }
    if prefix is None:
        prefix = "" if share else _clashing_prefix(plan, devices, areas)
    plan = {device_id: f"{prefix} {room}" if prefix else room for device_id, room in plan.items()}
    for name in sorted(set(plan.values())):
        if name.casefold() not in areas:
            created = await call({"type": "config/area_registry/create", "name": name})
            areas[name.casefold()] = created["area_id"]
    current = {d["id"]: d.get("area_id") for d in devices}
    done = AreaAssignment(prefix=prefix)
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
            done.moved[device_id] = area_id
    return done
