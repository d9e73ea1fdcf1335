"""``smh perf ha --peer-synthetic-home PATH``: the real peer beside SMH and the plain baseline.

allenporter's home-assistant-synthetic-home (github.com/allenporter/home-assistant-synthetic-home,
HACS; not on PyPI itself) is loaded from the user's checkout: its ``custom_components/synthetic_home``
is put on the ``custom_components`` package path (as ``plain_home`` is), and its one runtime
requirement, the ``synthetic-home`` library from PyPI (the version its ``manifest.json`` pins;
it parses the YAML inventory into mashumaro dataclasses), from a folder of its own
(``--peer-lib DIR``, filled by ``pip install --target DIR``), put on ``sys.path`` only in the
processes that measure the peer. Nothing of it is a dependency of SMH.

The complex home becomes a synthetic-home inventory (YAML, the integration's own file format):
the same areas (the home's rooms) and devices (every device by name in its room's area), and
per HA platform the same number of entities as SMH's entry has, spread over the devices as the
plain baseline spreads its own (entity ``i`` on device ``i mod devices``), each with the state
and attributes of synthetic-home's own device fixtures (a dimmable light, a temperature sensor,
a door sensor, ...). synthetic-home has no humidifier, number, select, text or water-heater
platform: those entities become the nearest platform it has (:data:`SUBSTITUTES`), so the entity
total is the same and the report says which were substituted. It always loads its 14 platforms
(calendar, todo, weather, valve, ... included, empty here): that is its own set-up, not changed.

The entry is made as its config flow makes it (``{"config_filename": <file in the config
dir>}``, titled with the file name); the warm-up entry goes through the flow itself. Its set-up
exposes every entity to Assist, which needs HA's ``homeassistant`` integration: every HA this
script starts has it set up before anything is timed (a real HA always has it).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

DOMAIN = "synthetic_home"
INVENTORY_FILE = "synthetic_home.yaml"
MARKER = Path("custom_components/synthetic_home/manifest.json")
HOW_TO_GET = (
    "get a checkout with `git clone https://github.com/allenporter/home-assistant-synthetic-home`"
)

SUBSTITUTES = {
    "humidifier": "fan",
    "water_heater": "climate",
    "number": "sensor",
    "select": "sensor",
    "text": "sensor",
}
"""SMH platforms synthetic-home does not have -> the platform their entities get in its home."""

_TEMPLATES: dict[str, dict[str, Any]] = {
    # state and attributes as in synthetic-home's tests/fixtures (one device kind per platform)
    "light": {
        "state": "off",
        "attributes": {"supported_color_modes": ["brightness"], "color_mode": "brightness"},
    },
    "switch": {
        "state": "off",
        "attributes": {"device_class": "switch.SwitchDeviceClass.OUTLET"},
    },
    "sensor": {
        "state": "21.5",
        "attributes": {
            "device_class": "sensor.SensorDeviceClass.TEMPERATURE",
            "state_class": "sensor.SensorStateClass.MEASUREMENT",
            "native_unit_of_measurement": "°C",
        },
    },
    "binary_sensor": {
        "state": "off",
        "attributes": {"device_class": "binary_sensor.BinarySensorDeviceClass.DOOR"},
    },
    "climate": {
        "attributes": {
            "unit_of_measurement": "°C",
            "hvac_modes": ["off", "cool", "heat"],
            "supported_features": [
                "climate.ClimateEntityFeature.TARGET_TEMPERATURE",
                "climate.ClimateEntityFeature.TURN_ON",
                "climate.ClimateEntityFeature.TURN_OFF",
            ],
            "hvac_mode": "off",
            "current_temperature": 25,
            "target_temperature": 24,
        }
    },
    "cover": {
        "state": "closed",
        "attributes": {
            "device_class": "cover.CoverDeviceClass.BLIND",
            "supported_features": [
                "cover.CoverEntityFeature.OPEN",
                "cover.CoverEntityFeature.CLOSE",
                "cover.CoverEntityFeature.SET_POSITION",
            ],
        },
    },
    "fan": {
        "state": "off",
        "attributes": {
            "supported_features": [
                "fan.FanEntityFeature.SET_SPEED",
                "fan.FanEntityFeature.TURN_ON",
                "fan.FanEntityFeature.TURN_OFF",
            ]
        },
    },
    "lock": {"state": "locked"},
    "media_player": {
        "state": "off",
        "attributes": {
            "device_class": "media_player.MediaPlayerDeviceClass.SPEAKER",
            "supported_features": [
                "media_player.MediaPlayerEntityFeature.PLAY",
                "media_player.MediaPlayerEntityFeature.PAUSE",
                "media_player.MediaPlayerEntityFeature.VOLUME_SET",
                "media_player.MediaPlayerEntityFeature.TURN_ON",
                "media_player.MediaPlayerEntityFeature.TURN_OFF",
            ],
        },
    },
    "vacuum": {
        "state": "docked",
        "attributes": {
            "supported_features": [
                "vacuum.VacuumEntityFeature.START",
                "vacuum.VacuumEntityFeature.STOP",
                "vacuum.VacuumEntityFeature.STATE",
                "vacuum.VacuumEntityFeature.PAUSE",
                "vacuum.VacuumEntityFeature.RETURN_HOME",
            ]
        },
    },
}


class PeerUnavailable(Exception):
    """The synthetic-home checkout or its library cannot be used; the message says why and what
    to do."""


def required_version(checkout: Path) -> str:
    """The ``synthetic-home`` version the checkout's manifest pins (e.g. ``5.0.3``)."""
    manifest = checkout / MARKER
    if not manifest.is_file():
        raise PeerUnavailable(
            f"{checkout} is not a home-assistant-synthetic-home checkout (no {MARKER}); {HOW_TO_GET}"
        )
    try:
        requirements = json.loads(manifest.read_text(encoding="utf-8"))["requirements"]
    except (ValueError, KeyError) as e:
        raise PeerUnavailable(f"{manifest} has no readable requirements ({e})") from e
    for req in requirements:
        if m := re.fullmatch(r"synthetic[-_]home==([\w.]+)", req.strip()):
            return m.group(1)
    raise PeerUnavailable(f"{manifest} does not pin synthetic-home (requirements: {requirements})")


def pip_command(version: str, lib: Path | None) -> str:
    target = str(lib) if lib is not None else "/tmp/sh-peer-lib"
    return f"pip install --no-deps --target {target} synthetic-home=={version}"


def check(checkout: Path, lib: Path | None) -> str:
    """Fail clearly unless ``checkout`` is a synthetic-home checkout and the library its manifest
    pins is in ``lib`` (or importable, without ``lib``); the version. Does not import it."""
    checkout = checkout.expanduser()
    if not checkout.is_dir():
        raise PeerUnavailable(f"{checkout} is not a folder; {HOW_TO_GET}")
    version = required_version(checkout)
    how = (
        f"install the library its manifest pins into a folder of its own with "
        f"`{pip_command(version, lib)}` and pass --peer-lib with that folder"
    )
    if lib is not None:
        if not lib.is_dir():
            raise PeerUnavailable(f"--peer-lib {lib} is not a folder; {how}")
        found = [
            d.version
            for d in metadata.distributions(path=[str(lib)])
            if (d.metadata["Name"] or "").lower().replace("_", "-") == "synthetic-home"
        ]
    else:
        try:
            found = [metadata.version("synthetic-home")]
        except metadata.PackageNotFoundError:
            found = []
    if not found:
        where = f"in {lib}" if lib is not None else "importable"
        raise PeerUnavailable(f"the synthetic-home library is not {where}; {how}")
    if found[0] != version:
        raise PeerUnavailable(
            f"the checkout pins synthetic-home=={version}, found {found[0]}; {how}"
        )
    for module in ("mashumaro", "slugify", "yaml"):  # its own imports (HA has them all)
        try:
            __import__(module)
        except ImportError as e:
            raise PeerUnavailable(
                f"synthetic-home needs {module}, not importable here ({e})"
            ) from e
    return version


def activate(checkout: Path, lib: Path | None) -> None:
    """In a process that measures the peer: its library on ``sys.path``, its integration on the
    ``custom_components`` package path (call after ``custom_components`` is imported)."""
    import custom_components

    if lib is not None and str(lib) not in sys.path:
        sys.path.append(str(lib))
    folder = str(checkout.expanduser().resolve() / "custom_components")
    if folder not in custom_components.__path__:
        custom_components.__path__.append(folder)


def peer_counts(counts: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """SMH's entities per platform -> the peer's (substituted platforms merged) and what was
    substituted (SMH platform -> entities)."""
    out: Counter[str] = Counter()
    substituted = {}
    for platform, n in counts.items():
        if platform in SUBSTITUTES:
            substituted[platform] = n
        out[SUBSTITUTES.get(platform, platform)] += n
    return dict(sorted(out.items())), substituted


def inventory_yaml(home_json: str, counts: dict[str, int]) -> str:
    """The complex home as a synthetic-home inventory (see the module docstring)."""
    import yaml

    home = json.loads(home_json)
    rooms = {room["id"]: room["name"] for room in home["rooms"]}
    areas: dict[str, str] = {}  # room name -> area id
    for name in rooms.values():
        areas.setdefault(name, f"area_{len(areas)}")
    devices = []
    for i, d in enumerate(home["devices"]):
        device: dict[str, Any] = {"name": d["name"], "id": f"device_{i}"}
        if room := rooms.get(d.get("userdata", {}).get("room", "")):
            device["area"] = areas[room]
        devices.append(device)
    entities = []
    for platform, n in peer_counts(counts)[0].items():
        template = _TEMPLATES[platform]
        for i in range(n):
            device = devices[i % len(devices)]
            entity = {
                "name": f"{device['name']} {platform} {i}",
                "id": f"{platform}.synthetic_{platform}_{i}",
                "device": device["id"],
                **({"area": device["area"]} if "area" in device else {}),
                **template,
            }
            entities.append(entity)
    inventory = {
        "areas": [{"name": name, "id": area_id} for name, area_id in areas.items()],
        "devices": devices,
        "entities": entities,
    }
    return yaml.safe_dump(inventory, sort_keys=False, explicit_start=True, allow_unicode=True)
