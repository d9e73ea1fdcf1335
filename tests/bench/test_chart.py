"""report.png from a prestarted child (matplotlib imported on the other core) or in process:
the same picture either way, and never a missing one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.bench import chart

SUMMARY = {
    "smh": {
        "agents": ["oracle"],
        "categories": {
            "atomic_control": {"simple": (3, 4), "medium": (1, 2)},
            "query": {"simple": (0, 2)},
        },
    }
}


@pytest.fixture(autouse=True)
def _no_child_left() -> None:
    yield
    chart._stop()


def test_the_child_draws_what_this_process_draws(tmp_path: Path) -> None:
    chart.prestart()
    child = chart._child
    assert child is not None and child.poll() is None
    chart.draw(SUMMARY, tmp_path / "child.png")
    assert child.returncode == 0 and chart._child is None
    chart.draw_chart(SUMMARY, tmp_path / "here.png")
    assert (tmp_path / "child.png").read_bytes() == (tmp_path / "here.png").read_bytes()
    assert (tmp_path / "child.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_failing_child_still_leaves_a_chart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "executable", "/bin/false")  # the child exits 1 without drawing
    chart.prestart()
    assert chart._child is not None
    chart.draw(SUMMARY, tmp_path / "report.png")
    assert (tmp_path / "report.png").stat().st_size > 1000


def test_an_unused_child_exits_on_eof() -> None:
    chart.prestart()
    child = chart._child
    chart._stop()
    assert child is not None and child.returncode == 0


def test_a_run_from_the_cli_writes_its_chart(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "bench",
            "run",
            "--suite",
            "sample",
            "--agent",
            "oracle",
            "--tasks-dir",
            str(root / "tasks"),
            "--out",
            str(tmp_path / "run"),
        ],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "run" / "report.png").read_bytes()[:4] == b"\x89PNG"
