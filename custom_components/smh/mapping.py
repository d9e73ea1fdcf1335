"""Which Home Assistant platform mirrors each HomeEnv attribute (pure: no HA imports).

Every attribute gets exactly one entity, so every attribute is observable in HA, and every
attribute with a setter or a turn_on/turn_off pair is controllable through it:

==================  ==================================================================
switch              ``state``-like attributes with turn_on/turn_off; bools with a setter
binary_sensor       bools without a setter
select              attributes with options and a setter
number              numbers with a range and a setter
text                free strings with a setter or declared writable (alias ...)
sensor              everything else, read-only (measurements, counters, lists)
==================  ==================================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from smh_core.homeenv.capabilities import Setter, Switch, setters, switches
from smh_core.homeenv.model import Attribute, AttrType, Device

UNITS = {"Celsius": "°C", "percentage": "%", "Kelvin": "K", "second": "s", "liter": "L", "lux": "lx",
         "degree": "°", "minute": "min"}


@dataclass(frozen=True)
class Mirror:
    """One attribute's entity: its platform and how to change it."""

    platform: str
    did: str
    locator: str
    attribute: Attribute
    setter: Setter | None = None
    switch: Switch | None = None

    @property
    def unit(self) -> str | None:
        return UNITS.get(self.attribute.unit or "", self.attribute.unit or None)


def mirrors(device: Device) -> list[Mirror]:
    st, sw = setters(device), switches(device)
    out = []
    for loc, attr in device.attributes_by_locator():
        setter, switch = st.get(loc), sw.get(loc)
        t = attr.type
        if switch is not None:
            platform = "switch"
        elif t == AttrType.BOOL:
            platform = "switch" if setter else "binary_sensor"
        elif attr.options and setter:
            platform = "select"
        elif t in (AttrType.INT, AttrType.FLOAT) and attr.range is not None and setter:
            platform = "number"
        elif t == AttrType.STR and not attr.options and (setter or attr.writable):
            platform = "text"
        else:
            platform = "sensor"
        out.append(Mirror(platform, device.did, loc, attr, setter, switch))
    return out
