"""Benchmark agents that need no model: ``oracle`` replays a task's reference solution,
``null`` does nothing. They calibrate the verifier: the oracle must score 100% and the null
agent exactly what doing nothing deserves."""

from __future__ import annotations

import inspect
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
    """Re-scores a recorded run without calling a model: on a fresh home each task's recorded
    actions run again in their order, whatever their kind (device calls, schedules and their
    cancellations, automations and their deletions; reads run too, harmlessly), and the
    recorded reply, questions, memory decision and agent error are reused. A changed verifier
    (or a fixed task) is thereby applied to old traces; on an unchanged one the verdicts are the
    recorded ones (tests/test_replay.py holds the oracle's run of every shipped suite to that).

    Tasks recorded as infrastructure failures have no trace: replaying them is a harness
    failure (``LookupError``), recorded as such and left out of the rates."""

    name = "replay"

    def __init__(self, source: Path) -> None:
        from .results import is_infra, read_records

        results_file = source / "results.jsonl" if source.is_dir() else source
        if not results_file.exists():
            raise FileNotFoundError(f"no recorded run at {source} (expected a run folder or its results.jsonl)")
        self.records: dict[str, dict[str, Any]] = {}
        with results_file.open("rb") as fh:
            for n, record in enumerate(read_records(fh), start=1):
                if "outcome" not in record and not is_infra(record):
                    raise ValueError(f"{results_file}: record {n} is not a results record (needs task_id and outcome)")
                if not is_infra(record):
                    self.records[record["task_id"]] = record

    async def run(self, task: Task, backend: HomeBackend, user: UserReply) -> Outcome:
        record = self.records.get(task.id)
        if record is None:
            raise LookupError(f"no recorded trace for task {task.id}")
        old = record["outcome"]
        outcome = Outcome(response=old.get("response", ""), questions=list(old.get("questions", [])),
                          stop=old.get("stop", ""), usage=dict(record.get("usage", {})),
                          memory_output=old.get("memory_output"), memory_after=old.get("memory_after"),
                          agent_error=old.get("agent_error"), protocol=dict(record.get("protocol", {})))
        for call in old.get("tool_calls", []):
            outcome.tool_calls.append(call)
            result = await replay_call(backend, call.get("tool", ""), call.get("arguments") or {})
            if isinstance(result, dict) and result.get("ok") is False:
                outcome.invalid_calls += 1
        return outcome


async def replay_call(backend: HomeBackend, tool: str, args: dict[str, Any]) -> Any:
    """One recorded call, run again. Calls that change the home go straight to the backend with
    the recorded arguments (the oracle records whole rules and schedules, an agent its tool's
    arguments; both forms are taken); the loop's own tools (finish, ask_user) and memory tools
    leave the home alone and are skipped (the memory outcome is replayed from the record)."""
    from smh_core.agent.tools import TOOLS, dispatch_async

    if tool == "control_device":
        result = backend.execute(str(args.get("did", "")), str(args.get("locator", "")), args.get("arguments") or {})
    elif tool == "schedule_actions" and "at" in args and "actions" in args:
        result = backend.schedule(args["at"], list(args["actions"]))
    elif tool == "create_automation" and "id" in args:
        result = backend.create_automation(dict(args))  # a whole rule, as the oracle records it
    elif tool in TOOLS and TOOLS[tool].run is not None:
        return await dispatch_async(backend, tool, args)
    else:
        return None
    return await result if inspect.isawaitable(result) else result
