"""Rich entities: which HomeEnv devices Home Assistant shows as what they are (pure: no HA imports).

A :class:`Spec` describes one HA platform as *roles*: attributes the entity reads or sets, and
services it calls. Each namespace of a device (the device itself, or a component such as
``fan``) becomes one rich entity of the first spec whose required roles it fills, so a device
type needs no entry here: a ceiling fan with a light gets a ``light`` and a ``fan``. The
attributes bound to roles get no generic entity (see :mod:`.mirrors`).

A role binds an attribute only if the device can do what the role needs (``SET``: a setter
service; ``SWITCH``: a turn_on/turn_off pair, see :mod:`smh_core.homeenv.capabilities`) and
the attribute has the right ``shape``. An HA feature flag (named as in HA's feature enums) is
supported when every role and call naming it is bound. Entities turn HA calls into the
:class:`Action` lists built here and run them as one atomic engine batch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from smh_core.homeenv.capabilities import Setter, Switch, setters, switches
from smh_core.homeenv.shapes import AttrType

from .convert import Convert

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from smh_core.homeenv.model import Attribute, Device, Service, UserData

READ, SET, SWITCH = "read", "set", "switch"
type Action = dict[str, Any]  # {"did", "locator", "arguments"}: one engine call


@dataclass(frozen=True)
class Role:
    """An attribute the entity reads (and sets, with ``need``), first of ``attrs`` that fits."""

    name: str
    attrs: tuple[str, ...]
    need: str = READ
    required: bool = False
    features: tuple[str, ...] = ()
    shape: str | None = None  # options | range | percent | scale | bool | hex
    allowed: tuple[str, ...] | None = None  # every option (as HA sees it) must be one of these
    values: Mapping[str, str] = field(default_factory=dict)  # engine value -> HA value


@dataclass(frozen=True)
class Call:
    """A service the entity calls; it must take ``args`` and need no other argument."""

    name: str
    service: str
    required: bool = False
    features: tuple[str, ...] = ()
    args: tuple[str, ...] = ()


@dataclass(frozen=True)
class Spec:
    platform: str
    roles: tuple[Role, ...]
    calls: tuple[Call, ...] = ()
    features: tuple[str, ...] = ()
    device_classes: Mapping[str, str] = field(default_factory=dict)  # subcategory or tag -> class
    only: frozenset[str] = frozenset()
    """Device categories, subcategories or tags this spec is for (empty: any device): a valve and
    a curtain have the same roles, an on/off light and a plain switch too."""


def _role(
    name: str,
    attrs: str,
    need: str = READ,
    shape: str | None = None,
    features: str = "",
    *,
    required: bool = False,
    allowed: str | None = None,
    values: Mapping[str, str] | None = None,
) -> Role:
    """A role; ``attrs``, ``features`` and ``allowed`` are space-separated names."""
    return Role(
        name,
        tuple(attrs.split()),
        need,
        required,
        tuple(features.split()),
        shape,
        None if allowed is None else tuple(allowed.split()),
        dict(values or {}),
    )


def _power(features: str = "") -> Role:
    return _role("power", "state", SWITCH, None, features, required=True)


def _call(
    name: str, service: str, features: str = "", *, required: bool = False, args: str = ""
) -> Call:
    return Call(name, service, required, tuple(features.split()), tuple(args.split()))


_PLAYBACK: tuple[Call, ...] = (
    _call("play_media", "play", "PLAY_MEDIA", args="media_name"),
    _call("pause", "pause", "PAUSE"),
    _call("stop", "stop", "STOP"),
    _call("next", "next_track", "NEXT_TRACK"),
    _call("previous", "previous_track", "PREVIOUS_TRACK"),
    _call("volume_up", "volume_up", "VOLUME_STEP"),
    _call("volume_down", "volume_down", "VOLUME_STEP"),
    _call("mute", "mute", "VOLUME_MUTE"),
    _call("unmute", "unmute", "VOLUME_MUTE"),
)
"""What a speaker and any other media player share beyond play (each offered where the device has it)."""


# First match wins, so the more specific platforms come first (an air cube is a climate, not a
# humidifier). Role order: name, attributes, need, shape, features.
SPECS: tuple[Spec, ...] = (
    Spec(
        "climate",
        (
            _power("TURN_ON TURN_OFF"),
            _role(
                "mode",
                "ac_mode",
                SET,
                "options",
                required=True,
                allowed="heat cool heat_cool auto dry fan_only",
            ),
            _role(
                "target_temperature",
                "target_temperature",
                SET,
                "range",
                "TARGET_TEMPERATURE",
                required=True,
            ),
            _role("current_temperature", "current_temperature"),
            _role("target_humidity", "target_humidity", SET, "range", "TARGET_HUMIDITY"),
            _role("current_humidity", "current_humidity"),
            _role("fan_mode", "fan_level", SET, "options", "FAN_MODE"),
            _role("swing", "swing_enabled", SET, "bool", "SWING_MODE"),
            _role("preset", "sleep_state", SET, "options", "PRESET_MODE"),
        ),
    ),
    Spec(
        "water_heater",
        (
            _power("ON_OFF"),
            _role(
                "target_temperature",
                "target_water_temperature",
                SET,
                "range",
                "TARGET_TEMPERATURE",
                required=True,
            ),
            _role("current_temperature", "current_water_temperature"),
            _role("mode", "work_mode", SET, "options", "OPERATION_MODE"),
        ),
    ),
    Spec(
        "humidifier",
        (
            _power(),
            _role("target_humidity", "target_humidity", SET, "range", required=True),
            _role("current_humidity", "current_humidity"),
            _role("mode", "work_mode", SET, "options", "MODES"),
        ),
        device_classes={"humidifier": "humidifier", "dehumidifier": "dehumidifier"},
    ),
    Spec(
        "media_player",
        (
            _power("TURN_ON TURN_OFF"),
            _role(
                "state",
                "work_state",
                READ,
                "options",
                required=True,
                allowed="playing paused idle on buffering",
                values={"standby": "idle"},
            ),
            _role("volume", "volume_level", SET, "percent", "VOLUME_SET"),
            _role("muted", "volume_muted_enabled", READ, "bool", "VOLUME_MUTE"),
            _role("title", "media_name", READ, None, "PLAY_MEDIA"),
            _role("track", "media_track", READ, "range"),
        ),
        (_call("play", "play", "PLAY"), *_PLAYBACK),
        device_classes={"speaker": "speaker", "tv": "tv"},
    ),
    Spec(
        "vacuum",
        (
            _role(
                "state",
                "state",
                READ,
                "options",
                required=True,
                allowed="cleaning docked idle paused returning error",
                values={"standby": "idle", "charging": "docked"},
            ),
            _role("fan_speed", "suction", SET, "options", "FAN_SPEED"),
            _role("area", "cleaning_area", SET, None, "SEND_COMMAND"),
            # the drive back to the dock: a timer of the simulation, shown among the vacuum's
            # own attributes rather than as a sensor no HA vacuum has (an imported home must
            # have the source's entities and no more: a countdown sensor ticking on its own
            # broke home-assistant-datasets' "nothing else changed" rule)
            _role("dock_countdown", "dock_countdown"),
        ),
        (
            _call("start", "start", "START", required=True),
            _call("pause", "pause", "PAUSE"),
            _call("stop", "stop", "STOP"),
            _call("return_to_base", "return_to_base", "RETURN_HOME", required=True),
        ),
        features=("STATE",),
    ),
    Spec(
        "media_player",
        (
            _role(
                "state", "state", READ, "options", required=True, allowed="off idle playing paused"
            ),
            _role("volume", "volume_level", SET, "percent", "VOLUME_SET"),
            _role("muted", "volume_muted_enabled", READ, "bool", "VOLUME_MUTE"),
            _role("title", "media_name", READ, None, "PLAY_MEDIA"),
            _role("track", "media_track"),
            _role("source", "source", SET, "options", "SELECT_SOURCE"),
        ),
        (
            _call("turn_on", "turn_on", "TURN_ON"),
            _call("turn_off", "turn_off", "TURN_OFF"),
            _call("play", "play", "PLAY", required=True),
            *_PLAYBACK,
        ),
        device_classes={"speaker": "speaker", "tv": "tv", "receiver": "receiver"},
        only=frozenset({"media"}),
    ),
    Spec(
        "todo",
        (_role("items", "items", READ, required=True), _role("open_items", "open_items")),
        (
            _call("add", "add_item", "CREATE_TODO_ITEM", required=True, args="item"),
            _call("remove", "remove_item", "DELETE_TODO_ITEM", args="item"),
            _call("complete", "complete_item", "UPDATE_TODO_ITEM", args="item"),
            _call("update", "update_item", "UPDATE_TODO_ITEM", args="item rename status"),
        ),
        only=frozenset({"todo_list"}),
    ),
    Spec(
        "valve",
        (_role("position", "position", SET, "percent", "SET_POSITION", required=True),),
        (
            _call("open", "open", "OPEN", required=True),
            _call("close", "close", "CLOSE", required=True),
        ),
        device_classes={"water_valve": "water"},
        only=frozenset({"valve"}),
    ),
    Spec(  # a valve that only opens and closes (a live home's, imported with its features)
        "valve",
        (_role("position", "position", READ, "percent", required=True),),
        (
            _call("open", "open", "OPEN", required=True),
            _call("close", "close", "CLOSE", required=True),
        ),
        device_classes={"water_valve": "water"},
        only=frozenset({"valve"}),
    ),
    Spec(
        "lock",
        (_role("state", "state", READ, "options", required=True, allowed="locked unlocked"),),
        (_call("lock", "lock", required=True), _call("unlock", "open", required=True)),
    ),
    Spec(
        "cover",
        (_role("position", "position", SET, "percent", "SET_POSITION", required=True),),
        (
            _call("open", "open", "OPEN", required=True),
            _call("close", "close", "CLOSE", required=True),
        ),
        device_classes={"blind": "blind", "curtain": "curtain", "shutter": "shutter"},
    ),
    Spec(  # a cover that only opens and closes (a live home's, imported with its features)
        "cover",
        (_role("position", "position", READ, "percent", required=True),),
        (
            _call("open", "open", "OPEN", required=True),
            _call("close", "close", "CLOSE", required=True),
        ),
        device_classes={"blind": "blind", "curtain": "curtain", "shutter": "shutter"},
        only=frozenset({"curtain"}),
    ),
    Spec(
        "cover",
        (  # open or closed as its own state (a garage door; HomeBench's curtain, open at degree 0)
            _role("closed", "state", READ, "options", required=True, allowed="open closed"),
            _role("position", "degree", SET, "percent", "SET_POSITION"),
        ),
        (
            _call("open", "open", "OPEN", required=True),
            _call("close", "close", "CLOSE", required=True),
        ),
        device_classes={"garage": "garage", "curtain": "curtain"},
        only=frozenset({"cover"}),
    ),
    Spec(
        "light",
        (
            _power(),
            _role("brightness", "brightness", SET, "range", required=True),
            _role("color_temp", "color_temperature", SET, "range"),
            _role("color", "color", SET, "hex"),
            _role(
                "color_mode",
                "color_mode",
                READ,
                "options",
                allowed="rgb color_temp",
                values={"color": "rgb", "color_temperature": "color_temp"},
            ),
            _role("effect", "effect", SET, "options", "EFFECT"),
        ),
    ),
    Spec(
        "fan",
        (
            _power("TURN_ON TURN_OFF"),
            _role("speed", "speed_level favorite_level", SET, "scale", "SET_SPEED", required=True),
            _role("preset", "preset_mode work_mode", SET, "options", "PRESET_MODE"),
            _role("oscillation", "oscillation_enabled", SET, "bool", "OSCILLATE"),
            _role(
                "direction",
                "current_direction",
                SET,
                "options",
                "DIRECTION",
                allowed="forward reverse",
            ),
        ),
    ),
    Spec(
        "light",
        (  # a light that only switches, or shows colours without dimming
            _power(),
            _role("color_temp", "color_temperature", SET, "range"),
            _role("color", "color", SET, "hex"),
        ),
        only=frozenset({"light"}),
    ),
)


@dataclass(frozen=True)
class Bound:
    """A role's attribute on one device: where it lives, how to set it and how HA reads it."""

    locator: str
    attribute: Attribute
    setter: Setter | None
    switch: Switch | None
    convert: Convert = field(default_factory=Convert)
    limits: tuple[float, float] | None = None  # HA-side range when it is not the attribute's

    def to_ha(self, value: Any) -> Any:
        return self.convert.to_ha(value)

    def from_ha(self, value: Any) -> Any:
        return self.convert.from_ha(value, self.attribute)

    @property
    def options(self) -> list[Any]:
        return self.convert.options(self.attribute)

    @property
    def range(self) -> tuple[float, float]:
        return self.limits if self.limits is not None else self.convert.range(self.attribute)


@dataclass(frozen=True)
class Rich:
    """One rich entity: a device namespace seen as an HA platform."""

    platform: str
    did: str
    namespace: str
    roles: Mapping[str, Bound]
    calls: Mapping[str, str]  # call name -> service locator
    features: tuple[str, ...]
    device_class: str | None = None
    call_args: Mapping[str, Mapping[str, Any]] = field(
        default_factory=dict
    )  # fixed arguments per call
    name: str | None = None  # the entity's own name (None: the device's, or its component's)
    device_named: bool = (
        False  # a component's entity that is named after the device (see entity_plan)
    )

    @property
    def key(self) -> str:
        """Unique within the device and platform (the namespace decides, as a device has one
        rich entity per namespace)."""
        return f"{self.namespace}.{self.platform}" if self.namespace else self.platform

    @property
    def locators(self) -> tuple[str, ...]:
        return tuple(b.locator for b in self.roles.values())

    def __contains__(self, name: str) -> bool:
        return name in self.roles or name in self.calls

    def set(self, role: str, value: Any) -> Action:
        """The call that sets ``role`` to an HA-side value."""
        bound = self.roles[role]
        assert bound.setter is not None
        return self._action(bound.setter.service, {bound.setter.argument: bound.from_ha(value)})

    def power(self, on: bool) -> Action:
        switch = self.roles["power"].switch
        assert switch is not None
        return self._action(switch.on_service if on else switch.off_service)

    def call(self, name: str, **arguments: Any) -> Action:
        return self._action(self.calls[name], {**self.call_args.get(name, {}), **arguments})

    def _action(self, locator: str, arguments: dict[str, Any] | None = None) -> Action:
        return {"did": self.did, "locator": locator, "arguments": arguments or {}}


def _fits(role: Role, attr: Attribute, values: Mapping[str, str]) -> bool:
    shape = role.shape
    if shape == "options" and not attr.options:
        return False
    numeric = attr.type in (AttrType.INT, AttrType.FLOAT)
    if shape in ("range", "percent") and (attr.range is None or not numeric):
        return False
    if shape == "percent" and tuple(attr.range or ()) != (0, 100):
        return False
    if shape == "scale" and not attr.options and (attr.range is None or attr.type != AttrType.INT):
        return False
    if shape == "bool" and attr.type != AttrType.BOOL:
        return False
    if shape == "hex" and attr.type != AttrType.HEX:
        return False
    return role.allowed is None or all(values.get(o, o) in role.allowed for o in attr.options or ())


def _bind(
    role: Role,
    prefix: str,
    attrs: Mapping[str, Attribute],
    st: Mapping[str, Setter],
    sw: Mapping[str, Switch],
) -> Bound | None:
    for name in role.attrs:
        attr, loc = attrs.get(name), prefix + name
        if attr is None or (role.need == SET and loc not in st):
            continue
        if role.need == SWITCH and loc not in sw:
            continue
        if _fits(role, attr, role.values):
            return Bound(loc, attr, st.get(loc), sw.get(loc), Convert(role.values))
    return None


def _callable(call: Call, service: Service | None) -> bool:
    if service is None:
        return False
    names = {a.name for a in service.arguments}
    required = {a.name for a in service.arguments if a.required}
    return set(call.args) <= names and required <= set(call.args)


def _match(
    spec: Spec,
    device: Device,
    ns: str,
    by_name: Mapping[str, Attribute],
    svc: Mapping[str, Service],
    st: Mapping[str, Setter],
    sw: Mapping[str, Switch],
) -> Rich | None:
    """``spec``'s entity on namespace ``ns`` of the device (its attributes and services by
    name), or ``None`` if the namespace lacks what the spec requires."""
    ud = device.userdata
    if spec.only and not spec.only & {ud.category, ud.subcategory, *ud.tags}:
        return None
    prefix = f"{ns}." if ns else ""
    roles: dict[str, Bound] = {}
    for role in spec.roles:
        bound = _bind(role, prefix, by_name, st, sw)
        if bound is None and role.required:
            return None
        if bound is not None:
            roles[role.name] = bound
    calls: dict[str, str] = {}
    for call in spec.calls:
        if _callable(call, svc.get(call.service)):
            calls[call.name] = prefix + call.service
        elif call.required:
            return None
    named: dict[str, bool] = {f: True for f in spec.features}
    for item in (*spec.roles, *spec.calls):
        bound = item.name in (roles if isinstance(item, Role) else calls)
        for f in item.features:
            named[f] = named.get(f, True) and bound
    ud = device.userdata
    features = tuple(f for f, ok in named.items() if ok)
    return Rich(spec.platform, device.did, ns, roles, calls, features, _device_class(spec, ud))


STATED_CLASSES: Mapping[str, frozenset[str]] = {
    "cover": frozenset(
        [
            "awning",
            "blind",
            "curtain",
            "damper",
            "door",
            "garage",
            "gate",
            "shade",
            "shutter",
            "window",
        ]
    ),
}
"""Every device class HA has for a platform whose entities behave alike whatever the class
(``CoverDeviceClass``): a source stating one of these keeps it, because HA's intents filter
on it ("open the gate" matches only a cover of class gate, "the shades" only class shade)."""


def _device_class(spec: Spec, ud: UserData) -> str | None:
    """The source's stated class where it states one (none if it is one this platform does not
    know, rather than a wrong one); otherwise the first class the subcategory or a tag implies."""
    if ud.device_class is not None:
        known = {*spec.device_classes.values(), *STATED_CLASSES.get(spec.platform, ())}
        return ud.device_class if ud.device_class in known else None
    classes = [
        spec.device_classes[k] for k in (ud.subcategory, *ud.tags) if k in spec.device_classes
    ]
    return next(iter(classes), None)


def bindings(
    device: Device, st: Mapping[str, Setter] | None = None, sw: Mapping[str, Switch] | None = None
) -> list[Rich]:
    """The device's rich entities: at most one per namespace, first matching spec wins."""
    st = setters(device) if st is None else st
    sw = switches(device) if sw is None else sw
    namespaces = [("", device.attributes, device.services)]
    namespaces += [(c.name, c.attributes, c.services) for c in device.components]
    out = []
    for ns, attrs, services in namespaces:
        by_name = {a.name: a for a in attrs}  # once per namespace, not once per spec tried
        svc = {s.name: s for s in services}
        for spec in SPECS:
            rich = _match(spec, device, ns, by_name, svc, st, sw)
            if rich is not None:
                out.append(rich)
                break
    return out
