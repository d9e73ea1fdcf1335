"""Import home-assistant-datasets' recorded traces with their published verdicts.

Next to its datasets the repository publishes, per report version (the Home Assistant release
it ran on), model and test sentence, what the model did (``reports/<dataset>/<version>/<model>/
<task id>.yaml``: the reply and the conversation trace with every tool call HA ran and its
result) and the verdict (``report.csv``: Good or Bad). Each such record becomes one
:class:`TraceCase`: the calls to replay, the verdict to reproduce, and the imported SMH task
(:mod:`.ha_datasets`) that judges the same test, or why none can.

A case is matched to its test by the source's own task id (the test file's path and the
sentence, slugged) and the expected changes the record carries; reports older than the dataset
copy can name sentences it no longer has (those cases say so). Two tests of one file that
share a sentence share a task id in the source too, and its report file holds the run of the
later one, so the later test is taken.

Cases are split into two halves by a hash of the test (dataset, test file and test number;
every model and sentence of a test in the same half): work on the integration is tuned on
``tune`` and only measured on ``holdout``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from smh_core.task.model import Task

from .ha_datasets import fixture_folders, home_name, source_item, task_id
from .ha_history import added_in, git_root, import_revisions
from .report import ImportReport

DATASETS = ("assist", "assist-mini")
"""The report folders in the assist format (the format :mod:`.ha_datasets` imports)."""
TRACES_FILE = "ha_datasets.traces.jsonl"
Half = Literal["tune", "holdout"]

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolOutcome(_Strict):
    """A tool call's result reduced to what can be compared across HA versions: whether HA
    acted, on which entities, and the error it gave otherwise."""

    ok: bool
    targets: list[str] = Field(default_factory=list)  # entity ids HA reports as acted on
    failed: list[str] = Field(default_factory=list)
    error: str | None = None  # an intent error code, or an exception's name and text
    reason: str | None = None
    """Why an intent matched no entity (a ``MatchFailedReason`` name: ``NAME``,
    ``DUPLICATE_NAME``, ...). Compared instead of the error's text, which names it only on
    releases before 2026.10 (:func:`match_reason`)."""


class TraceCall(_Strict):
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    recorded: ToolOutcome | None = None
    """What the source's Home Assistant answered (None when the trace does not hold it)."""


class TraceCase(_Strict):
    """One published verdict and the calls behind it."""

    id: str  # "<dataset>/<version>/<model>/<source task id>"
    dataset: str
    version: str
    model: str
    source_task: str
    text: str
    response: str = ""
    calls: list[TraceCall] = Field(default_factory=list)
    builtin_agent: bool = False
    """The source asked HA's built-in Assist agent (no LLM, no tool calls in its trace): the
    sentence itself is replayed through this HA's built-in agent."""
    published: bool
    published_detail: str = ""
    expect_changes: dict[str, Any] = Field(default_factory=dict)
    ignore_changes: dict[str, list[str]] = Field(default_factory=dict)
    test: str | None = None  # the source test, as the import report names it
    task: str | None = None  # the imported SMH task that judges it
    unjudgeable: str | None = None  # why no imported task judges it
    half: Half

    @property
    def record_id(self) -> str:
        """The source's id of the test file (the part of its task id before the sentence)."""
        return self.source_task.split("-", 1)[0]


def slug(text: str) -> str:
    """The source's slugs (python-slugify with ``_``) for the ASCII its ids hold."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def half_of(key: str) -> Half:
    """``tune`` or ``holdout``, fixed by a hash of ``key`` (a test, not a model)."""
    return "tune" if hashlib.sha256(key.encode()).digest()[0] % 2 == 0 else "holdout"


# --- tool results ---------------------------------------------------------------------------


def _ids(items: Any) -> list[str]:
    """The entity ids among an intent response's targets (areas and floors are named there too)."""
    return sorted(
        str(t["id"])
        for t in items or []
        if isinstance(t, dict) and t.get("id") and "entity" in str(t.get("type"))
    )


_MATCH_REASON = re.compile(r"MatchFailedReason\.([A-Z_]+)")


def match_reason(result: dict[str, Any]) -> str | None:
    """The ``MatchFailedReason`` of an error result: its ``reason`` (``smh.call_tools`` reads it
    off the exception), else the reason HA before 2026.10 spelled in the error's text."""
    if result.get("reason"):
        return str(result["reason"])
    found = _MATCH_REASON.search(str(result.get("error_text") or result.get("error") or ""))
    return found.group(1) if found else None


def outcome_of(result: Any) -> ToolOutcome:
    """A tool result as HA's LLM API gives it (an intent response, ``{"error": ...}`` from a
    raised error, or any other tool's JSON) reduced to a :class:`ToolOutcome`."""
    if isinstance(result, str):
        try:
            result = json.loads(result)
        except ValueError:
            return ToolOutcome(ok=True)
    if isinstance(result, dict) and isinstance(
        result.get("dictitems"), dict
    ):  # a dumped IntentResponseDict
        result = result["dictitems"]
    if not isinstance(result, dict):
        return ToolOutcome(ok=True)
    if "error" in result:
        text = result.get("error_text")
        return ToolOutcome(
            ok=False,
            error=f"{result['error']}: {text}" if text else str(result["error"]),
            reason=match_reason(result),
        )
    data = result.get("data") if isinstance(result.get("data"), dict) else {}
    if result.get("response_type") == "error":
        return ToolOutcome(ok=False, error=str(data.get("code") or "error"))
    return ToolOutcome(ok=True, targets=_ids(data.get("success")), failed=_ids(data.get("failed")))


def _recorded_results(trace: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """``(tool name, result)`` of every tool result in the last message list of the trace."""
    messages: list[dict[str, Any]] = []
    for event in trace:
        data = event.get("data") or {}
        if event.get("event_type") == "agent_detail" and isinstance(data.get("messages"), list):
            messages = data["messages"]
    names: dict[str, str] = {}
    out = []
    for m in messages:
        if not isinstance(m, dict):
            continue
        for call in m.get("tool_calls") or []:
            if isinstance(call, dict) and call.get("id"):
                names[str(call["id"])] = str(
                    call.get("tool_name") or (call.get("function") or {}).get("name")
                )
        if m.get("role") == "tool_result":
            out.append((str(m.get("tool_name")), m.get("tool_result")))
        elif m.get("role") == "tool":
            out.append((names.get(str(m.get("tool_call_id")), ""), m.get("content")))
    return out


BUILTIN_AGENT = "conversation.home_assistant"


def asked_agent(trace: list[dict[str, Any]]) -> str | None:
    """The conversation agent the source sent the sentence to."""
    for event in trace:
        if event.get("event_type") == "async_process":
            return (event.get("data") or {}).get("agent_id")
    return None


def trace_calls(trace: list[dict[str, Any]]) -> list[TraceCall]:
    """The tool calls HA ran, in order (its ``tool_call`` trace events), each with the result
    recorded for it: the n-th result of the same tool name."""
    results = _recorded_results(trace)
    calls: list[TraceCall] = []
    for event in trace:
        if event.get("event_type") not in ("tool_call", "llm_tool_call"):
            continue
        data = event.get("data") or {}
        name = str(data.get("tool_name"))
        args = data.get("tool_args")
        index = next((k for k, (n, _) in enumerate(results) if n in (name, "")), None)
        recorded = outcome_of(results.pop(index)[1]) if index is not None else None
        calls.append(
            TraceCall(
                tool=name, arguments=args if isinstance(args, dict) else {}, recorded=recorded
            )
        )
    return calls


# --- the source's tests ---------------------------------------------------------------------


@dataclass(frozen=True)
class SourceTest:
    """One sentence of one test, as imported."""

    item: str  # as the import report names it
    task: str  # the imported task's id (imported or not)
    home: str  # the fixture folder's home, as the import report names it
    group: str  # the test, for the halves
    expect_changes: dict[str, Any]
    ignore_changes: dict[str, list[str]]


def _dataset_of(path: Path) -> tuple[str, str] | None:
    """``(dataset, record path)`` of a test file below a folder named like a dataset."""
    for parent in path.parents:
        if parent.name in DATASETS:
            return parent.name, str(path.relative_to(parent).with_suffix(""))
    return None


def _norm(changes: Any) -> dict[str, Any]:
    """Expected changes with empty parts dropped (the report writes ``attributes: null``)."""
    out: dict[str, Any] = {}
    for eid, change in (changes or {}).items():
        change = change or {}
        kept = {k: v for k, v in change.items() if v is not None and v != {}}
        out[str(eid)] = kept
    return out


def source_tests(root: Path) -> dict[tuple[str, str, str], list[SourceTest]]:
    """Every test sentence of the assist-format datasets below ``root`` (the path the tasks
    were imported from), keyed by ``(dataset, record id, sentence slug)`` as the source's task
    ids are made, in file order."""
    index: dict[tuple[str, str, str], list[SourceTest]] = {}
    for folder in fixture_folders(root):
        home = home_name(folder, root)
        for path in sorted(folder.glob("*.yaml")):
            where = _dataset_of(path.resolve())
            if path.name == "_fixtures.yaml" or where is None:
                continue
            dataset, record = where
            doc = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}
            tests = doc.get("tests") if isinstance(doc, dict) else None
            for i, test in enumerate(tests if isinstance(tests, list) else []):
                test = test or {}
                for j, sentence in enumerate(test.get("sentences") or []):
                    key = (dataset, slug(record), slug(str(sentence).split("\n")[0]))
                    index.setdefault(key, []).append(
                        SourceTest(
                            source_item(home, path.stem, i, j),
                            task_id(home, path.stem, i, j),
                            home,
                            f"{dataset}/{record}/{i}",
                            _norm(test.get("expect_changes")),
                            {
                                str(k): list(v or [])
                                for k, v in (test.get("ignore_changes") or {}).items()
                            },
                        )
                    )
    return index


# --- the reports ----------------------------------------------------------------------------


@dataclass
class TraceImport:
    """What the trace import read: the cases, and the published rows it could not use."""

    cases: list[TraceCase] = field(default_factory=list)
    without_trace: dict[str, int] = field(
        default_factory=dict
    )  # report version -> rows with no trace file
    history: list[str] = field(
        default_factory=list
    )  # past revisions whose datasets judged some cases

    def summary(self) -> str:
        judged = sum(c.task is not None for c in self.cases)
        missing = sum(self.without_trace.values())
        return (
            f"{len(self.cases)} published verdicts with traces ({judged} judgeable by an imported task"
            + (
                f", some on the datasets of {len(self.history)} past revisions"
                if self.history
                else ""
            )
            + ")"
            + (f"; {missing} published rows have no trace file" if missing else "")
        )


def report_folders(reports: Path) -> list[tuple[str, Path]]:
    """``(dataset, folder)`` of every report version with a ``report.csv``, archived ones
    (``reports/.archive``) included, oldest layout first."""
    out = []
    for base in (reports / ".archive", reports):
        for dataset in DATASETS:
            folder = base / dataset
            if folder.is_dir():
                out += [
                    (dataset, v) for v in sorted(folder.iterdir()) if (v / "report.csv").is_file()
                ]
    return out


def _rows(path: Path) -> Iterator[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        yield from csv.DictReader(f)


def _version(folder: Path, reports: Path) -> str:
    rel = folder.relative_to(reports)
    return f"{rel.parts[-1]} (archived)" if rel.parts[0] == ".archive" else rel.parts[-1]


def read_cases(
    reports: Path,
    tests: dict[tuple[str, str, str], list[SourceTest]],
    imported: set[str],
    skipped: dict[str, str],
) -> TraceImport:
    """Every published verdict under ``reports`` that has a trace, matched to ``tests``;
    ``imported`` holds the imported task ids and ``skipped`` the import's reason per item."""
    out = TraceImport()
    for dataset, folder in report_folders(reports):
        version = _version(folder, reports)
        for row in _rows(folder / "report.csv"):
            model, source = row.get("model_id") or "", row.get("task_id") or ""
            path = folder / model / f"{source}.yaml"
            if not model or not source or not path.is_file():
                out.without_trace[version] = out.without_trace.get(version, 0) + 1
                continue
            record = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}
            out.cases.append(
                _case(dataset, version, model, source, row, record, tests, imported, skipped)
            )
    return out


def _case(
    dataset: str,
    version: str,
    model: str,
    source: str,
    row: dict[str, str],
    record: dict[str, Any],
    tests: dict[tuple[str, str, str], list[SourceTest]],
    imported: set[str],
    skipped: dict[str, str],
) -> TraceCase:
    task = record.get("task") or {}
    text = str(task.get("input_text") or row.get("text") or "")
    context = record.get("context") or {}
    case = TraceCase(
        id=f"{dataset}/{version}/{model}/{source}",
        dataset=dataset,
        version=version,
        model=model,
        source_task=source,
        text=text,
        response=str(record.get("response") or ""),
        calls=trace_calls(context.get("conversation_trace") or []),
        builtin_agent=asked_agent(context.get("conversation_trace") or []) == BUILTIN_AGENT,
        published=(row.get("label") or "").strip().lower() == "good",
        published_detail=str(row.get("details") or row.get("entity_diff") or "")[:2000],
        expect_changes=_norm(task.get("expect_changes")),
        half="tune",
    )
    test = matching_test(case, tests)
    # the half follows the test (every model and sentence of it together), or the sentence
    case.half = half_of(test.group if test else f"{dataset}/{case.record_id}/{slug(text)}")
    return resolve(case, test, imported, skipped)


def matching_test(
    case: TraceCase, tests: dict[tuple[str, str, str], list[SourceTest]], prefix: str = ""
) -> SourceTest | None:
    """The test a case ran (its id's file and sentence, its expected changes); of several the
    last, whose run the source's file holds. ``prefix``: only tests whose item starts so."""
    found = [
        t
        for t in tests.get((case.dataset, case.record_id, slug(case.text.split("\n")[0])), [])
        if t.expect_changes == case.expect_changes and t.item.startswith(prefix)
    ]
    return found[-1] if found else None


NO_TEST = "the dataset copy has no test with this sentence and these expected changes"


def resolve(
    case: TraceCase, test: SourceTest | None, imported: set[str], skipped: dict[str, str]
) -> TraceCase:
    """``case`` bound to ``test`` (or to none, saying why) and to its imported task."""
    if test is None:
        return case.model_copy(
            update={"test": None, "task": None, "ignore_changes": {}, "unjudgeable": NO_TEST}
        )
    judged = test.task in imported
    why = (
        None
        if judged
        else f"not imported: {skipped.get(test.item) or skipped.get(test.home, 'see the import report')}"
    )
    return case.model_copy(
        update={
            "test": test.item,
            "task": test.task if judged else None,
            "ignore_changes": test.ignore_changes,
            "unjudgeable": why,
        }
    )


def reports_folder(path: Path) -> Path | None:
    """The ``reports/`` folder of the checkout ``path`` is in (``path`` may be the checkout,
    its ``datasets/`` folder or one dataset), or None when there is none."""
    for base in (path, *path.resolve().parents):
        if (base / "reports").is_dir() and (base / "datasets").is_dir():
            return base / "reports"
    return None


def import_traces(
    root: Path, tasks: Iterable[Task], report: ImportReport, out: Path
) -> TraceImport:
    """Read the traces of the checkout ``root`` is in (``root``: the path the tasks were
    imported from) and write them to ``out/ha_datasets.traces.jsonl``."""
    reports = reports_folder(root)
    if reports is None:
        raise ValueError(
            f"{root}: no reports/ folder next to datasets/ (the traces are in a checkout of "
            "home-assistant-datasets)"
        )
    result = read_cases(reports, source_tests(root), {t.id for t in tasks}, dict(report.skipped))
    git = git_root(root)  # the data set's own repository, not one it happens to sit in
    if (
        git is not None
        and git.resolve() == reports.parent.resolve()
        and any(c.test is None for c in result.cases)
    ):
        result.history = from_history(result.cases, reports, git, out)
    write_cases(out / TRACES_FILE, result.cases)
    return result


def report_folder(case: TraceCase, reports: Path) -> Path:
    """The report version folder a case was read from."""
    version, archived = (
        case.version.removesuffix(" (archived)"),
        case.version.endswith(" (archived)"),
    )
    return (reports / ".archive" if archived else reports) / case.dataset / version


def from_history(cases: list[TraceCase], reports: Path, git: Path, out: Path) -> list[str]:
    """Match the cases no current test holds to the dataset as it was when their report was
    added (:mod:`.ha_history`), in place; returns the revisions read."""
    added: dict[Path, str | None] = {}
    wanted: dict[str, set[str]] = {}
    for case in cases:
        if case.test is None:
            folder = report_folder(case, reports)
            if folder not in added:  # an archived report was added where it first lived, then moved
                first = reports / case.dataset / folder.name
                added[folder] = added_in(git, first / "report.csv") or added_in(
                    git, folder / "report.csv"
                )
            if (revision := added[folder]) is not None:
                wanted.setdefault(revision, set()).add(case.dataset)
    if not wanted:
        return []
    history = import_revisions(
        reports.parent / "datasets", {r: sorted(d) for r, d in wanted.items()}, out
    )
    try:
        tests = source_tests(history.root)
        imported = {t.id for t in history.tasks}
        skipped = dict(history.report.skipped) if history.report else {}
        for n, case in enumerate(cases):
            revision = added.get(report_folder(case, reports)) if case.test is None else None
            if revision is None:
                continue
            test = matching_test(case, tests, prefix=f"{revision[:8]}/")
            if test is None:
                cases[n] = case.model_copy(
                    update={
                        "unjudgeable": f"{NO_TEST} (neither had the dataset at {revision[:8]}, where its report was added)"
                    }
                )
            else:
                cases[n] = resolve(case, test, imported, skipped)
    finally:
        shutil.rmtree(history.root.parent, ignore_errors=True)
    return history.revisions


def write_cases(path: Path, cases: Iterable[TraceCase]) -> None:
    path.write_text("".join(c.model_dump_json() + "\n" for c in cases), encoding="utf-8")


def load_cases(path: Path) -> list[TraceCase]:
    """The cases of a traces file; a bad line is named by file and line."""
    cases = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                cases.append(TraceCase.model_validate_json(line))
            except ValueError as e:
                raise ValueError(
                    f"{path}:{n}: not a trace case ({str(e).splitlines()[0]})"
                ) from None
    return cases
