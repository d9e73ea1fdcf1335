"""The voice section of a report (runs with ``--voice``): how well speech was recognized, and
how much of the agent's success it cost.

Per suite: word error rate over all spoken words (not a mean of per-task rates), the share of
tasks heard word for word, success typed vs spoken on the same tasks (each task ran both ways,
95% Wilson intervals), and the spoken failures split by cause: ``STT`` (the transcript was wrong
and the typed run passed) vs the agent's (it failed typed too, or was heard right).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .results import is_infra, is_task_error
from .stats import wilson


def voice_summary(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per suite (and ``all``): the voice figures of the scored records that carry them."""
    by_suite: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if "voice" in r and not is_infra(r) and not is_task_error(r):
            by_suite[r["suite"]].append(r)
            by_suite["all"].append(r)
    out = {}
    for suite, rs in sorted(by_suite.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        n = len(rs)
        words = sum(r["voice"]["reference_words"] for r in rs)
        errors = sum(r["voice"]["word_errors"] for r in rs)
        typed = sum(bool(r["voice"].get("text_passed")) for r in rs)
        spoken = sum(bool(r["passed"]) for r in rs)
        causes = [r["voice"].get("failure_cause") for r in rs]
        out[suite] = {
            "n": n,
            "wer": errors / words if words else 0.0,
            "words": words,
            "exact": sum(r["voice"]["word_errors"] == 0 for r in rs),
            "text_passed": typed,
            "text_ci": wilson(typed, n),
            "voice_passed": spoken,
            "voice_ci": wilson(spoken, n),
            "stt_failures": causes.count("stt"),
            "agent_failures": causes.count("agent"),
            "pipeline_errors": sum(bool(r["voice"].get("pipeline_errors")) for r in rs),
        }
    return out


def voice_lines(
    records: list[dict[str, Any]], settings: str | None = None, most: int = 15
) -> list[str]:
    """Markdown lines of the voice section (none when the run had no voice)."""
    table = voice_table(records)
    if not table:
        return []
    out = ["", "## Voice: typed vs spoken", ""]
    if settings:
        out += [f"Speaker: {settings}.", ""]
    out += table
    out += [
        "",
        "Each task ran typed and spoken. *failed: STT* = spoken run failed, its transcript was wrong and "
        "the typed run passed (error class STT); *failed: agent* = the spoken run failed otherwise. WER is "
        "over all spoken words, numbers compared as words.",
    ]
    misheard = [r for r in records if "voice" in r and r["voice"].get("failure_cause") == "stt"]
    if misheard:
        out += ["", "| task | said | heard |", "|---|---|---|"]
        for r in misheard[:most]:
            for said, heard in zip(r["voice"]["said"], r["voice"]["heard"], strict=False):
                out.append(f"| {r['task_id']} | {_cell(said)} | {_cell(heard) or '(nothing)'} |")
    return out


def voice_table(records: list[dict[str, Any]]) -> list[str]:
    """The per-suite voice table (none when the run had no voice)."""
    summary = voice_summary(records)
    if not summary:
        return []
    out = [
        "| suite | tasks | WER % | heard exactly | typed success % (95% CI) | spoken success % (95% CI) "
        "| failed: STT | failed: agent | pipeline errors |",
        "|---|---:|---:|---:|---|---|---:|---:|---:|",
    ]
    for suite, s in summary.items():
        n = s["n"]
        out.append(
            f"| {suite} | {n} | {100 * s['wer']:.1f} | {s['exact']} | "
            f"{_rate(s['text_passed'], n, s['text_ci'])} | {_rate(s['voice_passed'], n, s['voice_ci'])} | "
            f"{s['stt_failures']} | {s['agent_failures']} | {s['pipeline_errors']} |"
        )
    return out


def _rate(passed: int, n: int, ci: tuple[float, float]) -> str:
    return f"{100 * passed / n:.1f} ({100 * ci[0]:.1f}-{100 * ci[1]:.1f})" if n else "–"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
