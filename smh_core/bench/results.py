"""Append-only, crash-safe results log for benchmark runs (one JSON object per line).

A run may be killed at any moment (kill -9 included). Each record is written as one line and
flushed + fsynced before the runner moves on, so a finished task is never lost; a line cut
off by a crash is the log's final line and lacks its newline, so resuming truncates it away and
its task simply runs again. Records are keyed by task id: the first complete scored record for
an id wins, so nothing is ever counted twice.

A damaged log must not cost the good records in it (every one is a paid model call): a line
in the middle that does not parse (a flipped byte, a disk error) or that is not a record
(``{}``, ``[]``, no ``task_id``...) is skipped with a warning naming its line number, and a
resumed run moves it to ``results.quarantine.jsonl`` next to the log (with its line number and
the reason) so the log is clean again and the line is kept for inspection.

A record with an ``infra`` field says the endpoint or the harness failed the task (a refused
connection, a timeout, a server error; see :mod:`smh_core.llm.errors`), not the model. Such a
task is not done: a resumed run tries it again, and its next record, scored or not, takes
the infra record's place.

A record with a ``task_error`` field says the task itself could not be prepared (its home file
is refused or invalid, an override does not apply, a critic does not parse). It is not scored
and it is not the model's failure; a resumed run prepares the task again (no model call) and
only runs it, replacing the record, once the task has been fixed.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_LOGGER = logging.getLogger(__name__)

QUARANTINE_NAME = "results.quarantine.jsonl"
DIFFICULTIES = ("simple", "medium", "complex")

RecordCheck = Callable[[Any], "str | None"]
"""Says why a parsed line is not a usable record (``None``: it is one)."""


def is_infra(record: dict[str, Any]) -> bool:
    """Whether a record is an infrastructure failure (not scored, run again on resume)."""
    return bool(record.get("infra"))


def is_task_error(record: dict[str, Any]) -> bool:
    """Whether a record says the task could not be prepared (not scored, not the model's fault)."""
    return bool(record.get("task_error"))


def is_scored(record: dict[str, Any]) -> bool:
    """Whether a record counts in success rates (neither an infra failure nor a task error)."""
    return not is_infra(record) and not is_task_error(record)


# ----------------------------------------------------------------------------- record checks
def entry_problem(record: Any) -> str | None:
    """The least a line must be for the log to index it: an object with a string ``task_id``
    (and, when present, a boolean ``passed`` and object ``infra``/``task_error``). This is the
    default of :class:`ResultsLog`, which other runners use with records of their own."""
    if not isinstance(record, dict):
        return f"not a JSON object (a {_json_type(record)})"
    task_id = record.get("task_id")
    if not isinstance(task_id, str) or not task_id:
        return "no task_id" if task_id is None else "task_id is not a non-empty string"
    if "passed" in record and not isinstance(record["passed"], bool):
        return "passed is not true or false"
    for key in ("infra", "task_error"):
        if record.get(key) is not None and not isinstance(record[key], dict):
            return f"{key} is not an object"
    if is_infra(record) and is_task_error(record):
        return "both infra and task_error"
    return None


def bench_record_problem(record: Any) -> str | None:
    """Everything a benchmark record needs for resuming and for the report (:mod:`.report`
    indexes these fields), so a hand-edited or foreign line cannot crash either."""
    problem = entry_problem(record)
    if problem is not None:
        return problem
    if "passed" not in record:
        return "missing passed"
    for key in ("suite", "category", "subcategory", "agent"):
        if not isinstance(record.get(key), str):
            return f"missing {key}" if key not in record else f"{key} is not a string"
    if record.get("difficulty") not in DIFFICULTIES:
        return "difficulty is not one of " + ", ".join(DIFFICULTIES)
    return _verdict_problem(record.get("verdict")) or _numbers_problem(record)


def _verdict_problem(verdict: Any) -> str | None:
    if not isinstance(verdict, dict):
        return "missing verdict" if verdict is None else "verdict is not an object"
    if "error_class" not in verdict:
        return "verdict has no error_class"
    details = verdict.get("details")
    if details is not None and not isinstance(details, dict):
        return "verdict.details is not an object"
    for key in ("f1", "bleu1"):
        if details and key in details and not _is_number(details[key]):
            return f"verdict.details.{key} is not a number"
    return None


def _numbers_problem(record: dict[str, Any]) -> str | None:
    if "seconds" in record and not _is_number(record["seconds"]):
        return "seconds is not a number"
    usage = record.get("usage")
    if usage is not None and not isinstance(usage, dict):
        return "usage is not an object"
    if usage and "total_tokens" in usage and not _is_number(usage["total_tokens"]):
        return "usage.total_tokens is not a number"
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _json_type(value: Any) -> str:
    names = {
        list: "list",
        str: "string",
        bool: "boolean",
        int: "number",
        float: "number",
        type(None): "null",
    }
    return names.get(type(value), type(value).__name__)


# ----------------------------------------------------------------------------- reading lines
@dataclass(frozen=True)
class BadLine:
    """A line of the log that is not a usable record: where it is, why, and its bytes."""

    line: int
    reason: str
    raw: bytes


def _as_bytes(raw: bytes | str) -> bytes:
    return raw if isinstance(raw, bytes) else raw.encode("utf-8")


def parse_line(raw: bytes, check: RecordCheck) -> tuple[dict[str, Any] | None, str | None]:
    """``(record, None)`` for a usable line, ``(None, reason)`` otherwise; never raises."""
    try:
        record = json.loads(raw)
    except json.JSONDecodeError as e:
        return None, f"invalid JSON: {e.msg} (column {e.colno})"
    except UnicodeDecodeError as e:
        return None, f"not UTF-8 text (byte {e.start + 1})"
    except (ValueError, RecursionError):
        return None, "invalid JSON"
    problem = check(record)
    return (None, problem) if problem is not None else (record, None)


@dataclass
class _Scan:
    """One pass over a log's lines: the usable records in order, the lines to keep (their
    bytes, blank lines included), the bad lines, and the offset where a torn final line (no
    newline) begins, if there is one."""

    records: list[dict[str, Any]]
    kept: list[bytes]
    bad: list[BadLine]
    torn_at: int | None


def _scan(lines: Iterable[bytes | str], check: RecordCheck) -> _Scan:
    scan = _Scan([], [], [], None)
    offset = 0
    for n, raw in enumerate(map(_as_bytes, lines), start=1):
        if not raw.endswith(b"\n"):  # only the final line can lack it: cut off by a crash
            scan.torn_at = offset
            break
        if raw.strip():
            record, reason = parse_line(raw, check)
            if record is None:
                scan.bad.append(BadLine(n, reason or "unusable", raw))
                offset += len(raw)
                continue
            scan.records.append(record)
        scan.kept.append(raw)
        offset += len(raw)
    return scan


def _warn(source: str, bad: BadLine, action: str) -> None:
    _LOGGER.warning("%s:%d: %s: %s", source, bad.line, action, bad.reason)


class _Index:
    """The records that count: per task id, the first scored one, else the latest unscored
    one (an infra failure or a task error)."""

    def __init__(self) -> None:
        self.scored: dict[str, dict[str, Any]] = {}
        self.pending: dict[str, dict[str, Any]] = {}

    def keep(self, record: dict[str, Any]) -> bool:
        """Index ``record``; False when the task already has a scored record."""
        task_id = record["task_id"]
        if task_id in self.scored:
            return False
        if is_scored(record):
            self.scored[task_id] = record
            self.pending.pop(task_id, None)
        else:
            self.pending[task_id] = record
        return True

    def records(self) -> Iterator[dict[str, Any]]:
        yield from self.scored.values()
        yield from self.pending.values()


def read_records(
    lines: Iterable[bytes | str],
    check: RecordCheck = bench_record_problem,
    source: str = "results.jsonl",
) -> list[dict[str, Any]]:
    """The records that count in a log's lines, by the same rules as :class:`ResultsLog`: a
    torn final line (no newline; pass lines with their endings, as iterating a file gives
    them) is left out, and so is every line that does not parse or fails ``check``, each with
    a warning naming ``source`` and its line number. Reading never changes the file."""
    scan = _scan(lines, check)
    for bad in scan.bad:
        _warn(source, bad, "skipped")
    return counting(scan.records)


def counting(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of records in log order, those that count (per task, the first scored one, else the
    latest unscored one): the one rule of :func:`read_records` and :class:`ResultsLog`."""
    index = _Index()
    for record in records:
        index.keep(record)
    return list(index.records())


# ----------------------------------------------------------------------------- the log
class ResultsLog:
    """The results of one run directory. ``check`` decides which lines are records; the
    benchmark runner passes :func:`bench_record_problem`, the default only needs a task id."""

    def __init__(self, path: str | Path, check: RecordCheck = entry_problem) -> None:
        self.path = Path(path)
        self.quarantine_path = self.path.with_name(QUARANTINE_NAME)
        self._check = check
        self._index = _Index()
        self._recover()

    def _recover(self) -> None:
        """Load the usable records; move bad lines to the quarantine file and cut a torn final
        line left by a crash."""
        if not self.path.exists():
            return
        with self.path.open("rb") as fh:
            scan = _scan(fh, self._check)
        for record in scan.records:
            self._index.keep(record)
        if scan.bad:
            self._quarantine(scan.bad)
            self._rewrite(scan.kept)
        elif scan.torn_at is not None:
            with self.path.open("r+b") as fh:
                fh.truncate(scan.torn_at)
                fh.flush()
                os.fsync(fh.fileno())

    def _quarantine(self, bad: list[BadLine]) -> None:
        """Append the bad lines to the quarantine file (durably, before the log loses them)."""
        with self.quarantine_path.open("a", encoding="utf-8") as fh:
            for b in bad:
                _warn(str(self.path), b, f"moved to {self.quarantine_path.name}")
                entry = {
                    "line": b.line,
                    "reason": b.reason,
                    "source": self.path.name,
                    "text": b.raw.rstrip(b"\r\n").decode("utf-8", "backslashreplace"),
                }
                fh.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def _rewrite(self, kept: list[bytes]) -> None:
        """Replace the log by its kept lines (byte for byte), atomically: a kill at any point
        leaves either the old file (its bad lines are quarantined again on the next resume) or
        the new one."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        with tmp.open("wb") as fh:
            fh.writelines(kept)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)
        _fsync_dir(self.path.parent)

    def done(self, task_id: str) -> bool:
        """Whether the task has a scored record (an infra failure or task error does not count)."""
        return task_id in self._index.scored

    def pending(self, task_id: str) -> dict[str, Any] | None:
        """The task's unscored record (infra failure or task error) that counts, if any."""
        return self._index.pending.get(task_id)

    def append(self, record: dict[str, Any]) -> None:
        """Persist one task's record durably; a record for an already scored task is ignored."""
        if self.done(record["task_id"]):
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(_line(record))
            fh.flush()
            os.fsync(fh.fileno())
        self._index.keep(record)

    def records(self) -> Iterator[dict[str, Any]]:
        """Every task's record that counts: scored ones, then the unscored ones not yet re-run."""
        return self._index.records()

    def scored(self) -> list[dict[str, Any]]:
        return list(self._index.scored.values())

    def infra(self) -> list[dict[str, Any]]:
        return [r for r in self._index.pending.values() if is_infra(r)]

    def task_errors(self) -> list[dict[str, Any]]:
        return [r for r in self._index.pending.values() if is_task_error(r)]

    def __len__(self) -> int:
        return len(self._index.scored) + len(self._index.pending)


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"


def _fsync_dir(path: Path) -> None:
    """Make a rename durable (a no-op where directories cannot be opened, e.g. Windows)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
