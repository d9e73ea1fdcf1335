"""Each device's entities: rich ones (:mod:`.rich`, Matter-style devices by :mod:`.matter`) and
one generic mirror (:mod:`.mirrors`) per attribute none of them covers (pure: no HA imports).

Its own module because it is the one place that picks between the HomeEnv and the Matter
planners, both of which build on :mod:`.mirrors`.
"""

from __future__ import annotations

from smh_core.homeenv.capabilities import setters, switches
from smh_core.homeenv.model import Device

from .matter import is_matter, matter_plan
from .mirrors import Mirror, generic_platform
from .rich import Rich, bindings


def plan(device: Device) -> tuple[list[Rich], list[Mirror]]:
    """The device's rich entities, and one generic mirror per attribute none of them covers.

    Matter-style devices are planned by :mod:`.matter` (their entity spans clusters)."""
    if is_matter(device):
        return matter_plan(device)
    st, sw = setters(device), switches(device)
    riches = bindings(device, st, sw)
    covered = {loc for r in riches for loc in r.locators}
    out = []
    for loc, attr in device.attributes_by_locator():
        if loc in covered:
            continue
        setter, switch = st.get(loc), sw.get(loc)
        out.append(Mirror(generic_platform(attr, setter, switch), device.did, loc, attr, setter, switch))
    return riches, out


def mirrors(device: Device) -> list[Mirror]:
    """The generic entities of a device."""
    return plan(device)[1]
