"""Engine devices as Matter nodes, in python-matter-server's wire form (``MatterNodeData``).

A device whose type is built from Matter clusters (components named ``<endpoint>.<Cluster>``
with ``matter_cluster`` ids, attributes with ``matter_id``) becomes one node:

* endpoint 0 is the root node (device type 0x0016) with Descriptor (29) and Basic Information
  (40): vendor 0xFFF1 (the CSA test vendor), product name = the device's name, node label =
  its display name, unique in the home and saying the room ("Living Room Air Conditioner 2",
  :func:`smh_core.homeenv.names.display_names`), serial number = the device id. Matter has no
  room attribute a controller reads as an area (Home Assistant's ``matter`` integration names
  the device from the node label and assigns no area), so the room travels in the label;
* each device endpoint carries a Descriptor (its Matter device type, the server clusters) and
  the device's clusters, with every attribute at ``endpoint/cluster/attribute``;
* every cluster also carries the global attributes: AttributeList, AcceptedCommandList,
  GeneratedCommandList, FeatureMap and ClusterRevision. Feature maps are derived from the
  attributes a cluster has (a thermostat with a cooling setpoint has the Cooling feature);
  GeneratedCommandList names the responses the cluster's commands produce;
* mandatory attributes that are constant in the simulation and not modelled by the catalog are
  filled in: an operational-state cluster's OperationalStateList (from the ``options`` of its
  OperationalState attribute) and OperationalError (no error), which Home Assistant needs to
  show the appliance's state;
* a Fan Control cluster with percentages but no speeds (the catalog's fans) is served with the
  MultiSpeed feature: SpeedMax 100, and SpeedSetting / SpeedCurrent mirroring PercentSetting /
  PercentCurrent (with SpeedMax 100 the Matter spec makes a speed equal its percentage). Home
  Assistant offers a fan's percentage only with MultiSpeed; writing SpeedSetting writes
  PercentSetting;
* an endpoint whose clusters make it also a Thermostat or an Electrical Sensor (the heat pump,
  whose Thermostat and power measurement share its endpoint) lists those device types after
  its own in the Descriptor's DeviceTypeList: clients match device types, and Home Assistant
  offers a climate entity only on a Thermostat or Room Air Conditioner endpoint.

Values are the engine's own, which the Matter catalog already stores in Matter's encodings
(0.01 °C, 0.01 %, levels 1-254, enums as ints), so no conversion happens on the wire.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.names import display_names

ROOT_NODE_DEVICE_TYPE = 0x0016
DESCRIPTOR = 29
BASIC_INFORMATION = 40
GENERATED_COMMANDS, ACCEPTED_COMMANDS, EVENT_LIST, ATTRIBUTE_LIST, FEATURE_MAP, CLUSTER_REVISION = (
    65528,
    65529,
    65530,
    65531,
    65532,
    65533,
)
GLOBAL_ATTRIBUTES = [
    GENERATED_COMMANDS,
    ACCEPTED_COMMANDS,
    ATTRIBUTE_LIST,
    FEATURE_MAP,
    CLUSTER_REVISION,
]
TEST_VENDOR_ID = 0xFFF1
OPERATIONAL_STATE, RVC_OPERATIONAL_STATE = 96, 97
OPERATIONAL_STATE_LIST, OPERATIONAL_STATE_ATTR, OPERATIONAL_ERROR = 3, 4, 5
THERMOSTAT, ELECTRICAL_POWER_MEASUREMENT = 513, 144
FAN_CONTROL, PERCENT_SETTING, PERCENT_CURRENT, SPEED_MAX, SPEED_SETTING, SPEED_CURRENT = (
    514,
    2,
    3,
    4,
    5,
    6,
)
THERMOSTAT_DEVICE_TYPE, ROOM_AIR_CONDITIONER_DEVICE_TYPE, ELECTRICAL_SENSOR_DEVICE_TYPE = (
    0x0301,
    0x0072,
    0x0510,
)
COMMISSIONED = datetime(2025, 1, 1, tzinfo=UTC).isoformat()

# Cluster revisions the attribute sets follow (Matter 1.3 data model).
_REVISIONS = {
    6: 6,
    8: 6,
    29: 2,
    40: 3,
    258: 5,
    513: 6,
    514: 4,
    96: 2,
    80: 2,
    89: 3,
    84: 3,
    85: 3,
    97: 2,
    1026: 4,
    1029: 3,
    1066: 3,
    1067: 3,
    144: 1,
    145: 1,
    156: 1,
    82: 2,
    83: 1,
    74: 1,
    86: 1,
    87: 1,
    1283: 1,
    1284: 1,
    47: 2,
    152: 3,
    1280: 1,
    1296: 1,
    1293: 1,
    1291: 1,
    1292: 1,
    1285: 1,
    1286: 1,
}

# Responses a cluster's commands generate (GeneratedCommandList): OperationalCommandResponse,
# ChangeToModeResponse, ChangeChannelResponse, PlaybackResponse, SendKeyResponse.
_GENERATED = {
    96: [4],
    97: [4],
    81: [1],
    82: [1],
    84: [1],
    85: [1],
    89: [1],
    1284: [1],
    1286: [10],
    1289: [1],
}
# Device types an endpoint also takes on when it serves these clusters (unless it already is one).
_COMPANION_TYPES = (
    (
        THERMOSTAT,
        THERMOSTAT_DEVICE_TYPE,
        {THERMOSTAT_DEVICE_TYPE, ROOM_AIR_CONDITIONER_DEVICE_TYPE},
    ),
    (ELECTRICAL_POWER_MEASUREMENT, ELECTRICAL_SENSOR_DEVICE_TYPE, {ELECTRICAL_SENSOR_DEVICE_TYPE}),
)


def node_id_for(did: str) -> int:
    """A stable node id per device id: the number itself for numeric ids, else a CRC."""
    return (
        int(did)
        if did.isdigit() and 0 < int(did) < 2**32
        else (zlib.crc32(did.encode()) & 0x7FFFFFFF) or 1
    )


def compressed_fabric_id(home_name: str) -> int:
    """Stable per home, so HA recognises the same fabric after a restart."""
    return zlib.crc32(f"smh:{home_name}".encode()) or 1


def _feature_map(cluster: int, attrs: set[int], commands: set[int], explicit: int | None) -> int:
    if explicit is not None:
        return explicit
    if cluster == 8:  # LevelControl: OnOff + Lighting
        return 0b11
    if cluster == 513:  # Thermostat: Heating, Cooling, AutoMode
        fm = (1 if 18 in attrs else 0) | (2 if 17 in attrs else 0)
        return fm
    if cluster == 514:  # FanControl: MultiSpeed, Auto, Rocking, Wind, Step, AirflowDirection
        return (
            (1 if 4 in attrs else 0)
            | (2 if 0 in attrs else 0)
            | (4 if 7 in attrs else 0)
            | (8 if 10 in attrs else 0)
            | (16 if 0 in commands else 0)
            | (32 if 11 in attrs else 0)
        )
    if cluster == 258:  # WindowCovering: Lift, PositionAwareLift
        return 0b101 if 14 in attrs else 0b1
    if cluster == 86:  # TemperatureControl: TemperatureNumber
        return 1 if 0 in attrs else 0
    return 0


@dataclass
class NodeMap:
    """How one device's locators map to Matter paths and commands."""

    did: str
    node_id: int
    path_of: dict[str, str] = field(default_factory=dict)  # locator -> "ep/cluster/attr"
    locator_of: dict[str, str] = field(default_factory=dict)  # path -> locator
    command_of: dict[tuple[int, int, str], str] = field(
        default_factory=dict
    )  # (ep, cluster, name) -> locator
    static: dict[str, Any] = field(default_factory=dict)  # paths with no engine attribute
    mirrors: dict[str, str] = field(
        default_factory=dict
    )  # path -> the locator whose value it repeats

    def paths_showing(self, locator: str) -> list[str]:
        """Every path whose value is this locator's: its own and those mirroring it."""
        own = [self.path_of[locator]] if locator in self.path_of else []
        return own + [path for path, loc in self.mirrors.items() if loc == locator]


def is_matter_device(engine: HomeEngine, did: str) -> bool:
    dev = engine.device(did)
    return dev.matter is not None and any(c.matter_cluster is not None for c in dev.components)


def build_map(engine: HomeEngine, did: str) -> NodeMap:
    """The paths, commands and constant attributes of one Matter device's node."""
    dev = engine.device(did)
    assert dev.matter is not None
    node = NodeMap(did, node_id_for(did))
    endpoints: dict[int, list[int]] = {}
    for comp in dev.components:
        if comp.matter_cluster is None:
            continue
        ep = int(comp.name.split(".", 1)[0])
        cluster = comp.matter_cluster
        endpoints.setdefault(ep, []).append(cluster)
        attr_ids: set[int] = set()
        explicit_fm = None
        for a in comp.attributes:
            if a.matter_id is None:
                continue
            path = f"{ep}/{cluster}/{a.matter_id}"
            loc = f"{comp.name}.{a.name}"
            node.path_of[loc] = path
            node.locator_of[path] = loc
            attr_ids.add(a.matter_id)
            if a.matter_id == FEATURE_MAP:
                explicit_fm = a.value
        if cluster == FAN_CONTROL:
            attr_ids |= _multi_speed(node, ep, attr_ids)
        if cluster in (OPERATIONAL_STATE, RVC_OPERATIONAL_STATE):
            state = next(
                (a for a in comp.attributes if a.matter_id == OPERATIONAL_STATE_ATTR), None
            )
            states = (state.options if state is not None else None) or [0, 1, 2, 3]
            attr_ids |= _operational_defaults(node.static, ep, cluster, attr_ids, states)
        cmd_ids = set()
        for s in comp.services:
            if s.matter_id is not None:
                node.command_of[(ep, cluster, s.name)] = f"{comp.name}.{s.name}"
                cmd_ids.add(s.matter_id)
        base = f"{ep}/{cluster}"
        node.static[f"{base}/{ATTRIBUTE_LIST}"] = sorted(attr_ids | set(GLOBAL_ATTRIBUTES))
        node.static[f"{base}/{ACCEPTED_COMMANDS}"] = sorted(cmd_ids)
        node.static[f"{base}/{GENERATED_COMMANDS}"] = _GENERATED.get(cluster, []) if cmd_ids else []
        if FEATURE_MAP not in attr_ids:
            node.static[f"{base}/{FEATURE_MAP}"] = _feature_map(
                cluster, attr_ids, cmd_ids, explicit_fm
            )
        node.static[f"{base}/{CLUSTER_REVISION}"] = _REVISIONS.get(cluster, 1)
    for ep, clusters in endpoints.items():
        dtype = dev.matter.device_types.get(ep, 0)
        dtypes = [dtype] + [
            companion
            for cluster, companion, already in _COMPANION_TYPES
            if cluster in clusters and dtype not in already
        ]
        _descriptor(
            node.static, ep, [{"0": t, "1": 1} for t in dtypes], [DESCRIPTOR, *clusters], []
        )
    _descriptor(
        node.static,
        0,
        [{"0": ROOT_NODE_DEVICE_TYPE, "1": 1}],
        [DESCRIPTOR, BASIC_INFORMATION],
        sorted(endpoints),
    )
    label = display_names(engine.home)[did]
    basic = {
        0: 17,
        1: "SMH simulated devices",
        2: dev.matter.vendor_id,
        3: dev.name,
        4: dev.matter.product_id,
        5: label,
        6: "XX",
        7: 1,
        8: "1",
        9: 1,
        10: "1.0",
        15: f"SMH-{did}",
        18: f"smh-{did}",
        19: {"0": 3, "1": 3},
        21: 0x01030000,
        22: 1,
    }
    for attr_id, value in basic.items():
        node.static[f"0/{BASIC_INFORMATION}/{attr_id}"] = value
    _globals(node.static, 0, BASIC_INFORMATION, sorted(basic), [])
    return node


def _multi_speed(node: NodeMap, ep: int, attr_ids: set[int]) -> set[int]:
    """SpeedMax 100 and speeds mirroring the percentages, for a fan modelled in percent only."""
    base = f"{ep}/{FAN_CONTROL}"
    setting = node.locator_of.get(f"{base}/{PERCENT_SETTING}")
    if setting is None or SPEED_MAX in attr_ids:
        return set()
    node.static[f"{base}/{SPEED_MAX}"] = 100
    node.mirrors[f"{base}/{SPEED_SETTING}"] = setting
    node.locator_of[f"{base}/{SPEED_SETTING}"] = setting  # a written speed is a written percentage
    added = {SPEED_MAX, SPEED_SETTING}
    if (current := node.locator_of.get(f"{base}/{PERCENT_CURRENT}")) is not None:
        node.mirrors[f"{base}/{SPEED_CURRENT}"] = current
        added.add(SPEED_CURRENT)
    return added


def _operational_defaults(
    static: dict[str, Any], ep: int, cluster: int, attr_ids: set[int], states: list[int]
) -> set[int]:
    """OperationalStateList and OperationalError, when the catalog does not model them."""
    added = set()
    if OPERATIONAL_STATE_LIST not in attr_ids:
        static[f"{ep}/{cluster}/{OPERATIONAL_STATE_LIST}"] = [{"0": state} for state in states]
        added.add(OPERATIONAL_STATE_LIST)
    if OPERATIONAL_ERROR not in attr_ids:
        static[f"{ep}/{cluster}/{OPERATIONAL_ERROR}"] = {"0": 0}  # ErrorStateStruct: NoError
        added.add(OPERATIONAL_ERROR)
    return added


def _descriptor(
    static: dict[str, Any],
    ep: int,
    device_types: list[dict[str, int]],
    servers: list[int],
    parts: list[int],
) -> None:
    static[f"{ep}/{DESCRIPTOR}/0"] = device_types
    static[f"{ep}/{DESCRIPTOR}/1"] = sorted(set(servers))
    static[f"{ep}/{DESCRIPTOR}/2"] = []
    static[f"{ep}/{DESCRIPTOR}/3"] = parts
    _globals(static, ep, DESCRIPTOR, [0, 1, 2, 3], [])


def _globals(
    static: dict[str, Any], ep: int, cluster: int, attrs: list[int], commands: list[int]
) -> None:
    base = f"{ep}/{cluster}"
    static[f"{base}/{ATTRIBUTE_LIST}"] = sorted(set(attrs) | set(GLOBAL_ATTRIBUTES))
    static[f"{base}/{ACCEPTED_COMMANDS}"] = commands
    static[f"{base}/{GENERATED_COMMANDS}"] = []
    static[f"{base}/{FEATURE_MAP}"] = 0
    static[f"{base}/{CLUSTER_REVISION}"] = _REVISIONS.get(cluster, 1)


def node_data(engine: HomeEngine, node: NodeMap) -> dict[str, Any]:
    """``MatterNodeData`` as JSON: every attribute path with its current value."""
    state = engine.state_view(node.did)
    attributes = dict(node.static)
    for loc, path in node.path_of.items():
        attributes[path] = state[loc]
    for path, loc in node.mirrors.items():
        attributes[path] = state[loc]
    return {
        "node_id": node.node_id,
        "date_commissioned": COMMISSIONED,
        "last_interview": COMMISSIONED,
        "interview_version": 6,
        "available": True,
        "is_bridge": False,
        "attributes": dict(sorted(attributes.items(), key=lambda kv: _path_key(kv[0]))),
        "attribute_subscriptions": [],
    }


def _path_key(path: str) -> tuple[int, ...]:
    return tuple(int(p) for p in path.split("/"))
