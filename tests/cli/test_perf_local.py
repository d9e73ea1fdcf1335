"""``smh perf local``: reading a run's records into per-task figures, and a clear exit when the
bundled model is not installed. (The timing itself needs the model; its figures are in
docs/models.md.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smh_core.cli.main import main
from smh_core.perf.local import LocalRun, task_times


def _record(task: str, seconds: float, stop: str, calls: int, prompt: int, written: int) -> str:
    return json.dumps(
        {
            "task_id": task,
            "seconds": seconds,
            "outcome": {"stop": stop, "tool_calls": [{"tool": "list_rooms"}] * calls},
            "usage": {"prompt_tokens": prompt, "completion_tokens": written},
        }
    )


def test_records_give_each_tasks_time_calls_stop_and_tokens(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text(
        _record("a", 2.0, "repeating", 3, 900, 60)
        + "\n\n"
        + _record("b", 6.0, "budget", 10, 3000, 40)
    )
    tasks = task_times(results)
    assert [(t.task_id, t.calls, t.stop) for t in tasks] == [
        ("a", 3, "repeating"),
        ("b", 10, "budget"),
    ]
    run = LocalRun(wall_seconds=12.0, tasks=tasks)
    assert run.agent_seconds == 8.0
    assert run.tokens_per_second == pytest.approx((900 + 60 + 3000 + 40) / 8.0)


def test_a_broken_record_names_its_file_and_line(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text(_record("a", 1.0, "answered", 0, 1, 1) + "\n{not json\n")
    with pytest.raises(ValueError, match=r"results\.jsonl:2: not a result record"):
        task_times(results)


def test_without_the_model_it_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SMH_CACHE", str(tmp_path))
    monkeypatch.delenv("SMH_LOCAL_MODEL", raising=False)
    monkeypatch.setattr("smh_core.llm.local.default_model_path", lambda: None)
    monkeypatch.setattr("smh_core.llm.local.engine_missing", lambda: None)
    assert main(["perf", "local"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("smh perf local: no model file") and "make local-llm" in err
