"""``smh ha map``: propose a hardware mapping from what a live Home Assistant has.

A task home's devices are matched to HA's devices and entities (:mod:`.ha_inventory`) in two
steps. First each device *part* (a Matter endpoint, a HomeEnv component such as a fan-light's
``fan``, or the device itself) is matched to an HA *unit* (an HA device with its entities, or an
entity without a device) by a score: 60 % name (the share of words the part's name, with and
without its room, has in common with the unit's or one of its entities' names), 25 % area (the
unit is in the part's room: 1, has no area: 0.5, elsewhere: 0) and 15 % coverage (the share of
the part's attributes some rule knows that bind to the unit's entities, :mod:`.map_rules`).
A unit needs a name score of at least :data:`MIN_NAME` and one bound attribute; the best pairs
are taken first and a unit serves one task device only. Then each attribute of a matched part
is bound to the unit's entity its rule names, with the conversion and the service call.

Every decision carries its reason: a matched part its score and what made it, an attribute
left out why, an unmatched device what was closest. A file written before is respected: the
devices it maps (whose entities still exist) and those it skips are kept as they are, so hand
edits and ``--interactive`` choices survive a re-run. The written file is what
:func:`~smh_core.ha.hardware_map.load_mapping` and ``smh ha check-mapping`` read; the same
inventory and home give the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.task.model import HomeRef

from .ha_inventory import Inventory, Unit
from .hardware_map import HardwareMapping
from .map_rules import Binding, TaskAttr, bind, has_rule, words

MIN_NAME = 0.4
"""Least name score (shared words) for a unit to be a candidate at all."""
WEIGHTS = {"name": 0.6, "area": 0.25, "coverage": 0.15}
TIMEOUT_SECONDS = 15
NO_RULE = "no rule maps them (limits, lists and settings HA does not show)"


@dataclass(frozen=True)
class Part:
    """What one HA unit stands for: a whole device, one HomeEnv component or one Matter endpoint."""

    did: str
    key: str
    label: str
    room: str | None
    attrs: tuple[TaskAttr, ...]


def task_parts(home: Home) -> list[Part]:
    """The parts of every device in ``home``, in device order."""
    engine = HomeEngine(home)
    rooms = {r.id: r.name for r in home.rooms}
    out = []
    for device in home.devices:
        did = device.userdata.did
        status = engine.status(did)
        groups: dict[str, list[TaskAttr]] = {}
        for locator, spec in device.attributes_by_locator():
            attr = TaskAttr(
                did,
                locator,
                spec,
                status,
                f"{device.userdata.category} {device.userdata.subcategory}",
            )
            key = locator.split(".", 1)[0] if "." in locator else ""
            groups.setdefault(key, []).append(attr)
        for key, attrs in groups.items():
            matter = key.isdigit()
            if matter and len(groups) > 1:
                label = f"{device.name} (endpoint {key})"
            elif key and not matter:
                label = f"{device.name} ({key})"
            else:
                label = device.name
            out.append(Part(did, key, label, rooms.get(device.userdata.room or ""), tuple(attrs)))
    return out


def name_score(part: Part, unit: Unit) -> tuple[float, str]:
    """Shared words (Dice) between the part's name, with or without its room, and the best of
    the unit's names; returns the score and the name it came from."""
    own = words(re.sub(r"\((endpoint \d+)\)", "", part.label))
    tries = [own] + ([own | words(part.room)] if part.room else [])
    best, best_name = 0.0, unit.name
    for name in unit.names():
        theirs = words(name)
        for mine in tries:
            if mine and theirs:
                score = 2 * len(mine & theirs) / (len(mine) + len(theirs))
                if score > best:
                    best, best_name = score, name
    return best, best_name


@dataclass
class Candidate:
    """One unit scored for one part, with what binds there and what does not."""

    unit: Unit
    name: float
    named: str
    area: float
    bindings: dict[str, Binding]
    misses: dict[str, str]
    applicable: int

    @property
    def coverage(self) -> float:
        known = max(self.applicable, len(self.bindings))
        return len(self.bindings) / known if known else 0.0

    @property
    def score(self) -> float:
        return round(
            WEIGHTS["name"] * self.name
            + WEIGHTS["area"] * self.area
            + WEIGHTS["coverage"] * self.coverage,
            3,
        )

    def reason(self) -> str:
        where = {1.0: f"in area {self.unit.area}", 0.5: "no area"}.get(
            self.area, f"area {self.unit.area} (another room)"
        )
        return (
            f"score {self.score:.2f}: name {self.named!r} ({self.name:.0%} shared words), {where}, "
            f"{len(self.bindings)} of {max(self.applicable, len(self.bindings))} attributes"
        )


def score_unit(part: Part, unit: Unit) -> Candidate:
    name, named = name_score(part, unit)
    if unit.area is None:
        area = 0.5
    elif part.room is not None and unit.area.casefold() == part.room.casefold():
        area = 1.0
    else:
        area = 0.0
    bindings: dict[str, Binding] = {}
    misses: dict[str, str] = {}
    applicable = 0
    for attr in part.attrs:
        applicable += has_rule(attr)
        out = bind(attr, unit)
        if isinstance(out, Binding):
            bindings[attr.locator] = out
        else:
            misses[attr.locator] = out
    return Candidate(unit, name, named, area, bindings, misses, applicable)


@dataclass
class PartChoice:
    """What the proposal does with one part."""

    part: Part
    chosen: Candidate | None = None
    others: list[Candidate] = field(default_factory=list)
    """Further candidates, best first (what ``--interactive`` offers)."""
    unmatched: str | None = None


@dataclass
class Proposal:
    ref: HomeRef
    choices: list[PartChoice]
    kept: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Devices kept as the earlier file had them: did -> its entries."""
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What happened to the earlier file's devices that could not be kept."""
    timeout_seconds: float = TIMEOUT_SECONDS

    def devices(self) -> dict[str, dict[str, Any]]:
        """did -> locator -> mapping entry, kept devices included (in device order)."""
        out: dict[str, dict[str, Any]] = {}
        for choice in self.choices:
            did = choice.part.did
            if did in self.kept:
                out[did] = self.kept[did]
            elif choice.chosen is not None and did not in self.skipped:
                out.setdefault(did, {}).update(
                    {loc: b.entry() for loc, b in choice.chosen.bindings.items()}
                )
        return out

    def unmatched(self) -> dict[str, str]:
        """Part label (with did) -> why it has no unit; kept and skipped devices left out."""
        return {
            f"{c.part.did} {c.part.label}": c.unmatched or ""
            for c in self.choices
            if c.chosen is None and c.part.did not in self.kept and c.part.did not in self.skipped
        }

    def mapping(self) -> HardwareMapping:
        data: dict[str, Any] = {
            "home": self.ref.model_dump(exclude_defaults=True),
            "devices": self.devices(),
        }
        if self.skipped:
            data["skip"] = list(self.skipped)
        return HardwareMapping.model_validate(data)


def _assign(parts: list[Part], units: list[Unit]) -> list[PartChoice]:
    scored = {
        id(p): sorted((score_unit(p, u) for u in units), key=lambda c: (-c.score, c.unit.key))
        for p in parts
    }
    eligible = [
        (c.score, i, c)
        for i, p in enumerate(parts)
        for c in scored[id(p)]
        if c.bindings and c.name >= MIN_NAME
    ]
    owner: dict[str, str] = {}
    choices = [PartChoice(p) for p in parts]
    for _, i, cand in sorted(eligible, key=lambda t: (-t[0], t[1], t[2].unit.key)):
        choice, did = choices[i], parts[i].did
        if choice.chosen is None and owner.get(cand.unit.key, did) == did:
            choice.chosen = cand
            owner[cand.unit.key] = did
    for choice in choices:
        ranked = [c for c in scored[id(choice.part)] if c.bindings and c is not choice.chosen]
        choice.others = ranked[:5]
        if choice.chosen is None:
            choice.unmatched = _why_unmatched(choice.part, scored[id(choice.part)], owner)
    return choices


def _why_unmatched(part: Part, ranked: list[Candidate], owner: Mapping[str, str]) -> str:
    usable = [c for c in ranked if c.bindings]
    if not usable:
        return "no HA device or entity can hold any of its attributes"
    named = [c for c in usable if c.name >= MIN_NAME]
    if not named:
        best = max(usable, key=lambda c: c.name)
        return (
            f"no HA device is named like it (closest: {best.named!r}, {best.name:.0%} shared words)"
        )
    best = named[0]
    return f"its best match {best.unit.name!r} went to device {owner.get(best.unit.key)} (a better match there)"


def _entities_of(entry: Mapping[str, Any]) -> set[str]:
    out = {str(entry.get("entity", ""))}
    calls = entry.get("set")
    for call in (
        calls.values() if isinstance(calls, Mapping) and "service" not in calls else [calls]
    ):
        if (
            isinstance(call, Mapping)
            and isinstance(call.get("data"), Mapping)
            and "entity_id" in call["data"]
        ):
            out.add(str(call["data"]["entity_id"]))
    return out


def _plain(value: Any) -> Any:
    """A dumped model as YAML-safe data (tuples as lists; booleans and numbers as keys kept)."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def check_earlier(earlier: HardwareMapping, ref: HomeRef) -> None:
    """An earlier file is only kept from if it maps the same home."""
    if earlier.home.key() != ref.key():
        raise ValueError(
            f"{earlier.path} maps the home {earlier.home.key()}, not {ref.key()}: "
            f"write to another file (or move it away to start over)"
        )


def propose(
    home: Home, ref: HomeRef, inventory: Inventory, earlier: HardwareMapping | None = None
) -> Proposal:
    """The mapping of ``home`` (tasks name it ``ref``) onto the HA described by ``inventory``,
    keeping what ``earlier`` (a file written before) chose."""
    kept: dict[str, dict[str, Any]] = {}
    notes: list[str] = []
    skipped: list[str] = []
    dids = {d.userdata.did for d in home.devices}
    if earlier is not None:
        check_earlier(earlier, ref)
        skipped = [did for did in earlier.skip if did in dids]
        for did, attrs in earlier.devices.items():
            entries = {
                loc: _plain(amap.model_dump(exclude_defaults=True)) for loc, amap in attrs.items()
            }
            gone = sorted(
                {e for entry in entries.values() for e in _entities_of(entry)}
                - set(inventory.entities)
            )
            if did in skipped:
                continue  # skipped wins: the user wants it unmapped
            if did not in dids:
                notes.append(f"{did}: in the earlier file but not in the home; dropped")
            elif gone:
                notes.append(
                    f"{did}: the earlier choice used {', '.join(gone)}, no longer in HA; proposed again"
                )
            else:
                kept[did] = entries
    taken = {
        e for entries in kept.values() for entry in entries.values() for e in _entities_of(entry)
    }
    units = [u for u in inventory.units() if not {e.entity_id for e in u.entities} & taken]
    parts = [p for p in task_parts(home) if p.did not in kept and p.did not in skipped]
    choices = _assign(parts, units)
    by_part = {(c.part.did, c.part.key): c for c in choices}
    all_choices = [by_part.get((p.did, p.key)) or PartChoice(p) for p in task_parts(home)]
    return Proposal(
        ref,
        all_choices,
        kept,
        skipped,
        notes,
        earlier.timeout_seconds if earlier is not None else TIMEOUT_SECONDS,
    )


# ---------------------------------------------------------------------------- the file
def _flow(value: Any) -> str:
    """``value`` as one line of YAML (flow style)."""
    text = yaml.safe_dump(
        value, default_flow_style=True, sort_keys=False, width=10**6, allow_unicode=True
    ).strip()
    return text.removesuffix("\n...").strip()


def _comment(text: str, indent: int) -> list[str]:
    return [" " * indent + "# " + line for line in text.splitlines()]


def render(proposal: Proposal, source: str = "Home Assistant") -> str:
    """The mapping file: every choice as YAML, its reason and what is left out as comments.
    Refused (``ValueError``, nothing to write) when no device maps: a file without devices is
    one the runner cannot load, and a run on it would have nothing to run."""
    devices = proposal.devices()
    if not devices:
        why = [f"{k}: {v}" for k, v in proposal.unmatched().items()]
        why += [f"{did}: left out (high-risk)" for did in proposal.skipped]
        raise ValueError(
            f"no device of the home {proposal.ref.key()} maps onto an entity of {source}, so "
            "there is no mapping to write"
            + (f" ({'; '.join(why[:5])}{'; ...' if len(why) > 5 else ''})" if why else "")
        )
    lines = [
        f"# Proposed by `smh ha map` from {source} for the home {proposal.ref.key()}.",
        "# Devices listed here (and under skip) are kept as they are by a re-run; edit them freely.",
        f"home: {_flow(proposal.ref.model_dump(exclude_defaults=True))}",
        f"timeout_seconds: {proposal.timeout_seconds:g}",
        "devices:",
    ]
    by_did: dict[str, list[PartChoice]] = {}
    for choice in proposal.choices:
        by_did.setdefault(choice.part.did, []).append(choice)
    for did, entries in devices.items():
        if did in proposal.kept:
            lines.append(f"  {_flow(did)}:  # kept from the earlier file")
        else:
            lines.append(f"  {_flow(did)}:")
            for choice in by_did[did]:
                if choice.chosen is not None:
                    lines += _comment(
                        f"{choice.part.label} -> {choice.chosen.unit.name!r} ({choice.chosen.reason()})",
                        4,
                    )
        for locator, entry in entries.items():
            why = next(
                (
                    c.chosen.bindings[locator].reason
                    for c in by_did.get(did, [])
                    if c.chosen is not None
                    and locator in c.chosen.bindings
                    and did not in proposal.kept
                ),
                None,
            )
            lines.append(f"    {_flow(locator)}: {_flow(entry)}" + (f"  # {why}" if why else ""))
        if did not in proposal.kept:
            lines += _misses([c.chosen for c in by_did.get(did, []) if c.chosen is not None])
    unmatched = proposal.unmatched()
    if unmatched:
        lines += ["", "# Devices not mapped:"] + _comment(
            "\n".join(f"  {k}: {v}" for k, v in unmatched.items()), 0
        )
    for note in proposal.notes:
        lines += _comment(note, 0)
    if proposal.skipped:
        lines += ["", "# Devices you chose to leave unmapped:", f"skip: {_flow(proposal.skipped)}"]
    return "\n".join(lines) + "\n"


def _misses(chosen: list[Candidate]) -> list[str]:
    """What a matched device leaves unmapped, one comment line per reason."""
    by_reason: dict[str, list[str]] = {}
    for cand in chosen:
        for locator, why in cand.misses.items():
            by_reason.setdefault(NO_RULE if why.startswith("no rule maps") else why, []).append(
                locator
            )
    lines = []
    for why, locators in by_reason.items():
        lines += _comment(f"not mapped: {', '.join(locators)}: {why}", 4)
    return lines


def summary(proposal: Proposal) -> list[str]:
    """One line per device part: what it was matched to and why, or why not."""
    out = []
    for choice in proposal.choices:
        head = f"{choice.part.did} {choice.part.label}" + (
            f" ({choice.part.room})" if choice.part.room else ""
        )
        if choice.part.did in proposal.kept:
            out.append(f"{head}: kept from the earlier file")
        elif choice.part.did in proposal.skipped:
            out.append(f"{head}: skipped (your earlier choice)")
        elif choice.chosen is not None:
            out.append(f"{head} -> {choice.chosen.unit.describe()} {choice.chosen.reason()}")
        else:
            out.append(f"{head}: NOT MAPPED: {choice.unmatched}")
    return out
