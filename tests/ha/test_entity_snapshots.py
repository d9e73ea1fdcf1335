"""Every catalog device type as HA entities, held as syrupy snapshots (as HA core holds its
integrations' entities): the entities each type becomes, with their state, attributes, device
class, unit, entity category and supported features, on a home with one device of each type.

Why snapshots: the mapping from the catalog to HA entities is data (``entity_plan``), and a
change to it -- a renamed attribute, a lost feature bit, a different device class -- changes what
every user's dashboards and automations see. The rich tests check behaviour; these catch the
change nobody meant. A change that is meant is accepted with ``--snapshot-update`` and reviewed
in the diff of ``__snapshots__``.

One snapshot serves both lanes that run ``tests/ha`` (HA 2026.2 and 2026.10): what differs
between HA releases and is HA's, not SMH's, is left out -- entity ids (2026.10 puts the area in a
new entity's id; the unique id is SMH's), enum-typed keys and units (read as their strings), and
the attributes HA derives and has added or dropped between them (``is_closed``, the mired ones).
"""

from __future__ import annotations

from enum import Flag, StrEnum
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from syrupy.extensions.amber import AmberSnapshotExtension

from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry

_VOLATILE = frozenset(
    {"last_changed", "last_updated", "last_reported", "context", "entity_picture", "access_token"}
)
"""State attributes that change from run to run (times, tokens), never part of a snapshot."""
_HA_RELEASE_DEPENDENT = frozenset({"is_closed", "color_temp", "min_mireds", "max_mireds"})
"""Attributes HA derives from SMH's values and has added (``is_closed``, 2026.10) or dropped (the
mired ones, for kelvin) between the releases the lanes run."""


class _OneFolder(AmberSnapshotExtension):
    """``tests/ha/__snapshots__`` in every lane (the plugin for HA 2026.2 puts snapshots in
    ``snapshots/``, the one for 2026.10 in syrupy's ``__snapshots__``)."""

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(Path(test_location.filepath).parent / "__snapshots__")


@pytest.fixture
def snapshot(snapshot):
    return snapshot.use_extension(_OneFolder)


def _home(kind: str) -> Home:
    """One device of every type of the ``kind`` catalog, in one room, with its default values."""
    devices = [
        instantiate(t, did=str(3000 + i), room="r1", kind=kind)
        for i, t in enumerate(sorted(load_catalog(kind)))
    ]
    return Home(
        name=f"{kind}-catalog",
        rooms=[Room(id="r1", type="living_room", name="Living Room")],
        devices=devices,
    )


def _entities(hass: HomeAssistant, entry_id: str) -> dict[str, list[dict[str, Any]]]:
    """The entry's entities grouped by the device they mirror (its did), each as what a user sees."""
    registry = er.async_get(hass)
    out: dict[str, list[dict[str, Any]]] = {}
    for entity in sorted(
        er.async_entries_for_config_entry(registry, entry_id), key=lambda e: e.unique_id
    ):
        did = entity.unique_id.removeprefix(f"{entry_id}_").split("_", 1)[0]
        state = hass.states.get(entity.entity_id)
        out.setdefault(did, []).append(
            {
                "unique_id": entity.unique_id.removeprefix(f"{entry_id}_"),
                "device_class": entity.device_class or entity.original_device_class,
                "unit": _plain(entity.unit_of_measurement),
                "entity_category": entity.entity_category,
                "capabilities": _plain(entity.capabilities),
                "state": state.state if state else None,
                "attributes": _plain(
                    {
                        k: v
                        for k, v in (state.attributes if state else {}).items()
                        if k not in _VOLATILE | _HA_RELEASE_DEPENDENT
                    }
                ),
            }
        )
    return out


def _plain(value: Any) -> Any:
    """``value`` with string-enum keys as plain strings, keys sorted: HA 2026.10 keys attributes
    with ``EntityStateAttribute`` members where 2026.2 used strings, the same names either way."""
    if isinstance(value, dict):
        return {
            str(k): _plain(v)
            for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))
            if str(k) not in _HA_RELEASE_DEPENDENT
        }
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(
        value, Flag
    ):  # feature bits by name: Python 3.14 writes a composite flag's repr without them
        return [m.name for m in type(value) if m.value and m in value]
    if isinstance(value, StrEnum):
        return str(
            value
        )  # a unit or a mode: HA 2026.10 gives UnitOfDensity members, 2026.2 strings
    return value


@pytest.mark.parametrize("kind", ["homeenv", "matter"])
async def test_every_catalog_type_as_ha_entities(hass: HomeAssistant, kind: str, snapshot) -> None:
    home = _home(kind)
    entry = await setup_home_entry(hass, home, time_scale=0.0, file=f"{kind}_catalog.json")
    entities = _entities(hass, entry.entry_id)
    assert set(entities) == {d.did for d in home.devices}, "a catalog type became no entity"
    for type_name, device in zip(sorted(load_catalog(kind)), home.devices, strict=True):
        assert entities[device.did] == snapshot(name=f"{kind}-{type_name}")
