"""The `smh` llm.API: HA's own LLM agents get SMH's home tools, validated by the engine."""

from __future__ import annotations

import pytest
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.compat import openapi_schema, result_data
from smh_core.agent.tools import TOOLS

CONTEXT = llm.LLMContext(platform="test", context=None, language="en", assistant=None, device_id=None)


@pytest.fixture(autouse=True)
async def everything_exposed(hass: HomeAssistant, conversation: None, tiny_entry: MockConfigEntry) -> None:
    """HA's conversation integration loaded (SMH offers its API then) and every entity of the
    home exposed to Assist: these tests are about the tools, tests/ha/test_service_security.py
    about what exposure hides."""
    for state in hass.states.async_all():
        if "did" in state.attributes:
            async_expose_entity(hass, "conversation", state.entity_id, True)


async def test_tools_are_offered_with_json_schemas(hass: HomeAssistant, tiny_entry: MockConfigEntry) -> None:
    api = await llm.async_get_api(hass, "smh", CONTEXT)
    names = {t.name for t in api.tools}
    assert names == set(TOOLS) - {"ask_user", "finish"}
    for tool in api.tools:
        schema = openapi_schema(tool.parameters)
        assert schema["type"] == "object"
        required = set(schema.get("required", []))
        assert required == {n for n, f in TOOLS[tool.name].args.model_fields.items() if f.is_required()}
    assert "get_device_spec" in api.api_prompt


async def test_control_through_the_api_changes_the_home_and_the_entity(
        hass: HomeAssistant, tiny_entry: MockConfigEntry) -> None:
    api = await llm.async_get_api(hass, "smh", CONTEXT)
    engine = tiny_entry.runtime_data.engine
    out = result_data(await api.async_call_tool(llm.ToolInput("control_device", {"did": "1001", "locator": "turn_on"})))
    await hass.async_block_till_done()
    assert out["ok"] is True and engine.value("1001", "state") == "on"
    lights = [s for s in hass.states.async_all("light") if s.state == "on"]
    assert lights, "the light entity follows the engine"
    status = result_data(await api.async_call_tool(llm.ToolInput("get_device_status", {"did": "1001"})))
    assert status["status"]["state"] == "on"


async def test_invalid_call_explains_and_changes_nothing(hass: HomeAssistant, tiny_entry: MockConfigEntry) -> None:
    api = await llm.async_get_api(hass, "smh", CONTEXT)
    engine = tiny_entry.runtime_data.engine
    before = engine.snapshot()
    out = result_data(await api.async_call_tool(llm.ToolInput(
        "control_device", {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "freeze"}})))
    assert out["ok"] is False and out["error"]["field"] and out["error"]["allowed"]
    assert engine.diff(before, engine.snapshot()) == []
    rooms = result_data(await api.async_call_tool(llm.ToolInput("list_rooms", {})))
    assert isinstance(rooms["result"], list) and rooms["result"]
