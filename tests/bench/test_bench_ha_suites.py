"""``make bench BACKEND=ha`` passes every suite ``make bench`` runs to ``scripts/bench_ha.py``:
each must be one it takes (the safety suite was not, and the command failed at once)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import bench_ha  # noqa: E402


def test_every_suite_make_bench_runs_is_one_the_ha_runner_takes() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    suites = re.search(r"^SUITES := (.+)$", makefile, re.M)
    assert suites is not None
    asked = [*suites.group(1).split(), "sample"]  # the BACKEND=ha line adds sample
    assert "$(SUITES) sample" in makefile
    assert [s for s in asked if s not in bench_ha.SUITES] == []  # its --suite choices
