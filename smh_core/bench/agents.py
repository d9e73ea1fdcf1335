"""Benchmark agents that need no model: ``oracle`` replays a task's reference solution,
``null`` does nothing. They calibrate the verifier: the oracle must score 100% and the null
agent exactly what doing nothing deserves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from smh_core.agent.backend import HomeBackend

from .task import Task
from .verifier import Outcome

UserReply = Callable[[str], str | None]


class BenchAgent(Protocol):
    name: str

    async def run(self, task: Task, backend: HomeBackend, user: UserReply) -> Outcome: ...


class NullAgent:
    name = "null"

    async def run(self, task: Task, backend: HomeBackend, user: UserReply) -> Outcome:
        return Outcome(response="", stop="answered")


class OracleAgent:
    """Replays ``task.reference`` through the backend, as an agent would."""

    name = "oracle"

    async def run(self, task: Task, backend: HomeBackend, user: UserReply) -> Outcome:
        ref = task.reference
        outcome = Outcome(response=ref.response, stop="answered")
        outcome.tool_calls = [{"tool": c.tool, "arguments": dict(c.arguments)} for c in ref.tool_calls]
        if ref.mode == "clarify":
            question = ref.response or "Could you tell me more?"
            outcome.questions.append(question)
            if user(question) is None:
                return outcome
        for action in ref.actions:
            args = {"did": action.did, "locator": action.locator, "arguments": dict(action.arguments)}
            result = backend.execute(action.did, action.locator, dict(action.arguments))
            outcome.tool_calls.append({"tool": "control_device", "arguments": args})
            if not result.get("ok"):
                outcome.invalid_calls += 1
        return outcome
