"""Home Assistant itself as an SMH agent backend: the SMH agent on any entity exposed to Assist.

The embedded backend can only reach the entry's simulated home. This one maps the
:class:`~smh_core.agent.backend.AsyncHomeBackend` contract onto HA, so the same agent (EIA or DR)
controls real and simulated entities alike, and only those the user exposed to the
``conversation`` assistant (Settings > Voice assistants > Expose; the rule the ``smh`` LLM API
shares, :mod:`.exposure`): an unexposed entity is answered exactly like an unknown one, so it is
neither visible nor controllable.

- rooms are areas (``id`` = area id, ``floor`` = the floor's level, else its name);
- a device is an exposed entity: ``did`` = entity id, ``category`` = domain, ``subcategory`` =
  device class (or the domain), ``room`` = the entity's area, else its device's area;
- a device's spec lists the entity services of its domain that apply to it (target and field
  filters on its supported features and attributes) with their fields from HA's service
  descriptions; attributes are read-only, services are how things change;
- :meth:`HaBackend.execute` runs ``<domain>.<locator>`` (``arguments`` = service data) with the
  HA user's context, so HA's permission checks apply. HA validates the data against the service
  schema before any entity is called, so a rejected call changes nothing.

Every method is a coroutine (:class:`~smh_core.agent.backend.AsyncHomeBackend`): the reads are
registry and state-machine lookups that return at once, but callers await them all alike and
never ask which is which. Service descriptions are loaded asynchronously, so callers await
:meth:`HaBackend.async_prepare` before running an agent.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import voluptuous as vol
from homeassistant.components.sensor import SensorDeviceClass
from homeassistant.const import ATTR_DEVICE_CLASS, ATTR_SUPPORTED_FEATURES, ATTR_UNIT_OF_MEASUREMENT
from homeassistant.core import CALLBACK_TYPE, Context, HomeAssistant, State, SupportsResponse
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError, Unauthorized
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.helpers import label_registry as lr
from homeassistant.helpers.event import async_track_point_in_time
from homeassistant.helpers.json import json_dumps
from homeassistant.helpers.service import (
    async_get_all_descriptions,
    async_get_cached_service_description,
)
from homeassistant.helpers.translation import async_get_translations
from homeassistant.util import dt as dt_util
from homeassistant.util.json import json_loads
from homeassistant.util.unit_conversion import TemperatureConverter

from smh_core.homeenv.errors import ErrorCode

from .const import DOMAIN
from .exposure import exposed_states, is_exposed
from .room import ROOM_VARIABLES, room_did

_LOGGER = logging.getLogger(__name__)

TARGET_KEYS = ("entity_id", "device_id", "area_id", "floor_id", "label_id")
"""Service-data keys that would widen a call beyond its entity (to unexposed ones): refused."""
ENV_SENSOR_CLASSES = {
    "temperature": SensorDeviceClass.TEMPERATURE,
    "humidity": SensorDeviceClass.HUMIDITY,
    "illuminance": SensorDeviceClass.ILLUMINANCE,
    "pm25": SensorDeviceClass.PM25,
    "pm10": SensorDeviceClass.PM10,
}
"""Room variables read from any area's sensors when it has no SMH room climate device."""
UNSUPPORTED_AUTOMATIONS = (
    "automations are not stored by the agent's Home Assistant tools; ask the user to create one "
    "with the smh.create_automation action (it writes a persistent HA automation), or use "
    "schedule_actions for a one-off timed call"
)


def error_result(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {
        "ok": False,
        "error": {
            "code": str(code),
            "message": message,
            **{k: v for k, v in extra.items() if v is not None},
        },
    }


def not_found_result(did: str) -> dict[str, Any]:
    """The one answer for unknown and unexposed entities alike (an unexposed one is invisible)."""
    return error_result(ErrorCode.DEVICE_NOT_FOUND, f"no device with did {did!r}", did=did)


def _jsonable(value: Any) -> Any:
    """Attribute values as plain JSON (datetimes, enums, sets, tuples ... as HA serializes them)."""
    return json_loads(json_dumps(value))


def _type_name(value: Any) -> str:
    if value is None:
        return "any"  # unset now (a light's brightness while off)
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "float" if isinstance(value, float) else "int"
    if isinstance(value, list | tuple | set):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return "str"


def _matches_target(state: State, target: dict[str, Any] | None) -> bool:
    """Whether a service's target selector accepts this entity (domain, device class, features)."""
    if not target or "entity" not in target:
        return True
    filters = target["entity"]
    filters = filters if isinstance(filters, list) else [filters]
    features = int(state.attributes.get(ATTR_SUPPORTED_FEATURES) or 0)
    device_class = state.attributes.get(ATTR_DEVICE_CLASS)
    for f in filters or [{}]:
        if f.get("domain") and state.domain not in f["domain"]:
            continue
        if f.get("device_class") and device_class not in f["device_class"]:
            continue
        masks = f.get("supported_features")
        if masks and not any(features & m == m for m in masks):
            continue
        return True
    return False


def _field_applies(state: State, spec: dict[str, Any]) -> bool:
    """Whether a service field applies to this entity (HA's field filter, as its UI reads it)."""
    flt = spec.get("filter") or {}
    if masks := flt.get("supported_features"):
        features = int(state.attributes.get(ATTR_SUPPORTED_FEATURES) or 0)
        if not any(features & m for m in masks):
            return False
    if attrs := flt.get("attribute"):

        def has(name: str, values: list[Any]) -> bool:
            value = state.attributes.get(name)
            if isinstance(value, list | tuple | set):
                return any(v in value for v in values)
            return value in values

        return any(has(name, values) for name, values in attrs.items())
    return True


def _fields(description: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A service's fields, with collapsible sections (light.turn_on's "advanced") flattened."""
    out: dict[str, dict[str, Any]] = {}
    for name, spec in (description.get("fields") or {}).items():
        if isinstance(spec, dict) and "fields" in spec and "selector" not in spec:
            out.update(spec["fields"] or {})
        else:
            out[name] = spec or {}
    return out


def _first_invalid(err: vol.Invalid) -> vol.Invalid:
    while isinstance(err, vol.MultipleInvalid) and err.errors:
        err = err.errors[0]
    return err


@dataclass
class _Pending:
    id: str
    at: datetime
    actions: list[dict[str, Any]]
    cancel: CALLBACK_TYPE

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "at": self.at.isoformat(timespec="seconds"), "actions": self.actions}


@dataclass
class HaSchedules:
    """One-shot timed calls of one agent (``schedule_actions``), on HA's timer.

    Kept in memory by the conversation entity, so they outlive a turn but not a restart or a
    reload (which cancels them); lasting rules are HA automations (``smh.create_automation``)."""

    pending: dict[str, _Pending] = field(default_factory=dict)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    def next_id(self) -> str:
        return f"s{next(self._ids)}"

    def close(self) -> None:
        for item in self.pending.values():
            item.cancel()
        self.pending.clear()


class HaBackend:
    """The :class:`~smh_core.agent.backend.AsyncHomeBackend` contract over Home Assistant."""

    def __init__(
        self,
        hass: HomeAssistant,
        context: Context | None = None,
        schedules: HaSchedules | None = None,
    ) -> None:
        self.hass = hass
        self.context = context or Context()
        self.schedules = schedules
        self._descriptions: dict[str, dict[str, Any]] = {}
        self._texts: dict[str, str] = {}

    async def async_prepare(self) -> None:
        """Load HA's service descriptions (fields, selectors, filters) and their translated
        names and descriptions, which HA only reads asynchronously."""
        self._descriptions = await async_get_all_descriptions(self.hass)
        domains = {s.domain for s in exposed_states(self.hass)}
        if domains:
            self._texts = await async_get_translations(
                self.hass, self.hass.config.language, "services", domains
            )

    # ------------------------------------------------------------------ what the agent may see
    def _visible(self, did: str) -> State | None:
        """The entity's state if it exists and is exposed; None otherwise (not found)."""
        state = self.hass.states.get(did) if isinstance(did, str) else None
        if state is None or not is_exposed(self.hass, state.entity_id):
            return None
        return state

    def _area_of(self, entity_id: str) -> str | None:
        entry = er.async_get(self.hass).async_get(entity_id)
        if entry is None:
            return None
        if entry.area_id:
            return entry.area_id
        if entry.device_id and (device := dr.async_get(self.hass).async_get(entry.device_id)):
            return device.area_id
        return None

    def _summary(self, state: State) -> dict[str, Any]:
        entry = er.async_get(self.hass).async_get(state.entity_id)
        labels = lr.async_get(self.hass)
        tags = sorted(
            label.name
            for label_id in (entry.labels if entry else ())
            if (label := labels.async_get_label(label_id)) is not None
        )
        return {
            "did": state.entity_id,
            "name": state.name,
            "category": state.domain,
            "subcategory": str(state.attributes.get(ATTR_DEVICE_CLASS) or state.domain),
            "room": self._area_of(state.entity_id),
            "tags": tags,
        }

    # ------------------------------------------------------------------ reads
    async def list_rooms(self) -> list[dict[str, Any]]:
        floors = fr.async_get(self.hass)
        rooms = []
        for area in ar.async_get(self.hass).async_list_areas():
            floor = floors.async_get_floor(area.floor_id) if area.floor_id else None
            level = (
                None if floor is None else (floor.level if floor.level is not None else floor.name)
            )
            rooms.append({"id": area.id, "name": area.name, "type": "area", "floor": level})
        return sorted(rooms, key=lambda r: r["id"])

    async def list_devices(
        self, room: str | None = None, category: str | None = None, tags: list[str] | None = None
    ) -> list[dict[str, Any]]:
        out = []
        for state in exposed_states(self.hass):
            summary = self._summary(state)
            if room is not None and summary["room"] != room:
                continue
            if category is not None and summary["category"] != category:
                continue
            if tags and not set(tags) <= set(summary["tags"]):
                continue
            out.append(summary)
        return out

    async def device_status(self, did: str) -> dict[str, Any]:
        state = self._visible(did)
        if state is None:
            return not_found_result(did)
        return {"ok": True, "did": did, "name": state.name, "status": self._values(state)}

    async def device_spec(self, did: str) -> dict[str, Any]:
        state = self._visible(did)
        if state is None:
            return not_found_result(did)
        attributes = {"state": {"type": "str", "read_only": True}}
        attributes |= {
            name: {"type": _type_name(value), "read_only": True}
            for name, value in state.attributes.items()
        }
        return {
            "ok": True,
            "did": did,
            "name": state.name,
            "description": f"Home Assistant {state.domain} entity; attributes are read-only, "
            f"change them with its services (locator = service name)",
            "attributes": attributes,
            "services": self._services(state),
        }

    async def room_environment(self, room: str) -> dict[str, Any]:
        """From the SMH room climate sensors of the area if it has them, else from the area's
        temperature, humidity, illuminance and PM sensors (mean of each; °C); exposed ones only."""
        areas = ar.async_get(self.hass)
        if areas.async_get_area(room) is None:
            return error_result(
                ErrorCode.DEVICE_NOT_FOUND,
                f"no room {room!r}",
                allowed=sorted(a.id for a in areas.async_list_areas()),
            )
        smh: dict[str, Any] = {}
        generic: dict[str, list[float]] = {}
        sources: dict[str, list[str]] = {"smh": [], "generic": []}
        for entry, state in self._area_sensors(room):
            variable = self._smh_room_variable(entry)
            if variable is not None:
                smh[variable] = self._reading(state, variable)
                sources["smh"].append(state.entity_id)
                continue
            for variable, device_class in ENV_SENSOR_CLASSES.items():
                if state.attributes.get(ATTR_DEVICE_CLASS) == device_class:
                    value = self._reading(state, variable)
                    if isinstance(value, float):
                        generic.setdefault(variable, []).append(value)
                        sources["generic"].append(state.entity_id)
        if smh:
            return {"ok": True, "room": room, "environment": smh, "sources": sources["smh"]}
        if generic:
            env = {k: round(sum(v) / len(v), 1) for k, v in generic.items()}
            return {"ok": True, "room": room, "environment": env, "sources": sources["generic"]}
        return error_result(
            ErrorCode.SERVICE_NOT_FOUND,
            f"room {room!r} has no exposed temperature, humidity or light sensors",
        )

    async def now(self) -> str:
        return dt_util.now().isoformat(timespec="seconds")

    # ------------------------------------------------------------------ control
    async def execute(self, did: str, locator: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call ``<domain>.<locator>`` on the entity with ``arguments`` as service data."""
        checked = self._check_call(did, locator, arguments)
        if isinstance(checked, dict):
            return checked
        state, service = checked
        domain = state.domain
        before = self._values(state)
        wants = self.hass.services.supports_response(domain, service) is not SupportsResponse.NONE
        try:
            response = await self.hass.services.async_call(
                domain,
                service,
                {**arguments, "entity_id": did},
                blocking=True,
                context=self.context,
                return_response=wants,
            )
        except vol.Invalid as err:
            return self._invalid(state, service, arguments, err)
        except Unauthorized:
            return error_result(
                "unauthorized",
                f"this user may not call {domain}.{service} on {did}",
                did=did,
                locator=service,
            )
        except HomeAssistantError as err:
            code = (
                "service_rejected" if isinstance(err, ServiceValidationError) else "service_failed"
            )
            return error_result(code, str(err) or type(err).__name__, did=did, locator=service)
        except Exception as err:  # an integration's bug must not end the agent's turn
            _LOGGER.exception("SMH agent: %s.%s on %s failed", domain, service, did)
            return error_result(
                "service_failed", f"{type(err).__name__}: {err}", did=did, locator=service
            )
        after_state = self.hass.states.get(did)
        after = self._values(after_state) if after_state is not None else {}
        changes = [
            {"did": did, "locator": key, "before": before.get(key), "after": after.get(key)}
            for key in dict.fromkeys([*before, *after])
            if before.get(key) != after.get(key)
        ]
        out: dict[str, Any] = {"ok": True, "changes": changes}
        if response:
            out["response"] = _jsonable(response)
        return out

    async def schedule(self, at: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Run the calls once at a local time on HA's timer (checked now and again then)."""
        if self.schedules is None:
            return error_result(
                "unsupported", "this agent cannot schedule calls; " + UNSUPPORTED_AUTOMATIONS
            )
        try:
            when = datetime.fromisoformat(at)
        except ValueError as err:
            return error_result(ErrorCode.BAD_ARGUMENTS, f"at: {err}", field="at")
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt_util.get_default_time_zone())
        if when <= dt_util.now():
            return error_result(
                ErrorCode.BAD_ARGUMENTS,
                f"at: {at} is not in the future (now {await self.now()})",
                field="at",
            )
        for i, action in enumerate(actions):
            checked = self._check_call(
                action["did"], action["locator"], action.get("arguments") or {}
            )
            if isinstance(checked, dict):
                checked["error"]["field"] = f"actions.{i}." + checked["error"].get("field", "did")
                return checked
        schedules = self.schedules
        item_id = schedules.next_id()

        async def run(_: datetime) -> None:
            schedules.pending.pop(item_id, None)
            for action in actions:
                result = await self.execute(
                    action["did"], action["locator"], action.get("arguments") or {}
                )
                if not result["ok"]:
                    _LOGGER.warning("SMH agent: scheduled %s failed: %s", action, result["error"])

        cancel = async_track_point_in_time(self.hass, run, when)
        item = schedules.pending[item_id] = _Pending(item_id, when, actions, cancel)
        return {
            "ok": True,
            "schedule": item.to_dict(),
            "note": "kept until it runs, HA restarts or the integration reloads",
        }

    async def cancel_schedule(self, schedule_id: str) -> dict[str, Any]:
        item = self.schedules.pending.pop(schedule_id, None) if self.schedules is not None else None
        if item is None:
            pending = sorted(self.schedules.pending) if self.schedules is not None else []
            return error_result(
                ErrorCode.BAD_ARGUMENTS,
                f"no pending schedule {schedule_id!r}",
                field="schedule_id",
                allowed=pending,
            )
        item.cancel()
        return {"ok": True, "schedule": item.to_dict()}

    async def list_schedules(self) -> list[dict[str, Any]]:
        if self.schedules is None:
            return []
        return [item.to_dict() for item in self.schedules.pending.values()]

    async def create_automation(self, rule: dict[str, Any]) -> dict[str, Any]:
        return error_result("unsupported", UNSUPPORTED_AUTOMATIONS)

    async def list_automations(self) -> list[dict[str, Any]]:
        return []  # the agent stores none (see create_automation)

    async def delete_automation(self, rule_id: str) -> dict[str, Any]:
        return error_result("unsupported", UNSUPPORTED_AUTOMATIONS)

    # ------------------------------------------------------------------ helpers
    def _values(self, state: State) -> dict[str, Any]:
        return {"state": state.state, **_jsonable(dict(state.attributes))}

    def _description(self, domain: str, service: str) -> dict[str, Any] | None:
        found = self._descriptions.get(domain, {}).get(service)
        return (
            found
            if found is not None
            else async_get_cached_service_description(self.hass, domain, service)
        )

    def _text(self, domain: str, service: str, *path: str) -> str | None:
        return self._texts.get(".".join(("component", domain, "services", service, *path)))

    def _services(self, state: State) -> dict[str, dict[str, Any]]:
        """The entity services of the entity's domain that apply to it, with their fields."""
        domain = state.domain
        out: dict[str, dict[str, Any]] = {}
        for service in sorted(self.hass.services.async_services_for_domain(domain)):
            description = self._description(domain, service)
            if description is None:  # not prepared: the schema is unknown, HA still validates
                out[service] = {
                    "description": "",
                    "arguments": {},
                    "note": "argument schema unknown",
                }
                continue
            if "target" not in description or not _matches_target(state, description["target"]):
                continue  # not an entity service (reload, ...) or not for this entity
            arguments = {}
            for name, spec in _fields(description).items():
                if not _field_applies(state, spec):
                    continue
                arg: dict[str, Any] = {
                    "description": spec.get("description")
                    or self._text(domain, service, "fields", name, "description")
                    or ""
                }
                if spec.get("required"):
                    arg["required"] = True
                if spec.get("selector"):
                    arg["selector"] = _jsonable(spec["selector"])
                if "example" in spec:
                    arg["example"] = _jsonable(spec["example"])
                arguments[name] = arg
            out[service] = {
                "description": description.get("description")
                or self._text(domain, service, "description")
                or "",
                "arguments": arguments,
            }
        return out

    def _check_call(
        self, did: str, locator: str, arguments: dict[str, Any]
    ) -> tuple[State, str] | dict[str, Any]:
        """The entity and service of a call, or the error that stops it before HA is asked."""
        state = self._visible(did)
        if state is None:
            return not_found_result(did)
        service = locator.removeprefix(f"{state.domain}.")
        services = self._services(state)
        if service not in services:
            return error_result(
                ErrorCode.SERVICE_NOT_FOUND,
                f"{did} has no service {locator!r}",
                did=did,
                locator=locator,
                field="locator",
                allowed=sorted(services),
            )
        for key in TARGET_KEYS:
            if key in arguments:
                return error_result(
                    ErrorCode.UNEXPECTED_ARGUMENT,
                    f"{key}: a call controls only its own did; call each device separately",
                    did=did,
                    locator=service,
                    field=key,
                )
        return state, service

    def _invalid(
        self, state: State, service: str, arguments: dict[str, Any], err: vol.Invalid
    ) -> dict[str, Any]:
        """HA's schema rejected the data: name the field, the value and what it accepts."""
        first = _first_invalid(err)
        path = [str(p) for p in first.path]
        if not path and len(arguments) == 1:
            path = list(arguments)  # the entity refused the only value given (input_number's range)
        name = path[0] if path else "(arguments)"
        given = f" (got {arguments[name]!r})" if name in arguments else ""
        spec = self._services(state).get(service, {}).get("arguments", {})
        allowed = spec.get(name, {}).get("selector") if name in spec else sorted(spec)
        reason = first.error_message or "invalid value"
        return error_result(
            ErrorCode.BAD_ARGUMENTS,
            f"{'.'.join(path) or name}: {reason}{given}",
            did=state.entity_id,
            locator=service,
            field=".".join(path) or name,
            allowed=allowed or None,
        )

    def _area_sensors(self, area_id: str) -> Iterable[tuple[er.RegistryEntry, State]]:
        """Exposed sensors located in the area (their own area, else their device's)."""
        for entry in er.async_get(self.hass).entities.values():
            if entry.domain != "sensor" or self._area_of(entry.entity_id) != area_id:
                continue
            state = self._visible(entry.entity_id)
            if state is not None:
                yield entry, state

    @staticmethod
    def _smh_room_variable(entry: er.RegistryEntry) -> str | None:
        """The room variable of an SMH room climate sensor (unique id ``<entry>_@<room>_<var>``)."""
        if entry.platform != DOMAIN or f"_{room_did('')}" not in entry.unique_id:
            return None
        return next((v for v in ROOM_VARIABLES if entry.unique_id.endswith(f"_{v}")), None)

    @staticmethod
    def _reading(state: State, variable: str) -> Any:
        try:
            value = float(state.state)
        except ValueError:
            return state.state if variable == "air_quality" else None
        unit = state.attributes.get(ATTR_UNIT_OF_MEASUREMENT)
        if variable == "temperature" and unit and unit in TemperatureConverter.VALID_UNITS:
            value = TemperatureConverter.convert(value, unit, "°C")
        return round(value, 2)
