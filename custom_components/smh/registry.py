"""Mirror the home's layout into HA's registries: floors, areas (nested rooms carry a label
naming their parent room, each area an icon for its kind of room), one device entry per
HomeEnv device in its room's area and one per simulated room (its climate sensors), the room's
temperature and humidity sensors as its area's own (what HA's Assist reads for "what is the
temperature in the living room"); and drop registry entities the home no longer provides.

Several homes in one HA: an entry's ``area_prefix`` puts its floors, areas and device names in
a namespace of their own ("Beach House Living Room"), so two homes never share an area, a
device name or an entity id (the config flow proposes one for every home after the first)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.helpers import label_registry as lr

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.names import display_names

from .const import CONF_AREA_PREFIX, DOMAIN
from .exposure import ASSISTANT as EXPOSE_TO
from .exposure import keeps_settings
from .mirrors import unique_id
from .room import prefixed, room_device_id, room_did, room_icon

MANUFACTURER = "SMH Simulated Home"


def area_prefix(entry: ConfigEntry) -> str:
    """The entry's namespace for floors, areas and device names ("" for none)."""
    return str({**entry.data, **entry.options}.get(CONF_AREA_PREFIX) or "").strip()


def area_names(engine: HomeEngine, prefix: str) -> dict[str, str]:
    """Room id -> the name of its area under ``prefix``."""
    return {room.id: prefixed(prefix, room.name) for room in engine.rooms()}


def mirror_layout(hass: HomeAssistant, entry: ConfigEntry, engine: HomeEngine) -> dict[str, str]:
    """Create/reuse floors, areas and devices; returns room id -> area id."""
    floors = fr.async_get(hass)
    areas = ar.async_get(hass)
    labels = lr.async_get(hass)
    devices = dr.async_get(hass)
    prefix = area_prefix(entry)
    rooms = {r.id: r for r in engine.rooms()}
    names_of = area_names(engine, prefix)
    area_of: dict[str, str] = {}
    for room in rooms.values():
        floor_name = prefixed(prefix, room.floor_name or f"Floor {room.floor}")
        floor = floors.async_get_floor_by_name(floor_name) or floors.async_create(
            floor_name, level=room.floor
        )
        area_labels: set[str] = set()
        if room.parent:
            parent_name = f"Inside {names_of[room.parent]}"
            label = labels.async_get_label_by_name(parent_name) or labels.async_create(parent_name)
            area_labels.add(label.label_id)
        area = areas.async_get_area_by_name(names_of[room.id])
        aliases = {prefixed(prefix, a) for a in room.aliases or ()}
        if area is None:
            area = areas.async_create(
                names_of[room.id],
                aliases=aliases,
                floor_id=floor.floor_id,
                labels=area_labels,
                icon=room_icon(room.type, room.name),
            )
        else:  # an area of that name (this entry's from before, or one the user chose to share)
            area = areas.async_update(
                area.id,
                aliases=area.aliases | aliases,
                floor_id=floor.floor_id,
                labels=area.labels | area_labels,
                icon=area.icon or room_icon(room.type, room.name),
            )
        area_of[room.id] = area.id
    names = display_names(engine.home)  # unique in the home: "Living Room Air Conditioner 2"
    for did in engine.device_ids():
        device = engine.device(did)
        entry_dev = devices.async_get_or_create(
            config_entry_id=entry.entry_id,
            identifiers={(DOMAIN, f"{entry.entry_id}_{did}")},
            name=prefixed(prefix, names[did]),
            manufacturer=MANUFACTURER,
            model=readable_model(device.userdata.subcategory),
            model_id=device.userdata.subcategory,
            serial_number=did,
        )
        area_id = area_of.get(device.userdata.room) if device.userdata.room is not None else None
        if entry_dev.area_id != area_id:  # a device in no room has no area (and loses a stale one)
            devices.async_update_device(entry_dev.id, area_id=area_id)
    for room in engine.simulated_rooms():
        entry_dev = devices.async_get_or_create(
            config_entry_id=entry.entry_id,
            identifiers={(DOMAIN, room_device_id(entry.entry_id, room))},
            name=f"{names_of[room]} climate",
            manufacturer=MANUFACTURER,
            model="Simulated room",
        )
        if entry_dev.area_id != area_of[room]:
            devices.async_update_device(entry_dev.id, area_id=area_of[room])
    return area_of


def occupied_areas(hass: HomeAssistant, names: list[str]) -> list[str]:
    """Which of the area ``names`` exist and hold a device already (another home's, or the
    user's own): a new home's devices would share them."""
    areas, devices = ar.async_get(hass), dr.async_get(hass)
    out = []
    for name in dict.fromkeys(names):
        area = areas.async_get_area_by_name(name)
        if area is not None and dr.async_entries_for_area(devices, area.id):
            out.append(area.name)
    return out


def suggest_prefix(hass: HomeAssistant, force: bool = False) -> str:
    """The area prefix the config flow proposes: none for the first SMH home ("SMH" when
    ``force``d: its rooms' names are taken by the user's own areas), "Home N" for the next ones,
    N the first number no entry and no area uses."""
    entries = hass.config_entries.async_entries(DOMAIN)
    if not entries:
        return "SMH" if force else ""
    taken = {str({**e.data, **e.options}.get(CONF_AREA_PREFIX) or "") for e in entries}
    area_names = [a.name for a in ar.async_get(hass).async_list_areas()]
    n = len(entries) + 1
    while f"Home {n}" in taken or any(a.startswith(f"Home {n} ") for a in area_names):
        n += 1
    return f"Home {n}"


AREA_SENSORS = {"temperature": "temperature_entity_id", "humidity": "humidity_entity_id"}
"""Room variable -> the area registry field naming the area's own sensor for it."""


def link_room_sensors(
    hass: HomeAssistant, entry: ConfigEntry, engine: HomeEngine, area_of: dict[str, str]
) -> int:
    """Make each simulated room's temperature and humidity sensors its area's own (HA's intent
    for "what is the temperature in the <area>" reads the area's temperature sensor, else a
    climate entity there). An area whose sensor the user picked (one that still exists and is
    not this entry's) keeps it. Call once the sensors have states: HA checks their device class.
    Returns how many links were set."""
    areas, entities = ar.async_get(hass), er.async_get(hass)
    linked = 0
    for room in engine.simulated_rooms():
        area = areas.async_get_area(area_of[room])
        if area is None:
            continue
        changes: dict[str, str] = {}
        for variable, field in AREA_SENSORS.items():
            entity_id = entities.async_get_entity_id(
                "sensor", DOMAIN, unique_id(entry.entry_id, room_did(room), variable)
            )
            current = getattr(area, field)
            ours = (
                current is not None
                and (e := entities.async_get(current)) is not None
                and e.config_entry_id == entry.entry_id
            )
            if (
                entity_id is not None
                and current != entity_id
                and hass.states.get(entity_id) is not None
                and (current is None or ours or hass.states.get(current) is None)
            ):
                changes[field] = entity_id
        if changes:
            areas.async_update(area.id, **changes)  # type: ignore[arg-type]
            linked += len(changes)
    return linked


def apply_entity_settings(
    hass: HomeAssistant, entry: ConfigEntry, engine: HomeEngine, plan: tuple[list[Any], list[Any]]
) -> int:
    """Give the entities of devices whose source home said so (a twin of a real HA home) their
    aliases and Assist exposure: aliases to a device's own entity (the one of its source
    entity's domain, else each of its rich entities), exposure to every entity of the device.
    Devices that say nothing (SMH's own homes) keep HA's defaults. Call once the entities are
    registered. Returns how many entities were changed."""
    riches, mirrors = plan
    told = {
        did: d.userdata
        for did in engine.device_ids()
        if (d := engine.device(did)).userdata.aliases is not None or d.userdata.exposed is not None
    }
    if not told:
        return 0
    registry = er.async_get(hass)
    rich_of: dict[str, list[Any]] = {}
    mirrors_of: dict[str, list[Any]] = {}
    for group, parts in ((rich_of, riches), (mirrors_of, mirrors)):
        for part in parts:
            if part.did in told:
                group.setdefault(part.did, []).append(part)
    changed = 0
    for did, userdata in told.items():
        own = did.split(".", 1)[0]
        rich = rich_of.get(did, [])
        named = [r for r in rich if r.platform == own] or rich
        for part in [*rich, *mirrors_of.get(did, [])]:
            entity_id = registry.async_get_entity_id(
                part.platform, DOMAIN, unique_id(entry.entry_id, did, part.key)
            )
            if entity_id is None:
                continue
            if userdata.aliases is not None and part in named:
                registry.async_update_entity(entity_id, aliases=set(userdata.aliases))
            if userdata.exposed is not None and keeps_settings(hass):
                async_expose_entity(hass, EXPOSE_TO, entity_id, userdata.exposed)
            changed += 1
    return changed


def prune_entities(hass: HomeAssistant, entry: ConfigEntry, provided: set[tuple[str, str]]) -> int:
    """Remove the entry's registered entities that are not ``provided`` ((domain, unique id)
    pairs): generic entities of attributes a rich entity now shows, entities of an earlier home.
    Returns how many were removed."""
    registry = er.async_get(hass)
    stale = [
        e.entity_id
        for e in er.async_entries_for_config_entry(registry, entry.entry_id)
        if (e.domain, e.unique_id) not in provided
    ]
    for entity_id in stale:
        registry.async_remove(entity_id)
    return len(stale)


_ACRONYMS = {"ac": "AC", "tv": "TV", "rvc": "RVC", "led": "LED"}


def readable_model(type_id: str) -> str:
    """A catalog type id as people write it (``floor_ac`` -> "Floor AC"); HA shows it as the
    device's model, with the raw id as its model id."""
    return " ".join(_ACRONYMS.get(w, w.capitalize()) for w in type_id.split("_") if w)
