"""Replay home-assistant-datasets' recorded tool calls inside a Home Assistant running SMH.

For every published case an imported task can judge (:mod:`smh_core.importers.ha_traces`):
``smh.load_task`` puts the SMH home in the test's initial state, ``smh.call_tools`` runs the
model's recorded calls through HA's Assist API exactly as the model made them (intents match
names, areas and domains in this HA, against SMH's entities), and ``smh.verify`` judges the end
state with the model's recorded reply. Where the source asked HA's built-in Assist agent (no
model, no tool calls), the sentence goes to this HA's built-in agent instead. HA's states before and after the calls are kept, for the
source's own rule (:mod:`smh_core.importers.trace_agreement`).

Every entity of the home is exposed to Assist first, as the source's synthetic homes expose all
of theirs (HA exposes no lock or valve by default). Cases are grouped by home (one entry reload
per home) and appended to ``replay.jsonl`` as they finish, so a stopped run resumes; the entry
gets its home, options and device states back at the end, as :func:`.runner.run_via_ha` does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from smh_core.homeenv.model import Home
from smh_core.importers.ha_traces import BUILTIN_AGENT, TraceCase, outcome_of
from smh_core.importers.replay_site import REPLAY_LOG, write_manifest
from smh_core.importers.trace_agreement import Replayed, compact_state
from smh_core.progress import tqdm
from smh_core.task.model import Task

from .runner import (
    DEFAULT_HOME_DIR,
    READY_TIMEOUT,
    HaClient,
    HomeUnavailable,
    ha_home_key,
    restore_device_states,
    restore_entry,
)
from .websocket import HaSocket


class ReplayError(RuntimeError):
    """HA refused a websocket command of the replay."""


class _Socket(HaSocket):
    failure = ReplayError

    async def service(self, service: str, data: dict[str, Any]) -> Any:
        """An ``smh`` service's response."""
        out = await self.call(
            {
                "type": "call_service",
                "domain": "smh",
                "service": service,
                "service_data": data,
                "return_response": True,
            }
        )
        return (out or {}).get("response")

    async def states(self, entity_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        """The compact states of ``entity_ids`` (:func:`compact_state`)."""
        wanted = set(entity_ids)
        return {
            s["entity_id"]: compact_state(s["entity_id"], s["state"], s.get("attributes") or {})
            for s in await self.call({"type": "get_states"})
            if s["entity_id"] in wanted
        }

    async def entry_entities(self, entry_id: str) -> list[str]:
        """Every entity the config entry has in HA's registry."""
        return [
            e["entity_id"]
            for e in await self.call({"type": "config/entity_registry/list"})
            if e.get("config_entry_id") == entry_id
        ]

    async def expose_entry(self, entry_id: str) -> int:
        """Expose every entity of the config entry to Assist; returns how many."""
        entities = await self.entry_entities(entry_id)
        if entities:
            await self.call(
                {
                    "type": "homeassistant/expose_entity",
                    "assistants": ["conversation"],
                    "entity_ids": entities,
                    "should_expose": True,
                }
            )
        return len(entities)


def load_replayed(path: Path) -> dict[str, Replayed]:
    """The records of a replay log, by case id (a cut-off last line is dropped)."""
    out: dict[str, Replayed] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = Replayed.model_validate_json(line)
        except ValueError:
            continue
        out[rec.case] = rec
    return out


@dataclass
class ReplayRun:
    records: dict[str, Replayed]
    ran: int = 0
    skipped_homes: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0


def _entity_ids(home: Home) -> list[str]:
    """The home's devices that stand for source entities (their ids are HA entity ids)."""
    return [d.did for d in home.devices if "." in d.did]


async def replay_traces(
    cases: Iterable[TraceCase],
    tasks: Mapping[str, Task],
    home_of: Callable[[Task], Home],
    url: str,
    token: str,
    out_dir: Path,
    *,
    config_entry_id: str | None = None,
    progress: bool = True,
    home_dir: str = DEFAULT_HOME_DIR,
    ready_timeout: float = READY_TIMEOUT,
) -> ReplayRun:
    """Replay every judgeable case of ``cases`` not yet in ``out_dir/replay.jsonl``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    log_path = out_dir / REPLAY_LOG
    run = ReplayRun(load_replayed(log_path))
    todo: dict[str, list[TraceCase]] = {}
    for case in cases:
        if case.task is not None and case.id not in run.records:
            if case.task not in tasks:
                raise ValueError(
                    f"case {case.id} names task {case.task}, which the task file does not hold "
                    "(import the tasks and the traces together)"
                )
            todo.setdefault(ha_home_key(tasks[case.task].home), []).append(case)
    if not todo:
        return run
    started = time.monotonic()
    async with aiohttp.ClientSession() as session:
        client = HaClient(url.rstrip("/"), token, session)
        entry_id = config_entry_id or await client.smh_entry_id()
        original_key = await client.settled_key(entry_id, ready_timeout)
        saved = await client.service("smh", "snapshot", {"config_entry_id": entry_id})
        original: dict[str, Any] | None = None
        try:
            async with _Socket(url, token, session) as ws:
                with (
                    tqdm(
                        total=sum(map(len, todo.values())),
                        disable=not progress,
                        unit="case",
                        desc="replay",
                    ) as bar,
                    log_path.open("a", encoding="utf-8") as log,
                ):
                    for key, group in todo.items():
                        task0 = tasks[group[0].task]  # type: ignore[index]
                        try:
                            before = await client.switch_home(
                                entry_id, task0.home, home_dir, ready_timeout
                            )
                        except HomeUnavailable as err:
                            run.skipped_homes[key] = str(err)
                            bar.update(len(group))
                            continue
                        original = original or before
                        await ws.expose_entry(entry_id)
                        entities = _entity_ids(home_of(task0))
                        for case in group:
                            rec = await _replay(ws, entry_id, case, tasks[case.task], entities)  # type: ignore[index]
                            log.write(rec.model_dump_json() + "\n")
                            log.flush()
                            run.records[case.id] = rec
                            run.ran += 1
                            bar.update(1)
        finally:
            if original is not None:
                await restore_entry(client, entry_id, original, original_key, ready_timeout)
            if saved.get("devices"):
                await restore_device_states(client, entry_id, saved)
    run.seconds = time.monotonic() - started
    return run


async def _replay(
    ws: _Socket, entry_id: str, case: TraceCase, task: Task, entities: list[str]
) -> Replayed:
    entry = {"config_entry_id": entry_id}
    try:
        await ws.service("load_task", {**entry, "task": task.model_dump(mode="json")})
    except ReplayError as err:
        return Replayed(case=case.id, problem=f"smh.load_task refused the task: {err}")
    # the source's rule on *every* entity the import made, not only the source's own ids: an
    # entity of SMH's that changes on its own (a countdown, a derived sensor) is a difference
    entities = sorted({*entities, *await ws.entry_entities(entry_id)})
    before = await ws.states(entities)
    if case.builtin_agent:  # HA's own sentence matcher made the calls: ask it again
        out = await ws.call(
            {
                "type": "conversation/process",
                "text": case.text,
                "language": "en",
                "agent_id": BUILTIN_AGENT,
            }
        )
        raw, called = [out.get("response")], []
    else:
        out = await ws.service(
            "call_tools",
            {"calls": [{"tool": c.tool, "arguments": c.arguments} for c in case.calls]},
        )
        ran = (out or {}).get("results", [])
        raw, called = [r["result"] for r in ran], [r.get("called", r["tool"]) for r in ran]
    after = await ws.states(entities)
    verdict = await ws.service("verify", {**entry, "response": case.response})
    errors = [
        str(r.get("error_text") or r.get("error"))
        for r in raw
        if isinstance(r, dict) and "error" in r
    ]
    return Replayed(
        case=case.id,
        results=[outcome_of(r) for r in raw],
        called=called,
        errors=errors,
        verdict={k: verdict.get(k) for k in ("passed", "reason", "error_class")},
        before=before,
        after=after,
    )


async def replay_and_report(
    cases: list[TraceCase],
    tasks: Mapping[str, Task],
    home_of: Callable[[Task], Home],
    url: str,
    token: str,
    out_dir: Path,
    command: list[str] | None = None,
    **options: Any,
) -> tuple[ReplayRun, dict[str, Path]]:
    """Replay ``cases`` (resuming) and write the agreement report over all of them
    (:func:`smh_core.importers.trace_agreement.write`). The folder also gets the cases and a
    manifest (``command``, redacted; HA's version; the machine), written first, so
    ``smh report site`` shows each published model as a row (:mod:`smh_core.importers.replay_site`)."""
    from smh_core.importers import trace_agreement

    async with aiohttp.ClientSession() as session:
        version = await HaClient(url.rstrip("/"), token, session).version()
    write_manifest(out_dir, cases, version, command)
    run = await replay_traces(cases, tasks, home_of, url, token, out_dir, **options)
    return run, trace_agreement.write(out_dir, trace_agreement.rows(cases, run.records))
