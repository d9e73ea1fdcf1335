"""bench compare: runs side by side only on the tasks all of them scored, with intervals and
a paired test against the first run."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from smh_core.bench.compare import compare, mcnemar_exact
from smh_core.bench.results import ResultsLog


def _run(path: Path, outcomes: dict[str, bool], agent: str, infra: tuple[str, ...] = ()) -> Path:
    log = ResultsLog(path / "results.jsonl")
    for task_id, passed in outcomes.items():
        log.append(
            {
                "task_id": task_id,
                "suite": "smh",
                "category": "c" + task_id[0],
                "subcategory": "s",
                "difficulty": "simple",
                "agent": agent,
                "passed": passed,
                "seconds": 1.0,
                "verdict": {
                    "passed": passed,
                    "error_class": None if passed else "DC",
                    "reason": "",
                },
                "usage": {"total_tokens": 100},
            }
        )
    for task_id in infra:
        log.append(
            {
                "task_id": task_id,
                "suite": "smh",
                "category": "c",
                "subcategory": "s",
                "difficulty": "simple",
                "agent": agent,
                "passed": False,
                "seconds": 0.0,
                "infra": {"kind": "timeout", "message": "t"},
                "verdict": {"passed": False, "error_class": "INFRA", "reason": ""},
            }
        )
    return path


def test_mcnemar_exact_matches_the_binomial_tail() -> None:
    assert mcnemar_exact(0, 0) == 1.0
    assert abs(mcnemar_exact(0, 6) - 2 / 64) < 1e-12  # two-sided: 2 * (1/2)^6
    assert abs(mcnemar_exact(5, 5) - 1.0) < 1e-12


def test_only_tasks_every_run_scored_are_compared(tmp_path) -> None:
    a = _run(tmp_path / "a", {"a1": True, "a2": True, "b1": False, "b2": True}, "oracle")
    b = _run(tmp_path / "b", {"a1": True, "a2": False, "b1": True}, "model", infra=("b2",))
    (sa, sb), shared = compare([a, b])
    assert shared == 3  # b2 was an infra failure in run b
    assert (sa.passed, sa.n, sb.passed, sb.n) == (2, 3, 2, 3)
    assert (sb.won, sb.lost) == (1, 1) and sb.p_value == 1.0 and sb.not_scored == 1
    assert sb.by_category == {"smh/ca": (1, 2), "smh/cb": (1, 1)} and sb.errors == {"DC": 1}


def test_cli_writes_markdown_and_csv(tmp_path) -> None:
    a = _run(tmp_path / "a", {"a1": True, "a2": True}, "oracle")
    b = _run(tmp_path / "b", {"a1": False, "a2": True}, "null")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "bench",
            "compare",
            str(a),
            str(b),
            "--out",
            str(tmp_path / "c.md"),
            "--csv",
            str(tmp_path / "c.csv"),
            "--png",
            str(tmp_path / "c.png"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert (
        "# Comparison on 2 tasks every run scored" in run.stdout
        and "| b | null | 1/2 |" in run.stdout
    )
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = list(csv.DictReader((tmp_path / "c.csv").open()))
    assert {(r["run"], r["group"], r["passed"]) for r in rows} >= {
        ("a", "all", "2"),
        ("b", "all", "1"),
    }


def test_report_chart_survives_all_pass_and_all_fail_categories(tmp_path) -> None:
    """A 100% category once made matplotlib refuse a negative error bar (float rounding)."""
    from smh_core.bench.report import write_report

    _run(
        tmp_path,
        {f"a{i}": True for i in range(2439)} | {f"b{i}": False for i in range(7)},
        "oracle",
    )
    paths = write_report(tmp_path)
    assert paths["png"].stat().st_size > 0


def test_report_links_every_task_not_passed_and_counts_skips(tmp_path) -> None:
    import json as _json

    from smh_core.bench.report import write_report

    _run(tmp_path, {"a1": True, "b1": False}, "model", infra=("c1",))
    (tmp_path / "skipped.json").write_text(_json.dumps({"timed goal (embedded runner only)": 3}))
    text = write_report(tmp_path)["markdown"].read_text()
    assert "| [b1](records/b1.json) | smh | cb | DC |" in text and "[c1](records/c1.json)" in text
    assert "[a1]" not in text
    assert (
        "Skipped (not run on this backend): 3 tasks (timed goal (embedded runner only): 3)." in text
    )
    assert _json.loads((tmp_path / "records" / "b1.json").read_text())["task_id"] == "b1"
    _run(
        tmp_path / "again", {"b1": True}, "model"
    )  # a later report drops files of tasks now passing
    (tmp_path / "records" / "stale.json").write_text("{}")
    write_report(tmp_path)
    assert not (tmp_path / "records" / "stale.json").exists()


def test_false_claims_are_paired_against_the_first_run(tmp_path) -> None:
    """Issue 38: the share of turns with a false claim, and the tasks where a run says something
    false that the first run did not (and the other way), with McNemar's p."""
    import json

    from smh_core.bench.compare import markdown

    a, b = (
        _run(tmp_path / "a", {"1": True, "2": True}, "x"),
        _run(tmp_path / "b", {"1": True, "2": True}, "y"),
    )
    for run, false in ((a, {"1": 0, "2": 0}), (b, {"1": 1, "2": 0})):
        lines = (run / "results.jsonl").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        for r in records:
            r["claims"] = [{"truth": "false" if false[r["task_id"]] else "true"}]
            r["false_claims"] = false[r["task_id"]]
        (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    summaries, shared = compare([a, b])
    first, second = summaries
    assert (first.claimed, first.false_turns, second.false_turns) == (2, 0, 1)
    assert (second.false_more, second.false_less) == (1, 0) and second.false_p == 1.0
    assert "| b | 2 | 1 | 50.0 | 1 / 0 | 1 |" in markdown(summaries, shared)
