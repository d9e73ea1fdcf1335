"""`make bench`'s quiet output: a step in one line (scripts/bench_step.sh), the runs in one table
at the end (scripts/bench_summary.py). Both run for real here, on real run folders."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tests" / "fixtures" / "tasks_tiny.jsonl"


def _step(logs: Path, name: str, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "bench_step.sh"), str(logs), name, *command],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _summary(*runs: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_summary.py"), *map(str, runs)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_run_is_one_line_and_the_summary_one_row_per_run(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    for agent in ("oracle", "null"):
        run = _step(
            logs, agent, sys.executable, "-m", "smh_core.cli.main", "bench", "run",
            "--tasks", str(TASKS), "--agent", agent, "--out", str(tmp_path / agent), "--quiet",
        )  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert run.stdout.count("\n") == 1 and "tasks recorded in" in run.stdout, run.stdout
        assert "# SMH benchmark report" in (logs / f"{agent}.txt").read_text()  # the details kept
    table = _summary(tmp_path / "oracle", tmp_path / "null")
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0] == "| run | suites | passed | success % |" and len(lines) == 4
    assert lines[2] == "| oracle | simuhome, smh | 8/8 | 100.0 |", lines
    assert lines[3].startswith("| null | simuhome, smh | ") and "| 8/8 |" not in lines[3], lines


def test_a_failing_step_shows_its_log_and_keeps_its_exit_code(tmp_path: Path) -> None:
    run = _step(tmp_path / "logs", "broken", "bash", "-c", "echo the reason; exit 3")
    assert run.returncode == 3 and run.stdout == ""
    assert "broken failed (exit 3)" in run.stderr and "the reason" in run.stderr


def test_a_run_without_a_report_is_named_never_skipped(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    table = _summary(tmp_path / "empty")
    assert table.returncode == 1 and "no report.csv in" in table.stderr
