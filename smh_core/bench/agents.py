"""Benchmark agents that need no model: ``oracle`` replays a task's reference solution,
``null`` does nothing. They calibrate the verifier: the oracle must score 100% and the null
agent exactly what doing nothing deserves."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

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
        outcome = Outcome(response=ref.response, stop="answered", memory_output=ref.memory_output)
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
        for item in ref.schedules:
            result = backend.schedule(item["at"], item["actions"])
            outcome.tool_calls.append({"tool": "schedule_actions", "arguments": dict(item)})
            if not result.get("ok"):
                outcome.invalid_calls += 1
        for rule in ref.automations:
            result = backend.create_automation(rule)
            outcome.tool_calls.append({"tool": "create_automation", "arguments": dict(rule)})
            if not result.get("ok"):
                outcome.invalid_calls += 1
        return outcome


class ReplayAgent:
    """Re-scores a recorded run without calling a model: each task's recorded control calls are
    replayed on a fresh home and its recorded reply and questions are reused, so a changed
    verifier (or a fixed task) can be applied to old traces."""

    name = "replay"

    def __init__(self, results_file: Path) -> None:
        self.records: dict[str, dict[str, Any]] = {}
        for n, line in enumerate(results_file.read_text(encoding="utf-8").splitlines(), start=1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn final line of an interrupted run
            if "task_id" not in record or "outcome" not in record:
                raise ValueError(f"{results_file}:{n}: not a results record (needs task_id and outcome)")
            self.records.setdefault(record["task_id"], record)

    async def run(self, task: Task, backend: HomeBackend, user: UserReply) -> Outcome:
        record = self.records.get(task.id)
        if record is None:
            raise LookupError(f"no recorded trace for task {task.id}")
        old = record["outcome"]
        outcome = Outcome(response=old.get("response", ""), questions=list(old.get("questions", [])),
                          stop=old.get("stop", ""), usage=dict(record.get("usage", {})),
                          memory_output=old.get("memory_output"), memory_after=old.get("memory_after"))
        for call in old.get("tool_calls", []):
            outcome.tool_calls.append(call)
            if call.get("tool") != "control_device":
                continue
            args = call.get("arguments", {})
            result = backend.execute(args.get("did", ""), args.get("locator", ""), args.get("arguments") or {})
            if not result.get("ok"):
                outcome.invalid_calls += 1
        return outcome
