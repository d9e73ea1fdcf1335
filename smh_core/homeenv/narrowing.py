"""Narrow a device to exactly what another benchmark's device has.

An importer builds each device from the catalog type that acts like it, but a source models
devices more finely than a type: HomeBench's lights come with brightness, colour, both or
neither; its heating units with any subset of temperature, mode and fan speed; an HA entity
lists its supported features; a SimuHome device its clusters. A request the source labels
impossible ("set the brightness" of a colour-only light) must be refused by the imported home,
and one it allows must land, so the imported device keeps the source's attributes, services,
ranges and options and nothing more.

:func:`narrow` takes a built :class:`~.model.Device` and a :class:`Narrowing` and returns the
device with every other attribute and service removed, the given ranges and option subsets
applied (the engine then holds the services' arguments to them), and everything that referred
to a removed attribute resolved against the value it keeps for good: a precondition or an
effect's condition on it holds or does not, a drive or a light source active only in another
mode disappears, a light without dimming shines at its fixed level. Nothing is invented: a
narrowing that keeps a service whose precondition can then never hold, or asks for an option
the type does not have, is a ``ValueError`` naming it.

One thing a source may have that its type lacks is a second *name* for a behaviour the type
has: an HA thermostat offering both ``auto`` and ``heat_cool`` has two modes that each regulate
both ways, where the catalog air conditioner has one, ``auto``. An *alias* adds such a name: an
option that behaves exactly as one of the type's everywhere the type tests that option (a
drive's or light's condition, a precondition, an effect's condition), so the twin can be set
to, and report, the mode the real device is in, and nothing new is simulated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .dynamics import Drive, Dynamics, LightSource, When
from .model import Argument, Attribute, AttrType, Device, Effect, Requirement, Service
from .shapes import same
from .validation import compile_checker

_NUMERIC = (AttrType.INT, AttrType.FLOAT)
_T = TypeVar("_T", Requirement, When)


@dataclass(frozen=True)
class Narrowing:
    """What a source's device has, in the catalog type's locators.

    ``attributes`` and ``services`` are the locators kept (``state``, ``fan.speed_level``,
    ``1.OnOff.On``); ``ranges`` and ``options`` replace those of kept attributes (an option
    list must be a subset of the type's, or any texts for a free-text attribute); ``fixed`` gives the value an attribute left out keeps
    (a light without dimming at 100 %), by default the device's current value; ``aliases``
    names, per kept attribute, options that behave as one of the type's (alias -> the type's
    option; each alias must be in that attribute's ``options``)."""

    attributes: frozenset[str]
    services: frozenset[str]
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    unrequired: frozenset[str] = frozenset()
    """Attributes the source's services never wait for: a kept service drops its preconditions
    on them (HomeBench's gold sets an air conditioner's swing while it is off, and HomeBench
    scores that call correct, so the imported unit must take it; the catalog's own rule, "the
    unit must be running", stays for SMH's suites)."""
    aliases: Mapping[str, Mapping[Any, Any]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        attributes: Iterable[str],
        services: Iterable[str],
        *,
        ranges: Mapping[str, tuple[float, float]] | None = None,
        options: Mapping[str, Iterable[Any]] | None = None,
        fixed: Mapping[str, Any] | None = None,
        unrequired: Iterable[str] = (),
        aliases: Mapping[str, Mapping[Any, Any]] | None = None,
    ) -> Narrowing:
        return cls(
            frozenset(attributes),
            frozenset(services),
            dict(ranges or {}),
            {k: tuple(v) for k, v in (options or {}).items()},
            dict(fixed or {}),
            frozenset(unrequired),
            {k: dict(v) for k, v in (aliases or {}).items()},
        )


def _widened(values: list[Any], aliases: Mapping[Any, Any]) -> list[Any]:
    """``values`` and every alias of one of them."""
    more = [a for a, meant in aliases.items() if any(same(meant, v) for v in values)]
    return [*values, *more]


def _join(ns: str, name: str) -> str:
    return f"{ns}.{name}" if ns else name


def _resolve(ns: str, rel: str) -> str:
    return rel[1:] if rel.startswith("/") else _join(ns, rel)


class _Narrower:
    def __init__(
        self, device: Device, narrowing: Narrowing, values: Mapping[str, Any] | None = None
    ) -> None:
        self.device, self.n, self.values = device, narrowing, dict(values or {})
        self.specs = dict(device.attributes_by_locator())
        services = {loc for loc, _ in device.services_by_locator()}
        unknown = sorted(narrowing.attributes - self.specs.keys())
        unknown += sorted(narrowing.services - services)
        unknown += sorted(
            (
                set(narrowing.ranges)
                | set(narrowing.options)
                | set(narrowing.aliases)
                | set(self.values)
            )
            - narrowing.attributes
        )
        if unknown:
            raise ValueError(
                f"{device.did}: cannot narrow to {unknown}: not an attribute or service kept "
                f"by the narrowing (attributes: {sorted(self.specs)}; services: {sorted(services)})"
            )
        self.fixed: dict[str, Any] = {}
        for loc, attr in self.specs.items():
            if loc in narrowing.attributes:
                continue
            value = narrowing.fixed.get(loc, attr.value)
            problem = compile_checker(attr, loc)(value)
            if problem is not None:
                raise ValueError(f"{device.did}: fixed value of {loc}: {problem[1]}")
            self.fixed[loc] = value
        for loc, aliases in narrowing.aliases.items():
            options = self.specs[loc].options or ()
            for alias, meant in aliases.items():
                if not any(same(meant, o) for o in options) or any(same(alias, o) for o in options):
                    raise ValueError(
                        f"{device.did}: alias {alias!r} of {loc} for {meant!r}: an alias names "
                        f"one of the type's options {list(options)} and is not one itself"
                    )
                if not any(same(alias, o) for o in narrowing.options.get(loc, ())):
                    raise ValueError(
                        f"{device.did}: alias {alias!r} of {loc} is not in the options the "
                        "narrowing keeps for it"
                    )

    def kept(self, loc: str) -> bool:
        return loc in self.n.attributes

    # ------------------------------------------------------------------ attributes
    def attribute(self, loc: str, attr: Attribute) -> Attribute:
        update: dict[str, Any] = {}
        if loc in self.n.ranges:
            low, high = self.n.ranges[loc]
            if attr.type not in _NUMERIC or not low <= high:
                raise ValueError(
                    f"{self.device.did}: range {[low, high]} of {loc}: needs a numeric "
                    "attribute and low <= high"
                )
            update["range"] = (low, high)
        if loc in self.n.options:
            wanted = list(self.n.options[loc])
            free_text = (
                attr.options is None and attr.type == AttrType.STR
            )  # any text: a list narrows it
            aliases = self.n.aliases.get(loc, {})
            extra = [
                o
                for o in wanted
                if not free_text
                and not any(same(o, x) for x in attr.options or ())
                and not any(same(o, a) for a in aliases)
            ]
            if (attr.options is None and not free_text) or extra or not wanted:
                raise ValueError(
                    f"{self.device.did}: options {wanted} of {loc}: the type allows only "
                    f"{attr.options} (a narrowing never adds an option)"
                )
            update["options"] = wanted
        if attr.write_requires:
            update["write_requires"] = (
                self.requirements(
                    loc.rpartition(".")[0] if "." in loc else "",
                    attr.write_requires,
                    f"writing {loc}",
                )
                or None
            )
        if loc in self.values:
            update["value"] = self.values[loc]
        out = attr.model_copy(update=update)
        problem = compile_checker(out, loc)(out.value)
        if problem is not None:
            raise ValueError(
                f"{self.device.did}: {loc} = {out.value!r} is outside the narrowed {loc}: {problem[1]}"
            )
        return out

    def attributes(self, ns: str, attrs: list[Attribute]) -> list[Attribute]:
        return [self.attribute(_join(ns, a.name), a) for a in attrs if self.kept(_join(ns, a.name))]

    def aliased(self, loc: str, test: _T) -> _T:
        """``test`` on the kept attribute ``loc`` holding for an alias wherever it holds for the
        option the alias names (an ``equals`` becomes an ``in``)."""
        aliases = self.n.aliases.get(loc)
        if not aliases:
            return test
        if test.in_ is not None:
            return test.model_copy(update={"in_": _widened(test.in_, aliases)})
        if test.not_in is not None:
            return test.model_copy(update={"not_in": _widened(test.not_in, aliases)})
        values = _widened([test.equals], aliases)
        if len(values) == 1:
            return test
        return test.model_copy(update={"equals": None, "in_": values})

    # ------------------------------------------------------------------ services
    def requirements(self, ns: str, reqs: list[Requirement], what: str) -> list[Requirement]:
        out = []
        for req in reqs:
            loc = _resolve(ns, req.attr)
            if self.kept(loc):
                out.append(self.aliased(loc, req))
            elif not req.holds(self.fixed[loc]):
                raise ValueError(
                    f"{self.device.did}: {what} needs {loc} "
                    f"({req.message or 'a value it never has'}), which the narrowing "
                    f"fixes at {self.fixed[loc]!r}: it could never run"
                )
        return out

    def effect(self, ns: str, eff: Effect) -> Effect | None:
        if not self.kept(_resolve(ns, eff.set)):
            return None
        update: dict[str, Any] = {}
        if eff.when is not None:
            when = _resolve(ns, eff.when.attr)
            if not self.kept(when):
                if not eff.when.holds(self.fixed[when]):
                    return None
                update["when"] = None
            elif (aliased := self.aliased(when, eff.when)) is not eff.when:
                update["when"] = aliased
        if eff.attr is not None and not self.kept(src := _resolve(ns, eff.attr)):
            update.update(attr=None, value=self.fixed[src])
        return eff.model_copy(update=update) if update else eff

    def argument(self, arg: Argument, target: str | None) -> Argument:
        """An argument written to a narrowed attribute takes its range and options (a wider
        range too: the engine itself only ever narrows an argument to its attribute)."""
        update: dict[str, Any] = {}
        if target is None:
            return arg
        if target in self.n.ranges and arg.type in _NUMERIC:
            update["range"] = tuple(self.n.ranges[target])
        if target in self.n.options:
            update["options"] = list(self.n.options[target])
        return arg.model_copy(update=update) if update else arg

    def services(self, ns: str, services: list[Service]) -> list[Service]:
        out = []
        for s in services:
            loc = _join(ns, s.name)
            if loc not in self.n.services:
                continue
            effects = [e for e in (self.effect(ns, e) for e in s.effects) if e is not None]
            written = {e.arg: _resolve(ns, e.set) for e in effects if e.arg is not None}
            arguments = [self.argument(a, written.get(a.name)) for a in s.arguments]
            out.append(
                s.model_copy(
                    update={
                        "requires": self.requirements(
                            ns,
                            [
                                r
                                for r in s.requires
                                if _resolve(ns, r.attr) not in self.n.unrequired
                            ],
                            loc,
                        ),
                        "effects": effects,
                        "arguments": arguments,
                    }
                )
            )
        return out

    # ------------------------------------------------------------------ dynamics
    def conditions(self, tests: list[When]) -> list[When] | None:
        """The tests on kept attributes; None when one on a fixed attribute fails for good."""
        out = []
        for w in tests:
            if self.kept(w.attr):
                out.append(self.aliased(w.attr, w))
            elif not w.holds(self.fixed[w.attr]):
                return None
        return out

    def scale(self, attr: str, scale_max: float, scale_map: Mapping[str, float] | None) -> float:
        value = self.fixed[attr]
        if scale_map is not None:
            return float(scale_map.get(str(value), 1.0))
        return float(value) / scale_max if isinstance(value, (int, float)) else 1.0

    def drive(self, d: Drive) -> Drive | None:
        active = self.conditions(d.active_when)
        if active is None:
            return None
        update: dict[str, Any] = {"active_when": active}
        if d.target_attr is not None and not self.kept(d.target_attr):
            update.update(
                target_attr=None, target=float(self.fixed[d.target_attr]) * d.target_scale
            )
        if d.scale_attr is not None and not self.kept(d.scale_attr):
            factor = self.scale(d.scale_attr, d.scale_max, d.scale_map)
            if factor <= 0:
                return None
            update.update(scale_attr=None, scale_map=None, rate=min(1.0, d.rate * factor))
        return d.model_copy(update=update)

    def light(self, li: LightSource) -> LightSource | None:
        active = self.conditions(li.active_when)
        if active is None:
            return None
        update: dict[str, Any] = {"active_when": active}
        if li.level_attr is not None and not self.kept(li.level_attr):
            lux = li.lux * self.scale(li.level_attr, li.level_max, None)
            if lux <= 0:
                return None
            update.update(level_attr=None, lux=lux)
        return li.model_copy(update=update)

    def dynamics(self, dyn: Dynamics | None) -> Dynamics | None:
        if dyn is None:
            return None
        cycle = dyn.cycle
        if cycle is not None:
            needed = [loc for _, loc in Dynamics(cycle=cycle).locators() if not self.kept(loc)]
            if needed:
                raise ValueError(
                    f"{self.device.did}: its programme needs {needed}, which the narrowing leaves out"
                )
        return dyn.model_copy(
            update={
                "drives": [d for d in map(self.drive, dyn.drives) if d is not None],
                "lights": [li for li in map(self.light, dyn.lights) if li is not None],
                "shades": [s for s in dyn.shades if self.kept(s.open_attr)],
                "sensors": [s for s in dyn.sensors if self.kept(s.attr)],
            }
        )

    def device_out(self) -> Device:
        d = self.device
        components = []
        for c in d.components:
            attrs, services = (
                self.attributes(c.name, c.attributes),
                self.services(c.name, c.services),
            )
            if attrs or services:
                components.append(c.model_copy(update={"attributes": attrs, "services": services}))
        return d.model_copy(
            update={
                "attributes": self.attributes("", d.attributes),
                "services": self.services("", d.services),
                "components": components,
                "dynamics": self.dynamics(d.dynamics),
            }
        )


def narrow(device: Device, narrowing: Narrowing, values: Mapping[str, Any] | None = None) -> Device:
    """``device`` with exactly the attributes, services, ranges and options of ``narrowing``
    (see the module docstring), its kept attributes of ``values`` set to them (a value only the
    narrowed device has, an alias, cannot be given before); ``ValueError`` naming the device
    and the locator when the narrowing asks for something the device does not have, leaves a
    kept service unable to ever run, or a value outside what it keeps."""
    return _Narrower(device, narrowing, values).device_out()


def alias_meanings(narrowing: Narrowing, values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with each alias replaced by the type's option it names: the values a device
    of the type can be built with before it is narrowed."""
    out = dict(values)
    for loc, aliases in narrowing.aliases.items():
        value = out.get(loc)
        meant = next((m for a, m in aliases.items() if same(a, value)), None)
        if meant is not None:
            out[loc] = meant
    return out
