"""Config flow: pick a home (generated preset, SimuHome-style Matter home or a HomeEnv JSON
file) and a time scale.

The home is built once during the flow, so a bad file or seed is reported on the form and
no entry is created. The benchmark's HA runner switches homes through the options flow. The options flow adds a collapsed "agent" section: the OpenAI-compatible
endpoint SMH's own agent (EIA or DR) uses as a conversation agent; the agent entity exists
only once a model is set.
"""

from __future__ import annotations

from typing import Any

import voluptuous as vol
from homeassistant.config_entries import ConfigEntry, ConfigFlow, ConfigFlowResult, OptionsFlow
from homeassistant.core import callback
from homeassistant.data_entry_flow import section
from homeassistant.helpers import selector

from .const import (
    AGENT_MODES,
    CONF_ACTION_GUARD,
    CONF_AGENT,
    CONF_AGENT_MODE,
    CONF_API_KEY,
    CONF_BASE_URL,
    CONF_FILE,
    CONF_LEVEL,
    CONF_MODEL,
    CONF_RESUME_ADVANCE,
    CONF_SEED,
    CONF_SOURCE,
    CONF_TIME_SCALE,
    CONF_TOOL_BUDGET,
    CONF_TOOLS,
    DEFAULT_ACTION_GUARD,
    DEFAULT_AGENT_MODE,
    DEFAULT_LEVEL,
    DEFAULT_RESUME_ADVANCE,
    DEFAULT_SEED,
    DEFAULT_TIME_SCALE,
    DEFAULT_TOOL_BUDGET,
    DEFAULT_TOOLS,
    DOMAIN,
    LEVELS,
    SOURCE_FILE,
    SOURCE_GENERATED,
    SOURCE_MATTER,
    SOURCES,
    TOOL_TARGETS,
)
from .home_source import HomeSourceError, build_home


def _schema(defaults: dict[str, Any]) -> vol.Schema:
    return vol.Schema({
        vol.Required(CONF_SOURCE, default=defaults.get(CONF_SOURCE, SOURCE_GENERATED)): selector.SelectSelector(
            selector.SelectSelectorConfig(options=SOURCES, translation_key=CONF_SOURCE)),
        vol.Optional(CONF_LEVEL, default=defaults.get(CONF_LEVEL, DEFAULT_LEVEL)): selector.SelectSelector(
            selector.SelectSelectorConfig(options=LEVELS, translation_key=CONF_LEVEL)),
        vol.Optional(CONF_SEED, default=defaults.get(CONF_SEED, DEFAULT_SEED)): vol.Coerce(int),
        vol.Optional(CONF_FILE, default=defaults.get(CONF_FILE, "")): str,
        vol.Optional(CONF_TIME_SCALE, default=defaults.get(CONF_TIME_SCALE, DEFAULT_TIME_SCALE)): vol.All(
            selector.NumberSelector(selector.NumberSelectorConfig(
                min=0.0, max=3600.0, step="any", mode=selector.NumberSelectorMode.BOX)),
            vol.Coerce(float)),
    })


def _agent_section(values: dict[str, Any]) -> section:
    """Endpoint settings of the conversation agent; a blank base URL means OpenAI's own.

    ``tools`` picks what the agent controls: HA's exposed entities (real and simulated) or
    only the entry's simulated home through the engine (the benchmark's tool contract).
    ``values`` is :func:`agent_defaults`: every field has one."""
    return section(vol.Schema({
        vol.Optional(CONF_BASE_URL, default=values[CONF_BASE_URL]): selector.TextSelector(
            selector.TextSelectorConfig(type=selector.TextSelectorType.URL)),
        vol.Optional(CONF_MODEL, default=values[CONF_MODEL]): selector.TextSelector(),
        vol.Optional(CONF_API_KEY, default=values[CONF_API_KEY]): selector.TextSelector(
            selector.TextSelectorConfig(type=selector.TextSelectorType.PASSWORD)),
        vol.Optional(CONF_AGENT_MODE, default=values[CONF_AGENT_MODE]): selector.SelectSelector(
            selector.SelectSelectorConfig(options=AGENT_MODES, translation_key=CONF_AGENT_MODE)),
        vol.Optional(CONF_TOOL_BUDGET, default=values[CONF_TOOL_BUDGET]): vol.All(
            selector.NumberSelector(selector.NumberSelectorConfig(
                min=1, max=100, step=1, mode=selector.NumberSelectorMode.BOX)),
            vol.Coerce(int)),
        vol.Optional(CONF_TOOLS, default=values[CONF_TOOLS]): selector.SelectSelector(
            selector.SelectSelectorConfig(options=TOOL_TARGETS, translation_key=CONF_TOOLS)),
        vol.Optional(CONF_ACTION_GUARD, default=values[CONF_ACTION_GUARD]): selector.BooleanSelector(),
    }), {"collapsed": not values[CONF_MODEL]})


def agent_defaults(saved: dict[str, Any]) -> dict[str, Any]:
    """The agent section's values as the form shows them: what is saved, over the defaults.
    HA's frontend fills a section's fields from the section's own default, not from its
    fields' defaults, so without this every radio showed unselected and the budget empty."""
    return {CONF_BASE_URL: "", CONF_MODEL: "", CONF_API_KEY: "", CONF_AGENT_MODE: DEFAULT_AGENT_MODE,
            CONF_TOOL_BUDGET: DEFAULT_TOOL_BUDGET, CONF_TOOLS: DEFAULT_TOOLS,
            CONF_ACTION_GUARD: DEFAULT_ACTION_GUARD, **saved}


def _options_schema(defaults: dict[str, Any]) -> vol.Schema:
    agent = agent_defaults(defaults.get(CONF_AGENT, {}))
    resume = defaults.get(CONF_RESUME_ADVANCE, DEFAULT_RESUME_ADVANCE)
    return _schema(defaults).extend({
        vol.Optional(CONF_RESUME_ADVANCE, default=resume): selector.BooleanSelector(),
        vol.Optional(CONF_AGENT, default=agent): _agent_section(agent)})


def _agent_errors(agent: dict[str, Any]) -> dict[str, str]:
    url = agent.get(CONF_BASE_URL, "")
    if url and not url.startswith(("http://", "https://")):
        return {"base": "invalid_base_url"}
    return {}


def _errors(err: HomeSourceError) -> dict[str, str]:
    """Form errors for a home that cannot be built: shown next to the field at fault."""
    return {CONF_SEED if err.key == "invalid_seed" else CONF_FILE: err.key}


def _title(data: dict[str, Any]) -> str:
    if data[CONF_SOURCE] == SOURCE_FILE:
        return f"SMH home ({data[CONF_FILE]})"
    if data[CONF_SOURCE] == SOURCE_MATTER:
        return f"SMH Matter home (seed {data[CONF_SEED]})"
    return f"SMH {data[CONF_LEVEL]} home (seed {data[CONF_SEED]})"


async def _validate(flow: ConfigFlow | OptionsFlow, data: dict[str, Any]) -> dict[str, str]:
    """Build the home once (in an executor) to catch a bad seed or file before saving."""
    try:
        await flow.hass.async_add_executor_job(build_home, flow.hass.config.config_dir, data)
    except HomeSourceError as err:
        return _errors(err)
    return {}


class SmhConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up one simulated home per entry."""

    VERSION = 1

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = await _validate(self, user_input)
            if not errors:
                return self.async_create_entry(title=_title(user_input), data=user_input)
        return self.async_show_form(step_id="user", data_schema=_schema(user_input or {}), errors=errors)

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry) -> OptionsFlow:
        return SmhOptionsFlow()


class SmhOptionsFlow(OptionsFlow):
    """Change the home, the time scale or the agent's endpoint; the entry reloads with them."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        current = {**self.config_entry.data, **self.config_entry.options}
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = _agent_errors(user_input.get(CONF_AGENT, {})) or await _validate(self, user_input)
            if not errors:
                return self.async_create_entry(data=user_input)
        return self.async_show_form(step_id="init", data_schema=_options_schema(user_input or current),
                                    errors=errors)
