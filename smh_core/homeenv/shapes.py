"""What the home model's two forms share: its enums, its checks and its methods, without pydantic.

The home model (:mod:`.model`, :mod:`.dynamics`, :mod:`.rules`) is defined once, as pydantic
models. Home Assistant's set-up reads a home without importing pydantic (issue 37: pydantic and
its model classes cost about 100 ms of a cold start): it validates with pydantic-core alone into
plain classes (:mod:`.plain`) built from the schema pydantic generates. Both forms of a model
class derive from its shape here (``Device`` and the plain ``Device`` are both a
:class:`DeviceShape`), so a method or a check is written once, and code that asks what an
object is asks ``isinstance(x, TimeTriggerShape)``, true of either form.

A shape holds no state (``__slots__ = ()``); the fields it reads are declared for the type
checker only. Each ``check_*`` method is a model validator ("after" mode): pydantic
calls it on the pydantic form and pydantic-core, through the plain schema, on the plain form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import builtins


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


Variable = Literal["temperature", "humidity", "illuminance", "pm25", "pm10"]
DRIVEN_VARIABLES: tuple[str, ...] = ("temperature", "humidity", "pm25", "pm10")
ROOM_VARIABLES: tuple[str, ...] = ("temperature", "humidity", "illuminance", "pm25", "pm10")

MAX_ROOM_DEPTH = 64
"""How deep rooms may nest (a wardrobe in a bedroom in a flat in a building is 4). Code that
walks the room tree recursively (``smh home show``, UIs) would overflow the stack on a
1,000-deep chain, so a home file with one is rejected at load with this limit in the message."""

AIR_QUALITY_BANDS: tuple[tuple[float, str], ...] = (
    (12.0, "good"),
    (35.4, "fair"),
    (55.4, "moderate"),
    (150.4, "poor"),
    (250.4, "very_poor"),
)
"""Upper PM2.5 bound (µg/m³) of each air-quality class (the US EPA AQI breakpoints), mapped
onto Matter's AirQuality enum names; above the last bound the air is ``extremely_poor``."""


def air_quality_class(pm25: float) -> str:
    for bound, name in AIR_QUALITY_BANDS:
        if pm25 <= bound:
            return name
    return "extremely_poor"


def same(a: Any, b: Any) -> bool:
    """Equality that keeps booleans apart from numbers (``True`` is not ``1``)."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def default_daylight() -> list[float]:
    """Outdoor daylight per hour of the day (lux) when a home gives none."""
    return [
        0,
        0,
        0,
        0,
        0,
        500,
        3000,
        8000,
        15000,
        25000,
        35000,
        45000,
        50000,
        45000,
        35000,
        25000,
        15000,
        8000,
        3000,
        500,
        0,
        0,
        0,
        0,
    ]


def default_drift() -> dict[str, float]:
    """Per-second pull of each room variable towards the outdoor value when a home gives none."""
    return {"temperature": 0.0002, "humidity": 0.0003, "pm25": 0.0002, "pm10": 0.0002}


# --- model.py's shapes -------------------------------------------------------------------


class ValueSpecShape:
    __slots__ = ()
    if TYPE_CHECKING:
        type: AttrType
        range: tuple[float, float] | None
        options: list[Any] | None
        items: ValueSpecShape | list[Any] | dict[str, Any] | None
        precision: float | None
        rounding: Literal["nearest", "down", "up"] | None
        colour: Any

    def check_constraints(self) -> Any:
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
            and not isinstance(self.items, ValueSpecShape)
        ):
            raise ValueError("list values need 'items' as one element spec")
        return self


def mode_tag_normalizer(spec: ValueSpecShape) -> Callable[[Any], Any] | None:
    """For a Matter ModeOptionStruct list (``SupportedModes``: ``[{label, mode, modeTags:
    [{value}]}]``), a function that turns bare mode-tag ids (``"modeTags": [16384]``, as
    SimuHome writes them) into ModeTagStruct objects (``[{"value": 16384}]``), the catalog's
    shape, so a device's state has one shape whichever was loaded; ``None`` for other specs.
    Anything else is returned as it is, for the checker to judge."""
    if (
        spec.type != AttrType.LIST
        or not isinstance(spec.items, ValueSpecShape)
        or not isinstance(spec.items.items, dict)
    ):
        return None
    tags = spec.items.items.get("modeTags")
    if (
        tags is None
        or not isinstance(tags.items, ValueSpecShape)
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


class AttributeShape(ValueSpecShape):
    __slots__ = ()
    if TYPE_CHECKING:
        value: Any

    def check_value_shape(self) -> Any:
        normalize = mode_tag_normalizer(self)
        if normalize is not None:
            self.value = normalize(self.value)
        return self


class ArgumentShape(ValueSpecShape):
    __slots__ = ()


class _OneTest:
    """A test with exactly one of ``equals``, ``in`` and ``not_in`` (a requirement, a when)."""

    __slots__ = ()
    what = "a test"
    if TYPE_CHECKING:
        equals: Any
        in_: list[Any] | None
        not_in: list[Any] | None

    def check_one_test(self) -> Any:
        given = sum(x is not None for x in (self.equals, self.in_, self.not_in))
        if given != 1:
            raise ValueError(f"{self.what} needs exactly one of 'equals', 'in', 'not_in'")
        return self

    def holds(self, value: Any) -> bool:
        """Whether ``value`` passes the test (booleans kept apart from numbers)."""
        if self.in_ is not None:
            return any(same(value, x) for x in self.in_)
        if self.not_in is not None:
            return not any(same(value, x) for x in self.not_in)
        return same(value, self.equals)


class RequirementShape(_OneTest):
    __slots__ = ()
    what = "a requirement"


class EffectShape:
    __slots__ = ()
    if TYPE_CHECKING:
        set: str
        value: Any
        arg: str | None
        attr: str | None
        add: float | None
        toggle: tuple[Any, Any] | None

        @property
        def model_fields_set(self) -> builtins.set[str]: ...

    def check_one_source(self) -> Any:
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


class ServiceShape:
    __slots__ = ()


class ComponentShape:
    __slots__ = ()


class UserDataShape:
    __slots__ = ()


class DeviceShape:
    __slots__ = ()
    if TYPE_CHECKING:
        attributes: list[Any]
        services: list[Any]
        components: list[Any]
        userdata: Any

    @property
    def did(self) -> str:
        did: str = self.userdata.did
        return did

    def attributes_by_locator(self) -> list[tuple[str, Any]]:
        """Every attribute with its locator (``state``, ``fan.speed_level``), declaration order."""
        out = [(a.name, a) for a in self.attributes]
        out += [(f"{c.name}.{a.name}", a) for c in self.components for a in c.attributes]
        return out

    def services_by_locator(self) -> list[tuple[str, Any]]:
        """Every service with its locator (``turn_on``, ``fan.set_speed_level``), declaration order."""
        out = [(s.name, s) for s in self.services]
        out += [(f"{c.name}.{s.name}", s) for c in self.components for s in c.services]
        return out


class RoomShape:
    __slots__ = ()


class HomeShape:
    __slots__ = ()
    if TYPE_CHECKING:
        rooms: list[Any]
        devices: list[Any]

    def check_references(self) -> Any:
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


# --- dynamics.py's shapes ----------------------------------------------------------------


class WhenShape(_OneTest):
    __slots__ = ()
    what = "a 'when' test"


class DriveShape:
    __slots__ = ()
    if TYPE_CHECKING:
        target: float | None
        target_attr: str | None

    def check_one_target(self) -> Any:
        if (self.target is None) == (self.target_attr is None):
            raise ValueError("a drive needs exactly one of 'target' and 'target_attr'")
        return self


class LightSourceShape:
    __slots__ = ()


class ShadeShape:
    __slots__ = ()


class SensorShape:
    __slots__ = ()


class PhaseShape:
    __slots__ = ()


class ExtraPhasesShape:
    __slots__ = ()


class CycleShape:
    __slots__ = ()
    if TYPE_CHECKING:
        running: Any
        countdown_attr: str
        phase_attr: str | None
        mode_attr: str | None
        programs: dict[str, list[Any]]
        phase_in_state: bool
        duration_attr: str | None
        extra_phases: list[Any]

    def check_phase_in_one_place(self) -> Any:
        if self.phase_in_state and self.phase_attr is not None:
            raise ValueError(
                "a cycle shows its phase in 'phase_attr' or in the state ('phase_in_state'), not both"
            )
        return self

    def program(self, mode: Any) -> list[Any]:
        return (
            self.programs.get(str(mode))
            or self.programs.get("*")
            or next(iter(self.programs.values()))
        )

    def phase_names(self) -> list[str]:
        """Every phase name any programme can show, in first-seen order."""
        lists = [*self.programs.values(), *(x.phases for x in self.extra_phases)]
        return list(dict.fromkeys(p.name for phases in lists for p in phases))

    def is_running(self, value: Any) -> bool:
        """Whether a state value means "running" (with ``phase_in_state``: any phase's name)."""
        if same(value, self.running):
            return True
        return self.phase_in_state and isinstance(value, str) and value in self.phase_names()

    def timing_attrs(self) -> tuple[str, ...]:
        """The attributes besides the state that decide how long is left: the countdown, the
        length and the mode (a write to one from outside re-times a running programme)."""
        return tuple(a for a in (self.countdown_attr, self.duration_attr, self.mode_attr) if a)

    def phases_for(self, state: Mapping[str, Any]) -> list[tuple[str, int]]:
        """``(name, seconds)`` of the programme the device's current settings select."""
        base = self.program(state[self.mode_attr] if self.mode_attr else None)
        out = [(p.name, p.seconds) for p in base]
        if self.duration_attr is not None:
            out = _stretched(out, state[self.duration_attr])
        for extra in self.extra_phases:
            if extra.when.holds(state[extra.when.attr]):
                out += [(p.name, p.seconds) for p in extra.phases]
        return out

    def phase_states(self, state: Mapping[str, Any]) -> list[Any]:
        """The state each phase of :meth:`phases_for` shows (None: ``running``)."""
        out = [p.state for p in self.program(state[self.mode_attr] if self.mode_attr else None)]
        for extra in self.extra_phases:
            if extra.when.holds(state[extra.when.attr]):
                out += [p.state for p in extra.phases]
        return out


def _stretched(phases: list[tuple[str, int]], total: Any) -> list[tuple[str, int]]:
    """``phases`` scaled to ``total`` seconds (whole seconds; phase ends rounded, so the
    lengths add up exactly); unchanged when ``total`` is not a positive number."""
    if (
        isinstance(total, bool)
        or not isinstance(total, int | float)
        or not total > 0
        or total > 10**9
    ):
        return phases
    full = sum(s for _, s in phases)
    out, acc, done = [], 0, 0
    for name, seconds in phases:
        acc += seconds
        end = round(total * acc / full)
        if end > done:
            out.append((name, end - done))
            done = end
    return out or phases


class DynamicsShape:
    __slots__ = ()
    if TYPE_CHECKING:
        drives: list[Any]
        lights: list[Any]
        shades: list[Any]
        sensors: list[Any]
        cycle: Any

    def locators(self) -> list[tuple[str, str]]:
        """``(field path, locator)`` of every attribute this block names, for reference checks."""
        out: list[tuple[str, str]] = []
        for i, d in enumerate(self.drives):
            out += [
                (f"drives.{i}.active_when.{j}.attr", w.attr) for j, w in enumerate(d.active_when)
            ]
            if d.target_attr:
                out.append((f"drives.{i}.target_attr", d.target_attr))
            if d.scale_attr:
                out.append((f"drives.{i}.scale_attr", d.scale_attr))
        for i, li in enumerate(self.lights):
            out += [
                (f"lights.{i}.active_when.{j}.attr", w.attr) for j, w in enumerate(li.active_when)
            ]
            if li.level_attr:
                out.append((f"lights.{i}.level_attr", li.level_attr))
        out += [(f"shades.{i}.open_attr", s.open_attr) for i, s in enumerate(self.shades)]
        out += [(f"sensors.{i}.attr", s.attr) for i, s in enumerate(self.sensors)]
        if self.cycle is not None:
            c = self.cycle
            out += [("cycle.state_attr", c.state_attr), ("cycle.countdown_attr", c.countdown_attr)]
            if c.phase_attr:
                out.append(("cycle.phase_attr", c.phase_attr))
            if c.mode_attr:
                out.append(("cycle.mode_attr", c.mode_attr))
            if c.duration_attr:
                out.append(("cycle.duration_attr", c.duration_attr))
            out += [
                (f"cycle.extra_phases.{i}.when.attr", x.when.attr)
                for i, x in enumerate(c.extra_phases)
            ]
            out += [(f"cycle.on_complete.{k}", k) for k in c.on_complete]
        return out

    def derived(self) -> set[str]:
        """Locators the simulator writes on its own (sensor readings, countdowns, phases).

        The verifier leaves them out of the preservation check: they change with time, not
        because an agent touched the device.
        """
        out = {s.attr for s in self.sensors}
        if self.cycle is not None:
            out.add(self.cycle.countdown_attr)
            if self.cycle.phase_attr:
                out.add(self.cycle.phase_attr)
        return out


class EnvironmentShape:
    __slots__ = ()


class MatterShape:
    __slots__ = ()


# --- rules.py's shapes -------------------------------------------------------------------


class ActionShape:
    __slots__ = ()


class TimeTriggerShape:
    __slots__ = ()


class StateTriggerShape:
    __slots__ = ()


class NumericTriggerShape:
    __slots__ = ()
    if TYPE_CHECKING:
        above: float | None
        below: float | None

    def check_band(self) -> Any:
        if self.above is None and self.below is None:
            raise ValueError("a numeric trigger needs 'above', 'below' or both")
        return self


class StateConditionShape:
    __slots__ = ()


class NumericConditionShape:
    __slots__ = ()


class TimeConditionShape:
    __slots__ = ()


class RuleShape:
    __slots__ = ()


class ScheduledActionShape:
    __slots__ = ()
    if TYPE_CHECKING:
        at: datetime


class OutdoorShape:
    __slots__ = ()


class SimulationShape:
    __slots__ = ()
    if TYPE_CHECKING:
        now: datetime
        outdoor: Any
