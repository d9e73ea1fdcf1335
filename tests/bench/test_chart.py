"""report.png: drawn by ``smh bench report`` and ``smh bench run --chart``, kept current by a run
into a folder that has one, and never left beside a report of other results."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from smh_core.bench.chart import draw_chart

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tests" / "fixtures" / "tasks_tiny.jsonl"
PNG = b"\x89PNG\r\n\x1a\n"
SUMMARY = {
    "smh": {
        "agents": ["oracle"],
        "categories": {
            "atomic_control": {"simple": (3, 4), "medium": (1, 2)},
            "query": {"simple": (0, 2)},
        },
    }
}


def smh(*args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done


def run(out: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return smh(
        "bench", "run", "--tasks", str(TASKS), "--agent", "oracle", "--out", str(out), *flags
    )


def test_draw_chart_writes_a_png(tmp_path: Path) -> None:
    draw_chart(SUMMARY, tmp_path / "report.png")
    picture = (tmp_path / "report.png").read_bytes()
    assert picture.startswith(PNG) and len(picture) > 1000


def test_a_run_leaves_the_chart_to_whoever_asks_for_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = run(out, "--quiet")
    assert (out / "report.md").is_file() and (out / "report.csv").is_file()
    assert not (out / "report.png").exists()
    assert f"(report.png: smh bench report {out})" in done.stdout
    done = smh("bench", "report", str(out))
    assert (out / "report.png").read_bytes().startswith(PNG)
    assert f"{out / 'report.png'}" in done.stdout


def test_a_chart_once_drawn_is_kept_current_or_removed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(out, "--quiet", "--chart")
    assert (out / "report.png").read_bytes().startswith(PNG)
    (out / "report.png").write_bytes(b"an older chart")
    run(out, "--quiet")  # the same run again: nothing left to play, the reports rewritten
    assert (out / "report.png").read_bytes().startswith(PNG)
    run(out, "--quiet", "--no-chart")
    assert not (out / "report.png").exists()
    assert (out / "report.md").is_file()
