"""The LLM client against a local fake OpenAI-compatible server, through the real openai client."""

from __future__ import annotations

import json

import pytest

from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.llm.errors import InfraError
from smh_core.llm.repair import parse_arguments, parse_tool_calls
from tests.support.fake_openai import FakeOpenAI

TOOLS = [
    {"type": "function", "function": {"name": "control_device", "parameters": {"type": "object"}}},
    {"type": "function", "function": {"name": "get_status", "parameters": {"type": "object"}}},
]
NAMES = {"control_device", "get_status"}


def _client(server: FakeOpenAI, **kw) -> LLMClient:
    return LLMClient(LLMConfig(base_url=server.base_url, model="fake-model", api_key="k", **kw))


async def test_tool_call_and_usage(socket_enabled) -> None:
    args = json.dumps({"did": "1001", "locator": "turn_on"})
    async with FakeOpenAI(
        [{"tool_calls": [("control_device", args)], "prompt_tokens": 120, "completion_tokens": 30}]
    ) as server:
        client = _client(server)
        result = await client.chat([{"role": "user", "content": "lamp on"}], tools=TOOLS)
    assert [(c.name, c.arguments) for c in result.parsed.calls] == [
        ("control_device", {"did": "1001", "locator": "turn_on"})
    ]
    assert result.repairs == [] and result.parsed.problems == []
    assert result.usage.to_dict() == {
        "prompt_tokens": 120,
        "completion_tokens": 30,
        "total_tokens": 150,
        "calls": 1,
    }
    assert server.requests[0]["model"] == "fake-model" and server.requests[0]["temperature"] == 0.0
    assert [t["function"]["name"] for t in server.requests[0]["tools"]] == [
        "control_device",
        "get_status",
    ]


async def test_429_then_success_is_retried(socket_enabled) -> None:
    async with FakeOpenAI([{"status": 429}, {"status": 503}, {"content": "done"}]) as server:
        client = _client(server, max_retries=3)
        result = await client.chat([{"role": "user", "content": "hi"}])
    assert result.message["content"] == "done"
    assert len(server.requests) == 3
    assert client.usage.calls == 1


async def test_retries_exhausted_raise_infra_error(socket_enabled) -> None:
    async with FakeOpenAI([{"status": 429}] * 3) as server:
        client = _client(server, max_retries=1)
        with pytest.raises(InfraError) as info:
            await client.chat([{"role": "user", "content": "hi"}])
    assert len(server.requests) == 2
    assert info.value.kind == "rate_limit" and info.value.status == 429


@pytest.mark.parametrize(
    ("raw", "expected", "repair"),
    [
        (json.dumps(json.dumps({"did": "1"})), {"did": "1"}, "double_encoded_arguments"),
        ("", {}, "empty_arguments"),
        ("null", {}, "empty_arguments"),
        ('```json\n{"did": "1"}\n```', {"did": "1"}, "code_fence"),
        ('{"did": "1",}', {"did": "1"}, "trailing_comma"),
    ],
)
async def test_argument_repairs_are_counted(socket_enabled, raw, expected, repair) -> None:
    async with FakeOpenAI([{"tool_calls": [("control_device", raw)]}]) as server:
        result = await _client(server).chat([{"role": "user", "content": "x"}], tools=TOOLS)
    assert result.parsed.calls[0].arguments == expected
    assert repair in result.repairs


async def test_tool_json_written_as_text_is_recovered(socket_enabled) -> None:
    text = 'I will do it.\n<tool_call>{"name": "get_status", "arguments": {"did": "7"}}</tool_call>'
    async with FakeOpenAI([{"content": text}]) as server:
        result = await _client(server).chat([{"role": "user", "content": "x"}], tools=TOOLS)
    assert [(c.name, c.arguments) for c in result.parsed.calls] == [("get_status", {"did": "7"})]
    assert result.repairs == ["text_tool_call"]


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ('{"did": ', "malformed_arguments"),
        ("[1, 2]", "arguments_not_object"),
        ('"just text"', "arguments_not_object"),
    ],
)
def test_unrepairable_arguments_become_problems(raw, kind) -> None:
    msg = {"tool_calls": [{"id": "c1", "function": {"name": "control_device", "arguments": raw}}]}
    parsed = parse_tool_calls(msg, NAMES)
    assert parsed.calls == []
    assert [p.kind for p in parsed.problems] == [kind]
    assert parsed.problems[0].message


def test_unknown_tool_is_a_problem_naming_the_tools() -> None:
    msg = {"tool_calls": [{"id": "c1", "function": {"name": "launch", "arguments": "{}"}}]}
    parsed = parse_tool_calls(msg, NAMES)
    assert parsed.problems[0].kind == "unknown_tool"
    assert "control_device" in parsed.problems[0].message


def test_plain_text_without_tool_json_is_not_a_call() -> None:
    assert parse_tool_calls({"content": "The lamp is on."}, NAMES).calls == []
    assert parse_tool_calls({"content": '{"answer": 3}'}, NAMES).calls == []


def test_parse_arguments_accepts_objects() -> None:
    repairs: list[str] = []
    assert parse_arguments({"a": 1}, repairs) == {"a": 1}
    assert repairs == []
