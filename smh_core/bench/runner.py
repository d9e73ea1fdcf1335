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
from smh_core.memory.decision import _same_subject, parse_decision
from smh_core.memory.store import MemoryBank
from smh_core.sim.homes import generate_matter_home

from .agents import BenchAgent
from .judge import Judge
from .results import ResultsLog
from .task import MemoryGoal, Task
from .verifier import Outcome, verify
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
    error = None
    try:
        outcome = await agent.run(task, backend, scripted_user(task))
    except Exception as e:  # an agent crash is a result (FRF), never a crashed run
        outcome = Outcome(agent_error="FRF")
        error = f"{type(e).__name__}: {e}"
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
    if error:
        record["error"] = error
    if outcome.usage:
        record["usage"] = outcome.usage
    return record


async def run_suite(tasks: Sequence[Task], agent: BenchAgent, out_dir: Path, workers: int = 1,
                    homes: HomeCache | None = None, judge: Judge | None = None,
                    progress: bool = True) -> ResultsLog:
    out_dir.mkdir(parents=True, exist_ok=True)
    log = ResultsLog(out_dir / "results.jsonl")
    todo = [t for t in tasks if not log.done(t.id)]
    # Group by home so each home model is built once and stays hot in the cache.
    todo.sort(key=lambda t: (t.home.key(), t.id))
    homes = homes or HomeCache()
    sem = asyncio.Semaphore(max(1, workers))
    bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), disable=not progress, unit="task",
               desc=f"{agent.name}")

    async def one(task: Task) -> None:
        async with sem:
            record = await run_task(task, agent, homes, judge)
            log.append(record)
            bar.update(1)

    try:
        await asyncio.gather(*(one(t) for t in todo))
    finally:
        bar.close()
    return log
