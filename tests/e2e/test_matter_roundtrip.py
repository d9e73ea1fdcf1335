"""End to end: SimuHome's seed-1 home as a physical-home stand-in, with only user-facing steps
(``scripts/matter_roundtrip.py``, what ``make matter-roundtrip`` runs): ``smh matter-server``,
HA's own Matter config flow in a real ``hass`` without any SMH entry, ``smh matter-areas
--username`` (HA's login flow, no long-lived token), ``smh ha map`` and ``smh bench run
--backend ha --mapping`` with the oracle and with HA's Assist; beside them the embedded oracle
and Assist in a second ``hass`` on SMH's entities.

It holds the issue's promises for this home: the proposed mapping is the known-good one, every
task the path can run passes with the oracle as on the simulator and the others are listed with
their reason, every HA reading equals the device's own state at that moment, each task has its
round-trip timings, and Assist has figures on both paths.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.ha.hardware_map import load_mapping
from smh_core.ha.real_plan import TIME_SKIPS

pytestmark = pytest.mark.slow  # two real hass processes, the bridge and ~40 tasks: about 2 minutes

ROOT = Path(__file__).resolve().parents[2]
KNOWN_GOOD = ROOT / "tests" / "matter" / "known_good" / "matter-1.yaml"


def test_simuhome_over_the_matter_path(tmp_path: Path, socket_enabled) -> None:
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "matter_roundtrip.py"),
            "--seeds",
            "1",
            "--assist",
            "2",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    (home,) = json.loads((tmp_path / "figures.json").read_text())["homes"]

    assert (
        load_mapping(tmp_path / "mappings" / "matter-1.yaml").devices
        == load_mapping(KNOWN_GOOD).devices
    )

    oracle = home["oracle"]
    scored = [r for r in oracle if "infra" not in r]
    assert len(scored) == len(oracle) >= 15 and all(r["passed"] for r in scored)
    assert {r["agent"] for r in oracle} == {"oracle"}
    embedded = {
        r["task_id"]: r["passed"]
        for r in map(json.loads, (tmp_path / "embedded" / "results.jsonl").read_text().splitlines())
    }
    assert all(embedded[r["task_id"]] for r in scored)  # the same rate: every one, on both
    skipped = home["oracle_skipped"]
    waits = sum(n for why, n in skipped.items() if why.startswith(TIME_SKIPS))
    assert waits == home["tasks"] - home["no_time"]  # timed tasks: none may wait (--max-wait 0)
    assert skipped["not mapped: 2024/1.OnOff.OnOff"] >= 1  # a Matter fan's power: no HA entity
    assert (
        len(scored) + sum(skipped.values()) == home["tasks"]
    )  # every task is run or has its reason

    assert home["disagree"] == {}  # what HA showed was the device's own state
    assert all(r["latency"]["initial_state_s"] >= 0 for r in scored)
    moved = [r for r in scored if r["latency"]["commanded"]]
    assert moved and all(0 < r["latency"]["reports_s"] < 15 for r in moved)

    assert len(home["assist"]) == 2 and all(
        r["agent"] == "ha:conversation.home_assistant" for r in home["assist"]
    )
    report = (tmp_path / "report.md").read_text()
    assert "| Matter devices (HA's matter integration) | 2 |" in report
    assert "| SMH entities (the SMH integration) | 2 |" in report
    restore = json.loads((tmp_path / "oracle" / "home-1" / "restore.json").read_text())
    assert restore["restored"], restore["problem"]
