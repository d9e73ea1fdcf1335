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
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from tqdm import tqdm

from smh_core.agent.safety import ActionGuard, GuardedBackend
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.homes.generator import generate_home
from smh_core.homes.simulated import generate_matter_home
from smh_core.llm.errors import InfraError
from smh_core.memory.decision import _same_subject, parse_decision
from smh_core.memory.store import MemoryBank

from .agents import BenchAgent
from .climate import ClimateError, apply_climate
from .judge import Judge
from .results import ResultsLog, bench_record_problem, is_task_error
from .task import MAX_JSON_DEPTH, HomeRef, MemoryGoal, Task, first_problem, json_too_deep
from .verifier import verify
from .world import World

# No tqdm monitor thread: it only tunes refresh rates, and a stray thread outlives the run.
tqdm.monitor_interval = 0


class TaskError(ValueError):
    """A task that cannot be prepared (its home is refused or invalid, an override does not
    apply, a critic does not parse): the task's fault, not the model's or the endpoint's.
    ``kind`` says which part (``home``, ``override``, ``goal``, ``start_time``), ``field`` the
    task field at fault when one is (``home.file``)."""

    def __init__(self, task_id: str, kind: str, message: str, field: str | None = None) -> None:
        self.task_id, self.kind, self.message, self.field = task_id, kind, message, field
        super().__init__(f"task {task_id}: {field}: {message}" if field else f"task {task_id}: {message}")

    def to_dict(self) -> dict[str, str]:
        info = {"kind": self.kind, "message": self.message[:500]}
        return {**info, "field": self.field} if self.field else info


class HomeFileError(ValueError):
    """A home file that is refused or unusable. The message names the path and the problem,
    never the file's contents: with ``../`` in a task file the path could be any file."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path, self.problem = str(path), problem
        super().__init__(f"{path}: {problem}")


MAX_HOME_BYTES = 64 * 2**20
"""Shipped homes are under 100 kB; a larger file is refused rather than read into memory."""


def resolve_inside(base: Path, name: str, allow_outside: bool = False) -> Path:
    """``name`` (a task's ``home.file``) resolved against ``base``; it must stay inside ``base``
    after resolving ``..`` and symlinks, unless ``allow_outside``: an absolute path or
    ``../../`` in a task file would otherwise read any file the user can read."""
    root = base.resolve()
    try:
        path = (root / name).resolve()
    except (OSError, ValueError, RuntimeError) as e:  # a NUL byte, a symlink loop
        raise HomeFileError(name, f"not a usable path ({type(e).__name__})") from None
    if not allow_outside and not path.is_relative_to(root):
        raise HomeFileError(name, f"resolves to {path}, outside {root}; pass --allow-outside-paths to read it")
    return path


def read_home_file(path: Path) -> Home:
    """Load a home JSON file. Unlike :func:`smh_core.homeenv.engine.load_home`, whose errors
    quote the offending input, every error here names only the path, a line or field and the
    problem; a directory, a device file, a huge or deeply nested file are refused up front."""
    raw = _home_json(path)
    try:
        return Home.model_validate(raw)
    except ValidationError as e:
        field, problem = first_problem(e, "(home)")
        raise HomeFileError(path, f"invalid home: {field}: {problem}") from None
    except (TypeError, KeyError, AttributeError, RecursionError) as e:
        raise HomeFileError(path, f"invalid home ({type(e).__name__})") from None


def _home_json(path: Path) -> Any:
    """The parsed JSON of a home file, or a :class:`HomeFileError` saying why not."""
    try:
        if not path.is_file():
            raise HomeFileError(path, "not a regular file" if path.exists() else "no such file")
        if path.stat().st_size > MAX_HOME_BYTES:
            raise HomeFileError(path, f"larger than {MAX_HOME_BYTES // 2**20} MiB")
        data = path.read_bytes()
    except OSError as e:
        raise HomeFileError(path, f"cannot read ({e.strerror or type(e).__name__})") from None
    try:
        raw = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise HomeFileError(path, f"not UTF-8 text (byte {e.start + 1})") from None
    except json.JSONDecodeError as e:
        raise HomeFileError(path, f"line {e.lineno}: invalid JSON: {e.msg} (column {e.colno})") from None
    except RecursionError:
        raise HomeFileError(path, "invalid JSON: nested too deeply") from None
    if json_too_deep(raw):
        raise HomeFileError(path, f"nested more than {MAX_JSON_DEPTH} levels deep")
    return raw


class HomeCache:
    """Home models by reference, each built once. A task's ``home.file`` resolves against its
    task file's directory (``bases``, by task id, else ``base``) and must stay inside it unless
    ``allow_outside`` (see :func:`resolve_inside`). A home that cannot be built is remembered,
    so every task on it fails alike without reading the file again."""

    def __init__(self, base: Path | None = None, allow_outside: bool = False,
                 bases: Mapping[str, Path] | None = None) -> None:
        self.base = base or Path.cwd()
        self.allow_outside = allow_outside
        self.bases = dict(bases or {})
        self._homes: dict[str, Home] = {}
        self._failed: dict[str, TaskError] = {}

    def base_for(self, task: Task) -> Path:
        """The directory the task's ``home.file`` resolves against (callers may pass any object
        with a ``home``, e.g. a mapping's probe, which then uses ``base``)."""
        return self.bases.get(getattr(task, "id", ""), self.base)

    def cache_key(self, task: Task) -> str:
        """Which cached home the task uses: file homes are keyed by their base directory too."""
        if task.home.file is None:
            return task.home.key()
        return f"{self.base_for(task).resolve()}|{task.home.key()}"

    def get(self, task: Task) -> Home:
        """The task's home model (shared: callers copy it); a :class:`TaskError` when it cannot
        be built."""
        key = self.cache_key(task)
        home = self._homes.get(key)
        if home is not None:
            return home
        task_id = getattr(task, "id", "(none)")
        if key not in self._failed:
            try:
                self._homes[key] = self._build(task)
                return self._homes[key]
            except HomeFileError as e:
                self._failed[key] = TaskError(task_id, "home", str(e), field="home.file")
            except Exception as e:  # a bug in building it: the task's home, still not the model's fault
                detail = type(e).__name__ if task.home.file is not None else f"{type(e).__name__}: {e}"
                self._failed[key] = TaskError(task_id, "home", f"home {task.home.key()} cannot be built ({detail})")
        failed = self._failed[key]
        raise TaskError(task_id, failed.kind, failed.message, failed.field)

    def _build(self, task: Task) -> Home:
        ref: HomeRef = task.home
        if ref.file is not None:
            return read_home_file(resolve_inside(self.base_for(task), ref.file, self.allow_outside))
        if ref.generator == "matter":
            return generate_matter_home(ref.seed)  # type: ignore[arg-type]
        return generate_home(ref.level, ref.seed)  # type: ignore[arg-type]


def home_file_problems(tasks: Sequence[Task], homes: HomeCache) -> Iterator[tuple[Task, TaskError]]:
    """The first task of every home file that cannot be loaded, with the error: a run checks
    its input files before it spends a model call (homes are cached, so this is no extra work)."""
    seen: set[str] = set()
    for task in tasks:
        if task.home.file is None:
            continue
        key = homes.cache_key(task)
        if key in seen:
            continue
        seen.add(key)
        try:
            homes.get(task)
        except TaskError as e:
            yield task, e


def prepare_engine(task: Task, homes: HomeCache) -> HomeEngine:
    """A fresh engine on the task's home with its climate and overrides applied;
    :class:`TaskError` when the home cannot be built, the climate names a room the home does
    not have, or an override does not apply."""
    try:
        home = homes.get(task)
        if task.climate is not None:
            home = apply_climate(home, task.climate)
        engine = HomeEngine(home)
    except TaskError:
        raise
    except ClimateError as e:
        raise TaskError(task.id, "climate", str(e), field=e.field) from None
    except Exception as e:
        raise TaskError(task.id, "home", f"home {task.home.key()} cannot be loaded ({type(e).__name__}: {e})") from e
    for override in task.overrides:
        try:
            result = engine.set_values(override.did, override.values)
        except Exception as e:
            raise TaskError(task.id, "override", f"override of {override.did} failed: {type(e).__name__}: {e}") from e
        if not result.ok:
            raise TaskError(task.id, "override", f"override of {override.did} is invalid: {result.error}")
    return engine


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


def scripted_user(task: Task) -> Callable[[str], str | None]:
    """Answers clarification questions with the task's scripted replies, in order."""
    replies = [r for turn in task.turns for r in turn.replies]

    def reply(question: str) -> str | None:
        return replies.pop(0) if replies else None

    return reply


def prepare_world(task: Task, homes: HomeCache) -> World:
    """The task's home with its overrides, on a simulated clock at the task's start time;
    :class:`TaskError` when the task cannot be prepared."""
    check_critics(task)
    try:
        start = datetime.fromisoformat(task.start_time)
    except (TypeError, ValueError):  # only a Task built without validation gets here
        raise TaskError(task.id, "start_time", "start_time is not an ISO 8601 local date-time") from None
    return World.attach(prepare_engine(task, homes), start)


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


def user_words(task: Task) -> list[str]:
    """What the user of a task says before any reply: earlier user turns of the dialogue and
    every turn of the task (scripted clarification replies are heard as they are given)."""
    return [m.content for m in task.history if m.role == "user"] + [t.text for t in task.turns]


async def run_task(task: Task, agent: BenchAgent, homes: HomeCache, judge: Judge | None = None,
                   guard: bool = True) -> dict[str, Any]:
    """One task's record: scored, or a task error (not prepared, the agent never ran), or an
    infra failure (the endpoint or the harness failed).

    With ``guard`` (the default) the agent's backend is a :class:`GuardedBackend`: high-risk
    actions need the task's user words to ask for them, for every agent alike (the oracle's
    reference solutions pass it on every shipped suite)."""
    t0 = time.perf_counter()
    try:
        world = prepare_world(task, homes)
    except TaskError as e:
        return task_error_record(task, agent, e)
    except Exception as e:  # the harness's own bug while preparing: re-run on resume
        return infra_record(task, agent, e, time.perf_counter() - t0)
    engine = world.engine
    backend: Any = EmbeddedBackend(engine, sim=world.sim)
    user = scripted_user(task)
    action_guard = None
    if guard:
        action_guard = ActionGuard(user_words(task))
        backend = GuardedBackend(backend, action_guard)
        user = _heard(user, action_guard)
    before = engine.snapshot()
    t0 = time.perf_counter()
    try:
        outcome = await agent.run(task, backend, user)
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
                    "tool_calls": outcome.tool_calls, "stop": outcome.stop, "invalid_calls": outcome.invalid_calls,
                    "agent_error": outcome.agent_error},
        "changes": [c.to_dict() for c in engine.diff(before, after) if not world.ignored(c.did, c.locator)],
    }
    if outcome.memory_output is not None or outcome.memory_after is not None:
        record["outcome"].update(memory_output=outcome.memory_output, memory_after=outcome.memory_after)
    if outcome.protocol:
        record["protocol"] = outcome.protocol
    if outcome.usage:
        record["usage"] = outcome.usage
    if action_guard is not None and action_guard.refusals:
        record["guard_refusals"] = action_guard.refusals
    return record


def _heard(user: Callable[[str], str | None], guard: ActionGuard) -> Callable[[str], str | None]:
    """The scripted user, whose replies the guard hears as the user's own words."""
    def reply(question: str) -> str | None:
        answer = user(question)
        if answer is not None:
            guard.hear(answer)
        return answer

    return reply


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


def task_error_record(task: Task, agent: BenchAgent, error: TaskError) -> dict[str, Any]:
    """The record of a task that could not be prepared: not scored (``task_error``; rates leave
    it out, the report counts it apart) and not the model's failure (the agent never ran). A
    resumed run prepares it again, which costs no model call, and runs it once it is fixed."""
    info = error.to_dict()
    return {"task_id": task.id, "suite": task.suite, "category": task.category, "subcategory": task.subcategory,
            "difficulty": task.difficulty, "agent": agent.name, "passed": False, "task_error": info,
            "verdict": {"passed": False, "reason": f"not scored: task error: {info['kind']}: {info['message']}",
                        "error_class": "TASK", "decided_by": "harness", "details": {}},
            "seconds": 0.0}


def _same_task_error(old: dict[str, Any] | None, new: dict[str, Any]) -> bool:
    """Whether ``new`` repeats the task error already recorded (then the log does not grow on
    every resume of a task that is still broken)."""
    return (old is not None and is_task_error(old) and is_task_error(new)
            and old["task_error"] == new["task_error"] and old.get("agent") == new.get("agent"))


class EndpointDown(RuntimeError):
    """Too many tasks in a row failed for reasons outside the model; the run stops early."""


UNREACHABLE = frozenset({"connection", "auth", "not_found"})
"""Infra kinds that will not fix themselves between tasks."""


async def run_suite(tasks: Sequence[Task], agent: BenchAgent, out_dir: Path, workers: int = 1,
                    homes: HomeCache | None = None, judge: Judge | None = None,
                    progress: bool = True, stop_after_infra: int = 8, guard: bool = True) -> ResultsLog:
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
    bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), disable=not progress, unit="task",
               desc=f"{agent.name}")

    streak: list[str] = []
    stop = asyncio.Event()

    async def one(task: Task) -> None:
        async with sem:
            if stop.is_set():
                return
            record = await run_task(task, agent, homes, judge, guard=guard)
            if not _same_task_error(log.pending(task.id), record):
                log.append(record)
            bar.update(1)
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
        raise EndpointDown(f"stopped after {len(streak)} tasks in a row failed outside the model "
                           f"(last: {streak[-1]}); {len(log.scored())} tasks are scored in {log.path}. "
                           "Fix the endpoint and run the same command again to resume.")
    return log
