"""The leaderboard's data: run folders read into rows, suites and tasks (``smh report site``).

Pure data, no HTML (:mod:`.site_html` renders it). Each run folder (``run.json`` beside
``results.jsonl``) is one row; rows are grouped by their configuration (agent, model, setting,
guard, tool protocol, backend, HA version, machine), and two runs of one configuration stay two
rows, told apart by the hash of their manifest, so neither overwrites the other. Per suite a row
has its success rate with the Wilson interval of :mod:`.stats`, its cost per task and per solved
task, and against the best row of that suite the tasks won and lost with McNemar's exact p,
computed by :func:`.compare.compare_scored` (the code ``smh bench compare`` runs).

Input is strict: a line of a results log that is not a benchmark record, or a manifest that does
not parse, raises :class:`SiteInputError` naming the file and line; nothing is skipped silently,
since a leaderboard row built from part of a run would be a wrong number in public.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
import shlex
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

from .compare import compare_scored
from .manifest import MANIFEST, RunManifest, task_hash
from .results import bench_record_problem, entry_problem, is_scored, parse_line
from .stats import wilson

SUITE_ORDER = ("smh", "simuhome", "memhome", "sage", "safety", "sample")
BASELINES = {
    "oracle": "oracle (reference)",
    "null": "do-nothing (null)",
    "ha:conversation.home_assistant": "HA Assist (no LLM)",  # --backend ha's default agent
}
REPLY_CHARS = 1000  # the most of a reply the drill-down shows (results.jsonl keeps it whole)
REPLY_BUDGET = 8_000_000  # characters of replies in one site: 50 runs of 2,439 tasks stay < 20 MB


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cycle collector off while a site is read or written, as it was after.

    50 runs of 2,439 tasks are millions of small dicts and lists from ``json.loads``, none in a
    cycle; each collection the allocations trigger walks all of them again, which took half of
    the build (12.3 s against 5.7 s with it off). Reference counting still frees everything;
    any cycle made meanwhile is collected once it is back on."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class SiteInputError(ValueError):
    """A run folder the site cannot be built from; the message names the file (and line)."""


@dataclass
class SuiteCell:
    passed: int
    n: int
    not_scored: int
    tokens: float
    seconds: float
    calls: int
    best: bool = False
    won: int | None = None  # against the best row of the suite, on the tasks both scored
    lost: int | None = None
    p_value: float | None = None
    shared: int | None = None

    @property
    def rate(self) -> float:
        return self.passed / self.n if self.n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.passed, self.n)

    def per_task(self, total: float) -> float | None:
        return total / self.n if self.n else None

    def per_solved(self, total: float) -> float | None:
        return total / self.passed if self.passed else None


@dataclass
class Row:
    """One run folder."""

    id: str  # stable: the page name and anchor (configuration + manifest hash)
    path: Path
    config: dict[str, str]
    manifest_hash: str
    command: str
    command_recorded: bool  # False: rebuilt from run.json (a run from before it kept the command)
    machine: dict[str, Any]
    baseline: str | None
    started: str
    suites: dict[str, SuiteCell] = field(default_factory=dict)
    categories: dict[str, tuple[int, int]] = field(default_factory=dict)  # suite/category
    tasks: list[dict[str, Any]] = field(default_factory=list)
    scored: dict[str, dict[str, Any]] = field(default_factory=dict)
    run_index: int = 1  # k of n runs of the same configuration
    runs_of_config: int = 1
    replayed: str | None = None  # where a replayed published model's verdicts come from
    voice: tuple[int, int] | None = None  # spoken runs: word errors, words said (all tasks)

    @property
    def wer(self) -> float | None:
        """Word error rate of the transcripts over every spoken task (``None``: not spoken)."""
        return self.voice[0] / self.voice[1] if self.voice and self.voice[1] else None

    @property
    def config_key(self) -> str:
        return " · ".join(f"{k}={v}" for k, v in self.config.items())

    @property
    def cpu_only(self) -> bool:
        return not self.machine.get("gpus")

    def total(self) -> SuiteCell:
        cells = list(self.suites.values())
        return SuiteCell(
            passed=sum(c.passed for c in cells),
            n=sum(c.n for c in cells),
            not_scored=sum(c.not_scored for c in cells),
            tokens=sum(c.tokens for c in cells),
            seconds=sum(c.seconds for c in cells),
            calls=sum(c.calls for c in cells),
        )


@dataclass
class Site:
    rows: list[Row]  # grouped by configuration, baselines last
    suites: list[str]
    left_out: list[Path] = field(default_factory=list)  # found by a search, without run.json

    @cached_property  # read by every run page: one pass over the tasks, not one per page
    def reply_chars(self) -> int:
        """How much of each reply the drill-down keeps: all of :data:`REPLY_CHARS` on a small
        site, less on a big one (at least 80), so the replies of every task fit the budget."""
        tasks = sum(len(r.tasks) for r in self.rows) or 1
        return max(80, min(REPLY_CHARS, REPLY_BUDGET // tasks))

    @property
    def ranked(self) -> list[Row]:
        return [r for r in self.rows if r.baseline is None]

    @property
    def baselines(self) -> list[Row]:
        return [r for r in self.rows if r.baseline is not None]


def find_runs(paths: list[Path], markers: tuple[str, ...] = ()) -> tuple[list[Path], list[Path]]:
    """Run folders, and the folders left out: each path that holds ``results.jsonl`` (it must be
    a run: a missing ``run.json`` is an error later) or another reader's marker file, else every
    folder under it that holds both ``results.jsonl`` and ``run.json``, or a marker (``make
    site`` passes ``runs/``, where other tools' logs and runs from before manifests may sit:
    those are left out and named, not guessed at). A path holding no run is an error."""
    found: list[Path] = []
    left_out: list[Path] = []
    for path in paths:
        if any((path / name).is_file() for name in ("results.jsonl", *markers)):
            found.append(path)
            continue
        if not path.is_dir():
            raise SiteInputError(f"{path}: not a run folder (no such directory)")
        under = sorted(p.parent for p in path.rglob("results.jsonl"))
        runs = [p for p in under if (p / MANIFEST).is_file()]
        runs += [p.parent for name in markers for p in path.rglob(name)]
        if not runs:
            raise SiteInputError(f"{path}: no run folder in it (results.jsonl beside run.json)")
        found.extend(sorted(set(runs)))
        left_out.extend(p for p in under if p not in runs)
    seen: set[Path] = set()
    return [p for p in found if not (p.resolve() in seen or seen.add(p.resolve()))], left_out


def read_manifest_strict(run: Path) -> tuple[RunManifest, str]:
    """The run's manifest and the hash of its bytes; raises naming the file (and line)."""
    path = run / MANIFEST
    try:
        raw = path.read_bytes()
    except OSError:
        raise SiteInputError(
            f"{path}: missing (a leaderboard row needs the run's manifest: re-run the "
            "`smh bench run` command into the folder, which resumes and writes it)"
        ) from None
    try:
        json.loads(raw)
    except json.JSONDecodeError as e:
        raise SiteInputError(f"{path}:{e.lineno}: invalid JSON: {e.msg}") from None
    except UnicodeDecodeError:
        raise SiteInputError(f"{path}: not UTF-8 text") from None
    try:
        manifest = RunManifest.model_validate_json(raw)
    except ValueError as e:
        first = str(e).splitlines()
        raise SiteInputError(
            f"{path}: not a run manifest ({' '.join(first[:3]) if first else e})"
        ) from None
    return manifest, hashlib.sha256(raw).hexdigest()[:12]


def read_records_strict(run: Path, suite_names: dict[str, str]) -> list[dict[str, Any]]:
    """Every record of ``results.jsonl``; the first bad line raises ``FILE:LINE: reason``."""
    path = run / "results.jsonl"
    records = []
    with path.open("rb") as fh:
        for n, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            if not raw.endswith(b"\n"):
                raise SiteInputError(
                    f"{path}:{n}: the last line is cut off (a run still writing, or killed): "
                    "resume the run first"
                )
            record, problem = parse_line(raw, entry_problem)
            if record is not None and is_scored(record):
                problem = bench_record_problem(record)
            if problem is not None:
                raise SiteInputError(f"{path}:{n}: {problem}")
            assert record is not None
            if record["task_id"] in suite_names:
                record["suite"] = suite_names[record["task_id"]]
            records.append(record)
    return records


def machine_label(machine: dict[str, Any]) -> str:
    """Where a run ran, as one configuration value: CPU, cores, GPUs."""
    cpu = machine.get("cpu") or "unknown machine"
    return f"{cpu}, {machine.get('cores') or '?'} cores" + (
        f", {', '.join(machine['gpus'])}" if machine.get("gpus") else ""
    )


def configuration(manifest: RunManifest) -> dict[str, str]:
    """What makes two runs comparable as one leaderboard entry (their manifest's identity, less
    the task list, plus where they ran)."""
    ident = manifest.identity
    where = machine_label(manifest.machine or {})
    return {
        "agent": ident.agent,
        "model": ident.model or "–",
        "setting": (ident.setting or "–").upper() if ident.setting else "–",
        "guard": "on" if ident.guard else "off",
        "protocol": ident.tool_protocol or "–",
        "backend": ident.backend,
        "HA": manifest.ha_version or "–",
        "machine": where,
    }


def rebuilt_command(manifest: RunManifest, run: Path) -> str:
    """The ``smh bench run`` line a manifest without a recorded command stands for."""
    ident = manifest.identity
    argv = ["smh", "bench", "run"]
    for suite in manifest.suites:
        argv += ["--suite", suite]
    argv += ["--agent", ident.agent.split(":")[0]]
    for flag, value in (
        ("--model", ident.model),
        ("--base-url", ident.endpoint if ident.endpoint and "://" in ident.endpoint else None),
        ("--setting", ident.setting),
        ("--tool-protocol", ident.tool_protocol),
        ("--structured", ident.structured),
        ("--max-tokens", ident.max_tokens),
        ("--budget", ident.budget),
        ("--limit", ident.limit),
        ("--seed", ident.seed),
    ):
        if value is not None:
            argv += [flag, str(value)]
    if not ident.guard:
        argv += ["--guard", "off"]
    if ident.backend != "embedded":
        argv += ["--backend", ident.backend]
    argv += ["--out", run.name]
    return shlex.join(argv)


_SOURCE = re.compile(r"^(?P<suite>\S+) \((?P<path>.+)\)$")


class TaskTexts:
    """What the user said in each task of a run, for the drill-down.

    A results record keeps the verdict but not the request, so the request is read back from
    the task files the manifest names (``task_source``; a suite name is also looked up where
    ``smh bench run --suite`` looks), and shown only where the task there has the fingerprint
    the run recorded (``identity.tasks``): a task file edited since the run gives no text
    rather than the wrong one. Each file is read once per site (50 runs of one suite share it).
    """

    def __init__(self) -> None:
        self._files: dict[Path, dict[str, tuple[str, str]]] = {}

    def _read(self, path: Path) -> dict[str, tuple[str, str]]:
        """Task id -> (fingerprint, request) of one task file; an unreadable file gives none."""
        key = path.resolve()
        if key not in self._files:
            from smh_core.task.model import iter_tasks

            texts: dict[str, tuple[str, str]] = {}
            try:
                for task in iter_tasks(key):
                    texts[task.id] = (task_hash(task), "\n".join(t.text for t in task.turns))
            except (OSError, ValueError):
                texts = {}  # no text is shown from a file that does not read as tasks
            self._files[key] = texts
        return self._files[key]

    def candidates(self, manifest: RunManifest) -> list[Path]:
        """The task files the run may have read, in the order they are tried: each source's path
        as recorded (relative to where the site is built, then to the checkout), then a suite's
        file where ``smh bench run --suite`` finds it from here (``./tasks``, the checkout's)."""
        repo = Path(__file__).resolve().parents[2]
        out: list[Path] = []
        for source in manifest.task_source:
            m = _SOURCE.match(source)
            raw = Path(m["path"] if m else source)
            out += [raw] if raw.is_absolute() else [raw, repo / raw]
            if m:
                name = f"{m['suite']}.jsonl"
                out += [d / name for d in (Path("tasks"), repo / "tasks", repo / "tasks/imported")]
        return [p for p in out if p.is_file()]

    def of(self, manifest: RunManifest) -> dict[str, str]:
        """Task id -> request, for the run's tasks whose file still holds them unchanged."""
        want = manifest.identity.tasks
        out: dict[str, str] = {}
        for path in self.candidates(manifest):
            for tid, (digest, text) in self._read(path).items():
                if want.get(tid) == digest:
                    out.setdefault(tid, text)
            if len(out) == len(want):
                break
        return out


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "x"


def _finding(claim: dict[str, Any]) -> str:
    """One claim of the false-claim check as read in the drill-down: its truth, kind, the words
    and the evidence (``true: action "Done" (the turn changed the home)``)."""
    truth = claim.get("truth") or "?"
    kind = claim.get("kind") or "claim"
    span = str(claim.get("span") or "")
    evidence = str(claim.get("evidence") or "")
    return f"{truth}: {kind} \u201c{span}\u201d" + (f" ({evidence})" if evidence else "")


def task_entry(r: dict[str, Any], request: str = "") -> dict[str, Any]:
    """A results record as the drill-down shows it. ``steps`` are the record's own tool-call
    dicts (tool, arguments and, where the agent recorded it, ``result``), not copies: the pages
    cut them to the site's budget when they are written."""
    outcome = r.get("outcome") if isinstance(r.get("outcome"), dict) else {}
    calls = outcome.get("tool_calls") if isinstance(outcome.get("tool_calls"), list) else []
    turns = outcome.get("turns") if isinstance(outcome.get("turns"), list) else None
    usage = r.get("usage") if isinstance(r.get("usage"), dict) else {}
    verdict = r.get("verdict") if isinstance(r.get("verdict"), dict) else {}
    reply = outcome.get("response")
    reply = reply if isinstance(reply, str) else ""
    claims = r.get("claims") if isinstance(r.get("claims"), list) else []
    false_claims = r.get("false_claims")
    return {
        "id": r["task_id"],
        "suite": r.get("suite", "?"),
        "category": r.get("category", "?"),
        "difficulty": r.get("difficulty", "?"),
        "request": request,
        "scored": is_scored(r),
        "passed": bool(r.get("passed")) and is_scored(r),
        "reason": str(
            verdict.get("reason") or (r.get("infra") or r.get("task_error") or {}).get("kind") or ""
        ),
        "error": str(verdict.get("error_class") or ""),
        "turns": len(turns) if turns else 1,
        "tool_calls": len(calls),
        "steps": [c for c in calls if isinstance(c, dict)],
        "findings": [_finding(c) for c in claims if isinstance(c, dict)],
        "tokens": usage.get("total_tokens", 0)
        if isinstance(usage.get("total_tokens", 0), int | float)
        else 0,
        "seconds": r.get("seconds", 0.0),
        "calls": usage.get("calls", 0) if isinstance(usage.get("calls", 0), int) else 0,
        "claims": len(claims),
        "false_claims": false_claims if isinstance(false_claims, int) else 0,
        "reply": reply[:REPLY_CHARS] + ("…" if len(reply) > REPLY_CHARS else ""),
    }


def read_run(run: Path, texts: TaskTexts | None = None) -> list[Row]:
    """One run folder as a row (suites, categories, tasks; no comparison yet)."""
    manifest, digest = read_manifest_strict(run)
    requests = (texts or TaskTexts()).of(manifest)
    records = read_records_strict(run, manifest.suite_names)
    config = configuration(manifest)
    row = Row(
        id="-".join(
            [
                slug(config["agent"]),
                *([slug(config["model"])] if manifest.identity.model else []),
                digest[:8],
            ]
        ),
        path=run,
        config=config,
        manifest_hash=digest,
        command=shlex.join(manifest.command)
        if manifest.command
        else rebuilt_command(manifest, run),
        command_recorded=bool(manifest.command),
        machine=manifest.machine or {},
        baseline=BASELINES.get(manifest.identity.agent) if not manifest.identity.model else None,
        started=manifest.started,
    )
    fill_row(row, records, requests)
    return [row]


def fill_row(row: Row, records: list[dict[str, Any]], requests: dict[str, str]) -> None:
    """A row's tasks, suites and categories from its benchmark records (in log order; the
    first scored record of a task counts, as in results.py). Other folder kinds
    (:class:`FolderReader`) make records of this shape so their rows are counted the same way."""
    scored: dict[str, dict[str, Any]] = {}
    last: dict[str, dict[str, Any]] = {}
    for r in records:
        if is_scored(r):
            scored.setdefault(r["task_id"], r)
        last[r["task_id"]] = r
    row.scored = scored
    cells: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0, 0.0, 0])
    cats: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for tid, r in last.items():
        final = scored.get(tid, r)
        cell = cells[final["suite"]]
        if tid not in scored:
            cell[2] += 1
        row.tasks.append(task_entry(final, requests.get(tid, "")))
    for r in scored.values():
        cell = cells[r["suite"]]
        usage = r.get("usage") or {}
        cell[0] += bool(r["passed"])
        cell[1] += 1
        cell[3] += usage.get("total_tokens", 0) or 0
        cell[4] += r.get("seconds", 0.0) or 0.0
        cell[5] += int(usage.get("calls", 0) or 0)
        cat = cats[f"{r['suite']}/{r['category']}"]
        cat[0] += bool(r["passed"])
        cat[1] += 1
    row.suites = {
        s: SuiteCell(int(c[0]), int(c[1]), int(c[2]), c[3], c[4], int(c[5]))
        for s, c in cells.items()
    }
    row.categories = {k: (p, n) for k, (p, n) in sorted(cats.items())}
    spoken = [r["voice"] for r in last.values() if isinstance(r.get("voice"), dict)]
    if spoken:  # a --voice run: the words said and the recognizer's errors, per task
        row.voice = (
            sum(int(v.get("word_errors") or 0) for v in spoken),
            sum(int(v.get("reference_words") or 0) for v in spoken),
        )


class FolderReader(Protocol):
    """Another kind of folder the site reads (a replay of published traces): the file that marks
    one, and its rows. It lives above this module (the formats it reads are the importers'),
    so the command passes it to :func:`build`."""

    marker: str

    def read(self, folder: Path) -> list[Row]: ...


def _suite_key(name: str) -> tuple[int, str]:
    return (SUITE_ORDER.index(name) if name in SUITE_ORDER else len(SUITE_ORDER), name)


def build(paths: list[Path], readers: tuple[FolderReader, ...] = ()) -> Site:
    """Read every run (all of them before anything is written: one bad folder stops the build),
    group rows by configuration, mark each suite's best row and compare every other row with it.
    ``readers`` read the other kinds of folder (a folder holding a reader's marker file is read
    by that reader, and may give several rows)."""
    with gc_paused():
        return _build(paths, readers)


def _build(paths: list[Path], readers: tuple[FolderReader, ...]) -> Site:
    found, left_out = find_runs(paths, tuple(r.marker for r in readers))
    texts = TaskTexts()
    rows = []
    for folder in found:
        reader = next((r for r in readers if (folder / r.marker).is_file()), None)
        rows += reader.read(folder) if reader else read_run(folder, texts)
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row.config_key].append(row)
    for group in groups.values():
        group.sort(key=lambda r: (r.started, r.manifest_hash))
        for k, row in enumerate(group, start=1):
            row.run_index, row.runs_of_config = k, len(group)
    ordered = sorted(
        rows,
        key=lambda r: (r.baseline is not None, r.config_key, r.run_index),
    )
    suites = sorted({s for r in rows for s in r.suites}, key=_suite_key)
    for suite in suites:
        having = [r for r in ordered if suite in r.suites and r.suites[suite].n]
        pool = [r for r in having if r.baseline is None] or having
        if not pool:
            continue
        best = max(pool, key=lambda r: (r.suites[suite].rate, r.suites[suite].n))
        best.suites[suite].best = True
        best_scored = _in_suite(best, suite)
        for row in having:
            if row is best:
                continue
            summaries, shared = compare_scored(
                [(best.id, best_scored, 0), (row.id, _in_suite(row, suite), 0)]
            )
            cell = row.suites[suite]
            cell.shared = shared
            if shared:  # no task in common: nothing to pair (and no p = 1 that reads as a tie)
                cell.won, cell.lost = summaries[1].won, summaries[1].lost
                cell.p_value = summaries[1].p_value
    return Site(rows=ordered, suites=suites, left_out=left_out)


def _in_suite(row: Row, suite: str) -> dict[str, dict[str, Any]]:
    return {t: r for t, r in row.scored.items() if r["suite"] == suite}
