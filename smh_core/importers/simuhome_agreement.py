"""How often SMH's reading of infeasible replies agrees with SimuHome's rubric, on a labelled set.

A labelled set is a YAML list of transcripts written against real SimuHome episodes: the
agent's tool calls, its final reply and the verdict SimuHome's judge rubric gives it (``pass``
or ``fail``). Each transcript is played on the episode as SMH imports it (the calls run
against the imported home, the reply and questions are the outcome) and scored by SMH's
verifier with no judge; agreement is counted per query type and per half. The halves are fixed
by a hash of the transcript id, so that rules can be tuned on one half and the other measured
untouched (``smh_core.bench.infeasible``'s rules were tuned on ``tune`` only).
"""

from __future__ import annotations

import asyncio
import hashlib
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from smh_core.bench.agents import play_calls
from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

LABELS = ("pass", "fail")


def half(item_id: str) -> str:
    """``tune`` or ``holdout``, from the first byte of the id's SHA-256."""
    return "tune" if hashlib.sha256(item_id.encode()).digest()[0] < 128 else "holdout"


@dataclass
class Transcript:
    id: str
    episode: str
    calls: list[dict[str, Any]]
    reply: str
    label: str
    why: str = ""

    @property
    def half(self) -> str:
        return half(self.id)


def load_transcripts(path: Path) -> list[Transcript]:
    """The transcripts of a labelled YAML file (or every ``*.yaml`` of a folder); a malformed
    item names its file, index and field."""
    files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    out: list[Transcript] = []
    seen: set[str] = set()
    for f in files:
        items = yaml.safe_load(f.read_text(encoding="utf-8")) or []
        if not isinstance(items, list):
            raise ValueError(f"{f}: a labelled set is a YAML list of transcripts")
        for n, item in enumerate(items):
            where = f"{f} item {n}"
            if not isinstance(item, dict):
                raise ValueError(f"{where}: not a mapping")
            for key in ("id", "episode", "reply", "label"):
                if not isinstance(item.get(key), str):
                    raise ValueError(f"{where}: {key!r} must be a string")
            if item["label"] not in LABELS:
                raise ValueError(f"{where}: label {item['label']!r} is not pass or fail")
            if item["id"] in seen:
                raise ValueError(f"{where}: id {item['id']!r} is used twice")
            calls = item.get("calls") or []
            if not isinstance(calls, list) or not all(
                isinstance(c, dict) and isinstance(c.get("tool"), str) for c in calls
            ):
                raise ValueError(f"{where}: calls must be a list of {{tool, arguments}}")
            seen.add(item["id"])
            out.append(
                Transcript(
                    item["id"],
                    item["episode"],
                    [
                        {"tool": c["tool"], "arguments": dict(c.get("arguments") or {})}
                        for c in calls
                    ],
                    item["reply"],
                    item["label"],
                    str(item.get("why", "")),
                )
            )
    return out


class TranscriptAgent:
    """Plays one transcript: its calls through the backend in order (``ask_user`` to the
    scripted user), then its reply."""

    name = "transcript"

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript

    async def run(self, task: Task, backend: Any, user: Any) -> Outcome:
        outcome = Outcome(response=self.transcript.reply, stop="answered")
        outcome.questions += play_calls(self.transcript.calls, backend, user, outcome)
        return outcome


@dataclass
class Agreement:
    """Counts of (agree, total) per half and query type, and every disagreement."""

    counts: Counter = field(default_factory=Counter)
    disagreements: list[dict[str, Any]] = field(default_factory=list)

    def add(self, t: Transcript, qt: str, passed: bool, reason: str) -> None:
        agree = passed == (t.label == "pass")
        for key in ((t.half, qt), (t.half, "all"), ("both", qt), ("both", "all")):
            self.counts[(*key, "n")] += 1
            self.counts[(*key, "agree")] += agree
            self.counts[(*key, "label_pass")] += t.label == "pass"
        if not agree:
            self.disagreements.append(
                {"id": t.id, "half": t.half, "label": t.label, "smh": reason, "why": t.why}
            )

    def rate(self, half_: str, qt: str) -> tuple[int, int]:
        return self.counts[(half_, qt, "agree")], self.counts[(half_, qt, "n")]


def measure(
    transcripts: list[Transcript], episodes: Path, halves: tuple[str, ...] = ("tune", "holdout")
) -> Agreement:
    """Import the episodes the transcripts name from ``episodes`` (SimuHome's
    ``data/benchmark``) and score every transcript of ``halves``."""
    from .simuhome import import_simuhome

    chosen = [t for t in transcripts if t.half in halves]
    names = sorted({t.episode for t in chosen})
    result = Agreement()
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "out"
        src.mkdir()
        for name in names:
            source = episodes / f"{name}.json"
            if not source.exists():
                raise FileNotFoundError(f"{source}: the labelled set names an episode not there")
            (src / source.name).write_bytes(source.read_bytes())
        tasks, _ = import_simuhome(src, out)
        by_id = {t.id: t for t in tasks}
        cache = HomeCache(out)

        async def score() -> None:
            for t in chosen:
                task = by_id.get(f"sh-{t.episode}")
                if task is None:
                    raise ValueError(f"{t.id}: episode {t.episode} did not import")
                record = await run_task(task, TranscriptAgent(t), cache, guard=False)
                if "verdict" not in record:
                    raise RuntimeError(f"{t.id}: not scored ({record.get('error')})")
                qt = task.category
                result.add(t, qt, bool(record["passed"]), record["verdict"]["reason"])

        asyncio.run(score())
    return result


def markdown(result: Agreement) -> str:
    rows = sorted({k[1] for k in result.counts if k[1] != "all"}) + ["all"]
    out = [
        "| query type | tune: agree | holdout: agree | both | labelled pass |",
        "|---|---:|---:|---:|---:|",
    ]
    for qt in rows:
        cells = []
        for h in ("tune", "holdout", "both"):
            a, n = result.rate(h, qt)
            cells.append(f"{a}/{n} ({100 * a / n:.1f}%)" if n else "–")
        passes = result.counts[("both", qt, "label_pass")]
        out.append(f"| {qt} | {' | '.join(cells)} | {passes}/{result.rate('both', qt)[1]} |")
    return "\n".join(out) + "\n"
