"""The side-by-side report compares a rule's later moments (issue 39): a device the real home
read otherwise than the twin when the rule's trigger came is flagged; equal readings are not."""

from __future__ import annotations

import json
from pathlib import Path

from smh_core.ha.twin_compare import compare_runs


def _record(passed: bool, **extra: object) -> dict[str, object]:
    return {
        "task_id": "t1",
        "suite": "smh",
        "category": "scheduling",
        "subcategory": "state_driven",
        "difficulty": "simple",
        "agent": "oracle",
        "passed": passed,
        "verdict": {
            "passed": passed,
            "reason": "",
            "error_class": None,
            "decided_by": "x",
            "details": {},
        },
        "changes": [],
        **extra,
    }


def _write(folder: Path, record: dict[str, object]) -> Path:
    folder.mkdir()
    (folder / "results.jsonl").write_text(json.dumps(record) + "\n")
    return folder


def _moments(real_state: str) -> dict[str, object]:
    return {
        "moments": [
            {
                "label": "after the trigger",
                "twin": {"light.a": {"state": "on"}},
                "real": {"light.a": {"state": real_state}},
            }
        ]
    }


def test_a_rule_whose_device_stayed_put_is_flagged(tmp_path: Path) -> None:
    twin = _write(tmp_path / "twin", _record(True))
    start = {
        "initial_state": {"light.a": {"state": "off"}},
        "final_state": {"light.a": {"state": "off"}},
    }
    same = _write(tmp_path / "same", _record(True, later=_moments("on"), **start))
    stayed = _write(tmp_path / "stayed", _record(False, later=_moments("off"), **start))
    assert compare_runs(twin, same).differences == []
    (diff,) = compare_runs(twin, stayed).differences
    assert (diff.did, diff.locator, diff.kind, diff.twin, diff.real) == (
        "light.a",
        "state",
        "ignored",
        "on",
        "off",
    )
