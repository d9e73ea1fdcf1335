"""Append-only, crash-safe results log for benchmark runs (one JSON object per line).

A run may be killed at any moment (kill -9 included). Each record is written as one line and
flushed + fsynced before the runner moves on, so a finished task is never lost; a line cut
off by a crash is detected on resume (it does not parse, or lacks its newline) and truncated
away, so its task simply runs again. Records are keyed by task id: the first complete scored
record for an id wins, so nothing is ever counted twice.

A record with an ``infra`` field says the endpoint or the harness failed the task (a refused
connection, a timeout, a server error; see :mod:`smh_core.llm.errors`), not the model. Such a
task is not done: a resumed run tries it again, and its next record, scored or not, takes
the infra record's place.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any


def is_infra(record: dict[str, Any]) -> bool:
    """Whether a record is an infrastructure failure (not scored, run again on resume)."""
    return bool(record.get("infra"))


class _Index:
    """The records that count: per task id, the first scored one, else the latest infra one."""

    def __init__(self) -> None:
        self.scored: dict[str, dict[str, Any]] = {}
        self.infra: dict[str, dict[str, Any]] = {}

    def keep(self, record: dict[str, Any]) -> bool:
        """Index ``record``; False when the task already has a scored record."""
        task_id = record["task_id"]
        if task_id in self.scored:
            return False
        if is_infra(record):
            self.infra[task_id] = record
        else:
            self.scored[task_id] = record
            self.infra.pop(task_id, None)
        return True

    def records(self) -> Iterator[dict[str, Any]]:
        yield from self.scored.values()
        yield from self.infra.values()


def read_records(lines: Iterable[bytes | str]) -> list[dict[str, Any]]:
    """The records that count in a log's lines (torn or unparsable lines are left out);
    reading never changes the file."""
    index = _Index()
    for raw in lines:
        try:
            record = json.loads(raw)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and "task_id" in record:
            index.keep(record)
    return list(index.records())


class ResultsLog:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._index = _Index()
        self._recover()

    def _recover(self) -> None:
        """Load complete records and cut a torn final line left by a crash."""
        if not self.path.exists():
            return
        good_end = 0
        with self.path.open("rb") as fh:
            for raw in fh:
                if not raw.endswith(b"\n"):
                    break
                try:
                    record = json.loads(raw)
                except json.JSONDecodeError:
                    break
                good_end += len(raw)
                self._index.keep(record)
        if good_end != self.path.stat().st_size:
            with self.path.open("r+b") as fh:
                fh.truncate(good_end)

    def done(self, task_id: str) -> bool:
        """Whether the task has a scored record (an infra failure does not count)."""
        return task_id in self._index.scored

    def append(self, record: dict[str, Any]) -> None:
        """Persist one task's record durably; a record for an already scored task is ignored."""
        if self.done(record["task_id"]):
            return
        line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        self._index.keep(record)

    def records(self) -> Iterator[dict[str, Any]]:
        """Every task's record that counts: scored ones, then the infra failures not yet re-run."""
        return self._index.records()

    def scored(self) -> list[dict[str, Any]]:
        return list(self._index.scored.values())

    def infra(self) -> list[dict[str, Any]]:
        return list(self._index.infra.values())

    def __len__(self) -> int:
        return len(self._index.scored) + len(self._index.infra)
