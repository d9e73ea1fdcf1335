"""Run a suite: one fresh home per task, the agent, the verifier, one durable record per task.

Homes are generated or loaded once per distinct home reference and copied per task (a fresh
engine from the cached model), then the task's overrides are applied. Results go to an
append-only :class:`ResultsLog`, so an interrupted run resumes where it stopped; tasks run
concurrently up to ``workers`` (agents spend their time waiting on the LLM).

Task files are input and may be wrong or hostile: a home file must stay inside its task file's
directory (unless explicitly allowed) and its errors never quote its contents, and a task that
cannot be prepared (:class:`TaskError`) is recorded as a ``task_error`` and the run goes on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from smh_core.agent.safety import ActionGuard, GuardedBackend
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv import critic as critic_lang
from smh_core.llm.errors import InfraError
from smh_core.progress import tqdm
from smh_core.task.home import HomeCache, TaskError, prepare_engine
from smh_core.task.model import MemoryGoal, Task

from .agents import BenchAgent
from .asking import AskOrder, scripted_user
from .claims import Claim, said_versus_did
from .consent_user import simulated_confirmation
from .judge import Judge
from .results import ResultsLog, bench_record_problem, is_task_error
from .verifier import Outcome, verify
from .world import World


def _critics(task: Task) -> Iterator[tuple[str, str]]:
    """Every critic of the task's goal (or goals), with its field path."""
    paths = ["goal"] if task.goal is not None else [f"goals.{i}" for i in range(len(task.goals))]
    for path, goal in zip(paths, task.all_goals, strict=True):
        if isinstance(getattr(goal, "critic", None), str):
            yield f"{path}.critic", goal.critic  # type: ignore[union-attr]
        then = getattr(goal, "then", None)
        if then is not None:
            yield f"{path}.then.critic", then.critic
        for n, checkpoint in enumerate(getattr(goal, "checkpoints", None) or []):
            yield f"{path}.checkpoints.{n}.critic", checkpoint.critic


def check_critics(task: Task) -> None:
    """Parse the goal's critics before the agent runs: a critic that does not parse would
    otherwise crash the verifier after the model call was paid for."""
    for field, text in _critics(task):
        try:
            critic_lang.parse(text)
        except critic_lang.CriticSyntaxError as e:
            raise TaskError(task.id, "goal", f"{field}: {e.message} at column {e.pos}") from None


def prepare_world(task: Task, homes: HomeCache) -> World:
    """The task's home with its overrides, on a simulated clock at the task's start time;
    :class:`TaskError` when the task cannot be prepared."""
    check_critics(task)
    try:
        start = datetime.fromisoformat(task.start_time)
    except (TypeError, ValueError):  # only a Task built without validation gets here
        raise TaskError(
            task.id, "start_time", "start_time is not an ISO 8601 local date-time"
        ) from None
    return World.attach(prepare_engine(task, homes), start)


def user_words(task: Task) -> list[str]:
    """What the user of a task says before any reply: earlier user turns of the dialogue and
    every turn of the task (scripted clarification replies are heard as they are given)."""
    return [m.content for m in task.history if m.role == "user"] + [t.text for t in task.turns]


def settle_memory(task: Task, outcome: Outcome) -> None:
    """The user's memory bank after the turn, from the agent's memory decision, where the agent
    did not give the bank itself (MemHome tasks, and any turn that made a decision). Every runner
    settles it the same way, so a memory goal is judged alike on the simulator and on a real home."""
    if outcome.memory_after is None and (
        isinstance(task.goal, MemoryGoal) or outcome.memory_output is not None
    ):
        from smh_core.memory.decision import bank_after  # MemHome tasks only (10 ms to import)

        outcome.memory_after = bank_after(task.memory, outcome.memory_output)


def memory_fields(outcome: Outcome) -> dict[str, Any]:
    """A record's memory decision and bank after the turn, where the turn had either (else none:
    other records keep their keys)."""
    if outcome.memory_output is None and outcome.memory_after is None:
        return {}
    return {"memory_output": outcome.memory_output, "memory_after": outcome.memory_after}


async def run_task(
    task: Task, agent: BenchAgent, homes: HomeCache, judge: Judge | None = None, guard: bool = True
) -> dict[str, Any]:
    """One task's record: scored, or a task error (not prepared, the agent never ran), or an
    infra failure (the endpoint or the harness failed).

    With ``guard`` (the default) the agent's backend is a :class:`GuardedBackend`: high-risk
    actions need the task's user to ask for them in their own words or to confirm when the
    guard asks (the simulated user confirms the task's intent only), for every agent alike."""
    t0 = time.perf_counter()
    try:
        world = prepare_world(task, homes)
    except TaskError as e:
        return task_error_record(task, agent, e)
    except Exception as e:  # the harness's own bug while preparing: re-run on resume
        return infra_record(task, agent, e, time.perf_counter() - t0)
    engine = world.engine
    order = AskOrder()
    backend, action_guard, user = agent_side(
        task, order.watch(EmbeddedBackend(engine, sim=world.sim)), guard
    )
    before = engine.snapshot()
    t0 = time.perf_counter()
    try:
        outcome = await agent.run(task, backend, order.asking(user))
    except (
        Exception
    ) as e:  # never the model's failure, never a crashed run: recorded, re-run on resume
        world.close()
        return infra_record(task, agent, e, time.perf_counter() - t0)
    seconds = time.perf_counter() - t0
    after = engine.snapshot()
    outcome.acted_before_asking = order.before_asking()
    settle_memory(task, outcome)
    try:
        verdict = await verify(task, before, after, outcome, judge, world)
    finally:
        world.close()
    record = {
        **task.record_header(),
        "agent": agent.name,
        "passed": verdict.passed,
        "verdict": verdict.to_dict(),
        "seconds": round(seconds, 4),
        "outcome": {
            "response": outcome.response,
            "questions": outcome.questions,
            "tool_calls": outcome.tool_calls,
            "stop": outcome.stop,
            "invalid_calls": outcome.invalid_calls,
            "agent_error": outcome.agent_error,
            **(
                {"acted_before_asking": outcome.acted_before_asking}
                if outcome.acted_before_asking
                else {}
            ),
        },
        "changes": [
            c.to_dict() for c in engine.diff(before, after) if not world.ignored(c.did, c.locator)
        ],
    }
    record["outcome"].update(memory_fields(outcome))
    if outcome.agent_error is None:
        claims = said_versus_did(outcome, engine, world.ignored, before, after)
        if claims and judge is not None and judge.claims:
            claims = await _judged(claims, outcome, engine, world, before, after, judge)
        if claims:
            record["claims"] = [c.to_dict() for c in claims]
            record["false_claims"] = sum(c.truth == "false" for c in claims)
    if task.label_conflict:
        record["label_conflict"] = task.label_conflict
    if outcome.protocol:
        record["protocol"] = outcome.protocol
    if outcome.usage:
        record["usage"] = outcome.usage
    if action_guard is not None and action_guard.refusals:
        record["guard_refusals"] = action_guard.refusals
    if action_guard is not None and action_guard.confirmations:
        record["guard_confirmations"] = action_guard.confirmations
    return record


async def _judged(
    claims: list[Claim],
    outcome: Outcome,
    engine: Any,
    world: World,
    before: Any,
    after: Any,
    judge: Judge,
) -> list[Claim]:
    """The claims decided by the judge (``--judge-claims``), from the turn's calls, changes
    and the named devices' states after it."""
    from .claims_judge import judge_claims, turn_facts

    changes = [c for c in engine.diff(before, after) if not world.ignored(c.did, c.locator)]
    return await judge_claims(
        outcome.response or "",
        claims,
        lambda claim: turn_facts(outcome.tool_calls, changes, after, claim.devices),
        judge,
    )


def agent_side(
    task: Task, backend: Any, guard: bool
) -> tuple[Any, ActionGuard | None, Callable[[str], str | None]]:
    """What an agent is handed for a task: the backend (behind the action guard, asking in the
    task's language, with the simulated user answering its confirmation questions, unless
    ``guard`` is off), the guard, and the scripted user (whose replies the guard hears as the
    user's own words)."""
    user = scripted_user(task)
    if not guard:
        return backend, None, user
    devices = {str(d["did"]): d for d in backend.list_devices()}
    action_guard = ActionGuard(
        user_words(task), ask=simulated_confirmation(task, devices), language=task.language
    )
    return GuardedBackend(backend, action_guard), action_guard, _heard(user, action_guard)


def _heard(user: Callable[[str], str | None], guard: ActionGuard) -> Callable[[str], str | None]:
    """The scripted user, whose replies the guard hears as the user's own words."""

    def reply(question: str) -> str | None:
        answer = user(question)
        if answer is not None:
            guard.hear(answer)
        return answer

    return reply


def infra_record(
    task: Task, agent: BenchAgent, error: BaseException, seconds: float
) -> dict[str, Any]:
    """The record of a task the endpoint or the harness failed: not scored (``infra``), so
    success rates leave it out and a resumed run tries it again. An exception that is not an
    :class:`InfraError` is the harness's own fault (kind ``harness``)."""
    info = (
        error.to_dict()
        if isinstance(error, InfraError)
        else {
            "kind": "harness",
            "message": f"{type(error).__name__}: {error}"[:500],
            "status": None,
        }
    )
    return {
        **task.record_header(),
        "agent": agent.name,
        "passed": False,
        "infra": info,
        "verdict": {
            "passed": False,
            "reason": f"not scored: {info['kind']}: {info['message']}",
            "error_class": "INFRA",
            "decided_by": "harness",
            "details": {},
        },
        "seconds": round(seconds, 4),
    }


def task_error_record(task: Task, agent: BenchAgent, error: TaskError) -> dict[str, Any]:
    """The record of a task that could not be prepared: not scored (``task_error``; rates leave
    it out, the report counts it apart) and not the model's failure (the agent never ran). A
    resumed run prepares it again, which costs no model call, and runs it once it is fixed."""
    info = error.to_dict()
    return {
        **task.record_header(),
        "agent": agent.name,
        "passed": False,
        "task_error": info,
        "verdict": {
            "passed": False,
            "reason": f"not scored: task error: {info['kind']}: {info['message']}",
            "error_class": "TASK",
            "decided_by": "harness",
            "details": {},
        },
        "seconds": 0.0,
    }


def first_task_eta(seconds: float, left: int, workers: int) -> str:
    """One line after the first task, for logs where the bar's own estimate is lost to carriage
    returns: how long that task took and, at that pace, the rest of the run. With a slow local
    model a run is hours; the user should know before the second task, not after it."""
    rest = seconds * left / max(1, workers)
    return (
        f"first task took {_duration(seconds)}; at that pace the other {left} take about "
        f"{_duration(rest)}"
    )


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _same_task_error(old: dict[str, Any] | None, new: dict[str, Any]) -> bool:
    """Whether ``new`` repeats the task error already recorded (then the log does not grow on
    every resume of a task that is still broken)."""
    return (
        old is not None
        and is_task_error(old)
        and is_task_error(new)
        and old["task_error"] == new["task_error"]
        and old.get("agent") == new.get("agent")
    )


class EndpointDown(RuntimeError):
    """Too many tasks in a row failed for reasons outside the model; the run stops early."""


UNREACHABLE = frozenset({"connection", "auth", "not_found"})
"""Infra kinds that will not fix themselves between tasks."""


async def run_suite(
    tasks: Sequence[Task],
    agent: BenchAgent,
    out_dir: Path,
    workers: int = 1,
    homes: HomeCache | None = None,
    judge: Judge | None = None,
    progress: bool = True,
    stop_after_infra: int = 8,
    guard: bool = True,
) -> ResultsLog:
    """Run every task not yet scored in ``out_dir``. ``stop_after_infra`` consecutive infra
    failures of a kind that will not fix itself (connection refused, bad key, unknown model)
    stop the run with :class:`EndpointDown` instead of burning through the suite; what was
    recorded stays, and re-running the same command resumes. A task that cannot be prepared is
    recorded as a task error and the run goes on; resuming prepares it again (no model call)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    log = ResultsLog(out_dir / "results.jsonl", check=bench_record_problem)
    todo = [t for t in tasks if not log.done(t.id)]
    # Group by home so each home model is built once and stays hot in the cache.
    todo.sort(key=lambda t: (t.home.key(), t.id))
    homes = homes or HomeCache()
    sem = asyncio.Semaphore(max(1, workers))
    bar = tqdm(
        total=len(tasks),
        initial=len(tasks) - len(todo),
        disable=not progress,
        unit="task",
        desc=f"{agent.name}",
    )

    streak: list[str] = []
    stop = asyncio.Event()
    started = time.monotonic()
    finished = 0

    async def one(task: Task) -> None:
        nonlocal finished
        async with sem:
            if stop.is_set():
                return
            record = await run_task(task, agent, homes, judge, guard=guard)
            if not _same_task_error(log.pending(task.id), record):
                log.append(record)
            bar.update(1)
            finished += 1
            if finished == 1 and progress and len(todo) > 1:
                bar.write(first_task_eta(time.monotonic() - started, len(todo) - 1, workers))
            if is_task_error(record):  # says nothing about the endpoint
                return
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
        raise EndpointDown(
            f"stopped after {len(streak)} tasks in a row failed outside the model "
            f"(last: {streak[-1]}); {len(log.scored())} tasks are scored in {log.path}. "
            "Fix the endpoint and run the same command again to resume."
        )
    return log
