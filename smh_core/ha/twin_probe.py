"""What a twin learns from its real devices (issue 39): ``smh home probe``.

A twin made from HA's registries knows a device's range but not how it moves: HA's demo window
takes 44 % as 40 and travels 10 % a second, where the twin's window jumps to any value at once.
Rather than have the twin-vs-real report excuse such a device, the probe asks each settable
number of each device that is not high-risk for two values off any coarse grid (44 % and 67 % of
its range), one call each, watches the value until it has not changed for a while, and puts
the device back as it found it. From what it saw it learns:

* a **step**: the device held values on a grid (every value it passed or stopped at is a
  multiple of one step from the range's start, and it stopped within a step of what it was
  asked): the twin's attribute and the service arguments that set it get that ``precision``,
  and task generators draw values the device can hold
  (:func:`smh_core.homeenv.samples.valid_value`);
* how it **rounds** a value off that grid: where it stopped below or above each off-grid value
  it was asked says ``nearest``, ``down`` or ``up``; when the two asks leave two of these
  possible, one more value between them is asked. The twin gets that ``rounding`` and takes an
  off-grid value as the device does (HA's demo window asked for 44 stops at 40, and so does its
  twin); when no rule fits, the twin refuses off-grid values, as a catalog device does;
* a **travel rate** (units per second) where it took a measurable time: written to the device's
  ``userdata.travel``, so the report expects the real device to take that long and flags it
  only when it is slower than its calibration.

A device that does not move at all for a call, that stops somewhere no grid explains, or
that is still changing when the probe gives up on it, is reported and nothing is learnt from
it: the report will flag it, as it should. Each thermostat it may move is also asked what its
turn-on does to its mode (a fixed mode, or the one it had: :mod:`.twin_turn_on`), and its
twin's ``turn_on`` does the same. A device HA shows unavailable (or no longer has) is
not moved at all. High-risk devices (:func:`.twin_map.high_risk`) are probed only where the user
names each one (``smh home probe --allow-high-risk DEVICE``, as for real runs): a device opted
in for real runs but never probed would differ from its twin as an unprobed window does.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from smh_core.homeenv.model import AttrType, Device, Home, Rounding
from smh_core.homeenv.snapshot import Snapshot

from .device_sync import IN_MOTION, DeviceClient, overlay, reach, read_all
from .hardware_map import NOT_OBSERVED, UNREACHABLE, HardwareMapping, ReadError
from .twin_map import high_risk
from .twin_turn_on import (
    TurnOnLearnt,
    learn_turn_on,
    nothing_to_learn,
    observe_turn_on,
    set_turn_on,
    turn_on_targets,
)

PROBE_AT = (0.44, 0.67)
"""Where in an attribute's range the probe asks (44 and 67 on 0-100): on no grid of 2, 5 or 10,
so a device that holds only such values shows it."""

QUIET_SECONDS = 1.5
"""A value unchanged this long, its entity not shown in motion, is where the device stopped
(HA's demo covers step once a second)."""

NOTHING_TO_PROBE = (
    "nothing to probe: no device that is not high-risk (or opted in) has a settable number "
    "or a mode to turn on in"
)

MEASURABLE_SECONDS = 0.5
"""Travel faster than this is taken as instant (HA's own round trip is in it)."""

ROUNDED: dict[Rounding, str] = {
    "nearest": "to the nearest step",
    "down": "down to a step",
    "up": "up to a step",
}


@dataclass(frozen=True)
class Observation:
    """One call and what the device did: ``path`` is ``(seconds after the call, value)`` at each
    change, starting with the value before the call."""

    asked: float
    path: tuple[tuple[float, Any], ...]
    refused: str | None = None
    still: bool = True
    """The value stopped changing before the probe gave up (False: still changing then)."""

    @property
    def start(self) -> Any:
        return self.path[0][1]

    @property
    def settled(self) -> Any:
        return self.path[-1][1]

    @property
    def seconds(self) -> float:
        """When the value it stopped at was first read."""
        return self.path[-1][0]


@dataclass(frozen=True)
class Learnt:
    """What the probe learnt about one attribute of one device (nothing when ``note`` says why)."""

    did: str
    locator: str
    observations: tuple[Observation, ...]
    step: float | None = None
    rate: float | None = None
    note: str = ""
    rounding: Rounding | None = None
    """How it takes a value off its grid (with a ``step``; None: not learnt, the twin refuses
    such values)."""

    def describe(self) -> str:
        seen = "; ".join(
            f"asked {o.asked:g}: {o.refused}"
            if o.refused
            else f"asked {o.asked:g}: {_shown(o.start)} -> {_shown(o.settled)} in {o.seconds:.1f} s"
            + ("" if o.still else ", still changing")
            for o in self.observations
        )
        learnt = []
        if self.step is not None:
            learnt.append(f"holds steps of {self.step:g}")
            learnt.append(
                f"takes other values {ROUNDED[self.rounding]}"
                if self.rounding
                else "how it takes other values not learnt (the twin refuses them)"
            )
        if self.rate is not None:
            learnt.append(f"moves {self.rate:.1f} a second")
        what = ", ".join(learnt) or self.note or "as the twin: exact and at once"
        return f"{self.did} {self.locator}: {what} ({seen})"


def _shown(v: Any) -> str:
    return "not reported" if v is NOT_OBSERVED else repr(v)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _grid(values: Iterable[float], lo: float) -> float | None:
    """The coarsest integer step from ``lo`` every value is on (None: values not all integral)."""
    offsets = [v - lo for v in values]
    if not all(float(o).is_integer() for o in offsets):
        return None
    step = 0
    for o in offsets:
        step = math.gcd(step, abs(int(o)))
    return float(step) if step else None


def fitting_rounding(observations: Iterable[Observation], lo: float, step: float) -> set[Rounding]:
    """The roundings every answered off-grid ask fits (where it stopped: the grid point below
    or above what was asked). A tie fits ``nearest`` only where it stopped on the even grid
    point, as the twin rounds ties (:func:`smh_core.homeenv.validation.grid_rounder`)."""
    fits: set[Rounding] = {"nearest", "down", "up"}
    for o in observations:
        if o.refused is not None or not _number(o.settled):
            continue
        k = (o.asked - lo) / step
        if k.is_integer():
            continue
        below, frac = math.floor(k), k - math.floor(k)
        if o.settled == lo + below * step:
            here: set[Rounding] = {"down"}
            if frac < 0.5 or (frac == 0.5 and below % 2 == 0):
                here.add("nearest")
        elif o.settled == lo + (below + 1) * step:
            here = {"up"}
            if frac > 0.5 or (frac == 0.5 and below % 2 == 1):
                here.add("nearest")
        else:
            here = set()
        fits &= here
    return fits


def tie_breaker(learnt: Learnt, lo: float, hi: float) -> float | None:
    """A value to ask to tell apart the two roundings the asks so far left possible
    (``nearest`` and one of ``down``/``up``): one above a grid point when ``up`` is possible
    (only ``up`` goes to the next step), one below the next grid point when ``down`` is (only
    ``down`` goes back), in a step near the middle of the range that the device is not at
    either end of (else a device that stays put could not be told from one that ignored the
    call). None when a rounding was learnt or none fits, or the grid is too fine (a step of 2
    has only ties between its points) or the range too narrow to ask one."""
    if learnt.step is None or learnt.rounding is not None:
        return None
    step = learnt.step
    fits = fitting_rounding(learnt.observations, lo, step)
    if len(fits) != 2 or step < 3:
        return None
    at = learnt.observations[-1].settled
    cells = int((hi - lo) // step)  # grid steps wholly inside the range
    for m in sorted(range(cells), key=lambda m: (abs(m - (cells - 1) / 2), m)):
        if at not in (lo + m * step, lo + (m + 1) * step):
            v = lo + m * step + (1 if "up" in fits else step - 1)
            return int(v) if float(v).is_integer() else v
    return None


def learn(did: str, locator: str, lo: float, observations: list[Observation]) -> Learnt:
    """What ``observations`` of one attribute (range starting at ``lo``) say about the device."""
    seen = tuple(observations)
    answered = [o for o in seen if o.refused is None and _number(o.settled)]
    if not answered:
        return Learnt(did, locator, seen, note="no call answered with a number: nothing learnt")
    if any(not o.still for o in seen if o.refused is None):
        note = "still changing when the probe gave up: nothing learnt (it will be flagged)"
        return Learnt(did, locator, seen, note=note)
    if any(o.settled == o.start != o.asked for o in answered):
        return Learnt(
            did, locator, seen, note="ignored a call: nothing learnt (it will be flagged)"
        )
    step = None
    if any(o.settled != o.asked for o in answered):
        step = _grid([v for o in answered for _, v in o.path if _number(v)], lo)
        if step is None or step <= 1 or any(abs(o.settled - o.asked) >= step for o in answered):
            note = "stopped off what it was asked, on no grid: nothing learnt (it will be flagged)"
            return Learnt(did, locator, seen, note=note)
    moved = [
        o
        for o in answered
        if o.seconds >= MEASURABLE_SECONDS and _number(o.start) and o.settled != o.start
    ]  # from a value HA did not report (an off light's brightness), no distance to time
    rate = min((abs(o.settled - o.start) / o.seconds for o in moved), default=None)
    fits = fitting_rounding(answered, lo, step) if step is not None else set()
    rounding = next(iter(fits)) if len(fits) == 1 else None
    return Learnt(did, locator, seen, step=step, rate=rate, rounding=rounding)


async def observe(
    client: DeviceClient,
    mapping: HardwareMapping,
    did: str,
    locator: str,
    like: Snapshot,
    asked: float,
    quiet: float = QUIET_SECONDS,
    timeout: float = 30.0,
    interval: float = 0.1,
) -> Observation:
    """Ask the device once for ``asked`` (no retries: a retry would hide how it behaves) and
    follow the value until it has been still for ``quiet`` seconds, or ``timeout`` passes."""
    amap = mapping.get(did, locator)
    assert amap is not None
    was = like.value(did, locator)

    def value(states: dict[str, dict[str, Any]]) -> tuple[Any, bool]:
        state = states.get(amap.entity)
        try:
            got = amap.read(state, was)
        except ReadError as e:
            got = f"unreadable: {e}"
        return got, str((state or {}).get("state")) in IN_MOTION

    start, _ = value(await client.states())
    path: list[tuple[float, Any]] = [(0.0, start)]
    t0 = time.monotonic()
    try:
        for domain, name, data in amap.calls(asked):
            await client.call(domain, name, data)
    except RuntimeError as e:  # HaError: HA or the device refused the call
        return Observation(asked, tuple(path), refused=f"refused ({str(e)[:120]})")
    changed = 0.0
    while (now := time.monotonic() - t0) < timeout:
        got, moving = value(await client.states())
        if got != path[-1][1]:
            path.append((round(now, 3), got))
            changed = now
        elif not moving and now - changed >= quiet:
            return Observation(asked, tuple(path))
        await asyncio.sleep(interval)
    return Observation(asked, tuple(path), still=False)


def probed(
    home: Home, mapping: HardwareMapping, allow_high_risk: Iterable[str] = ()
) -> list[tuple[Device, str, float, float]]:
    """``(device, locator, range start, range end)`` of every attribute the probe drives: a
    number with a range that the mapping can set, of a device that is not high-risk or whose id
    is in ``allow_high_risk``."""
    devices = {d.did: d for d in home.devices}
    allowed = set(allow_high_risk)
    out = []
    for did, locator, amap in mapping.items():
        device = devices.get(did)
        if device is None or amap.set is None or (high_risk(device) and did not in allowed):
            continue
        spec = dict(device.attributes_by_locator()).get(locator)
        if spec is None or spec.type not in (AttrType.INT, AttrType.FLOAT) or not spec.range:
            continue
        out.append((device, locator, spec.range[0], spec.range[1]))
    return out


@dataclass
class Probe:
    learnt: list[Learnt] = field(default_factory=list)
    restore_problems: list[str] = field(default_factory=list)
    turn_on: list[TurnOnLearnt] = field(default_factory=list)
    """What each thermostat's turn-on does to its mode (:mod:`.twin_turn_on`)."""

    def markdown(self) -> str:
        lines = ["# What the probe learnt from the real devices", ""]
        seen = [item.describe() for item in self.learnt]
        seen += [item.describe() for item in self.turn_on]
        lines += [f"- {line}" for line in seen] or [NOTHING_TO_PROBE]
        lines += [f"- NOT PUT BACK: {p}" for p in self.restore_problems]
        return "\n".join(lines) + "\n"


async def _put_back(
    client: DeviceClient,
    mapping: HardwareMapping,
    did: str,
    prior: dict[tuple[str, str], Any],
    like: Snapshot,
    timeout: float,
    interval: float,
) -> str | None:
    """Every settable attribute of ``did`` that HA showed before (``prior``) back as it was;
    the problem when it does not get there."""
    readable = {
        (d, loc)
        for d, loc, a in mapping.items()
        if d == did
        and a.set is not None
        and prior.get((d, loc)) is not NOT_OBSERVED
        and not isinstance(prior.get((d, loc)), ReadError)
    }
    back = await reach(
        client, mapping, overlay(like, prior), timeout, interval, readable, commanded=True
    )
    return back.problem


async def probe_home(
    client: DeviceClient,
    home: Home,
    mapping: HardwareMapping,
    like: Snapshot,
    quiet: float = QUIET_SECONDS,
    timeout: float = 30.0,
    interval: float = 0.1,
    allow_high_risk: Iterable[str] = (),
) -> Probe:
    """Drive each probed attribute (:func:`probed`, with the high-risk devices opted in)
    through :data:`PROBE_AT` (and one more
    value where they leave its rounding open, :func:`tie_breaker`), and turn each thermostat on
    from two of its modes (:func:`.twin_turn_on.turn_on_targets`), then put the device back
    as it was read before (every settable attribute HA showed), also when the probe fails
    half-way. A device HA shows unavailable, or no longer has, is not moved."""
    out = Probe()
    for device, locator, lo, hi in probed(home, mapping, allow_high_risk):
        did = device.did
        amap = mapping.get(did, locator)
        assert amap is not None
        states = await client.states()
        unreachable = _unreachable(states, amap.entity)
        if unreachable:
            out.learnt.append(Learnt(did, locator, (), note=unreachable))
            continue
        prior = read_all(mapping, states, like)
        try:
            seen = []
            for fraction in PROBE_AT:
                asked = round(lo + fraction * (hi - lo))
                seen.append(
                    await observe(
                        client, mapping, did, locator, like, asked, quiet, timeout, interval
                    )
                )
            got = learn(did, locator, lo, seen)
            extra = tie_breaker(got, lo, hi)
            if extra is not None:
                seen.append(
                    await observe(
                        client, mapping, did, locator, like, extra, quiet, timeout, interval
                    )
                )
                got = learn(did, locator, lo, seen)
            out.learnt.append(got)
        finally:
            problem = await _put_back(client, mapping, did, prior, like, timeout, interval)
            if problem:
                out.restore_problems.append(problem)
    for device, modes in turn_on_targets(home, mapping, allow_high_risk):
        did = device.did
        why = nothing_to_learn(did, modes, mapping)
        states = await client.states()
        power = mapping.get(did, "state")
        assert power is not None
        why = why or _unreachable(states, power.entity)
        if why:
            out.turn_on.append(TurnOnLearnt(did, note=why))
            continue
        prior = read_all(mapping, states, like)
        try:
            rounds = []
            for mode in modes[:2]:
                rounds.append(
                    await observe_turn_on(
                        client, mapping, did, like, mode, quiet, timeout, interval
                    )
                )
                if rounds[-1].problem:
                    break
            out.turn_on.append(learn_turn_on(did, modes, rounds))
        finally:
            problem = await _put_back(client, mapping, did, prior, like, timeout, interval)
            if problem:
                out.restore_problems.append(problem)
    return out


def _unreachable(states: dict[str, dict[str, Any]], entity: str) -> str:
    """Why ``entity`` is not moved (HA does not have it, or shows it unavailable), or ""."""
    state = states.get(entity)
    if state is not None and state.get("state") not in UNREACHABLE:
        return ""
    shown = "not in Home Assistant" if state is None else f"{state.get('state')}"
    return f"{entity} is {shown}: not moved, nothing learnt"


def calibrated(home: Home, learnt: Iterable[Learnt], turn_on: Iterable[TurnOnLearnt] = ()) -> Home:
    """``home`` with what was learnt written in: a step as the ``precision`` of the attribute
    and of every service argument that sets it, with the ``rounding`` learnt for off-grid
    values; a travel rate in ``userdata.travel``; what turning a thermostat on does to its
    mode into its ``turn_on`` (:func:`.twin_turn_on.set_turn_on`)."""
    out = home.model_copy(deep=True)
    devices = {d.did: d for d in out.devices}
    for item_on in turn_on:
        if item_on.did in devices:
            set_turn_on(devices[item_on.did], item_on)
    for item in learnt:
        device = devices.get(item.did)
        if device is None:
            continue
        if item.step is not None:
            _set_precision(device, item.locator, item.step, item.rounding)
        if item.rate is not None:
            travel = dict(device.userdata.travel or {})
            travel[item.locator] = round(item.rate, 2)
            device.userdata.travel = travel
    return out


def _set_precision(device: Device, locator: str, step: float, rounding: Rounding | None) -> None:
    prefix, _, name = locator.rpartition(".")
    owners = [device] if not prefix else [c for c in device.components if c.name == prefix]
    for owner in owners:
        for attr in owner.attributes:
            if attr.name == name:
                attr.precision, attr.rounding = step, rounding
        for service in owner.services:
            for effect in service.effects:
                if effect.set.lstrip("/") == name and effect.arg is not None:
                    for arg in service.arguments:
                        if arg.name == effect.arg:
                            arg.precision, arg.rounding = step, rounding
