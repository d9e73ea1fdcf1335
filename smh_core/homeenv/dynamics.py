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

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .shapes import AIR_QUALITY_BANDS as AIR_QUALITY_BANDS
from .shapes import DRIVEN_VARIABLES as DRIVEN_VARIABLES
from .shapes import ROOM_VARIABLES as ROOM_VARIABLES
from .shapes import (
    CycleShape,
    DriveShape,
    DynamicsShape,
    EnvironmentShape,
    ExtraPhasesShape,
    LightSourceShape,
    MatterShape,
    PhaseShape,
    SensorShape,
    ShadeShape,
    WhenShape,
)
from .shapes import Variable as Variable
from .shapes import air_quality_class as air_quality_class
from .shapes import same as same


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class When(WhenShape, _Strict):
    """A test on one attribute of the same device (device-absolute locator)."""

    attr: str
    equals: Any = None
    in_: list[Any] | None = Field(default=None, alias="in")
    not_in: list[Any] | None = None

    _one_test = model_validator(mode="after")(WhenShape.check_one_test)


class Drive(DriveShape, _Strict):
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

    _one_target = model_validator(mode="after")(DriveShape.check_one_target)


class LightSource(LightSourceShape, _Strict):
    """Lux a device adds to its room while active, scaled by a level attribute."""

    lux: float = Field(gt=0)
    active_when: list[When] = Field(default_factory=list)
    level_attr: str | None = None
    level_max: float = Field(default=254.0, gt=0)


class Shade(ShadeShape, _Strict):
    """A window covering: the room's daylight is scaled by its open fraction."""

    open_attr: str
    open_max: float = Field(default=100.0, gt=0)
    inverted: bool = False
    """``True`` when the attribute measures how *closed* it is (Matter lift percent: 0 = open)."""


class Sensor(SensorShape, _Strict):
    """An attribute that reports a room variable: ``value = round(x * scale)`` (or float)."""

    variable: Variable | Literal["air_quality"]
    attr: str
    scale: float = 1.0


class Phase(PhaseShape, _Strict):
    name: str
    seconds: int = Field(gt=0)
    state: Any = None
    """What the cycle's ``state_attr`` shows during this phase, where not ``running``: a robot
    vacuum seeking its dock (64) and then docked (66) before it stops, as SimuHome's does. The
    programme runs on through it, and a device set to it (a robot sent home) starts its
    programme at this phase."""


class ExtraPhases(ExtraPhasesShape, _Strict):
    """Phases a programme gains at its end while a setting holds (a washer-dryer's drying)."""

    when: When
    phases: list[Phase] = Field(min_length=1)


class Cycle(CycleShape, _Strict):
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

    _phase_in_one_place = model_validator(mode="after")(CycleShape.check_phase_in_one_place)


class Dynamics(DynamicsShape, _Strict):
    drives: list[Drive] = Field(default_factory=list)
    lights: list[LightSource] = Field(default_factory=list)
    shades: list[Shade] = Field(default_factory=list)
    sensors: list[Sensor] = Field(default_factory=list)
    cycle: Cycle | None = None


class Environment(EnvironmentShape, _Strict):
    """A room's climate. ``window_lux`` is the daylight reaching the room at full outdoor light."""

    temperature: float = 22.0
    humidity: float = 45.0
    pm25: float = 8.0
    pm10: float = 15.0
    window_factor: float = Field(default=0.02, ge=0)
    base_lux: float = Field(default=0.0, ge=0)


class Matter(MatterShape, _Strict):
    """Matter identity of a device built from Matter clusters (the bridge serves it as a node)."""

    device_types: dict[int, int]
    """Endpoint -> Matter device type id (endpoint 0, the root node, is implied)."""
    vendor_id: int = 0xFFF1
    product_id: int = 0x8000
