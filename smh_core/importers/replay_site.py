"""Published models replayed from home-assistant-datasets' traces, as leaderboard rows.

A trace replay (:mod:`smh_core.ha.trace_replay`, ``scripts/replay_traces.py``) runs each
published model's recorded tool calls inside Home Assistant and judges the end state with SMH's
verifier. Its folder holds the cases it was asked to replay (``cases.jsonl``), what each replay
gave (``replay.jsonl``) and a manifest (``replay.json``: the command, the machine, HA's version),
so ``smh report site`` can show every published model of it as a row of its own (one per data
set, report version and model), marked as replayed, with where its verdicts come from: the
model's own calls scored by SMH, not a run of the model here.

The folder is read strictly, like a run folder: a line that does not parse, a case count that
differs from the manifest's, or a judgeable case without its replay raises
:class:`~smh_core.bench.site_data.SiteInputError` naming the file, since a row built from part
of a replay would be a wrong number in public.
"""

from __future__ import annotations

import contextlib
import hashlib
import shlex
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from smh_core.bench.manifest import machine_info, redact_command
from smh_core.bench.site_data import Row, SiteInputError, fill_row, machine_label, slug

from .ha_traces import TraceCase, write_cases
from .trace_agreement import Replayed

REPLAY_MANIFEST = "replay.json"
CASES_FILE = "cases.jsonl"
REPLAY_LOG = "replay.jsonl"
SOURCE = "home-assistant-datasets"
SUITE = "ha_datasets"


class ReplayManifest(BaseModel):
    """What a replay folder is: its source, how many cases it was asked for, where it ran."""

    kind: Literal["trace-replay"] = "trace-replay"
    source: str = SOURCE
    cases: int
    ha_version: str | None = None
    started: str
    updated: str
    command: list[str] | None = None
    machine: dict[str, Any] | None = None


def write_manifest(
    out: Path, cases: Sequence[TraceCase], ha_version: str | None, command: list[str] | None
) -> ReplayManifest:
    """``cases.jsonl`` and ``replay.json`` in ``out``, before the replay runs (a replay stopped
    half way then reads as incomplete, not as a smaller replay). A resumed replay keeps its
    start time; the command is stored redacted (no token)."""
    out.mkdir(parents=True, exist_ok=True)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    started = now
    path = out / REPLAY_MANIFEST
    if path.is_file():
        with contextlib.suppress(ValidationError):  # unreadable: rewritten below
            started = ReplayManifest.model_validate_json(path.read_bytes()).started
    write_cases(out / CASES_FILE, cases)
    manifest = ReplayManifest(
        cases=len(cases),
        ha_version=ha_version,
        started=started,
        updated=now,
        command=redact_command(command) if command is not None else None,
        machine=machine_info(),
    )
    path.write_text(manifest.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return manifest


def _lines(path: Path) -> list[tuple[int, bytes]]:
    try:
        raw = path.read_bytes()
    except OSError:
        raise SiteInputError(f"{path}: missing (a replay folder holds it)") from None
    lines = raw.split(b"\n")
    if lines[-1].strip():
        raise SiteInputError(
            f"{path}:{len(lines)}: the last line is cut off (a replay still writing, or "
            "killed): resume the replay first"
        )
    return [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]


def read_folder(folder: Path) -> tuple[ReplayManifest, str, list[TraceCase], dict[str, Replayed]]:
    """The manifest (and the hash of its bytes), the cases and their replays; raises naming
    the file and line."""
    path = folder / REPLAY_MANIFEST
    raw = path.read_bytes()
    try:
        manifest = ReplayManifest.model_validate_json(raw)
    except ValidationError as e:
        raise SiteInputError(f"{path}: not a replay manifest ({str(e).splitlines()[0]})") from None
    cases = []
    for n, line in _lines(folder / CASES_FILE):
        try:
            cases.append(TraceCase.model_validate_json(line))
        except ValidationError as e:
            raise SiteInputError(
                f"{folder / CASES_FILE}:{n}: not a trace case ({str(e).splitlines()[0]})"
            ) from None
    if len(cases) != manifest.cases:
        raise SiteInputError(
            f"{folder / CASES_FILE}: {len(cases)} cases, the manifest says {manifest.cases}"
        )
    replayed: dict[str, Replayed] = {}
    log = folder / REPLAY_LOG
    for n, line in _lines(log) if log.exists() else []:
        try:
            rec = Replayed.model_validate_json(line)
        except ValidationError as e:
            raise SiteInputError(
                f"{log}:{n}: not a replay record ({str(e).splitlines()[0]})"
            ) from None
        replayed[rec.case] = rec
    missing = [c.id for c in cases if c.task is not None and c.id not in replayed]
    if missing:
        raise SiteInputError(
            f"{folder}: {len(missing)} of {sum(c.task is not None for c in cases)} judgeable cases "
            f"not replayed yet (e.g. {missing[0]}): resume the replay"
            + (f" ({shlex.join(manifest.command)})" if manifest.command else "")
        )
    return manifest, hashlib.sha256(raw).hexdigest()[:12], cases, replayed


def record(case: TraceCase, rec: Replayed | None) -> dict[str, Any]:
    """One case as a benchmark record: the model's recorded calls and reply, each call with what
    it gave when replayed here (a built-in agent's case has no calls: HA's own matcher made
    them), SMH's verdict on the replayed end state (the published verdict beside it in the
    reason), or, when no task judges it or HA refused it, a task error (not scored)."""
    out: dict[str, Any] = {
        "task_id": case.source_task,
        "suite": SUITE,
        "category": case.dataset,
        "subcategory": case.record_id,
        "difficulty": "–",
        "agent": f"replayed:{case.model}",
        "seconds": 0.0,
        "outcome": {
            "response": case.response,
            "tool_calls": [{"tool": c.tool, "arguments": c.arguments} for c in case.calls],
        },
        "usage": {},
    }
    if case.task is None:
        out["task_error"] = {"kind": f"not judgeable: {case.unjudgeable or 'no imported task'}"}
        return out
    if rec is None or rec.problem:
        out["task_error"] = {"kind": rec.problem if rec else "not replayed"}
        return out
    if len(rec.results) == len(
        case.calls
    ):  # each call's answer in this HA, as the drill-down shows
        for call, result in zip(out["outcome"]["tool_calls"], rec.results, strict=True):
            call["result"] = result.model_dump(exclude_defaults=True)
    passed = bool(rec.verdict.get("passed"))
    published = "Good" if case.published else "Bad"
    out["passed"] = passed
    out["verdict"] = {
        "passed": passed,
        "reason": f"{rec.verdict.get('reason') or '–'} (published verdict: {published})",
        "error_class": rec.verdict.get("error_class"),
    }
    return out


class ReplayReader:
    """The site's reader of replay folders (:class:`~smh_core.bench.site_data.FolderReader`)."""

    marker = REPLAY_MANIFEST

    def read(self, folder: Path) -> list[Row]:
        """One row per data set, report version and model of the replay, in that order."""
        manifest, digest, cases, replayed = read_folder(folder)
        groups: dict[tuple[str, str, str], list[TraceCase]] = {}
        for case in cases:
            groups.setdefault((case.dataset, case.version, case.model), []).append(case)
        rows = []
        for (dataset, version, model), group in sorted(groups.items()):
            ha = manifest.ha_version or "?"
            row = Row(
                id=f"replayed-{slug(model)}-{slug(f'{dataset} {version}')}-{digest[:8]}",
                path=folder,
                config={
                    "agent": "replayed",
                    "model": model,
                    "setting": "–",
                    "guard": "–",
                    "protocol": "–",
                    "backend": "ha",
                    "HA": manifest.ha_version or "–",
                    "machine": machine_label(manifest.machine or {}),
                    "published": f"{dataset} {version}",
                },
                manifest_hash=digest,
                command=shlex.join(manifest.command) if manifest.command else "",
                command_recorded=bool(manifest.command),
                machine=manifest.machine or {},
                baseline=f"{model} (replayed)",
                started=manifest.started,
                replayed=(
                    f"{SOURCE} reports/{dataset}/{version} ({len(group)} cases): the model's "
                    f"recorded tool calls replayed in Home Assistant {ha}, judged by SMH"
                ),
            )
            records = []
            requests: dict[str, str] = {}
            for case in group:
                records.append(record(case, replayed.get(case.id)))
                requests.setdefault(case.source_task, case.text)
            fill_row(row, records, requests)
            rows.append(row)
        return rows
