"""How devices act on their room and on themselves over time, as data (the SimuHome layer).

A device type may carry a :class:`Dynamics` block next to its attributes and services. The
simulator (:mod:`smh_core.sim`) reads it; the engine only checks that every locator in it names
an attribute. Nothing here is code: an air conditioner's cooling, a light's lux and a washer's
programme are numbers and locators, so a new device type needs a YAML file, not a class.

Room variables and units
    ``temperature`` °C, ``humidity`` %RH, ``illuminance`` lux, ``pm25`` and ``pm10`` µg/m³.

Drives (temperature, humidity, pm25, pm10), per 0.1 s tick ``dt``::

    x' = x + dt * ( drift * (outdoor - x)  +  Σ_active  rate_i * scale_i * (output_i - x) )

``scale_i`` is the device's setting as a fraction of its maximum (fan percent / 100), so a
higher fan speed closes the gap faster. A drive with ``direction: down`` (cooling, dehumidifying,
purifying) only acts while ``x > target``; ``up`` only while ``x < target``; the room is then
held at the target. ``output`` defaults to the target. See :mod:`smh_core.sim.physics`.

Light sources (illuminance) are instantaneous: ``lux_i * level_i / level_max`` when active.
Daylight enters through the room's window factor, scaled by the open fraction of its shades.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Variable = Literal["temperature", "humidity", "illuminance", "pm25", "pm10"]
DRIVEN_VARIABLES: tuple[str, ...] = ("temperature", "humidity", "pm25", "pm10")
ROOM_VARIABLES: tuple[str, ...] = ("temperature", "humidity", "illuminance", "pm25", "pm10")


def same(a: Any, b: Any) -> bool:
    """Equality that keeps booleans apart from numbers (``True`` is not ``1``)."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class When(_Strict):
    """A test on one attribute of the same device (device-absolute locator)."""

    attr: str
    equals: Any = None
    in_: list[Any] | None = Field(default=None, alias="in")
    not_in: list[Any] | None = None

    @model_validator(mode="after")
    def _one_test(self) -> When:
        given = sum(x is not None for x in (self.equals, self.in_, self.not_in))
        if given != 1:
            raise ValueError("a 'when' test needs exactly one of 'equals', 'in', 'not_in'")
        return self

    def holds(self, value: Any) -> bool:
        if self.in_ is not None:
            return any(same(value, x) for x in self.in_)
        if self.not_in is not None:
            return not any(same(value, x) for x in self.not_in)
        return same(value, self.equals)


class Drive(_Strict):
    """One device's pull on one room variable while ``active_when`` all hold."""

    variable: Literal["temperature", "humidity", "pm25", "pm10"]
    active_when: list[When] = Field(default_factory=list)
    target: float | None = None
    """A fixed target in the variable's unit (a humidifier aims at 65 %RH)."""
    target_attr: str | None = None
    """Or an attribute holding the target (a setpoint), times ``target_scale`` (0.01 for Matter
    temperatures stored in hundredths of a degree)."""
    target_scale: float = 1.0
    output: float | None = None
    """What the device pushes towards while it acts, if not the target itself: an AC blows
    ~10 °C air until the room reaches its setpoint, then holds it (a thermostat)."""
    direction: Literal["down", "up", "both"] = "both"
    rate: float = Field(gt=0, le=1.0)
    """Fraction of the gap closed per second at full scale (1/s)."""
    scale_attr: str | None = None
    scale_max: float = Field(default=100.0, gt=0)
    scale_map: dict[str, float] | None = None
    """For enum settings (``low``/``medium``/``high``): the fraction per option."""

    @model_validator(mode="after")
    def _one_target(self) -> Drive:
        if (self.target is None) == (self.target_attr is None):
            raise ValueError("a drive needs exactly one of 'target' and 'target_attr'")
        return self


class LightSource(_Strict):
    """Lux a device adds to its room while active, scaled by a level attribute."""

    lux: float = Field(gt=0)
    active_when: list[When] = Field(default_factory=list)
    level_attr: str | None = None
    level_max: float = Field(default=254.0, gt=0)


class Shade(_Strict):
    """A window covering: the room's daylight is scaled by its open fraction."""

    open_attr: str
    open_max: float = Field(default=100.0, gt=0)
    inverted: bool = False
    """``True`` when the attribute measures how *closed* it is (Matter lift percent: 0 = open)."""


class Sensor(_Strict):
    """An attribute that reports a room variable: ``value = round(x * scale)`` (or float)."""

    variable: Variable | Literal["air_quality"]
    attr: str
    scale: float = 1.0


class Phase(_Strict):
    name: str
    seconds: int = Field(gt=0)
    state: Any = None
    """What the cycle's ``state_attr`` shows during this phase, where not ``running``: a robot
    vacuum seeking its dock (64) and then docked (66) before it stops, as SimuHome's does. The
    programme runs on through it, and a device set to it (a robot sent home) starts its
    programme at this phase."""


class ExtraPhases(_Strict):
    """Phases a programme gains at its end while a setting holds (a washer-dryer's drying)."""

    when: When
    phases: list[Phase] = Field(min_length=1)


class Cycle(_Strict):
    """A long-running appliance programme (washer, dryer, dishwasher, oven, robot vacuum).

    The simulator starts the programme of the current mode when ``state_attr`` becomes
    ``running`` from anything but ``paused``, counts ``countdown_attr`` down in whole seconds
    while running, freezes it while paused, steps ``phase_attr`` through the phases and on
    completion writes ``on_complete`` (``stopped`` when that names no state).

    Three options cover appliances whose controls are not Matter's: ``phase_in_state`` (the
    state itself names the running phase, a washer-dryer's ``washing`` -> ``rinsing`` ->
    ``spinning``), ``duration_attr`` (the user sets the length, an oven's cooking time: the
    phases are stretched to it) and ``extra_phases`` (appended while a setting holds).
    """

    state_attr: str
    running: Any
    paused: Any
    stopped: Any
    countdown_attr: str
    phase_attr: str | None = None
    mode_attr: str | None = None
    programs: dict[str, list[Phase]] = Field(min_length=1)
    """Programme per mode value (as text: ``"1"``); ``"*"`` is the default."""
    on_complete: dict[str, Any] = Field(default_factory=dict)
    phase_in_state: bool = False
    duration_attr: str | None = None
    """An attribute holding the programme's whole length in seconds."""
    extra_phases: list[ExtraPhases] = Field(default_factory=list)

    @model_validator(mode="after")
    def _phase_in_one_place(self) -> Cycle:
        if self.phase_in_state and self.phase_attr is not None:
            raise ValueError(
                "a cycle shows its phase in 'phase_attr' or in the state ('phase_in_state'), not both"
            )
        return self

    def program(self, mode: Any) -> list[Phase]:
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


class Dynamics(_Strict):
    drives: list[Drive] = Field(default_factory=list)
    lights: list[LightSource] = Field(default_factory=list)
    shades: list[Shade] = Field(default_factory=list)
    sensors: list[Sensor] = Field(default_factory=list)
    cycle: Cycle | None = None

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


class Environment(_Strict):
    """A room's climate. ``window_lux`` is the daylight reaching the room at full outdoor light."""

    temperature: float = 22.0
    humidity: float = 45.0
    pm25: float = 8.0
    pm10: float = 15.0
    window_factor: float = Field(default=0.02, ge=0)
    base_lux: float = Field(default=0.0, ge=0)


class Matter(_Strict):
    """Matter identity of a device built from Matter clusters (the bridge serves it as a node)."""

    device_types: dict[int, int]
    """Endpoint -> Matter device type id (endpoint 0, the root node, is implied)."""
    vendor_id: int = 0xFFF1
    product_id: int = 0x8000
