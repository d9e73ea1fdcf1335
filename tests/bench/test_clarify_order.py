"""A clarify task is judged on the order of the agent's trace: the agent must ask before it
changes the home (SMH-Bench's ambiguous intent). Acting and then asking, in the same turn or
in DR's clarify mode (which carries out its plan and then asks), fails as the wrong mode (MS),
whatever the home looks like after the reply; reading the home before asking does not count.
The real EIA and DR bench agents run against the fake OpenAI-compatible server, behind the
action guard, as every run does; a replay of a recorded run keeps the order and the verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from smh_core.bench.agents import OracleAgent, ReplayAgent
from smh_core.bench.llm_agents import DRBenchAgent, EIABenchAgent
from smh_core.bench.runner import run_task
from smh_core.llm.client import LLMConfig
from smh_core.task.home import HomeCache
from smh_core.task.model import iter_tasks
from tests.support.fake_openai import FakeOpenAI

FIXTURES = Path(__file__).parents[1] / "fixtures"
TASK = next(t for t in iter_tasks(FIXTURES / "tasks_tiny.jsonl") if t.id == "clarify-2")
""""Make the lamp brighter." -> "How bright?" -> "70 percent": lamp 1001 on at brightness 70."""

ON = ("control_device", json.dumps({"did": "1001", "locator": "turn_on"}))
DIM = (
    "control_device",
    json.dumps({"did": "1001", "locator": "set_brightness", "arguments": {"brightness": 70}}),
)
ASK = ("ask_user", json.dumps({"question": "How bright?"}))
READ = ("device_status", json.dumps({"did": "1001"}))
ACTED = (
    "acted before asking for the missing information (2 state-changing calls before the question)"
)


def _config(server: FakeOpenAI) -> LLMConfig:
    return LLMConfig(
        base_url=server.base_url, model="m", api_key="k", max_retries=0, tool_protocol="native"
    )


def _plan(mode: str, *actions: dict[str, Any], response: str = "") -> dict[str, Any]:
    return {"content": json.dumps({"mode": mode, "response": response, "actions": list(actions)})}


LAMP_ON = {"did": "1001", "locator": "turn_on", "arguments": {}}
LAMP_70 = {"did": "1001", "locator": "set_brightness", "arguments": {"brightness": 70}}


async def _run(agent: Any, script: list[dict[str, Any]]) -> dict[str, Any]:
    async with FakeOpenAI(script) as server:
        record = await run_task(TASK, agent(_config(server)), HomeCache(FIXTURES))
        assert server.script == [], "the agent did not play the whole script"
    assert "infra" not in record, record.get("infra")
    return record


def _lamp(record: dict[str, Any]) -> dict[str, Any]:
    return {c["locator"]: c["after"] for c in record["changes"] if c["did"] == "1001"}


async def test_eia_acting_then_asking_in_one_turn_is_the_wrong_mode(socket_enabled) -> None:
    """The home meets the goal after the reply, but the lamp was changed before the question."""
    record = await _run(
        EIABenchAgent, [{"tool_calls": [ON, DIM, ASK]}, {"content": "It is at 70 percent now."}]
    )
    assert _lamp(record) == {"state": "on", "brightness": 70}  # the goal state, reached
    assert not record["passed"]
    assert (record["verdict"]["reason"], record["verdict"]["error_class"]) == (ACTED, "MS")
    assert record["verdict"]["details"]["acted"] == [
        {"tool": "control_device", "arguments": LAMP_ON},
        {"tool": "control_device", "arguments": LAMP_70},
    ]
    assert record["outcome"]["acted_before_asking"] == record["verdict"]["details"]["acted"]


async def test_eia_acting_in_one_call_and_asking_in_the_next_is_the_wrong_mode(
    socket_enabled,
) -> None:
    record = await _run(
        EIABenchAgent,
        [
            {"tool_calls": [ON]},
            {"tool_calls": [ASK]},
            {"tool_calls": [DIM]},
            {"content": "Done."},
        ],
    )
    assert record["verdict"]["error_class"] == "MS" and not record["passed"]
    assert record["verdict"]["details"]["acted"] == [
        {"tool": "control_device", "arguments": LAMP_ON}
    ]


@pytest.mark.parametrize(
    "script",
    [
        [{"tool_calls": [ASK]}, {"tool_calls": [ON, DIM]}, {"content": "Done."}],
        [{"tool_calls": [ASK, ON, DIM]}, {"content": "Done."}],  # asked first in one batch
        [
            {"tool_calls": [READ]},
            {"tool_calls": [ASK]},
            {"tool_calls": [ON, DIM]},
            {"content": "."},
        ],
    ],
    ids=["ask-then-act", "ask-then-act-one-batch", "read-then-ask-then-act"],
)
async def test_eia_asking_first_passes(socket_enabled, script: list[dict[str, Any]]) -> None:
    record = await _run(EIABenchAgent, script)
    assert record["passed"], record["verdict"]
    assert "acted_before_asking" not in record["outcome"]


async def test_a_call_the_home_refused_before_asking_changed_nothing(socket_enabled) -> None:
    """Setting the brightness of a lamp that is off is refused: nothing ran, so asking after it
    is still asking first."""
    record = await _run(
        EIABenchAgent,
        [{"tool_calls": [DIM]}, {"tool_calls": [ASK]}, {"tool_calls": [ON, DIM]}, {"content": "."}],
    )
    assert record["outcome"]["invalid_calls"] == 1
    assert record["passed"], record["verdict"]


async def test_dr_clarify_mode_with_actions_acts_before_it_asks(socket_enabled) -> None:
    """DR's clarify mode carries out the plan's actions, then asks: the wrong mode."""
    record = await _run(
        DRBenchAgent,
        [_plan("clarify", LAMP_ON, LAMP_70, response="How bright?"), _plan("execute")],
    )
    assert _lamp(record) == {"state": "on", "brightness": 70}
    assert (record["verdict"]["reason"], record["verdict"]["error_class"]) == (ACTED, "MS")


async def test_dr_clarify_mode_without_actions_then_the_plan_passes(socket_enabled) -> None:
    record = await _run(
        DRBenchAgent,
        [_plan("clarify", response="How bright?"), _plan("execute", LAMP_ON, LAMP_70)],
    )
    assert record["passed"], record["verdict"]


async def test_the_oracle_asks_first_and_passes() -> None:
    record = await run_task(TASK, OracleAgent(), HomeCache(FIXTURES))
    assert record["passed"] and "acted_before_asking" not in record["outcome"]


@pytest.mark.parametrize(
    ("agent", "script"),
    [
        (
            DRBenchAgent,
            [_plan("clarify", LAMP_ON, LAMP_70, response="How bright?"), _plan("execute")],
        ),
        (
            DRBenchAgent,
            [_plan("clarify", response="How bright?"), _plan("execute", LAMP_ON, LAMP_70)],
        ),
        (EIABenchAgent, [{"tool_calls": [ON, DIM, ASK]}, {"content": "It is at 70 percent."}]),
        (EIABenchAgent, [{"tool_calls": [READ, ASK]}, {"tool_calls": [ON, DIM]}, {"content": "."}]),
    ],
    ids=["dr-acted-first", "dr-asked-first", "eia-acted-first", "eia-asked-first"],
)
async def test_a_replay_keeps_the_order_and_the_verdict(
    socket_enabled, tmp_path, agent: Any, script: list[dict[str, Any]]
) -> None:
    """Re-scoring a recorded run asks where the agent asked (DR's question after its plan's
    actions), so acting first still fails and asking first still passes."""
    record = await _run(agent, script)
    (tmp_path / "results.jsonl").write_text(json.dumps(record) + "\n")
    again = await run_task(TASK, ReplayAgent(tmp_path), HomeCache(FIXTURES))
    assert (again["passed"], again["verdict"]["reason"]) == (
        record["passed"],
        record["verdict"]["reason"],
    )
    assert again["outcome"].get("acted_before_asking") == record["outcome"].get(
        "acted_before_asking"
    )
