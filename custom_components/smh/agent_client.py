"""The model endpoint of an entry (options flow, section "agent"), as an SMH ``LLMClient``.

Shared by the conversation agent and ``smh.create_automation`` so both talk to the model the
user configured, through HA's shared HTTP pool.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import openai
from homeassistant.core import HomeAssistant
from homeassistant.helpers.httpx_client import get_async_client

from smh_core.llm.client import LLMClient, LLMConfig

from .const import (
    AGENT_MAX_RETRIES,
    AGENT_TIMEOUT,
    CONF_AGENT,
    CONF_API_KEY,
    CONF_BASE_URL,
    CONF_MODEL,
)


def agent_settings(data: dict[str, Any]) -> dict[str, Any]:
    """The agent section of an entry's data + options (empty when never configured)."""
    return dict(data.get(CONF_AGENT) or {})


def llm_config(settings: dict[str, Any]) -> LLMConfig | None:
    """The endpoint settings, or None when no model is set (then there is no agent)."""
    model = str(settings.get(CONF_MODEL, "")).strip()
    if not model:
        return None
    return LLMConfig(base_url=settings.get(CONF_BASE_URL) or None, model=model,
                     api_key=settings.get(CONF_API_KEY) or None, timeout=AGENT_TIMEOUT,
                     max_retries=AGENT_MAX_RETRIES)


async def async_openai_client(hass: HomeAssistant, config: LLMConfig) -> openai.AsyncOpenAI:
    """The openai client for ``config``; built in an executor (it loads certificates)."""
    return await hass.async_add_executor_job(partial(
        openai.AsyncOpenAI, base_url=config.base_url, api_key=config.resolved_api_key(),
        timeout=config.timeout, max_retries=config.max_retries, http_client=get_async_client(hass)))


async def async_llm_client(hass: HomeAssistant, data: dict[str, Any]) -> LLMClient | None:
    """An ``LLMClient`` for the entry's configured model, or None without one."""
    config = llm_config(agent_settings(data))
    if config is None:
        return None
    return LLMClient(config, await async_openai_client(hass, config))
