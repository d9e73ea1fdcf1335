"""Run benchmark tasks on a physical home that Home Assistant controls, through a mapping file.

The home is real, so the runner cannot load a task into it: it *puts* it in the task's initial
state. Per task: the embedded engine builds the initial state (home defaults + overrides);
every mapped attribute is written to its device with the mapping's service calls and read back
through ``/api/states`` until the devices agree or the mapping's timeout passes (then the task
is skipped, with the reason: a benchmark that starts from the wrong state measures nothing).
The user turns go to an HA conversation agent; a reply that keeps the conversation open is a
clarification question, answered with the task's scripted reply. Then the devices are read
again. The before/after snapshots are the embedded initial state with the mapped attributes
replaced by what HA reports, so the same verifier scores them, and records go to the same
:class:`ResultsLog` as the other runners (``smh bench report`` and resuming work unchanged).

The home belongs to someone: before the first task every mapped attribute is read, and after
the last (also when the run fails or is interrupted with Ctrl-C) the devices are driven back
to those readings the same way a task's initial state is reached; what does not come back in
the mapping's timeout is reported (``restore.json`` and the run's ``restore_problem``), never
silently left.

What cannot be judged honestly is skipped and counted, never guessed: other homes, goals that
need simulated time or the agent's tool trace, and tasks whose overrides or goal touch an
attribute the mapping lacks (``not mapped: 1001/color``). Unmapped attributes keep their
embedded values on both sides, so changes to them are invisible (see the mapping's docstring
for values HA does not report).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
from tqdm import tqdm

from smh_core.bench.results import ResultsLog
from smh_core.bench.task import ClarifyGoal, ExecuteGoal, Task
from smh_core.bench.task_home import HomeCache, prepare_engine
from smh_core.bench.verifier import Outcome, verify
from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.snapshot import Snapshot, diff

from .hardware_map import NOT_OBSERVED, HardwareMapping, ReadError, same_value
from .runner import CLIMATE_SKIP, HA_GOALS, NO_TRACE, HaClient, HaError, write_skipped

Readings = dict[tuple[str, str], Any]
"""``(did, locator) -> HomeEnv value``, ``NOT_OBSERVED`` or a :class:`ReadError`."""


class HardwareClient(HaClient):
    """:class:`HaClient` plus what a physical home needs: plain service calls (device services
    refuse ``?return_response``), entity states, and the conversation's ``continue`` flag."""

    async def call(self, domain: str, name: str, data: dict[str, Any]) -> None:
        await self._post(f"/api/services/{domain}/{name}", data)

    async def states(self) -> dict[str, dict[str, Any]]:
        async with self.session.get(f"{self.url}/api/states", headers=self._headers) as r:
            if r.status >= 400:
                raise HaError("/api/states", r.status, await r.text())
            return {s["entity_id"]: s for s in await r.json()}

    async def ask(self, text: str, agent_id: str, conversation_id: str | None) -> tuple[str, str | None, bool]:
        """``(speech, conversation id, the agent expects a reply)``."""
        body: dict[str, Any] = {"text": text, "language": "en", "agent_id": agent_id}
        if conversation_id:
            body["conversation_id"] = conversation_id
        out = await self._post("/api/conversation/process", body)
        speech = out.get("response", {}).get("speech", {}).get("plain", {}).get("speech", "")
        return speech, out.get("conversation_id"), bool(out.get("continue_conversation"))


@dataclass
class HardwareRun:
    log: ResultsLog
    skipped: dict[str, int] = field(default_factory=dict)
    """Skipped tasks by reason (``not mapped: 1001/color``, ``initial state not reached``, ...)."""
    skipped_tasks: dict[str, str] = field(default_factory=dict)
    """Task id -> the full reason (which attribute did not reach which value)."""
    prior_state: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The mapped devices as read before the first task (what the run puts back)."""
    restore_problem: str | None = None
    """What did not return to ``prior_state`` after the run (None: everything did)."""

    def skip(self, task: Task, reason: str, detail: str = "") -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1
        self.skipped_tasks[task.id] = f"{reason}: {detail}" if detail else reason


# ---------------------------------------------------------------------------- what a task touches
class _Recorder(Mapping[str, Mapping[str, Any]]):
    """A snapshot that remembers which attributes a critic read (implicit paths resolved)."""

    def __init__(self, snap: Snapshot) -> None:
        self._snap, self.seen = snap, set[tuple[str, str]]()

    def __getitem__(self, did: str) -> Mapping[str, Any]:
        return self._snap[did]

    def __iter__(self) -> Iterator[str]:
        return iter(self._snap)

    def __len__(self) -> int:
        return len(self._snap)

    def value(self, did: str, locator: str) -> Any:
        out = self._snap.value(did, locator)
        self.seen.add((did, locator))
        return out


def touched(task: Task, initial: Snapshot) -> list[tuple[str, str]]:
    """Attributes the task's overrides set and its goal's critics read, in order."""
    out = [(o.did, loc) for o in task.overrides for loc in o.values]
    critics = []
    for goal in task.all_goals:
        if isinstance(goal, ExecuteGoal):
            critics.append(goal.critic)
        if isinstance(goal, ClarifyGoal) and goal.then is not None:
            critics.append(goal.then.critic)
    for text in critics:
        rec = _Recorder(initial)
        critic_lang.parse(text).explain(rec)
        out += sorted(rec.seen)
    return list(dict.fromkeys(out))


def skip_reason(task: Task, mapping: HardwareMapping, traced: bool = False) -> str | None:
    """Why a task cannot run on this hardware before touching it (``None``: it can). A task
    that needs a tool trace runs only with an agent that reports one (SMH's own)."""
    if task.home.key() != mapping.home.key():
        return "other home"
    kind = next((k for k in task.goal_kinds if k not in HA_GOALS), None)
    if kind is not None:
        return "needs simulated time" if kind in ("timed", "automation") else f"{kind} goal"
    if task.climate is not None:
        return CLIMATE_SKIP
    if task.required_actions and not traced:
        return NO_TRACE
    return None


# ---------------------------------------------------------------------------- reading and writing
def read_all(mapping: HardwareMapping, states: Mapping[str, Mapping[str, Any]], like: Snapshot) -> Readings:
    out: Readings = {}
    for did, locator, amap in mapping.items():
        try:
            out[did, locator] = amap.read(states.get(amap.entity), like.value(did, locator))
        except ReadError as e:
            out[did, locator] = e
    return out


def overlay(base: Snapshot, readings: Readings, fallback: Snapshot | None = None) -> Snapshot:
    """``base`` with the mapped attributes replaced by their readings; an attribute HA does
    not report keeps its ``fallback`` (else ``base``) value, an unreadable one becomes None."""
    devices = base.to_dict()
    for (did, locator), value in readings.items():
        if value is NOT_OBSERVED:
            value = (fallback or base).value(did, locator)
        elif isinstance(value, ReadError):
            value = None
        devices[did][locator] = value
    return Snapshot(devices)


def _mismatches(readings: Readings, want: Snapshot, only: set[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    return [key for key, got in readings.items() if only is None or key in only
            if isinstance(got, ReadError) or (got is not NOT_OBSERVED and not same_value(got, want.value(*key)))]


def _describe(readings: Readings, want: Snapshot, keys: list[tuple[str, str]]) -> str:
    parts = []
    for did, loc in keys:
        got = readings[did, loc]
        parts.append(f"{did}/{loc}: {got}" if isinstance(got, ReadError)
                     else f"{did}/{loc} is {got!r}, want {want.value(did, loc)!r}")
    return "; ".join(parts)


async def reach(client: HardwareClient, mapping: HardwareMapping, want: Snapshot,
                timeout: float, interval: float, only: set[tuple[str, str]] | None = None) -> tuple[Readings, str | None]:
    """Write ``want`` to the devices until they read back as ``want`` (attributes HA does not
    report are left alone, and with ``only`` every attribute outside it); returns the last
    readings and, if time ran out, what is wrong."""
    deadline = time.monotonic() + timeout
    while True:
        readings = read_all(mapping, await client.states(), want)
        wrong = _mismatches(readings, want, only)
        if not wrong:
            return readings, None
        if time.monotonic() >= deadline:
            return readings, _describe(readings, want, wrong)
        for did, loc in wrong:
            if isinstance(readings[did, loc], ReadError):
                continue
            for domain, name, data in mapping.get(did, loc).calls(want.value(did, loc)):  # type: ignore[union-attr]
                try:
                    await client.call(domain, name, data)
                except HaError as e:
                    return readings, f"{did}/{loc}: {domain}.{name} failed: {e}"
        await asyncio.sleep(interval)


async def restore_prior(client: HardwareClient, mapping: HardwareMapping, like: Snapshot, prior: Readings,
                        interval: float) -> str | None:
    """Drive the devices back to ``prior`` (their readings before the run): only attributes that
    were read then (not unreported, not unreadable); returns what did not come back, or None."""
    readable = {key for key, value in prior.items() if value is not NOT_OBSERVED and not isinstance(value, ReadError)}
    if not readable:
        return None
    _, problem = await reach(client, mapping, overlay(like, prior), mapping.timeout_seconds, interval, readable)
    return problem


def write_restore(out_dir: Path, run: HardwareRun) -> None:
    """``restore.json``: the devices as found before the run and whether they went back."""
    (out_dir / "restore.json").write_text(json.dumps(
        {"prior_state": run.prior_state, "restored": run.restore_problem is None, "problem": run.restore_problem},
        indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")


def mapped_state(readings: Readings) -> dict[str, dict[str, Any]]:
    """The readings as ``did -> {locator: value}`` (unobserved left out, unreadable as None)."""
    out: dict[str, dict[str, Any]] = {}
    for (did, locator), value in readings.items():
        if value is not NOT_OBSERVED:
            out.setdefault(did, {})[locator] = None if isinstance(value, ReadError) else value
    return out


def check_home(mapping: HardwareMapping, tasks: Sequence[Task], homes: HomeCache) -> None:
    """The mapped devices and attributes exist in the mapping's home (raises
    :class:`~smh_core.ha.hardware_map.MappingFileError` with the line)."""
    # HomeCache reads only a task's home reference, so the mapping's own reference will do.
    probe = next((t for t in tasks if t.home.key() == mapping.home.key()), SimpleNamespace(home=mapping.home))
    mapping.check_home(HomeEngine(homes.get(probe)).snapshot())  # type: ignore[arg-type]


async def missing_entities(client: HardwareClient, mapping: HardwareMapping) -> list[str]:
    states = await client.states()
    return [e for e in mapping.entities() if e not in states]


# ---------------------------------------------------------------------------- the run
async def run_hardware_task(client: HardwareClient, task: Task, agent_id: str, mapping: HardwareMapping,
                   homes: HomeCache, interval: float, traced: bool = False) -> dict[str, Any] | tuple[str, str]:
    """One task on the hardware: its record, or ``(reason, detail)`` if it was skipped."""
    initial = prepare_engine(task, homes).snapshot()
    gaps = [f"{did}/{loc}" for did, loc in touched(task, initial) if mapping.get(did, loc) is None]
    if gaps:
        return f"not mapped: {gaps[0]}", ", ".join(gaps) if len(gaps) > 1 else ""
    readings, problem = await reach(client, mapping, initial, mapping.timeout_seconds, interval)
    if problem:
        return "initial state not reached", problem
    before = overlay(initial, readings)
    t0 = time.perf_counter()
    replies = [r for turn in task.turns for r in turn.replies]
    response, conversation, speeches, questions, error = "", None, [], [], None
    try:
        for turn in task.turns:
            text: str | None = turn.text
            while text is not None:
                response, conversation, more = await client.ask(text, agent_id, conversation)
                speeches.append(response)
                text = None
                if more:  # the agent asked something: the scripted user answers if it can
                    questions.append(response)
                    text = replies.pop(0) if replies else None
        outcome = Outcome(response=response, questions=questions)
    except HaError as e:  # an agent failure is a result (FRF), never a crashed run
        outcome, error = Outcome(agent_error="FRF"), str(e)
    seconds = time.perf_counter() - t0
    trace = await client.agent_trace(conversation) if traced and conversation else {}
    if trace:  # SMH's own agent: its tool calls and questions are verified as on the simulator
        outcome.tool_calls = list(trace.get("tool_calls", []))
        outcome.questions = list(trace.get("questions", [])) or outcome.questions
        outcome.usage = dict(trace.get("usage", {}))
    after_readings = read_all(mapping, await client.states(), initial)
    after = overlay(initial, after_readings, fallback=before)
    verdict = await verify(task, before, after, outcome)
    record: dict[str, Any] = {
        "task_id": task.id, "suite": task.suite, "category": task.category, "subcategory": task.subcategory,
        "difficulty": task.difficulty, "agent": f"ha:{agent_id}", "backend": "hardware",
        "passed": verdict.passed, "verdict": verdict.to_dict(), "seconds": round(seconds, 4),
        "response": response, "speeches": speeches,
        "outcome": {"response": outcome.response, "questions": outcome.questions,
                    "tool_calls": outcome.tool_calls},
        "initial_state": mapped_state(readings), "final_state": mapped_state(after_readings),
        "changes": [c.to_dict() for c in diff(before, after)], "usage": outcome.usage,
    }
    unreadable = {f"{d}/{loc}": str(v) for (d, loc), v in after_readings.items() if isinstance(v, ReadError)}
    if unreadable:
        record["unreadable"] = unreadable
    if error:
        record["error"] = error
    return record


async def run_on_hardware(tasks: Sequence[Task], url: str, token: str, agent_id: str, mapping: HardwareMapping,
                          out_dir: Path, homes: HomeCache | None = None, progress: bool = True,
                          interval: float = 0.5, session: aiohttp.ClientSession | None = None) -> HardwareRun:
    """Run ``tasks`` one at a time (one physical home) and append their records to
    ``out_dir/results.jsonl``; skipped tasks are not recorded, so a re-run retries them."""
    homes = homes or HomeCache()
    check_home(mapping, tasks, homes)
    out_dir.mkdir(parents=True, exist_ok=True)
    run = HardwareRun(ResultsLog(out_dir / "results.jsonl"))
    todo = [t for t in tasks if not run.log.done(t.id)]
    own = session is None
    session = session or aiohttp.ClientSession()
    try:
        client = HardwareClient(url.rstrip("/"), token, session)
        missing = await missing_entities(client, mapping)
        if missing:
            raise ValueError(f"{mapping.path}: entities not in HA: {', '.join(missing)}")
        traced = agent_id in await client.traced_agents()
        like = prepare_engine(todo[0], homes).snapshot() if todo else None
        prior = read_all(mapping, await client.states(), like) if like is not None else {}
        run.prior_state = mapped_state(prior)
        try:
            for task in tqdm(todo, disable=not progress, unit="task", desc=f"hardware:{agent_id}"):
                reason = skip_reason(task, mapping, traced)
                if reason:
                    run.skip(task, reason)
                    continue
                result = await run_hardware_task(client, task, agent_id, mapping, homes, interval, traced)
                if isinstance(result, tuple):
                    run.skip(task, *result)
                else:
                    run.log.append(result)
        finally:
            if like is not None:
                run.restore_problem = await restore_prior(client, mapping, like, prior, interval)
                write_restore(out_dir, run)
    finally:
        if own:
            await session.close()
    write_skipped(out_dir, run.skipped)
    return run
