"""What differs between the Home Assistant releases SMH supports, in one place.

SMH supports Home Assistant 2026.2.3 (the newest release that runs on Python 3.13) up to
2026.11.x (Python 3.14). Each difference below is gated on the running version, compared the
way HA compares versions (``awesomeversion``), so the rest of the integration names one thing
and the release that changed it is written once. The releases were read off HA's own wheels
(2026.2.3, 2026.3.0, ..., 2026.11.0); both ends are tested in CI (``make test`` and
``make test-ha-current``).

| since    | what changed                                                                 |
|----------|------------------------------------------------------------------------------|
| 2026.7   | µg/m³ is ``UnitOfDensity.MICROGRAMS_PER_CUBIC_METER``; the old                |
|          | ``CONCENTRATION_MICROGRAMS_PER_CUBIC_METER`` constant goes in 2027.8          |
| 2026.8   | ``DeviceRegistry.async_get_device_by_identifier(identifier, config_entry_id)``|
|          | (2026.9 deprecates ``async_get_device``: identifiers are unique per entry only)|
| 2026.10  | LLM tools return ``llm.ToolResult``; ``ToolResultContent(result=...)``        |
|          | replaces ``tool_result=`` (a plain dict result goes in 2027.11); tools name   |
|          | their ``integration`` (required from 2027.10); schemas are ``probatio``'s     |
|          | (voluptuous-compatible: ``import voluptuous`` gives probatio once HA is       |
|          | imported), turned into JSON schema by ``probatio.to_openapi``                 |
| 2026.10  | the Assist API names its tools by the integration that provides them          |
|          | (``intent__HassTurnOn``, ``light__HassLightSet``, ``homeassistant__GetLive``  |
|          | ``Context``; 2026.2.3 says ``HassTurnOn``): a recorded name is found by       |
|          | :func:`tool_named` (seen in 2026.10.4; the releases between not checked)      |
|          | and a failed match's error text is a sentence, no longer the                  |
|          | ``MatchFailedReason`` repr (:func:`match_failure_reason` reads it off the     |
|          | error on every release)                                                       |
| 2026.11  | climates and water heaters give temperatures as ``native_temperature_unit``,  |
|          | ``native_current_temperature``, ``native_target_temperature``; a class that   |
|          | still provides the old names is reported when it is made (goes in 2027.11)    |

Each gate below names the HA change behind it. HA's wheels carry no changelog and no pull-request
numbers, so a gate names the release and the API change as HA's own source shows them, with the
release HA announces the old way breaks in (re-read in 2026.2.3, 2026.10.4 and 2026.11.0, the
releases the test lanes install). What HA reports before it removes something fails the newest lane
(``tests/ha/test_deprecations.py``, ``tests/e2e/test_real_hass_deprecations.py``,
``tests/test_ha_deprecations.py``). One 2026.11 rule needs no gate: tools that an integration's
``llm`` platform provides must be named ``<domain>__...`` (core PR #179938, breaks in 2027.3), but
SMH registers its API with ``llm.async_register_api`` and HA namespaces those tools itself.

HA's LLM and conversation modules are imported inside the functions that need them: platform
set-up must not import them (``tests/test_lazy_imports.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import homeassistant.const as ha_const
from awesomeversion import AwesomeVersion

if TYPE_CHECKING:
    from collections.abc import Iterable

    from homeassistant.components.conversation import ToolResultContent
    from homeassistant.helpers.device_registry import DeviceEntry, DeviceRegistry

OLDEST_SUPPORTED = AwesomeVersion("2026.2.3")
RUNNING = AwesomeVersion(ha_const.__version__)

# HA 2026.7: the concentration units became ``homeassistant.const.UnitOfDensity`` members;
# ``CONCENTRATION_MICROGRAMS_PER_CUBIC_METER`` is a ``DeprecatedConstantEnum`` since, which
# ``helpers.deprecation`` reports when read ("The deprecated constant ... was used from smh") and
# which goes in 2027.8 (HA 2026.11.0's const.py).
DENSITY_UNITS = RUNNING >= "2026.7.0"
# HA 2026.8: ``DeviceRegistry.async_get_device_by_identifier(identifier, config_entry_id)``, as
# identifiers are unique per config entry only; since 2026.9 ``DeviceRegistry.async_get_device``
# calls ``frame.report_usage`` ("calls `device_registry.async_get_device`, which is deprecated",
# breaks in 2027.8.0; an error for core code, so it raises when a test calls it).
DEVICE_LOOKUP_PER_ENTRY = RUNNING >= "2026.8.0"
# HA 2026.10: ``helpers.llm.ToolResult``. ``APIInstance.async_call_tool`` reports a tool that
# returns a plain JSON object ("returns a JSON object from a tool, which is deprecated", breaks in
# 2027.11.0); ``conversation.ToolResultContent`` holds ``result=ToolResult`` and reports a read of
# the old ``tool_result`` (breaks in 2027.11.0). The same release asks each ``llm.Tool`` for its
# ``integration`` (``APIInstance.__post_init__`` -> ``llm.report_untagged_tool``, breaks in 2027.10):
# :class:`.llm_api.SmhTool` sets it on every release (an unused attribute before 2026.10).
TOOL_RESULT_OBJECTS = RUNNING >= "2026.10.0"
# HA 2026.10: HA core validates with ``probatio`` (voluptuous-compatible) and converts schemas with
# ``probatio.to_openapi`` / ``probatio.to_field_list`` where 2026.2.3 used ``voluptuous_openapi`` and
# ``voluptuous_serialize``.
PROBATIO_SCHEMAS = RUNNING >= "2026.10.0"
# HA 2026.11: ``ClimateEntity`` and ``WaterHeaterEntity`` (now in ``components/<platform>/entity.py``)
# read ``native_temperature_unit``, ``native_current_temperature``, ``native_target_temperature``
# (and ``native_target_temperature_high``/``_low``) and their ``_attr_native_*`` shorthands; the old
# names are ``helpers.deprecation.DeprecatedEntityProperty``/``DeprecatedEntityAttr`` aliases, and
# ``migrate_deprecated_entity_members`` logs "<module>::<class> provides the deprecated
# current_temperature, this will stop working in Home Assistant 2027.11" when a subclass providing
# them is created. 2026.10.4 has no ``native_`` names: the entities define the new names on every
# release and, before 2026.11, the old ones as aliases.
NATIVE_TEMPERATURES = RUNNING >= "2026.11.0"

#: third-party modules imported here only on the releases whose HA core ships them (the HACS
#: manifest does not list them: HA itself installs them)
HA_CORE_MODULES = frozenset({"probatio", "voluptuous_openapi", "voluptuous_serialize"})

#: the unit of PM2.5 / PM10 readings (µg/m³)
MICROGRAMS_PER_CUBIC_METER: str = (
    ha_const.UnitOfDensity.MICROGRAMS_PER_CUBIC_METER
    if DENSITY_UNITS
    else ha_const.CONCENTRATION_MICROGRAMS_PER_CUBIC_METER
)


def tool_result(data: dict[str, Any]) -> Any:
    """What an ``llm.Tool.async_call`` returns: an ``llm.ToolResult`` where HA has one (a plain
    dict is deprecated there), the dict itself before. ``error`` is set when the tool refused
    (``ok: false``), so HA's agents and traces see a failed call as failed."""
    if not TOOL_RESULT_OBJECTS:
        return data
    from homeassistant.helpers import llm

    return llm.ToolResult(data=data, error=data.get("ok") is False)


def tool_result_content(
    *, agent_id: str, tool_call_id: str, tool_name: str, data: dict[str, Any]
) -> ToolResultContent:
    """A tool call's result for HA's chat log, in the running release's shape."""
    from homeassistant.components import conversation

    if TOOL_RESULT_OBJECTS:
        return conversation.ToolResultContent(
            agent_id=agent_id,
            tool_call_id=tool_call_id,
            tool_name=tool_name,
            result=tool_result(data),
        )
    return conversation.ToolResultContent(
        agent_id=agent_id, tool_call_id=tool_call_id, tool_name=tool_name, tool_result=data
    )


def result_data(result: Any) -> dict[str, Any]:
    """The JSON object inside a tool's result, whatever shape the running release gives it:
    an ``llm.ToolResult``, a ``ToolResultContent`` (``result`` or the older ``tool_result``)
    or a plain dict."""
    if isinstance(result, dict):
        return result
    if TOOL_RESULT_OBJECTS:
        inner = getattr(result, "result", result)
        return inner.data
    return result.tool_result


NAMESPACE_SEPARATOR = "__"


def tool_named(recorded: str, names: Iterable[str]) -> str:
    """The tool of an LLM API that ``recorded`` means, on any release: the tool of that exact
    name, else the one namespaced by its integration (``intent__HassTurnOn`` for a recorded
    ``HassTurnOn``), else, for a namespaced name recorded where tools are bare, the bare one.
    A name no tool has comes back as it is (the API's own "not found" error follows); a name
    two tools could mean raises ``HomeAssistantError``, which a replay reports as that call's
    result."""
    from homeassistant.exceptions import HomeAssistantError

    names = list(names)
    if recorded in names:
        return recorded
    found = [n for n in names if n.endswith(NAMESPACE_SEPARATOR + recorded)]
    if not found and NAMESPACE_SEPARATOR in recorded:
        bare = recorded.split(NAMESPACE_SEPARATOR, 1)[1]
        found = [n for n in names if n == bare]
    if len(found) > 1:
        raise HomeAssistantError(f'Tool "{recorded}" is ambiguous: {", ".join(sorted(found))}')
    return found[0] if found else recorded


def match_failure_reason(err: Exception) -> str | None:
    """Why an intent found no target (``NAME``, ``DUPLICATE_NAME``, ...: a
    ``MatchFailedReason``), for an intent's ``MatchFailedError``; None for any other error.
    Older releases spelled it inside the error's text, 2026.10+ write a sentence there."""
    from homeassistant.helpers import intent

    if not isinstance(err, intent.MatchFailedError):
        return None
    reason = err.result.no_match_reason
    return reason.name if reason is not None else None


def device_for(
    registry: DeviceRegistry, identifier: tuple[str, str], config_entry_id: str
) -> DeviceEntry | None:
    """The device a config entry registered under ``identifier``. From 2026.8 identifiers are
    unique per config entry only, and the entry-less lookup is deprecated (it raises in tests
    from 2026.9)."""
    if DEVICE_LOOKUP_PER_ENTRY:
        return registry.async_get_device_by_identifier(identifier, config_entry_id)
    device = registry.async_get_device(identifiers={identifier})
    return device if device is not None and config_entry_id in device.config_entries else None


def openapi_schema(schema: Any) -> dict[str, Any]:
    """A tool's parameters as the JSON schema HA's own LLM agents (OpenAI, Ollama, ...) send to
    the model, converted the way the running release converts them."""
    if PROBATIO_SCHEMAS:
        import probatio

        return probatio.to_openapi(schema, openapi_version="3.1.0")
    from voluptuous_openapi import convert

    return convert(schema)


def form_fields(schema: Any) -> list[dict[str, Any]]:
    """A flow form's schema as HA's frontend receives it (field list with selectors and
    defaults), serialized the way the running release serializes it."""
    from homeassistant.helpers import config_validation as cv

    if PROBATIO_SCHEMAS:
        import probatio

        return probatio.to_field_list(schema, custom_serializer=cv.custom_serializer)
    import voluptuous_serialize

    return voluptuous_serialize.convert(schema, custom_serializer=cv.custom_serializer)
