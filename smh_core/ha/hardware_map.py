"""Hardware mappings: how a HomeEnv home's attributes live on a physical Home Assistant home.

Benchmark tasks name HomeEnv devices and attributes (``1001`` / ``brightness``); a physical
test home has HA entities (``light.bed_light`` with a 0-255 ``brightness`` attribute). A
mapping file (YAML) says, for one task home, where each mapped attribute lives in HA, how its
values convert, and which service call puts a value on the device, so the same tasks (and the
same verifier) can run against real hardware::

    home: {file: homes/tiny.json}     # the tasks' home reference, as written in the tasks
    timeout_seconds: 15               # how long devices get to reach a task's initial state
    devices:
      "1001":                         # HomeEnv device id
        state:                        # attribute locator (components: fan.speed_level)
          entity: light.bed_light
          set: {service: "light.turn_{value}"}
        brightness:
          entity: light.bed_light
          attribute: brightness       # default: the entity's state
          scale: {home: [0, 100], ha: [0, 255]}
          set: {service: light.turn_on, data: {brightness: "{value}"}}

Reading (HA -> HomeEnv): the raw value is the entity's state or the named attribute; ``ignore``
lists raw values that say nothing about this attribute (a climate entity's ``off`` for its
mode); an absent or ``null`` attribute (a light's brightness while it is off) is likewise *not
observed*, and so is an attribute with ``when_state`` while the entity's state is not one of
those (a climate entity's ``temperature`` is the cooling setpoint only while it cools). Otherwise ``values`` (HomeEnv value -> HA value) is inverted, raw values it lacks
read as ``otherwise`` if given (else the reading is an error); or ``scale`` converts linearly;
or ``rgb`` takes HA's ``[r, g, b]`` to a hex colour (``when_attribute`` then keeps a light's
colour unobserved while HA shows it in colour-temperature mode).
The result takes the type of the HomeEnv attribute (int, float, bool, str), so snapshots diff
cleanly. Writing (HomeEnv -> HA) converts the other way; ``{value}`` in the service name or in
``data`` strings is the HA-side value (a string that is exactly ``"{value}"`` keeps its type),
``set`` may also map each HomeEnv value to its own call, and the entity id is added as
``entity_id``. Attributes without ``set`` are read-only (checked, never written).
``skip`` lists devices the user chose to leave unmapped (``smh ha map`` proposes them no more).

The file is read with YAML 1.2 booleans (only ``true``/``false``), so ``on``/``off`` are the
strings a smart home uses. Errors name the file, the line and the field (:class:`MappingFileError`).
This module is pure (no HA imports): the runner and ``smh ha check-mapping`` share it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)

from smh_core.homeenv.colours import hex_of, rgb_of
from smh_core.task.model import HomeRef

_ENTITY = re.compile(r"^[a-z0-9_]+\.[a-z0-9_]+$")
_SERVICE = re.compile(r"^[a-z0-9_{}]+\.[a-z0-9_{}]+$")


def _shaped(pattern: re.Pattern[str], what: str) -> AfterValidator:
    """A string check: ``pattern`` must match, else the error says what was expected."""

    def check(v: str) -> str:
        if not pattern.match(v):
            raise ValueError(f"{v!r} is not {what}")
        return v

    return AfterValidator(check)


EntityId = Annotated[str, _shaped(_ENTITY, "an entity id like light.kitchen")]
ServiceName = Annotated[str, _shaped(_SERVICE, "a service name like light.turn_on")]
UNREACHABLE = ("unavailable", "unknown")
"""HA states that mean the device cannot be read at all."""


class NotObserved:
    """HA does not report this attribute right now (a dimmer's brightness while off)."""

    _instance: NotObserved | None = None

    def __new__(cls) -> NotObserved:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_OBSERVED"


NOT_OBSERVED = NotObserved()


class ReadError(ValueError):
    """A mapped attribute cannot be read: the entity is missing or unavailable (``kind``
    ``missing`` / ``unavailable``: the device's fault), or HA reports a value the mapping cannot
    convert (``unconvertible``: what the agent set, or a mapping gap)."""

    def __init__(self, message: str, kind: str = "unconvertible") -> None:
        super().__init__(message)
        self.kind = kind

    @property
    def device_fault(self) -> bool:
        """Whether the device (not the agent) is why the value cannot be read."""
        return self.kind in ("missing", "unavailable")


class MappingFileError(ValueError):
    """A malformed mapping file: names the file, the 1-based line and the field path."""

    def __init__(self, path: Path | str, line: int, field: str, message: str) -> None:
        self.path, self.line, self.field = str(path), line, field
        super().__init__(f"{path}:{line}: {field}: {message}")


def same_value(a: Any, b: Any) -> bool:
    """Equality that keeps booleans apart from numbers (``True`` is not ``1`` here)."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _substitute(template: Any, value: Any) -> Any:
    if template == "{value}":
        return value
    if isinstance(template, str):
        return template.replace("{value}", str(value))
    if isinstance(template, dict):
        return {k: _substitute(v, value) for k, v in template.items()}
    if isinstance(template, list):
        return [_substitute(v, value) for v in template]
    return template


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ServiceCall(_Strict):
    """An HA service (``domain.name``) and its data; ``{value}`` is substituted."""

    service: ServiceName
    data: dict[str, Any] = Field(default_factory=dict)

    def render(self, entity: str, value: Any) -> tuple[str, str, dict[str, Any]]:
        """``(domain, service, data)`` for putting ``value`` (HA side) on ``entity``."""
        domain, name = _substitute(self.service, value).split(".", 1)
        data = _substitute(self.data, value)
        if "entity_id" not in data and "target" not in data:
            data = {"entity_id": entity, **data}
        return domain, name, data


class Scale(_Strict):
    """Linear conversion: ``home`` range <-> ``ha`` range (brightness 0-100 <-> 0-255)."""

    home: tuple[float, float]
    ha: tuple[float, float]
    decimals: int | None = Field(default=None, ge=0, le=6)
    """HA-side values are rounded to this many decimals (default: to whole numbers when both
    ``ha`` ends are whole, else not at all); 0.01 °C as °C needs 2."""

    @model_validator(mode="after")
    def _not_flat(self) -> Scale:
        if self.home[0] == self.home[1] or self.ha[0] == self.ha[1]:
            raise ValueError("a scale's range ends must differ")
        return self

    def to_ha(self, v: float) -> float:
        (h0, h1), (a0, a1) = self.home, self.ha
        return a0 + (v - h0) * (a1 - a0) / (h1 - h0)

    def to_home(self, v: float) -> float:
        (h0, h1), (a0, a1) = self.home, self.ha
        return h0 + (v - a0) * (h1 - h0) / (a1 - a0)

    @property
    def ha_integral(self) -> bool:
        return all(float(x).is_integer() for x in self.ha)


def _set_kind(v: Any) -> str:
    return "call" if isinstance(v, Mapping) and "service" in v else "per_value"


SetSpec = Annotated[
    Annotated[ServiceCall, Tag("call")] | Annotated[dict[Any, ServiceCall], Tag("per_value")],
    Discriminator(_set_kind),
]
_TAGS = {"call", "per_value"}


class AttributeMap(_Strict):
    """Where one HomeEnv attribute lives in HA, how it converts and how it is set."""

    entity: EntityId
    attribute: str = "state"
    values: dict[Any, Any] | None = None
    otherwise: Any = None
    ignore: list[Any] = Field(default_factory=list)
    scale: Scale | None = None
    tolerance: float = Field(default=0.0, ge=0)
    """Numeric slack when matching an HA reading against ``values`` (HA units)."""
    when_state: list[str] | None = None
    """Observed only while the entity's state is one of these (else not observed, not written)."""
    when_attribute: dict[str, list[Any]] | None = None
    """Observed only while each named attribute of the entity has one of its values (a light's
    colour only while HA's ``color_mode`` is a colour mode: in colour-temperature mode HA
    reports a colour computed from the temperature, not one the light was given)."""
    rgb: bool = False
    """The HomeEnv value is a hex colour (``#FF8000``), HA's a list of channels (``rgb_color``
    ``[255, 128, 0]``); with ``tolerance``, a reading within that many steps on every channel
    of the home's value (``like``) reads as it: HA's rounding of the same colour."""
    set: SetSpec | None = None

    @model_validator(mode="after")
    def _one_conversion(self) -> AttributeMap:
        if self.values is not None and self.scale is not None:
            raise ValueError("give values or scale, not both")
        if self.rgb and (self.values is not None or self.scale is not None):
            raise ValueError("rgb is its own conversion: give no values or scale with it")
        if self.otherwise is not None and self.values is None:
            raise ValueError("otherwise needs values")
        return self

    # ------------------------------------------------------------------ HomeEnv -> HA
    def to_ha(self, value: Any) -> Any:
        if self.rgb:
            try:
                return list(rgb_of(value)) if isinstance(value, str) else value
            except ValueError:
                return value
        if self.values is not None:
            for home, ha in self.values.items():
                if same_value(home, value):
                    return ha
            return value
        if (
            self.scale is not None
            and isinstance(value, (int, float))
            and not isinstance(value, bool)
        ):
            out = self.scale.to_ha(value)
            if self.scale.decimals is not None:
                return round(out, self.scale.decimals)
            return round(out) if self.scale.ha_integral else out
        return value

    def calls(self, value: Any) -> list[tuple[str, str, dict[str, Any]]]:
        """The service call(s) that put ``value`` on the device; empty if read-only or if the
        per-value ``set`` has no call for this value."""
        if self.set is None:
            return []
        if isinstance(self.set, ServiceCall):
            return [self.set.render(self.entity, self.to_ha(value))]
        for home, call in self.set.items():
            if same_value(home, value) or (
                isinstance(home, str) and not isinstance(value, str) and home == str(value)
            ):
                return [call.render(self.entity, self.to_ha(value))]
        return []

    def value_of_call(self, domain: str, service: str, data: Mapping[str, Any], like: Any) -> Any:
        """The HomeEnv value a service call HA saw (``call_service``) puts on this attribute, or
        ``NOT_OBSERVED`` if the call is not one of this attribute's ``set`` calls: the inverse
        of :meth:`calls`, used to know what an agent commanded."""
        if self.set is None:
            return NOT_OBSERVED
        if isinstance(self.set, ServiceCall):
            candidates = [(None, self.set)]
        else:
            candidates = list(self.set.items())
        for home_value, call in candidates:
            ha_value = _match_call(call, self.entity, domain, service, data)
            if ha_value is NOT_OBSERVED:
                continue
            if home_value is not None:
                return home_value
            try:
                return self.to_home(ha_value, like)
            except ReadError:
                return NOT_OBSERVED
        return NOT_OBSERVED

    # ------------------------------------------------------------------ HA -> HomeEnv
    def raw(self, state: Mapping[str, Any] | None) -> Any:
        """The HA-side value from one ``/api/states`` entry (``NOT_OBSERVED`` if absent)."""
        if state is None:
            raise ReadError(f"{self.entity}: no such entity", "missing")
        if state.get("state") in UNREACHABLE:
            raise ReadError(f"{self.entity} is {state.get('state')}", "unavailable")
        if self.when_state is not None and state.get("state") not in self.when_state:
            return NOT_OBSERVED
        shown = state.get("attributes", {})
        if self.when_attribute is not None and any(
            not any(same_value(shown.get(name), v) for v in allowed)
            for name, allowed in self.when_attribute.items()
        ):
            return NOT_OBSERVED
        raw = (
            state.get("state")
            if self.attribute == "state"
            else state.get("attributes", {}).get(self.attribute)
        )
        if raw is None or any(same_value(raw, x) for x in self.ignore):
            return NOT_OBSERVED
        return raw

    def to_home(self, raw: Any, like: Any) -> Any:
        """Convert an HA value to HomeEnv, in the type of ``like`` (the attribute's value in the
        embedded home)."""
        if raw is NOT_OBSERVED:
            return raw
        where = f"{self.entity}" + ("" if self.attribute == "state" else f" {self.attribute}")
        if self.rgb:
            return self._colour(raw, like, where)
        if self.values is not None:
            for home, ha in self.values.items():
                if same_value(raw, ha) or _near(raw, ha, self.tolerance):
                    return _coerce(home, like, where)
            if self.otherwise is not None:
                return _coerce(self.otherwise, like, where)
            raise ReadError(
                f"{where} = {raw!r} has no HomeEnv value (add it to values, otherwise or ignore)"
            )
        if self.scale is not None:
            try:
                return _coerce(self.scale.to_home(float(raw)), like, where)
            except (TypeError, ValueError):
                raise ReadError(f"{where} = {raw!r} is not a number") from None
        return _coerce(raw, like, where)

    def _colour(self, raw: Any, like: Any, where: str) -> str:
        """HA's channels as a hex colour, ``like`` where every channel is within ``tolerance``."""
        try:
            got = rgb_of(hex_of(list(raw) if isinstance(raw, (list, tuple)) else raw))
        except ValueError:
            raise ReadError(f"{where} = {raw!r} is not an RGB colour") from None
        try:
            near = isinstance(like, str) and all(
                abs(a - b) <= self.tolerance for a, b in zip(got, rgb_of(like), strict=True)
            )
        except ValueError:
            near = False
        return like if near else hex_of(got)

    def read(self, state: Mapping[str, Any] | None, like: Any) -> Any:
        return self.to_home(self.raw(state), like)


def _targets(data: Mapping[str, Any]) -> set[str]:
    found = data.get("entity_id")
    if found is None and isinstance(data.get("target"), Mapping):
        found = data["target"].get("entity_id")
    return {found} if isinstance(found, str) else set(found or [])


def _match_call(
    call: ServiceCall, entity: str, domain: str, service: str, data: Mapping[str, Any]
) -> Any:
    """The HA-side ``{value}`` of ``call`` if the seen call (``domain.service`` with ``data``) is
    an instance of it on ``entity`` (``None`` when the template has no ``{value}``), else
    ``NOT_OBSERVED``."""
    wanted = call.data.get("entity_id", entity)
    if wanted not in _targets(data):
        return NOT_OBSERVED
    pattern = re.escape(call.service).replace(re.escape("{value}"), "(?P<value>[a-z0-9_]+)")
    match = re.fullmatch(pattern, f"{domain}.{service}")
    if match is None:
        return NOT_OBSERVED
    found: Any = match.groupdict().get("value")
    for key, template in call.data.items():
        if key == "entity_id":
            continue
        if template == "{value}":
            if key not in data:
                return NOT_OBSERVED
            found = data[key]
        elif data.get(key) != template:
            return NOT_OBSERVED
    return found


def _near(raw: Any, ha: Any, tolerance: float) -> bool:
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (raw, ha))
    return tolerance > 0 and numbers and abs(raw - ha) <= tolerance


def _coerce(v: Any, like: Any, where: str) -> Any:
    """``v`` in the type of ``like``: snapshots compare types, so ``24`` from HA must become
    ``24.0`` for a float attribute."""
    if isinstance(like, bool):
        if isinstance(v, bool):
            return v
        if isinstance(v, str) and v.lower() in ("true", "false", "on", "off"):
            return v.lower() in ("true", "on")
        raise ReadError(f"{where} = {v!r} is not a boolean (map it with values)")
    try:
        if isinstance(like, int):
            return round(float(v))
        if isinstance(like, float):
            return float(v)
        if isinstance(like, str):
            return str(v)
    except (TypeError, ValueError):
        raise ReadError(f"{where} = {v!r} does not convert to {type(like).__name__}") from None
    return v


class HardwareMapping(_Strict):
    """One task home mapped onto one physical HA home."""

    home: HomeRef
    timeout_seconds: float = Field(default=15.0, gt=0)
    devices: dict[str, dict[str, AttributeMap]] = Field(min_length=1)
    skip: list[str] = Field(default_factory=list)
    """Devices the user chose to leave unmapped (``smh ha map --interactive``)."""

    _path: str = PrivateAttr(default="<string>")
    _node: Any = PrivateAttr(default=None)

    @field_validator("devices", mode="before")
    @classmethod
    def _device_ids_are_text(cls, v: Any) -> Any:
        """Unquoted ids (``1001:``) are YAML integers; device ids are strings."""
        return {str(k): d for k, d in v.items()} if isinstance(v, Mapping) else v

    @field_validator("skip", mode="before")
    @classmethod
    def _skipped_ids_are_text(cls, v: Any) -> Any:
        return [str(x) for x in v] if isinstance(v, list) else v

    @property
    def path(self) -> str:
        """The file the mapping was read from (for messages)."""
        return self._path

    def get(self, did: str, locator: str) -> AttributeMap | None:
        return self.devices.get(did, {}).get(locator)

    def items(self) -> Iterator[tuple[str, str, AttributeMap]]:
        """Every mapped ``(did, locator, map)``, in file order."""
        for did, attrs in self.devices.items():
            for locator, amap in attrs.items():
                yield did, locator, amap

    def entities(self) -> list[str]:
        return sorted({amap.entity for _, _, amap in self.items()})

    def error(self, loc: tuple[Any, ...], message: str) -> MappingFileError:
        """A :class:`MappingFileError` pointing at ``loc`` (``("devices", "1001", "state")``)."""
        return MappingFileError(self._path, _line_of(self._node, loc), _field(loc), message)

    def check_home(self, initial: Mapping[str, Mapping[str, Any]]) -> None:
        """Every mapped device and attribute exists in the home (``initial``: a snapshot)."""
        for did, locator, _ in self.items():
            if did not in initial:
                raise self.error(
                    ("devices", did), f"no device {did!r} in the home {self.home.key()}"
                )
            if locator not in initial[did]:
                raise self.error(
                    ("devices", did, locator), f"device {did!r} has no attribute {locator!r}"
                )


# ---------------------------------------------------------------------------- YAML with lines
class _Loader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 booleans: ``on``/``off``/``yes``/``no`` stay strings."""


_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def _field(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc if p not in _TAGS) or "(file)"


def _line_of(node: Any, loc: tuple[Any, ...]) -> int:
    """The 1-based line of the deepest YAML node on ``loc`` (a key's own line when found)."""
    if node is None:
        return 1
    line = node.start_mark.line + 1
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            hit = next(((k, v) for k, v in node.value if str(k.value) == str(part)), None)
            if hit is None:
                if part in _TAGS:
                    continue
                break
            line, node = hit[0].start_mark.line + 1, hit[1]
        elif (
            isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value)
        ):
            node = node.value[part]
            line = node.start_mark.line + 1
        elif part in _TAGS:
            continue
        else:
            break
    return line


def parse_mapping(text: str, path: Path | str = "<string>") -> HardwareMapping:
    """Parse and validate a mapping; the first problem is raised with its line and field."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise MappingFileError(
            path, (mark.line + 1) if mark else 1, "(yaml)", str(e.problem or e)
        ) from None
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        raise MappingFileError(
            path, 1, "(file)", "a mapping file is a YAML mapping with home and devices"
        )
    try:
        mapping = HardwareMapping.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(err["loc"])
        more = f" (and {e.error_count() - 1} more problems)" if e.error_count() > 1 else ""
        raise MappingFileError(path, _line_of(node, loc), _field(loc), err["msg"] + more) from None
    mapping._path, mapping._node = str(path), node
    return mapping


def load_mapping(path: Path | str) -> HardwareMapping:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"no mapping file {p}") from None
    return parse_mapping(text, p)
