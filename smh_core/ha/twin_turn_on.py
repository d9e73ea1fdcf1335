"""What turning a thermostat on does to its mode, learnt from the real device (issue 39).

HA's ``climate.turn_on`` on an entity without a turn-on of its own sets a mode (HA's
``ClimateEntity.async_turn_on``: of exactly two modes one of them off, the other; else the first
of heat_cool, heat, cool it offers), and it does so also when the entity is already on; an
integration with its own turn-on may resume the mode the device had. The twin's ``turn_on``
keeps its ``ac_mode``, so a task that turns a thermostat on could pass on the twin while the
real device ends in another mode. Integrations differ, so the rule is learnt, not written in:
the probe sets the device to a mode, turns it on while it is on, turns it off and on again, and
reads the mode each time; then the same from a second mode. What it can conclude:

* **lands in a fixed mode** M (the same M from both modes, not the mode it had each time): the
  twin's ``turn_on`` sets ``ac_mode`` to M too, from off only or also while on, as turning it on
  while on showed (:meth:`TurnOnLearnt.effect`, written into the device's service: services
  are data in the home, and the engine validates the value against the mode's options);
* **resumes** the mode it had: the twin's ``turn_on`` already does that, and keeps no effect on
  the mode;
* anything else (a call refused, a device that does not settle, does not take the mode it is
  set to, stays off, lands in a mode its twin has no name for through its mapping, or lands in
  a different mode from each) teaches nothing and is reported: the side-by-side report will
  flag the device, as it should.

Modes are read and set through the twin's mapping, so a mode is named as the twin names it
(HA's demo Ecobee lands in ``heat_cool``: its twin's modes, read through its mapping, are
``cool``, ``auto``, ``dry`` and ``fan_only``, so it has no name for it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from smh_core.homeenv.model import Device, Effect, Home, Requirement
from smh_core.homeenv.snapshot import Snapshot

from .device_sync import DeviceClient, in_motion
from .hardware_map import NOT_OBSERVED, HardwareMapping, ReadError
from .twin_map import high_risk

MODE = "ac_mode"
"""The twin's name for an HA climate entity's HVAC mode (the catalog air conditioner's mode,
:mod:`smh_core.importers.ha_entities`)."""

STAYED_OFF = "stayed off"
"""What a turn-on that left the device off landed in."""

LANDS = "Start the unit; {when} it starts in {mode} mode, as the real device does."
RESUMES = "Start the unit; it starts in the mode it had, as the real device does."
"""What :func:`set_turn_on` writes as the service's description (an agent reads it), in place
of the catalog's "Start the unit with its last settings"."""


def _shown(v: Any) -> str:
    return "not reported" if v is NOT_OBSERVED else str(v)


@dataclass(frozen=True)
class TurnOnSeen:
    """One round from mode ``prior``: the mode after ``turn_on`` while on in it, and the mode
    after ``turn_off`` then ``turn_on`` (:data:`STAYED_OFF` if it did not turn on); or the
    ``problem`` that ended the round."""

    prior: str
    while_on: Any = None
    landed: Any = None
    problem: str | None = None

    def describe(self) -> str:
        if self.problem:
            return f"from {self.prior}: {self.problem}"
        return (
            f"set {self.prior}, turned on while on: {_shown(self.while_on)}, "
            f"off and on: {_shown(self.landed)}"
        )


@dataclass(frozen=True)
class TurnOnLearnt:
    """What the probe learnt of one device's turn-on (nothing when ``note`` says why)."""

    did: str
    seen: tuple[TurnOnSeen, ...] = ()
    lands: str | None = None
    """The mode turn_on puts the device in whatever mode it had (None: not learnt)."""
    while_on: bool = False
    """``lands`` also when turned on while already on (else only from off)."""
    resumes: bool = False
    """It comes back on in the mode it had, as the twin's turn_on does."""
    note: str = ""

    def effect(self) -> Effect | None:
        """The twin's ``turn_on`` effect on the mode (None: turn_on leaves the mode alone)."""
        if self.lands is None:
            return None
        when = None if self.while_on else Requirement(attr="state", equals="off")
        return Effect(set=MODE, value=self.lands, when=when)

    def describe(self) -> str:
        if self.lands is not None:
            what = f"lands in {self.lands} whatever mode it had, " + (
                "also when already on: the twin's turn_on sets it"
                if self.while_on
                else "from off: the twin's turn_on sets it when it was off"
            )
        elif self.resumes:
            what = "comes back on in the mode it had, as the twin"
        else:
            what = ""
        what = "; ".join(w for w in (what, self.note) if w)
        seen = "; ".join(s.describe() for s in self.seen)
        return f"{self.did} turn_on: {what}" + (f" ({seen})" if seen else "")


def learn_turn_on(did: str, modes: Sequence[Any], seen: Iterable[TurnOnSeen]) -> TurnOnLearnt:
    """What rounds from two or more different modes (``seen``) say about the device's turn-on;
    ``modes``: the modes its twin can name."""
    rounds = tuple(seen)

    def nothing(why: str) -> TurnOnLearnt:
        return TurnOnLearnt(did, rounds, note=f"{why}: nothing learnt (it will be flagged)")

    failed = next((s for s in rounds if s.problem), None)
    if failed is not None:
        return nothing(f"from {failed.prior}: {failed.problem}")
    if len({s.prior for s in rounds}) < 2:
        return nothing("not seen from two different modes")
    if any(s.landed == STAYED_OFF for s in rounds):
        return nothing("turn_on left it off")
    if all(s.landed == s.prior for s in rounds):
        if all(s.while_on == s.prior for s in rounds):
            return TurnOnLearnt(did, rounds, resumes=True)
        note = "turned on while on it changed its mode: that is not learnt (the twin keeps it)"
        return TurnOnLearnt(did, rounds, resumes=True, note=note)
    landed = [s.landed for s in rounds]
    if any(m != landed[0] for m in landed):
        return nothing("it landed in a different mode from each, none the one it had")
    mode = landed[0]
    if mode not in modes:
        named = ", ".join(str(m) for m in modes)
        return nothing(f"it lands in {_shown(mode)}, a mode its twin has no name for ({named})")
    if all(s.while_on == mode for s in rounds):
        return TurnOnLearnt(did, rounds, lands=mode, while_on=True)
    if all(s.while_on == s.prior for s in rounds):
        return TurnOnLearnt(did, rounds, lands=mode)
    note = "turned on while on it did neither: that is not learnt (the twin keeps its mode then)"
    return TurnOnLearnt(did, rounds, lands=mode, note=note)


def turn_on_targets(
    home: Home, mapping: HardwareMapping, allow_high_risk: Iterable[str] = ()
) -> list[tuple[Device, list[Any]]]:
    """``(device, its twin's modes)`` of each device whose turn-on the probe asks about: one
    with a ``turn_on`` service, a :data:`MODE` and its power mapped, that is not high-risk or
    whose id is in ``allow_high_risk``. One whose mode the mapping cannot set, or with fewer
    than two modes, is listed too (the probe says there is nothing to learn) but not moved."""
    allowed = set(allow_high_risk)
    out = []
    for device in home.devices:
        did = device.did
        spec = next((a for a in device.attributes if a.name == MODE), None)
        power = mapping.get(did, "state")
        if (
            spec is None
            or power is None
            or power.set is None
            or not any(s.name == "turn_on" for s in device.services)
            or (high_risk(device) and did not in allowed)
        ):
            continue
        out.append((device, list(spec.options or [])))
    return out


def nothing_to_learn(did: str, modes: Sequence[Any], mapping: HardwareMapping) -> str | None:
    """Why the device's turn-on cannot be asked about (None: it can)."""
    amap = mapping.get(did, MODE)
    if len(modes) < 2:
        only = ", ".join(str(m) for m in modes) or "none"
        return f"its twin has one mode ({only}): turn_on can land in no other, nothing to learn"
    if amap is None or amap.set is None:
        return "its mode is not mapped (the real runs never read it): nothing to learn"
    return None


async def _settled(
    client: DeviceClient,
    mapping: HardwareMapping,
    did: str,
    like: Snapshot,
    quiet: float,
    timeout: float,
    interval: float,
) -> tuple[tuple[Any, Any] | None, bool]:
    """``(power, mode)`` once they have not changed for ``quiet`` seconds with the entity not in
    motion, and True; what was read last and False when ``timeout`` passes first."""
    keys = [(did, "state"), (did, MODE)]
    t0 = time.monotonic()
    last: tuple[Any, Any] | None = None
    changed = 0.0
    while (now := time.monotonic() - t0) < timeout:
        states = await client.states()
        got = []
        for loc in ("state", MODE):
            amap = mapping.get(did, loc)
            assert amap is not None
            try:
                got.append(amap.read(states.get(amap.entity), like.value(did, loc)))
            except ReadError as e:
                got.append(f"unreadable: {e}")
        read = (got[0], got[1])
        moving = bool(in_motion(mapping, states, keys))
        if read != last:
            last, changed = read, now
        elif not moving and now - changed >= quiet:
            return last, True
        await asyncio.sleep(interval)
    return last, False


async def observe_turn_on(
    client: DeviceClient,
    mapping: HardwareMapping,
    did: str,
    like: Snapshot,
    prior: str,
    quiet: float,
    timeout: float,
    interval: float,
) -> TurnOnSeen:
    """One round from mode ``prior``: set it, turn on while on, turn off, turn on; each call
    once (a retry would hide how the device behaves), each result read once it settles."""
    power, mode = mapping.get(did, "state"), mapping.get(did, MODE)
    assert power is not None and mode is not None
    # (mapping entry, value asked, what the step is, the power and mode it must then show:
    # None where what it shows is the observation)
    steps = (
        (mode, prior, f"set to {prior}", "on", prior),
        (power, "on", "turned on while on", "on", None),
        (power, "off", "turned off", "off", None),
        (power, "on", "turned on", None, None),
    )
    reads = []
    for amap, value, what, power_is, mode_is in steps:
        try:
            for domain, name, data in amap.calls(value):
                await client.call(domain, name, data)
        except RuntimeError as e:  # HaError: HA or the device refused the call
            return TurnOnSeen(prior, problem=f"{what}: refused ({str(e)[:120]})")
        read, still = await _settled(client, mapping, did, like, quiet, timeout, interval)
        if read is None or not still:
            return TurnOnSeen(prior, problem=f"{what}: still changing after {timeout:g} s")
        on, now = read
        if (power_is is not None and on != power_is) or (mode_is is not None and now != mode_is):
            return TurnOnSeen(prior, problem=f"{what}: shows {_shown(on)}, mode {_shown(now)}")
        reads.append(read)
    on, landed = reads[-1]
    return TurnOnSeen(prior, while_on=reads[1][1], landed=landed if on == "on" else STAYED_OFF)


def set_turn_on(device: Device, learnt: TurnOnLearnt) -> None:
    """Write what was learnt into ``device``'s ``turn_on`` (in place): a fixed mode as an effect
    on :data:`MODE`, "resumes" as no effect on it, each with a description that says so (an
    earlier probe's effect replaced); nothing learnt leaves it as it is."""
    if learnt.lands is None and not learnt.resumes:
        return
    for service in device.services:
        if service.name != "turn_on":
            continue
        kept = [e for e in service.effects if e.set.lstrip("/") != MODE]
        effect = learnt.effect()
        service.effects = kept + ([effect] if effect is not None else [])
        service.description = (
            RESUMES
            if learnt.lands is None
            else LANDS.format(
                when="whatever mode it was in," if learnt.while_on else "from off",
                mode=learnt.lands,
            )
        )
