"""A live Home Assistant home as an SMH home: its simulated twin (issue 39).

The twin keeps what makes the real home the one a model will run in: the floors and areas with
their aliases, every entity SMH can simulate as a device in its area, under its entity id (so the
twin's tasks map onto the real home one to one), with its name, aliases, device class,
supported features, colour modes, ranges, options, current state and whether it is exposed to
Assist. Every entity that cannot be simulated is listed with the reason, counted in the report.

Entities become devices through the same conversion home-assistant-datasets' fixtures use
(:mod:`smh_core.importers.ha_devices`). Each device records how ``smh ha map --twin`` maps it
onto its entity (:mod:`.twin_record`), so the tasks written for the twin are ones this HA can
run. The registries come from HA's websocket API
(:func:`read_registries`) or, offline, from a copy of HA's ``.storage`` folder and a dump of
``/api/states`` (:func:`registries_from_storage`); both give the same :class:`Registries`, and
:func:`twin_from` is a pure function of it.

A to-do list's state is only how many of its items are not done: live, its items are read with
HA's ``todo.get_items`` (:func:`read_todo_items`); offline the twin has the count alone, says so,
and its items stay unknown (no task judges them).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smh_core.homeenv.model import Device, Home, Room
from smh_core.importers.ha_devices import device_from_entity
from smh_core.importers.report import ImportReport

from .ha_inventory import inventory_from
from .todo_lists import TODO_ITEMS
from .twin_matter import Fitted, MatterNodes, twin_device
from .twin_record import with_record
from .websocket import WsCall

STORAGE_FILES = {
    "floors": ("core.floor_registry", "floors"),
    "areas": ("core.area_registry", "areas"),
    "devices": ("core.device_registry", "devices"),
    "entities": ("core.entity_registry", "entities"),
}
"""Registry -> (its file in HA's ``.storage``, the list's key under ``data``)."""

ASSISTANT = "conversation"
"""The assistant whose exposure the twin records: Assist (HA's own and LLM conversation agents)."""

UNREADABLE = ("unavailable", "unknown")


class TwinSourceError(ValueError):
    """The registries or states cannot be read (the message names the file and what is wrong)."""


@dataclass(frozen=True)
class Registries:
    """What a home's twin is made from, as HA's websocket API lists it."""

    floors: list[dict[str, Any]]
    areas: list[dict[str, Any]]
    devices: list[dict[str, Any]]
    entities: list[dict[str, Any]]
    states: list[dict[str, Any]]
    exposed: Mapping[str, bool] = field(default_factory=dict)
    """Entity id -> exposed to Assist, for entities with a setting; others are left unsaid."""
    name: str = ""
    """The home's name in HA (its location name)."""
    temperature_unit: str = "°C"
    """HA's temperature unit (its unit system): climate entities state temperatures in it."""
    matter: MatterNodes | None = None
    """The nodes of HA's matter integration (its diagnostics), when the twin keeps the devices
    it serves as Matter devices (``smh home from-ha --matter``); None: every entity alone."""


@dataclass(frozen=True)
class Twin:
    home: Home
    report: ImportReport

    def summary(self) -> str:
        skipped = len(self.report.skipped)
        made = len(self.report.imported)
        matter = sum("matter" in d.userdata.tags for d in self.home.devices)
        kept = f" ({matter} Matter devices, each from its node's clusters)" if matter else ""
        return (
            f"{made} of {made + skipped} entities simulated on {len(self.home.rooms)} "
            f"areas{kept}; {skipped} cannot be simulated (listed with reasons)"
        )


def _floors(regs: Registries) -> dict[str, tuple[int, str]]:
    """Floor id -> (level, name); floors without a level numbered after the highest one."""
    levels = [f["level"] for f in regs.floors if isinstance(f.get("level"), int)]
    next_level = max(levels, default=0) + 1
    out = {}
    for f in sorted(regs.floors, key=lambda f: str(f.get("floor_id"))):
        level = f.get("level")
        if not isinstance(level, int):
            level, next_level = next_level, next_level + 1
        out[str(f["floor_id"])] = (level, str(f.get("name") or f["floor_id"]))
    return out


def _aliases(raw: Any) -> list[str] | None:
    """The names given: HA 2026.10+ also lists the entity's own computed name among its aliases
    (``null`` over the API), which is no alias of the twin's."""
    names = sorted({a.strip() for a in raw or () if isinstance(a, str) and a.strip()})
    return names or None


def _rooms(regs: Registries) -> dict[str, Room]:
    floors = _floors(regs)
    rooms = {}
    for a in sorted(regs.areas, key=lambda a: str(a["area_id"])):
        level, floor_name = floors.get(str(a.get("floor_id")), (1, None))
        aid = str(a["area_id"])
        rooms[aid] = Room(
            id=aid,
            type=aid,
            name=str(a.get("name") or aid),
            floor=level,
            floor_name=floor_name,
            aliases=_aliases(a.get("aliases")),
        )
    return rooms


def _why_not(entity: Mapping[str, Any], state: Mapping[str, Any] | None) -> str | None:
    """Why an entity is left out before its conversion is tried, or None."""
    if entity.get("disabled_by"):
        return f"disabled in Home Assistant (by {entity['disabled_by']})"
    if state is None:
        return "has no state in Home Assistant"
    if str(state.get("state")) in UNREADABLE:
        return (
            f"its state is {state.get('state')} in Home Assistant: nothing to start the twin from"
        )
    if entity.get("entity_category"):
        return f"a {entity['entity_category']} entity, not a device people ask for"
    return None


REQUIRED = {
    "floors": "floor_id",
    "areas": "area_id",
    "devices": "id",
    "entities": "entity_id",
    "states": "entity_id",
}


def _require(regs: Registries) -> None:
    """Every listed item carries its id (a hand-edited or truncated file fails here, named)."""
    for what, key in REQUIRED.items():
        for i, item in enumerate(getattr(regs, what)):
            if not isinstance(item, dict) or not item.get(key):
                raise TwinSourceError(f"{what}[{i}]: no {key} ({str(item)[:80]})")


def twin_from(regs: Registries, source: str = "Home Assistant") -> Twin:
    """The twin of the home ``regs`` describe (``source`` names where they came from, for the
    report). Entities in entity id order, rooms in area id order: the same registries give the
    same bytes."""
    _require(regs)
    rooms = _rooms(regs)
    device_area = {str(d["id"]): d.get("area_id") for d in regs.devices}
    states = {str(s["entity_id"]): s for s in regs.states}
    report = ImportReport(source=f"{source} (twin)", path=source)
    # an entity without a unique id (set up from YAML, or an integration's old platform) has a
    # state but no registry entry: it is part of the home all the same
    registered = {str(e["entity_id"]): e for e in regs.entities}
    ids = sorted(registered.keys() | states.keys())
    report.items = len(ids)
    matter = _matter_devices(regs, rooms, report) if regs.matter is not None else {}
    placed: set[str] = set()
    devices = []
    for eid in ids:
        entity = registered.get(eid) or {"entity_id": eid}
        state = states.get(eid)
        why = _why_not(entity, state)
        if why is not None:
            report.skip(eid, why)
            continue
        assert state is not None
        if (device_id := entity.get("device_id")) in matter:
            # one of a Matter device's entities: the device stands for them all, once
            if device_id not in placed:
                placed.add(device_id)
                devices.append(matter[device_id])
            report.imported.append(eid)
            continue
        if eid.startswith("climate.") and regs.temperature_unit != "°C":
            report.skip(
                eid,
                f"a climate entity in {regs.temperature_unit}: not yet simulated "
                "(the catalog works in °C)",
            )
            continue
        attrs = dict(state.get("attributes") or {})
        area = entity.get("area_id") or device_area.get(str(entity.get("device_id")))
        made = device_from_entity(
            "",
            {
                "id": eid,
                "name": attrs.get("friendly_name") or entity.get("name") or eid,
                "state": state.get("state"),
                "attributes": attrs,
            },
            str(area) if area in rooms else None,
            report,
            live=True,
        )
        if made is None:
            continue
        if eid.startswith("todo."):
            _note_todo(eid, attrs, report)
        device = made[0]
        device.userdata.aliases = _aliases(entity.get("aliases"))
        device.userdata.exposed = regs.exposed.get(eid)
        device.userdata.renamable = eid in registered
        devices.append(device)
        report.imported.append(eid)
    name = f"twin of {regs.name}" if regs.name else "twin"
    home = Home(name=name, rooms=list(rooms.values()), devices=devices)
    # what the tasks written for it need to know of this HA: how each device maps onto it
    inventory = inventory_from(regs.areas, regs.devices, regs.entities, regs.states)
    return Twin(with_record(home, inventory), report)


def _matter_devices(
    regs: Registries, rooms: dict[str, Room], report: ImportReport
) -> dict[str, Device]:
    """HA device id -> its Matter twin device, for each device HA's matter integration serves
    that a catalog Matter type fits (:mod:`.twin_matter`); every other Matter device's reason is
    reported, and its entities are twinned one by one as any others."""
    assert regs.matter is not None
    out = {}
    for device in sorted(regs.devices, key=lambda d: str(d["id"])):
        if device.get("disabled_by"):
            continue
        area = device.get("area_id")
        fitted = twin_device(device, regs.matter, str(area) if area in rooms else None)
        if fitted is None:
            continue
        item = f"{device.get('name_by_user') or device.get('name') or device['id']}: {device['id']}"
        if (
            fitted.device is not None
            and regs.temperature_unit != "°C"
            and _temperatures(fitted.device)
        ):
            fitted = Fitted(
                None,
                f"HA shows its temperatures in {regs.temperature_unit}; the task mapping reads "
                "Matter's °C as HA's (not yet converted)",
            )
        if fitted.device is None:
            report.approximate(item, f"its entities twinned one by one: {fitted.why}")
            continue
        report.approximate(item, fitted.why)
        out[str(device["id"])] = fitted.device
    return out


TEMPERATURE_CLUSTERS = {"Thermostat", "TemperatureMeasurement", "TemperatureControl"}


def _temperatures(device: Device) -> bool:
    """Whether the Matter device has a cluster of temperatures (which HA shows in its unit)."""
    return any(c.name.split(".", 1)[-1] in TEMPERATURE_CLUSTERS for c in device.components)


def _note_todo(eid: str, attrs: Mapping[str, Any], report: ImportReport) -> None:
    """What a to-do list's twin does not know: its items when only the count was read, an
    item's due date or description (not simulated)."""
    items = attrs.get(TODO_ITEMS)
    if not isinstance(items, list):
        report.approximate(
            eid,
            "its items were not read (a states dump has only how many are not done): they stay "
            "unknown and no task judges them; make the twin from the live HA to read them",
        )
        return
    extra = sorted(
        {k for i in items if isinstance(i, dict) for k in ("due", "description") if i.get(k)}
    )
    if extra:
        report.approximate(eid, f"items' {' and '.join(extra)} not simulated")


async def read_todo_items(call: WsCall, states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``states`` with each readable to-do list's items (HA's ``todo.get_items``: summary,
    status, uid, due, description) under its attributes' ``todo_items``. A list whose items HA
    will not give keeps its count alone, as offline."""
    out = []
    for s in states:
        eid = str(s.get("entity_id"))
        if eid.startswith("todo.") and str(s.get("state")) not in UNREADABLE:
            try:
                answer = await call(
                    {
                        "type": "call_service",
                        "domain": "todo",
                        "service": "get_items",
                        "target": {"entity_id": eid},
                        "return_response": True,
                    }
                )
                items = (((answer or {}).get("response") or {}).get(eid) or {}).get("items")
            except RuntimeError:  # HA's error (the socket raises it with HA's message)
                items = None
            if isinstance(items, list):
                s = {**s, "attributes": {**(s.get("attributes") or {}), TODO_ITEMS: items}}
        out.append(s)
    return out


def stored_exposure(entities: list[dict[str, Any]], stored: Mapping[str, Any]) -> dict[str, bool]:
    """Entity id -> exposed to Assist, as HA's ``.storage`` keeps it: a registered entity's
    registry options, an unregistered one's entry in ``homeassistant.exposed_entities``
    (``stored``: its ``exposed_entities``, entity id -> assistant -> ``should_expose``). An
    entity HA has not decided for yet is left out (HA decides on first use)."""
    out: dict[str, bool] = {}
    for e in entities:
        option = ((e.get("options") or {}).get(ASSISTANT) or {}).get("should_expose")
        if isinstance(option, bool):
            out[str(e["entity_id"])] = option
    for eid, assistants in stored.items():
        value = ((assistants or {}).get(ASSISTANT) or {}).get("should_expose")
        if isinstance(value, bool):
            out.setdefault(str(eid), value)
    return out


async def read_registries(call: WsCall) -> Registries:
    """The registries and states of the HA behind ``call`` (an admin's token: the exposure
    settings are an admin command). Entity aliases come from the extended registry entries."""
    config = await call({"type": "get_config"})
    floors = await call({"type": "config/floor_registry/list"})
    areas = await call({"type": "config/area_registry/list"})
    devices = await call({"type": "config/device_registry/list"})
    listed = await call({"type": "config/entity_registry/list"})
    ids = [e["entity_id"] for e in listed]
    extended = (
        await call({"type": "config/entity_registry/get_entries", "entity_ids": ids}) if ids else {}
    )
    entities = [{**e, **(extended.get(e["entity_id"]) or {})} for e in listed]
    states = await read_todo_items(call, await call({"type": "get_states"}))
    listed_exposed = await call({"type": "homeassistant/expose_entity/list"})
    shown = (listed_exposed or {}).get("exposed_entities") or {}
    # HA lists only the entities exposed to some assistant; the rest are not exposed to Assist
    # (what HA's own Expose page shows)
    every = {str(e["entity_id"]) for e in entities} | {str(s["entity_id"]) for s in states}
    exposed = {eid: bool((shown.get(eid) or {}).get(ASSISTANT)) for eid in every}
    return Registries(
        floors,
        areas,
        devices,
        entities,
        states,
        exposed,
        str((config or {}).get("location_name") or ""),
        str(((config or {}).get("unit_system") or {}).get("temperature") or "°C"),
    )


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TwinSourceError(f"{path}: not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise TwinSourceError(f"{path}: not readable as JSON ({e})") from None


def _listed(path: Path, key: str) -> list[dict[str, Any]]:
    doc = _read_json(path)
    items = (doc.get("data") or {}).get(key) if isinstance(doc, dict) else None
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise TwinSourceError(f"{path}: expected data.{key} to be a list of objects")
    return items


def registries_from_storage(storage: Path, states_file: Path) -> Registries:
    """The registries from a copy of HA's ``.storage`` folder and ``states_file``, the JSON
    ``GET /api/states`` answers (a list of states). A missing floor registry (HA before floors)
    means no floors; a missing or malformed file otherwise names itself."""
    found: dict[str, list[dict[str, Any]]] = {}
    for what, (name, key) in STORAGE_FILES.items():
        path = storage / name
        if what == "floors" and not path.exists():
            found[what] = []
            continue
        found[what] = _listed(path, key)
    states = _read_json(states_file)
    if not isinstance(states, list) or not all(
        isinstance(s, dict) and "entity_id" in s for s in states
    ):
        raise TwinSourceError(
            f"{states_file}: expected a list of states with entity_id (what GET /api/states answers)"
        )
    stored: dict[str, Any] = {}
    exposed_file = storage / "homeassistant.exposed_entities"
    if exposed_file.exists():
        doc = _read_json(exposed_file)
        stored = ((doc.get("data") or {}) if isinstance(doc, dict) else {}).get(
            "exposed_entities"
        ) or {}
    core_config = storage / "core.config"
    name, unit = "", "°C"
    if core_config.exists():
        doc = _read_json(core_config)
        data = (doc.get("data") or {}) if isinstance(doc, dict) else {}
        name = str(data.get("location_name") or "")
        system = data.get("unit_system_v2", data.get("unit_system"))
        unit = "°F" if system in ("us_customary", "imperial") else "°C"
    areas = [{**a, "area_id": a.get("area_id", a.get("id"))} for a in found["areas"]]
    return Registries(
        found["floors"],
        areas,
        found["devices"],
        found["entities"],
        states,
        stored_exposure(found["entities"], stored),
        name,
        unit,
    )
