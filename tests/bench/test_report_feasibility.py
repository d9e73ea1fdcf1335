"""The report's SimuHome-style table: success per query type, feasible vs infeasible."""

from __future__ import annotations

from smh_core.bench.report import markdown, summarize


def record(sub: str, passed: bool) -> dict:
    qt = sub.rsplit("-", 1)[0]
    return {
        "suite": "simuhome",
        "agent": "a",
        "category": qt,
        "subcategory": sub,
        "difficulty": "simple",
        "passed": passed,
        "verdict": {"error_class": None if passed else "DC"},
        "usage": {},
    }


def test_query_type_by_feasibility():
    records = (
        [record("QT1-feasible", True)] * 3
        + [record("QT1-feasible", False)]
        + [record("QT1-infeasible", False)] * 2
        + [record("QT4-2-feasible", True)]
    )
    text = markdown(summarize(records))
    assert "| query type | feasible | infeasible |" in text
    assert "| QT1 | 75.0 | 0.0 |" in text
    assert "| QT4-2 | 100.0 | – |" in text


def test_suites_without_feasibility_have_no_such_table():
    rec = {
        **record("QT1-feasible", True),
        "suite": "smh",
        "category": "query",
        "subcategory": "status",
    }
    assert "query type" not in markdown(summarize([rec]))


def test_label_conflicts_are_scored_and_shown_with_and_without() -> None:
    def hb(passed: bool, conflict: str | None = None) -> dict:
        rec = {**record("QT1-feasible", passed), "suite": "homebench_import"}
        rec.update(category="single", subcategory="normal")
        return {**rec, "label_conflict": conflict} if conflict else rec

    records = [hb(True)] * 6 + [hb(False)] * 2 + [hb(True, "x")] + [hb(False, "y")] * 3
    summary = summarize(records)
    assert summary["homebench_import"]["passed"] == 7 and summary["homebench_import"]["n"] == 12
    assert summary["homebench_import"]["label_conflicts"] == (1, 4)
    text = markdown(summary)
    assert "homebench_import: 4 of 12 tasks carry a `label_conflict`" in text
    assert "1/4 passed; without them 6/8 (75.0 %)." in text
    assert "label_conflict" not in markdown(summarize(records[:8]))
