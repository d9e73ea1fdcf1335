"""The HomeEnv engine: validated service execution, reads, snapshots.

A :class:`~smh_core.homeenv.model.Home` is compiled once into per-device runtime tables
(compiled checkers, resolved locators). ``execute`` then validates a call in this order and
stops at the first problem, leaving the state untouched:

1. the device exists; 2. the locator names a service (or a writable attribute);
3. ``arguments`` is an object with no unexpected and no missing names;
4. each argument's type, options, range and precision (an off-grid number first rounded where
   its spec has a ``rounding``, a colour taken to what the light shows where its spec has a
   ``colour``, as the real device does); 5. the service's preconditions;
6. the values the effects would write are valid for their attributes.

Only then is the new device state installed, as a fresh dict (copy-on-write), which is what
makes :meth:`HomeEngine.snapshot` a cheap shallow copy.

Calls come from agents, so any JSON value may arrive as ``did``, ``locator``, ``arguments`` or
a batch item. Every such input ends as a result (``ok`` or a :class:`ServiceError`), never an
exception, and a rejected call leaves the state byte-identical. The checks that make this so
are type tests at the entry, not scans of the input. Lists and dicts are copied on the way in
(an agent's later edit of its own object cannot reach the home) and on the way out of
:meth:`HomeEngine.status` / :meth:`HomeEngine.value` (a caller's edit cannot either).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from . import plain as plain_form
from .behaviors import Behavior, register_behavior  # noqa: F401 (register_behavior: public here too)
from .behaviors import behavior as registered_behavior
from .colours import colour_holder
from .errors import Change, ErrorCode, ExecResult, ServiceError, new_change
from .shapes import AIR_QUALITY_BANDS, AttrType, air_quality_class, mode_tag_normalizer
from .snapshot import CONTAINERS, Snapshot, copy_value, diff
from .validation import (
    SHOW_LIMIT,
    Checker,
    compile_checker,
    describe,
    grid_rounder,
    narrowed_to,
    shared_checker,
    show,
)

if TYPE_CHECKING:  # either form of each (:mod:`.plain`): the engine reads, never makes, them
    from .model import (
        Argument,
        Attribute,
        Device,
        Effect,
        Home,
        Requirement,
        Room,
        Service,
        ValueSpec,
    )


def _resolve(ns: str, rel: str) -> str:
    """Resolve a locator relative to a component namespace (``/x`` is device-absolute)."""
    if rel.startswith("/"):
        return rel[1:]
    return f"{ns}.{rel}" if ns else rel


@dataclass(slots=True)
class _Req:
    loc: str
    test: Callable[[Any], bool]
    text: str


@dataclass(slots=True)
class _Eff:
    loc: str
    kind: str  # value | arg | attr | add | toggle
    payload: Any
    when: _Req | None
    proven: bool = False
    """Whatever value this effect sets is valid for its attribute, so the result need not be
    checked again: a constant the attribute's checker accepted when the device was compiled, or
    an argument whose spec is the attribute's own (its checker has just accepted the value)."""


@dataclass(slots=True)
class _Svc:
    locator: str
    model: Service
    args: dict[str, tuple[Checker, bool, Any]]  # name -> (checker, required, default)
    arg_names: list[str]
    reqs: list[_Req]
    effs: list[_Eff]
    behavior: Behavior | None
    ns: str
    proven: bool = False
    """Every effect is :attr:`_Eff.proven`: a call's changes are valid as computed, and only
    what a behaviour then sets or replaces is checked (:func:`_unproven`)."""
    rounders: dict[str, Callable[[Any], Any]] = dataclasses.field(default_factory=dict)
    """Arguments whose off-grid numbers are rounded before they are checked (a ``rounding``
    in their spec, see :func:`~.validation.grid_rounder`); empty for nearly every service."""


@dataclass(slots=True)
class _Dev:
    did: str
    model: Device
    attr_models: dict[str, Attribute]
    checkers: dict[str, Checker]
    services: dict[str, _Svc]
    writable: dict[str, Checker]
    ranges: dict[str, tuple[float, float]]
    write_reqs: dict[str, list[_Req]]
    write_behaviors: dict[str, tuple[str, Behavior, str]]  # locator -> (name, behaviour, namespace)
    containers: tuple[str, ...]  # locators whose values can be lists/dicts (copied by status())
    shapes: dict[str, Callable[[Any], Any]] = dataclasses.field(default_factory=dict)
    """Locators whose values are brought to one shape before checking (Matter mode tags given
    as bare ids, see :func:`mode_tag_normalizer`); empty for nearly every device."""
    position: dict[str, int] = dataclasses.field(default_factory=dict)
    """Each attribute's place in the device's state (changes are reported in this order)."""
    rounders: dict[str, Callable[[Any], Any]] = dataclasses.field(default_factory=dict)
    """Writable attributes whose off-grid numbers are rounded before they are checked."""


def _taker(spec: ValueSpec) -> Callable[[Any], Any] | None:
    """How a device takes a value it is given before checking it: a number off its grid
    rounded (:func:`~.validation.grid_rounder`), a colour as the light shows it
    (:func:`~.colours.colour_holder`); ``None`` for nearly every spec."""
    return grid_rounder(spec) or colour_holder(spec)


def _same(v: Any, w: Any) -> bool:
    """Equality that keeps booleans apart from numbers (``True`` is not ``1`` here)."""
    return v == w and isinstance(v, bool) == isinstance(w, bool)


def _field(name: Any) -> str:
    """A name as echoed in a :class:`ServiceError`'s ``did``/``locator``/``field``: the name
    itself if it is a string of sensible length, else its bounded ``repr`` (always a string)."""
    return name if isinstance(name, str) and len(name) <= SHOW_LIMIT else show(name)


def _action_list(actions: Any) -> list[Any] | ServiceError:
    """The items of an ``execute_many`` batch, or why ``actions`` is not a batch.

    A string or an object is iterable in Python but is not a list of actions (iterating it
    would yield characters or keys), so only non-mapping, non-text iterables are accepted.
    """
    if isinstance(actions, (str, bytes, bytearray, Mapping)) or not isinstance(actions, Iterable):
        return ServiceError(
            ErrorCode.BAD_ARGUMENTS,
            f"actions must be a list of {{did, locator, arguments}} objects, "
            f"got {type(actions).__name__} {show(actions)}",
            field="actions",
        )
    return list(actions)


def _not_an_action(i: int, action: Any) -> ServiceError:
    return ServiceError(
        ErrorCode.BAD_ARGUMENTS,
        f"action {i} must be an object {{did, locator, arguments}}, "
        f"got {type(action).__name__} {show(action)}",
        field=f"actions[{i}]",
    )


def _run_behavior(
    name: str,
    behavior: Behavior,
    ns: str,
    state: Mapping[str, Any],
    args: dict[str, Any],
    changes: dict[str, Any],
) -> str | None:
    """Run a named behaviour (of a service or a direct write); a crash becomes a rejection,
    not an exception.

    Behaviours are code outside the engine that sees validated but arbitrary arguments (an
    integer as large as 64 bits, any text). Should one fail on such input, the call is refused
    with the reason: nothing has been applied yet, so the state stays as it was.
    """
    try:
        return behavior(state, args, changes, ns)
    except Exception as e:  # noqa: BLE001 - any failure of plug-in code must not escape execute()
        return (
            f"its behaviour {name!r} failed on these arguments ({type(e).__name__}: {show(str(e))})"
        )


def _behavior_changes(
    dev: _Dev,
    locator: str,
    verb: str,
    name: str,
    behavior: Behavior,
    ns: str,
    state: Mapping[str, Any],
    args: dict[str, Any],
    changes: dict[str, Any],
    proven: Mapping[str, Any] | None = None,
) -> ServiceError | None:
    """Run a service's or a write's behaviour on ``changes``, then hold everything it set to
    the attributes' types; the error that refuses the call, or None. ``proven``: the changes as
    they were before the behaviour, each already valid (:attr:`_Svc.proven`); only what the
    behaviour set or replaced is checked then."""
    msg = _run_behavior(name, behavior, ns, state, args, changes)
    if msg is not None:
        return ServiceError(
            ErrorCode.PRECONDITION_FAILED,
            f"cannot {verb} {locator}: {msg}",
            did=dev.did,
            locator=locator,
        )
    return _checked_changes(dev, locator, changes if proven is None else _unproven(proven, changes))


def _unproven(before: Mapping[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The changes a behaviour set or replaced (``after`` against the proven ``before``): the
    only ones a call whose effects are all proven still has to check."""
    return {loc: v for loc, v in after.items() if loc not in before or before[loc] is not v}


def _same_spec(a: ValueSpec, b: ValueSpec) -> bool:
    """Whether two scalar specs accept exactly the same values (the key :func:`shared_checker`
    shares checkers by, without the field name that only its messages carry)."""
    if a.items is not None or b.items is not None:
        return False
    try:
        return (a.type, a.range, a.precision, a.unit, _options_key(a)) == (
            b.type,
            b.range,
            b.precision,
            b.unit,
            _options_key(b),
        )
    except TypeError:
        return False


def _options_key(spec: ValueSpec) -> tuple[tuple[type, Any], ...] | None:
    return None if spec.options is None else tuple((type(o), o) for o in spec.options)


def _checked_changes(dev: _Dev, locator: str, changes: Mapping[str, Any]) -> ServiceError | None:
    """Why the changes a call computed cannot be applied (an unknown attribute, or a value its
    type refuses), or None: a service or write behaviour is held to the attributes' types too."""
    for loc, v in changes.items():
        check = dev.checkers.get(loc)
        if check is None:
            return ServiceError(
                ErrorCode.INVALID_RESULT,
                f"{locator} would set unknown attribute {loc!r}",
                did=dev.did,
                locator=locator,
                field=loc,
            )
        problem = check(v)
        if problem is not None:
            return ServiceError(
                problem[0],
                f"{locator} would make {problem[1]}",
                did=dev.did,
                locator=locator,
                field=loc,
                allowed=problem[2],
            )
    return None


def _compile_req(ns: str, r: Requirement) -> _Req:
    loc = _resolve(ns, r.attr)
    if r.in_ is not None:
        allowed = list(r.in_)
        return _Req(
            loc,
            lambda v: any(_same(v, x) for x in allowed),
            r.message or f"{loc} must be one of {allowed}",
        )
    if r.not_in is not None:
        banned = list(r.not_in)
        return _Req(
            loc,
            lambda v: not any(_same(v, x) for x in banned),
            r.message or f"{loc} must not be one of {banned}",
        )
    want = r.equals
    return _Req(loc, lambda v: _same(v, want), r.message or f"{loc} must be {want!r}")


def _following_attributes(
    dev: Device, ns: str, s: Service, attrs: Mapping[str, Attribute]
) -> Service:
    """``s`` with each argument narrowed to the attributes it is written to verbatim by an
    unconditional effect (see :func:`narrowed_to`), so a device whose home file narrows an
    attribute's range or options has services (and schemas) that follow it; ``s`` itself when
    nothing narrows. A service with a behaviour is left as written: the behaviour may turn an
    argument into other changes (brightness 0 switches a light off and keeps its last level),
    and what it finally writes is checked against the attributes anyway."""
    if s.behavior is not None:
        return s
    targets: dict[str, list[Attribute]] = {}
    for e in s.effects:
        if e.arg is not None and e.when is None and _resolve(ns, e.set) in attrs:
            targets.setdefault(e.arg, []).append(attrs[_resolve(ns, e.set)])
    if not targets:
        return s
    arguments = []
    for a in s.arguments:
        for attr in targets.get(a.name, ()):
            try:
                a = narrowed_to(a, attr, f"argument {a.name!r}")
            except ValueError as e:
                raise ValueError(
                    f"device {dev.did}: service {_resolve(ns, s.name)!r}: {e}"
                ) from None
        arguments.append(a)
    return (
        s
        if all(x is y for x, y in zip(arguments, s.arguments, strict=True))
        else s.model_copy(update={"arguments": arguments})
    )


def _compile_device(dev: Device) -> _Dev:
    attr_models: dict[str, Attribute] = {}
    services: dict[str, _Svc] = {}
    namespaces: list[tuple[str, list[Attribute], list[Service]]] = [
        ("", dev.attributes, dev.services)
    ]
    namespaces += [(c.name, c.attributes, c.services) for c in dev.components]
    for ns, attrs, _ in namespaces:
        for a in attrs:
            loc = _resolve(ns, a.name)
            if loc in attr_models:
                raise ValueError(f"device {dev.did}: duplicate attribute locator {loc!r}")
            attr_models[loc] = a
    checkers = {loc: shared_checker(a, loc) for loc, a in attr_models.items()}
    for loc, a in attr_models.items():
        problem = checkers[loc](a.value)
        if problem is not None:
            raise ValueError(f"device {dev.did}: initial value invalid: {problem[1]}")
    for ns, _, svcs in namespaces:
        for s in svcs:
            loc = _resolve(ns, s.name)
            if loc in services or loc in attr_models:
                raise ValueError(
                    f"device {dev.did}: locator {loc!r} names both a service and something else"
                )
            s = _following_attributes(dev, ns, s, attr_models)
            args = {a.name: (shared_checker(a, a.name), a.required, a.default) for a in s.arguments}
            effs = []
            arg_models = {a.name: a for a in s.arguments}
            for e in s.effects:
                eff = _compile_effect(dev, ns, s, e, attr_models, args)
                if eff.kind == "value":
                    eff.proven = checkers[eff.loc](eff.payload) is None
                elif eff.kind == "arg":  # an omitted argument takes its default, never checked
                    arg, check = arg_models[eff.payload], checkers[eff.loc]
                    eff.proven = _same_spec(arg, attr_models[eff.loc]) and (
                        arg.required or arg.default is None or check(arg.default) is None
                    )
                effs.append(eff)
            for r in s.requires:
                if _resolve(ns, r.attr) not in attr_models:
                    raise ValueError(
                        f"device {dev.did}: service {loc!r} requires unknown attribute {r.attr!r}"
                    )
            behavior = None
            if s.behavior is not None:
                behavior = registered_behavior(s.behavior)
                if behavior is None:
                    raise ValueError(
                        f"device {dev.did}: service {loc!r} names unknown behavior {s.behavior!r}"
                    )
            services[loc] = _Svc(
                loc,
                s,
                args,
                list(args),
                [_compile_req(ns, r) for r in s.requires],
                effs,
                behavior,
                ns,
                all(e.proven for e in effs),
                {a.name: f for a in s.arguments if (f := _taker(a)) is not None},
            )
    writable = {loc: checkers[loc] for loc, a in attr_models.items() if a.writable}
    ranges = {loc: a.range for loc, a in attr_models.items() if a.range is not None}
    write_reqs: dict[str, list[_Req]] = {}
    write_behaviors: dict[str, tuple[str, Behavior, str]] = {}
    for ns, attrs, _ in namespaces:
        for a in attrs:
            for r in a.write_requires or ():
                if _resolve(ns, r.attr) not in attr_models:
                    raise ValueError(
                        f"device {dev.did}: writing {_resolve(ns, a.name)!r} requires "
                        f"unknown attribute {r.attr!r}"
                    )
                write_reqs.setdefault(_resolve(ns, a.name), []).append(_compile_req(ns, r))
            if a.on_write is not None:
                loc = _resolve(ns, a.name)
                if not a.writable:
                    raise ValueError(f"device {dev.did}: {loc!r} has on_write but is not writable")
                fn = registered_behavior(a.on_write)
                if fn is None:
                    raise ValueError(
                        f"device {dev.did}: writing {loc!r} names unknown behavior {a.on_write!r}"
                    )
                write_behaviors[loc] = (a.on_write, fn, ns)
    if dev.dynamics is not None:
        for path, loc in dev.dynamics.locators():
            if loc not in attr_models:
                raise ValueError(
                    f"device {dev.did}: dynamics.{path} names unknown attribute {loc!r}"
                )
    shapes = {loc: f for loc, a in attr_models.items() if (f := mode_tag_normalizer(a)) is not None}
    return _Dev(
        dev.did,
        dev,
        attr_models,
        checkers,
        services,
        writable,
        ranges,
        write_reqs,
        write_behaviors,
        _container_locators(attr_models),
        shapes,
        {loc: i for i, loc in enumerate(attr_models)},
        {loc: f for loc in writable if (f := _taker(attr_models[loc])) is not None},
    )


def _container_locators(attrs: Mapping[str, Attribute]) -> tuple[str, ...]:
    """Attributes whose checker can let a list or dict through: their own type, or an option
    that is one. Only these need copying when the state is handed out."""
    kinds = (AttrType.LIST, AttrType.TUPLE, AttrType.DICT)
    return tuple(
        loc
        for loc, a in attrs.items()
        if a.type in kinds or any(isinstance(o, CONTAINERS) for o in a.options or ())
    )


_COMPILED: dict[int, tuple[weakref.ref[Device], _Dev]] = {}


@contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while a home compiles.

    Compiling allocates tens of thousands of long-lived objects (checkers, closures, tables)
    and nothing cyclic to free; each automatic collection walks every object allocated so
    far, so a build got quadratic in the number of devices (2.9 s at 5,000 devices, 0.3 s
    with collection off). Collection resumes afterwards as it was.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _compiled(dev: Device) -> _Dev:
    """``_compile_device(dev)``, compiled once per Device object.

    Runners build a fresh engine per task from one shared Home model, and compiling a device
    (checkers, effects, rules) is most of an engine's construction time. Device models are
    never mutated once loaded (changes go into an engine's state, and :meth:`HomeEngine.to_home`
    builds new models), so the compiled tables can be reused while the object lives. The cache
    keeps no strong reference to the device (its entry is dropped when the device is freed).
    """
    key = id(dev)
    hit = _COMPILED.get(key)
    if hit is None or hit[0]() is not dev:
        # The cached table holds no model on purpose: a strong reference would keep the device
        # alive, so its weakref below would never fire. Every table handed out gets it back;
        # the first is the compiled one itself.
        table = _compile_device(dev)
        cached = dataclasses.replace(table, model=None)  # type: ignore[arg-type]
        _COMPILED[key] = (weakref.ref(dev, lambda _ref: _COMPILED.pop(key, None)), cached)
        return table
    return dataclasses.replace(hit[1], model=dev)


ENV_PREFIX = "@"
"""Room variables live in the state under the pseudo device id ``@<room id>``, so snapshots,
diffs, listeners, critics and automation triggers address them like device attributes."""


@cache
def _env_checkers() -> Mapping[str, Checker]:
    """The checkers of room variables, made once per process (every engine shares them)."""
    specs = {
        "temperature": (-50.0, 80.0),
        "humidity": (0.0, 100.0),
        "illuminance": (0.0, 200000.0),
        "pm25": (0.0, 2000.0),
        "pm10": (0.0, 2000.0),
    }
    out = {
        v: compile_checker(
            plain_form.model("Attribute", {"name": v, "type": "float", "range": r}), v
        )
        for v, r in specs.items()
    }
    classes = [name for _, name in AIR_QUALITY_BANDS] + [air_quality_class(float("inf"))]
    out["air_quality"] = compile_checker(
        plain_form.model("Attribute", {"name": "air_quality", "type": "str", "options": classes}),
        "air_quality",
    )
    return MappingProxyType(out)


def _compile_effect(
    dev: Device, ns: str, s: Service, e: Effect, attrs: dict[str, Attribute], args: dict[str, Any]
) -> _Eff:
    loc = _resolve(ns, e.set)
    where = f"device {dev.did}: service {s.name!r}"
    if loc not in attrs:
        raise ValueError(f"{where} sets unknown attribute {e.set!r}")
    when = _compile_req(ns, e.when) if e.when is not None else None
    if e.arg is not None:
        if e.arg not in args:
            raise ValueError(f"{where} effect reads unknown argument {e.arg!r}")
        return _Eff(loc, "arg", e.arg, when)
    if e.attr is not None:
        src = _resolve(ns, e.attr)
        if src not in attrs:
            raise ValueError(f"{where} effect copies unknown attribute {e.attr!r}")
        return _Eff(loc, "attr", src, when)
    if e.add is not None:
        return _Eff(loc, "add", e.add, when)
    if e.toggle is not None:
        return _Eff(loc, "toggle", tuple(e.toggle), when)
    return _Eff(loc, "value", e.value, when)


class HomeEngine:
    """A stateful, executable, verifiable home."""

    def __init__(self, home: Home) -> None:
        self._home = home
        self._rooms: dict[str, Room] = {r.id: r for r in home.rooms}
        self._children: dict[str | None, list[str]] = {}  # parent id (None: top level) -> room ids
        for r in home.rooms:
            self._children.setdefault(r.parent, []).append(r.id)
        self._devs: dict[str, _Dev] = {}
        self._state: dict[str, dict[str, Any]] = {}
        with _gc_paused():
            for d in home.devices:
                rt = _compiled(d)
                self._devs[d.did] = rt
                self._state[d.did] = {loc: a.value for loc, a in rt.attr_models.items()}
        self._env_checkers = _env_checkers()
        for r in home.rooms:
            if r.environment is not None:
                e = r.environment
                self._state[ENV_PREFIX + r.id] = {
                    "temperature": float(e.temperature),
                    "humidity": float(e.humidity),
                    "illuminance": float(e.base_lux),
                    "pm25": float(e.pm25),
                    "pm10": float(e.pm10),
                    "air_quality": air_quality_class(e.pm25),
                }
        # replaced, never mutated: a notification walks the tuple it started with, without a copy
        self._listeners: tuple[Callable[[list[Change]], None], ...] = ()

    # ------------------------------------------------------------------ loading / saving
    @classmethod
    def from_file(cls, path: str | Path) -> HomeEngine:
        """Load and compile a home file; every problem is a ``ValueError`` naming the file."""
        home = load_home(path)
        try:
            return cls(home)
        except (ValueError, RecursionError) as e:
            raise ValueError(f"{path}: invalid home: {e}") from None

    def to_home(self) -> Home:
        """The current state as a :class:`Home` model (attribute values updated; devices whose
        state is still their model's values keep their model, so engines built from the result
        reuse its compiled tables)."""
        devices = []
        for d in self._home.devices:
            state = self._state[d.did]
            if all(_same(state[loc], a.value) for loc, a in self._devs[d.did].attr_models.items()):
                devices.append(d)  # unchanged: the same (already compiled) model
                continue
            attrs = [a.model_copy(update={"value": state[a.name]}) for a in d.attributes]
            comps = [
                c.model_copy(
                    update={
                        "attributes": [
                            a.model_copy(update={"value": state[f"{c.name}.{a.name}"]})
                            for a in c.attributes
                        ]
                    }
                )
                for c in d.components
            ]
            devices.append(d.model_copy(update={"attributes": attrs, "components": comps}))
        rooms = []
        for r in self._home.rooms:
            env = self._state.get(ENV_PREFIX + r.id)
            if env is not None and r.environment is not None:
                r = r.model_copy(
                    update={
                        "environment": r.environment.model_copy(
                            update={k: env[k] for k in ("temperature", "humidity", "pm25", "pm10")}
                        )
                    }
                )
            rooms.append(r)
        return self._home.model_copy(update={"devices": devices, "rooms": rooms})

    def save(self, path: str | Path) -> None:
        Path(path).write_text(dump_home(self.to_home()), encoding="utf-8")

    # ------------------------------------------------------------------ listeners
    def add_listener(self, fn: Callable[[list[Change]], None]) -> Callable[[], None]:
        """Call ``fn(changes)`` after every state change; returns an unsubscribe function."""
        self._listeners = (*self._listeners, fn)

        def unsubscribe() -> None:
            listeners = list(self._listeners)
            listeners.remove(fn)  # ValueError if already removed, as list.remove
            self._listeners = tuple(listeners)

        return unsubscribe

    def listened_only_by(self, fn: Callable[[list[Change]], None]) -> bool:
        """Whether ``fn`` is the engine's one listener: then the changes a caller hands to
        :meth:`set_many_trusted` reach nobody else."""
        return len(self._listeners) == 1 and self._listeners[0] == fn

    def _notify(self, changes: list[Change]) -> None:
        for fn in self._listeners:
            fn(changes)

    # ------------------------------------------------------------------ execution
    def execute(
        self, did: str, locator: str, arguments: Mapping[str, Any] | None = None
    ) -> ExecResult:
        """Validate and apply one call. Invalid calls return an error and change nothing."""
        outcome = self._plan(did, locator, arguments)
        if isinstance(outcome, ServiceError):
            return ExecResult(False, error=outcome)
        return ExecResult(True, changes=self._commit_one(did, outcome))

    def execute_many(
        self, actions: Iterable[Mapping[str, Any]], atomic: bool = True
    ) -> list[ExecResult]:
        """Run ``[{did, locator, arguments}, ...]`` in order.

        ``atomic=True``: all or nothing. Each call is validated against the state produced by
        the calls before it; on the first error nothing is applied and every result after the
        failing one is reported as not run. ``atomic=False``: apply each valid call, skip invalid ones.
        """
        acts = _action_list(actions)
        if isinstance(acts, ServiceError):
            return [ExecResult(False, error=acts)]
        if not atomic:
            return [self._execute_action(i, a) for i, a in enumerate(acts)]
        staged: dict[str, dict[str, Any]] = {}
        results: list[ExecResult] = []
        for i, a in enumerate(acts):
            if not isinstance(a, Mapping):
                outcome: dict[str, Any] | ServiceError = _not_an_action(i, a)
            else:
                did = a.get("did", "")
                outcome = self._plan(did, a.get("locator", ""), a.get("arguments"), staged)
            if isinstance(outcome, ServiceError):
                results.append(ExecResult(False, error=outcome))
                skipped = ServiceError(
                    ErrorCode.PRECONDITION_FAILED, f"not run: action {i} of the atomic batch failed"
                )
                results += [ExecResult(False, error=skipped) for _ in acts[i + 1 :]]
                return results
            staged[did] = {**(staged[did] if did in staged else self._state[did]), **outcome}
            results.append(ExecResult(True))
        # Changes of a batch are not separable per action; the first result carries them all.
        all_changes = self._commit(staged)
        if results:
            results[0].changes = all_changes
        return results

    def _execute_action(self, i: int, action: Any) -> ExecResult:
        """One item of a non-atomic batch: an ``{did, locator, arguments}`` object, or an error."""
        if not isinstance(action, Mapping):
            return ExecResult(False, error=_not_an_action(i, action))
        return self.execute(
            action.get("did", ""), action.get("locator", ""), action.get("arguments")
        )

    def _plan(
        self,
        did: str,
        locator: str,
        arguments: Mapping[str, Any] | None,
        staged: Mapping[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any] | ServiceError:
        """Validate a call; return the values it sets (the device's other attributes keep
        theirs), or the error."""
        dev = self._devs.get(did) if isinstance(did, str) else None
        if dev is None:
            return ServiceError(
                ErrorCode.DEVICE_NOT_FOUND, f"no device with did {show(did)}", did=_field(did)
            )
        state = staged[did] if staged and did in staged else self._state[did]
        if arguments is None:
            arguments = {}
        elif type(arguments) is not dict and not isinstance(arguments, Mapping):  # ABC check last
            return ServiceError(
                ErrorCode.BAD_ARGUMENTS,
                f"arguments must be an object, got {type(arguments).__name__}",
                did=did,
                locator=_field(locator),
            )
        svc = dev.services.get(locator) if isinstance(locator, str) else None
        if svc is None:
            return self._plan_write(dev, state, locator, arguments)

        # 3. names
        spec = svc.args
        for name in arguments:
            if name not in spec:
                return ServiceError(
                    ErrorCode.UNEXPECTED_ARGUMENT,
                    f"{locator} takes no argument {show(name)}; it takes {svc.arg_names or 'none'}",
                    did=did,
                    locator=locator,
                    field=_field(name),
                    allowed=svc.arg_names,
                )
        args: dict[str, Any] = {}
        rounders = svc.rounders
        for name, (check, required, default) in spec.items():
            if name in arguments:
                v = arguments[name]
                if rounders and name in rounders:  # a device that rounds off-grid values
                    v = rounders[name](v)
                problem = check(v)
                if problem is not None:
                    return ServiceError(
                        problem[0],
                        f"{locator}: {problem[1]}",
                        did=did,
                        locator=locator,
                        field=name,
                        allowed=problem[2],
                    )
                args[name] = copy_value(v) if isinstance(v, CONTAINERS) else v
            elif required:
                arg_model = next(a for a in svc.model.arguments if a.name == name)
                return ServiceError(
                    ErrorCode.MISSING_ARGUMENT,
                    f"{locator} needs argument {name!r} ({describe(arg_model)})",
                    did=did,
                    locator=locator,
                    field=name,
                    allowed=svc.arg_names,
                )
            else:
                args[name] = default
        # 5. preconditions
        for r in svc.reqs:
            if not r.test(state[r.loc]):
                return ServiceError(
                    ErrorCode.PRECONDITION_FAILED,
                    f"cannot run {locator}: {r.text} (currently {state[r.loc]!r})",
                    did=did,
                    locator=locator,
                    field=r.loc,
                )
        # 6. effects (computed on the pre-call state)
        changes: dict[str, Any] = {}
        for e in svc.effs:
            if e.when is not None and not e.when.test(state[e.when.loc]):
                continue
            kind = e.kind
            if kind == "value":
                v = e.payload
            elif kind == "arg":
                v = args[e.payload]
                if v is None:
                    continue
            elif kind == "attr":
                v = state[e.payload]
            elif kind == "add":
                v = state[e.loc] + e.payload
                rng = dev.ranges.get(e.loc)
                if rng is not None:
                    v = min(max(v, rng[0]), rng[1])
                if isinstance(state[e.loc], int) and float(v).is_integer():
                    v = int(v)
            else:  # toggle
                a, b = e.payload
                v = b if state[e.loc] == a else a
            changes[e.loc] = v
        if svc.behavior is not None:
            refused = _behavior_changes(
                dev,
                locator,
                "run",
                svc.model.behavior or "",
                svc.behavior,
                svc.ns,
                state,
                args,
                changes,
                dict(changes) if svc.proven else None,
            )
        elif svc.proven:  # every value is valid as computed (checked when it was an argument)
            refused = None
        else:
            refused = _checked_changes(dev, locator, changes)
        if refused is not None:
            return refused
        return changes

    def _plan_write(
        self, dev: _Dev, state: dict[str, Any], locator: str, arguments: Mapping[str, Any]
    ) -> dict[str, Any] | ServiceError:
        """Direct attribute write (``{"value": v}``) for attributes declared writable."""
        did = dev.did
        if not isinstance(locator, str):
            return ServiceError(
                ErrorCode.SERVICE_NOT_FOUND,
                f"locator must be a string naming a service or writable attribute of device "
                f"{did}, got {type(locator).__name__} {show(locator)}",
                did=did,
                locator=_field(locator),
                allowed=sorted(dev.services) + sorted(dev.writable),
            )
        if locator not in dev.attr_models:
            return ServiceError(
                ErrorCode.SERVICE_NOT_FOUND,
                f"device {did} has no service {show(locator)}",
                did=did,
                locator=_field(locator),
                allowed=sorted(dev.services) + sorted(dev.writable),
            )
        check = dev.writable.get(locator)
        if check is None:
            return ServiceError(
                ErrorCode.NOT_WRITABLE,
                f"{locator!r} is a read-only attribute of device {did}; use a service",
                did=did,
                locator=locator,
                allowed=sorted(dev.services),
            )
        extra = [k for k in arguments if k != "value"]
        if extra:
            return ServiceError(
                ErrorCode.UNEXPECTED_ARGUMENT,
                f"writing {locator} takes only 'value'",
                did=did,
                locator=locator,
                field=_field(extra[0]),
                allowed=["value"],
            )
        if "value" not in arguments:
            return ServiceError(
                ErrorCode.MISSING_ARGUMENT,
                f"writing {locator} needs 'value'",
                did=did,
                locator=locator,
                field="value",
                allowed=["value"],
            )
        value = arguments["value"]
        if locator in dev.rounders:
            value = dev.rounders[locator](value)
        problem = check(value)
        if problem is not None:
            return ServiceError(
                problem[0], problem[1], did=did, locator=locator, field="value", allowed=problem[2]
            )
        for r in dev.write_reqs.get(locator, ()):
            if not r.test(state[r.loc]):
                return ServiceError(
                    ErrorCode.PRECONDITION_FAILED,
                    f"cannot write {locator}: {r.text} (currently {state[r.loc]!r})",
                    did=did,
                    locator=locator,
                    field=r.loc,
                )
        changes: dict[str, Any] = {
            locator: copy_value(value) if isinstance(value, CONTAINERS) else value
        }
        hook = dev.write_behaviors.get(locator)
        if hook is not None:
            name, fn, ns = hook
            refused = _behavior_changes(
                dev, locator, "write", name, fn, ns, state, {"value": changes[locator]}, changes
            )
            if refused is not None:
                return refused
        return changes

    def _commit_one(self, did: str, values: dict[str, Any]) -> list[Change]:
        """:meth:`_commit` of one device's planned ``values`` (only the attributes a call sets):
        the one call of :meth:`execute` compares those, not the device's every attribute."""
        old = self._state[did]
        changes: list[Change] = []
        for loc, v in values.items():
            ov = old[loc]
            if ov is not v and (ov != v or type(ov) is not type(v)):
                changes.append(new_change(Change, (did, loc, ov, v)))
        if len(changes) > 1:  # in the device's attribute order, as every other commit reports
            position = self._devs[did].position
            changes.sort(key=lambda c: position[c[1]])
        self._state[did] = {**old, **values}
        if changes and self._listeners:
            self._notify(changes)
        return changes

    def _commit(self, new_states: Mapping[str, dict[str, Any]]) -> list[Change]:
        changes: list[Change] = []
        for did, new in new_states.items():
            old = self._state[did]
            for loc, v in new.items():
                ov = old[loc]
                if ov is not v and (ov != v or type(ov) is not type(v)):
                    changes.append(new_change(Change, (did, loc, ov, v)))
            self._state[did] = new
        if changes and self._listeners:
            self._notify(changes)
        return changes

    def set_values(self, did: str, values: Mapping[str, Any]) -> ExecResult:
        """Set attribute values directly (task setup, sensors, physics), still type-checked.

        Unlike :meth:`execute` this ignores ``writable`` and service preconditions: it is the
        simulator's own hand, not an agent's.
        """
        new = self._stage_values(did, values)
        if isinstance(new, ServiceError):
            return ExecResult(False, error=new)
        return ExecResult(True, changes=self._commit({did: new}))

    def set_many(self, updates: Mapping[str, Mapping[str, Any]]) -> ExecResult:
        """:meth:`set_values` for several devices as one change (one notification); all or none."""
        if not isinstance(updates, Mapping):
            return ExecResult(
                False,
                error=ServiceError(
                    ErrorCode.BAD_ARGUMENTS,
                    f"updates must be an object {{did: {{locator: value}}}}, "
                    f"got {type(updates).__name__} {show(updates)}",
                ),
            )
        staged: dict[str, dict[str, Any]] = {}
        for did, values in updates.items():
            new = self._stage_values(did, values)
            if isinstance(new, ServiceError):
                return ExecResult(False, error=new)
            staged[did] = new
        return ExecResult(True, changes=self._commit(staged))

    def set_many_trusted(
        self, updates: Mapping[str, Mapping[str, Any]], changes: list[Change] | None = None
    ) -> list[Change]:
        """:meth:`set_many` for values the caller has already made valid, without checking them
        again: the simulator's own writes (room variables, sensor readings clamped to the
        attribute's range and rounded to its type, countdowns), thousands per simulated hour,
        where re-validation was most of the cost. Scalars only; an unknown device or attribute
        is a bug in the caller and raises ``KeyError`` before anything changes.

        ``changes``: a caller that compared every value with the engine's itself (the simulator,
        every tick) passes the result, one :class:`Change` per value of ``updates`` (each value
        differs from the engine's, ``before`` is the engine's), in ``updates`` order: what this
        method would make, so it is not made again (nor the keys checked: the caller read every
        value it writes, so every device and attribute exists). A caller that is the engine's
        one listener (:meth:`listened_only_by`) may leave out the changes it would not read
        itself: they would be handed to it alone."""
        if changes is not None:
            state = self._state
            for did, values in updates.items():
                state[did] = {**state[did], **values}
            if changes and self._listeners:
                self._notify(changes)
            return changes
        state = self._state
        staged: list[tuple[str, dict[str, Any]]] = []
        made: list[Change] = []
        add = made.append
        for did, values in updates.items():
            old = state[did]
            for loc, v in values.items():  # only these can differ: the rest is copied over
                try:
                    ov = old[loc]
                except KeyError:  # before anything is installed: nothing changes
                    raise KeyError(f"{did} has no attribute {loc!r}") from None
                if ov is not v and (ov != v or type(ov) is not type(v)):
                    add(new_change(Change, (did, loc, ov, v)))
            staged.append((did, {**old, **values}))  # a new mapping: the old one's keys, in order
        for did, new in staged:
            state[did] = new
        if made and self._listeners:
            self._notify(made)
        return made

    def _stage_values(self, did: str, values: Mapping[str, Any]) -> dict[str, Any] | ServiceError:
        """The device's state with ``values`` set, after checking each; or the first problem."""
        dev = self._devs.get(did) if isinstance(did, str) else None
        checkers: Mapping[str, Checker]
        if dev is not None:
            checkers = dev.checkers
        elif isinstance(did, str) and did.startswith(ENV_PREFIX) and did in self._state:
            checkers = self._env_checkers
        else:
            return ServiceError(
                ErrorCode.DEVICE_NOT_FOUND, f"no device {show(did)}", did=_field(did)
            )
        if not isinstance(values, Mapping):
            return ServiceError(
                ErrorCode.BAD_ARGUMENTS,
                f"values for {did} must be an object {{locator: value}}, "
                f"got {type(values).__name__} {show(values)}",
                did=did,
            )
        new = dict(self._state[did])
        shapes = dev.shapes if dev is not None else None
        for loc, v in values.items():
            if shapes and loc in shapes:
                v = shapes[loc](v)
            check = checkers.get(loc) if isinstance(loc, str) else None
            if check is None:
                return ServiceError(
                    ErrorCode.SERVICE_NOT_FOUND,
                    f"device {did} has no attribute {show(loc)}",
                    did=did,
                    locator=_field(loc),
                    allowed=sorted(checkers),
                )
            problem = check(v)
            if problem is not None:
                return ServiceError(
                    problem[0], problem[1], did=did, locator=loc, field=loc, allowed=problem[2]
                )
            new[loc] = copy_value(v) if isinstance(v, CONTAINERS) else v
        return new

    def state_lookup(self) -> Callable[[str], Mapping[str, Any]]:
        """:meth:`state_view` as one C-level callable, for a caller that reads many devices in
        one go (the simulator, every tick): read-only by contract, and valid until the next
        :meth:`restore` (which replaces the table it reads)."""
        return self._state.__getitem__

    def state_view(self, did: str) -> Mapping[str, Any]:
        """The live state mapping of a device, without a copy: read-only by contract.

        The engine replaces (never mutates) a device's mapping on every change, so the object's
        identity tells a caller whether anything changed (the simulator caches on it)."""
        return self._state[did]

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> Snapshot:
        return Snapshot(dict(self._state))

    def restore(self, snap: Snapshot) -> list[Change]:
        """Return the devices to a snapshot's values (the snapshot must be of this home)."""
        if snap.keys() != self._state.keys():
            raise ValueError("snapshot is of a different home (device ids differ)")
        changes = diff(self.snapshot(), snap)
        self._state = dict(snap._devices)
        if changes and self._listeners:
            self._notify(changes)
        return changes

    @staticmethod
    def diff(before: Snapshot, after: Snapshot) -> list[Change]:
        return diff(before, after)

    # ------------------------------------------------------------------ read API
    @property
    def home(self) -> Home:
        """The home as loaded (static layout and schemas; values as at load time)."""
        return self._home

    def rooms(self) -> list[Room]:
        return list(self._rooms.values())

    def room(self, room_id: str) -> Room | None:
        return self._rooms.get(room_id)

    def room_tree(self) -> list[dict[str, Any]]:
        """Rooms as a forest: ``[{id, name, type, floor, children: [...]}, ...]``, floor order."""
        nodes: dict[str, dict[str, Any]] = {
            r.id: {"id": r.id, "name": r.name, "type": r.type, "floor": r.floor, "children": []}
            for r in self._rooms.values()
        }
        roots: list[dict[str, Any]] = []
        for r in self._rooms.values():
            (nodes[r.parent]["children"] if r.parent else roots).append(nodes[r.id])
        return sorted(roots, key=lambda n: (n["floor"], n["id"]))

    def subrooms(self, room_id: str) -> set[str]:
        """``room_id`` and every room nested inside it (one walk down the nesting: linear)."""
        out = {room_id}
        todo = [room_id]
        while todo:
            for child in self._children.get(todo.pop(), ()):
                if child not in out:
                    out.add(child)
                    todo.append(child)
        return out

    def device_ids(self) -> list[str]:
        return list(self._devs)

    def environment(self, room_id: str) -> dict[str, Any] | None:
        """The room's climate ``{temperature, humidity, illuminance, pm25, pm10, air_quality}``,
        or ``None`` if the room is not simulated."""
        env = self._state.get(ENV_PREFIX + room_id)
        return None if env is None else dict(env)

    def simulated_rooms(self) -> list[str]:
        return [r for r in self._rooms if ENV_PREFIX + r in self._state]

    def device(self, did: str) -> Device:
        """The device's static description (values as loaded; use :meth:`status` for current)."""
        return self._devs[did].model

    def devices(
        self,
        room: str | None = None,
        category: str | None = None,
        subcategory: str | None = None,
        tags: Iterable[str] | None = None,
        include_nested: bool = False,
    ) -> list[dict[str, Any]]:
        """Device summaries filtered by room (optionally with nested rooms), category,
        subcategory and tags (all given tags must be present)."""
        rooms = None
        if room is not None:
            rooms = self.subrooms(room) if include_nested else {room}
        want_tags = set(tags or ())
        out = []
        for dev in self._devs.values():
            ud = dev.model.userdata
            if rooms is not None and ud.room not in rooms:
                continue
            if category is not None and ud.category != category:
                continue
            if subcategory is not None and ud.subcategory != subcategory:
                continue
            if want_tags and not want_tags <= set(ud.tags):
                continue
            out.append(self.summary(dev.did))
        return out

    def summary(self, did: str) -> dict[str, Any]:
        m = self._devs[did].model
        ud = m.userdata
        room = self._rooms[ud.room] if ud.room is not None else None
        return {
            "did": did,
            "name": m.name,
            "category": ud.category,
            "subcategory": ud.subcategory,
            "room": ud.room,
            "room_name": room.name if room is not None else None,
            "tags": list(ud.tags),
            "description": m.description,
        }

    def status(self, did: str) -> dict[str, Any]:
        """Current attribute values, ``{locator: value}``: a copy the caller may edit freely
        (lists and dicts included) without touching the home."""
        out = dict(self._state[did])
        dev = self._devs.get(did)
        for loc in dev.containers if dev is not None else ():
            out[loc] = copy_value(out[loc])
        return out

    def value(self, did: str, locator: str) -> Any:
        """The current value at ``did``/``locator`` (lists and dicts as copies, as in :meth:`status`)."""
        v = self._state[did][locator]
        return copy_value(v) if isinstance(v, CONTAINERS) else v

    def spec(self, did: str) -> dict[str, Any]:
        """Attributes with constraints and services with argument schemas, JSON-friendly."""
        dev = self._devs[did]

        def constraints(m: Attribute | Argument) -> dict[str, Any]:
            d = m.model_dump(
                mode="json", exclude_none=True, exclude={"name", "value", "description", "on_write"}
            )
            if d.get("writable") is False:
                d.pop("writable")
            return d

        attrs = {
            loc: {"description": a.description, **constraints(a)}
            for loc, a in dev.attr_models.items()
        }
        svcs = {}
        for loc, s in dev.services.items():
            svcs[loc] = {
                "description": s.model.description,
                "arguments": {
                    a.name: {"description": a.description, **constraints(a)}
                    for a in s.model.arguments
                },
            }
        return {
            "did": did,
            "name": dev.model.name,
            "description": dev.model.description,
            "attributes": attrs,
            "services": svcs,
        }

    def services(self, did: str) -> list[str]:
        return list(self._devs[did].services)


def load_home(path: str | Path, *, plain: bool = False) -> Home:
    """Load a home JSON file; errors name the file and the failing field.

    Whatever the file (missing, a directory, not UTF-8, not JSON, nested deeper than the parser
    can go, ``NaN`` literals, not a home), the one exception is a ``ValueError`` whose message
    starts with the path, which is what the CLI and the HA config flow show the user.
    ``plain``: the home in its plain form (:mod:`.plain`: validated the same way, by
    pydantic-core alone), for Home Assistant's set-up, which then never imports pydantic;
    the pydantic models where the installed pydantic-core is not the one the plain schema was
    written for (:func:`.plain.usable`).
    """
    p = Path(path)
    raw = _read_json(p)
    try:
        if plain and plain_form.usable():
            with _gc_paused():  # a home's worth of long-lived objects, nothing cyclic to free
                home: Home = plain_form.validate("Home", raw)
            return home
        from .model import Home  # pydantic, loaded here for the homes that need it

        return Home.model_validate(raw)
    except Exception as e:  # pydantic.ValidationError, or RecursionError on absurd nesting
        raise ValueError(f"{p}: invalid home: {e}") from None


def _reject_constant(name: str) -> Any:
    """``json`` accepts ``NaN`` and ``Infinity``; they are not JSON and no attribute can hold them."""
    raise ValueError(f"{name} is not a JSON value")


def _read_json(p: Path) -> Any:
    """The JSON document in file ``p``; every failure is a ``ValueError`` naming the file."""
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{p}: not UTF-8 text (byte {e.start}): a home file is JSON") from None
    except IsADirectoryError:
        raise ValueError(f"{p}: is a directory, not a home file") from None
    except OSError as e:
        raise ValueError(f"{p}: cannot read home file: {e.strerror or e}") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise ValueError(f"{p}:{e.lineno}:{e.colno}: invalid JSON: {e.msg}") from None
    except RecursionError:
        raise ValueError(f"{p}: invalid JSON: nested too deeply to parse") from None
    except ValueError as e:  # NaN/Infinity, or an integer beyond CPython's digit limit
        raise ValueError(f"{p}: invalid JSON: {e}") from None


def dump_home(home: Home) -> str:
    """Canonical JSON text of a home: loading it and dumping again gives the same bytes."""
    data = home.model_dump(mode="json", exclude_none=True, by_alias=True, exclude_defaults=False)
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def dump_compact(home: Home) -> str:
    """Canonical compact JSON of a home (defaults left out): the same bytes for the same home,
    about half the size of :func:`dump_home` for the large complex homes (the suites write their
    many generated home files this way); refused if the home would not load back equal."""
    data = home.model_dump(mode="json", exclude_none=True, by_alias=True, exclude_defaults=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    if type(home).model_validate_json(text) != home:  # either form, read back as itself
        raise RuntimeError(f"home {home.name} does not survive its compact dump")
    return text
