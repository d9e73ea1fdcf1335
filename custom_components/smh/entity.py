"""Base entities, pushed (never polled): a generic one per HomeEnv attribute, and a rich one
per device namespace (a light, a climate ... see :mod:`.rich`).

State lives in the engine; an entity reads it when HA writes its state and subscribes to the
engine's change stream for its locators, so changes from any source — HA services,
``smh.execute``, automations, simulated time — reach HA at once. HA calls go through the
engine's validation; its errors surface as ``ServiceValidationError`` with its message.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable
from enum import IntFlag
from typing import TYPE_CHECKING, Any

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity import Entity, EntityCategory
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.util import slugify

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.names import is_ha_entity_id
from smh_core.homeenv.shapes import AttrType
from smh_core.homeenv.snapshot import copy_value

from .const import DOMAIN
from .entity_plan import component_title
from .mirrors import Mirror, unique_id
from .rich import Action, Rich

if TYPE_CHECKING:
    from .runtime import SmhConfigEntry, SmhRuntime


def refusal(message: str) -> ServiceValidationError:
    return ServiceValidationError(
        translation_domain=DOMAIN,
        translation_key="engine_error",
        translation_placeholders={"message": message},
    )


def refuse_while_fast_forwarding(runtime: SmhRuntime | None) -> None:
    """While a slice of ``smh.advance_time`` runs in the executor the engine belongs to that
    thread: a call from the loop then is refused (not raced), and can be repeated a moment later."""
    clock = getattr(runtime, "clock", None)
    if clock is not None and clock.in_slice:
        raise refusal(
            "the simulated home is being fast-forwarded (smh.advance_time); try again in a moment"
        )


def run(engine: HomeEngine, actions: list[Action], runtime: SmhRuntime | None = None) -> None:
    """Run engine calls as one atomic batch: all applied, or none and the first error raised
    (none, too, while the home is being fast-forwarded: :func:`refuse_while_fast_forwarding`)."""
    refuse_while_fast_forwarding(runtime)
    if len(actions) == 1:  # the common case, without the batch's staging
        a = actions[0]
        error = engine.execute(a["did"], a["locator"], a["arguments"]).error
    else:
        error = next((r.error for r in engine.execute_many(actions) if not r.ok), None)
    if error is not None:
        raise refusal(str(error))


def imported_entity_id(entity: Entity, did: str, platform: str, area_prefix: str) -> None:
    """A home imported from HA fixtures keeps each entity id as its device id: the device's main
    entity asks HA for that id, so HA's agents see the ids the source's tests expect (HA still
    adds a suffix if another entity holds it); a second home's area prefix goes in front."""
    if is_ha_entity_id(did) and did.startswith(f"{platform}."):
        domain, object_id = did.split(".", 1)
        prefix = slugify(area_prefix) if area_prefix else ""
        entity.entity_id = f"{domain}.{prefix}_{object_id}" if prefix else did


class _EntryEntity(Entity):
    """What every SMH entity is: pushed (never polled), named after its device, and filed under
    the entry's device for ``did`` with a unique id from the entry, the device and ``key``."""

    _attr_should_poll = False
    _attr_has_entity_name = True

    def _bind(self, runtime: SmhRuntime, entry_id: str, did: str, key: str) -> None:
        self.runtime = runtime
        self._attr_unique_id = unique_id(entry_id, did, key)
        self._attr_device_info = DeviceInfo(identifiers={(DOMAIN, f"{entry_id}_{did}")})


class SmhEntity(_EntryEntity):
    """A generic entity: one attribute of one device."""

    def __init__(self, runtime: SmhRuntime, entry_id: str, mirror: Mirror) -> None:
        self._bind(runtime, entry_id, mirror.did, mirror.key)
        self.mirror = mirror
        self._attr_name = (
            None
            if mirror.device_named
            else (mirror.name or mirror.locator.replace(".", " ").replace("_", " ").capitalize())
        )
        if mirror.device_named:
            imported_entity_id(self, mirror.did, mirror.platform, runtime.area_prefix)
        if (
            mirror.diagnostic
        ):  # raw protocol detail (a Matter limit or feature map): there when asked for
            self._attr_entity_category = EntityCategory.DIAGNOSTIC
            self._attr_entity_registry_enabled_default = False
        self._source = {"did": mirror.did, "locator": mirror.locator}
        if mirror.attribute.description:
            self._source["description"] = mirror.attribute.description
        self._refresh()

    def _refresh(self) -> None:
        """Read the attribute once per engine change (HA reads ``value`` several times per state
        write): its HA-side value, and the attributes that name its source; a converted value
        (°C from 0.01 °C, a label) also keeps the engine's raw value under ``homeenv``, as rich
        entities do, for automations on it."""
        raw = self.runtime.engine.value(self.mirror.did, self.mirror.locator)
        self._value = self.mirror.to_ha(raw)
        self._attr_extra_state_attributes = (
            {**self._source, "homeenv": {self.mirror.locator: raw}}
            if self.mirror.converted
            else self._source
        )

    def _changed(self) -> None:
        self._refresh()
        self.async_write_ha_state()

    @property
    def value(self) -> Any:
        """The attribute's value in HA's terms (Matter's 0.01 °C as °C, an enum as its label)."""
        return self._value

    async def async_added_to_hass(self) -> None:
        self._refresh()
        self.async_on_remove(
            self.runtime.subscribe(self.mirror.did, [self.mirror.locator], self._changed)
        )

    def _execute(self, locator: str, arguments: dict[str, Any] | None = None) -> None:
        action = {"did": self.mirror.did, "locator": locator, "arguments": arguments or {}}
        run(self.runtime.engine, [action], self.runtime)

    def _set(self, value: Any) -> None:
        """Set this entity's attribute (an HA-side value) through its setter service (or a direct write)."""
        value = self.mirror.from_ha(value)
        setter = self.mirror.setter
        if setter is not None:
            self._execute(setter.service, {setter.argument: value})
        else:
            self._execute(self.mirror.locator, {"value": value})


class Written:
    """The last value HA wrote to one role of a device coarser than HA (255 brightness levels in
    1-100 %, any percentage in three fan speeds), kept while the device holds what it became, so
    the entity reads back exactly what HA wrote; a change from anywhere else forgets it."""

    __slots__ = ("device", "ha")

    def __init__(self) -> None:
        self.device: Any = None
        self.ha: Any = None

    def shown(self, device: Any, scaled: Any) -> Any:
        """What HA should show for the device value ``device`` (``scaled``: its own reading)."""
        if self.ha is not None and device == self.device:
            return self.ha
        self.device = self.ha = None
        return scaled

    def writing(self, device: Any, ha: Any) -> _Writing:
        """Remember ``ha`` as the value behind ``device`` while a call runs (the entity's state
        is written from inside it); forget it again if the call is refused."""
        return _Writing(self, device, ha)


class _Writing:
    """:meth:`Written.writing` as a plain context manager (it runs on every dimming call)."""

    __slots__ = ("before", "ha", "device", "written")

    def __init__(self, written: Written, device: Any, ha: Any) -> None:
        self.written, self.device, self.ha = written, device, ha

    def __enter__(self) -> None:
        w = self.written
        self.before = (w.device, w.ha)
        w.device, w.ha = self.device, self.ha

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is not None:
            self.written.device, self.written.ha = self.before


class PowerToggle:
    """``turn_on``/``turn_off`` that only switch the device's power: for the platforms with
    nothing else to set on the way (humidifiers, water heaters, media players)."""

    async def async_turn_on(self: SmhRichEntity, **kwargs: Any) -> None:  # type: ignore[misc]
        self.run(self.rich.power(True))

    async def async_turn_off(self: SmhRichEntity, **kwargs: Any) -> None:  # type: ignore[misc]
        self.run(self.rich.power(False))


_NONE: Any = object()
"""No initial value kept (the attribute is stated by the source, or the home is SMH's own);
no power switch."""
_CONTAINER_TYPES = frozenset({AttrType.LIST, AttrType.TUPLE, AttrType.DICT})


def role_value(role: str) -> property:
    """A rich entity's HA property that is the value of one of its roles (HA-side units and
    labels; None when the device has no such attribute): ``current_humidity =
    role_value("current_humidity")`` instead of one getter per property and platform."""
    return property(
        lambda self: self.get(role), doc=f"The {role.replace('_', ' ')} (role {role!r})."
    )


class SmhRichEntity(_EntryEntity):
    """A rich entity: the roles of one device namespace (see :class:`.rich.Rich`).

    Named after the device (or its component); ``homeenv`` in the attributes holds the raw
    values of every attribute it covers, so none is hidden by a conversion to HA's units.
    """

    def __init__(self, runtime: SmhRuntime, entry_id: str, rich: Rich) -> None:
        self._bind(runtime, entry_id, rich.did, rich.key)
        self.rich = rich
        self._locators = rich.locators
        self._values: dict[str, Any] = {}  # HA-side value per role, of the engine's current state
        model = runtime.engine.device(rich.did)
        attributes = dict(model.attributes_by_locator())
        unstated = {  # locator -> initial value, for attributes the source never stated
            loc: attributes[loc].value for loc in model.userdata.unstated or () if loc in attributes
        }
        self._reads = tuple(  # (role, locator, HA conversion or None, initial value or _NONE)
            (
                role,
                bound.locator,
                None if bound.convert.identity else bound.to_ha,
                _NONE if role == "power" else unstated.get(bound.locator, _NONE),
            )
            for role, bound in rich.roles.items()
        )
        power = rich.roles.get("power")
        self._on_value = _NONE if power is None or power.switch is None else power.switch.on_value
        self._power_locator = "" if power is None else power.locator
        self._containers = tuple(  # values HA must get as copies (lists, dicts)
            loc for loc in self._locators if attributes[loc].type in _CONTAINER_TYPES
        )
        self._powered = False
        self._extra: dict[str, Any] = {}
        self._refresh()
        self._attr_name = rich.name or (
            component_title(rich.namespace) if rich.namespace and not rich.device_named else None
        )
        if not rich.namespace or rich.device_named:
            imported_entity_id(self, rich.did, rich.platform, runtime.area_prefix)

    def _refresh(self) -> None:
        """Read the device's state once and keep what HA will ask for.

        HA reads an entity's properties several times per state write (``is_on`` alone five
        times for a light). Every engine change reaches the entity through its subscription
        (:meth:`_changed`), so the values are read there, once per change, and the properties
        only return them, as entities that keep their state in ``_attr_*`` fields do. The
        conversions and initial values are looked up once, at creation (``_reads``)."""
        did = self.rich.did
        state = self.runtime.engine.state_view(did)  # replaced, never mutated, by the engine
        raw = {loc: state[loc] for loc in self._locators}  # every role's locator
        for loc in self._containers:
            raw[loc] = copy_value(raw[loc])
        values: dict[str, Any] = {}
        for role, loc, to_ha, initial in self._reads:
            value = raw[loc]
            if initial is not _NONE and initial == value:
                values[role] = None
            else:
                values[role] = value if to_ha is None else to_ha(value)
        self._values = values
        self._powered = self._on_value is not _NONE and raw[self._power_locator] == self._on_value
        self._extra = {"did": did, "homeenv": raw}

    def _changed(self) -> None:
        self._refresh()
        self.async_write_ha_state()

    def get(self, role: str) -> Any:
        """The HA-side value of a role (None if the device has no such attribute)."""
        return self._values.get(role)

    @property
    def powered(self) -> bool:
        assert "power" in self.rich.roles
        return self._powered

    def power_on_first(self) -> list[Action]:
        return [] if self.powered else [self.rich.power(True)]

    def features[F: IntFlag](self, flags: type[F]) -> F:
        """The HA feature flags of this entity, from the feature names its plan chose."""
        value = flags(0)
        for name in self.rich.features:
            value |= getattr(flags, name)
        return value

    def run(self, *actions: Action) -> None:
        run(self.runtime.engine, list(actions), self.runtime)

    @property
    def extra_state_attributes(self) -> dict[str, Any]:
        return self._extra

    async def async_added_to_hass(self) -> None:
        self._refresh()
        self.async_on_remove(self.runtime.subscribe(self.rich.did, self._locators, self._changed))


def _setup_from[E](
    entities: Callable[[SmhRuntime], Iterable[E]],
    cls: Callable[[SmhRuntime, str, E], Entity],
) -> Callable[..., Coroutine[Any, Any, None]]:
    """An ``async_setup_entry`` adding one ``cls`` entity per item ``entities`` plans."""

    async def async_setup_entry(
        hass: HomeAssistant,
        entry: SmhConfigEntry,
        async_add_entities: AddConfigEntryEntitiesCallback,
    ) -> None:
        runtime = entry.runtime_data
        async_add_entities(cls(runtime, entry.entry_id, item) for item in entities(runtime))

    return async_setup_entry


def platform_setup(platform: str, cls: type[SmhEntity]) -> Callable[..., Coroutine[Any, Any, None]]:
    """The ``async_setup_entry`` of a generic platform: one ``cls`` entity per attribute there."""
    return _setup_from(lambda runtime: runtime.mirrors(platform), cls)


def rich_setup(platform: str, cls: type[SmhRichEntity]) -> Callable[..., Coroutine[Any, Any, None]]:
    """The ``async_setup_entry`` of a rich platform: one ``cls`` entity per namespace there."""
    return _setup_from(lambda runtime: runtime.riches(platform), cls)
