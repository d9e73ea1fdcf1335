"""Whatever goes wrong in a turn of SMH's agent, HA's conversation API answers with an error
speech in the conversation result, never an HTTP 500.

Real HA (``api``, ``conversation``), the real ``openai`` client against the fake endpoint, the
request through HA's own REST endpoint ``/api/conversation/process``.
"""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from smh_core.agent.eia import EIAAgent
from tests.ha.conftest import setup_agent_entry
from tests.support.fake_openai import FakeOpenAI

AGENT = "conversation.tiny"
DEEP = 200_000


@pytest.fixture
async def entry(hass: HomeAssistant, tiny_home_file: str, server: FakeOpenAI) -> MockConfigEntry:
    for domain in ("homeassistant", "api", "conversation"):
        assert await async_setup_component(hass, domain, {})
    return await setup_agent_entry(
        hass,
        tiny_home_file,
        {
            "base_url": server.base_url,
            "model": "fake-model",
            "api_key": "k",
            "tool_budget": 3,
            "tools": "home",
        },
    )


async def _process(hass_client: Any, text: str) -> tuple[int, dict[str, Any]]:
    client = await hass_client()
    response = await client.post(
        "/api/conversation/process", json={"text": text, "agent_id": AGENT}
    )
    return response.status, await response.json() if response.status == 200 else {}


@pytest.mark.parametrize(
    "reply",
    [
        {
            "message": {
                "role": "assistant",
                "tool_calls": [
                    {"id": "a", "function": {"name": ["control_device"], "arguments": "{}"}}
                ],
            }
        },
        {
            "message": {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "a",
                        "function": {
                            "name": "control_device",
                            "arguments": "[" * DEEP + "]" * DEEP,
                        },
                    }
                ],
            }
        },
        {
            "message": {
                "role": "assistant",
                "content": '{"tool": "finish", "arguments": ' + "[" * DEEP,
            }
        },
        {
            "message": {
                "role": "assistant",
                "tool_calls": "control_device",
                "content": {"not": "text"},
            }
        },
    ],
    ids=["name-is-a-list", "deep-arguments", "deep-content", "mistyped-fields"],
)
async def test_malformed_model_output_is_an_answer_not_a_500(
    hass: HomeAssistant, entry, server, hass_client, reply: dict[str, Any]
) -> None:
    server.script = [reply]
    server.default = {"content": "I could not do that."}
    before = entry.runtime_data.engine.snapshot().to_dict()
    status, body = await _process(hass_client, "Turn on the lamp")
    assert status == 200
    speech = body["response"]["speech"]["plain"]["speech"]
    # the problem went back to the model, which then answered; or the unparseable text was its answer
    assert speech == "I could not do that." or speech == reply["message"].get("content"), speech[
        :200
    ]
    assert entry.runtime_data.engine.snapshot().to_dict() == before


async def test_any_failure_of_a_turn_is_an_error_speech(
    hass: HomeAssistant, entry, server, hass_client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fault injection: the agent loop itself fails (a bug, not the model's or the endpoint's)."""

    async def broken(*_args: Any, **_kw: Any) -> None:
        raise RuntimeError("a bug in the loop")

    monkeypatch.setattr(EIAAgent, "run", broken)
    status, body = await _process(hass_client, "Turn on the lamp")
    assert status == 200
    assert body["response"]["response_type"] == "error"
    assert (
        body["response"]["speech"]["plain"]["speech"]
        == "SMH's agent failed on this request (RuntimeError)."
    )
