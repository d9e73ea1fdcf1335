"""The hardware mapping a twin implies (issue 39, item 3): each twin device onto the entity it
was made from, no name matching and no hand edits.

A twin's devices keep their entity ids (:mod:`.twin`), so the unit each device stands for is
known: the entity of the same id, or for a Matter device (which keeps its HA device's id,
:mod:`.twin_matter`) that device with all its entities. Each attribute is then bound by the
same rules ``smh ha map`` uses (:mod:`.map_rules`), and the file is written the same way
(:func:`.map_propose.render`).
High-risk devices (locks, alarms, ovens, water heaters... as the action guard's policy defines
them) are left out of real runs unless the user names each one: a benchmark on a real home must
not unlock its door because a task said so.
A climate whose HA device also has a ``power`` switch (a Matter room air conditioner's OnOff)
is left out even when opted in: HA shows it off and refuses its calls while that switch is
off, and the twin holds the two as devices that know nothing of each other
(:func:`power_elsewhere`).
"""

from __future__ import annotations

from collections.abc import Iterable

from smh_core.agent.safety import load_policy
from smh_core.homeenv.model import Device, Home
from smh_core.task.model import HomeRef

from .ha_inventory import Inventory, Unit
from .map_propose import PartChoice, Proposal, score_unit, task_parts


def high_risk(device: Device) -> str | None:
    """The guard's label for what makes ``device`` high-risk (``"unlocking a door"``), or None."""
    facts = {
        "category": device.userdata.category,
        "subcategory": device.userdata.subcategory,
        "name": device.name,
        "did": device.userdata.did,
    }
    return next((rule.label for rule in load_policy() if rule.applies_to(facts)), None)


POWER_KEY = "power"
"""HA's translation key of an appliance's own power switch (the matter integration's OnOff
toggle of a room air conditioner, air purifier, dishwasher...)."""


def power_elsewhere(did: str, inventory: Inventory) -> str | None:
    """The ``power`` switch on the same HA device as the climate entity ``did``, or None.

    Measured on SMH's Matter bridge home through HA's matter integration (HA 2026.2): while a
    room air conditioner's power switch is off, its climate entity shows ``off`` and HA refuses
    its turn_on, HVAC mode and temperature calls (the unit refuses Thermostat writes), and
    switching the power on turns the climate on in the mode it kept. A twin made of HA's
    entities holds the climate and the switch as two devices that know nothing of each
    other, so neither a task's start state nor the twin's turn_on can be trusted on such a
    climate: it is not compared (``smh home from-ha --matter`` holds both as one device)."""
    entity = inventory.entities.get(did)
    if entity is None or entity.domain != "climate" or entity.device_id is None:
        return None
    return min(
        (
            e.entity_id
            for e in inventory.entities.values()
            if e.device_id == entity.device_id
            and e.domain == "switch"
            and e.translation_key == POWER_KEY
        ),
        default=None,
    )


def _own_unit(did: str, inventory: Inventory, devices: dict[str, Unit]) -> Unit | None:
    """What a twin device stands for: the entity of its id, or (a Matter device, whose id is its
    HA device's, :mod:`.twin_matter`) that HA device with all its entities."""
    entity = inventory.entities.get(did)
    if entity is not None:
        return Unit(entity.entity_id, entity.name, entity.area, (entity,))
    return devices.get(did)


def twin_mapping(
    home: Home, ref: HomeRef, inventory: Inventory, allow_high_risk: Iterable[str] = ()
) -> Proposal:
    """The twin's devices onto their own entities in the HA ``inventory`` describes; high-risk
    devices skipped unless their id is in ``allow_high_risk`` (an id there that is not a
    high-risk device of the home is refused: a typo must not pass silently); a climate its
    device's power switch gates (:func:`power_elsewhere`) skipped whatever is allowed."""
    allowed = set(allow_high_risk)
    risky = {d.userdata.did: label for d in home.devices if (label := high_risk(d))}
    unknown = sorted(allowed - set(risky))
    if unknown:
        raise ValueError(
            f"--allow-high-risk {', '.join(unknown)}: not a high-risk device of this home "
            f"(its high-risk devices: {', '.join(sorted(risky)) or 'none'})"
        )
    gated = {
        d.userdata.did: switch
        for d in home.devices
        if (switch := power_elsewhere(d.userdata.did, inventory)) is not None
    }
    skipped = sorted({*(did for did in risky if did not in allowed), *gated})
    devices = {unit.key: unit for unit in inventory.units() if unit.key in inventory.devices}
    choices = []
    for part in task_parts(home):
        choice = PartChoice(part)
        if part.did in skipped:
            choices.append(choice)
            continue
        unit = _own_unit(part.did, inventory, devices)
        if unit is None:
            choice.unmatched = f"{part.did} is not in this Home Assistant (removed or renamed since the twin was made?)"
        else:
            candidate = score_unit(part, unit)
            if candidate.bindings:
                choice.chosen = candidate
            else:
                choice.unmatched = "no rule maps any of its attributes onto its entity"
        choices.append(choice)
    notes = [
        f"{did}: left out of real runs: its HA device's power switch {gated[did]} gates it "
        "(HA shows it off and refuses its calls while that switch is off; the twin holds the "
        "two apart): make the twin with `smh home from-ha --matter` to run it"
        if did in gated
        else f"{did}: left out of real runs: {risky[did]} is high-risk (--allow-high-risk {did} to include it)"
        for did in skipped
    ]
    return Proposal(ref, choices, skipped=skipped, notes=notes)
