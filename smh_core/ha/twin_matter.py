"""The devices Home Assistant's ``matter`` integration serves, as the Matter devices they are
(issue 39: SimuHome's query types for the twin of a Matter home).

SimuHome's query types act on Matter clusters (``1.OnOff.On``, ``1.FanControl.PercentSetting``,
an appliance's ``1.OperationalState``), so their twin must hold Matter devices, not HA's entities
of them. HA's registries say which HA device is which Matter node (the device's identifier
``deviceid_<fabric>-<node>-MatterNodeDevice``), and the integration's diagnostics (the JSON its
"Download diagnostics" gives, or ``GET /api/diagnostics/config_entry/<entry>``) list every
node's attributes at ``endpoint/cluster/attribute``, device types and server clusters included.
A node becomes a device of the one Matter type of SMH's catalog that fits it: the same device
endpoints, each listing the type's Matter device type, serving each of its clusters and
reporting each of its attributes with a value of the type's kind. Its values are the node's (the
catalog keeps Matter's encodings, as the node does); its id is the HA device's id, its name and
area the HA device's. The task mapping then binds each cluster attribute onto the device's
entities with the Matter rules ``smh ha map`` uses (:mod:`.map_rules`).

Fail closed: a node no type fits, or two types fit and the device's name and model name neither
(a Fan endpoint with a humidity sensor is a humidifier or a dehumidifier), a device behind a
Matter bridge (its endpoints are not a node's), a device whose node the diagnostics lack, each
stays a set of entity devices, with the reason in the twin's report. Nothing is guessed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from sim_devices.catalog import DeviceType, build_device, load_catalog
from smh_core.homeenv.model import Device

from .map_rules import words
from .websocket import WsCall

DOMAIN = "matter"
DEVICE_ID = "deviceid_"
"""HA's prefix of a Matter device's identifier (``deviceid_<fabric>-<node>-<postfix>``)."""
NODE_DEVICE = "MatterNodeDevice"
"""The postfix of a node's own device; a bridged endpoint's device has the endpoint number."""
DESCRIPTOR, DEVICE_TYPE_LIST, SERVER_LIST = 29, 0, 1
BASIC_INFORMATION, VENDOR_ID, PRODUCT_ID = 40, 2, 4
ROOT = 0
INFRASTRUCTURE = {3, 4, 5, 29, 30, 98}
"""Clusters every endpoint may serve that no device type acts through: Identify, Groups, Scenes,
Descriptor, Binding, Scenes Management."""


class MatterSourceError(ValueError):
    """The Matter diagnostics cannot be read (the message names the source and what is wrong)."""


@dataclass(frozen=True)
class MatterNode:
    """One node as HA's Matter diagnostics list it: its attributes by ``ep/cluster/attr``."""

    node_id: int
    attributes: Mapping[str, Any]

    def has(self, endpoint: int, cluster: int, attribute: int) -> bool:
        return f"{endpoint}/{cluster}/{attribute}" in self.attributes

    def value(self, endpoint: int, cluster: int, attribute: int) -> Any:
        return self.attributes.get(f"{endpoint}/{cluster}/{attribute}")

    def endpoints(self) -> list[int]:
        """The device endpoints: every endpoint but the root with a Descriptor."""
        listed = {int(p.split("/", 1)[0]) for p in self.attributes if _is_path(p)}
        return sorted(e for e in listed if e != ROOT and self.has(e, DESCRIPTOR, DEVICE_TYPE_LIST))

    def device_types(self, endpoint: int) -> set[int]:
        """The endpoint's Matter device types (its Descriptor's DeviceTypeList)."""
        out = set()
        for item in self.value(endpoint, DESCRIPTOR, DEVICE_TYPE_LIST) or ():
            kind = item.get("0", item.get("deviceType")) if isinstance(item, Mapping) else None
            if isinstance(kind, int):
                out.add(kind)
        return out

    def servers(self, endpoint: int) -> set[int]:
        """The clusters the endpoint serves (its Descriptor's ServerList)."""
        listed = self.value(endpoint, DESCRIPTOR, SERVER_LIST) or ()
        return {c for c in listed if isinstance(c, int)}


def _is_path(path: str) -> bool:
    parts = path.split("/")
    return len(parts) == 3 and all(p.isdigit() for p in parts)


@dataclass(frozen=True)
class MatterNodes:
    """The nodes of one Matter fabric, by the operational id HA names their devices with."""

    nodes: Mapping[str, MatterNode]
    """``<fabric>-<node>`` (16 hex digits each, as HA writes them) -> the node."""

    def of_identifier(self, identifier: str) -> tuple[MatterNode | None, str]:
        """The node of an HA device identifier (``deviceid_...``) and its postfix
        (:data:`NODE_DEVICE`, or a bridged endpoint's number)."""
        fabric, _, rest = identifier.removeprefix(DEVICE_ID).partition("-")
        node, _, postfix = rest.partition("-")
        return self.nodes.get(f"{fabric}-{node}".upper()), postfix


def operational_id(fabric: int, node_id: int) -> str:
    """How HA names a node (``helpers.get_operational_instance_id``)."""
    return f"{fabric:016X}-{node_id:016X}"


def nodes_from_diagnostics(doc: Any, source: str) -> MatterNodes:
    """The nodes of HA's Matter diagnostics (the whole download, or its ``data``);
    :class:`MatterSourceError` naming ``source`` and the field for anything else."""
    data = doc.get("data", doc) if isinstance(doc, Mapping) else None
    server = data.get("server") if isinstance(data, Mapping) else None
    info = server.get("info") if isinstance(server, Mapping) else None
    fabric = info.get("compressed_fabric_id") if isinstance(info, Mapping) else None
    listed = server.get("nodes") if isinstance(server, Mapping) else None
    if not isinstance(fabric, int) or not isinstance(listed, list):
        raise MatterSourceError(
            f"{source}: not HA's Matter diagnostics (expected data.server.info."
            "compressed_fabric_id and data.server.nodes)"
        )
    nodes = {}
    for i, raw in enumerate(listed):
        node_id = raw.get("node_id") if isinstance(raw, Mapping) else None
        attributes = raw.get("attributes") if isinstance(raw, Mapping) else None
        if not isinstance(node_id, int) or not isinstance(attributes, Mapping):
            raise MatterSourceError(
                f"{source}: data.server.nodes[{i}]: expected node_id and attributes"
            )
        nodes[operational_id(fabric, node_id)] = MatterNode(node_id, dict(attributes))
    return MatterNodes(nodes)


def merged(found: list[MatterNodes]) -> MatterNodes:
    """The nodes of several Matter integrations (fabrics) as one."""
    return MatterNodes({k: v for f in found for k, v in f.nodes.items()})


# ---------------------------------------------------------------------------- fitting
def _endpoints(dt: DeviceType) -> dict[int, list[Any]]:
    """The type's endpoints -> its components with a Matter cluster there."""
    out: dict[int, list[Any]] = {}
    for comp in dt.components:
        if comp.matter_cluster is not None:
            out.setdefault(int(comp.name.split(".", 1)[0]), []).append(comp)
    return out


def _misfit(dt: DeviceType, node: MatterNode) -> str | None:
    """Why the node is no device of type ``dt`` (its structure: endpoints, device types,
    clusters, attributes present), or None."""
    if dt.matter is None:
        return "no Matter type"
    endpoints = _endpoints(dt)
    if sorted(endpoints) != node.endpoints():
        return f"endpoints {node.endpoints()}, not {sorted(endpoints)}"
    for ep, comps in endpoints.items():
        wanted = dt.matter.device_types.get(ep)
        if wanted is not None and wanted not in node.device_types(ep):
            return f"endpoint {ep} is no device type {wanted:#06x}"
        for comp in comps:
            if comp.matter_cluster not in node.servers(ep):
                return f"endpoint {ep} serves no {comp.name.split('.', 1)[1]}"
            for attr in comp.attributes:
                if attr.matter_id is not None and not node.has(
                    ep, comp.matter_cluster, attr.matter_id
                ):
                    return f"{comp.name}.{attr.name} is not reported"
    return None


def _clusters(dt: DeviceType) -> int:
    return sum(len(comps) for comps in _endpoints(dt).values())


def _values(dt: DeviceType, node: MatterNode) -> dict[str, Any]:
    """The node's value of every attribute of the type, by locator."""
    out = {}
    for ep, comps in _endpoints(dt).items():
        for comp in comps:
            for attr in comp.attributes:
                if attr.matter_id is not None:
                    out[f"{comp.name}.{attr.name}"] = node.value(
                        ep, comp.matter_cluster, attr.matter_id
                    )
    return out


def _extra_clusters(dt: DeviceType, node: MatterNode) -> list[str]:
    """``ep/cluster`` of the clusters the node serves that the type does not simulate."""
    out = []
    for ep, comps in _endpoints(dt).items():
        modelled = {c.matter_cluster for c in comps}
        out += [f"{ep}/{c}" for c in sorted(node.servers(ep) - modelled - INFRASTRUCTURE)]
    return out


@dataclass(frozen=True)
class Fitted:
    """A node as a twin device, or why it is none (``device`` None)."""

    device: Device | None
    why: str
    """What the report says: the type and what it leaves out, or why no type was taken."""


def fit(node: MatterNode, did: str, name: str, model: str | None, room: str | None) -> Fitted:
    """The node as a device of the one catalog Matter type that fits it (the most clusters; among
    equals the one the device's name or model names), with the node's values and vendor and
    product ids, or why none is taken."""
    catalog = load_catalog("matter")
    fits = [dt for _, dt in sorted(catalog.items()) if _misfit(dt, node) is None]
    if not fits:
        types = ", ".join(
            f"{t:#06x}" for ep in node.endpoints() for t in sorted(node.device_types(ep))
        )
        return Fitted(
            None,
            f"no Matter type of SMH's catalog fits its node (endpoints {node.endpoints()}, "
            f"device types {types or 'none'})",
        )
    # the most specific: a humidifier's node (a Fan with a humidity sensor) also holds a fan's
    most = max(_clusters(dt) for dt in fits)
    fits = [dt for dt in fits if _clusters(dt) == most]
    if len(fits) > 1:
        said = words(f"{name} {model or ''}")
        named = [dt for dt in fits if words(dt.subcategory) <= said]
        if len(named) != 1:
            kinds = " or ".join(dt.subcategory.replace("_", " ") for dt in fits)
            return Fitted(
                None,
                f"its node fits a {kinds} alike, and its name and model name "
                f"{'several of them' if named else 'neither'}",
            )
        fits = named
    dt = fits[0]
    try:
        device = build_device(dt, did=did, room=room, name=name, values=_values(dt, node))
    except ValueError as e:
        return Fitted(None, f"its node's values do not fit a {dt.subcategory} ({e})")
    assert device.matter is not None
    vendor, product = (node.value(ROOT, BASIC_INFORMATION, a) for a in (VENDOR_ID, PRODUCT_ID))
    device.matter.vendor_id = vendor if isinstance(vendor, int) else device.matter.vendor_id
    device.matter.product_id = product if isinstance(product, int) else device.matter.product_id
    extra = _extra_clusters(dt, node)
    note = f"; its clusters {', '.join(extra)} not simulated" if extra else ""
    return Fitted(device, f"a Matter {dt.subcategory.replace('_', ' ')} from its node{note}")


def matter_identifier(device: Mapping[str, Any]) -> str | None:
    """An HA device's Matter identifier (``deviceid_...``), or None for a non-Matter device."""
    for pair in device.get("identifiers") or ():
        if (
            isinstance(pair, (list, tuple))
            and len(pair) == 2
            and pair[0] == DOMAIN
            and str(pair[1]).startswith(DEVICE_ID)
        ):
            return str(pair[1])
    return None


def twin_device(device: Mapping[str, Any], nodes: MatterNodes, room: str | None) -> Fitted | None:
    """The HA ``device`` (a device registry entry) as a Matter twin device, why it stays its
    entities, or None for a device HA's matter integration does not serve."""
    identifier = matter_identifier(device)
    if identifier is None:
        return None
    node, postfix = nodes.of_identifier(identifier)
    if node is None:
        return Fitted(None, "its Matter node is not in HA's Matter diagnostics")
    if postfix != NODE_DEVICE:
        return Fitted(
            None,
            f"a device behind a Matter bridge (endpoint {postfix}): not yet twinned as a "
            "Matter device",
        )
    name = str(device.get("name_by_user") or device.get("name") or device["id"])
    model = device.get("model")
    return fit(node, str(device["id"]), name, str(model) if model else None, room)


async def read_matter_nodes(call: WsCall, url: str, token: str) -> MatterNodes:
    """The nodes of every loaded ``matter`` integration of the HA behind ``call`` (at ``url``),
    from its diagnostics (REST, an admin's ``token``); :class:`MatterSourceError` where there is
    none or HA will not give them."""
    entries = await call({"type": "config_entries/get", "domain": DOMAIN})
    loaded = sorted(str(e["entry_id"]) for e in entries or () if e.get("state") == "loaded")
    if not loaded:
        raise MatterSourceError(
            f"{url}: no loaded matter integration: no device to twin as a Matter device"
        )
    found = []
    async with aiohttp.ClientSession() as session:
        for entry in loaded:
            where = f"{url.rstrip('/')}/api/diagnostics/config_entry/{entry}"
            headers = {"Authorization": f"Bearer {token}"}
            async with session.get(where, headers=headers) as answer:
                if answer.status != 200:
                    raise MatterSourceError(
                        f"{where}: HA answered {answer.status} (the matter integration's "
                        "diagnostics need HA's diagnostics integration, which default_config "
                        "loads, and an admin's token)"
                    )
                doc = await answer.json()
            found.append(nodes_from_diagnostics(doc, where))
    return merged(found)


def matter_nodes_file(path: Path) -> MatterNodes:
    """The nodes of a Matter diagnostics download (offline); :class:`MatterSourceError` naming
    the file for one missing or not JSON."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MatterSourceError(f"{path}: not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise MatterSourceError(f"{path}: not readable as JSON ({e})") from None
    return nodes_from_diagnostics(doc, str(path))
