"""A newcomer's first commands: every message of their usual mistakes, word for word.

Each test runs ``smh`` (or ``scripts/ha_instance.py``) as a separate process the way a user
types it, from a folder outside the checkout where that matters, and checks the exact line, the
exit status (2 for usage errors, 3 for an endpoint that is down) and that nothing was left
behind by a command that never started.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tasks"
SUITES = ", ".join(sorted(p.stem for p in TASKS.glob("*.jsonl")))  # memhome, safety, ..., smh
NO_MODEL_ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("OPENAI_BASE_URL", "SMH_MODEL", "OPENAI_API_KEY")
}


def smh(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=NO_MODEL_ENV,
    )


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- item 1: a port in use -----------------------------------------------------------------


def test_demo_on_a_port_in_use_is_one_line_with_the_fix_and_starts_nothing(
    tmp_path, socket_enabled
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run(
            [
                sys.executable,
                str(ROOT / "scripts" / "ha_instance.py"),
                "--dir",
                str(tmp_path / "ha"),
                "--port",
                str(port),
                "--no-local-model",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert run.returncode == 2
    assert run.stderr == (
        f"ha_instance: error: port {port} on 127.0.0.1 is already in use (something else listens "
        f"there); stop it, or pick another port: make demo PORT={port + 1}\n"
    )
    assert run.stdout == "" and not (tmp_path / "ha").exists()  # no config written, no hass started


# -- item 2: suites from anywhere, typos -------------------------------------------------


def test_a_suite_runs_from_outside_the_checkout_and_the_report_names_it(tmp_path) -> None:
    run = smh("bench", "run", "--suite", "sample", "--out", "o", "--quiet", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (
        "| sample | oracle | 8 | 8 | 100.0 |" in run.stdout
    )  # one row, named as asked (not smh, simuhome)
    report = (tmp_path / "o" / "report.md").read_text()
    assert f"| task source | sample ({TASKS / 'sample.jsonl'}) |" in report
    assert "| suites | sample (8) |" in report and "| agent | oracle, guard on |" in report
    assert "| smh |" not in report and "| simuhome |" not in report
    manifest = json.loads((tmp_path / "o" / "run.json").read_text())
    assert manifest["suites"] == {"sample": 8} and set(manifest["suite_names"].values()) == {
        "sample"
    }


def test_a_mistyped_suite_gets_the_closest_name_the_suites_and_the_folders(tmp_path) -> None:
    run = smh("bench", "run", "--suite", "smaple", "--out", "o", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr == (
        f"smh: error: unknown suite 'smaple' (did you mean 'sample'?); suites found: {SUITES} "
        f"(looked in {tmp_path / 'tasks'}, {TASKS}; --tasks-dir DIR for another folder)\n"
    )
    assert not (tmp_path / "o").exists()


def test_a_suite_not_generated_yet_names_the_command_that_writes_it(tmp_path) -> None:
    empty = tmp_path / "mine"
    empty.mkdir()
    run = smh(
        "bench", "run", "--suite", "smh", "--tasks-dir", str(empty), "--out", str(tmp_path / "o")
    )
    assert run.returncode == 2
    assert run.stderr == (
        f"smh: error: suite 'smh' is not generated yet (looked in {empty}): "
        f"`smh tasks generate --suite smh --out {empty}` writes it\n"
    )
    run = smh(
        "bench", "run", "--suite", "sample", "--tasks-dir", str(empty), "--out", str(tmp_path / "o")
    )
    assert run.stderr == (
        f"smh: error: suite 'sample' is not in {empty}: it ships in the checkout's tasks/ folder; "
        "run from the checkout or give --tasks-dir CHECKOUT/tasks\n"
    )
    run = smh(
        "bench", "run", "--suite", "mine", "--tasks-dir", str(empty), "--out", str(tmp_path / "o")
    )
    assert run.stderr == (
        f"smh: error: unknown suite 'mine'; suites found: none (looked in {empty}; "
        "--tasks-dir DIR for another folder)\n"
    )
    assert run.returncode == 2 and not (tmp_path / "o").exists()


def test_a_mistyped_flag_gets_one_line_naming_the_subcommand_and_the_flag_meant(tmp_path) -> None:
    """Issue 42: the one useful line, not a 23-line usage block before it."""
    run = smh(
        "bench", "run", "--suite", "sample", "--agnet", "oracle", "--out", str(tmp_path / "o")
    )
    assert run.returncode == 2
    assert run.stderr == (
        "smh bench run: error: unrecognized arguments: --agnet oracle (did you mean '--agent'?); "
        "'smh bench run --help' lists every option\n"
    )
    assert not (tmp_path / "o").exists()


def test_a_mistyped_choice_or_command_gets_the_one_meant() -> None:
    run = smh("bench", "run", "--suite", "sample", "--agent", "opnai", "--out", "o")
    assert run.returncode == 2
    assert run.stderr == (
        "smh bench run: error: argument --agent: invalid choice: 'opnai' (choose from oracle, null, openai, local, "
        "replay, obey-injections, replay-traces) (did you mean 'openai'?); 'smh bench run --help' lists "
        "every option\n"
    )
    run = smh("bnech", "run")
    assert run.returncode == 2
    assert len(run.stderr.splitlines()) == 1
    assert run.stderr.startswith("smh: error: ")
    assert "(did you mean 'bench'?)" in run.stderr and run.stderr.endswith(
        "'smh --help' lists every option\n"
    )


# -- item 3: model runs that cannot start ----------------------------------------------------


def test_openai_without_an_endpoint_names_the_flags_and_the_variables(tmp_path) -> None:
    expected = (
        "smh: error: --agent openai needs --base-url URL and --model NAME (missing: {}); or set "
        "OPENAI_BASE_URL and SMH_MODEL (the key is read from OPENAI_API_KEY; OpenAI itself: "
        "--base-url https://api.openai.com/v1)\n"
    )
    run = smh(
        "bench", "run", "--suite", "sample", "--agent", "openai", "--out", str(tmp_path / "o")
    )
    assert (run.returncode, run.stderr) == (2, expected.format("--base-url, --model"))
    run = smh(
        "bench",
        "run",
        "--suite",
        "sample",
        "--agent",
        "openai",
        "--base-url",
        "http://127.0.0.1:1/v1",
        "--out",
        str(tmp_path / "o"),
    )
    assert (run.returncode, run.stderr) == (2, expected.format("--model"))
    assert not (tmp_path / "o").exists()
    run = smh(
        "automation",
        "synthesize",
        "turn on the light at 7",
        "--home",
        str(TASKS / "homes" / "tiny.json"),
        "--model",
        "m",
    )
    assert run.returncode == 2 and run.stderr == expected.replace(
        "--agent openai", "smh automation synthesize"
    ).format("--base-url")


@pytest.mark.slow  # 20-45 s
def test_a_run_that_never_started_leaves_nothing_behind(tmp_path, socket_enabled) -> None:
    dead = f"http://127.0.0.1:{_closed_port()}/v1"
    out = tmp_path / "o"
    run = smh(
        "bench",
        "run",
        "--suite",
        "sample",
        "--agent",
        "openai",
        "--base-url",
        dead,
        "--model",
        "m",
        "--out",
        str(out),
        "--quiet",
    )
    assert run.returncode == 3 and run.stderr.startswith(
        "smh: error: the model endpoint is not usable (connection"
    )
    assert run.stderr.endswith("); nothing was run\n")
    assert not out.exists()  # no run.json to refuse the next, different run
    assert (
        smh(
            "bench", "run", "--suite", "sample", "--agent", "null", "--out", str(out), "--quiet"
        ).returncode
        == 0
    )
    # a folder holding a run keeps its run.json byte for byte when a model run into it fails to start
    before = (out / "run.json").read_bytes()
    run = smh(
        "bench",
        "run",
        "--suite",
        "sample",
        "--agent",
        "openai",
        "--base-url",
        dead,
        "--model",
        "m",
        "--out",
        str(out),
        "--quiet",
        "--force-new",
    )
    assert run.returncode == 3
    assert (out / "run.json").read_bytes() == before and not list(out.glob("previous-*"))
