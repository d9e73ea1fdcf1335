"""``run.json``: what a run folder holds, so results are never silently mixed.

A run folder is resumable: re-running the same command continues it. That is only right when
the command is the same run: re-running with another agent, model, setting or task set into a
folder that holds an oracle run used to re-report the oracle's results as the new agent's.
The manifest records the run's identity (agent, setting, model, endpoint without
credentials, tool protocol and response format, action guard, sample seed, a hash of every
task) beside where it came from (code version and commit, HA version when used, start and end
times). :func:`open_run` refuses a resume whose identity differs, naming what differs;
``--force-new`` moves the old files into ``previous-<time>/`` and starts over.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from smh_core import __version__
from smh_core.task.model import Task

MANIFEST = "run.json"
RUN_FILES = (
    "results.jsonl",
    "results.quarantine.jsonl",
    "report.md",
    "report.csv",
    "report.png",
    MANIFEST,
)


class RunIdentity(BaseModel):
    """What must be equal for a run to continue in the same folder."""

    agent: str
    setting: str | None = None
    model: str | None = None
    endpoint: str | None = None
    tool_protocol: str | None = None
    structured: str | None = None
    max_tokens: int | None = None
    budget: int | None = None
    repeat_limit: int | None = (
        None  # EIA: same call and result this many times in a row ends a turn
    )
    guard: bool = True
    backend: str = "embedded"
    voice: str | None = None  # --voice: the simulated speaker (voice, speed, noise, seed)
    replay_from: str | None = None
    limit: int | None = None
    seed: int | None = None
    tasks: dict[str, str] = Field(
        default_factory=dict
    )  # task id -> sha256 of the task's canonical JSON


class RunManifest(BaseModel):
    identity: RunIdentity
    suites: dict[str, int] = Field(default_factory=dict)  # suite -> tasks in this run
    smh_version: str = __version__
    git_commit: str | None = None
    ha_version: str | None = None
    started: str = ""
    updated: str = ""
    finished: str | None = None
    runs: int = 0  # how many times the command ran in this folder (1 + resumes)
    task_source: list[str] = Field(
        default_factory=list
    )  # the suites or files the tasks were read from
    suite_names: dict[str, str] = Field(
        default_factory=dict
    )  # task id -> suite as asked, where not its own
    # how the run was started (``smh`` and its arguments; the leaderboard's reproduce line) and
    # on what machine (``smh report site``'s cost columns); absent in folders written before
    command: list[str] | None = None
    machine: dict[str, Any] | None = None


class RunMismatch(ValueError):
    """The folder holds another run; the message says what differs and what to do."""


def task_hash(task: Task) -> str:
    """A task's fingerprint: its canonical JSON (sorted keys), so any change to it shows."""
    body = json.dumps(
        task.model_dump(mode="json", by_alias=True, exclude_none=True),
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def git_commit() -> str | None:
    """The checkout's commit, when the code runs from a git checkout (else ``None``)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return out or None


def machine_info() -> dict[str, Any]:
    """What the run's seconds were measured on: CPU model, logical cores, RAM (GiB) and the
    GPUs the NVIDIA driver lists (none: an empty list). Read from /proc, no subprocess."""
    cpu = platform.machine()  # not platform.processor(): it runs `uname -p`
    ram = None
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                ram = round(int(line.split()[1]) / 2**20, 1)
                break
    except (OSError, ValueError, IndexError):
        pass
    gpus: list[str] = []
    nvidia = Path("/proc/driver/nvidia/gpus")
    if nvidia.is_dir():
        for info in sorted(nvidia.glob("*/information")):
            for line in info.read_text(encoding="utf-8", errors="replace").splitlines():
                if line.startswith("Model:"):
                    gpus.append(line.split(":", 1)[1].strip())
    return {"cpu": cpu, "cores": os.cpu_count(), "ram_gib": ram, "gpus": gpus}


SECRET_FLAG = re.compile(r"^--[\w-]*(token|key|secret|password)[\w-]*$", re.IGNORECASE)


def redact_command(argv: Sequence[str]) -> list[str]:
    """The command as typed, safe to publish: the value of a flag named for a token, key, secret
    or password becomes ``REDACTED``, and a URL keeps no credentials or query string (as
    ``LLMConfig.endpoint`` prints it)."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append("REDACTED")
            hide_next = False
            continue
        flag, eq, _ = arg.partition("=")
        if SECRET_FLAG.match(flag):
            if eq:
                out.append(f"{flag}=REDACTED")
            else:
                out.append(arg)
                hide_next = True
            continue
        out.append(
            re.sub(r"\b([a-z][a-z0-9+.-]*://)[^/@\s]*@", r"\1", arg, flags=re.I).split("?")[0]
            if "://" in arg
            else arg
        )
    return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def identity_for(tasks: Sequence[Task], **fields: Any) -> RunIdentity:
    return RunIdentity(tasks={t.id: task_hash(t) for t in tasks}, **fields)


def _differences(old: RunIdentity, new: RunIdentity) -> list[str]:
    out = []
    for name in RunIdentity.model_fields:
        if name == "tasks":
            continue
        a, b = getattr(old, name), getattr(new, name)
        if a != b:
            out.append(f"{name}: {a!r} here, {b!r} now")
    if old.tasks != new.tasks:
        added = sorted(set(new.tasks) - set(old.tasks))
        removed = sorted(set(old.tasks) - set(new.tasks))
        changed = sorted(t for t in set(old.tasks) & set(new.tasks) if old.tasks[t] != new.tasks[t])
        parts = [
            f"{len(x)} {what} (e.g. {x[0]})"
            for x, what in (
                (added, "new tasks"),
                (removed, "tasks missing"),
                (changed, "tasks changed"),
            )
            if x
        ]
        out.append("tasks: " + ", ".join(parts))
    return out


def _legacy_agents(out: Path) -> set[str]:
    """Agents named in a results log written before manifests existed."""
    agents: set[str] = set()
    path = out / "results.jsonl"
    if not path.exists():
        return agents
    with path.open("rb") as fh:
        for raw in fh:
            try:
                record = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            if isinstance(record, dict) and isinstance(record.get("agent"), str):
                agents.add(record["agent"])
    return agents


def _move_aside(out: Path) -> Path | None:
    present = [out / name for name in RUN_FILES if (out / name).exists()]
    if not present:
        return None
    aside = out / f"previous-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S')}"
    aside.mkdir()
    for path in present:
        path.rename(aside / path.name)
    return aside


def _plan(
    out: Path, identity: RunIdentity, agent_name: str, force_new: bool, new_if_different: bool
) -> tuple[RunManifest | None, bool]:
    """What opening this run in ``out`` means, decided without writing anything: the manifest
    it resumes (``None``: a new run) and whether the old run's files move aside first. Raises
    :class:`RunMismatch` when ``out`` holds another run and nothing allows replacing it."""
    path = out / MANIFEST
    if force_new:
        return None, True
    if path.exists():
        try:
            old = RunManifest.model_validate_json(path.read_text(encoding="utf-8"))
        except ValueError as e:
            raise RunMismatch(
                f"{path}: not a readable run manifest ({str(e).splitlines()[0]}); "
                "use --force-new to start over in this folder"
            ) from None
        diffs = _differences(old.identity, identity)
        if diffs and new_if_different:
            return None, True
        if diffs:
            raise RunMismatch(
                f"{out} holds another run ({'; '.join(diffs)}). Resuming would mix its results with "
                "this one's: pick another --out, or --force-new to move it aside and start over"
            )
        return old, False
    legacy = _legacy_agents(out) - {agent_name}
    if legacy:
        raise RunMismatch(
            f"{out} holds results of {', '.join(sorted(legacy))} (a run from before run.json "
            f"existed); pick another --out, or --force-new to move them aside and start over"
        )
    return None, False


def check_run(
    out: Path,
    identity: RunIdentity,
    agent_name: str,
    force_new: bool = False,
    new_if_different: bool = False,
) -> None:
    """Raise :class:`RunMismatch` now if :func:`open_run` would; writes nothing, so a run that
    fails before it starts (a dead endpoint) leaves ``out`` as it was."""
    _plan(out, identity, agent_name, force_new, new_if_different)


def open_run(
    out: Path,
    identity: RunIdentity,
    agent_name: str,
    suites: dict[str, int],
    force_new: bool = False,
    ha_version: str | None = None,
    new_if_different: bool = False,
    task_source: list[str] | None = None,
    suite_names: dict[str, str] | None = None,
    command: list[str] | None = None,
) -> RunManifest:
    """Check ``out`` can take this run (a new folder, or the same run resumed), then write its
    manifest. Raises :class:`RunMismatch` otherwise; ``force_new`` moves the old run aside, and
    ``new_if_different`` does so only when the folder holds another run (the same run resumes:
    what ``make bench`` wants for its slow model runs after the task files were regenerated).
    ``task_source`` says where the tasks came from and ``suite_names`` renames the suite of the
    tasks a user asked for under another suite name (the report's rows follow it)."""
    old, aside = _plan(out, identity, agent_name, force_new, new_if_different)
    out.mkdir(parents=True, exist_ok=True)
    if aside:
        _move_aside(out)
    now = _now()
    manifest = RunManifest(
        identity=identity,
        suites=suites,
        git_commit=git_commit(),
        ha_version=ha_version,
        started=old.started if old else now,
        updated=now,
        runs=(old.runs if old else 0) + 1,
        task_source=task_source or [],
        suite_names=suite_names or {},
        command=redact_command(command) if command is not None else (old.command if old else None),
        machine=machine_info(),
    )
    _write(out / MANIFEST, manifest)
    return manifest


def finish_run(out: Path, manifest: RunManifest, complete: bool) -> None:
    """Stamp the end of this invocation (``finished`` only once every task has a record)."""
    manifest.updated = _now()
    manifest.finished = manifest.updated if complete else None
    _write(out / MANIFEST, manifest)


def _write(path: Path, manifest: RunManifest) -> None:
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(manifest.model_dump_json(indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def read_manifest(out: Path) -> RunManifest | None:
    """The run's manifest, or ``None`` when the folder has none or it does not parse (a report
    is still written from the results alone)."""
    try:
        return RunManifest.model_validate_json((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
