"""A test-only HA conversation agent that uses the ``smh`` LLM API the way HA's own LLM agents do
(a chat log, ``async_provide_llm_data``, tool calls run by the chat log), with a scripted model.

The "model" obeys any injection: each turn it makes the tool calls written in
``<config>/scripted_agent.json`` (``{"calls": [[tool, args], ...]}``), whatever the user said, and
then, like a well-behaved agent, puts the guard's question to the user when a tool result asks
for confirmation (else it answers "Done."). Used by tests/e2e/test_real_hass_consent.py only.
"""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant

DOMAIN = "smh_scripted_agent"


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    await hass.config_entries.async_forward_entry_setups(entry, [Platform.CONVERSATION])
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    return await hass.config_entries.async_unload_platforms(entry, [Platform.CONVERSATION])
