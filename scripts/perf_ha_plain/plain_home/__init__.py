"""A baseline for ``smh perf ha``: the plainest entities Home Assistant can host, written the way
allenporter's home-assistant-synthetic-home writes its own (state in ``_attr_*`` fields, set by
the service handler, then one state write), with no engine, validation or change stream behind
them. SMH's HA figures are reported as ratios against these, measured in the same process in
interleaved rounds, so the machine's speed cancels out.

Like synthetic-home, it is data-driven: set-up reads the home's description file (the same
HomeEnv JSON file SMH's entry loads, parsed as plain JSON off the event loop) and registers its
devices by name in their rooms' areas. The entry says how many entities of each platform to
create (``smh perf ha`` copies the counts from the SMH entry it compares with), so both
integrations load the same HA platforms and the same numbers of entities, devices and areas.
"""

from __future__ import annotations

import json
from pathlib import Path

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant

DOMAIN = "plain_home"


def read_devices(path: Path) -> list[tuple[str, str]]:
    """(device name, room name) per device of a HomeEnv home file."""
    home = json.loads(path.read_text(encoding="utf-8"))
    rooms = {room["id"]: room["name"] for room in home["rooms"]}
    return [(d["name"], rooms.get(d["userdata"]["room"], "")) for d in home["devices"]]


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    entry.runtime_data = await hass.async_add_executor_job(
        read_devices, Path(hass.config.path(entry.data["file"]))
    )
    await hass.config_entries.async_forward_entry_setups(entry, list(entry.data["counts"]))
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, list(entry.data["counts"]))
