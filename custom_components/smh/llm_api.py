"""SMH's home tools as an HA ``llm.API`` named ``smh``.

HA's own LLM agents (OpenAI, Ollama, Anthropic, ...) can pick "SMH simulated home" as their
API and then use the same tools the SMH agent uses — room and device lists, device specs with
argument schemas, validated control, room climate, the clock, schedules and automations —
on the loaded SMH home, through the engine's validation. The tool set and its argument
models come from :mod:`smh_core.agent.tools`, so both agents see one contract.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from homeassistant.util.json import JsonObjectType
from pydantic import BaseModel

from smh_core.agent.tools import TOOLS, dispatch
from smh_core.agent.tools import Tool as SmhToolSpec
from smh_core.backends.embedded import EmbeddedBackend

from .const import DOMAIN

API_ID = DOMAIN
LOOP_ONLY = {"ask_user", "finish"}
"""Tools the SMH loop handles itself; an HA agent talks to the user on its own."""
PROMPT = ("You control a simulated smart home through the SMH tools. Read a device's spec "
          "(get_device_spec) before controlling it: locators name services such as turn_on or "
          "fan.set_speed_level, and each argument has a type, range and options. A rejected call "
          "changes nothing and says which field was wrong and what is allowed.")


def _vol_type(annotation: Any) -> Any:
    """A voluptuous validator HA can turn into JSON schema for a pydantic field type."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _vol_type(inner[0]) if len(inner) == 1 else object
    if origin is list:
        (item,) = typing.get_args(annotation) or (object,)
        return [_vol_type(item)]
    if origin is dict or annotation is dict:
        return dict
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return dict
    if annotation in (str, int, bool):
        return annotation
    if annotation is float:
        return vol.Coerce(float)
    return object


def parameters(spec: SmhToolSpec) -> vol.Schema:
    fields = {}
    for name, f in spec.args.model_fields.items():
        marker = vol.Required if f.is_required() else vol.Optional
        fields[marker(name, description=f.description or name)] = _vol_type(f.annotation)
    return vol.Schema(fields)


class SmhTool(llm.Tool):
    def __init__(self, spec: SmhToolSpec) -> None:
        self.name = spec.name
        self.description = spec.description
        self.parameters = parameters(spec)

    async def async_call(self, hass: HomeAssistant, tool_input: llm.ToolInput,
                         llm_context: llm.LLMContext) -> JsonObjectType:
        entries = hass.config_entries.async_loaded_entries(DOMAIN)
        if len(entries) != 1:
            reason = "no SMH home is loaded" if not entries else "several SMH homes are loaded"
            return {"ok": False, "error": {"code": "no_home", "message": reason}}
        runtime = entries[0].runtime_data
        sim = runtime.clock.sim if runtime.clock is not None else None
        result = dispatch(EmbeddedBackend(runtime.engine, sim=sim), self.name, dict(tool_input.tool_args))
        return result if isinstance(result, dict) else {"result": result}


class SmhAPI(llm.API):
    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        tools: list[llm.Tool] = [SmhTool(spec) for name, spec in TOOLS.items() if name not in LOOP_ONLY]
        return llm.APIInstance(api=self, api_prompt=PROMPT, llm_context=llm_context, tools=tools)


def register(hass: HomeAssistant) -> None:
    """Offer the ``smh`` API to HA's LLM agents (once per HA run)."""
    if all(api.id != API_ID for api in llm.async_get_apis(hass)):
        llm.async_register_api(hass, SmhAPI(hass=hass, id=API_ID, name="SMH simulated home"))
