"""The table `make bench` ends with: one row per run folder, from each run's report.csv.

    python scripts/bench_summary.py RUN_DIR [RUN_DIR ...]

Why a table of its own: each run's report.md has its suites, categories and costs; the reader of
`make bench` wants the runs side by side (which agent, which suites, how many passed) on one
screen. A run folder without a report.csv is named as missing, never skipped.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path


def summary_rows(run: Path) -> tuple[str, str, int, int] | None:
    """(run, suites, tasks, passed) from ``run/report.csv``; None when it has none."""
    report = run / "report.csv"
    if not report.is_file():
        return None
    tasks: dict[str, int] = {}
    passed: dict[str, int] = {}
    with report.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            suite = row["suite"]
            tasks[suite] = tasks.get(suite, 0) + int(row["tasks"])
            passed[suite] = passed.get(suite, 0) + int(row["passed"])
    return run.name, ", ".join(sorted(tasks)), sum(tasks.values()), sum(passed.values())


def table(runs: list[Path]) -> tuple[list[str], list[Path]]:
    """The Markdown lines, and the folders that had no report."""
    lines = ["| run | suites | passed | success % |", "|---|---|---:|---:|"]
    missing = []
    for run in runs:
        row = summary_rows(run)
        if row is None:
            missing.append(run)
            continue
        name, suites, n, ok = row
        share = f"{100 * ok / n:.1f}" if n else "–"
        lines.append(f"| {name} | {suites} | {ok}/{n} | {share} |")
    return lines, missing


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: bench_summary.py RUN_DIR [RUN_DIR ...]", file=sys.stderr)
        return 2
    lines, missing = table([Path(a) for a in argv])
    print("\n".join(lines))
    for run in missing:
        print(f"bench_summary: no report.csv in {run}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
