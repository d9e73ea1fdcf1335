"""What a live Home Assistant has: areas, devices and entities with their current states.

``smh ha map`` matches a task home's devices against this. It is read over HA's websocket API
(the registries are only reachable that way) in four commands, and kept as plain frozen data so
the matching is a pure function of it (tests build an inventory from a live ``hass``, or by hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .websocket import WsCall

UNSHOWN = ("unavailable", "unknown")


@dataclass(frozen=True)
class HaEntity:
    """One enabled entity: its registry entry joined with its state."""

    entity_id: str
    name: str
    """The name HA shows (``friendly_name``)."""
    device_id: str | None
    area: str | None
    """Its area's name: the entity's own area, else its device's."""
    platform: str = ""
    translation_key: str | None = None
    state: str = ""
    attributes: Mapping[str, Any] = field(default_factory=dict)

    @property
    def domain(self) -> str:
        return self.entity_id.split(".", 1)[0]

    @property
    def device_class(self) -> str | None:
        return self.attributes.get("device_class")

    @property
    def features(self) -> int:
        return int(self.attributes.get("supported_features") or 0)

    def key_words(self) -> str:
        """What says which of a device's entities this is (``power``, ``spin speed``): the
        translation key, else the entity id's last part."""
        return (self.translation_key or self.entity_id.split(".", 1)[1]).replace("_", " ")


@dataclass(frozen=True)
class HaDevice:
    id: str
    name: str
    area: str | None
    model: str | None = None
    manufacturer: str | None = None


@dataclass(frozen=True)
class Unit:
    """What one task device part can be matched to: an HA device with its entities, or an entity
    that belongs to no device."""

    key: str
    """The HA device id, or the entity id of a lone entity."""
    name: str
    area: str | None
    entities: tuple[HaEntity, ...]

    def names(self) -> list[str]:
        """The unit's own name and its entities' names (a renamed entity keeps its device's name)."""
        return list(dict.fromkeys([self.name, *(e.name for e in self.entities)]))

    def of_domain(self, *domains: str) -> list[HaEntity]:
        return [e for e in self.entities if e.domain in domains]

    def first(self, domain: str) -> HaEntity | None:
        """The unit's first entity of ``domain`` (entity id order), if any."""
        return next(iter(self.of_domain(domain)), None)

    def describe(self) -> str:
        ids = ", ".join(e.entity_id for e in self.entities[:4]) + (
            ", ..." if len(self.entities) > 4 else ""
        )
        return f"{self.name!r} [{ids}]"


@dataclass(frozen=True)
class Inventory:
    devices: Mapping[str, HaDevice]
    entities: Mapping[str, HaEntity]

    def units(self) -> list[Unit]:
        """Entities grouped by device (devices in name order), then the lone entities."""
        grouped: dict[str, list[HaEntity]] = {}
        lone: list[Unit] = []
        for entity in sorted(self.entities.values(), key=lambda e: e.entity_id):
            if entity.device_id is not None and entity.device_id in self.devices:
                grouped.setdefault(entity.device_id, []).append(entity)
            else:
                lone.append(Unit(entity.entity_id, entity.name, entity.area, (entity,)))
        units = [
            Unit(d, self.devices[d].name, self.devices[d].area, tuple(es))
            for d, es in grouped.items()
        ]
        return sorted(units, key=lambda u: (u.name.casefold(), u.key)) + lone


def inventory_from(
    areas: list[dict[str, Any]],
    devices: list[dict[str, Any]],
    entities: list[dict[str, Any]],
    states: list[dict[str, Any]],
) -> Inventory:
    """Join HA's registry listings and states (as the websocket API returns them); an entity
    with a state and no registry entry is in no device and no area. Disabled and hidden
    entities and entities without a state are left out: nothing can be read from them."""
    # an area with no name (a copy of .storage can hold one) is known by its id, as in a twin
    area_name = {a["area_id"]: a.get("name") or a["area_id"] for a in areas}
    by_device = {}
    for d in devices:
        if d.get("disabled_by") or d.get("entry_type") == "service":
            continue
        name = d.get("name_by_user") or d.get("name") or d["id"]
        by_device[d["id"]] = HaDevice(
            d["id"], name, area_name.get(d.get("area_id")), d.get("model"), d.get("manufacturer")
        )
    state_of = {s["entity_id"]: s for s in states}
    registered = {e["entity_id"] for e in entities}
    # an entity without a unique id (YAML, an old platform) has a state but no registry entry
    entities = [*entities, *({"entity_id": s} for s in sorted(state_of.keys() - registered))]
    out = {}
    for e in entities:
        state = state_of.get(e["entity_id"])
        if state is None or e.get("disabled_by") or e.get("hidden_by"):
            continue
        device = by_device.get(e.get("device_id") or "")
        area = area_name.get(e.get("area_id")) or (device.area if device else None)
        attributes = dict(state.get("attributes") or {})
        name = (
            attributes.get("friendly_name")
            or e.get("name")
            or e.get("original_name")
            or e["entity_id"]
        )
        out[e["entity_id"]] = HaEntity(
            e["entity_id"],
            str(name),
            device.id if device else None,
            area,
            e.get("platform", ""),
            e.get("translation_key"),
            str(state.get("state")),
            attributes,
        )
    return Inventory(by_device, out)


async def read_inventory(call: WsCall) -> Inventory:
    """The inventory of the HA behind ``call`` (:func:`smh_core.ha.websocket.connect`)."""
    areas = await call({"type": "config/area_registry/list"})
    devices = await call({"type": "config/device_registry/list"})
    entities = await call({"type": "config/entity_registry/list"})
    states = await call({"type": "get_states"})
    return inventory_from(areas, devices, entities, states)
