"""What a twin records of the Home Assistant it was made from: how each of its devices maps
onto its own entity there, so that the tasks written for it can be ones that HA runs (issue 39;
the check is :mod:`.twin_runnable`).

``smh home from-ha`` holds HA's states and registries when it makes the twin, so it binds each
device to its entity by the rules ``smh ha map --twin`` uses (:func:`.twin_map.twin_mapping`,
every high-risk device opted in: leaving those out is the user's choice at run time, not the
home's) and writes the entries into the device (``userdata.ha_mapping``, :func:`with_record`).
The same HA gives the same entries. :func:`implied_mapping` reads them back as a mapping.
``smh home probe`` keeps them (it changes how a setting moves, not where it lives in HA).

A twin is a home with a record on some device. A device of a twin without one (added by hand)
maps nothing, and a record that does not read as mapping entries is refused, named: neither
lets an unrunnable task pass as runnable. Homes without a record (SMH's own) are no twins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from smh_core.homeenv.model import Home
from smh_core.suites.for_home.base import is_twin
from smh_core.task.model import HomeRef

from .ha_inventory import Inventory
from .hardware_map import AttributeMap, HardwareMapping
from .twin_map import high_risk, twin_mapping

PAIRED = ("values", "set")
"""Entry fields that map home values (text, numbers, booleans) to something: JSON would turn
their keys into text, so the record keeps them as ``[home value, HA value]`` pairs."""


class TwinRecordError(ValueError):
    """A twin's record of its HA does not read as mapping entries (the message names where)."""


def recorded(entries: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """A device's mapping entries (locator -> entry, as a mapping file has them) as the twin
    keeps them in JSON."""
    out: dict[str, dict[str, Any]] = {}
    for locator, entry in entries.items():
        kept = dict(entry)
        for key in PAIRED:
            value = kept.get(key)
            if isinstance(value, Mapping) and not (key == "set" and "service" in value):
                kept[key] = [[k, v] for k, v in value.items()]
        out[locator] = kept
    return out


def entries_of(did: str, record: Mapping[str, Any]) -> dict[str, AttributeMap]:
    """A device's record read back as mapping entries; :class:`TwinRecordError` naming the
    device and locator of one that does not read."""
    out = {}
    for locator, kept in record.items():
        if not isinstance(kept, Mapping):
            raise TwinRecordError(f"{did}: ha_mapping.{locator} is not a mapping entry: {kept!r}")
        entry = dict(kept)
        for key in PAIRED:
            value = entry.get(key)
            if isinstance(value, list):
                if not all(isinstance(p, list) and len(p) == 2 for p in value):
                    raise TwinRecordError(
                        f"{did}: ha_mapping.{locator}.{key} is not a list of [home, HA] pairs"
                    )
                entry[key] = {_key(p[0]): p[1] for p in value}
        try:
            out[locator] = AttributeMap.model_validate(entry)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(x) for x in first["loc"])
            raise TwinRecordError(
                f"{did}: ha_mapping.{locator} is not a mapping entry ({where}: {first['msg']})"
            ) from None
    return out


def _key(value: Any) -> Any:
    """A pair's home value as a dict key (a list, which JSON may hold, is not hashable)."""
    return tuple(value) if isinstance(value, list) else value


def with_record(home: Home, inventory: Inventory) -> Home:
    """``home`` (a twin) with each device's entries as ``smh ha map --twin`` binds them on the HA
    ``inventory`` describes, high-risk devices included; ``{}`` for a device nothing binds."""
    risky = sorted(d.did for d in home.devices if high_risk(d))
    proposal = twin_mapping(home, HomeRef(file="twin.json"), inventory, risky)
    entries = proposal.devices()
    out = home.model_copy(deep=True)
    for device in out.devices:
        kept = recorded(entries.get(device.did, {}))
        if entries_of(device.did, kept) != {
            loc: AttributeMap.model_validate(e) for loc, e in entries.get(device.did, {}).items()
        }:
            raise RuntimeError(f"{device.did}: its mapping entries do not survive the record")
        device.userdata.ha_mapping = kept
    return out


def implied_mapping(home: Home, ref: HomeRef | None = None) -> HardwareMapping | None:
    """The mapping the twin's record implies (every device opted in), or None for a home that
    is no twin. A device of the twin without a record maps nothing."""
    if not is_twin(home):
        return None
    devices = {
        d.did: entries_of(d.did, d.userdata.ha_mapping or {})
        for d in home.devices
        if d.userdata.ha_mapping
    }
    # built without validation: a twin whose devices map nothing is still a mapping (of none),
    # where a mapping file must name a device; its entries were validated one by one above
    return HardwareMapping.model_construct(
        home=ref or HomeRef(file="twin.json"), devices=devices, skip=[]
    )
