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
