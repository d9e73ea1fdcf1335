"""Memory tools in the EIA loop (real openai client, fake server), and SAGE's profile."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from smh_core.agent.eia import EIAAgent
from smh_core.agent.memory_tools import MEMORY_TOOLS, UserMemory, dispatch_memory
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine
from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.memory.profile import ProfileBuilder, ProfileStore
from smh_core.memory.store import MemoryBank
from tests.support.fake_openai import FakeOpenAI

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"


def call(name: str, **args) -> tuple[str, str]:
    return (name, json.dumps(args))


def llm(server: FakeOpenAI) -> LLMClient:
    return LLMClient(LLMConfig(base_url=server.base_url, model="m", api_key="k", max_retries=0))


@pytest.fixture
def backend() -> EmbeddedBackend:
    return EmbeddedBackend(HomeEngine.from_file(FIXTURE))


@pytest.fixture
def memory() -> UserMemory:
    return UserMemory(MemoryBank(), user="alice")


def tool_results(request: dict) -> list[dict]:
    return [json.loads(m["content"]) for m in request["messages"] if m["role"] == "tool"]


async def test_memory_tools_are_offered_only_with_a_memory(socket_enabled, backend, memory) -> None:
    async with FakeOpenAI([{"content": "hi"}, {"content": "hi"}]) as server:
        await EIAAgent(llm(server), backend).run("hello")
        await EIAAgent(llm(server), backend, memory=memory).run("hello")
    names = [{t["function"]["name"] for t in r["tools"]} for r in server.requests]
    assert not names[0] & set(MEMORY_TOOLS)
    assert names[1] >= set(MEMORY_TOOLS)
    assert "recall_memory" in server.requests[1]["messages"][0]["content"]


async def test_remember_then_use_in_a_later_turn(socket_enabled, backend, memory) -> None:
    """Turn 1 stores a preference the user asked to remember; turn 2 ("as usual") recalls it
    and applies it to the device."""
    script = [
        {"tool_calls": [call("remember", content="For the AC the user likes cool mode.")]},
        {"content": "Noted."},
        {"tool_calls": [call("recall_memory", query="AC usual mode")]},
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
        {"content": "The AC is in cool mode, as usual."},
    ]
    async with FakeOpenAI(script) as server:
        agent = EIAAgent(llm(server), backend, memory=memory)
        first = await agent.run("Please remember that I like the AC in cool mode.")
        second = await agent.run("Set the AC the usual way.")
    assert first.stop == "answered" and [m.content for m in memory.bank.all("alice")] == [
        "For the AC the user likes cool mode."
    ]
    recalled = tool_results(server.requests[3])[0]
    assert recalled["memories"][0]["content"] == "For the AC the user likes cool mode."
    assert second.stop == "answered"
    assert backend.engine.status("1003")["ac_mode"] == "cool"


async def test_refused_write_goes_back_to_the_model(socket_enabled, backend, memory) -> None:
    script = [
        {
            "tool_calls": [
                call("remember", content="The user's phone number is 555-123-4567, for the lock.")
            ]
        },
        {"content": "I can't store personal numbers."},
    ]
    async with FakeOpenAI(script) as server:
        trace = await EIAAgent(llm(server), backend, memory=memory).run(
            "Remember my phone number 555-123-4567 for the door lock."
        )
    result = tool_results(server.requests[1])[0]
    assert result["ok"] is False and result["error"]["code"] == "memory_refused"
    assert "personal identifier" in result["error"]["message"]
    assert memory.bank.all("alice") == []
    assert trace.problems[0]["kind"] == "memory_refused"


@pytest.mark.parametrize(
    ("request_text", "reason"),
    [
        ("Turn the bedroom light to 30% just for tonight, remember that", "temporary request"),
        ("The bedroom light at 30% is nice", "no explicit request to remember"),
        ("Remember that my sister's birthday is in May", "not device-related"),
    ],
)
def test_write_rules_at_the_tool_boundary(memory, request_text, reason) -> None:
    memory.request = request_text
    out = dispatch_memory(memory, "remember", {"content": request_text})
    assert out["ok"] is False and reason in out["error"]["message"]
    assert memory.bank.all("alice") == []


def test_update_forget_and_bad_arguments(memory) -> None:
    memory.request = "From now on remember the living room light at 40%"
    added = dispatch_memory(memory, "remember", {"content": "Living room light at 40%"})
    mid = added["memory"]["id"]
    again = dispatch_memory(memory, "remember", {"content": "living room light at 40%"})
    assert again["note"] == "already stored" and len(memory.bank.all("alice")) == 1
    assert dispatch_memory(
        memory, "update_memory", {"memory_id": mid, "content": "Living room light at 60%"}
    )["ok"]
    assert memory.bank.get("alice", mid).content == "Living room light at 60%"
    missing = dispatch_memory(memory, "forget_memory", {"memory_id": mid + 1})
    assert missing["error"]["code"] == "unknown_memory" and missing["error"]["allowed"] == [mid]
    bad = dispatch_memory(memory, "update_memory", {"memory_id": "x", "content": "y"})
    assert bad["error"]["code"] == "invalid_tool_arguments" and bad["error"]["field"] == "memory_id"
    assert dispatch_memory(memory, "forget_memory", {"memory_id": mid})["deleted"]["id"] == mid
    assert memory.bank.all("alice") == []


async def test_profile_is_summarised_per_day_and_overall(socket_enabled, tmp_path) -> None:
    store = ProfileStore(tmp_path / "profile.db")
    store.log("alice", date(2026, 11, 20), "bedroom AC to 24 degrees", "set 1003 target 24")
    store.log("alice", date(2026, 11, 20), "dim the bedroom light", "brightness 20")
    script = [
        {"content": "Sets the bedroom AC to 24 °C and dims the bedroom light in the evening."},
        {"content": "Prefers the bedroom at 24 °C with dim light in the evening."},
    ]
    async with FakeOpenAI(script) as server:
        update = await ProfileBuilder(llm(server), store).summarize_day("alice", date(2026, 11, 20))
    day_prompt = server.requests[0]["messages"][0]["content"]
    assert "bedroom AC to 24 degrees -> set 1003 target 24" in day_prompt
    assert update.daily in server.requests[1]["messages"][0]["content"]
    assert update.usage.calls == 2
    reopened = ProfileStore(tmp_path / "profile.db")  # it persists
    assert (
        reopened.summary("alice") == "Prefers the bedroom at 24 °C with dim light in the evening."
    )
    assert reopened.daily("alice") == [("2026-11-20", update.daily)]

    memory = UserMemory(MemoryBank(), user="alice", profile=reopened)
    memory.request = "remember: bedroom light dim at night"
    dispatch_memory(memory, "remember", {"content": "Bedroom light dim at night"})
    evidence = dispatch_memory(
        memory, "get_user_preferences", {"question": "how do I like the bedroom light?"}
    )
    assert evidence["memories"][0]["content"] == "Bedroom light dim at night"
    assert evidence["profile"].startswith("Prefers the bedroom at 24")
    assert evidence["recent_days"][0]["day"] == "2026-11-20"


async def test_profile_needs_interactions(socket_enabled) -> None:
    async with FakeOpenAI([]) as server:
        with pytest.raises(ValueError, match="no interactions"):
            await ProfileBuilder(llm(server), ProfileStore()).summarize_day("bob", "2026-11-20")
    assert server.requests == []


async def test_preference_tool_answers_from_memory_and_profile(socket_enabled, backend) -> None:
    """SAGE's personalization tool: with answer_preferences the tool itself asks the model,
    giving it the matching memories and the profile, and returns the answer."""
    store = ProfileStore()
    store.set_summary("alice", "*", "Keeps the bedroom at 24 °C in the evening.")
    memory = UserMemory(MemoryBank(), user="alice", profile=store, answer_preferences=True)
    memory.bank.add("alice", "The bedroom light should be dim at night.")
    script = [
        {
            "tool_calls": [
                call("get_user_preferences", question="How does alice like the bedroom at night?")
            ]
        },
        {"content": "Dim light and 24 °C."},
        {"content": "Dim and warm: 24 °C."},
    ]
    async with FakeOpenAI(script) as server:
        trace = await EIAAgent(llm(server), backend, memory=memory).run(
            "Make the bedroom how I like it at night"
        )
    prompt = server.requests[1]["messages"][0]["content"]
    assert (
        "The bedroom light should be dim at night." in prompt and "24 °C in the evening" in prompt
    )
    result = tool_results(server.requests[2])[0]
    assert result["answer"] == "Dim light and 24 °C." and result["memories"]
    assert trace.usage.calls == 3
