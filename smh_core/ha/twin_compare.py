"""Twin and real side by side (issue 39, item 3): the same tasks run on a home's simulated twin
(``smh bench run``) and on the real home through the hardware runner, compared per task and per
device.

A task's verdicts are put next to each other, and each device whose real behaviour differed from
its twin's is flagged with how: it **ignored** a change the twin made, **rounded** a value (close
but not equal), set a **different** value, made an **extra** change the twin did not, or **took**
seconds to report the state it was commanded to (more than 5 s; for a device whose speed
``smh home probe`` measured, more than 5 s beyond one and a half times what that speed needs).
A rule's or schedule's later moments (the record's ``later``: the
twin's values beside the real readings when its trigger came or at each checkpoint) are compared
the same way. Only what the real run can observe is compared (the attributes its mapping maps; "rounded"
means within 10 % or 1 unit); a task the real run skipped is listed with why, never counted as
a difference, and one a device kept from being scored (it did not reach the state it was
commanded to) is listed and its device flagged as having ignored the call.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smh_core.bench.results import counting, entry_problem, parse_line
from smh_core.homeenv.model import Home

from .device_sync import described_mismatches
from .runner import SKIPPED_TASKS

SLOW_SECONDS = 5.0
"""A real device that takes longer than this to report a commanded state is flagged."""

KINDS = ("ignored", "rounded", "different", "extra", "slow")


@dataclass(frozen=True)
class Difference:
    task_id: str
    did: str
    locator: str
    kind: str
    twin: Any
    real: Any

    def describe(self) -> str:
        if self.kind == "slow":
            calibrated = "" if self.twin is None else f" (its measured speed: {self.twin:.1f} s)"
            return f"{self.did}: took {float(self.real):.1f} s to report the commanded state{calibrated}"
        if self.kind == "ignored":
            what = f"stayed {self.real!r} where the twin went to {self.twin!r}"
        elif self.kind == "extra":
            what = f"went to {self.real!r}; the twin did not change it"
        else:
            what = f"went to {self.real!r} where the twin went to {self.twin!r}" + (
                " (rounded)" if self.kind == "rounded" else ""
            )
        return f"{self.did} {self.locator}: {what}"


@dataclass
class Comparison:
    both: list[tuple[str, bool, bool]] = field(default_factory=list)
    """(task id, passed on the twin, passed on the real home) for tasks scored on both."""
    differences: list[Difference] = field(default_factory=list)
    only_twin: dict[str, str] = field(default_factory=dict)
    """Task id -> why the real run has no verdict for it."""

    def by_device(self) -> dict[str, Counter[str]]:
        out: dict[str, Counter[str]] = defaultdict(Counter)
        for d in self.differences:
            out[d.did][d.kind] += 1
        return dict(sorted(out.items()))

    def markdown(self) -> str:
        agree = sum(t == r for _, t, r in self.both)
        lines = [
            "# Twin and real home, side by side",
            "",
            f"{len(self.both)} tasks scored on both; verdicts agree on {agree}; "
            f"{len(self.differences)} device differences on {len(self.by_device())} devices; "
            f"{len(self.only_twin)} tasks not scored on the real home.",
            "",
        ]
        if self.differences:
            lines += [
                "## Devices that behaved differently from their twin",
                "",
                "| device | " + " | ".join(KINDS) + " |",
                "|---|" + "---:|" * len(KINDS),
            ]
            for did, counts in self.by_device().items():
                lines.append(f"| {did} | " + " | ".join(str(counts[k]) for k in KINDS) + " |")
            lines.append("")
        lines += ["## Per task", "", "| task | twin | real | differences |", "|---|---|---|---|"]
        per_task: dict[str, list[str]] = defaultdict(list)
        for d in self.differences:
            per_task[d.task_id].append(d.describe())
        mark = {True: "pass", False: "fail"}
        for task_id, twin, real in self.both:
            lines.append(
                f"| {task_id} | {mark[twin]} | {mark[real]} | {'; '.join(per_task[task_id])} |"
            )
        for task_id, why in self.only_twin.items():
            lines.append(f"| {task_id} | — | not scored | {why} |")
        return "\n".join(lines) + "\n"


def _records(run_dir: Path) -> dict[str, dict[str, Any]]:
    """The run's records that count (the report's rule), by task id; unlike the report, a line
    that is not a record stops the comparison, named by file and line."""
    path = run_dir / "results.jsonl" if run_dir.is_dir() else run_dir
    if not path.exists():
        raise FileNotFoundError(f"{path}: no results (a run folder of smh bench run)")
    records = []
    with path.open("rb") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            record, problem = parse_line(raw, entry_problem)
            if record is None:
                json_error = str(problem).startswith(("invalid JSON", "not UTF-8"))
                what = "not a JSON record" if json_error else "not a record"
                raise ValueError(f"{path}:{n}: {what} ({problem})")
            records.append(record)
    return {str(r["task_id"]): r for r in counting(records)}


def _changes(record: dict[str, Any], side: str = "after") -> dict[tuple[str, str], Any]:
    """Each changed attribute's value ``after`` the turn, or ``before`` it."""
    return {(str(c["did"]), str(c["locator"])): c.get(side) for c in record.get("changes") or []}


def _close(a: Any, b: Any) -> bool:
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b))
    return numbers and math.isclose(float(a), float(b), rel_tol=0.1, abs_tol=1.0)


def _fault_kind(got: Any, want: Any, before: Any = None) -> str:
    """How a device that did not reach a commanded value differed: still at the value it had
    before the turn (``before``, the twin's; ignored: a to-do list that did not remove an item
    still counts it, one more than asked, which is not rounding), close to it (rounded), at
    another number (different: it moved elsewhere, or is still moving), or not at all."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (got, want))
    if numbers and got != before:
        return "rounded" if _close(got, want) else "different"
    return "ignored"


def _task_differences(
    task_id: str,
    twin: dict[str, Any],
    real: dict[str, Any],
    unknown: set[tuple[str, str]],
    rates: dict[tuple[str, str], float],
) -> list[Difference]:
    observed = {
        (str(did), str(loc))
        for did, values in (real.get("final_state") or {}).items()
        for loc in (values or {})
    }
    seen_at_start = {
        (str(did), str(loc))
        for did, values in (real.get("initial_state") or {}).items()
        for loc, v in (values or {}).items()
        if v is not None
    }
    final = {
        (str(did), str(loc)): v
        for did, values in (real.get("final_state") or {}).items()
        for loc, v in (values or {}).items()
    }
    mine, theirs = _changes(twin), _changes(real)
    out = []
    for key in sorted((mine.keys() | theirs.keys()) & observed):
        did, loc = key
        if key in mine and key not in theirs:
            out.append(Difference(task_id, did, loc, "ignored", mine[key], final.get(key)))
        elif key not in mine:
            if key in unknown and key not in seen_at_start:
                continue  # a value the twin never knew, and the real device did not show first
            out.append(Difference(task_id, did, loc, "extra", None, theirs[key]))
        elif mine[key] != theirs[key]:
            kind = "rounded" if _close(mine[key], theirs[key]) else "different"
            out.append(Difference(task_id, did, loc, kind, mine[key], theirs[key]))
    out += _later_differences(task_id, real, unknown)
    latency = real.get("latency") or {}
    seconds = float(latency.get("reports_s") or 0.0)
    by_device = latency.get("reports_s_by_device")  # absent in runs made before it was kept
    travel = _travel_seconds(twin, rates)
    for did in sorted({did for did, _ in mine.keys() & observed}):
        took = float(by_device.get(did, seconds)) if isinstance(by_device, dict) else seconds
        expected = travel.get(did)
        # a device that reported at once is not slow with its task; a calibrated one is slow
        # only beyond the time its measured speed needs (and half that again)
        if took > SLOW_SECONDS + 1.5 * (expected or 0.0):
            out.append(Difference(task_id, did, "", "slow", expected, took))
    return out


def _later_differences(
    task_id: str, real: dict[str, Any], unknown: set[tuple[str, str]]
) -> list[Difference]:
    """A rule's or schedule's moments (the record's ``later``): each device the real home read
    otherwise than the twin at the same moment; one still at its value before the turn ignored
    what the twin did."""
    start = real.get("initial_state") or {}
    out = []
    for moment in (real.get("later") or {}).get("moments") or []:
        twin, seen = moment.get("twin") or {}, moment.get("real") or {}
        for did in sorted(twin.keys() & seen.keys()):
            for loc in sorted((twin[did] or {}).keys() & (seen[did] or {}).keys()):
                want, got = twin[did][loc], seen[did][loc]
                if got is None or (did, loc) in unknown or want == got:
                    continue
                if got == (start.get(did) or {}).get(loc):
                    kind = "ignored"
                else:
                    kind = "rounded" if _close(want, got) else "different"
                out.append(Difference(task_id, did, loc, kind, want, got))
    return out


def _travel_seconds(twin: dict[str, Any], rates: dict[tuple[str, str], float]) -> dict[str, float]:
    """Device -> seconds its calibrated speed needs for the twin's changes of this task."""
    out: dict[str, float] = {}
    for c in twin.get("changes") or []:
        rate = rates.get((str(c["did"]), str(c["locator"])))
        before, after = c.get("before"), c.get("after")
        if rate and all(isinstance(v, (int, float)) for v in (before, after)):
            did = str(c["did"])
            out[did] = max(out.get(did, 0.0), abs(float(after) - float(before)) / rate)
    return out


def travel_rates(home: Home | None) -> dict[tuple[str, str], float]:
    """(device, attribute) -> the units per second ``smh home probe`` measured on the real
    device (``userdata.travel``)."""
    if home is None:
        return {}
    return {
        (d.userdata.did, loc): rate
        for d in home.devices
        for loc, rate in (d.userdata.travel or {}).items()
        if rate > 0
    }


def unknown_to_twin(home: Home | None) -> set[tuple[str, str]]:
    """(device, attribute) pairs whose value the twin never knew: HA did not report them when
    the twin was made (an off light's colour temperature, an off fan's speed), so the twin
    started from a default. A real device showing a value there that it did not show before
    the turn says nothing about the device; one that changes a value it showed, or that the
    twin changed too, is compared."""
    if home is None:
        return set()
    return {(d.userdata.did, loc) for d in home.devices for loc in d.userdata.unstated or ()}


def compare_runs(
    twin_run: Path,
    real_run: Path,
    home: Home | None = None,
    skipped: dict[str, str] | None = None,
) -> Comparison:
    """The twin run's and the real run's records of the same tasks, side by side (``home``:
    the twin, whose unknown values are not compared; ``skipped``: why the real run skipped a
    task, as the hardware runner reports it; read from the real run's ``skipped_tasks.json``
    when not given)."""
    twin, real = _records(twin_run), _records(real_run)
    unknown = unknown_to_twin(home)
    rates = travel_rates(home)
    saved = real_run / SKIPPED_TASKS
    if skipped is None and saved.exists():
        skipped = json.loads(saved.read_text(encoding="utf-8"))
    result = Comparison()
    for task_id in sorted(twin):
        other = real.get(task_id)
        if other is None:
            why = (skipped or {}).get(task_id, "see that run's output")
            result.only_twin[task_id] = f"not run on the real home: {why}"
        elif other.get("infra") or twin[task_id].get("infra"):
            infra = other.get("infra") or twin[task_id].get("infra") or {}
            why = str(infra.get("message", ""))
            result.only_twin[task_id] = f"not scored: {why[:160]}"
            if other.get("infra", {}).get("kind") == "device":
                # a device that did not do what it was told kept the task from being scored:
                # that is the device's difference from its twin, which did it
                before = _changes(twin[task_id], "before")
                result.differences += [
                    Difference(
                        task_id, did, loc, _fault_kind(got, want, before.get((did, loc))), want, got
                    )
                    for did, loc, got, want in described_mismatches(why)
                    if (did, loc) not in unknown
                ]
        else:
            result.both.append((task_id, bool(twin[task_id]["passed"]), bool(other["passed"])))
            result.differences += _task_differences(task_id, twin[task_id], other, unknown, rates)
    return result
