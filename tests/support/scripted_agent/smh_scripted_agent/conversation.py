"""The scripted agent (see the package docstring)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from homeassistant.components import conversation
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback


async def async_setup_entry(
    hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    async_add_entities([ScriptedAgent(entry)])


def _data(content: Any) -> dict[str, Any]:
    """A tool result's JSON on 2026.2 (``tool_result``) and 2026.10+ (``result.data``)."""
    result = getattr(content, "tool_result", None)
    if result is None:
        result = getattr(getattr(content, "result", None), "data", None)
    return result if isinstance(result, dict) else {}


class ScriptedAgent(conversation.ConversationEntity):
    _attr_has_entity_name = True
    _attr_name = None

    def __init__(self, entry: ConfigEntry) -> None:
        self._attr_unique_id = entry.entry_id

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return MATCH_ALL

    async def _async_handle_message(
        self, user_input: conversation.ConversationInput, chat_log: conversation.ChatLog
    ) -> conversation.ConversationResult:
        await chat_log.async_provide_llm_data(
            user_input.as_llm_context("smh_scripted_agent"),
            "smh",
            None,
            user_input.extra_system_prompt,
        )
        path = Path(self.hass.config.path("scripted_agent.json"))
        script = json.loads(await self.hass.async_add_executor_job(path.read_text))
        names = {
            t.name.rsplit("__", 1)[-1]: t.name for t in chat_log.llm_api.tools
        }  # 2026.10+ namespaces them
        calls = [llm.ToolInput(names[tool], args) for tool, args in script["calls"]]
        results = [
            _data(r)
            async for r in chat_log.async_add_assistant_content(
                conversation.AssistantContent(agent_id=self.entity_id, tool_calls=calls)
            )
        ]
        questions = [
            r["error"]["prompt"]
            for r in results
            if r.get("error", {}).get("code") == "needs_confirmation" and r["error"].get("prompt")
        ]
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(
                agent_id=self.entity_id, content=" ".join(dict.fromkeys(questions)) or "Done."
            )
        )
        return conversation.async_get_result_from_chat_log(user_input, chat_log)
