"""Which Home Assistant entity mirrors each HomeEnv attribute (pure: no HA imports).

Every attribute is observable in HA through exactly one entity. Attributes bound to a rich
entity (a light, a climate, a fan ... see :mod:`.rich`) are shown and controlled there; every
other attribute gets one generic entity, controllable when it has a setter or a
turn_on/turn_off pair:

==================  ==================================================================
switch              ``state``-like attributes with turn_on/turn_off; bools with a setter
binary_sensor       bools without a setter; read-only yes/no attributes written in words
select              attributes with options and a setter
number              numbers with a range and a setter
text                free strings with a setter or declared writable (alias ...)
sensor              everything else, read-only (measurements, counters, lists)
==================  ==================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from smh_core.homeenv.capabilities import Setter, Switch
from smh_core.homeenv.shapes import AttrType

from .convert import Convert

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from smh_core.homeenv.model import Attribute

UNITS = {
    "Celsius": "°C",
    "percentage": "%",
    "Kelvin": "K",
    "second": "s",
    "liter": "L",
    "lux": "lx",
    "degree": "°",
    "minute": "min",
}
# attribute name -> (HA sensor device class, the unit it needs)
SENSOR_DEVICE_CLASSES = {"battery_level": ("battery", "%")}


def unique_id(entry_id: str, did: str, key: str) -> str:
    """An entity's unique id: ``key`` is a generic entity's locator or a rich entity's key."""
    return f"{entry_id}_{did}_{key}"


@dataclass(frozen=True)
class Mirror:
    """One attribute's entity: its platform and how to change it."""

    platform: str
    did: str
    locator: str
    attribute: Attribute
    setter: Setter | None = None
    switch: Switch | None = None
    name: str | None = None  # None: made from the locator
    convert: Convert = field(default_factory=Convert)  # engine value -> HA value and back
    ha_unit: str | None = None  # the unit in HA when the conversion changes it
    ha_class: str | None = None  # HA device class, when known better than by attribute name
    diagnostic: bool = False  # raw protocol detail: HA's diagnostic category, disabled by default
    device_named: bool = False  # the device's only entity: named after the device (see entity_plan)

    @property
    def key(self) -> str:
        return self.locator

    @property
    def options(self) -> list[Any]:
        """The choices as HA shows them: the attribute's options, or the labelled values."""
        if self.attribute.options:
            return self.convert.options(self.attribute)
        return list(self.convert.values.values())

    @property
    def converted(self) -> bool:
        """Whether HA's state differs from the engine's value (a unit change or a label)."""
        return bool(self.convert.values) or self.convert.linear

    def to_ha(self, value: Any) -> Any:
        return self.convert.to_ha(value)

    def from_ha(self, value: Any) -> Any:
        return self.convert.from_ha(value, self.attribute)

    @property
    def unit(self) -> str | None:
        if self.ha_unit is not None:
            return self.ha_unit
        return UNITS.get(self.attribute.unit or "", self.attribute.unit or None)

    @property
    def device_class(self) -> str | None:
        if self.ha_class is not None:
            return self.ha_class
        device_class, unit = SENSOR_DEVICE_CLASSES.get(self.attribute.name, (None, None))
        return device_class if self.platform == "sensor" and unit == self.unit else None


_ON_WORDS = {
    frozenset({"yes", "no"}): "yes",
    frozenset({"true", "false"}): "true",
    frozenset({"detected", "clear"}): "detected",
}
"""Word pairs that only say yes or no. A read-only ``on``/``off`` state stays a sensor: it is a
device's power as reported by another component, which HA users read as a state, not an alarm."""


def binary_on_value(attr: Attribute) -> str | None:
    """The option meaning "on" when a text attribute is a yes/no in words (a motion sensor's
    ``human_detected``), so HA shows it as a binary sensor rather than a text sensor "yes"."""
    options = attr.options or []
    if (
        attr.type != AttrType.STR
        or len(options) != 2
        or not all(isinstance(o, str) for o in options)
    ):
        return None
    on = _ON_WORDS.get(frozenset(o.lower() for o in options))
    return next((o for o in options if o.lower() == on), None) if on else None


def generic_platform(attr: Attribute, setter: Setter | None, switch: Switch | None) -> str:
    """The platform of an attribute's generic entity (see the table above)."""
    t = attr.type
    if switch is not None:
        return "switch"
    if t == AttrType.BOOL:
        return "switch" if setter else "binary_sensor"
    if not setter and not attr.writable and binary_on_value(attr) is not None:
        return "binary_sensor"
    if attr.options and setter:
        return "select"
    if t in (AttrType.INT, AttrType.FLOAT) and attr.range is not None and setter:
        return "number"
    if t == AttrType.STR and not attr.options and (setter or attr.writable):
        return "text"
    return "sensor"
