"""Mirror the home's layout into HA's registries: floors, areas (nested rooms carry a label
naming their parent room), one device entry per HomeEnv device in its room's area and one
per simulated room (its climate sensors); and drop registry entities the home no longer
provides."""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.helpers import label_registry as lr

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.names import display_names

from .const import DOMAIN
from .room import room_device_id

MANUFACTURER = "SMH simulated home"


def mirror_layout(hass: HomeAssistant, entry: ConfigEntry, engine: HomeEngine) -> dict[str, str]:
    """Create/reuse floors, areas and devices; returns room id -> area id."""
    floors = fr.async_get(hass)
    areas = ar.async_get(hass)
    labels = lr.async_get(hass)
    devices = dr.async_get(hass)
    rooms = {r.id: r for r in engine.rooms()}
    area_of: dict[str, str] = {}
    for room in rooms.values():
        floor_name = room.floor_name or f"Floor {room.floor}"
        floor = floors.async_get_floor_by_name(floor_name) or floors.async_create(floor_name, level=room.floor)
        area_labels: set[str] = set()
        if room.parent:
            parent_name = f"Inside {rooms[room.parent].name}"
            label = labels.async_get_label_by_name(parent_name) or labels.async_create(parent_name)
            area_labels.add(label.label_id)
        area = areas.async_get_area_by_name(room.name)
        if area is None:
            area = areas.async_create(room.name, floor_id=floor.floor_id, labels=area_labels)
        else:
            area = areas.async_update(area.id, floor_id=floor.floor_id, labels=area.labels | area_labels)
        area_of[room.id] = area.id
    names = display_names(engine.home)  # unique in the home: "Living Room Air Conditioner 2"
    for did in engine.device_ids():
        device = engine.device(did)
        entry_dev = devices.async_get_or_create(
            config_entry_id=entry.entry_id, identifiers={(DOMAIN, f"{entry.entry_id}_{did}")},
            name=names[did], manufacturer=MANUFACTURER, model=readable_model(device.userdata.subcategory),
            model_id=device.userdata.subcategory,
            serial_number=did)
        area_id = area_of.get(device.userdata.room) if device.userdata.room is not None else None
        if entry_dev.area_id != area_id:  # a device in no room has no area (and loses a stale one)
            devices.async_update_device(entry_dev.id, area_id=area_id)
    for room in engine.simulated_rooms():
        entry_dev = devices.async_get_or_create(
            config_entry_id=entry.entry_id, identifiers={(DOMAIN, room_device_id(entry.entry_id, room))},
            name=f"{rooms[room].name} climate", manufacturer=MANUFACTURER, model="Simulated room")
        if entry_dev.area_id != area_of[room]:
            devices.async_update_device(entry_dev.id, area_id=area_of[room])
    return area_of


def prune_entities(hass: HomeAssistant, entry: ConfigEntry, provided: set[tuple[str, str]]) -> int:
    """Remove the entry's registered entities that are not ``provided`` ((domain, unique id)
    pairs): generic entities of attributes a rich entity now shows, entities of an earlier home.
    Returns how many were removed."""
    registry = er.async_get(hass)
    stale = [e.entity_id for e in er.async_entries_for_config_entry(registry, entry.entry_id)
             if (e.domain, e.unique_id) not in provided]
    for entity_id in stale:
        registry.async_remove(entity_id)
    return len(stale)


_ACRONYMS = {"ac": "AC", "tv": "TV", "rvc": "RVC", "led": "LED"}


def readable_model(type_id: str) -> str:
    """A catalog type id as people write it (``floor_ac`` -> "Floor AC"); HA shows it as the
    device's model, with the raw id as its model id."""
    return " ".join(_ACRONYMS.get(w, w.capitalize()) for w in type_id.split("_") if w)
