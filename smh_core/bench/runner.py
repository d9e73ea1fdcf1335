"""Run a suite: one fresh home per task, the agent, the verifier, one durable record per task.

Homes are generated or loaded once per distinct home reference and copied per task (a fresh
engine from the cached model), then the task's overrides are applied. Results go to an
append-only :class:`ResultsLog`, so an interrupted run resumes where it stopped; tasks run
concurrently up to ``workers`` (agents spend their time waiting on the LLM).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from tqdm import tqdm

from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine, load_home
from smh_core.homeenv.generator import generate_home
from smh_core.homeenv.model import Home
from smh_core.llm.errors import InfraError
from smh_core.memory.decision import _same_subject, parse_decision
from smh_core.memory.store import MemoryBank
from smh_core.sim.homes import generate_matter_home

from .agents import BenchAgent
from .judge import Judge
from .results import ResultsLog
from .task import MemoryGoal, Task
from .verifier import verify
from .world import World

# No tqdm monitor thread: it only tunes refresh rates, and a stray thread outlives the run.
tqdm.monitor_interval = 0


class HomeCache:
    """Home models by reference; task files' relative paths resolve against ``base``."""

    def __init__(self, base: Path | None = None) -> None:
        self.base = base or Path.cwd()
        self._homes: dict[str, Home] = {}

    def get(self, task: Task) -> Home:
        key = task.home.key()
        home = self._homes.get(key)
        if home is None:
            if task.home.file is not None:
                home = load_home(self.base / task.home.file)
            elif task.home.generator == "matter":
                home = generate_matter_home(task.home.seed)  # type: ignore[arg-type]
            else:
                home = generate_home(task.home.level, task.home.seed)  # type: ignore[arg-type]
            self._homes[key] = home
        return home


def prepare_engine(task: Task, homes: HomeCache) -> HomeEngine:
    engine = HomeEngine(homes.get(task))
    for override in task.overrides:
        result = engine.set_values(override.did, override.values)
        if not result.ok:
            raise ValueError(f"task {task.id}: override of {override.did} is invalid: {result.error}")
    return engine


def scripted_user(task: Task) -> Callable[[str], str | None]:
    """Answers clarification questions with the task's scripted replies, in order."""
    replies = [r for turn in task.turns for r in turn.replies]

    def reply(question: str) -> str | None:
        return replies.pop(0) if replies else None

    return reply


def prepare_world(task: Task, homes: HomeCache) -> World:
    """The task's home with its overrides, on a simulated clock at the task's start time."""
    return World.attach(prepare_engine(task, homes), datetime.fromisoformat(task.start_time))


def bank_after(memory: Sequence[str], decision: str | None) -> list[str]:
    """The memory bank after a MemHome decision, as the paper's pipeline applies it: the bank
    (an in-memory SQLite :class:`MemoryBank` seeded with ``memory``) executes ``memory:`` outputs
    only, with :class:`~smh_core.memory.decision.MemoryRewriter`'s semantics (a write about the
    same devices as its closest entry replaces it, ``memory: delete`` removes the closest entry)
    but without its write veto: the benchmark scores what the model decided."""
    bank = MemoryBank()
    try:
        for entry in memory:
            bank.add("user", entry)
        parsed = parse_decision(decision or "")
        memory_op = parsed.kind in ("memory_add", "memory_delete") and parsed.content
        closest = bank.find("user", parsed.content) if memory_op else None
        if parsed.kind == "memory_add":
            if closest is not None and _same_subject(closest.content, parsed.content):
                bank.update("user", closest.id, parsed.content)
            else:
                bank.add("user", parsed.content)
        elif parsed.kind == "memory_delete" and closest is not None:
            bank.delete("user", closest.id)
        return [m.content for m in bank.all("user")]
    finally:
        bank.close()


async def run_task(task: Task, agent: BenchAgent, homes: HomeCache, judge: Judge | None = None) -> dict[str, Any]:
    world = prepare_world(task, homes)
    engine = world.engine
    backend = EmbeddedBackend(engine, sim=world.sim)
    before = engine.snapshot()
    t0 = time.perf_counter()
    try:
        outcome = await agent.run(task, backend, scripted_user(task))
    except Exception as e:  # never the model's failure, never a crashed run: recorded, re-run on resume
        world.close()
        return infra_record(task, agent, e, time.perf_counter() - t0)
    seconds = time.perf_counter() - t0
    after = engine.snapshot()
    if outcome.memory_after is None and (isinstance(task.goal, MemoryGoal) or outcome.memory_output is not None):
        outcome.memory_after = bank_after(task.memory, outcome.memory_output)
    try:
        verdict = await verify(task, before, after, outcome, judge, world)
    finally:
        world.close()
    record = {
        "task_id": task.id, "suite": task.suite, "category": task.category, "subcategory": task.subcategory,
        "difficulty": task.difficulty, "agent": agent.name, "passed": verdict.passed,
        "verdict": verdict.to_dict(), "seconds": round(seconds, 4),
        "outcome": {"response": outcome.response, "questions": outcome.questions,
                    "tool_calls": outcome.tool_calls, "stop": outcome.stop, "invalid_calls": outcome.invalid_calls},
        "changes": [c.to_dict() for c in engine.diff(before, after) if not world.ignored(c.did, c.locator)],
    }
    if outcome.memory_output is not None or outcome.memory_after is not None:
        record["outcome"].update(memory_output=outcome.memory_output, memory_after=outcome.memory_after)
    if outcome.protocol:
        record["protocol"] = outcome.protocol
    if outcome.usage:
        record["usage"] = outcome.usage
    return record


def infra_record(task: Task, agent: BenchAgent, error: BaseException, seconds: float) -> dict[str, Any]:
    """The record of a task the endpoint or the harness failed: not scored (``infra``), so
    success rates leave it out and a resumed run tries it again. An exception that is not an
    :class:`InfraError` is the harness's own fault (kind ``harness``)."""
    info = (error.to_dict() if isinstance(error, InfraError)
            else {"kind": "harness", "message": f"{type(error).__name__}: {error}"[:500], "status": None})
    return {"task_id": task.id, "suite": task.suite, "category": task.category, "subcategory": task.subcategory,
            "difficulty": task.difficulty, "agent": agent.name, "passed": False, "infra": info,
            "verdict": {"passed": False, "reason": f"not scored: {info['kind']}: {info['message']}",
                        "error_class": "INFRA", "decided_by": "harness", "details": {}},
            "seconds": round(seconds, 4)}


class EndpointDown(RuntimeError):
    """Too many tasks in a row failed for reasons outside the model; the run stops early."""


UNREACHABLE = frozenset({"connection", "auth", "not_found"})
"""Infra kinds that will not fix themselves between tasks."""


async def run_suite(tasks: Sequence[Task], agent: BenchAgent, out_dir: Path, workers: int = 1,
                    homes: HomeCache | None = None, judge: Judge | None = None,
                    progress: bool = True, stop_after_infra: int = 8) -> ResultsLog:
    """Run every task not yet scored in ``out_dir``. ``stop_after_infra`` consecutive infra
    failures of a kind that will not fix itself (connection refused, bad key, unknown model)
    stop the run with :class:`EndpointDown` instead of burning through the suite; what was
    recorded stays, and re-running the same command resumes."""
    out_dir.mkdir(parents=True, exist_ok=True)
    log = ResultsLog(out_dir / "results.jsonl")
    todo = [t for t in tasks if not log.done(t.id)]
    # Group by home so each home model is built once and stays hot in the cache.
    todo.sort(key=lambda t: (t.home.key(), t.id))
    homes = homes or HomeCache()
    sem = asyncio.Semaphore(max(1, workers))
    bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), disable=not progress, unit="task",
               desc=f"{agent.name}")

    streak: list[str] = []
    stop = asyncio.Event()

    async def one(task: Task) -> None:
        async with sem:
            if stop.is_set():
                return
            record = await run_task(task, agent, homes, judge)
            log.append(record)
            bar.update(1)
            kind = (record.get("infra") or {}).get("kind")
            if kind in UNREACHABLE:
                streak.append(record["infra"]["message"])
                if len(streak) >= stop_after_infra:
                    stop.set()
            else:
                streak.clear()

    try:
        await asyncio.gather(*(one(t) for t in todo))
    finally:
        bar.close()
        close = getattr(agent, "aclose", None)
        if close is not None:
            await close()
    if stop.is_set():
        raise EndpointDown(f"stopped after {len(streak)} tasks in a row failed outside the model "
                           f"(last: {streak[-1]}); {len(log.scored())} tasks are scored in {log.path}. "
                           "Fix the endpoint and run the same command again to resume.")
    return log
