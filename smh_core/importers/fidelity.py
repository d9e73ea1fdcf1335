"""How faithfully a source imports, per category and per device kind: the source's items
imported and skipped (by reason), the reference solution replayed by SMH's engine and verifier
(it must pass every task), doing nothing (it must fail all but the no-change ones), every gold
call of HomeBench replayed on its imported home with every attribute it sets checked, and every
request the source labels impossible replayed on the task's home, where the engine must refuse
it.

``smh tasks import --report`` prints this after an import; ``scripts/import_fidelity.py`` runs
an import into a scratch folder and prints it.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_task
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from .homebench import LABEL_CONFLICT
from .homebench_gold import GoldCheck, check_gold, reason_kind, source_golds
from .homebench_replay import GoldReplay, replay_gold
from .report import ImportReport

_DEVICE = re.compile(r"device\(([^)@][^)]*)\)")


@dataclass
class Fidelity:
    """The figures of one import."""

    source: str
    path: str
    items: int = 0
    imported: Counter = field(default_factory=Counter)
    oracle: Counter = field(default_factory=Counter)
    null: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    kinds_oracle: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    invalid: Counter = field(default_factory=Counter)
    invalid_refused: Counter = field(default_factory=Counter)
    label_conflicts: list[tuple[str, str, str]] = field(default_factory=list)
    """Requests the source labels impossible that its own home carries out (kept, marked)."""
    executable: list[tuple[str, str, str]] = field(default_factory=list)
    unread: int = 0
    gold: GoldReplay | None = None
    gold_check: GoldCheck | None = None
    """HomeBench: the independent check (:mod:`.homebench_gold`)."""
    differences: tuple[str, ...] = ()
    """Where SMH's verdict can differ from the source's, and why (the importer's
    ``VERDICT_DIFFERENCES``)."""

    @property
    def total(self) -> int:
        return sum(self.imported.values())


def _device_types(task: Task, out: Path, cache: dict[str, dict[str, str]]) -> set[str]:
    """The catalog types of the devices a task's goals and reference name."""
    import json

    if task.home.file is None:
        return set()
    if task.home.file not in cache:
        home = json.loads((out / task.home.file).read_text(encoding="utf-8"))
        cache[task.home.file] = {
            d["userdata"]["did"]: d["userdata"]["spid"].split(".")[-2] for d in home["devices"]
        }
    types = cache[task.home.file]
    goals = task.goals or ([task.goal] if task.goal is not None else [])
    text = " ".join(
        str(getattr(g, "critic", ""))
        + " "
        + " ".join(str(c.critic) for c in getattr(g, "checkpoints", []))
        for g in goals
    )
    dids = set(_DEVICE.findall(text)) | {a.did for a in task.reference.actions}
    dids |= {a["did"] for s in task.reference.schedules for a in s["actions"]}
    return {types[d.strip().strip("'\"")] for d in dids if d.strip().strip("'\"") in types}


async def _verdicts(tasks: list[Task], out: Path, f: Fidelity) -> None:
    cache = HomeCache(out)
    homes: dict[str, dict[str, str]] = {}
    for task in tasks:
        ref = await run_task(task, OracleAgent(), cache)
        passed = bool(ref["passed"])
        f.imported[task.subcategory] += 1
        f.oracle[task.subcategory] += passed
        if not passed:
            f.failures.append(f"{task.id}: {ref['verdict']['reason']}")
        f.null[task.subcategory] += bool((await run_task(task, NullAgent(), cache))["passed"])
        for kind in _device_types(task, out, homes) or {"(no device)"}:
            f.kinds[kind] += 1
            f.kinds_oracle[kind] += passed


def measure(
    tasks: list[Task], report: ImportReport, out: Path, source: str, path: Path
) -> Fidelity:
    """The figures of an import already written to ``out`` (tasks and report as it returned)."""
    from .registry import IMPORTERS

    f = Fidelity(report.source, str(path), report.items)
    f.differences = tuple(getattr(IMPORTERS[source][0], "VERDICT_DIFFERENCES", ()))
    loop = asyncio.new_event_loop()  # a private loop leaves the caller's event-loop policy alone
    try:
        loop.run_until_complete(_verdicts(tasks, out, f))
        if source == "homebench":
            f.gold_check = loop.run_until_complete(check_gold(tasks, out, source_golds(path)))
    finally:
        loop.close()
    f.skipped = Counter(w for _, w in report.skipped)
    for item, request, verdict in report.invalid:
        kind = request.split("(")[0].rsplit(".", 2)[-2]
        f.invalid[kind] += 1
        if verdict == "refused":
            f.invalid_refused[kind] += 1
        elif verdict.startswith(LABEL_CONFLICT):
            f.label_conflicts.append((item, request, verdict.removeprefix(LABEL_CONFLICT)))
        else:
            f.executable.append((item, request, verdict))
    f.unread = len(report.unread)
    if source == "homebench":
        f.gold = replay_gold(path)
    return f


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.1f}%" if d else "-"


def markdown(f: Fidelity) -> str:
    """The figures as the README's tables show them."""
    lines = [
        f"# Import fidelity: {f.source} ({f.path})",
        "",
        "| subcategory | imported | reference passes | doing nothing passes |",
        "|---|---:|---:|---:|",
    ]
    lines += [
        f"| {s} | {f.imported[s]} | {f.oracle[s]} | {f.null[s]} |" for s in sorted(f.imported)
    ]
    lines += [
        f"| all | {f.total} | {sum(f.oracle.values())} | {sum(f.null.values())} |",
        "",
        "| device kind | tasks naming it | reference passes |",
        "|---|---:|---:|",
    ]
    lines += [f"| {k} | {f.kinds[k]} | {f.kinds_oracle[k]} |" for k in sorted(f.kinds)]
    if f.items:
        lines += [
            "",
            f"Imported {f.total} of the source's {f.items} items ({_pct(f.total, f.items)}).",
        ]
    lines += [
        "",
        f"{sum(f.skipped.values())} items skipped (entities and files among them), by reason:",
        "",
    ]
    lines += [f"- {n} x {why}" for why, n in f.skipped.most_common()]
    if f.gold is not None:
        g = f.gold
        lines += [
            "",
            f"Gold calls replayed: {g.landed} of {g.calls} valid calls land in the state they ask for, "
            f"every attribute they set checked ({_pct(g.landed, g.calls)})",
            "",
            "| method | gold calls | land |",
            "|---|---:|---:|",
        ]
        lines += [
            f"| {m} | {g.by_method[m]} | {g.landed_by_method[m]} |" for m in sorted(g.by_method)
        ]
        lines += ["", f"{len(g.disagreements)} gold calls do not land, by reason:", ""]
        lines += [
            f"- {n} x {why}" for why, n in Counter(w for _, _, w in g.disagreements).most_common()
        ]
    if f.gold_check is not None:
        c = f.gold_check
        lines += [
            "",
            "Independent check (HomeBench's gold carried out as written, through the device's "
            f"services, no SMH planner or reference): {c.landed} of {c.calls} gold calls land "
            f"({_pct(c.landed, c.calls)}); {c.passed} of {c.tasks} tasks pass SMH's verifier "
            f"({_pct(c.passed, c.tasks)}; {c.label_conflicts} of them label conflicts)",
        ]
        lines += [f"- {n} x {why}" for why, n in c.not_landed.most_common(20)]
        fails = Counter(reason_kind(r) for _, r in c.failed)
        lines += [f"- task fails {n} x: {why}" for why, n in fails.most_common(20)]
    if f.invalid or f.unread:
        total, refused = sum(f.invalid.values()), sum(f.invalid_refused.values())
        lines += [
            "",
            f"Requests the source labels impossible, replayed on the task's home: {refused} of {total} "
            f"refused ({_pct(refused, total)}), {len(f.label_conflicts)} carried out by the source's "
            f"own home (label conflicts: the task keeps the home and the label, marked "
            f"`label_conflict`), {len(f.executable)} otherwise carried out; {f.unread} more not "
            f"read into a device call",
            "",
            "| device kind | requests | refused |",
            "|---|---:|---:|",
        ]
        lines += [f"| {k} | {f.invalid[k]} | {f.invalid_refused[k]} |" for k in sorted(f.invalid)]
        lines += [""] + [f"CARRIED OUT: {i} {r}: {v}" for i, r, v in f.executable]
        lines += [f"LABEL CONFLICT: {i} {r}: {v}" for i, r, v in f.label_conflicts]
    if f.differences:
        lines += ["", "Where SMH's verdict can differ from the source's, and why:", ""]
        lines += [f"- {d}" for d in f.differences]
    lines += [""] + [f"REFERENCE FAILS: {line}" for line in f.failures]
    return "\n".join(lines).rstrip() + "\n"


def summary_row(f: Fidelity) -> dict[str, Any]:
    """One line of the README's table: the headline figures."""
    out: dict[str, Any] = {
        "imported": f"{f.total}/{f.items}" if f.items else f.total,
        "skipped": sum(f.skipped.values()),
        "reference passes": sum(f.oracle.values()),
        "doing nothing passes": sum(f.null.values()),
    }
    if f.gold is not None:
        out["gold calls landing"] = f"{f.gold.landed}/{f.gold.calls}"
    if f.gold_check is not None:
        out["gold as written: calls landing"] = f"{f.gold_check.landed}/{f.gold_check.calls}"
        out["gold as written: tasks passing"] = f"{f.gold_check.passed}/{f.gold_check.tasks}"
    if f.invalid:
        out["impossible requests refused"] = (
            f"{sum(f.invalid_refused.values())}/{sum(f.invalid.values())}"
        )
        out["label conflicts"] = len(f.label_conflicts)
    return out
