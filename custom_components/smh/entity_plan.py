"""Each device's entities: rich ones (:mod:`.rich`, Matter-style devices by :mod:`.matter`) and
one generic mirror (:mod:`.mirrors`) per attribute none of them covers (pure: no HA imports).

Its own module because it is the one place that picks between the HomeEnv and the Matter
planners, both of which build on :mod:`.mirrors`.

Names follow HA's ``has_entity_name`` convention, where an entity named ``None`` is the device's
main feature and shows the device's name: the device's own namespace always is; a component's
entity is too when it is the device's only entity of its platform and either the device's only
rich entity (a speaker's media player is "Outdoor Speakers", not "Outdoor Speakers Player") or
already named by the device ("Dining Room Fan Light" is the fan light's light, not "... Light
Light"); a generic entity is when it is all the device has. Every other entity adds its own
name ("Bedroom Fan Light Fan", "Kitchen Lamp Brightness"). HA's intents match these names.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from smh_core.homeenv.capabilities import setters, switches

from .matter import is_matter, matter_plan
from .mirrors import Mirror, generic_platform
from .rich import Rich, bindings

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from smh_core.homeenv.model import Device


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
        out.append(
            Mirror(generic_platform(attr, setter, switch), device.did, loc, attr, setter, switch)
        )
    return named(device, riches, out)


def component_title(namespace: str) -> str:
    """A component's entity name: ``fan`` -> "Fan", ``water_tank`` -> "Water tank"."""
    return namespace.replace("_", " ").capitalize()


def named(
    device: Device, riches: list[Rich], mirrors: list[Mirror]
) -> tuple[list[Rich], list[Mirror]]:
    """Mark the entities that take the device's name (see the module docstring)."""
    per_platform = Counter(r.platform for r in riches) + Counter(m.platform for m in mirrors)
    given = device.name.lower().split()

    def says(namespace: str) -> bool:
        words = component_title(namespace).lower().split()
        return len(given) > len(words) and given[-len(words) :] == words

    riches = [
        replace(r, device_named=True)
        if r.namespace
        and r.name is None
        and per_platform[r.platform] == 1
        and (len(riches) == 1 or says(r.namespace))
        else r
        for r in riches
    ]
    if not riches and len(mirrors) == 1 and mirrors[0].name is None:
        mirrors = [replace(mirrors[0], device_named=True)]
    return riches, mirrors


def mirrors(device: Device) -> list[Mirror]:
    """The generic entities of a device."""
    return plan(device)[1]
