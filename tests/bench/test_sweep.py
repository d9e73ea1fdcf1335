"""bench sweep: a grid of ordinary run folders and one comparison, in a local process pool and
on a Ray instance started by the test on this machine."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.bench.sweep import cells, load_sweep

FIXTURES = Path(__file__).parents[1] / "fixtures"


def _spec(tmp_path: Path, **extra) -> Path:
    shutil.copy(FIXTURES / "tiny_home.json", tmp_path / "tiny_home.json")
    shutil.copy(FIXTURES / "tasks_tiny.jsonl", tmp_path / "tasks.jsonl")
    body = {
        "out": "sweep",
        "tasks": ["tasks.jsonl"],
        "agents": ["oracle", "null"],
        "guard": ["on", "off"],
        **extra,
    }
    path = tmp_path / "sweep.yaml"
    path.write_text(json.dumps(body))  # JSON is YAML
    return path


def test_the_grid_has_one_cell_per_combination(tmp_path) -> None:
    spec = load_sweep(
        _spec(
            tmp_path,
            seeds=[0, 1],
            limit=4,
            agents=["oracle", {"agent": "openai", "model": "m", "base_url": "http://x/v1"}],
            settings=["eia", "dr"],
        )
    )
    names = [c.name for c in cells(spec)]
    assert names == [
        "oracle-seed0",
        "oracle-seed0-unguarded",
        "oracle-seed1",
        "oracle-seed1-unguarded",
        "openai-m-eia-seed0",
        "openai-m-eia-seed0-unguarded",
        "openai-m-eia-seed1",
        "openai-m-eia-seed1-unguarded",
        "openai-m-dr-seed0",
        "openai-m-dr-seed0-unguarded",
        "openai-m-dr-seed1",
        "openai-m-dr-seed1-unguarded",
    ]
    model_cell = cells(spec)[4].argv
    assert model_cell[model_cell.index("--setting") :][:2] == ("--setting", "eia")
    assert "--limit" in model_cell and model_cell[model_cell.index("--seed") + 1] == "0"


def test_a_bad_sweep_file_names_the_field(tmp_path) -> None:
    path = _spec(tmp_path, settings=["fast"])
    with pytest.raises(
        ValueError, match=r"sweep.yaml: settings: Value error, settings are eia and/or dr"
    ):
        load_sweep(path)


def _sweep(path: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", "bench", "sweep", str(path), *flags],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_local_sweep_runs_every_cell_and_compares_them(tmp_path) -> None:
    path = _spec(tmp_path)
    run = _sweep(path, "--parallel", "2")
    assert run.returncode == 0, run.stderr
    for name in ("oracle", "oracle-unguarded", "null", "null-unguarded"):
        assert json.loads((tmp_path / "sweep" / name / "run.json").read_text())["finished"]
    compare = (tmp_path / "sweep" / "compare.md").read_text()
    assert (
        "# Comparison on 8 tasks every run scored" in compare and "| null | null | 0/8 |" in compare
    )
    assert "| oracle | oracle | 8/8 |" in compare
    again = _sweep(path)  # resumes: every cell is already complete
    assert (
        again.returncode == 0
        and json.loads((tmp_path / "sweep" / "oracle" / "run.json").read_text())["runs"] == 2
    )


@pytest.mark.slow
def test_a_sweep_on_a_local_ray_instance(tmp_path) -> None:
    pytest.importorskip("ray", reason="ray is not installed")
    path = _spec(tmp_path, guard=["on"])
    run = _sweep(path, "--ray")
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "Ray on this machine" in run.stdout
    compare = (tmp_path / "sweep" / "compare.md").read_text()
    assert "| oracle | oracle | 8/8 |" in compare and "| null | null | 0/8 |" in compare


def test_the_shipped_example_loads_as_written() -> None:
    """examples/sweep.yaml is what users copy: bare YAML `null` (the null agent) and `on`/`off`
    (booleans to PyYAML) must mean what they say."""
    spec = load_sweep(Path(__file__).parents[2] / "examples" / "sweep.yaml")
    names = [c.name for c in cells(spec)]
    assert "null-seed0" in names and "obey-injections-seed1-unguarded" in names
    assert len(names) == 3 * 2 * 2  # agents x seeds x guard; scripted agents take no setting
    assert spec.guard == ["on", "off"]
