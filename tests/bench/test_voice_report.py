"""Voice runs in reports: failure causes, the typed-vs-spoken table, and the CLI's refusals."""

from __future__ import annotations

import json

import pytest

from smh_core.bench.report import write_report
from smh_core.bench.voice_report import voice_summary, voice_table
from smh_core.cli.main import main
from smh_core.ha.voice_pipeline import VoiceTurn
from smh_core.ha.voice_run import failure_cause, voice_record
from smh_core.voice.espeak import unavailable_reason


@pytest.mark.parametrize(
    ("voice", "text", "errors", "cause"),
    [
        (True, True, 3, None),  # passed spoken: no cause, however it was heard
        (False, True, 2, "stt"),  # misheard, and the typed run passed: the recognizer's fault
        (False, False, 2, "agent"),  # failed typed too: the agent's
        (False, True, 0, "agent"),  # heard word for word and still failed: the agent's
    ],
)
def test_failure_cause(voice, text, errors, cause):
    assert failure_cause(voice, text, errors) == cause


def test_voice_record_sums_word_errors_over_turns():
    turns = [
        VoiceTurn("turn on the light", "Done", "c1"),
        VoiceTurn(None, "", "c1", error={"code": "stt-no-text"}),
    ]
    rec = voice_record(["Turn on the light.", "Set it to 20%."], turns)
    assert rec["heard"] == ["turn on the light", ""]
    assert (rec["word_errors"], rec["reference_words"], rec["wer"]) == (5, 9, round(5 / 9, 4))
    assert rec["pipeline_errors"] == [{"code": "stt-no-text"}]


def _record(task_id, suite, passed, text_passed, errors, words=10):
    cause = failure_cause(passed, text_passed, errors)
    return {
        "task_id": task_id,
        "suite": suite,
        "category": "c",
        "subcategory": "s",
        "difficulty": "simple",
        "agent": "ha:x",
        "passed": passed,
        "verdict": {
            "passed": passed,
            "error_class": None if passed else ("STT" if cause == "stt" else "DC"),
        },
        "voice": {
            "said": ["a"],
            "heard": ["b" if errors else "a"],
            "word_errors": errors,
            "reference_words": words,
            "wer": errors / words,
            "pipeline_errors": [],
            "text_passed": text_passed,
            "failure_cause": cause,
        },
    }


def test_voice_summary_and_report_separate_stt_from_agent_failures(tmp_path):
    records = [
        _record("t1", "smh", True, True, 0),
        _record("t2", "smh", False, True, 4),
        _record("t3", "smh", False, False, 1),
        _record("t4", "sage", False, True, 0, words=5),
    ]
    summary = voice_summary(records)
    assert summary["smh"]["wer"] == pytest.approx(5 / 30) and summary["smh"]["exact"] == 1
    assert (summary["smh"]["text_passed"], summary["smh"]["voice_passed"]) == (2, 1)
    assert (summary["smh"]["stt_failures"], summary["smh"]["agent_failures"]) == (1, 1)
    assert (
        summary["all"]["n"],
        summary["all"]["stt_failures"],
        summary["all"]["agent_failures"],
    ) == (4, 1, 2)
    assert list(summary) == ["sage", "smh", "all"]
    assert voice_table([{**r, "voice": None} for r in records][:0]) == []

    (tmp_path / "results.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    (tmp_path / "run.json").write_text(
        json.dumps({"identity": {"voice": "espeak-ng en-us+m2 150 wpm noise 0 seed 0"}})
    )
    text = write_report(tmp_path)["markdown"].read_text(encoding="utf-8")
    assert "## Voice: typed vs spoken" in text and "Speaker: espeak-ng en-us+m2 150 wpm" in text
    assert "| smh | 3 | 16.7 | 1 | 66.7 (" in text and "| t2 | a | b |" in text
    assert "- **STT**:" in text  # the error class legend explains it


def test_records_without_voice_add_no_section(tmp_path):
    rec = _record("t1", "smh", True, True, 0)
    del rec["voice"]
    (tmp_path / "results.jsonl").write_text(json.dumps(rec) + "\n", encoding="utf-8")
    assert "Voice" not in write_report(tmp_path)["markdown"].read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--suite", "sample", "--voice"], "--voice needs --backend ha"),
        (
            [
                "--suite",
                "sample",
                "--backend",
                "ha",
                "--voice",
                "--ha-url",
                "http://127.0.0.1:1",
                "--token",
                "t",
                "--voice-speed",
                "5",
            ],
            "speed must be 80-450",
        ),
        (
            [
                "--suite",
                "sample",
                "--backend",
                "ha",
                "--voice",
                "--ha-url",
                "http://127.0.0.1:1",
                "--token",
                "t",
                "--voice-noise",
                "-1",
            ],
            "noise level must be >= 0",
        ),
        (
            [
                "--suite",
                "sample",
                "--backend",
                "ha",
                "--voice",
                "--ha-url",
                "http://127.0.0.1:1",
                "--token",
                "t",
                "--stt-port",
                "70000",
            ],
            "--stt-port must be 0-65535",
        ),
        (
            [
                "--suite",
                "sample",
                "--backend",
                "ha",
                "--voice",
                "--ha-url",
                "http://127.0.0.1:1",
                "--token",
                "t",
                "--mapping",
                "m.yaml",
            ],
            "--voice runs on simulated homes only",
        ),
        pytest.param(
            [
                "--suite",
                "sample",
                "--backend",
                "ha",
                "--voice",
                "--ha-url",
                "http://127.0.0.1:1",
                "--token",
                "t",
                "--voice-name",
                "xx-nonexistent",
            ],
            "no voice 'xx-nonexistent'",
            marks=pytest.mark.skipif(
                unavailable_reason() is not None, reason=str(unavailable_reason())
            ),
        ),
    ],
)
def test_bench_voice_flags_refuse_bad_input_before_running(tmp_path, capsys, argv, message):
    assert main(["bench", "run", *argv, "--out", str(tmp_path / "out")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing was started or written
