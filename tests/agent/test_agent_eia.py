"""The EIA tool loop against a fake OpenAI-compatible server and the embedded backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smh_core.agent.eia import EIAAgent
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine
from smh_core.llm.client import LLMClient, LLMConfig
from tests.support.fake_openai import FakeOpenAI

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"


def call(name: str, **args) -> tuple[str, str]:
    return (name, json.dumps(args))


@pytest.fixture
def backend() -> EmbeddedBackend:
    return EmbeddedBackend(HomeEngine.from_file(FIXTURE))


def _agent(server: FakeOpenAI, backend, **kw) -> EIAAgent:
    return EIAAgent(
        LLMClient(LLMConfig(base_url=server.base_url, model="m", api_key="k", max_retries=0)),
        backend,
        **kw,
    )


def _tool_results(request: dict) -> list[dict]:
    return [json.loads(m["content"]) for m in request["messages"] if m["role"] == "tool"]


async def test_tool_loop_succeeds(socket_enabled, backend) -> None:
    script = [
        {"tool_calls": [call("get_device_spec", did="1002")]},
        {
            "tool_calls": [
                call("control_device", did="1002", locator="fan.turn_on"),
                call(
                    "control_device",
                    did="1002",
                    locator="fan.set_speed_level",
                    arguments={"speed_level": "high"},
                ),
            ]
        },
        {"content": "The bathroom fan is on at high speed."},
    ]
    async with FakeOpenAI(script) as server:
        trace = await _agent(server, backend).run("Bathroom fan on high please")
    assert trace.stop == "answered" and trace.answer == "The bathroom fan is on at high speed."
    assert [s["tool"] for s in trace.steps] == [
        "get_device_spec",
        "control_device",
        "control_device",
    ]
    assert backend.engine.status("1002")["fan.speed_level"] == "high"
    assert trace.usage.calls == 3 and trace.usage.total_tokens > 0
    system = server.requests[0]["messages"][0]["content"]
    assert '1002 | "Bathroom Fan Light" | fan_light | r2' in system and "Master Bathroom" in system
    assert "fan.speed_level" not in system  # partial observability: no states or schemas up front


async def test_tool_error_goes_back_with_allowed_values(socket_enabled, backend) -> None:
    script = [
        {
            "tool_calls": [
                call(
                    "control_device",
                    did="1003",
                    locator="set_ac_mode",
                    arguments={"ac_mode": "freeze"},
                )
            ]
        },
        {
            "tool_calls": [
                call(
                    "control_device",
                    did="1003",
                    locator="set_ac_mode",
                    arguments={"ac_mode": "cool"},
                )
            ]
        },
        {"content": "Done."},
    ]
    async with FakeOpenAI(script) as server:
        trace = await _agent(server, backend).run("AC to cooling")
    error = _tool_results(server.requests[1])[0]["error"]
    assert error["code"] == "invalid_option" and error["field"] == "ac_mode"
    assert error["allowed"] == ["heat", "cool", "auto", "dry", "fan_only"]
    assert trace.problems[0]["kind"] == "invalid_option"
    assert trace.stop == "answered"


async def test_malformed_tool_json_is_reported_back_not_fatal(socket_enabled, backend) -> None:
    script = [
        {"tool_calls": [("control_device", '{"did": "1001", "locator": ')]},
        {
            "tool_calls": [
                ("control_device", '"{\\"did\\": \\"1001\\", \\"locator\\": \\"turn_on\\"}"')
            ]
        },
        {"content": "Lamp on."},
    ]
    async with FakeOpenAI(script) as server:
        trace = await _agent(server, backend).run("lamp on")
    reported = _tool_results(server.requests[1])[0]
    assert reported["error"]["code"] == "malformed_arguments"
    assert trace.problems[0]["kind"] == "malformed_arguments"
    assert trace.repairs["double_encoded_arguments"] == 1
    assert backend.engine.value("1001", "state") == "on"


async def test_budget_exhaustion_stops_cleanly(socket_enabled, backend) -> None:
    async with FakeOpenAI([{"tool_calls": [call("get_current_time")]}] * 5) as server:
        trace = await _agent(server, backend, budget=3, repeat_limit=0).run(
            "what time is it, again and again"
        )
    assert trace.stop == "budget"
    assert len(trace.steps) == 3
    assert len(server.requests) == 3


async def test_the_same_call_and_result_three_times_ends_the_turn(socket_enabled, backend) -> None:
    script = [{"tool_calls": [call("get_device_status", did="1001")]}] * 5
    async with FakeOpenAI(script) as server:
        trace = await _agent(server, backend).run("is the lamp on? is it? is it?")
    assert trace.stop == "repeating"
    assert len(trace.steps) == 3 and len(server.requests) == 3


async def test_repeats_with_a_different_result_or_call_in_between_go_on(
    socket_enabled, backend
) -> None:
    status = {"tool_calls": [call("get_device_status", did="1001")]}
    script = [
        status,
        status,
        {"tool_calls": [call("control_device", did="1001", locator="turn_on")]},
        status,  # same call, but the lamp has changed: a new result
        status,
        {"tool_calls": [call("list_rooms"), call("get_device_status", did="1001")]},
        {"content": "The lamp is on."},
    ]
    async with FakeOpenAI(script) as server:
        trace = await _agent(server, backend).run("turn on the lamp and check it")
    assert trace.stop == "answered" and len(trace.steps) == 7
    assert backend.engine.value("1001", "state") == "on"


async def test_three_repeats_in_one_reply_end_the_turn_before_a_fourth_runs(
    socket_enabled, backend
) -> None:
    status = call("get_device_status", did="1001")
    script = [{"tool_calls": [status, status, status, status, call("list_rooms")]}]
    async with FakeOpenAI(script) as server:
        trace = await _agent(server, backend).run("is the lamp on")
    assert trace.stop == "repeating"
    assert [s["tool"] for s in trace.steps] == ["get_device_status"] * 3  # nothing after ran
    assert len(server.requests) == 1


async def test_clarification_round_with_scripted_reply(socket_enabled, backend) -> None:
    script = [
        {"tool_calls": [call("ask_user", question="Which light, the lamp or the fan light?")]},
        {"tool_calls": [call("control_device", did="1001", locator="turn_on")]},
        {"tool_calls": [call("finish", answer="The lamp is on.")]},
    ]
    asked = []
    async with FakeOpenAI(script) as server:
        trace = await _agent(server, backend).run(
            "turn on the light", user=lambda q: asked.append(q) or "the lamp"
        )
    assert asked == ["Which light, the lamp or the fan light?"]
    assert _tool_results(server.requests[1]) == [{"reply": "the lamp"}]
    assert trace.stop == "finished" and trace.answer == "The lamp is on."
    assert backend.engine.value("1001", "state") == "on"


async def test_clarification_without_reply_ends_the_turn(socket_enabled, backend) -> None:
    async with FakeOpenAI([{"tool_calls": [call("ask_user", question="Which room?")]}]) as server:
        trace = await _agent(server, backend).run("make it brighter")
    assert trace.stop == "clarification_pending" and trace.questions == ["Which room?"]
    assert len(server.requests) == 1


async def test_empty_replies_end_without_progress(socket_enabled, backend) -> None:
    async with FakeOpenAI([{"content": ""}, {"content": "  "}]) as server:
        trace = await _agent(server, backend).run("hello?")
    assert trace.stop == "no_progress" and trace.steps == []
