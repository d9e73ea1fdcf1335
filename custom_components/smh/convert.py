"""Engine value <-> Home Assistant value for one attribute (pure: no HA imports).

HomeEnv attributes are mostly in HA's terms already; some need a word mapped (a vacuum's
``charging`` is HA's ``docked``). Matter attributes carry the cluster's units: temperatures in
0.01 °C, humidity and lift position in 0.01 %, power in mW, enums as numbers. A
:class:`Convert` says how to read one in HA's units (``ha = offset + scale * engine``, or a
label for an enum value) and how to turn an HA value back into the engine's, so the engine
still validates every value it is given.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from smh_core.homeenv.shapes import AttrType

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from smh_core.homeenv.model import Attribute


def _key(value: Any) -> Hashable | None:
    """A lookup key that keeps ``True`` apart from ``1`` (they hash alike)."""
    kind = type(value)
    if kind is str or kind is int or kind is float:  # nearly every value: no ABC check
        return value
    if kind is bool or not isinstance(value, Hashable):
        return None
    return value


@dataclass(frozen=True)
class Convert:
    """How one attribute reads in HA: enum labels and/or a linear unit change."""

    values: Mapping[Any, str] = field(default_factory=dict)  # engine value -> HA value
    scale: float = 1.0
    offset: float = 0.0

    @property
    def linear(self) -> bool:
        return self.scale != 1.0 or self.offset != 0.0

    @property
    def identity(self) -> bool:
        """HA reads the engine's value as it is (no label, no unit change)."""
        return not self.values and not self.linear

    def to_ha(self, value: Any) -> Any:
        if self.values:
            key = _key(value)
            if key is not None and key in self.values:
                return self.values[key]
        if self.linear and isinstance(value, int | float) and not isinstance(value, bool):
            out = round(self.offset + self.scale * value, 6)
            return int(out) if float(out).is_integer() else out
        return value

    def from_ha(self, value: Any, attribute: Attribute) -> Any:
        """The engine value for an HA value (unknown labels pass through, for the engine to refuse)."""
        if isinstance(value, str):
            allowed = attribute.options
            for engine, ha in self.values.items():  # first match among the attribute's own options
                if ha == value and (not allowed or engine in allowed):
                    return engine
        if self.linear and isinstance(value, int | float) and not isinstance(value, bool):
            value = (value - self.offset) / self.scale
            value = round(value) if attribute.type == AttrType.INT else round(value, 6)
        if attribute.type == AttrType.INT and isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    def options(self, attribute: Attribute) -> list[Any]:
        return [self.to_ha(o) for o in attribute.options or ()]

    def range(self, attribute: Attribute) -> tuple[float, float]:
        """The attribute's range in HA's units (low first, whatever the scale's sign)."""
        assert attribute.range is not None
        a, b = (self.to_ha(x) for x in attribute.range)
        return (min(a, b), max(a, b))
