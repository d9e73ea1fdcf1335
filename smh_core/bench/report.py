"""Reports from a results log: Markdown, CSV and, when asked for, a PNG chart.

Success rates per suite and per category x difficulty (as in SMH-Bench Tables 2/19), per
SimuHome query type feasible/infeasible when present (subcategory), MemHome's token F1 and
BLEU-1 of the memory decision per subcategory when verdicts record them (MemHome Tables 3/4),
error-class counts and tokens per task. Rates carry 95% Wilson intervals: suites are a few hundred tasks, so two
models a couple of points apart are often not distinguishable, and the report says so.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from .chart import draw_chart
from .manifest import RunManifest, read_manifest
from .results import is_infra, is_task_error, read_records
from .stats import wilson
from .verifier import ERROR_CLASSES
from .voice_report import voice_lines

DIFFICULTIES = ("simple", "medium", "complex")


def load_records(out_dir: Path) -> list[dict[str, Any]]:
    """The records that count (see :mod:`.results`), read without touching the file, each under
    the suite name the user asked for (``--suite sample`` runs tasks whose own suite is smh or
    simuhome; ``run.json`` keeps the names asked for and the report's rows follow them)."""
    path = out_dir / "results.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"no results in {out_dir} (expected {path.name})")
    with path.open("rb") as fh:
        records = read_records(fh, source=str(path))
    manifest = read_manifest(out_dir)
    names = manifest.suite_names if manifest is not None else {}
    for r in records:
        if r.get("task_id") in names:
            r["suite"] = names[r["task_id"]]
    return records


def header(manifest: RunManifest | None, records: list[dict[str, Any]]) -> list[str]:
    """Report lines saying what was run: agent, model, endpoint, date, commit, suites and where
    the tasks came from (from ``run.json``; a folder without one names the agents its records do)."""
    if manifest is None:
        agents = ", ".join(sorted({str(r.get("agent")) for r in records})) or "–"
        return ["| run | |", "|---|---|", f"| agent | {agents} |", "| (no run.json) | |", ""]
    ident = manifest.identity
    agent = ident.agent + (f" ({ident.setting.upper()})" if ident.setting else "")
    agent += f", guard {'on' if ident.guard else 'off'}"
    if ident.backend != "embedded":
        agent += f", backend {ident.backend}" + (
            f" (HA {manifest.ha_version})" if manifest.ha_version else ""
        )
    date = _when(manifest.started) + (
        f" to {_when(manifest.finished)}" if manifest.finished else " (not finished)"
    )
    sample = (
        f", a stratified sample of {ident.limit} (seed {ident.seed})"
        if ident.limit is not None
        else ""
    )
    suites = ", ".join(f"{name} ({n})" for name, n in manifest.suites.items()) + sample
    rows = [
        ("agent", agent),
        ("model", ident.model or "–"),
        ("endpoint", ident.endpoint or "–"),
        ("date", date),
        (
            "commit",
            f"{(manifest.git_commit or 'not a git checkout')[:12]} (smh {manifest.smh_version})",
        ),
        ("suites", suites),
        ("task source", "; ".join(manifest.task_source) or "–"),
    ]
    return [
        "| run | |",
        "|---|---|",
        *(f"| {k} | {str(v).replace('|', '/')} |" for k, v in rows),
        "",
    ]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def summarize(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per suite: success over the scored tasks; infrastructure failures and task errors (tasks
    that could not be prepared) are counted apart (by kind) and left out of every rate, since
    they say nothing about the model."""
    by_suite: dict[str, list[dict]] = defaultdict(list)
    infra: dict[str, Counter] = defaultdict(Counter)
    task_errors: dict[str, Counter] = defaultdict(Counter)
    for r in records:
        if is_infra(r):
            infra[r["suite"]][r["infra"].get("kind", "unknown")] += 1
        elif is_task_error(r):
            task_errors[r["suite"]][r["task_error"].get("kind", "unknown")] += 1
        else:
            by_suite[r["suite"]].append(r)
    for suite in [*infra, *task_errors]:
        by_suite.setdefault(suite, [])
    suites = {}
    for suite, rs in sorted(by_suite.items()):
        n, p = len(rs), sum(r["passed"] for r in rs)
        tokens = [r.get("usage", {}).get("total_tokens", 0) for r in rs]
        seconds = [r.get("seconds", 0.0) for r in rs]
        cells: dict[str, dict[str, tuple[int, int]]] = defaultdict(
            lambda: {d: (0, 0) for d in DIFFICULTIES}
        )
        for r in rs:
            got, total = cells[r["category"]][r["difficulty"]]
            cells[r["category"]][r["difficulty"]] = (got + r["passed"], total + 1)
        subs: dict[str, tuple[int, int]] = {}
        for r in rs:
            got, total = subs.get(r["subcategory"], (0, 0))
            subs[r["subcategory"]] = (got + r["passed"], total + 1)
        suites[suite] = {
            "n": n,
            "passed": p,
            "rate": p / n if n else 0.0,
            "ci": wilson(p, n),
            "tokens_per_task": sum(tokens) / n if n else 0.0,
            "seconds_per_task": sum(seconds) / n if n else 0.0,
            "tokens_per_second": sum(tokens) / sum(seconds)
            if sum(tokens) and sum(seconds)
            else 0.0,
            "infra": dict(infra.get(suite, {})),
            "task_errors": dict(task_errors.get(suite, {})),
            "categories": dict(sorted(cells.items())),
            "subcategories": dict(sorted(subs.items())),
            "errors": Counter(r["verdict"]["error_class"] for r in rs if not r["passed"]),
            "agents": sorted({r["agent"] for r in records if r["suite"] == suite}),
        }
        conflicted = [r for r in rs if r.get("label_conflict")]
        if conflicted:
            suites[suite]["label_conflicts"] = (
                sum(r["passed"] for r in conflicted),
                len(conflicted),
            )
        text = _text_metrics(rs)
        if text:
            suites[suite]["text_metrics"] = text
        suites[suite]["claims"] = _claim_figures(rs)
    return suites


def _claim_figures(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Said versus did (issue 38) over scored turns: turns whose reply makes a checkable claim,
    those with at least one false claim (the false-claim rate's numerator, counted whether the
    task passed on state or not), claims checked and unverifiable, and per category and
    difficulty ``(false-claim turns, turns with claims)``."""
    claimed = [r for r in records if r.get("claims")]
    false_turns = [r for r in claimed if r.get("false_claims")]
    cells: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    for r in claimed:
        f, t = cells[r["category"]].get(r["difficulty"], (0, 0))
        cells[r["category"]][r["difficulty"]] = (f + bool(r.get("false_claims")), t + 1)
    return {
        "turns": len(records),
        "claimed": len(claimed),
        "false_turns": len(false_turns),
        "false_on_passed": sum(1 for r in false_turns if r["passed"]),
        "checked": sum(len(r["claims"]) for r in claimed),
        "unverifiable": sum(c["truth"] == "unverifiable" for r in claimed for c in r["claims"]),
        "cells": dict(cells),
    }


def _claim_lines(summary: dict[str, Any]) -> list[str]:
    rows = [
        (suite, s["claims"]) for suite, s in summary.items() if s.get("claims", {}).get("claimed")
    ]
    if not rows:
        return []
    out = [
        "",
        "## Said versus did",
        "",
        "Each reply's claims (actions done or not, device states) checked against what the turn "
        "did; a false claim is counted beside the verdict, so a task can pass on state and still "
        "carry one (FC).",
        "",
        "| suite | turns | with a claim | with a false claim | false-claim rate % | of them passed | claims checked | unverifiable % |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for suite, c in rows:
        out.append(
            f"| {suite} | {c['turns']} | {c['claimed']} | {c['false_turns']} | "
            f"{_pct(c['false_turns'] / c['claimed'])} | {c['false_on_passed']} | {c['checked']} | "
            f"{_pct(c['unverifiable'] / c['checked']) if c['checked'] else '–'} |"
        )
    return out


def _label_conflict_notes(summary: dict[str, Any]) -> list[str]:
    """Each suite's score with and without the tasks whose source label contradicts the source's
    own home (scored as the source scores them, and counted apart so both figures are seen)."""
    out = []
    for suite, s in summary.items():
        if "label_conflicts" not in s:
            continue
        got, total = s["label_conflicts"]
        rest_n, rest_p = s["n"] - total, s["passed"] - got
        rest = f"{rest_p}/{rest_n} ({_pct(rest_p / rest_n)} %)" if rest_n else "no tasks"
        out.append(
            f"{suite}: {total} of {s['n']} tasks carry a `label_conflict` (the source labels the "
            f"request impossible although its own home can do it; kept and scored as the source "
            f"scores them): {got}/{total} passed; without them {rest}."
        )
    return ["", *out] if out else []


def _text_metrics(records: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Mean token F1 and BLEU-1 of the memory decision per subcategory and over ``all``, from
    verdicts that record them (MemHome); empty when none do."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        details = r["verdict"].get("details") or {}
        if "f1" in details and "bleu1" in details:
            groups[r["subcategory"]].append(details)
            groups["all"].append(details)

    def judged(ds: list[dict[str, Any]]) -> float | None:
        votes = [d["judge_correct"] for d in ds if "judge_correct" in d]
        return sum(votes) / len(votes) if votes else None

    return {
        sub: {
            "n": len(ds),
            "f1": sum(d["f1"] for d in ds) / len(ds),
            "bleu1": sum(d["bleu1"] for d in ds) / len(ds),
            "judge": judged(ds),
        }
        for sub, ds in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0]))
    }


def _when(stamp: str) -> str:
    """An ISO time stamp of ``run.json`` as people read it: ``2026-11-27 07:42:02 UTC``."""
    return stamp.replace("T", " ").replace("+00:00", " UTC")


def markdown(summary: dict[str, Any], head: list[str] | None = None) -> str:
    """The report's Markdown; ``head`` (see :func:`header`) goes under the title."""
    out = [
        "# SMH benchmark report",
        "",
        *(head or []),
        "| suite | agent | tasks | passed | success % | 95% CI | tokens/task | s/task | tokens/s | not scored |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for suite, s in summary.items():
        lo, hi = s["ci"]
        out.append(
            f"| {suite} | {', '.join(s['agents'])} | {s['n']} | {s['passed']} | {_pct(s['rate'])} | "
            f"{_pct(lo)}-{_pct(hi)} | {s['tokens_per_task']:.0f} | {s['seconds_per_task']:.2f} | "
            f"{s['tokens_per_second']:.0f} | {_not_scored(s)} |"
        )
    out += _not_scored_notes(summary)
    out += _label_conflict_notes(summary)
    out += _claim_lines(summary)
    out += [
        "",
        "tokens/task and s/task are means over scored tasks (s: the agent's wall time); tokens/s is "
        "prompt + completion tokens over that time.",
    ]
    for suite, s in summary.items():
        if not s["n"]:
            continue
        out += [
            "",
            f"## {suite}: success % by category and difficulty",
            "",
            "| category | " + " | ".join(DIFFICULTIES) + " | all |",
            "|---|" + "---:|" * 4,
        ]
        for cat, cells in s["categories"].items():
            got = sum(g for g, _ in cells.values())
            tot = sum(t for _, t in cells.values())
            row = [(_pct(g / t) if t else "–") for g, t in cells.values()]
            out.append(f"| {cat} | " + " | ".join(row) + f" | {_pct(got / tot)} |")
        pivot = _feasibility(s["subcategories"])
        if pivot:  # SimuHome's Table 1 layout: query type x feasible / infeasible
            out += ["", "| query type | feasible | infeasible |", "|---|---:|---:|"]
            for qt, cells in pivot.items():
                row = [
                    (_pct(g / t) if t else "–")
                    for g, t in (cells.get(v, (0, 0)) for v in FEASIBILITY)
                ]
                out.append(f"| {qt} | " + " | ".join(row) + " |")
        out += ["", "| subcategory | tasks | success % |", "|---|---:|---:|"]
        out += [f"| {sub} | {t} | {_pct(g / t)} |" for sub, (g, t) in s["subcategories"].items()]
        if s.get("text_metrics"):  # MemHome: the decision text against the reference
            out += [
                "",
                "| subcategory | tasks | token F1 % | BLEU-1 % | judge accuracy % |",
                "|---|---:|---:|---:|---:|",
            ]
            out += [
                f"| {sub} | {m['n']} | {_pct(m['f1'])} | {_pct(m['bleu1'])} | "
                f"{'–' if m.get('judge') is None else _pct(m['judge'])} |"
                for sub, m in s["text_metrics"].items()
            ]
        if s["errors"]:
            out += ["", "| error class | failures |", "|---|---:|"]
            out += [f"| {cls} | {k} |" for cls, k in s["errors"].most_common()]
    seen = sorted(
        {str(c) for s in summary.values() for c in s["errors"]}
        | (
            {"FC"}
            if any(s.get("claims", {}).get("false_turns") for s in summary.values())
            else set()
        )
    )
    if seen:
        out += [
            "",
            "## Error classes",
            "",
            "From SMH-Bench (FRF, SO, MS, IE, AV, AJ), SimuHome (EP, DC, AP, TR, CB, CM) and "
            "MemHome; the verifier picks one per failed task by what went wrong.",
            "",
        ]
        out += [f"- **{c}**: {ERROR_CLASSES.get(c, 'no description')}" for c in seen]
    return "\n".join(out) + "\n"


def _not_scored(s: dict[str, Any]) -> int:
    return sum(s["infra"].values()) + sum(s.get("task_errors", {}).values())


def _not_scored_notes(summary: dict[str, Any]) -> list[str]:
    """Sentences on the tasks left out of the rates: infra failures and task errors."""
    infra, task_errors = Counter(), Counter()
    for s in summary.values():
        infra.update(s["infra"])
        task_errors.update(s.get("task_errors", {}))
    out = []
    if infra:
        kinds = ", ".join(f"{k} {n}" for k, n in infra.most_common())
        out += [
            "",
            f"Not scored: {sum(infra.values())} tasks failed outside the model ({kinds}); "
            "they are left out of every rate and run again when the same command is re-run.",
        ]
    if task_errors:
        kinds = ", ".join(f"{k} {n}" for k, n in task_errors.most_common())
        out += [
            "",
            f"Task errors: {sum(task_errors.values())} tasks could not be prepared ({kinds}; see "
            "task_error in results.jsonl); the model never saw them and they are left out of every "
            "rate. Fix the task or its home and re-run the same command to run them.",
        ]
    return out


FEASIBILITY = ("feasible", "infeasible")


def _feasibility(subs: dict[str, tuple[int, int]]) -> dict[str, dict[str, tuple[int, int]]]:
    """``{"QT1": {"feasible": (passed, n), "infeasible": ...}}`` from ``QT1-feasible``-style
    subcategories (empty when a suite has none)."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for sub, cell in subs.items():
        head, _, tail = sub.rpartition("-")
        if head and tail in FEASIBILITY:
            out.setdefault(head, {})[tail] = cell
    return out


SKIPPED = "skipped.json"
"""Reason -> count of the tasks a run did not run (HA and hardware runs write it)."""
RECORDS = "records"
"""One JSON file per task the report lists (failed or not scored), linked from report.md."""


def task_files(out_dir: Path, records: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str]]:
    """Write the record of every failed or unscored task to ``records/<task id>.json`` (what a
    reader opens from the report: reply, tool calls, changes, verdict); returns each with its
    relative link. Files of tasks that now pass are removed."""
    folder = out_dir / RECORDS
    listed = [r for r in records if not r.get("passed")]
    wanted = {}
    for r in listed:
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", str(r["task_id"]))[:150] + ".json"
        wanted[name] = r
    if folder.exists():
        for old in folder.glob("*.json"):
            if old.name not in wanted:
                old.unlink()
    if wanted:
        folder.mkdir(exist_ok=True)
    for name, r in wanted.items():
        (folder / name).write_text(
            json.dumps(r, ensure_ascii=False, indent=2, sort_keys=True), encoding="utf-8"
        )
    return [(r, f"{RECORDS}/{name}") for name, r in wanted.items()]


def goal_marks(verdict: dict[str, Any]) -> str:
    """For a multi-goal task, each goal's kind and pass/fail in order (``[execute ok, infeasible
    FAIL] ``), so the table shows which part of a mixed request was missed; empty otherwise."""
    goals = (verdict.get("details") or {}).get("goals")
    if not isinstance(goals, list) or not goals:
        return ""
    marks = [
        f"{g.get('kind', '?')} {'ok' if g.get('passed') else 'FAIL'}"
        for g in goals
        if isinstance(g, dict)
    ]
    return f"[{', '.join(marks)}] "


def task_table(listed: list[tuple[dict[str, Any], str]], most: int = 200) -> list[str]:
    """Report lines: the failed and unscored tasks, each linked to its record."""
    if not listed:
        return []
    out = [
        "",
        "## Tasks not passed",
        "",
        "| task | suite | category | class | reason |",
        "|---|---|---|---|---|",
    ]
    for r, link in sorted(listed, key=lambda x: (x[0]["suite"], x[0]["category"], x[0]["task_id"]))[
        :most
    ]:
        reason = (
            str(r.get("verdict", {}).get("reason", "")).replace("|", "/").replace("\n", " ")[:120]
        )
        reason = goal_marks(r.get("verdict", {})) + reason
        cls = r.get("verdict", {}).get("error_class") or ""
        out.append(
            f"| [{r['task_id']}]({link}) | {r['suite']} | {r['category']} | {cls} | {reason} |"
        )
    if len(listed) > most:
        out.append(f"| ... {len(listed) - most} more in {RECORDS}/ | | | | |")
    return out


def skipped_lines(out_dir: Path) -> list[str]:
    path = out_dir / SKIPPED
    if not path.exists():
        return []
    try:
        skipped = {str(k): int(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}
    except (ValueError, AttributeError, TypeError):
        return []
    if not skipped:
        return []
    reasons = "; ".join(f"{why}: {n}" for why, n in sorted(skipped.items(), key=lambda kv: -kv[1]))
    return ["", f"Skipped (not run on this backend): {sum(skipped.values())} tasks ({reasons})."]


def write_report(out_dir: Path, chart: bool = True) -> dict[str, Path]:
    """Write ``report.md`` and ``report.csv`` and, with ``chart``, ``report.png`` (matplotlib:
    0.4-0.5 s of CPU); without it an older ``report.png`` is removed, since it would show other
    results than the report beside it. Returns the paths written."""
    records = load_records(out_dir)
    summary = summarize(records)
    paths = {
        "markdown": out_dir / "report.md",
        "csv": out_dir / "report.csv",
        "png": out_dir / "report.png",
    }
    text = markdown(summary, header(read_manifest(out_dir), records)).rstrip("\n").split("\n")
    text += voice_lines(records, _voice_settings(out_dir))
    text += skipped_lines(out_dir) + task_table(task_files(out_dir, records))
    paths["markdown"].write_text("\n".join(text) + "\n", encoding="utf-8")
    with paths["csv"].open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(
            [
                "suite",
                "category",
                "difficulty",
                "tasks",
                "passed",
                "success",
                "turns_with_claims",
                "false_claim_turns",
            ]
        )
        for suite, s in summary.items():
            claim_cells = s.get("claims", {}).get("cells", {})
            for cat, cells in s["categories"].items():
                for diff, (g, t) in cells.items():
                    if t:
                        f, c = claim_cells.get(cat, {}).get(diff, (0, 0))
                        w.writerow([suite, cat, diff, t, g, f"{g / t:.4f}", c, f])
    if chart:
        draw_chart(summary, paths["png"])
    else:
        paths.pop("png").unlink(missing_ok=True)
    return paths


def _voice_settings(out_dir: Path) -> str | None:
    """The run's speaker, from its manifest (``run.json``), for the voice section."""
    try:
        return json.loads((out_dir / "run.json").read_text(encoding="utf-8"))["identity"].get(
            "voice"
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
