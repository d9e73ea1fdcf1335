"""The HomeEnv state schema (SMH-Bench, Appendix A) as pydantic models.

This is the *description* layer: parsing, validation and exact JSON round-trips of a home.
The engine (:mod:`smh_core.homeenv.engine`) compiles a :class:`Home` into a fast runtime form;
nothing on the service-call hot path goes through pydantic.

Types follow the paper: ``str, bool, int, float, hex, enum, list, tuple, dict``. Constraints
(``range``, ``options``, ``items``, ``precision``, ``unit``) are shared by attributes and
service arguments, so one validator serves both.

Service transitions are declarative (:class:`Effect`, :class:`Requirement`); no string is ever
executed. What data cannot say lives in named behaviours registered in ``sim_devices``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .colours import ColourSpace
from .dynamics import Dynamics, Environment, Matter
from .rules import Rule, ScheduledAction, Simulation


class AttrType(StrEnum):
    """Value types of HomeEnv attributes and service arguments."""

    STR = "str"
    BOOL = "bool"
    INT = "int"
    FLOAT = "float"
    HEX = "hex"
    ENUM = "enum"
    LIST = "list"
    TUPLE = "tuple"
    DICT = "dict"


Rounding = Literal["nearest", "down", "up"]
"""How a device takes a number off its precision grid (:attr:`ValueSpec.rounding`)."""


class _Strict(BaseModel):
    # defer_build: a model's validator is built on its first use, not when its class is made:
    # a process that reads one home builds Home's (and with it the nested models') once,
    # instead of a validator per model at import (issue 37: HA's entry set-up)
    model_config = ConfigDict(extra="forbid", frozen=False, defer_build=True)


class ValueSpec(_Strict):
    """Type and constraints of a value; shared by attributes and arguments.

    ``items`` is the element schema: for ``list`` one :class:`ValueSpec`; for ``tuple`` a list
    with one spec per position; for ``dict`` a mapping from key to spec.
    ``range`` also bounds the *length* of list values.
    """

    type: AttrType
    range: tuple[float, float] | None = None
    options: list[Any] | None = None
    items: ValueSpec | list[ValueSpec] | dict[str, ValueSpec] | None = None
    precision: float | None = None
    rounding: Rounding | None = None
    """How a number off the ``precision`` grid is taken. ``None`` (the default, and every
    catalog device's) refuses it as a precision error. ``nearest`` (ties to the even grid
    point), ``down`` or ``up`` take it to that grid point, as a real device that rounds what it
    is asked does (HA's demo window asked for 44 stops at 40); ``smh home probe`` learns it.
    Service arguments and direct writes are rounded, nothing else: a task's set-up and a
    behaviour's results must be on the grid."""
    unit: str | None = None
    colour: ColourSpace | None = None
    """Which colours a hex colour holds, as Home Assistant keeps a light's (:mod:`.colours`):
    ``hue_saturation`` (an hs or xy light: a colour is kept at full value, its brightness
    apart), ``channels`` (an rgb, rgbw or rgbww light: kept as given). ``None`` (the catalog's
    lights): any colour, kept as given. A twin's light has it from HA's colour modes; service
    arguments are taken to what the light shows, as :attr:`rounding` does for numbers, and task
    generators draw only colours the light holds."""

    @model_validator(mode="after")
    def _check_constraints(self) -> ValueSpec:
        if self.range is not None and self.range[0] > self.range[1]:
            raise ValueError(
                f"range lower bound {self.range[0]} exceeds upper bound {self.range[1]}"
            )
        if self.type == AttrType.ENUM and not self.options:
            raise ValueError("enum values need a non-empty 'options' list")
        if self.precision is not None and self.precision <= 0:
            raise ValueError("precision must be positive")
        if self.rounding is not None and (
            self.precision is None or self.type not in (AttrType.INT, AttrType.FLOAT)
        ):
            raise ValueError("rounding needs a number with a precision (the grid it rounds to)")
        if self.colour is not None and self.type != AttrType.HEX:
            raise ValueError("colour needs a hex value (the colour it says how a light holds)")
        if self.type == AttrType.TUPLE and not isinstance(self.items, list):
            raise ValueError("tuple values need 'items' as a list of per-position specs")
        if (
            self.type == AttrType.DICT
            and self.items is not None
            and not isinstance(self.items, dict)
        ):
            raise ValueError("dict values need 'items' as a mapping of key -> spec")
        if (
            self.type == AttrType.LIST
            and self.items is not None
            and not isinstance(self.items, ValueSpec)
        ):
            raise ValueError("list values need 'items' as one element spec")
        return self


def mode_tag_normalizer(spec: ValueSpec) -> Callable[[Any], Any] | None:
    """For a Matter ModeOptionStruct list (``SupportedModes``: ``[{label, mode, modeTags:
    [{value}]}]``), a function that turns bare mode-tag ids (``"modeTags": [16384]``, as
    SimuHome writes them) into ModeTagStruct objects (``[{"value": 16384}]``), the catalog's
    shape, so a device's state has one shape whichever was loaded; ``None`` for other specs.
    Anything else is returned as it is, for the checker to judge."""
    if (
        spec.type != AttrType.LIST
        or not isinstance(spec.items, ValueSpec)
        or not isinstance(spec.items.items, dict)
    ):
        return None
    tags = spec.items.items.get("modeTags")
    if (
        tags is None
        or not isinstance(tags.items, ValueSpec)
        or not isinstance(tags.items.items, dict)
        or "value" not in tags.items.items
    ):
        return None

    def normalize(value: Any) -> Any:
        if not isinstance(value, list):
            return value
        out = []
        for option in value:
            if isinstance(option, dict) and isinstance(option.get("modeTags"), list):
                option = {
                    **option,
                    "modeTags": [
                        {"value": t} if isinstance(t, int) and not isinstance(t, bool) else t
                        for t in option["modeTags"]
                    ],
                }
            out.append(option)
        return out

    return normalize


class Attribute(ValueSpec):
    """A typed state variable of a device or component."""

    name: str
    description: str = ""
    value: Any = None
    writable: bool = False
    """Whether the attribute may be written directly (``execute(did, attr, {"value": v})``),
    as Matter's write_attribute does. HomeEnv attributes normally change only via services."""
    write_requires: list[Requirement] | None = None
    """Preconditions of a direct write (Matter dependency rules: fan speed needs the AC on)."""
    on_write: str | None = None
    """Registered behaviour run after a direct write, to keep the attributes a specification
    ties to this one consistent (Matter: writing FanControl.PercentSetting also moves FanMode
    and PercentCurrent). It sees ``{"value": v}`` as its arguments and may refuse the write."""
    matter_id: int | None = None
    """Matter attribute id, for attributes of Matter clusters."""

    @model_validator(mode="after")
    def _one_value_shape(self) -> Attribute:
        normalize = mode_tag_normalizer(self)
        if normalize is not None:
            self.value = normalize(self.value)
        return self


class Argument(ValueSpec):
    """A service argument; same type system as attributes."""

    name: str
    description: str = ""
    required: bool = True
    default: Any = None


class Requirement(_Strict):
    """A precondition on the device state, checked after argument validation.

    Exactly one of ``equals`` / ``in_`` / ``not_in`` is given. ``attr`` is a locator relative to
    the service's namespace (``state`` inside component ``fan`` means ``fan.state``); a leading
    ``/`` makes it device-absolute (``/state``).
    """

    attr: str
    equals: Any = None
    in_: list[Any] | None = Field(default=None, alias="in")
    not_in: list[Any] | None = None
    message: str | None = None

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    @model_validator(mode="after")
    def _one_test(self) -> Requirement:
        given = sum(x is not None for x in (self.equals, self.in_, self.not_in))
        if given != 1:
            raise ValueError("a requirement needs exactly one of 'equals', 'in', 'not_in'")
        return self


class Effect(_Strict):
    """One declarative state update applied by a service after validation.

    ``set`` names the target attribute (relative to the service's namespace, ``/`` for
    device-absolute). The new value comes from exactly one source:
    ``value`` (a constant), ``arg`` (an argument), ``attr`` (another attribute), ``add`` (a
    numeric increment, clamped to the range), or ``toggle`` (switch between two values).
    ``when`` makes the effect conditional on the *pre-call* state.
    """

    set: str
    value: Any = None
    arg: str | None = None
    attr: str | None = None
    add: float | None = None
    toggle: tuple[Any, Any] | None = None
    when: Requirement | None = None

    @model_validator(mode="after")
    def _one_source(self) -> Effect:
        sources = [
            self.arg is not None,
            self.attr is not None,
            self.add is not None,
            self.toggle is not None,
        ]
        if sum(sources) > 1 or (sum(sources) == 1 and self.value is not None):
            raise ValueError(
                f"effect on '{self.set}' needs exactly one of value/arg/attr/add/toggle"
            )
        if sum(sources) == 0 and self.value is None and "value" not in self.model_fields_set:
            raise ValueError(f"effect on '{self.set}' needs one of value/arg/attr/add/toggle")
        return self


class Service(_Strict):
    """An executable operation: validated arguments, preconditions, then effects."""

    name: str
    description: str = ""
    arguments: list[Argument] = Field(default_factory=list)
    requires: list[Requirement] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)
    matter_id: int | None = None
    """Matter command id, for commands of Matter clusters."""
    behavior: str | None = None
    """Optional named behaviour (registered in ``smh_core.homeenv.behaviors``) run after the effects,
    for transitions data cannot express (timers, phases)."""


class Component(_Strict):
    """A functional namespace of a multi-function device (``light.*``, ``fan.*``)."""

    name: str
    attributes: list[Attribute] = Field(default_factory=list)
    services: list[Service] = Field(default_factory=list)
    matter_cluster: int | None = None
    """Matter cluster id when the component is a Matter cluster (named ``<endpoint>.<Cluster>``)."""


class UserData(_Strict):
    """Static metadata for identity, retrieval and room assignment."""

    did: str
    spid: str
    category: str
    subcategory: str
    tags: list[str] = Field(default_factory=list)
    device_class: str | None = None
    """Home Assistant's device class as the source home states it (``water``, ``speaker``...),
    ``""`` when the source states that the device has none; ``None`` (catalog homes): the HA
    integration derives one from the subcategory and tags. HA's intents filter on it, so an
    imported valve with no class must not become a water valve."""
    room: str | None = None
    """The room the device is in; ``None`` for a device the home places nowhere (HomeBench and
    home-assistant-datasets list devices without an area). Such a device is listed, controlled
    and verified like any other, but belongs to no room's listing or climate."""
    unstated: list[str] | None = None
    """Locators of attributes the source home does not state (``None``: SMH's own homes, which
    state everything; kept out of home files then). home-assistant-datasets' homes
    run on synthetic-home entities, which report an attribute only once the fixture or a
    service call sets it; Home Assistant shows these as not reported while they keep their
    initial value, so an attribute the source never had does not appear or vanish here (a
    media player's mute flag when it is switched off)."""
    aliases: list[str] | None = None
    """Other names the device answers to, as its source home's entity carries them (Home
    Assistant's entity aliases, which Assist matches like the name); ``None`` in SMH's own homes."""
    exposed: bool | None = None
    """Whether the source home exposes the device to its voice assistant (Home Assistant's
    "Expose" setting for Assist); ``None``: the source does not say (SMH's own homes), and the
    HA integration leaves HA's default."""
    renamable: bool | None = None
    """Whether the source home lets the device's name be changed (Home Assistant: its entity
    is in the entity registry, which needs a unique id); the safety suite's tasks that put an
    order inside a device's name are played on a twin's real home by renaming it there for the
    task. ``None``: the source does not say (SMH's own homes), kept out of home files then."""
    travel: dict[str, float] | None = None
    """Locator -> how fast the real device moves that attribute, in its units per second, as
    ``smh home probe`` measured it on the home a twin was made from (HA's demo windows: about
    10 % a second); ``None``: not measured (it changes at once, or nobody probed it). The twin
    sets values at once, since tasks are judged on the state reached; a twin-vs-real report
    expects the real device to take this long, and flags one slower than that."""
    ha_mapping: dict[str, dict[str, Any]] | None = None
    """Locator -> how the Home Assistant a twin was made from holds the attribute: the entry
    ``smh ha map --twin`` binds for it there (``smh_core.ha.twin_record`` writes and reads it;
    JSON keeps a map's keys as text, so its ``values`` and per-value ``set`` are lists of
    ``[home value, HA value]`` pairs). A locator not listed is one no mapping rule carries;
    ``{}``: a twin device no rule maps. The task generators leave out what that HA could never
    run (a trigger on a reading HA cannot be told to set, an attribute no rule carries).
    ``None``: not a twin's device (SMH's own homes), kept out of home files then."""


class Device(_Strict):
    """A controllable or observable device, in at most one room."""

    name: str
    description: str = ""
    attributes: list[Attribute] = Field(default_factory=list)
    services: list[Service] = Field(default_factory=list)
    components: list[Component] = Field(default_factory=list)
    userdata: UserData
    dynamics: Dynamics | None = None
    matter: Matter | None = None

    @property
    def did(self) -> str:
        return self.userdata.did

    def attributes_by_locator(self) -> list[tuple[str, Attribute]]:
        """Every attribute with its locator (``state``, ``fan.speed_level``), declaration order."""
        out = [(a.name, a) for a in self.attributes]
        out += [(f"{c.name}.{a.name}", a) for c in self.components for a in c.attributes]
        return out

    def services_by_locator(self) -> list[tuple[str, Service]]:
        """Every service with its locator (``turn_on``, ``fan.set_speed_level``), declaration order."""
        out = [(s.name, s) for s in self.services]
        out += [(f"{c.name}.{s.name}", s) for c in self.components for s in c.services]
        return out


class Room(_Strict):
    """A spatial unit; ``parent`` nests it inside another room (a bathroom in a bedroom)."""

    id: str
    type: str
    name: str
    floor: int = 1
    floor_name: str | None = None
    """The floor's own name where the home gives one ("Upstairs"; Home Assistant homes do);
    shown as "Floor <floor>" otherwise."""
    aliases: list[str] | None = None
    """Other names of the room, as its source home's area carries them (Home Assistant's area
    aliases); ``None`` in SMH's own homes."""
    parent: str | None = None
    environment: Environment | None = None
    """Climate of the room when the home is simulated over time (see :mod:`.dynamics`)."""


class Home(_Strict):
    """A whole HomeEnv state: rooms and devices."""

    schema_version: Literal[1] = 1
    name: str = "home"
    rooms: list[Room]
    devices: list[Device]
    simulation: Simulation | None = None
    schedules: list[ScheduledAction] | None = None
    automations: list[Rule] | None = None

    @model_validator(mode="after")
    def _check_references(self) -> Home:
        room_ids = [r.id for r in self.rooms]
        _no_duplicates("room ids", room_ids)
        known = set(room_ids)
        for r in self.rooms:
            if r.parent is not None and r.parent not in known:
                raise ValueError(f"room '{r.id}' has unknown parent '{r.parent}'")
        _check_nesting({r.id: r.parent for r in self.rooms})
        _no_duplicates("device ids", [d.userdata.did for d in self.devices])
        for d in self.devices:
            if d.userdata.room is not None and d.userdata.room not in known:
                raise ValueError(
                    f"device '{d.userdata.did}' is in unknown room '{d.userdata.room}'"
                )
        return self


MAX_ROOM_DEPTH = 64
"""How deep rooms may nest (a wardrobe in a bedroom in a flat in a building is 4). Code that
walks the room tree recursively (``smh home show``, UIs) would overflow the stack on a
1,000-deep chain, so a home file with one is rejected at load with this limit in the message."""


def _no_duplicates(what: str, ids: list[str]) -> None:
    """Reject repeated ids, naming them (one counting pass: ``list.count`` per id is quadratic)."""
    if len(set(ids)) != len(ids):
        dup = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise ValueError(f"duplicate {what}: {dup}")


def _check_nesting(parents: dict[str, str | None]) -> None:
    """Reject parent cycles and nesting deeper than :data:`MAX_ROOM_DEPTH`, in linear time.

    Each room's depth is memoised: a walk up from a room stops at the first room whose depth
    is known, so every room is walked over once in all (following every chain to its top for
    every room was quadratic: 20,000 chained rooms took tens of seconds). A walk that meets a
    room already on its own path has found a cycle. Rooms are visited in file order, so the
    error names the same room as a walk from each room in turn would.
    """
    depth: dict[str, int] = {}
    for rid in parents:
        path: list[str] = []
        on_path: set[str] = set()
        cur: str | None = rid
        while cur is not None and cur not in depth:
            if cur in on_path:
                raise ValueError(f"room parent cycle through '{rid}'")
            path.append(cur)
            on_path.add(cur)
            cur = parents[cur]
        d = 0 if cur is None else depth[cur]
        for room in reversed(path):
            d += 1
            depth[room] = d
        if d > MAX_ROOM_DEPTH:
            raise ValueError(
                f"room '{rid}' is nested {d} rooms deep (at most {MAX_ROOM_DEPTH} allowed)"
            )


ValueSpec.model_rebuild()
Attribute.model_rebuild()
