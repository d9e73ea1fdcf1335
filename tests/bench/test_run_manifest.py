"""run.json: a run folder holds one run. Resuming the same command continues it; another agent,
model, setting or task set is refused (it used to re-report the old run's results as its own),
and --force-new moves the old run aside."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).parents[1] / "fixtures"


def smh(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _tasks(tmp_path: Path) -> Path:
    shutil.copy(FIXTURES / "tiny_home.json", tmp_path / "tiny_home.json")
    path = tmp_path / "tasks.jsonl"
    shutil.copy(FIXTURES / "tasks_tiny.jsonl", path)
    return path


def test_another_agent_into_a_run_folder_is_refused_and_nothing_is_reported(tmp_path) -> None:
    tasks, out = _tasks(tmp_path), tmp_path / "run"
    assert (
        smh(
            "bench", "run", "--tasks", str(tasks), "--agent", "oracle", "--out", str(out), "--quiet"
        ).returncode
        == 0
    )
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["identity"]["agent"] == "oracle" and len(manifest["identity"]["tasks"]) == 8
    assert (
        manifest["finished"]
        and manifest["runs"] == 1
        and manifest["suites"] == {"smh": 7, "simuhome": 1}
    )
    before = (out / "results.jsonl").read_bytes()
    run = smh(
        "bench", "run", "--tasks", str(tasks), "--agent", "null", "--out", str(out), "--quiet"
    )
    assert (
        run.returncode == 2 and "holds another run (agent: 'oracle' here, 'null' now)" in run.stderr
    )
    assert "--force-new" in run.stderr and "passed" not in run.stdout
    assert (out / "results.jsonl").read_bytes() == before


def test_the_same_command_resumes_and_force_new_starts_over(tmp_path) -> None:
    tasks, out = _tasks(tmp_path), tmp_path / "run"
    for _ in range(2):
        assert (
            smh(
                "bench",
                "run",
                "--tasks",
                str(tasks),
                "--agent",
                "oracle",
                "--out",
                str(out),
                "--quiet",
            ).returncode
            == 0
        )
    assert json.loads((out / "run.json").read_text())["runs"] == 2
    run = smh(
        "bench",
        "run",
        "--tasks",
        str(tasks),
        "--agent",
        "null",
        "--out",
        str(out),
        "--force-new",
        "--quiet",
    )
    assert run.returncode == 0 and "| smh | null | 7 | 0 | 0.0 |" in run.stdout
    (aside,) = out.glob("previous-*")
    assert json.loads((aside / "run.json").read_text())["identity"]["agent"] == "oracle"
    assert json.loads((out / "run.json").read_text())["identity"]["agent"] == "null"


def test_a_changed_task_is_named(tmp_path) -> None:
    tasks, out = _tasks(tmp_path), tmp_path / "run"
    assert (
        smh(
            "bench", "run", "--tasks", str(tasks), "--agent", "oracle", "--out", str(out), "--quiet"
        ).returncode
        == 0
    )
    lines = tasks.read_text().splitlines()
    first = json.loads(lines[0])
    first["turns"][0]["text"] += " Please."
    tasks.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    run = smh(
        "bench", "run", "--tasks", str(tasks), "--agent", "oracle", "--out", str(out), "--quiet"
    )
    assert run.returncode == 2 and f"1 tasks changed (e.g. {first['id']})" in run.stderr


def test_new_if_different_resumes_the_same_run_and_starts_over_on_a_changed_one(tmp_path) -> None:
    """What make bench uses for its slow model runs: the same run resumes (nothing moved), a
    regenerated task set starts over with the old run kept aside."""
    tasks, out = _tasks(tmp_path), tmp_path / "run"
    for _ in range(2):
        assert (
            smh(
                "bench",
                "run",
                "--tasks",
                str(tasks),
                "--agent",
                "oracle",
                "--out",
                str(out),
                "--new-if-different",
                "--quiet",
            ).returncode
            == 0
        )
    assert json.loads((out / "run.json").read_text())["runs"] == 2 and not list(
        out.glob("previous-*")
    )
    lines = tasks.read_text().splitlines()
    first = json.loads(lines[0])
    first["turns"][0]["text"] += " Please."
    tasks.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    run = smh(
        "bench",
        "run",
        "--tasks",
        str(tasks),
        "--agent",
        "oracle",
        "--out",
        str(out),
        "--new-if-different",
        "--quiet",
    )
    assert run.returncode == 0, run.stderr
    (aside,) = out.glob("previous-*")
    assert json.loads((aside / "run.json").read_text())["runs"] == 2
    assert json.loads((out / "run.json").read_text())["runs"] == 1
    assert (
        len((out / "results.jsonl").read_text().splitlines()) == 8
    )  # the new run's own records only


def test_a_folder_from_before_manifests_is_checked_by_its_records(tmp_path) -> None:
    tasks, out = _tasks(tmp_path), tmp_path / "run"
    assert (
        smh(
            "bench", "run", "--tasks", str(tasks), "--agent", "oracle", "--out", str(out), "--quiet"
        ).returncode
        == 0
    )
    (out / "run.json").unlink()
    run = smh(
        "bench", "run", "--tasks", str(tasks), "--agent", "null", "--out", str(out), "--quiet"
    )
    assert run.returncode == 2 and "holds results of oracle" in run.stderr


def test_the_endpoint_is_recorded_without_credentials(tmp_path, socket_enabled) -> None:
    from tests.support.fake_openai import FakeOpenAI, serve_in_thread

    tasks, out = _tasks(tmp_path), tmp_path / "run"
    server = FakeOpenAI(default={"content": "Done."})
    with serve_in_thread(server):
        url = server.base_url.replace("http://", "http://me:sk-secret@")
        run = smh(
            "bench",
            "run",
            "--tasks",
            str(tasks),
            "--agent",
            "openai",
            "--base-url",
            url,
            "--model",
            "m",
            "--limit",
            "2",
            "--out",
            str(out),
            "--quiet",
        )
    assert run.returncode == 0, run.stderr
    text = (out / "run.json").read_text()
    identity = json.loads(text)["identity"]
    assert (
        "sk-secret" not in text
        and identity["endpoint"] == server.base_url
        and identity["model"] == "m"
    )
    assert (
        identity["setting"] == "eia"
        and identity["tool_protocol"] == "auto"
        and identity["limit"] == 2
    )
