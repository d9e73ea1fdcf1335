"""Direct Reasoning: full context, structured output or parse-and-repair, error classes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smh_core.agent.backend import AsyncAdapter, run_sync
from smh_core.agent.dr import DRAgent, parse_output, serialize_home
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine
from smh_core.llm.client import LLMClient, LLMConfig
from tests.support.fake_openai import FakeOpenAI

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"
GOOD = {
    "mode": "execute",
    "response": "Lamp on at 30%.",
    "actions": [
        {"did": "1001", "locator": "turn_on"},
        {"did": "1001", "locator": "set_brightness", "arguments": {"brightness": 30}},
    ],
}


@pytest.fixture
def backend() -> EmbeddedBackend:
    return EmbeddedBackend(HomeEngine.from_file(FIXTURE))


def _agent(server: FakeOpenAI, backend, structured=None) -> DRAgent:
    return DRAgent(
        LLMClient(LLMConfig(base_url=server.base_url, model="m", api_key="k", max_retries=0)),
        backend,
        structured=structured,
    )


async def test_structured_output_and_replay(socket_enabled, backend) -> None:
    async with FakeOpenAI([{"content": json.dumps(GOOD)}]) as server:
        agent = _agent(server, backend)
        result = await agent.run("lamp on at 30 percent")
    assert result.structured == "json_schema" and result.error_class is None
    assert server.requests[0]["response_format"]["json_schema"]["schema"]["properties"]["mode"][
        "enum"
    ] == ["execute", "clarify", "answer", "automation"]
    results = agent.apply(result.output)
    assert [r["ok"] for r in results] == [True, True]
    assert backend.engine.status("1001")["brightness"] == 30


async def test_endpoint_without_structured_output_falls_back(socket_enabled, backend) -> None:
    text = "Sure! Here you go:\n```json\n" + json.dumps(GOOD) + "\n```"
    async with FakeOpenAI(
        [{"content": text}, {"content": text}], refuse_formats={"json_schema", "json_object"}
    ) as server:
        agent = _agent(server, backend)
        result = await agent.run("lamp on")
        assert [r["response_format"]["type"] for r in server.refused] == [
            "json_schema",
            "json_object",
        ]
        assert "response_format" not in server.requests[0]
        assert result.structured == "text" and agent.structured == "text"
        assert result.output.mode == "execute" and "extracted_json" in result.repairs
        # remembered for the endpoint: the next agent goes straight to plain text
        again = await _agent(server, backend).run("lamp on")
    assert len(server.refused) == 2 and "response_format" not in server.requests[1]
    assert again.structured == "text" and again.output is not None


@pytest.mark.parametrize(
    ("text", "error_class"),
    [
        ("I turned it on.", "FRF"),
        ('{"mode": "execute", "actions": [', "FRF"),
        ('{"mode": "dance"}', "SO"),
        ('{"mode": "execute", "actions": [{"did": "1001"}]}', "SO"),
    ],
)
def test_bad_outputs_are_classified(text, error_class) -> None:
    output, cls, message = parse_output(text, [])
    assert output is None and cls == error_class and message


def test_full_context_has_values_and_deduplicated_schemas(backend) -> None:
    text = run_sync(serialize_home(AsyncAdapter(backend)))
    assert '"target_temperature": 24.0' in text
    assert "fan.set_speed_level" in text
    assert text.count("(floor_ac): ") == 1
    assert '- 1003 | "Kitchen AC" | r3 | S3 |' in text
