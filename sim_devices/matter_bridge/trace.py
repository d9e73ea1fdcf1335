"""The devices' own record of their state over time (``smh matter-server --trace FILE``).

What Home Assistant shows is what the devices *reported*; on a physical home nobody knows
what a device really did. The simulated devices do know, so the bridge can write it down:
a first JSONL line with every device's state, then one line per attribute change with its
wall-clock time. :func:`state_at` replays the file up to a moment, so a benchmark record's
readings (taken at ``read_at``) can be compared with the devices' truth at that moment.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import Change


class DeviceTrace:
    """Appends ``engine``'s changes to ``path`` until :meth:`close`."""

    def __init__(self, engine: HomeEngine, path: Path | str) -> None:
        self.engine = engine
        self._fh: IO[str] = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        state = {did: engine.status(did) for did in engine.device_ids()}
        self._write({"t": time.time(), "state": state})
        self._unsubscribe = engine.add_listener(self._on_changes)

    def _write(self, line: dict[str, Any]) -> None:
        self._fh.write(json.dumps(line, default=str) + "\n")

    def _on_changes(self, changes: list[Change]) -> None:
        now = time.time()
        for ch in changes:
            self._write({"t": now, "did": ch.did, "locator": ch.locator, "value": ch.after})
        self._fh.flush()

    def close(self) -> None:
        self._unsubscribe()
        self._fh.close()


def _lines(path: Path | str) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            if raw.endswith("\n") and raw.strip():
                yield json.loads(raw)


def state_at(path: Path | str, when: float) -> dict[str, dict[str, Any]]:
    """Every device's state at wall-clock time ``when`` (the last full state written before it,
    plus the changes up to it)."""
    state: dict[str, dict[str, Any]] = {}
    for line in _lines(path):
        if line["t"] > when:
            break
        if "state" in line:
            state = {did: dict(values) for did, values in line["state"].items()}
        else:
            state.setdefault(line["did"], {})[line["locator"]] = line["value"]
    return state


def disagreements(
    path: Path | str, records: list[dict[str, Any]]
) -> dict[str, dict[str, tuple[Any, Any]]]:
    """Per task: the attributes whose reading in HA (a hardware record's ``final_state``, taken
    at ``read_at``) differs from the device's own state at that moment, as ``(HA, device)``.
    Unreadable attributes (None) and records without a reading time are left out."""
    out: dict[str, dict[str, tuple[Any, Any]]] = {}
    for record in records:
        if "read_at" not in record:
            continue
        truth = state_at(path, record["read_at"])
        for did, values in record.get("final_state", {}).items():
            for locator, shown in values.items():
                real = truth.get(did, {}).get(locator)
                if shown is not None and shown != real:
                    out.setdefault(record["task_id"], {})[f"{did}/{locator}"] = (shown, real)
    return out
