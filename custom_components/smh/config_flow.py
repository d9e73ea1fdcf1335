"""Config flow: pick a home, then only the fields that home needs (HA's menu-then-step pattern).

A menu offers a bundled sample home (the SMH-Bench sizes, a Matter home, the sample suite's
flat, a SAGE home, homes as the importers make them: :mod:`.samples`), a generated SMH-Bench
home (size and seed), a SimuHome-style Matter home (seed), a home file uploaded from the
browser, or a file already in the configuration folder. Each step also takes the time scale and
an area prefix: a second home in the same HA gets one proposed ("Home 2"), so its areas, floors,
device names and entity ids are its own; a home whose areas would land in areas holding another
home's devices is stopped on a step that names them, before anything merges.

The home is built once during the flow, so a bad file or seed is reported on the form and
no entry is created. The benchmark's HA runner switches homes through the options flow (one
form with every field, for scripts). The options flow adds a collapsed "agent" section: the
OpenAI-compatible endpoint SMH's own agent (EIA or DR) uses as a conversation agent; the agent
entity exists only once a model is set.
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
    AGENT_TIMEOUT,
    CONF_ACTION_GUARD,
    CONF_AGENT,
    CONF_AGENT_MODE,
    CONF_API_KEY,
    CONF_AREA_PREFIX,
    CONF_BASE_URL,
    CONF_CHECK_REPLIES,
    CONF_FILE,
    CONF_LEVEL,
    CONF_MODEL,
    CONF_MODEL_TIMEOUT,
    CONF_RESUME_ADVANCE,
    CONF_SEED,
    CONF_SOURCE,
    CONF_TIME_SCALE,
    CONF_TOOL_BUDGET,
    CONF_TOOLS,
    DEFAULT_ACTION_GUARD,
    DEFAULT_AGENT_MODE,
    DEFAULT_CHECK_REPLIES,
    DEFAULT_LEVEL,
    DEFAULT_RESUME_ADVANCE,
    DEFAULT_SEED,
    DEFAULT_TIME_SCALE,
    DEFAULT_TOOL_BUDGET,
    DEFAULT_TOOLS,
    DOMAIN,
    LEVELS,
    MAX_MODEL_TIMEOUT,
    SOURCE_FILE,
    SOURCE_GENERATED,
    SOURCE_MATTER,
    SOURCES,
    TOOL_TARGETS,
)
from .home_source import HomeSourceError, build_home
from .registry import occupied_areas, suggest_prefix
from .room import prefixed
from .samples import SAMPLES, install

CONF_SAMPLE = "sample"
CONF_UPLOAD = "upload"
CONF_MERGE = "merge_areas"
MENU = ["sample", SOURCE_GENERATED, SOURCE_MATTER, CONF_UPLOAD, SOURCE_FILE]
"""The first step's choices, a newcomer's first: a ready-made home."""


def _schema(defaults: dict[str, Any]) -> vol.Schema:
    return vol.Schema(
        {
            vol.Required(
                CONF_SOURCE, default=defaults.get(CONF_SOURCE, SOURCE_GENERATED)
            ): selector.SelectSelector(
                selector.SelectSelectorConfig(options=SOURCES, translation_key=CONF_SOURCE)
            ),
            vol.Optional(
                CONF_LEVEL, default=defaults.get(CONF_LEVEL, DEFAULT_LEVEL)
            ): selector.SelectSelector(
                selector.SelectSelectorConfig(options=LEVELS, translation_key=CONF_LEVEL)
            ),
            vol.Optional(CONF_SEED, default=defaults.get(CONF_SEED, DEFAULT_SEED)): vol.Coerce(int),
            vol.Optional(CONF_FILE, default=defaults.get(CONF_FILE, "")): str,
            vol.Optional(
                CONF_TIME_SCALE, default=defaults.get(CONF_TIME_SCALE, DEFAULT_TIME_SCALE)
            ): vol.All(
                selector.NumberSelector(
                    selector.NumberSelectorConfig(
                        min=0.0, max=3600.0, step="any", mode=selector.NumberSelectorMode.BOX
                    )
                ),
                vol.Coerce(float),
            ),
        }
    )


def _agent_section(values: dict[str, Any]) -> section:
    """Endpoint settings of the conversation agent; a blank base URL means OpenAI's own.

    ``tools`` picks what the agent controls: HA's exposed entities (real and simulated) or
    only the entry's simulated home through the engine (the benchmark's tool contract).
    ``values`` is :func:`agent_defaults`: every field has one."""
    return section(
        vol.Schema(
            {
                vol.Optional(CONF_BASE_URL, default=values[CONF_BASE_URL]): selector.TextSelector(
                    selector.TextSelectorConfig(type=selector.TextSelectorType.URL)
                ),
                vol.Optional(CONF_MODEL, default=values[CONF_MODEL]): selector.TextSelector(),
                vol.Optional(CONF_API_KEY, default=values[CONF_API_KEY]): selector.TextSelector(
                    selector.TextSelectorConfig(type=selector.TextSelectorType.PASSWORD)
                ),
                vol.Optional(
                    CONF_AGENT_MODE, default=values[CONF_AGENT_MODE]
                ): selector.SelectSelector(
                    selector.SelectSelectorConfig(
                        options=AGENT_MODES, translation_key=CONF_AGENT_MODE
                    )
                ),
                vol.Optional(CONF_TOOL_BUDGET, default=values[CONF_TOOL_BUDGET]): vol.All(
                    selector.NumberSelector(
                        selector.NumberSelectorConfig(
                            min=1, max=100, step=1, mode=selector.NumberSelectorMode.BOX
                        )
                    ),
                    vol.Coerce(int),
                ),
                vol.Optional(CONF_MODEL_TIMEOUT, default=values[CONF_MODEL_TIMEOUT]): vol.All(
                    selector.NumberSelector(
                        selector.NumberSelectorConfig(
                            min=5,
                            max=MAX_MODEL_TIMEOUT,
                            step=1,
                            unit_of_measurement="s",
                            mode=selector.NumberSelectorMode.BOX,
                        )
                    ),
                    vol.Coerce(int),
                ),
                vol.Optional(CONF_TOOLS, default=values[CONF_TOOLS]): selector.SelectSelector(
                    selector.SelectSelectorConfig(options=TOOL_TARGETS, translation_key=CONF_TOOLS)
                ),
                vol.Optional(
                    CONF_ACTION_GUARD, default=values[CONF_ACTION_GUARD]
                ): selector.BooleanSelector(),
                vol.Optional(
                    CONF_CHECK_REPLIES, default=values[CONF_CHECK_REPLIES]
                ): selector.BooleanSelector(),
            }
        ),
        {"collapsed": not values[CONF_MODEL]},
    )


def agent_defaults(saved: dict[str, Any]) -> dict[str, Any]:
    """The agent section's values as the form shows them: what is saved, over the defaults.
    HA's frontend fills a section's fields from the section's own default, not from its
    fields' defaults, so without this every radio showed unselected and the budget empty."""
    return {
        CONF_BASE_URL: "",
        CONF_MODEL: "",
        CONF_API_KEY: "",
        CONF_AGENT_MODE: DEFAULT_AGENT_MODE,
        CONF_TOOL_BUDGET: DEFAULT_TOOL_BUDGET,
        CONF_MODEL_TIMEOUT: AGENT_TIMEOUT,
        CONF_TOOLS: DEFAULT_TOOLS,
        CONF_ACTION_GUARD: DEFAULT_ACTION_GUARD,
        CONF_CHECK_REPLIES: DEFAULT_CHECK_REPLIES,
        **saved,
    }


def _options_schema(defaults: dict[str, Any]) -> vol.Schema:
    agent = agent_defaults(defaults.get(CONF_AGENT, {}))
    resume = defaults.get(CONF_RESUME_ADVANCE, DEFAULT_RESUME_ADVANCE)
    return _schema(defaults).extend(
        {
            vol.Optional(CONF_RESUME_ADVANCE, default=resume): selector.BooleanSelector(),
            vol.Optional(CONF_AGENT, default=agent): _agent_section(agent),
        }
    )


def _agent_errors(agent: dict[str, Any]) -> dict[str, str]:
    url = agent.get(CONF_BASE_URL, "")
    if url and not url.startswith(("http://", "https://")):
        return {"base": "invalid_base_url"}
    return {}


def _errors(err: HomeSourceError) -> dict[str, str]:
    """Form errors for a home that cannot be built: shown next to the field at fault."""
    return {CONF_SEED if err.key == "invalid_seed" else CONF_FILE: err.key}


def _title(data: dict[str, Any]) -> str:
    prefix = f"{data[CONF_AREA_PREFIX]}: " if data.get(CONF_AREA_PREFIX) else ""
    if data[CONF_SOURCE] == SOURCE_FILE:
        return f"{prefix}SMH home ({data[CONF_FILE]})"
    if data[CONF_SOURCE] == SOURCE_MATTER:
        return f"{prefix}SMH Matter home (seed {data[CONF_SEED]})"
    return f"{prefix}SMH {data[CONF_LEVEL]} home (seed {data[CONF_SEED]})"


async def _validate(flow: ConfigFlow | OptionsFlow, data: dict[str, Any]) -> dict[str, str]:
    """Build the home once (in an executor) to catch a bad seed or file before saving."""
    try:
        await flow.hass.async_add_executor_job(build_home, flow.hass.config.config_dir, data)
    except HomeSourceError as err:
        return _errors(err)
    return {}


def _common_fields(prefix: str) -> dict[Any, Any]:
    """What every home step asks besides the home: time scale and the area prefix."""
    return {
        vol.Optional(CONF_TIME_SCALE, default=DEFAULT_TIME_SCALE): vol.All(
            selector.NumberSelector(
                selector.NumberSelectorConfig(
                    min=0.0, max=3600.0, step="any", mode=selector.NumberSelectorMode.BOX
                )
            ),
            vol.Coerce(float),
        ),
        vol.Optional(CONF_AREA_PREFIX, default=prefix): selector.TextSelector(),
    }


def _save_upload(hass: Any, file_id: str) -> str:
    """Copy an uploaded home file into ``smh_homes/`` (after checking it is a home) and return
    its path relative to the config dir (blocking: run in an executor)."""
    from homeassistant.components.file_upload import process_uploaded_file

    from smh_core.homeenv.engine import load_home

    try:
        with process_uploaded_file(hass, file_id) as path:
            try:
                load_home(path)
            except ValueError as err:
                raise HomeSourceError("invalid_home", str(err)) from err
            return install(hass.config.config_dir, path, path.name)
    except ValueError as err:  # HA's "File does not exist" (an id used twice, or expired)
        raise HomeSourceError("upload_missing", str(err)) from err


class SmhConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up one simulated home per entry: a menu of home kinds, one step per kind."""

    VERSION = 1

    def __init__(self) -> None:
        self._data: dict[str, Any] = {}  # the home chosen, kept while the merge step asks

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        return self.async_show_menu(step_id="user", menu_options=MENU)

    async def async_step_sample(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        async def data(values: dict[str, Any]) -> dict[str, Any]:
            sample = SAMPLES[values[CONF_SAMPLE]]
            return await self.hass.async_add_executor_job(
                sample.entry_data, self.hass.config.config_dir
            )

        return await self._home_step(
            "sample",
            {
                vol.Required(CONF_SAMPLE, default="medium"): selector.SelectSelector(
                    selector.SelectSelectorConfig(
                        options=list(SAMPLES), translation_key=CONF_SAMPLE
                    )
                )
            },
            user_input,
            data,
        )

    async def async_step_generated(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        async def data(values: dict[str, Any]) -> dict[str, Any]:
            return {
                CONF_SOURCE: SOURCE_GENERATED,
                CONF_LEVEL: values[CONF_LEVEL],
                CONF_SEED: values[CONF_SEED],
            }

        return await self._home_step(
            SOURCE_GENERATED,
            {
                vol.Required(CONF_LEVEL, default=DEFAULT_LEVEL): selector.SelectSelector(
                    selector.SelectSelectorConfig(options=LEVELS, translation_key=CONF_LEVEL)
                ),
                vol.Required(CONF_SEED, default=DEFAULT_SEED): vol.Coerce(int),
            },
            user_input,
            data,
        )

    async def async_step_matter(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        async def data(values: dict[str, Any]) -> dict[str, Any]:
            return {
                CONF_SOURCE: SOURCE_MATTER,
                CONF_LEVEL: DEFAULT_LEVEL,
                CONF_SEED: values[CONF_SEED],
            }

        return await self._home_step(
            SOURCE_MATTER,
            {vol.Required(CONF_SEED, default=DEFAULT_SEED): vol.Coerce(int)},
            user_input,
            data,
        )

    async def async_step_upload(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        async def data(values: dict[str, Any]) -> dict[str, Any]:
            path = await self.hass.async_add_executor_job(
                _save_upload, self.hass, values[CONF_UPLOAD]
            )
            return {
                CONF_SOURCE: SOURCE_FILE,
                CONF_FILE: path,
                CONF_LEVEL: DEFAULT_LEVEL,
                CONF_SEED: DEFAULT_SEED,
            }

        return await self._home_step(
            CONF_UPLOAD,
            {
                vol.Required(CONF_UPLOAD): selector.FileSelector(
                    selector.FileSelectorConfig(accept=".json,application/json")
                )
            },
            user_input,
            data,
        )

    async def async_step_file(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        async def data(values: dict[str, Any]) -> dict[str, Any]:
            if not str(values.get(CONF_FILE, "")).strip():
                raise HomeSourceError("file_required", "no file given")
            return {
                CONF_SOURCE: SOURCE_FILE,
                CONF_FILE: values[CONF_FILE].strip(),
                CONF_LEVEL: DEFAULT_LEVEL,
                CONF_SEED: DEFAULT_SEED,
            }

        return await self._home_step(
            SOURCE_FILE,
            {vol.Required(CONF_FILE, default=""): selector.TextSelector()},
            user_input,
            data,
        )

    async def _home_step(
        self, step_id: str, fields: dict[Any, Any], user_input: dict[str, Any] | None, to_data: Any
    ) -> ConfigFlowResult:
        """Show a home kind's form; on submit turn it into entry data (``to_data``), build the
        home once, and go on to the merge check."""
        errors: dict[str, str] = {}
        if user_input is not None:
            try:
                data = await to_data(user_input)
            except HomeSourceError as err:
                errors = _errors(err)
            else:
                data[CONF_TIME_SCALE] = float(user_input.get(CONF_TIME_SCALE, DEFAULT_TIME_SCALE))
                data[CONF_AREA_PREFIX] = str(user_input.get(CONF_AREA_PREFIX, "")).strip()
                errors = await _validate(self, data)
                if not errors:
                    self._data = data
                    return await self.async_step_merge()
            names = [
                str(key.schema) for key in fields
            ]  # an error shows next to a field of this form
            errors = {(field if field in names else names[0]): key for field, key in errors.items()}
        schema = vol.Schema({**fields, **_common_fields(suggest_prefix(self.hass))})
        if user_input is not None:
            schema = self.add_suggested_values_to_schema(schema, user_input)
        return self.async_show_form(step_id=step_id, data_schema=schema, errors=errors)

    async def async_step_merge(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Before a home's areas land in areas holding another home's devices: name them, and
        let the user set a prefix or agree to share them."""
        data = self._data
        if user_input is not None:
            data[CONF_AREA_PREFIX] = str(user_input.get(CONF_AREA_PREFIX, "")).strip()
        shared = await self._shared_areas(data)
        if not shared or (user_input is not None and user_input.get(CONF_MERGE)):
            return self.async_create_entry(title=_title(data), data=data)
        return self.async_show_form(
            step_id="merge",
            data_schema=vol.Schema(
                {
                    vol.Optional(
                        CONF_AREA_PREFIX,
                        default=data[CONF_AREA_PREFIX] or suggest_prefix(self.hass, force=True),
                    ): selector.TextSelector(),
                    vol.Optional(CONF_MERGE, default=False): selector.BooleanSelector(),
                }
            ),
            errors={"base": "areas_shared"} if user_input is not None else {},
            description_placeholders={
                "areas": ", ".join(shared[:8]) + (" ..." if len(shared) > 8 else ""),
                "count": str(len(shared)),
            },
        )

    async def _shared_areas(self, data: dict[str, Any]) -> list[str]:
        home = await self.hass.async_add_executor_job(build_home, self.hass.config.config_dir, data)
        return occupied_areas(
            self.hass, [prefixed(data.get(CONF_AREA_PREFIX, ""), r.name) for r in home.rooms]
        )

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
            errors = _agent_errors(user_input.get(CONF_AGENT, {})) or await _validate(
                self, user_input
            )
            if not errors:
                return self.async_create_entry(data=user_input)
        return self.async_show_form(
            step_id="init", data_schema=_options_schema(user_input or current), errors=errors
        )
