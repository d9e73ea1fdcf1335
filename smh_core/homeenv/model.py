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

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .colours import ColourSpace
from .dynamics import Dynamics, Environment, Matter
from .rules import Rule, ScheduledAction, Simulation
from .shapes import MAX_ROOM_DEPTH as MAX_ROOM_DEPTH
from .shapes import (
    ArgumentShape,
    AttributeShape,
    ComponentShape,
    DeviceShape,
    EffectShape,
    HomeShape,
    RequirementShape,
    RoomShape,
    ServiceShape,
    UserDataShape,
    ValueSpecShape,
)
from .shapes import AttrType as AttrType
from .shapes import mode_tag_normalizer as mode_tag_normalizer

Rounding = Literal["nearest", "down", "up"]
"""How a device takes a number off its precision grid (:attr:`ValueSpec.rounding`)."""


class _Strict(BaseModel):
    # defer_build: a model's validator is built on its first use, not when its class is made:
    # a process that reads one home builds Home's (and with it the nested models') once,
    # instead of a validator per model at import (issue 37: HA's entry set-up)
    model_config = ConfigDict(extra="forbid", frozen=False, defer_build=True)


class ValueSpec(ValueSpecShape, _Strict):
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

    _check_constraints = model_validator(mode="after")(ValueSpecShape.check_constraints)


class Attribute(AttributeShape, ValueSpec):
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

    _one_value_shape = model_validator(mode="after")(AttributeShape.check_value_shape)


class Argument(ArgumentShape, ValueSpec):
    """A service argument; same type system as attributes."""

    name: str
    description: str = ""
    required: bool = True
    default: Any = None


class Requirement(RequirementShape, _Strict):
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

    _one_test = model_validator(mode="after")(RequirementShape.check_one_test)


class Effect(EffectShape, _Strict):
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

    _one_source = model_validator(mode="after")(EffectShape.check_one_source)


class Service(ServiceShape, _Strict):
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


class Component(ComponentShape, _Strict):
    """A functional namespace of a multi-function device (``light.*``, ``fan.*``)."""

    name: str
    attributes: list[Attribute] = Field(default_factory=list)
    services: list[Service] = Field(default_factory=list)
    matter_cluster: int | None = None
    """Matter cluster id when the component is a Matter cluster (named ``<endpoint>.<Cluster>``)."""


class UserData(UserDataShape, _Strict):
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


class Device(DeviceShape, _Strict):
    """A controllable or observable device, in at most one room."""

    name: str
    description: str = ""
    attributes: list[Attribute] = Field(default_factory=list)
    services: list[Service] = Field(default_factory=list)
    components: list[Component] = Field(default_factory=list)
    userdata: UserData
    dynamics: Dynamics | None = None
    matter: Matter | None = None


class Room(RoomShape, _Strict):
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


class Home(HomeShape, _Strict):
    """A whole HomeEnv state: rooms and devices."""

    schema_version: Literal[1] = 1
    name: str = "home"
    rooms: list[Room]
    devices: list[Device]
    simulation: Simulation | None = None
    schedules: list[ScheduledAction] | None = None
    automations: list[Rule] | None = None

    _check_references = model_validator(mode="after")(HomeShape.check_references)


ValueSpec.model_rebuild()
Attribute.model_rebuild()
