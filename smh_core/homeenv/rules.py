"""Schedules and automation rules, stored with the home (pure data; the simulator runs them).

A rule is ``triggers -> conditions -> actions``. Triggers are edge-triggered: a state trigger
fires when the watched value *becomes* the wanted one, a numeric trigger when the value
*crosses* into its band, a time trigger at each cron match; a ``for_s`` duration arms a timer
that the opposite edge cancels ("no motion for 900 s"). Room variables are addressed like
device attributes with the pseudo device id ``@<room id>`` (``@kitchen`` / ``temperature``).

Cron strings use either the 5-field Unix form or the 6/7-field Quartz form of SMH-Bench
(``sec min hour day month weekday [year]``, ``?`` for "no specific value"); see
:mod:`smh_core.homeenv.cron`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .shapes import (
    ActionShape,
    NumericConditionShape,
    NumericTriggerShape,
    OutdoorShape,
    RuleShape,
    ScheduledActionShape,
    SimulationShape,
    StateConditionShape,
    StateTriggerShape,
    TimeConditionShape,
    TimeTriggerShape,
    default_daylight,
    default_drift,
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


class Action(ActionShape, _Strict):
    """A service call, exactly what ``HomeEngine.execute`` takes."""

    did: str
    locator: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class TimeTrigger(TimeTriggerShape, _Strict):
    kind: Literal["time"] = "time"
    cron: str


class StateTrigger(StateTriggerShape, _Strict):
    kind: Literal["state"] = "state"
    did: str
    locator: str
    to: Any = None
    """Fire when the value becomes this (``None``: on any change)."""
    from_: Any = Field(default=None, alias="from")
    for_s: float | None = Field(default=None, gt=0)


class NumericTrigger(NumericTriggerShape, _Strict):
    kind: Literal["numeric"] = "numeric"
    did: str
    locator: str
    above: float | None = None
    below: float | None = None
    for_s: float | None = Field(default=None, gt=0)

    _band = model_validator(mode="after")(NumericTriggerShape.check_band)


Trigger = Annotated[TimeTrigger | StateTrigger | NumericTrigger, Field(discriminator="kind")]


class StateCondition(StateConditionShape, _Strict):
    kind: Literal["state"] = "state"
    did: str
    locator: str
    equals: Any = None
    in_: list[Any] | None = Field(default=None, alias="in")


class NumericCondition(NumericConditionShape, _Strict):
    kind: Literal["numeric"] = "numeric"
    did: str
    locator: str
    above: float | None = None
    below: float | None = None


class TimeCondition(TimeConditionShape, _Strict):
    """A daily window (``after`` inclusive, ``before`` exclusive; wraps past midnight) and/or
    weekdays (0 = Monday)."""

    kind: Literal["time"] = "time"
    after: str | None = Field(default=None, pattern=r"^\d\d:\d\d(:\d\d)?$")
    before: str | None = Field(default=None, pattern=r"^\d\d:\d\d(:\d\d)?$")
    weekdays: list[int] | None = None


Condition = Annotated[
    StateCondition | NumericCondition | TimeCondition, Field(discriminator="kind")
]


class Rule(RuleShape, _Strict):
    id: str
    name: str = ""
    triggers: list[Trigger] = Field(min_length=1)
    conditions: list[Condition] = Field(default_factory=list)
    actions: list[Action] = Field(min_length=1)
    enabled: bool = True


class ScheduledAction(ScheduledActionShape, _Strict):
    """SimuHome's workflow: actions that run at an absolute simulated time."""

    id: str
    at: datetime
    actions: list[Action] = Field(min_length=1)
    status: Literal["pending", "done", "failed", "cancelled"] = "pending"
    error: str | None = None


class Outdoor(OutdoorShape, _Strict):
    """What rooms drift towards, and daylight per hour of the day (lux, 24 values)."""

    temperature: float = 24.0
    humidity: float = 50.0
    pm25: float = 12.0
    pm10: float = 25.0
    daylight: list[float] = Field(default_factory=default_daylight, min_length=24, max_length=24)


class Simulation(SimulationShape, _Strict):
    """Clock and climate settings of a simulated home."""

    now: datetime
    """The home's current simulated time (naive local time); ticks are 0.1 s."""
    outdoor: Outdoor = Field(default_factory=Outdoor)
    drift: dict[str, float] = Field(default_factory=default_drift)
    """Per-second pull of each room variable towards the outdoor value (1/s)."""
