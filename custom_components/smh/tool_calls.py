"""``smh.call_tools``: run LLM tool calls through one of Home Assistant's LLM APIs, as a
conversation agent's chat log runs them.

A recorded conversation (home-assistant-datasets publishes every tool call a model made in its
benchmark) can then be replayed inside this HA: each call goes to the API's tool by name with
the model's own arguments (Assist's intents match names, areas and domains exactly as they did
for the model), and an error comes back as the model would have seen it
(``{"error": <exception>, "error_text": ...}``) instead of stopping the replay. A name recorded
on an older release reaches the tool it meant on this one (HA 2026.10+ says
``intent__HassTurnOn`` for ``HassTurnOn``: :func:`.compat.tool_named`); each result says which
tool ran (``called``).

An admin service: the tools act with the caller's permissions, but a replay drives the whole
home, like ``smh.load_task``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import voluptuous as vol
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import llm

from .compat import match_failure_reason, result_data, tool_named
from .const import DOMAIN, SERVICE_CALL_TOOLS

CALL_SCHEMA = vol.Schema(
    {vol.Required("tool"): cv.string, vol.Optional("arguments", default={}): dict}
)
CALL_TOOLS_SCHEMA = vol.Schema(
    {
        vol.Optional("api", default=llm.LLM_API_ASSIST): cv.string,
        vol.Optional("language", default="en"): cv.string,
        vol.Required("calls"): vol.All(cv.ensure_list, [CALL_SCHEMA]),
    }
)
SCHEMAS = {SERVICE_CALL_TOOLS: CALL_TOOLS_SCHEMA}


def _json(value: Any) -> Any:
    """A tool result as plain JSON (an intent response is a dict subclass that may hold dates)."""
    return json.loads(json.dumps(value, default=str))


async def run_tool(api: llm.APIInstance, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One recorded call: ``called``, the API's tool the recorded name means on this release
    (:func:`.compat.tool_named`), and ``result``, what the tool returned. An error the tool
    raises is the result, as a chat log gives it to the model, with the ``reason`` of an intent
    that matched nothing (:func:`.compat.match_failure_reason`), whose text differs between
    releases."""
    called = tool
    try:
        called = tool_named(tool, (t.name for t in api.tools))
        result = _json(
            result_data(
                await api.async_call_tool(llm.ToolInput(tool_name=called, tool_args=arguments))
            )
        )
    except (HomeAssistantError, vol.Invalid) as err:
        reason = match_failure_reason(err)
        result = {
            "error": type(err).__name__,
            **({"error_text": str(err)} if str(err) else {}),
            **({"reason": reason} if reason else {}),
        }
    return {"tool": tool, "called": called, "result": result}


def handlers(
    hass: HomeAssistant, entry_for: object
) -> dict[str, Callable[[ServiceCall], Awaitable[ServiceResponse]]]:
    """``smh.call_tools`` (any entry's home: the LLM API picks its own), registered by
    :mod:`.services` under :data:`SCHEMAS`."""

    async def call_tools(call: ServiceCall) -> ServiceResponse:
        context = llm.LLMContext(
            platform=DOMAIN,
            context=call.context,
            language=call.data["language"],
            assistant=CONVERSATION_DOMAIN,
            device_id=None,
        )
        try:
            api = await llm.async_get_api(hass, call.data["api"], context)
        except HomeAssistantError as err:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="no_llm_api",
                translation_placeholders={"api": call.data["api"], "message": str(err)},
            ) from err
        results = [await run_tool(api, c["tool"], c["arguments"]) for c in call.data["calls"]]
        return {"api": api.api.id, "tools": sorted(t.name for t in api.tools), "results": results}

    return {SERVICE_CALL_TOOLS: call_tools}
