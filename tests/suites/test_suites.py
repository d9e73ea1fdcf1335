"""Generated suites: the shipped files are exactly what the generator writes, with the
paper's per-subcategory sizes and difficulty split, and every task validated."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from smh_core.suites import smh_suite
from smh_core.task.model import dump_task, iter_tasks

TASKS = Path(__file__).resolve().parents[2] / "tasks"


@pytest.mark.slow  # 20-45 s
def test_shipped_smh_suite_is_regenerated_byte_for_byte():
    generated = "".join(dump_task(t) + "\n" for t in smh_suite.generate(0))
    assert (TASKS / "smh.jsonl").read_text(encoding="utf-8") == generated


def test_smh_suite_sizes_and_split():
    tasks = list(iter_tasks(TASKS / "smh.jsonl"))
    assert len(smh_suite.SUBCATEGORIES) == 22 and len(tasks) == 1100  # SMH-Bench Appendix C
    assert Counter(smh_suite.SUBCATEGORIES.values()) == {
        "atomic_control": 3,
        "compositional_control": 5,
        "ambiguous_intent": 3,
        "scheduling": 3,
        "multi_turn": 4,
        "memory": 2,
        "query": 2,
    }
    per_sub = Counter(t.subcategory for t in tasks)
    assert per_sub == {sub: 50 for sub in smh_suite.SUBCATEGORIES}
    for sub in smh_suite.SUBCATEGORIES:
        split = Counter(t.difficulty for t in tasks if t.subcategory == sub)
        assert split == {"simple": 25, "medium": 15, "complex": 10}
    assert len({t.turns[0].text for t in tasks}) > 200  # varied wording, not one template


def test_validate_command_accepts_shipped_files():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "tasks",
            "validate",
            str(TASKS / "sample.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "8 tasks valid" in run.stdout


def test_shipped_sage_suite_and_homes_are_regenerated_byte_for_byte(tmp_path):
    from smh_core.suites import sage_suite

    generated = "".join(dump_task(t) + "\n" for t in sage_suite.generate(0, validate_tasks=False))
    assert (TASKS / "sage.jsonl").read_text(encoding="utf-8") == generated
    for path in sage_suite.write_homes(tmp_path):
        assert (TASKS / "homes" / path.name).read_bytes() == path.read_bytes()
    assert len(generated.splitlines()) >= 40


def test_shipped_memhome_suite_is_regenerated_byte_for_byte():
    from smh_core.suites import memhome_suite

    generated = "".join(dump_task(t) + "\n" for t in memhome_suite.generate(0))
    assert (TASKS / "memhome.jsonl").read_text(encoding="utf-8") == generated
    assert len(generated.splitlines()) >= 400
