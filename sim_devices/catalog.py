"""The device catalog: HomeEnv device types as YAML data, loaded, checked and instantiated.

One file per type (``catalog/<kind>/<type>.yaml``) keeps every device readable on its own and
lets contributors add a type without touching code. Files are checked when loaded, with errors
that name the file and the field (``light.yaml: services.3.effects.0.set: ...``), so a broken
type fails at start-up rather than as an odd engine error in the middle of a benchmark run.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from smh_core.homeenv.colours import ColourSpace
from smh_core.homeenv.dynamics import Cycle, Dynamics, Matter
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import (
    Attribute,
    AttrType,
    Component,
    Device,
    Effect,
    Home,
    Requirement,
    Room,
    Service,
    UserData,
)
from smh_core.homeenv.validation import Checker, compile_checker

__all__ = [
    "DeviceType",
    "build_device",
    "instantiate",
    "load_catalog",
    "load_catalog_dir",
    "load_device_type",
    "validate_catalog",
    "with_ranges",
    "with_steps",
]


class DeviceType(BaseModel):
    """One device type: identity, schema (as in :mod:`smh_core.homeenv.model`) and presets.

    ``presets`` maps a preset name to ``{locator: value}`` overrides of the default values, so
    homes can start devices in coherent states ("reading", "cooking") instead of raw defaults.
    """

    model_config = ConfigDict(extra="forbid")

    type: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    category: str = Field(min_length=1)
    subcategory: str = Field(min_length=1)
    spid: str = Field(min_length=1)
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    tags: list[str] = Field(default_factory=list)
    attributes: list[Attribute] = Field(default_factory=list)
    services: list[Service] = Field(default_factory=list)
    components: list[Component] = Field(default_factory=list)
    presets: dict[str, dict[str, Any]] = Field(min_length=1)
    dynamics: Dynamics | None = None
    """How the device acts on its room and itself over simulated time (SimuHome layer)."""
    matter: Matter | None = None
    """Matter endpoint device types, for types built from Matter clusters."""

    _checkers: dict[str, Checker] | None = PrivateAttr(default=None)

    def namespaces(self) -> list[tuple[str, str, list[Attribute], list[Service]]]:
        """``(namespace, field-path prefix, attributes, services)``, device level first."""
        out = [("", "", self.attributes, self.services)]
        out += [
            (c.name, f"components.{i}.", c.attributes, c.services)
            for i, c in enumerate(self.components)
        ]
        return out

    def attribute_specs(self) -> dict[str, Attribute]:
        """Every attribute by absolute locator (``brightness``, ``fan.speed_level``)."""
        return {_join(ns, a.name): a for ns, _, attrs, _ in self.namespaces() for a in attrs}

    def service_specs(self) -> dict[str, tuple[str, Service]]:
        """Every service by absolute locator, with the namespace its relative locators use."""
        return {_join(ns, s.name): (ns, s) for ns, _, _, svcs in self.namespaces() for s in svcs}

    def checkers(self) -> dict[str, Checker]:
        """Compiled value checkers per attribute locator (built once per type)."""
        if self._checkers is None:
            self._checkers = {
                loc: compile_checker(a, loc) for loc, a in self.attribute_specs().items()
            }
        return self._checkers


def _join(ns: str, name: str) -> str:
    return f"{ns}.{name}" if ns else name


def _resolve(ns: str, rel: str) -> str:
    """The engine's rule: relative to the namespace, ``/x`` device-absolute."""
    return rel[1:] if rel.startswith("/") else _join(ns, rel)


# ---------------------------------------------------------------------------------- YAML
class _CatalogLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans (only true/false).

    YAML 1.1 also reads ``on``/``off``/``yes``/``no`` as booleans, which would silently turn
    the most common option values of this catalog ("on"/"off", "yes"/"no") into True/False.
    """


_BOOL_TAG = "tag:yaml.org,2002:bool"
_CatalogLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != _BOOL_TAG]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_CatalogLoader.add_implicit_resolver(
    _BOOL_TAG, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def _fmt_loc(loc: Iterable[Any]) -> str:
    return ".".join(str(p) for p in loc) or "(top level)"


def load_device_type(path: str | Path | Traversable) -> DeviceType:
    """Parse and fully check one catalog file; ``ValueError`` names the file and field(s)."""
    p = Path(path) if isinstance(path, str) else path
    fname = p.name
    try:
        raw = yaml.load(p.read_text(encoding="utf-8"), Loader=_CatalogLoader)  # a SafeLoader
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{fname}:{mark.line + 1}:{mark.column + 1}" if mark is not None else fname
        problem = getattr(e, "problem", None) or str(e)
        raise ValueError(f"{where}: invalid YAML: {problem}") from None
    if not isinstance(raw, dict):
        raise ValueError(
            f"{fname}: the top level must be a mapping of fields, got {type(raw).__name__}"
        )
    try:
        dt = DeviceType.model_validate(raw)
    except ValidationError as e:
        lines = [f"{fname}: {_fmt_loc(err['loc'])}: {err['msg']}" for err in e.errors()]
        raise ValueError("\n".join(lines)) from None
    stem = fname.rsplit(".", 1)[0]
    problems = []
    if dt.type != stem:
        problems.append(("type", f"{dt.type!r} must equal the file name {stem!r}"))
    problems += _reference_problems(dt)
    if problems:
        raise ValueError("\n".join(f"{fname}: {path}: {msg}" for path, msg in problems))
    try:  # the engine is the final judge: compile the type with its defaults
        build_device(dt, did="0000", room="r00")
    except ValueError as e:
        raise ValueError(f"{fname}: {e}") from None
    return dt


def load_catalog_dir(directory: str | Path | Traversable) -> dict[str, DeviceType]:
    """Load every ``*.yaml`` in ``directory``, sorted by type name (deterministic order)."""
    d = Path(directory) if isinstance(directory, str) else directory
    if not d.is_dir():
        raise ValueError(f"catalog directory {d} does not exist")
    out: dict[str, DeviceType] = {}
    for p in sorted((p for p in d.iterdir() if p.name.endswith(".yaml")), key=lambda p: p.name):
        dt = load_device_type(p)
        out[dt.type] = dt
    if not out:
        raise ValueError(f"catalog directory {d} holds no *.yaml device types")
    return dict(sorted(out.items()))


@functools.cache
def _cached_catalog(kind: str) -> dict[str, DeviceType]:
    return load_catalog_dir(files(__package__) / "catalog" / kind)


def load_catalog(kind: str = "homeenv") -> dict[str, DeviceType]:
    """The packaged catalog of ``kind``, loaded once per process; a fresh dict per call.

    The :class:`DeviceType` objects are shared; treat them as read-only.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]*", kind):
        raise ValueError(f"invalid catalog kind {kind!r}")
    return dict(_cached_catalog(kind))


# ---------------------------------------------------------------------------------- checks
def _value_problem(check: Checker, value: Any) -> str | None:
    problem = check(value)
    return None if problem is None else problem[1]


def _requirement_problems(
    req: Requirement,
    ns: str,
    path: str,
    specs: Mapping[str, Attribute],
    checkers: Mapping[str, Checker],
) -> list[tuple[str, str]]:
    loc = _resolve(ns, req.attr)
    if loc not in specs:
        return [(f"{path}.attr", f"unknown attribute {req.attr!r} (resolves to {loc!r})")]
    out = []
    for key, vals in (
        ("equals", [req.equals] if req.equals is not None else []),
        ("in", req.in_ or []),
        ("not_in", req.not_in or []),
    ):
        for v in vals:
            msg = _value_problem(checkers[loc], v)
            if msg is not None:
                out.append((f"{path}.{key}", f"{v!r} can never match {loc}: {msg}"))
    return out


def _effect_problems(
    eff: Effect,
    svc: Service,
    ns: str,
    path: str,
    specs: Mapping[str, Attribute],
    checkers: Mapping[str, Checker],
) -> list[tuple[str, str]]:
    target = _resolve(ns, eff.set)
    if target not in specs:
        return [(f"{path}.set", f"unknown attribute {eff.set!r} (resolves to {target!r})")]
    out: list[tuple[str, str]] = []
    if eff.when is not None:
        out += _requirement_problems(eff.when, ns, f"{path}.when", specs, checkers)
    spec = specs[target]
    if eff.arg is not None:
        arg = next((a for a in svc.arguments if a.name == eff.arg), None)
        if arg is None:
            out.append((f"{path}.arg", f"the service has no argument {eff.arg!r}"))
        elif (
            svc.behavior is None
        ):  # a behaviour may map an argument value first (brightness 0 = off);
            # the engine holds whatever it leaves to the attribute's type on every call
            out += [(f"{path}.arg", m) for m in _arg_fits(arg, spec, checkers[target])]
    elif eff.attr is not None:
        src = _resolve(ns, eff.attr)
        if src not in specs:
            out.append((f"{path}.attr", f"unknown attribute {eff.attr!r} (resolves to {src!r})"))
    elif eff.add is not None:
        if spec.type not in (AttrType.INT, AttrType.FLOAT):
            out.append((f"{path}.add", f"{target} is {spec.type}, not numeric"))
    elif eff.toggle is not None:
        for v in eff.toggle:
            msg = _value_problem(checkers[target], v)
            if msg is not None:
                out.append((f"{path}.toggle", msg))
    else:
        msg = _value_problem(checkers[target], eff.value)
        if msg is not None:
            out.append((f"{path}.value", msg))
    return out


def _arg_fits(arg: Any, spec: Attribute, check: Checker) -> list[str]:
    """Whether every value the argument accepts is valid for the attribute it is written to."""
    numeric = (AttrType.INT, AttrType.FLOAT)
    if arg.type != spec.type and not (arg.type == AttrType.INT and spec.type == AttrType.FLOAT):
        return [f"argument {arg.name!r} is {arg.type} but {spec.name!r} is {spec.type}"]
    out = []
    for v in arg.options or []:
        msg = _value_problem(check, v)
        if msg is not None:
            out.append(f"argument option {v!r} is invalid for the attribute: {msg}")
    if arg.type in numeric and arg.range is not None:
        for v in arg.range:
            v = int(v) if arg.type == AttrType.INT else float(v)
            msg = _value_problem(check, v)
            if msg is not None:
                out.append(f"argument bound {v!r} is invalid for the attribute: {msg}")
    return out


def _cycle_problems(cyc: Cycle, checkers: Mapping[str, Checker]) -> list[tuple[str, str]]:
    """Every value a programme writes must be one its attributes take: the states, the values
    written at the end and, when the state names the phase, every phase's name."""
    written = [
        ("running", cyc.state_attr, cyc.running),
        ("paused", cyc.state_attr, cyc.paused),
        ("stopped", cyc.state_attr, cyc.stopped),
    ]
    written += [(f"on_complete.{loc}", loc, v) for loc, v in cyc.on_complete.items()]
    if cyc.phase_in_state:
        written += [("phase_in_state", cyc.state_attr, name) for name in cyc.phase_names()]
    out = []
    for path, loc, value in written:
        msg = _value_problem(checkers[loc], value)
        if msg is not None:
            out.append((f"dynamics.cycle.{path}", f"{value!r} for {loc!r}: {msg}"))
    return out


def _reference_problems(dt: DeviceType) -> list[tuple[str, str]]:
    """What pydantic cannot see: locators that do not resolve, values outside their specs.

    Unknown behaviour names are left to the engine compile in :func:`build_device`, which is
    the only place that knows the registry (filled by importing ``sim_devices``).
    """
    specs = dt.attribute_specs()
    out: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for ns, prefix, attrs, _ in dt.namespaces():
        for j, a in enumerate(attrs):
            loc = _join(ns, a.name)
            if loc in seen:
                out.append((f"{prefix}attributes.{j}.name", f"duplicate locator {loc!r}"))
            seen[loc] = "attribute"
    if len(seen) != len(specs):  # duplicates make specs ambiguous; stop before misleading errors
        return out
    checkers = dt.checkers()
    for ns, prefix, attrs, svcs in dt.namespaces():
        for j, a in enumerate(attrs):
            msg = _value_problem(checkers[_join(ns, a.name)], a.value)
            if msg is not None:
                out.append((f"{prefix}attributes.{j}.value", msg))
            for r, req in enumerate(a.write_requires or ()):
                out += _requirement_problems(
                    req, ns, f"{prefix}attributes.{j}.write_requires.{r}", specs, checkers
                )
        for k, s in enumerate(svcs):
            path = f"{prefix}services.{k}"
            loc = _join(ns, s.name)
            if loc in seen:
                out.append((f"{path}.name", f"locator {loc!r} already names an {seen[loc]}"))
            seen[loc] = "service"
            names = [a.name for a in s.arguments]
            for i, a in enumerate(s.arguments):
                if names.index(a.name) != i:
                    out.append((f"{path}.arguments.{i}.name", f"duplicate argument {a.name!r}"))
            for r, req in enumerate(s.requires):
                out += _requirement_problems(req, ns, f"{path}.requires.{r}", specs, checkers)
            for e, eff in enumerate(s.effects):
                out += _effect_problems(eff, s, ns, f"{path}.effects.{e}", specs, checkers)
    if dt.dynamics is not None:
        bad = [
            (f"dynamics.{path}", f"unknown attribute {loc!r}")
            for path, loc in dt.dynamics.locators()
            if loc not in specs
        ]
        out += bad
        if dt.dynamics.cycle is not None and not bad:
            out += _cycle_problems(dt.dynamics.cycle, checkers)
    for pname, values in dt.presets.items():
        for loc, v in values.items():
            if loc not in checkers:
                out.append((f"presets.{pname}.{loc}", "unknown attribute"))
                continue
            msg = _value_problem(checkers[loc], v)
            if msg is not None:
                out.append((f"presets.{pname}.{loc}", msg))
    return out


# ---------------------------------------------------------------------------------- instances
def with_ranges(dt: DeviceType, ranges: Mapping[str, tuple[float, float]]) -> DeviceType:
    """``dt`` with other ranges for some numeric attributes (``{locator: (low, high)}``), and
    for every service argument written to them: one maker's water heater goes to 75 °C,
    another's (HomeBench's) to 100 °C, and an imported home keeps its device's own limits
    rather than the catalog's. Refuses unknown or non-numeric attributes and empty ranges."""
    _numeric_only(dt, ranges, "range")
    for loc, bounds in ranges.items():
        if len(bounds) != 2 or not bounds[0] < bounds[1]:
            raise ValueError(
                f"{dt.type}: range of {loc!r} must be (low, high) with low < high, got {bounds!r}"
            )
    return _override(dt, "range", {loc: tuple(bounds) for loc, bounds in ranges.items()})


def with_steps(dt: DeviceType, steps: Mapping[str, float]) -> DeviceType:
    """``dt`` with other precisions (``{locator: step}``) for some numeric attributes and the
    service arguments written to them: a real thermostat reads 21.3 °C and takes 20.3, where
    the catalog's air conditioner keeps half degrees, and its twin would refuse the values it
    was made from. Refuses unknown or non-numeric attributes and steps that are not positive."""
    _numeric_only(dt, steps, "step")
    for loc, step in steps.items():
        if not step > 0:
            raise ValueError(f"{dt.type}: step of {loc!r} must be positive, got {step!r}")
    return _override(dt, "precision", dict(steps))


def with_colours(dt: DeviceType, colours: Mapping[str, str]) -> DeviceType:
    """``dt`` with how its hex colours are held (``{locator: space}``, see
    :attr:`~smh_core.homeenv.model.ValueSpec.colour`) on those attributes and the service
    arguments written to them: a twin's light keeps colours as its HA light does. Refuses
    attributes that are not hex colours and spaces it does not know."""
    specs = dt.attribute_specs()
    for loc, space in colours.items():
        spec = specs.get(loc)
        if spec is None or spec.type != AttrType.HEX:
            hexes = sorted(k for k, a in specs.items() if a.type == AttrType.HEX)
            raise ValueError(
                f"{dt.type}: cannot say how {loc!r} holds colours: not a hex attribute; hex: {hexes}"
            )
        if space not in get_args(ColourSpace):
            raise ValueError(
                f"{dt.type}: colour space of {loc!r} must be one of {list(get_args(ColourSpace))}, got {space!r}"
            )
    return _override(dt, "colour", dict(colours))


def _numeric_only(dt: DeviceType, locators: Mapping[str, Any], what: str) -> None:
    specs = dt.attribute_specs()
    for loc in locators:
        spec = specs.get(loc)
        if spec is None or spec.type not in (AttrType.INT, AttrType.FLOAT):
            raise ValueError(
                f"{dt.type}: cannot override the {what} of {loc!r}: "
                f"not a numeric attribute; numeric: {sorted(k for k, a in specs.items() if a.type in (AttrType.INT, AttrType.FLOAT))}"
            )


def _override(dt: DeviceType, field: str, values: Mapping[str, Any]) -> DeviceType:
    """``dt`` with ``field`` (range, precision) of the attributes in ``values`` replaced, and of
    every service argument written to them."""

    def attrs(ns: str, items: list[Attribute]) -> list[Attribute]:
        return [
            a.model_copy(update={field: values[_join(ns, a.name)]})
            if _join(ns, a.name) in values
            else a
            for a in items
        ]

    def services(ns: str, items: list[Service]) -> list[Service]:
        out = []
        for s in items:
            written = {e.arg: _resolve(ns, e.set) for e in s.effects if e.arg is not None}
            args = [
                a.model_copy(update={field: values[written[a.name]]})
                if written.get(a.name) in values
                else a
                for a in s.arguments
            ]
            out.append(s.model_copy(update={"arguments": args}))
        return out

    out = dt.model_copy(
        update={
            "attributes": attrs("", dt.attributes),
            "services": services("", dt.services),
            "components": [
                c.model_copy(
                    update={
                        "attributes": attrs(c.name, c.attributes),
                        "services": services(c.name, c.services),
                    }
                )
                for c in dt.components
            ],
        }
    )
    out._checkers = None  # compiled for the catalog's ranges: compile again
    return out


def build_device(
    dt: DeviceType,
    did: str,
    room: str | None,
    name: str | None = None,
    preset: str | None = None,
    values: Mapping[str, Any] | None = None,
    tags: Iterable[str] = (),
) -> Device:
    """A :class:`Device` of type ``dt``: defaults, then the preset, then explicit ``values``.

    The result is compiled by the engine, so anything it returns loads into ``HomeEngine``;
    a bad preset or value raises ``ValueError`` naming the type, the preset and the locator.
    """
    source: dict[str, str] = {}
    merged: dict[str, Any] = {}
    if preset is not None:
        if preset not in dt.presets:
            raise ValueError(f"{dt.type}: unknown preset {preset!r}; presets: {sorted(dt.presets)}")
        merged.update(dt.presets[preset])
        source.update(dict.fromkeys(dt.presets[preset], f"preset {preset!r}"))
    if values:
        merged.update(values)
        source.update(dict.fromkeys(values, "values"))
    checkers = dt.checkers()
    for loc, v in merged.items():
        if loc not in checkers:
            raise ValueError(
                f"{dt.type}: {source[loc]}: unknown attribute {loc!r}; "
                f"attributes: {sorted(checkers)}"
            )
        msg = _value_problem(checkers[loc], v)
        if msg is not None:
            raise ValueError(f"{dt.type}: {source[loc]}: {loc}: {msg}")

    def with_values(ns: str, attrs: list[Attribute]) -> list[Attribute]:
        out = []
        for a in attrs:
            loc = _join(ns, a.name)
            out.append(
                a.model_copy(update={"value": merged[loc]}) if loc in merged else a.model_copy()
            )
        return out

    device = Device(
        name=name or dt.name,
        description=dt.description,
        attributes=with_values("", dt.attributes),
        services=[s.model_copy(deep=True) for s in dt.services],
        components=[
            c.model_copy(
                update={
                    "attributes": with_values(c.name, c.attributes),
                    "services": [s.model_copy(deep=True) for s in c.services],
                }
            )
            for c in dt.components
        ],
        userdata=UserData(
            did=did,
            spid=dt.spid,
            category=dt.category,
            subcategory=dt.subcategory,
            tags=list(dict.fromkeys([*dt.tags, *tags])),
            room=room,
        ),
        dynamics=dt.dynamics.model_copy(deep=True) if dt.dynamics is not None else None,
        matter=dt.matter.model_copy(deep=True) if dt.matter is not None else None,
    )
    try:
        HomeEngine(
            Home(
                rooms=[Room(id=room, type="room", name=room)] if room is not None else [],
                devices=[device],
            )
        )
    except ValueError as e:
        label = f"preset {preset!r}" if preset is not None else "defaults"
        raise ValueError(f"{dt.type}: {label}: {e}") from None
    return device


def instantiate(
    type_name: str,
    did: str,
    room: str | None,
    name: str | None = None,
    preset: str | None = None,
    values: Mapping[str, Any] | None = None,
    tags: Iterable[str] = (),
    kind: str = "homeenv",
    ranges: Mapping[str, tuple[float, float]] | None = None,
    steps: Mapping[str, float] | None = None,
    colours: Mapping[str, str] | None = None,
) -> Device:
    """A device of the catalog type ``type_name`` (see :func:`build_device`), with its own
    ``ranges`` and ``steps`` for some numeric attributes (see :func:`with_ranges`,
    :func:`with_steps`) and how its colours are held (:func:`with_colours`)."""
    catalog = load_catalog(kind)
    dt = catalog.get(type_name)
    if dt is None:
        raise ValueError(f"unknown device type {type_name!r}; known: {sorted(catalog)}")
    if ranges:
        dt = with_ranges(dt, ranges)
    if steps:
        dt = with_steps(dt, steps)
    if colours:
        dt = with_colours(dt, colours)
    return build_device(dt, did, room, name=name, preset=preset, values=values, tags=tags)


def validate_catalog(
    kind: str = "homeenv", catalog: Mapping[str, DeviceType] | None = None
) -> list[str]:
    """Instantiate every type with its defaults and with every preset; return the problems."""
    types = load_catalog(kind) if catalog is None else catalog
    problems = []
    for type_name in sorted(types):
        dt = types[type_name]
        for preset in [None, *sorted(dt.presets)]:
            try:
                build_device(dt, did="0000", room="r00", preset=preset)
            except ValueError as e:
                problems.append(str(e))
    return problems
