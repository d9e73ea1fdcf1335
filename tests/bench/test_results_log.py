"""The results log survives torn writes and never counts a task twice."""

from __future__ import annotations

import json
import subprocess
import sys

from smh_core.bench.results import ResultsLog


def test_append_and_reload(tmp_path):
    path = tmp_path / "results.jsonl"
    log = ResultsLog(path)
    log.append({"task_id": "a", "passed": True})
    log.append({"task_id": "b", "passed": False})
    log.append({"task_id": "a", "passed": False})  # duplicate: ignored
    again = ResultsLog(path)
    assert [r["task_id"] for r in again.records()] == ["a", "b"]
    assert again.done("a") and not again.done("c")
    assert len(path.read_text().splitlines()) == 2


def test_torn_last_line_is_cut_and_rerun(tmp_path):
    path = tmp_path / "results.jsonl"
    good = json.dumps({"task_id": "a", "passed": True}) + "\n"
    path.write_text(good + '{"task_id": "b", "pas')
    log = ResultsLog(path)
    assert [r["task_id"] for r in log.records()] == ["a"]
    assert path.read_text() == good
    log.append({"task_id": "b", "passed": True})
    assert [json.loads(x)["task_id"] for x in path.read_text().splitlines()] == ["a", "b"]


def test_kill_during_run_loses_nothing_and_duplicates_nothing(tmp_path):
    """A child process appends records and is SIGKILLed midway; resuming completes the set."""
    path = tmp_path / "results.jsonl"
    script = (
        "import sys, time\n"
        "from smh_core.bench.results import ResultsLog\n"
        f"log = ResultsLog({str(path)!r})\n"
        "for i in range(10000):\n"
        "    log.append({'task_id': f't{i}', 'n': i})\n"
        "    if i == 50: print('ready', flush=True)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    proc.kill()
    proc.wait()
    log = ResultsLog(path)
    done_before = len(log)
    assert 51 <= done_before <= 10000
    for i in range(10000):
        log.append({"task_id": f"t{i}", "n": i})
    ids = [json.loads(x)["task_id"] for x in path.read_text().splitlines()]
    assert len(ids) == 10000 == len(set(ids))
