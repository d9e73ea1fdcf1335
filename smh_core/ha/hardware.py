"""Run benchmark tasks on a physical home that Home Assistant controls, through a mapping file.

The home is real, so the runner cannot load a task into it: it *puts* it in the task's initial
state. Per task: the embedded engine builds the initial state (home defaults + overrides);
every mapped attribute is written to its device with the mapping's service calls and read back
through ``/api/states`` until the devices agree or the mapping's timeout passes (a read-only
attribute that differs means the task cannot start here: skipped, with the reason; a benchmark
that starts from the wrong state measures nothing). Then the task is played, either by an HA
conversation agent (a reply that keeps the conversation open is a question, answered with the
task's scripted reply) or by SMH's oracle or null player, whose actions on the task's embedded
copy are put on the devices through the mapping, so every action goes HA service -> device ->
report -> HA state. Then the devices are read again. The before/after snapshots are the
embedded initial state with the mapped attributes replaced by what HA reports, so the same
verifier scores them, and records go to the same :class:`ResultsLog` as the other runners
(``smh bench report`` and resuming work unchanged). Each record has the round trip's timings
(``latency``: initial state, agent turn, waiting for the commanded reports) and the time it
was read (``read_at``).

Devices fail as physical ones do (:mod:`.device_sync`): unavailable, slow, or reporting another
value than commanded. Such a task is tried again (``attempts``, 2 in all by default) and then
recorded as a device failure (``infra`` kind ``device``: not scored, retried on resume), never
as the agent's.

The home belongs to someone: before the first task every mapped attribute is read, and after
the last (also when the run fails or is interrupted with Ctrl-C) the devices are driven back
to those readings the same way a task's initial state is reached; what does not come back in
the mapping's timeout is reported (``restore.json`` and the run's ``restore_problem``), never
silently left.

Rules and schedules (``timed`` and ``automation`` goals) play out on HA's own clock as real HA
automations (:mod:`.real_play`). What cannot be judged honestly is skipped and counted, never
guessed: other homes, a rule or schedule whose trigger cannot be made to happen here or that
would wait beyond ``max_wait``, goals that need the agent's tool trace, and tasks whose overrides or goal touch an
attribute the mapping lacks (``not mapped: 1001/color``). Unmapped attributes keep their
embedded values on both sides, so changes to them are invisible (see the mapping's docstring
for values HA does not report).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp

from smh_core.backends.embedded import EmbeddedBackend
from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.results import ResultsLog
from smh_core.bench.runner import memory_fields, prepare_world, scripted_user, settle_memory
from smh_core.bench.verifier import Outcome, Verdict, required_actions_missing, verify
from smh_core.bench.world import World, not_the_agents
from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.snapshot import Snapshot, diff
from smh_core.progress import tqdm
from smh_core.task.home import HomeCache, TaskError, prepare_engine
from smh_core.task.model import (
    AutomationGoal,
    ClarifyGoal,
    ExecuteGoal,
    MemoryGoal,
    Task,
    TimedGoal,
)

from .automation_export import ExportError
from .device_sync import (
    CallWatch,
    Reached,
    Readings,
    commanded,
    mapped_state,
    overlay,
    reach,
    read_all,
    restore_prior,
    settle,
    unreadable_devices,
    write_restore,
)
from .hardware_map import HardwareMapping, ReadError, same_value
from .real_automations import PREFIX, AutomationRefused, created, real_automations
from .real_clock import Clock, WallClock
from .real_judge import Played, later_record, twin_later
from .real_plan import NEEDS_SIMULATED_TIME, NEEDS_TIME, NO_AUTOMATIONS, Plan, keys_of, plan
from .real_play import Scene, play_out
from .renamed_copy import (
    JOURNAL,
    NEEDS_RENAMING,
    OPT_IN,
    OTHER_HOME,
    NamesNotPutBack,
    Renaming,
    given_names,
    put_back,
    renaming,
    socket_call,
)
from .runner import (
    CLIMATE_SKIP,
    HA_GOALS,
    NO_TRACE,
    TURN_TIMEOUT,
    HaClient,
    HaError,
    write_skipped,
    write_skipped_tasks,
)
from .todo_lists import PUT_ITEMS, put_items, with_items

_LOGGER = logging.getLogger(__name__)

__all__ = [
    "HardwareClient",
    "HardwareRun",
    "cannot_run",
    "check_home",
    "never_runs",
    "overlay",
    "run_on_hardware",
    "skip_reason",
    "touched",
    "unjudged_kind",
]


class HardwareClient(HaClient):
    """:class:`HaClient` plus what a physical home needs: plain service calls (device services
    refuse ``?return_response``), entity states, and the conversation's ``continue`` flag."""

    async def call(self, domain: str, name: str, data: dict[str, Any]) -> None:
        if f"{domain}.{name}" == PUT_ITEMS:  # a to-do list's items: with HA's item services
            await put_items(data, self.todo_items, self.call)
            return
        await self._post(f"/api/services/{domain}/{name}", data)

    async def states(self) -> dict[str, dict[str, Any]]:
        """HA's states, each to-do list's with its items (:func:`~.todo_lists.with_items`)."""
        async with self.session.get(f"{self.url}/api/states", headers=self._headers) as r:
            if r.status >= 400:
                raise HaError("/api/states", r.status, await r.text())
            states = {s["entity_id"]: s for s in await r.json()}
        return await with_items(states, self.todo_items)

    async def todo_items(self, entity_id: str) -> list[dict[str, Any]]:
        """A to-do list's items, as HA's ``todo.get_items`` answers."""
        out = await self._post(
            "/api/services/todo/get_items?return_response", {"entity_id": entity_id}
        )
        return list(((out.get("service_response") or {}).get(entity_id) or {}).get("items") or [])

    answered_error: bool = False
    """Whether the agent's last answer was an error (it says itself that its action failed)."""

    async def now(self) -> datetime:
        """HA's clock, as a local time without a zone (the zone HA is set to)."""
        body = {"template": "{{ now().isoformat() }}"}
        async with self.session.post(
            f"{self.url}/api/template", json=body, headers=self._headers
        ) as r:
            if r.status >= 400:
                raise HaError("/api/template", r.status, await r.text())
            return datetime.fromisoformat((await r.text()).strip()).replace(tzinfo=None)

    async def components(self) -> set[str]:
        """The integrations HA has loaded (``/api/config``)."""
        config = await self._get("/api/config")
        return {str(c).split(".")[0] for c in config.get("components", [])}

    async def save_automation(self, config: dict[str, Any]) -> None:
        """Create (or replace) an automation through HA's automation editor API."""
        await self._post(f"/api/config/automation/config/{config['id']}", config)

    async def delete_automation(self, automation_id: str) -> None:
        await self._delete(f"/api/config/automation/config/{automation_id}")

    async def bench_automations(self) -> list[str]:
        """Ids of the automations HA shows that a benchmark run made (:data:`PREFIX`)."""
        states = await self.states()
        ids = [
            s.get("attributes", {}).get("id")
            for e, s in states.items()
            if e.startswith("automation.")
        ]
        return sorted(i for i in ids if isinstance(i, str) and i.startswith(PREFIX))

    async def automations_loaded(self, ids: list[str], timeout: float) -> None:
        """Wait until HA shows each automation in ``ids`` switched on; ``RuntimeError`` if it
        does not within ``timeout`` (an HA whose configuration does not include
        ``automations.yaml`` saves them and never loads them)."""
        deadline = time.monotonic() + timeout
        while True:
            states = await self.states()
            on = {
                s.get("attributes", {}).get("id")
                for e, s in states.items()
                if e.startswith("automation.") and s.get("state") == "on"
            }
            missing = [i for i in ids if i not in on]
            if not missing:
                return
            if time.monotonic() >= deadline:
                raise RuntimeError(
                    f"HA saved but did not switch on the automation(s) {', '.join(missing)} "
                    f"within {timeout:g} s (does configuration.yaml include automations.yaml?)"
                )
            await asyncio.sleep(0.1)

    async def ask(
        self, text: str, agent_id: str, conversation_id: str | None, timeout: float | None = None
    ) -> tuple[str, str | None, bool]:
        """``(speech, conversation id, the agent expects a reply)``; ``TimeoutError`` after ``timeout``."""
        body: dict[str, Any] = {"text": text, "language": "en", "agent_id": agent_id}
        if conversation_id:
            body["conversation_id"] = conversation_id
        out = await self._post("/api/conversation/process", body, timeout)
        response = out.get("response", {})
        self.answered_error = response.get("response_type") == "error"
        speech = response.get("speech", {}).get("plain", {}).get("speech", "")
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
        if isinstance(goal, (ClarifyGoal, MemoryGoal)) and goal.then is not None:
            critics.append(goal.then.critic)
    for text in critics:
        rec = _Recorder(initial)
        critic_lang.parse(text).explain(rec)
        out += sorted(rec.seen)
    for goal in task.all_goals:
        if isinstance(goal, (TimedGoal, AutomationGoal)):
            out += keys_of(goal, initial)
    return list(dict.fromkeys(out))


MEMORY_UNSEEN = (
    "memory goal: needs the agent's memory decision (SMH's oracle and null players report "
    "theirs; an HA conversation agent's is not seen)"
)
"""Why a MemHome task is skipped for an HA conversation agent: its memory goal judges the
decision (memory, rewrite, no-rewrite) and the user's bank after it, neither of which HA's
conversation API shows."""


def skip_reason(
    task: Task, mapping: HardwareMapping, traced: bool = False, decides: bool = False
) -> str | None:
    """Why a task cannot run on this hardware before touching it (``None``: it can). A task
    that needs a tool trace runs only with an agent that reports one (SMH's own); a memory goal
    only with a player that reports its memory decision (``decides``: SMH's scripted players),
    whose home part (the command it runs, or the home left as it was) the real devices show."""
    if task.home.key() != mapping.home.key():
        return "other home"
    judged = (*HA_GOALS, "memory") if decides else HA_GOALS
    kind = next((k for k in task.goal_kinds if k not in judged), None)
    if kind == "memory":
        return MEMORY_UNSEEN
    if kind is not None and not (kind in NEEDS_TIME and len(task.goal_kinds) == 1):
        return NEEDS_SIMULATED_TIME if kind in NEEDS_TIME else f"{kind} goal"
    if task.climate is not None:
        return CLIMATE_SKIP
    if task.required_actions and not traced:
        return NO_TRACE
    return None


def unjudged_kind(task: Task) -> str | None:
    """A goal kind of ``task`` that an HA conversation agent's run does not judge, whatever the
    home (MemHome's memory goals: SMH's players and the embedded runner only), or None. Timed
    and rule goals are judged on HA alone (:func:`skip_reason`)."""
    return next((k for k in task.goal_kinds if k not in HA_GOALS and k not in NEEDS_TIME), None)


def check_home(mapping: HardwareMapping, tasks: Sequence[Task], homes: HomeCache) -> None:
    """The mapped devices and attributes exist in the mapping's home (raises
    :class:`~smh_core.ha.hardware_map.MappingFileError` with the line)."""
    # HomeCache reads only a task's home reference, so the mapping's own reference will do.
    probe = next(
        (t for t in tasks if t.home.key() == mapping.home.key()), SimpleNamespace(home=mapping.home)
    )
    mapping.check_home(HomeEngine(homes.get(probe)).snapshot())  # type: ignore[arg-type]


async def missing_entities(client: HardwareClient, mapping: HardwareMapping) -> list[str]:
    states = await client.states()
    return [e for e in mapping.entities() if e not in states]


# ---------------------------------------------------------------------------- the run
SCRIPTED = {"oracle": OracleAgent, "null": NullAgent}
"""SMH's own players, acting through the mapping's service calls instead of a conversation."""


@dataclass
class _Turn:
    """What one attempt's agent turn produced."""

    outcome: Outcome
    response: str = ""
    speeches: list[str] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    fault: str | None = None
    """A device fault seen while the commanded state was awaited."""
    impossible: str | None = None
    """The player's actions ask for a state HA cannot set (the task cannot run here)."""
    report_seconds: float = 0.0
    device_seconds: dict[str, float] = field(default_factory=dict)
    commanded: int = 0
    conversation: str | None = None
    timed_out: bool = False
    world: World | None = None
    """A scripted player's home with its clock: the rules and schedules it stored."""
    expected: Snapshot | None = None
    """The home as the turn should have left it (the player's result, or the initial state with
    what the agent commanded): readings after the turn are read against it, so a value within
    the mapping's ``tolerance`` of it (a light's colour after HA's rounding) reads as it."""


async def _converse(
    client: HardwareClient,
    task: Task,
    agent_id: str,
    watch: CallWatch | None,
    turn_timeout: float | None,
) -> _Turn:
    """The turns through HA's conversation agent; a reply that keeps the conversation open is a
    question, answered with the task's scripted reply."""
    replies = [r for turn in task.turns for r in turn.replies]
    out = _Turn(Outcome())
    questions: list[str] = []
    conversation = None
    t0 = time.perf_counter()
    if watch is not None:
        watch.clear()
    try:
        for turn in task.turns:
            text: str | None = turn.text
            while text is not None:
                out.response, conversation, more = await client.ask(
                    text, agent_id, conversation, turn_timeout
                )
                out.speeches.append(out.response)
                text = None
                if more:
                    questions.append(out.response)
                    text = replies.pop(0) if replies else None
        out.outcome = Outcome(response=out.response, questions=questions)
    except HaError as e:  # an agent failure is a result (FRF), never a crashed run
        out.outcome, out.error = Outcome(agent_error="FRF"), str(e)
    except TimeoutError:  # no answer in time: recorded as failed (the agent's), as inside HA
        out.outcome, out.timed_out, out.error = (
            Outcome(questions=questions),
            True,
            f"no answer within {turn_timeout:g} s",
        )
    out.seconds = time.perf_counter() - t0
    out.conversation = conversation
    return out


async def _await_commanded(
    client: HardwareClient,
    mapping: HardwareMapping,
    turn: _Turn,
    watch: CallWatch | None,
    before: Readings,
    initial: Snapshot,
    interval: float,
) -> None:
    """After an HA agent's turn: wait for what it commanded to be reported; note device faults
    (unless the agent itself said its action failed: then a refused call is its own result)."""
    if watch is None:
        return
    expected = commanded(mapping, await watch.calls(), initial)
    turn.commanded = len(expected)
    turn.expected = overlay(initial, expected)
    settled = await settle(
        client, mapping, expected, before, turn.expected, mapping.timeout_seconds, interval
    )
    turn.report_seconds = settled.seconds
    turn.device_seconds = settled.device_seconds
    if settled.faults and not client.answered_error:
        turn.fault = "; ".join(settled.faults)


async def _play(
    player: str,
    task: Task,
    engine: HomeEngine,
    world: World | None,
    client: HardwareClient,
    mapping: HardwareMapping,
    initial: Snapshot,
    interval: float,
) -> _Turn:
    """An SMH player (oracle, null) on the task's embedded copy; what it changed there is then
    put on the devices through the mapping, and must come back from them."""
    t0 = time.perf_counter()
    backend = EmbeddedBackend(engine, sim=world.sim if world is not None else None)
    outcome = await SCRIPTED[player]().run(task, backend, scripted_user(task))
    target = engine.snapshot()
    changed = {
        (did, loc)
        for did, loc, _ in mapping.items()
        if not same_value(initial.value(did, loc), target.value(did, loc))
    }
    turn = _Turn(
        outcome,
        response=outcome.response,
        speeches=[outcome.response],
        commanded=len(changed),
        world=world,
        expected=target,
    )
    if changed:
        done = await reach(
            client,
            mapping,
            target,
            mapping.timeout_seconds,
            interval,
            changed,
            read_only_is_fault=True,
            commanded=True,
        )
        turn.report_seconds = done.seconds
        turn.device_seconds = done.device_seconds
        if done.problem and not done.device_fault:
            turn.impossible = done.problem
        elif done.problem:
            turn.fault = f"the commanded state did not come back: {done.problem}"
    turn.seconds = time.perf_counter() - t0
    return turn


LEFT_OUT, NOT_MAPPED = "left out of real runs", "not mapped"


def what_is_unmapped(
    keys: Iterable[tuple[str, str]], mapping: HardwareMapping
) -> tuple[str, list[str]] | None:
    """Why a task touching ``keys`` cannot run on the mapping, or None: the devices the user
    left out (a twin's high-risk ones are by default), else the attributes it lacks
    (``did/locator``)."""
    keys = list(keys)
    left_out = sorted({did for did, _ in keys if did in mapping.skip})
    if left_out:
        return LEFT_OUT, left_out
    gaps = [f"{did}/{loc}" for did, loc in keys if mapping.get(did, loc) is None]
    return (NOT_MAPPED, gaps) if gaps else None


def device_record(
    task: Task, agent: str, message: str, attempts: int, seconds: float
) -> dict[str, Any]:
    """A task a device kept from being judged: not scored (``infra``, kind ``device``), so a
    resumed run tries it again, and never counted against the agent."""
    return {
        **task.record_header(),
        "agent": agent,
        "backend": "hardware",
        "passed": False,
        "infra": {"kind": "device", "message": message[:1000], "status": None},
        "attempts": attempts,
        "verdict": {
            "passed": False,
            "reason": f"not scored: device: {message[:300]}",
            "error_class": "INFRA",
            "decided_by": "harness",
            "details": {},
        },
        "seconds": round(seconds, 4),
    }


async def run_hardware_task(
    client: HardwareClient,
    task: Task,
    agent_id: str,
    mapping: HardwareMapping,
    homes: HomeCache,
    interval: float,
    traced: bool = False,
    player: str | None = None,
    watch: CallWatch | None = None,
    attempts: int = 2,
    turn_timeout: float | None = TURN_TIMEOUT,
    clock: Clock | None = None,
    max_wait: float = 0.0,
    automations: bool = True,
    names: AbstractAsyncContextManager[str | None] | None = None,
) -> dict[str, Any] | tuple[str, str]:
    """One task on the hardware: its record, or ``(reason, detail)`` if it was skipped. A device
    fault (unavailable, slow, disagreeing) gets the task tried again, up to ``attempts`` times in
    all; then it is recorded as a device failure, not scored. A timed or rule goal plays out on
    HA's clock (:mod:`.real_play`; ``clock``, default :class:`~.real_clock.WallClock`), if that
    takes at most ``max_wait`` seconds; a scripted player's needs HA's automation editor
    (``automations``: HA has it loaded). ``names`` (a copy of the home with devices renamed,
    :func:`~.renamed_copy.given_names`) is entered once the task is known to start, and yields
    why HA does not show the names (None: it does)."""
    agent = player or f"ha:{agent_id}"
    engine = prepare_engine(task, homes)
    initial = engine.snapshot()
    keys = touched(task, initial)
    unmapped = what_is_unmapped(keys, mapping)
    if unmapped is not None and unmapped[0] == LEFT_OUT:  # before a rule's plan, which says
        return f"{LEFT_OUT}: {unmapped[1][0]}", ", ".join(unmapped[1][1:])  # only "lacks"
    later: Plan | None = None
    if any(k in NEEDS_TIME for k in task.goal_kinds):
        if player is not None and not automations:
            return NO_AUTOMATIONS, ""
        planned = plan(task, mapping, await client.now(), max_wait)
        if isinstance(planned, tuple):
            return planned
        later = planned
    if unmapped is not None:
        label, items = unmapped
        return f"{label}: {items[0]}", ", ".join(items) if len(items) > 1 else ""
    # what the runner puts in place: everything it can set, and what the task is about; a sensor
    # the task does not read is taken as the room has it (no physical room matches a task's)
    targets = {(did, loc) for did, loc, amap in mapping.items() if amap.set is not None} | set(keys)

    async def attempted() -> dict[str, Any] | tuple[str, str]:
        started = time.perf_counter()
        fault = ""
        for attempt in range(1, attempts + 1):
            start = await reach(
                client,
                mapping,
                initial,
                mapping.timeout_seconds,
                interval,
                targets,
                essential=set(keys),
            )
            if start.problem and not start.device_fault:
                return "initial state not reached", start.problem
            if start.problem:
                fault = f"initial state not reached: {start.problem}"
                continue
            before = overlay(initial, start.readings)
            began = await client.now() if later is not None else None
            if player is not None:
                # a clock (a simulator) only for rules and schedules: its room and device dynamics
                # would otherwise add changes the player did not command
                world = prepare_world(task, homes) if later is not None else None
                own = world.engine if world is not None else prepare_engine(task, homes)
                turn = await _play(player, task, own, world, client, mapping, initial, interval)
            else:
                turn = await _converse(client, task, agent_id, watch, turn_timeout)
                await _await_commanded(
                    client, mapping, turn, watch, start.readings, initial, interval
                )
            if turn.impossible:
                return "the reference actions cannot be done through HA", turn.impossible
            after_readings = read_all(mapping, await client.states(), turn.expected or initial)
            lost = unreadable_devices(after_readings, keys)
            if turn.fault or lost:
                fault = turn.fault or f"unreadable after the turn: {'; '.join(lost)}"
                continue
            played = None
            if later is not None and began is not None:
                scene = Scene(
                    client,
                    mapping,
                    clock or WallClock(),
                    watch,
                    interval,
                    initial,
                    before,
                    turn.world.ignored if turn.world is not None else not_the_agents(engine),
                )
                played = await _play_later(
                    task, mapping, later, turn, scene, after_readings, began, keys
                )
                if isinstance(played, tuple):
                    return played
                if played.fault:
                    fault = played.fault
                    continue
            return await _record(
                client,
                task,
                agent,
                mapping,
                initial,
                before,
                start,
                turn,
                after_readings,
                traced,
                attempt,
                played,
            )
        return device_record(task, agent, fault, attempts, time.perf_counter() - started)

    if names is None:
        return await attempted()
    async with names as problem:  # the task's names in HA while it plays, the user's after
        if problem is not None:
            return f"{NEEDS_RENAMING}: not done", problem
        return await attempted()


async def _play_later(
    task: Task,
    mapping: HardwareMapping,
    later: Plan,
    turn: _Turn,
    scene: Scene,
    after_readings: Readings,
    began: datetime,
    keys: list[tuple[str, str]],
) -> Played | tuple[str, str]:
    """The task's later part: a scripted player's rules and schedules made HA automations (and
    removed afterwards), then :func:`~.real_play.play_out` with the twin's values beside."""
    configs: list[dict[str, Any]] = []
    twin: list[dict[tuple[str, str], Any]] = []
    if turn.world is not None:
        try:
            configs = real_automations(turn.world, task, mapping, began)
        except ExportError as e:
            return "the reference's rule cannot be an HA automation here", str(e)
        twin = twin_later(turn.world, later, keys)
    try:
        async with created(scene.client, configs, mapping.timeout_seconds):
            return await play_out(scene, later, after_readings, began, keys, twin)
    except AutomationRefused as e:
        return "HA refused the automation", str(e)


async def _record(
    client: HardwareClient,
    task: Task,
    agent: str,
    mapping: HardwareMapping,
    initial: Snapshot,
    before: Snapshot,
    start: Reached,
    turn: _Turn,
    after_readings: Readings,
    traced: bool,
    attempt: int,
    played: Played | None = None,
) -> dict[str, Any]:
    outcome = turn.outcome
    settle_memory(task, outcome)
    try:
        trace = await client.agent_trace(turn.conversation) if traced and turn.conversation else {}
    except (
        HaError
    ) as err:  # the agent answered, but its tool calls are unknown: not the agent's fault
        return device_record(task, agent, f"smh.agent_trace failed: {err}", attempt, turn.seconds)
    if trace:  # SMH's own agent: its tool calls and questions are verified as on the simulator
        outcome.tool_calls = list(trace.get("tool_calls", []))
        outcome.questions = list(trace.get("questions", [])) or outcome.questions
        outcome.usage = dict(trace.get("usage", {}))
    after = overlay(initial, after_readings, fallback=before)
    verdict = await _verdict(task, before, after, outcome, played)
    record: dict[str, Any] = {
        **task.record_header(),
        "agent": agent,
        "backend": "hardware",
        "passed": verdict.passed,
        "verdict": verdict.to_dict(),
        "seconds": round(turn.seconds, 4),
        "response": turn.response,
        "speeches": turn.speeches,
        "outcome": {
            "response": outcome.response,
            "questions": outcome.questions,
            "tool_calls": outcome.tool_calls,
            **memory_fields(outcome),
        },
        "initial_state": mapped_state(start.readings),
        "final_state": mapped_state(after_readings),
        "changes": [c.to_dict() for c in diff(before, after)],
        "usage": outcome.usage,
        "latency": {
            "initial_state_s": round(start.seconds, 3),
            "agent_s": round(turn.seconds, 3),
            "reports_s": round(turn.report_seconds, 3),
            "reports_s_by_device": {
                did: round(s, 3) for did, s in sorted(turn.device_seconds.items())
            },
            "commanded": turn.commanded,
        },
        "read_at": time.time(),
        "attempts": attempt,
    }
    unreadable = {
        f"{d}/{loc}": str(v) for (d, loc), v in after_readings.items() if isinstance(v, ReadError)
    }
    if unreadable:
        record["unreadable"] = unreadable
    if played is not None:
        record["later"] = later_record(played)
    if turn.error:
        record["error"] = turn.error
    if turn.timed_out:
        record["timed_out"] = True
    return record


async def _verdict(
    task: Task, before: Snapshot, after: Snapshot, outcome: Outcome, played: Played | None
) -> Verdict:
    """The verifier's verdict; for a goal that played out in time, what the real home did then
    (an unusable agent output and missing required tool calls still fail it, as in
    :func:`~smh_core.bench.verifier.verify`)."""
    if played is None or played.verdict is None or outcome.agent_error:
        return await verify(task, before, after, outcome)
    if played.verdict.passed and task.required_actions:
        missing = required_actions_missing(task.required_actions, outcome.tool_calls)
        if missing:
            return Verdict(
                False,
                f"required tool calls missing: {[m.tool for m in missing]}",
                "EP",
                "deterministic",
            )
    return played.verdict


class _Copies:
    """Per task home: how a task on another home than the mapping's runs here (a copy of it
    with devices renamed, :func:`~.renamed_copy.renaming`), judged once per home file."""

    def __init__(self, mapping: HardwareMapping, homes: HomeCache) -> None:
        self.mapping, self.homes = mapping, homes
        self.seen: dict[str, Renaming | str] = {}

    def of(
        self, task: Task, allowed: bool
    ) -> tuple[Renaming | None, HardwareMapping, str | None, str]:
        """The renames, the mapping for the task's home, and a skip reason and detail (None)."""
        key = task.home.key()
        if key not in self.seen:
            mine = self.homes.get(SimpleNamespace(home=self.mapping.home))  # type: ignore[arg-type]
            try:
                copy = self.homes.get(task)
            except TaskError as e:  # its own home does not read: still not this one
                self.seen[key] = f"{OTHER_HOME}: {e.message}"
            else:
                self.seen[key] = renaming(mine, copy, self.mapping)
        found = self.seen[key]
        if isinstance(found, str):
            head, _, detail = found.partition(": ")
            return None, self.mapping, head, detail
        if not allowed:
            why = f"{found.detail()}; the run may rename them in HA's registry with {OPT_IN}"
            return None, self.mapping, NEEDS_RENAMING, why
        return found, self.mapping.model_copy(update={"home": task.home}), None, ""


async def run_on_hardware(
    tasks: Sequence[Task],
    url: str,
    token: str,
    agent_id: str,
    mapping: HardwareMapping,
    out_dir: Path,
    homes: HomeCache | None = None,
    progress: bool = True,
    interval: float = 0.1,
    session: aiohttp.ClientSession | None = None,
    player: str | None = None,
    attempts: int = 2,
    turn_timeout: float | None = TURN_TIMEOUT,
    clock: Clock | None = None,
    max_wait: float = 0.0,
    rename_devices: bool = False,
) -> HardwareRun:
    """Run ``tasks`` one at a time (one physical home) and append their records to
    ``out_dir/results.jsonl``; skipped tasks are not recorded, so a re-run retries them.
    ``player`` (``oracle``, ``null``) plays the tasks with SMH's scripted agents through the
    mapping's service calls instead of asking HA's conversation agent ``agent_id``. Timed and
    rule tasks wait on HA's clock (``clock``: real waiting by default) when that takes at most
    ``max_wait`` seconds; the automations a run makes (:data:`~.real_automations.PREFIX`) are removed
    after each task, and any left over (a run killed before) before the first and after the last.
    A task on a copy of the mapped home with devices renamed (the safety suite's) runs with
    ``rename_devices`` only: the names are set in HA's entity registry for the task and put back
    after it (:mod:`.renamed_copy`; names a killed run left are put back before anything else)."""
    if max_wait < 0:
        raise ValueError(f"max_wait must be 0 or more seconds, not {max_wait:g}")
    if player is not None and player not in SCRIPTED:
        raise ValueError(f"on hardware the scripted players are {sorted(SCRIPTED)}, not {player!r}")
    homes = homes or HomeCache()
    check_home(mapping, tasks, homes)
    out_dir.mkdir(parents=True, exist_ok=True)
    run = HardwareRun(ResultsLog(out_dir / "results.jsonl"))
    todo = [t for t in tasks if not run.log.done(t.id)]
    own = session is None
    session = session or aiohttp.ClientSession()
    journal = out_dir / JOURNAL
    try:
        client = HardwareClient(url.rstrip("/"), token, session)
        registry = socket_call(url.rstrip("/"), token, session)
        if journal.exists():  # a run killed while devices had a task's names: theirs first
            left = await put_back(registry, journal)
            if left is not None:
                raise NamesNotPutBack(
                    f"{journal}: names an earlier run gave could not be put back: {left}"
                )
            _LOGGER.warning("put back the device names an earlier run left in HA (%s)", journal)
        copies = _Copies(mapping, homes)
        missing = await missing_entities(client, mapping)
        if missing:
            raise ValueError(f"{mapping.path}: entities not in HA: {', '.join(missing)}")
        traced = player is not None or agent_id in await client.traced_agents()
        like = prepare_engine(todo[0], homes).snapshot() if todo else None
        prior = read_all(mapping, await client.states(), like) if like is not None else {}
        run.prior_state = mapped_state(prior)
        timed = any(k in NEEDS_TIME for t in todo for k in t.goal_kinds)
        editor = timed and {"automation", "config"} <= await client.components()
        stale = await _remove_bench_automations(client) if editor else []
        if stale:
            _LOGGER.warning("removed automations an earlier run left: %s", ", ".join(stale))
        async with contextlib.AsyncExitStack() as stack:
            watch = None
            if player is None and todo:
                try:
                    watch = await stack.enter_async_context(CallWatch(url, token, session))
                except (aiohttp.ClientError, RuntimeError) as e:  # an HA without its websocket API
                    _LOGGER.warning(
                        "cannot watch HA's service calls (%s): slow or disagreeing devices will "
                        "not be told apart from the agent's doing",
                        e,
                    )
            try:
                for task in tqdm(
                    todo, disable=not progress, unit="task", desc=f"hardware:{player or agent_id}"
                ):
                    decides = player is not None
                    reason, detail = skip_reason(task, mapping, traced, decides), ""
                    names, on = None, mapping
                    if reason == OTHER_HOME:
                        names, on, reason, detail = copies.of(task, rename_devices)
                        reason = reason or skip_reason(task, on, traced, decides)
                    if reason:
                        run.skip(task, reason, detail)
                        continue
                    result = await run_hardware_task(
                        client,
                        task,
                        agent_id,
                        on,
                        homes,
                        interval,
                        traced,
                        player,
                        watch,
                        attempts,
                        turn_timeout,
                        clock,
                        max_wait,
                        editor,
                        None
                        if names is None
                        else given_names(
                            registry, names, journal, client.states, mapping.timeout_seconds
                        ),
                    )
                    if isinstance(result, tuple):
                        run.skip(task, *result)
                    else:
                        run.log.append(result)
            finally:
                left = await _remove_bench_automations(client) if editor else []
                if like is not None:
                    run.restore_problem = await restore_prior(
                        client, mapping, like, prior, interval
                    )
                if editor and (still := await client.bench_automations()):
                    problem = f"automations SMH made are still in HA: {', '.join(still)}"
                    run.restore_problem = "; ".join(p for p in (run.restore_problem, problem) if p)
                elif left:
                    _LOGGER.warning("removed automations a task left: %s", ", ".join(left))
                if like is not None or editor:
                    write_restore(out_dir, run.prior_state, run.restore_problem)
    finally:
        if own:
            await session.close()
    write_skipped(out_dir, run.skipped)
    write_skipped_tasks(out_dir, run.skipped_tasks)
    return run


async def _remove_bench_automations(client: HardwareClient) -> list[str]:
    """Delete the automations HA shows that a benchmark run made (and only those)."""
    found = await client.bench_automations()
    for automation in found:
        with contextlib.suppress(HaError):
            await client.delete_automation(automation)
    return found


def cannot_run(
    tasks: Sequence[Task],
    mapping: HardwareMapping,
    homes: HomeCache,
    traced: bool = True,
    decides: bool = True,
) -> dict[str, str]:
    """Task id -> why it cannot run on this hardware, judged before touching any device (another
    home, a goal HA cannot judge, an attribute the mapping lacks); runnable tasks are left out.
    ``traced``: the agent reports its tool calls (the oracle, SMH's own agent); ``decides``: its
    memory decision (SMH's players; see :func:`skip_reason`)."""
    out = {}
    for task in tasks:
        reason = never_runs(task, mapping, homes, traced, decides)
        if reason is not None:
            out[task.id] = reason
    return out


def never_runs(
    task: Task,
    mapping: HardwareMapping,
    homes: HomeCache,
    traced: bool = True,
    decides: bool = True,
) -> str | None:
    """Why the task cannot run on this hardware however long it may wait (the reason a run
    gives, with its detail), or None: :func:`skip_reason`, a rule's or schedule's
    :func:`~.real_plan.plan` with no limit on waiting, then :func:`what_is_unmapped`. The task
    generators ask it of a twin's tasks against the mapping the twin implies
    (:mod:`.twin_record`), so what they write is what a run can play (by the oracle: traced,
    and deciding on memory)."""
    reason = skip_reason(task, mapping, traced, decides)
    if reason is None and any(k in NEEDS_TIME for k in task.goal_kinds):
        when = datetime.fromisoformat(task.start_time)
        planned = plan(task, mapping, when, float("inf"))
        if isinstance(planned, tuple):
            reason = f"{planned[0]}: {planned[1]}" if planned[1] else planned[0]
    if reason is None:
        initial = prepare_engine(task, homes).snapshot()
        unmapped = what_is_unmapped(touched(task, initial), mapping)
        if unmapped is not None:
            reason = f"{unmapped[0]}: {', '.join(unmapped[1])}"
    return reason
