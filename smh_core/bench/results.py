"""Append-only, crash-safe results log for benchmark runs (one JSON object per line).

A run may be killed at any moment (kill -9 included). Each record is written as one line and
flushed + fsynced before the runner moves on, so a finished task is never lost; a line cut
off by a crash is detected on resume (it does not parse, or lacks its newline) and truncated
away, so its task simply runs again. Records are keyed by task id: the first complete record
for an id wins, so nothing is ever counted twice.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class ResultsLog:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._done: dict[str, dict[str, Any]] = {}
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
                self._done.setdefault(record["task_id"], record)
        if good_end != self.path.stat().st_size:
            with self.path.open("r+b") as fh:
                fh.truncate(good_end)

    def done(self, task_id: str) -> bool:
        return task_id in self._done

    def append(self, record: dict[str, Any]) -> None:
        """Persist one task's record durably; a second record for the same id is ignored."""
        task_id = record["task_id"]
        if task_id in self._done:
            return
        line = json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        self._done[task_id] = record

    def records(self) -> Iterator[dict[str, Any]]:
        return iter(self._done.values())

    def __len__(self) -> int:
        return len(self._done)
