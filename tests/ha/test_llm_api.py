"""The `smh` llm.API: HA's own LLM agents get SMH's home tools, validated by the engine."""

from __future__ import annotations

import pytest
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.compat import openapi_schema, result_data
from smh_core.agent.tools import TOOLS

CONTEXT = llm.LLMContext(
    platform="test", context=None, language="en", assistant=None, device_id=None
)


@pytest.fixture(autouse=True)
async def everything_exposed(
    hass: HomeAssistant, conversation: None, tiny_entry: MockConfigEntry
) -> None:
    """HA's conversation integration loaded (SMH offers its API then) and every entity of the
    home exposed to Assist: these tests are about the tools, tests/ha/test_service_security.py
    about what exposure hides."""
    for state in hass.states.async_all():
        if "did" in state.attributes:
            async_expose_entity(hass, "conversation", state.entity_id, True)


async def test_tools_are_offered_with_json_schemas(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    api = await llm.async_get_api(hass, "smh", CONTEXT)
    names = {t.name for t in api.tools}
    assert names == set(TOOLS) - {"ask_user", "finish"}
    for tool in api.tools:
        schema = openapi_schema(tool.parameters)
        assert schema["type"] == "object"
        required = set(schema.get("required", []))
        assert required == {
            n for n, f in TOOLS[tool.name].args.model_fields.items() if f.is_required()
        }
    assert "get_device_spec" in api.api_prompt


async def test_control_through_the_api_changes_the_home_and_the_entity(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    api = await llm.async_get_api(hass, "smh", CONTEXT)
    engine = tiny_entry.runtime_data.engine
    out = result_data(
        await api.async_call_tool(
            llm.ToolInput("control_device", {"did": "1001", "locator": "turn_on"})
        )
    )
    await hass.async_block_till_done()
    assert out["ok"] is True and engine.value("1001", "state") == "on"
    lights = [s for s in hass.states.async_all("light") if s.state == "on"]
    assert lights, "the light entity follows the engine"
    status = result_data(
        await api.async_call_tool(llm.ToolInput("get_device_status", {"did": "1001"}))
    )
    assert status["status"]["state"] == "on"


async def test_invalid_call_explains_and_changes_nothing(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    api = await llm.async_get_api(hass, "smh", CONTEXT)
    engine = tiny_entry.runtime_data.engine
    before = engine.snapshot()
    out = result_data(
        await api.async_call_tool(
            llm.ToolInput(
                "control_device",
                {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "freeze"}},
            )
        )
    )
    assert out["ok"] is False and out["error"]["field"] and out["error"]["allowed"]
    assert engine.diff(before, engine.snapshot()) == []
    # said versus did (issue 38): HA's agent is told not to report the failed call as done
    assert "changed nothing" in out["note"] and "Do not tell the user it was done" in out["note"]
    rooms = result_data(await api.async_call_tool(llm.ToolInput("list_rooms", {})))
    assert isinstance(rooms["result"], list) and rooms["result"]
    assert "note" not in rooms  # a call that worked carries no note


# ---------------------------------------------------------------------------- consent through HA's agents
AGENT_ID = "conversation.some_ha_agent"


async def _agent_turn(
    hass: HomeAssistant,
    conversation_id: str | None,
    user_text: str,
    calls: list[tuple[str, dict]],
    reply: str,
    language: str = "en",
) -> tuple[str, list[dict]]:
    """One turn of an HA LLM agent as HA's own agents run it: a chat session and its chat log,
    the ``smh`` API provided to it, the user's text, the model's tool calls executed by the chat
    log, then the model's reply. Returns the conversation id and the tool results."""
    from homeassistant.components import conversation
    from homeassistant.core import Context
    from homeassistant.helpers import chat_session

    results = []
    with chat_session.async_get_chat_session(hass, conversation_id) as session:
        user_input = conversation.ConversationInput(
            text=user_text,
            context=Context(),
            conversation_id=session.conversation_id,
            device_id=None,
            satellite_id=None,
            language=language,
            agent_id=AGENT_ID,
        )
        with conversation.async_get_chat_log(hass, session, user_input) as chat_log:
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context(AGENT_ID), "smh", None, None
            )
            for tool, args in calls:
                content = conversation.AssistantContent(
                    agent_id=AGENT_ID, tool_calls=[llm.ToolInput(tool, args)]
                )
                results += [
                    result_data(r) async for r in chat_log.async_add_assistant_content(content)
                ]
            chat_log.async_add_assistant_content_without_tools(
                conversation.AssistantContent(agent_id=AGENT_ID, content=reply)
            )
        return session.conversation_id, results


async def test_the_question_is_asked_and_answered_in_the_users_language(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    """A German conversation (HA's ``de-DE``): the guard asks in German, the agent puts the
    question, and the user's "Ja, bitte." on the next turn lets the same call through; a Spanish
    "Sí." in its place does not."""
    engine = tiny_entry.runtime_data.engine
    before = engine.value("1003", "target_temperature")
    heat = [("control_device", _heater_call(30))]
    conv, (refused,) = await _agent_turn(
        hass, None, "Mach die Küche warm", heat, "Moment.", language="de-DE"
    )
    question = refused["error"]["prompt"]
    assert question == (
        "Soll ich den Raum mit „Kitchen AC“ (Kitchen) auf 30 °C heizen? Sag ja, um zu bestätigen."
    )
    conv, (again,) = await _agent_turn(hass, conv, "Sí.", heat, question, language="de-DE")
    assert (
        again["error"]["code"] == "needs_confirmation"
        and engine.value("1003", "target_temperature") == before
    )
    conv, (done,) = await _agent_turn(hass, conv, "Ja, bitte.", heat, "Erledigt.", language="de-DE")
    assert done["ok"] is True, done
    assert engine.value("1003", "target_temperature") == 30


def _heater_call(value: int) -> dict:
    """The tiny home's Kitchen AC (engine category ``ac``) set to ``value`` °C."""
    return {
        "did": "1003",
        "locator": "set_target_temperature",
        "arguments": {"target_temperature": value},
    }


async def test_an_ha_agent_gets_a_question_and_only_the_next_turn_confirms(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    """HA's own agents through the ``smh`` API: a room heated above 28 °C that the user did not
    ask for is refused with the guard's question; the agent asks it; the user's yes in the very
    next turn lets the same call through. A reply that is not a yes, or a yes a turn too late,
    does not."""
    engine = tiny_entry.runtime_data.engine
    before = engine.value("1003", "target_temperature")
    conv, (refused,) = await _agent_turn(
        hass,
        None,
        "It's chilly, warm the kitchen up",
        [("control_device", _heater_call(30))],
        "Let me check.",
    )
    assert (
        refused["error"]["code"] == "needs_confirmation"
        and engine.value("1003", "target_temperature") == before
    )
    question = refused["error"]["prompt"]
    assert question == "Heat the room with “Kitchen AC” in Kitchen to 30 °C? Say yes to confirm."
    # the agent did not put the question to the user: a yes then confirms nothing
    conv, (again,) = await _agent_turn(
        hass, conv, "yes", [("control_device", _heater_call(30))], question
    )
    assert again["error"]["code"] == "needs_confirmation"
    # now it did ask (its last reply); the next turn is no yes: still nothing
    conv, (third,) = await _agent_turn(
        hass, conv, "hm, what for?", [("control_device", _heater_call(30))], question
    )
    assert (
        third["error"]["code"] == "needs_confirmation"
        and engine.value("1003", "target_temperature") == before
    )
    # a turn about something else, then a late yes: nothing
    conv, _ = await _agent_turn(hass, conv, "tell me a joke", [], "Why did the thermostat ...")
    conv, (late,) = await _agent_turn(
        hass, conv, "yes", [("control_device", _heater_call(30))], question
    )
    assert (
        late["error"]["code"] == "needs_confirmation"
        and engine.value("1003", "target_temperature") == before
    )
    # asked (the reply above), answered yes on the very next turn: the same call runs
    conv, (done,) = await _agent_turn(
        hass, conv, "Yes, do it.", [("control_device", _heater_call(30))], "Done."
    )
    assert done["ok"] is True, done
    assert engine.value("1003", "target_temperature") == 30
    # a different value was not confirmed
    conv, (other,) = await _agent_turn(
        hass, conv, "thanks", [("control_device", _heater_call(29))], "…"
    )
    assert other["error"]["code"] == "needs_confirmation"


async def test_a_users_own_request_needs_no_question(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    engine = tiny_entry.runtime_data.engine
    name = engine.device("1003").name
    _, (done,) = await _agent_turn(
        hass, None, f"Set the {name} to 30 degrees", [("control_device", _heater_call(30))], "Done."
    )
    assert done["ok"] is True and engine.value("1003", "target_temperature") == 30


async def test_outside_a_conversation_a_high_risk_call_is_refused(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    """No chat log (an MCP client, an AI task): no user to ask, so no consent."""
    api = await llm.async_get_api(hass, "smh", CONTEXT)
    out = result_data(await api.async_call_tool(llm.ToolInput("control_device", _heater_call(30))))
    assert out["error"]["code"] == "needs_confirmation"
    scheduled = result_data(
        await api.async_call_tool(
            llm.ToolInput(
                "schedule_actions", {"at": "2099-01-01T01:00:00", "actions": [_heater_call(30)]}
            )
        )
    )
    assert scheduled["ok"] is False and scheduled["error"]["code"] == "needs_confirmation"
