"""One rule for "the agent asked the user" (:mod:`smh_core.bench.asking`): a reply that ends with
a question mark asks, in the suites' five languages, and an EIA agent that ends its turn with a
question in words asks as one that calls ``ask_user`` does: it gets the task's scripted reply as
the user's next turn and is judged on the order of its trace (acting before the question fails).
The real EIA bench agent on the fake OpenAI-compatible server, behind the action guard, as every
run does; tests/ha/test_ha_runner_clarify.py plays the same scripts through Home Assistant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from smh_core.bench.agents import ReplayAgent
from smh_core.bench.asking import asks, is_question, scripted_user, unreported
from smh_core.bench.llm_agents import EIABenchAgent
from smh_core.bench.runner import run_task
from smh_core.llm.client import LLMConfig
from smh_core.task.home import HomeCache
from smh_core.task.model import iter_tasks
from tests.support.fake_openai import FakeOpenAI

FIXTURES = Path(__file__).parents[1] / "fixtures"
TASKS = {t.id: t for t in iter_tasks(FIXTURES / "tasks_tiny.jsonl")}
TASK = TASKS["clarify-2"]
""""Make the lamp brighter." -> the scripted reply "70 percent" -> lamp 1001 on at 70."""
NO_REPLY = TASKS["clarify-1"]
""""Set the brightness." with no scripted reply: asking is the goal."""

ON = ("control_device", json.dumps({"did": "1001", "locator": "turn_on"}))
DIM = (
    "control_device",
    json.dumps({"did": "1001", "locator": "set_brightness", "arguments": {"brightness": 70}}),
)
QUESTION = "Which brightness would you like, in percent?"


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Which light do you mean, the one in the study or the hall?", True),
        ("Welche Lampe meinst du?", True),
        ("¿Qué luz quieres encender?", True),
        ("Tu parles de quelle pièce ?", True),  # French's space before the mark
        ("要设成多少度？", True),
        ("Which one? \n", True),
        ("Which one? There are 3.", False),  # a remark after the question: it ends as a statement
        ("Tell me how bright.", False),
        ("¿Qué luz quieres", False),  # opened, never closed
        ("Which one…", False),
        ('"Which one?"', False),  # nothing is guessed past the last mark
        ("", False),
    ],
)
def test_a_question_ends_with_a_question_mark(text: str, question: bool) -> None:
    assert is_question(text) is question
    assert asks(None, text) is question
    assert asks(False, text) is question  # HA's false is its default, not the agent's word


def test_the_agents_own_signal_asks_whatever_the_text() -> None:
    assert asks(True, "Tell me how bright.")


def test_scripted_replies_come_in_order_one_per_question() -> None:
    task = TASK.model_copy(update={"turns": [*TASK.turns, TASK.turns[0]]})
    user = scripted_user(task)
    assert [user("a?"), user("b?"), user("c?")] == ["70 percent", "70 percent", None]


def test_a_reply_holding_a_reported_question_is_not_a_second_one() -> None:
    guard = "Turn on the oven? Say yes to confirm."
    assert unreported(["How bright?", guard], ["How bright?", f"I can. {guard}", "Which?"]) == [
        "Which?"
    ]


def _config(server: FakeOpenAI) -> LLMConfig:
    return LLMConfig(
        base_url=server.base_url, model="m", api_key="k", max_retries=0, tool_protocol="native"
    )


async def _run(task: Any, script: list[dict[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """The task's record and what the model was told the user said, request by request."""
    async with FakeOpenAI(script) as server:
        record = await run_task(task, EIABenchAgent(_config(server)), HomeCache(FIXTURES))
        assert server.script == [], "the agent did not play the whole script"
        said = [
            next(m["content"] for m in reversed(r["messages"]) if m["role"] == "user")
            for r in server.requests
        ]
    assert "infra" not in record, record.get("infra")
    return record, said


async def test_asking_in_words_gets_the_reply_as_the_next_turn_and_passes(socket_enabled) -> None:
    record, said = await _run(
        TASK,
        [{"content": QUESTION}, {"tool_calls": [ON, DIM]}, {"content": "It is at 70 percent."}],
    )
    assert record["passed"], record["verdict"]
    assert said == [TASK.turns[0].text, "70 percent", "70 percent"]
    assert record["outcome"]["questions"] == [QUESTION]
    assert record["outcome"]["stop"] == "answered"
    assert "acted_before_asking" not in record["outcome"]


async def test_a_question_as_finish_s_answer_asks_too(socket_enabled) -> None:
    finish = ("finish", json.dumps({"answer": QUESTION}))
    record, _ = await _run(
        TASK, [{"tool_calls": [finish]}, {"tool_calls": [ON, DIM]}, {"content": "Done."}]
    )
    assert record["passed"], record["verdict"]


async def test_acting_then_asking_in_words_is_the_wrong_mode(socket_enabled) -> None:
    """The lamp ends as the goal wants, but it was changed before the question."""
    record, said = await _run(
        TASK,
        [
            {"tool_calls": [ON, DIM]},
            {"content": f"I set it to 70. {QUESTION}"},
            {"content": "It stays at 70 percent."},
        ],
    )
    assert not record["passed"]
    assert record["verdict"]["error_class"] == "MS"
    assert record["verdict"]["reason"].startswith("acted before asking")
    assert len(record["outcome"]["acted_before_asking"]) == 2
    assert said[-1] == "70 percent"  # it was answered, as through HA


async def test_without_a_reply_left_the_turn_ends_on_the_question(socket_enabled) -> None:
    record, said = await _run(NO_REPLY, [{"content": QUESTION}])
    assert record["passed"], record["verdict"]
    assert said == [NO_REPLY.turns[0].text]
    assert (record["outcome"]["questions"], record["outcome"]["stop"]) == (
        [QUESTION],
        "clarification_pending",
    )


async def test_a_statement_does_not_ask(socket_enabled) -> None:
    """No question mark at the end: no scripted reply, no question, the clarify goal fails."""
    record, said = await _run(NO_REPLY, [{"content": "Tell me which brightness you want."}])
    assert not record["passed"] and record["verdict"]["reason"] == "did not ask for clarification"
    assert record["outcome"]["questions"] == [] and said == [NO_REPLY.turns[0].text]


@pytest.mark.parametrize(
    "script",
    [
        [{"content": QUESTION}, {"tool_calls": [ON, DIM]}, {"content": "Done."}],
        [{"tool_calls": [ON, DIM]}, {"content": QUESTION}, {"content": "Done."}],
    ],
    ids=["asked-first", "acted-first"],
)
async def test_a_replay_of_a_question_in_words_keeps_the_verdict(
    socket_enabled, tmp_path, script: list[dict[str, Any]]
) -> None:
    record, _ = await _run(TASK, script)
    (tmp_path / "results.jsonl").write_text(json.dumps(record) + "\n")
    again = await run_task(TASK, ReplayAgent(tmp_path), HomeCache(FIXTURES))
    assert (again["passed"], again["verdict"]["reason"]) == (
        record["passed"],
        record["verdict"]["reason"],
    )
