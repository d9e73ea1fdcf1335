"""What a device can do, derived from its schema: which service sets which attribute.

Front-ends (the Home Assistant mirror, the oracle, UIs) need to turn "set attribute X to v"
into a service call and to know which attributes are switchable. Rather than a hand-kept
table per device type, this reads the declarative effects:

* a *setter* of attribute ``X`` is a service whose effects copy exactly one argument into
  ``X`` and that has no other required argument;
* a *switch* is an attribute with a ``turn_on`` / ``turn_off`` pair in its namespace that set
  it to constant values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from .model import Device, Service


@dataclass(frozen=True)
class Setter:
    service: str  # locator
    argument: str


@dataclass(frozen=True)
class Switch:
    on_service: str
    off_service: str
    on_value: object
    off_value: object


def _namespaced(device: Device) -> list[tuple[str, Service]]:
    out = [("", s) for s in device.services]
    out += [(c.name + ".", s) for c in device.components for s in c.services]
    return out


def _target(prefix: str, name: str) -> str:
    return name[1:] if name.startswith("/") else prefix + name


def setters(device: Device) -> dict[str, Setter]:
    """Attribute locator -> the service (and argument) that sets it; first declared wins."""
    out: dict[str, Setter] = {}
    for prefix, s in _namespaced(device):
        arg_effects = [(e.set, e.arg) for e in s.effects if e.arg is not None]
        required = [a.name for a in s.arguments if a.required]
        for target, arg in arg_effects:
            if required and required != [arg]:
                continue
            loc = _target(prefix, target)
            out.setdefault(loc, Setter(prefix + s.name, arg))
    return out


def switches(device: Device) -> dict[str, Switch]:
    """Attribute locator -> the turn_on/turn_off pair that sets it to constants."""
    by_ns: dict[str, dict[str, Service]] = {}
    for prefix, s in _namespaced(device):
        by_ns.setdefault(prefix, {})[s.name] = s
    out: dict[str, Switch] = {}
    for prefix, svcs in by_ns.items():
        on, off = svcs.get("turn_on"), svcs.get("turn_off")
        if on is None or off is None or on.arguments or off.arguments:
            continue
        on_vals = {
            _target(prefix, e.set): e.value
            for e in on.effects
            if e.value is not None and e.when is None
        }
        off_vals = {
            _target(prefix, e.set): e.value
            for e in off.effects
            if e.value is not None and e.when is None
        }
        for loc in on_vals.keys() & off_vals.keys():
            if on_vals[loc] != off_vals[loc]:
                out[loc] = Switch(
                    prefix + "turn_on", prefix + "turn_off", on_vals[loc], off_vals[loc]
                )
    return out
