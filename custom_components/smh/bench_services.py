"""Benchmark services: ``smh.load_task`` puts the home in a task's initial state,
``smh.advance_time`` lets simulated time pass (schedules, rules, appliances, room physics) and
``smh.verify`` scores what happened since, with the same verifier as the embedded runner.

A task names its home (generated level + seed, a Matter seed, or a file); it must be the entry's
home, so a benchmark driver groups tasks by home and reconfigures the entry between groups. A
file home is matched by file name (:meth:`smh_core.task.model.HomeRef.ha_key`): the task's
``homes/sage-0.json`` runs in an entry whose file is e.g. ``smh_homes/sage-0.json``.

``smh.advance_time`` jumps at most :data:`.clock.MAX_ADVANCE` (31 days) per call, off the event
loop in slices (:meth:`.clock.SimClock.async_advance`); a longer jump is refused with
``advance_too_long`` (call it again to go further).

``smh.load_task`` and ``smh.advance_time`` are admin services (they replace or fast-forward the
whole home; see the table in :mod:`custom_components.smh`; :mod:`.services` registers them); ``smh.verify`` only reads. A task
is checked completely before anything changes (schema, start time, home, every override
against the engine's own value checks, applied in order on a scratch engine): a refused task
leaves the home, its entities and the simulated clock exactly as they were. The accepted state
then replaces the home's in one engine change. Every refusal is a ``ServiceValidationError`` (a :class:`.refusal.Refusal`: HTTP 400)
with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import entity_registry as er
from pydantic import ValidationError

from smh_core.backends.embedded import EmbeddedBackend
from smh_core.bench.claims import said_versus_did
from smh_core.bench.consent_user import intended_actions
from smh_core.bench.verifier import Outcome, verify
from smh_core.bench.world import not_the_agents
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.snapshot import Snapshot, diff
from smh_core.sim.simulator import SimulationError
from smh_core.task.home import override_updates
from smh_core.task.model import Task

from .clock import MAX_ADVANCE
from .const import (
    SERVICE_ADVANCE_TIME,
    SERVICE_AGENT_TRACE,
    SERVICE_LOAD_TASK,
    SERVICE_RESTORE_STATE,
    SERVICE_VERIFY,
)
from .refusal import Refusal, refusal
from .runtime import SmhConfigEntry, SmhRuntime

ATTR_ENTRY = "config_entry_id"
LOAD_TASK_SCHEMA = vol.Schema({vol.Optional(ATTR_ENTRY): cv.string, vol.Required("task"): dict})
RESTORE_SCHEMA = vol.Schema(
    {vol.Optional(ATTR_ENTRY): cv.string, vol.Required("devices"): {cv.string: dict}}
)
ADVANCE_SCHEMA = vol.Schema(
    {
        vol.Optional(ATTR_ENTRY): cv.string,
        vol.Required("seconds"): vol.All(
            vol.Coerce(float), vol.Range(min=0)
        ),  # the cap: advance_too_long
    }
)
VERIFY_SCHEMA = vol.Schema(
    {
        vol.Optional(ATTR_ENTRY): cv.string,
        vol.Optional("response", default=""): cv.string,
        vol.Optional("questions", default=[]): [cv.string],
        vol.Optional("tool_calls"): [dict],  # given (even empty): the turn's calls are known
        # the devices of smh.snapshot when the agent first asked: a clarify goal fails on what
        # the agent changed before asking
        vol.Optional("asked_state"): {cv.string: dict},
    }
)


TRACE_SCHEMA = vol.Schema(
    {vol.Optional(ATTR_ENTRY): cv.string, vol.Required("conversation_id"): cv.string}
)
SCHEMAS = {
    SERVICE_LOAD_TASK: LOAD_TASK_SCHEMA,
    SERVICE_RESTORE_STATE: RESTORE_SCHEMA,
    SERVICE_ADVANCE_TIME: ADVANCE_SCHEMA,
    SERVICE_VERIFY: VERIFY_SCHEMA,
    SERVICE_AGENT_TRACE: TRACE_SCHEMA,
}


def summed_trace(turns: list[dict[str, Any]]) -> dict[str, Any]:
    """A conversation's turns as one outcome: usage added up, tool calls and questions in order."""
    usage: dict[str, int] = {}
    for turn in turns:
        for key, value in turn.get("usage", {}).items():
            usage[key] = usage.get(key, 0) + int(value)
    return {
        "turns": turns,
        "usage": usage,
        "tool_calls": [c for t in turns for c in t.get("tool_calls", [])],
        "questions": [q for t in turns for q in t.get("questions", [])],
        "seconds": round(sum(t.get("seconds", 0.0) for t in turns), 4),
    }


def _error(key: str, **placeholders: str) -> Refusal:
    return refusal(key, **placeholders)


def _bad_task(field: str, message: str) -> Refusal:
    return _error("bad_task", field=field or "(task)", message=message)


def parse_task(data: Any) -> Task:
    """The task, or ``bad_task`` naming the first invalid field."""
    try:
        task = Task.model_validate(data)
    except ValidationError as err:
        first = err.errors(include_url=False, include_input=False)[0]
        field = ".".join(str(p) for p in first["loc"])
        raise _bad_task(field, first["msg"].removeprefix("Value error, ")) from err
    try:
        datetime.fromisoformat(task.start_time)
    except ValueError as err:
        raise _bad_task("start_time", f"not an ISO 8601 date-time: {task.start_time!r}") from err
    if task.climate is not None:  # HA's home keeps its own weather; the embedded runner applies it
        raise _bad_task("climate", "a per-task climate is applied by the embedded runner only")
    return task


def staged_state(
    engine: HomeEngine, start: Snapshot, updates: Iterable[tuple[str, str, Mapping[str, Any]]]
) -> Snapshot:
    """``start`` with ``updates`` (``(field, did, values)``) applied in order by
    ``set_values`` (the engine's own checks) on a scratch engine of the same home, so nothing the
    entities see changes unless every one is accepted; a refusal names its field."""
    scratch = HomeEngine(engine.home)
    scratch.restore(start)
    for field, did, values in updates:
        result = scratch.set_values(did, values)
        if not result.ok:
            raise _error("engine_error", message=f"{field}: {result.error}")
    return scratch.snapshot()


def task_state(engine: HomeEngine, initial: Snapshot, task: Task) -> Snapshot:
    """The home's state for ``task``: its initial state with the task's overrides, as the
    embedded runner applies them."""
    return staged_state(engine, initial, override_updates(task))


def changed_before_asking(
    engine: HomeEngine, before: Snapshot, asked: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """What the agent changed between the task's start and its first question: ``asked`` (the
    devices ``smh.snapshot`` returned then, read back from JSON) against ``before`` as JSON gives
    it, without what no agent changes (:func:`not_the_agents`). A state of other devices than
    the home's is refused: it cannot be told what changed."""
    start = json.loads(json.dumps(before.to_dict(), default=str))  # as the runner sends it
    if set(asked) != set(start):
        extra = sorted(set(asked) ^ set(start))
        raise _error(
            "engine_error",
            message=f"asked_state: not this home's devices (differs in {', '.join(extra[:3])})",
        )
    ignore = not_the_agents(engine)
    return [
        c.to_dict()
        for c in diff(Snapshot(start), Snapshot(dict(asked)))
        if not ignore(c.did, c.locator)
    ]


def handlers(
    hass: HomeAssistant, entry_for: Callable[[ServiceCall], SmhConfigEntry]
) -> dict[str, Callable[[ServiceCall], Awaitable[ServiceResponse]]]:
    """The benchmark's services, registered by :mod:`.services` under :data:`SCHEMAS`."""

    def runtime_for(call: ServiceCall) -> SmhRuntime:
        return entry_for(call).runtime_data

    async def load_task(call: ServiceCall) -> ServiceResponse:
        runtime = runtime_for(call)
        task = parse_task(call.data["task"])
        if task.home.ha_key() != runtime.home_key:
            raise _error("other_home", task=task.home.ha_key(), home=runtime.home_key)
        state = task_state(runtime.engine, runtime.initial, task)
        async with runtime.lock:  # not in the middle of an smh.advance_time slice
            # everything is checked: from here on the task is loaded
            try:
                runtime.engine.restore(state)
            except SimulationError as err:  # the home's own automations looped on the new state
                raise _error("simulation_error", message=str(err)) from err
            finally:
                runtime.task = task
                runtime.task_before = runtime.engine.snapshot()
                runtime.task_plans = runtime.plans()
        return {"task_id": task.id, "turns": [t.text for t in task.turns]}

    async def restore_state(call: ServiceCall) -> ServiceResponse:
        """Put back device values an ``smh.snapshot`` returned (a benchmark run inside HA ends
        with the user's home as it found it). Every value is checked on a scratch engine
        first: one bad value changes nothing."""
        runtime = runtime_for(call)
        async with runtime.lock:
            state = staged_state(
                runtime.engine,
                runtime.engine.snapshot(),
                ((f"devices.{did}", did, values) for did, values in call.data["devices"].items()),
            )
            changes = runtime.engine.restore(state)
        return {"changes": len(changes)}

    async def verify_task(call: ServiceCall) -> ServiceResponse:
        runtime = runtime_for(call)
        await runtime.async_check_read_all(hass, call.context)
        if runtime.task is None:
            raise _error("no_task")
        outcome = Outcome(
            response=call.data["response"],
            questions=list(call.data["questions"]),
            tool_calls=list(call.data.get("tool_calls", [])),
        )
        if "asked_state" in call.data:
            outcome.acted_before_asking = changed_before_asking(
                runtime.engine, runtime.task_before, call.data["asked_state"]
            )
        async with runtime.lock:  # the state between slices of an smh.advance_time, not during one
            after = runtime.engine.snapshot()
            plans = runtime.plans()
        try:
            verdict = await verify(runtime.task, runtime.task_before, after, outcome)
        except ValueError as err:  # a goal HA cannot judge (timed, automation) or a bad critic
            raise _error("cannot_verify", task=runtime.task.id, message=str(err)) from err
        out: dict[str, Any] = {"task_id": runtime.task.id, **verdict.to_dict()}
        claims = said_versus_did(
            outcome,
            runtime.engine,
            not_the_agents(runtime.engine),
            runtime.task_before,
            after,
            other_effects=plans != runtime.task_plans,
            traced="tool_calls" in call.data,
        )
        if claims:  # said versus did (issue 38), as the embedded runner records it
            out["claims"] = [c.to_dict() for c in claims]
            out["false_claims"] = sum(c.truth == "false" for c in claims)
        return out

    async def advance_time(call: ServiceCall) -> ServiceResponse:
        clock = runtime_for(call).clock
        if clock is None:
            raise _error("no_clock")
        seconds = float(call.data["seconds"])
        if seconds > MAX_ADVANCE.total_seconds():
            raise _error(
                "advance_too_long",
                seconds=f"{seconds:g}",
                days=f"{seconds / 86400:g}",
                max_days=str(MAX_ADVANCE.days),
            )
        try:
            return await clock.async_advance(seconds)
        except SimulationError as err:
            raise _error("simulation_error", message=str(err)) from err

    async def agent_trace(call: ServiceCall) -> ServiceResponse:
        """What SMH's own agent did in a conversation (empty for other agents' conversations),
        and which conversation entities are SMH's, so a runner knows whether a trace exists."""
        runtime = runtime_for(call)
        await runtime.async_check_read_all(hass, call.context)
        registry = er.async_get(hass)
        agents = [
            e.entity_id
            for e in er.async_entries_for_config_entry(registry, runtime.entry_id)
            if e.domain == "conversation"
        ]
        conversation_id = call.data["conversation_id"]
        return {
            "agent_entity_ids": agents,
            **summed_trace(list(runtime.agent_traces.get(conversation_id, []))),
            "awaiting": _awaiting(runtime, conversation_id),
        }

    return {
        SERVICE_LOAD_TASK: load_task,
        SERVICE_RESTORE_STATE: restore_state,
        SERVICE_ADVANCE_TIME: advance_time,
        SERVICE_VERIFY: verify_task,
        SERVICE_AGENT_TRACE: agent_trace,
    }


def _awaiting(runtime: SmhRuntime, conversation_id: str) -> list[dict[str, Any]]:
    """The high-risk calls the agent's last reply asked the user to confirm, each with whether
    the loaded task's user wants it (``intended``: the benchmark's simulated user says yes to
    exactly those, as :func:`~smh_core.bench.consent_user.simulated_confirmation` does on the
    simulator); ``intended`` is false without a loaded task."""
    guard = runtime.awaiting_confirmation.get(conversation_id)
    waiting = [{"did": p.did, "rule": p.rule} for p in guard.pending] if guard is not None else []
    if not waiting:
        return []
    task = runtime.task
    wanted: set[tuple[str, str]] = set()
    if task is not None:
        devices = {str(d["did"]): d for d in EmbeddedBackend(runtime.engine).list_devices()}
        wanted = intended_actions(task, devices)
    return [
        {**item, "intended": bool({(item["did"], item["rule"]), (item["did"], "*")} & wanted)}
        for item in waiting
    ]
