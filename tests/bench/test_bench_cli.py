"""``smh bench run/report`` end to end: oracle, null, and the openai agent against a fake server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.fake_openai import FakeOpenAI, serve_in_thread

TASKS = Path(__file__).parents[1] / "fixtures" / "tasks_tiny.jsonl"


def smh(*args: str) -> subprocess.CompletedProcess:
    """The real command line, in its own process (it runs its own event loop)."""
    return subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_oracle_and_null_through_the_cli(tmp_path):
    run = smh(
        "bench",
        "run",
        "--tasks",
        str(TASKS),
        "--agent",
        "oracle",
        "--out",
        str(tmp_path / "o"),
        "--quiet",
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "8 tasks recorded" in out and "8 of 8 scored passed" in out
    assert "| smh | oracle | 7 | 7 | 100.0 |" in out
    for name in ("report.md", "report.csv"):
        assert (tmp_path / "o" / name).stat().st_size > 0
    run = smh(
        "bench",
        "run",
        "--tasks",
        str(TASKS),
        "--agent",
        "null",
        "--out",
        str(tmp_path / "n"),
        "--quiet",
    )
    assert "| smh | null | 7 | 0 | 0.0 |" in run.stdout


def test_openai_agent_slice_reports_tokens(tmp_path, socket_enabled):
    def reply(body):
        # turn on the lamp when asked about it, otherwise answer
        if any(m["role"] == "tool" for m in body["messages"]):
            return {"content": "Done.", "prompt_tokens": 200, "completion_tokens": 20}
        return {
            "tool_calls": [("control_device", json.dumps({"did": "1001", "locator": "turn_on"}))],
            "prompt_tokens": 150,
            "completion_tokens": 10,
        }

    with serve_in_thread(FakeOpenAI(default=reply)) as server:
        run = smh(
            "bench",
            "run",
            "--tasks",
            str(TASKS),
            "--agent",
            "openai",
            "--setting",
            "eia",
            "--base-url",
            server.base_url,
            "--model",
            "fake",
            "--limit",
            "3",
            "--workers",
            "2",
            "--out",
            str(tmp_path / "llm"),
            "--quiet",
        )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "3 tasks recorded" in out
    records = [json.loads(x) for x in (tmp_path / "llm" / "results.jsonl").read_text().splitlines()]
    assert all(r["usage"]["total_tokens"] == 380 and r["usage"]["calls"] == 2 for r in records)
    assert "| 380 |" in out  # tokens per task in the summary table


def test_missing_task_file_is_a_clear_error(tmp_path):
    run = smh("bench", "run", "--tasks", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path))
    assert run.returncode == 2 and "no task file" in run.stderr


@pytest.mark.slow  # 20-45 s
def test_perf_ha_reports_ratios_against_plain_entities():
    from custom_components.smh.entity_plan import plan
    from smh_core.homes.generator import generate_home

    # one rich entity per platform match, one generic entity per attribute no rich entity covers
    home = generate_home("complex", 0)
    planned = sum(len(rich) + len(generic) for rich, generic in map(plan, home.devices))
    run = smh("perf", "ha", "--rounds", "1", "--calls", "50", "--json")
    assert run.returncode == 0, run.stderr
    r = json.loads(run.stdout)
    assert r["entities"] == planned and r["devices"] == len(home.devices)
    assert (
        sum(r["counts"].values()) == planned and r["counts"]["light"] > 0
    )  # the plain side copies these
    for side in ("smh", "plain"):  # every figure measured on both sides
        assert r[f"{side}_light_calls_per_second"] > 0 and r[f"{side}_cold_setup_ms"] > 0
        assert r[f"{side}_cold_setup_bare_ms"] > 0  # and in a bare HA
        assert r[f"{side}_warm_setup_ms"] > 0
    assert (
        r["light_calls_ratio"]
        == r["smh_light_calls_per_second"] / r["plain_light_calls_per_second"]
    )
    assert r["cold_setup_ratio"] == r["smh_cold_setup_ms"] / r["plain_cold_setup_ms"]
    assert set(r["met"]) == {"light_calls_ratio", "cold_setup_ratio", "warm_setup_per_entity_ratio"}


def test_perf_ha_passes_on_the_model_layer_bound():
    """``smh perf ha --model-layer-bound`` runs the script's bound mode (it was dropped before)."""
    run = smh("perf", "ha", "--model-layer-bound", "--rounds", "1")
    assert run.returncode == 0, run.stderr
    assert "SMH as it is:" in run.stdout
    assert "SMH with its home model layer prepaid:" in run.stdout


def test_perf_ha_peer_mode_fails_clearly_without_a_checkout_or_its_library(tmp_path):
    """Checked before anything is measured: not a checkout -> how to get one; a checkout whose
    pinned synthetic-home library is not in --peer-lib -> the pip command that puts it there."""
    run = smh("perf", "ha", "--peer-synthetic-home", str(tmp_path / "nope"))
    assert run.returncode == 2
    assert "is not a folder" in run.stderr
    assert "git clone https://github.com/allenporter/home-assistant-synthetic-home" in run.stderr
    run = smh("perf", "ha", "--peer-synthetic-home", str(tmp_path))
    assert run.returncode == 2
    assert "not a home-assistant-synthetic-home checkout" in run.stderr
    manifest = tmp_path / "custom_components" / "synthetic_home" / "manifest.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(
        json.dumps({"domain": "synthetic_home", "requirements": ["synthetic-home==5.0.3"]})
    )
    lib = tmp_path / "lib"
    lib.mkdir()
    run = smh("perf", "ha", "--peer-synthetic-home", str(tmp_path), "--peer-lib", str(lib))
    assert run.returncode == 2
    assert "synthetic-home library is not in" in run.stderr
    assert f"pip install --no-deps --target {lib} synthetic-home==5.0.3" in run.stderr
    assert run.stdout == ""  # nothing measured


def test_a_run_says_after_its_first_task_how_long_the_rest_will_take(tmp_path):
    """Not --quiet: one line after the first task with its time and the rest's estimate (the
    bar's own estimate is lost in logs); a resumed run with nothing left says nothing."""
    args = ("bench", "run", "--tasks", str(TASKS), "--agent", "oracle", "--out", str(tmp_path))
    run = smh(*args)
    assert run.returncode == 0, run.stderr
    line = [x for x in (run.stdout + run.stderr).splitlines() if "first task took" in x]
    assert len(line) == 1, run.stdout + run.stderr
    assert "at that pace the other 7 take about" in line[0]
    again = smh(*args)
    assert again.returncode == 0 and "first task took" not in again.stdout + again.stderr


def test_first_task_eta_scales_by_tasks_left_and_workers():
    from smh_core.bench.runner import first_task_eta

    assert (
        first_task_eta(30, 8, 1)
        == "first task took 30 s; at that pace the other 8 take about 4 min"
    )
    assert (
        first_task_eta(30, 8, 4) == "first task took 30 s; at that pace the other 8 take about 60 s"
    )
    assert first_task_eta(600, 59, 1).endswith("take about 9.8 h")
