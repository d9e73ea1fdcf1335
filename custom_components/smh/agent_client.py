"""The model endpoint of an entry (options flow, section "agent"), as an SMH ``LLMClient``.

Shared by the conversation agent and ``smh.create_automation`` so both talk to the model the
user configured, through HA's shared HTTP pool.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from homeassistant.core import HomeAssistant

from smh_core.llm.client import LLMClient, LLMConfig

if TYPE_CHECKING:
    import httpx
    import openai

from .const import (
    AGENT_MAX_RETRIES,
    AGENT_TIMEOUT,
    CONF_AGENT,
    CONF_API_KEY,
    CONF_BASE_URL,
    CONF_MODEL,
    CONF_MODEL_TIMEOUT,
)


def agent_settings(data: dict[str, Any]) -> dict[str, Any]:
    """The agent section of an entry's data + options (empty when never configured)."""
    return dict(data.get(CONF_AGENT) or {})


def llm_config(settings: dict[str, Any]) -> LLMConfig | None:
    """The endpoint settings, or None when no model is set (then there is no agent)."""
    model = str(settings.get(CONF_MODEL, "")).strip()
    if not model:
        return None
    return LLMConfig(
        base_url=settings.get(CONF_BASE_URL) or None,
        model=model,
        api_key=settings.get(CONF_API_KEY) or None,
        timeout=float(settings.get(CONF_MODEL_TIMEOUT) or AGENT_TIMEOUT),
        max_retries=AGENT_MAX_RETRIES,
    )


def _openai_client(config: LLMConfig, http_client: httpx.AsyncClient) -> openai.AsyncOpenAI:
    """In the executor: ``openai`` is imported here, on first use (~0.7 s; an entry without a
    model never pays it), and the client loads certificates."""
    import openai

    return openai.AsyncOpenAI(
        base_url=config.base_url,
        api_key=config.resolved_api_key(),
        timeout=config.timeout,
        max_retries=config.max_retries,
        http_client=http_client,
    )


async def async_openai_client(hass: HomeAssistant, config: LLMConfig) -> openai.AsyncOpenAI:
    """The openai client for ``config``, built off the event loop (HA's httpx helper is imported
    here too: ~60 ms at set-up for entries that never configure a model)."""
    from homeassistant.helpers.httpx_client import get_async_client

    return await hass.async_add_executor_job(_openai_client, config, get_async_client(hass))


async def async_llm_client(hass: HomeAssistant, data: dict[str, Any]) -> LLMClient | None:
    """An ``LLMClient`` for the entry's configured model, or None without one."""
    config = llm_config(agent_settings(data))
    if config is None:
        return None
    return LLMClient(config, await async_openai_client(hass, config))
