"""Several runs side by side, on the tasks they all scored.

Two runs are comparable only on the same tasks: a model sampled on 60 tasks next to the
oracle on 2,215 says nothing. :func:`compare` keeps the task ids every run scored (infra
failures left out), then gives per run and per suite the success rate with its Wilson
interval, cost (tokens/task, s/task, tokens/s), and against the first run the tasks won and
lost with McNemar's exact p-value (a two-sided binomial test on the discordant pairs).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .report import load_records
from .results import is_scored
from .stats import wilson


@dataclass
class RunSummary:
    name: str
    agent: str
    n: int
    passed: int
    tokens: float
    seconds: float
    not_scored: int
    by_suite: dict[str, tuple[int, int]] = field(default_factory=dict)  # suite -> (passed, n)
    by_category: dict[str, tuple[int, int]] = field(
        default_factory=dict
    )  # "suite/category" -> (passed, n)
    by_difficulty: dict[str, tuple[int, int]] = field(
        default_factory=dict
    )  # simple/medium/complex -> (passed, n)
    errors: dict[str, int] = field(default_factory=dict)  # error class -> failed tasks
    won: int = 0  # against the first run: passed here, failed there
    lost: int = 0
    p_value: float | None = None
    claimed: int = 0  # said versus did: turns whose reply made a checkable claim
    false_turns: int = 0  # ... and at least one false one
    false_more: int = 0  # against the first run: a false claim here, none there
    false_less: int = 0
    false_p: float | None = None

    @property
    def rate(self) -> float:
        return self.passed / self.n if self.n else 0.0


def mcnemar_exact(won: int, lost: int) -> float:
    """Two-sided exact McNemar p-value for ``won``/``lost`` discordant pairs."""
    n = won + lost
    if n == 0:
        return 1.0
    k = min(won, lost)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(dirs: list[Path]) -> tuple[list[RunSummary], int]:
    """Summaries of each run on the tasks every run scored, and how many tasks that is."""
    runs = []
    for d in dirs:
        records = load_records(d)
        scored = {r["task_id"]: r for r in records if is_scored(r)}
        runs.append((d.name, scored, sum(not is_scored(r) for r in records)))
    return compare_scored(runs)


def compare_scored(
    runs: list[tuple[str, dict[str, dict[str, Any]], int]],
) -> tuple[list[RunSummary], int]:
    """:func:`compare` on runs already read: ``(name, scored records by task id, records not
    scored)`` each, the first the baseline. ``smh report site`` calls it per suite against the
    best row, so its McNemar figures are this module's, not a second copy."""
    shared = set.intersection(*(set(s) for _, s, _ in runs)) if runs else set()
    summaries: list[RunSummary] = []
    first: dict[str, Any] | None = None
    for name, scored, infra in runs:
        rs = [scored[t] for t in sorted(shared)]
        by_suite: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        by_category: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        by_difficulty: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        errors: dict[str, int] = defaultdict(int)
        for r in rs:
            for key, table in (
                (r["suite"], by_suite),
                (f"{r['suite']}/{r['category']}", by_category),
                (str(r.get("difficulty")), by_difficulty),
            ):
                table[key][0] += bool(r["passed"])
                table[key][1] += 1
            if not r["passed"]:
                errors[str(r["verdict"].get("error_class"))] += 1
        agents = sorted({r["agent"] for r in rs}) or ["?"]
        summary = RunSummary(
            name=name,
            agent=", ".join(agents),
            n=len(rs),
            passed=sum(bool(r["passed"]) for r in rs),
            tokens=sum(r.get("usage", {}).get("total_tokens", 0) for r in rs),
            seconds=sum(r.get("seconds", 0.0) for r in rs),
            not_scored=infra,
            by_suite={s: (p, n) for s, (p, n) in sorted(by_suite.items())},
            by_category={c: (p, n) for c, (p, n) in sorted(by_category.items())},
            by_difficulty={k: (p, n) for k, (p, n) in sorted(by_difficulty.items())},
            errors=dict(errors),
            claimed=sum(bool(r.get("claims")) for r in rs),
            false_turns=sum(bool(r.get("false_claims")) for r in rs),
        )
        if first is None:
            first = scored
        else:
            summary.won = sum(bool(scored[t]["passed"]) and not first[t]["passed"] for t in shared)
            summary.lost = sum(not scored[t]["passed"] and bool(first[t]["passed"]) for t in shared)
            summary.p_value = mcnemar_exact(summary.won, summary.lost)
            said = {t: bool(scored[t].get("false_claims")) for t in shared}
            then = {t: bool(first[t].get("false_claims")) for t in shared}
            summary.false_more = sum(said[t] and not then[t] for t in shared)
            summary.false_less = sum(then[t] and not said[t] for t in shared)
            summary.false_p = mcnemar_exact(summary.false_more, summary.false_less)
        summaries.append(summary)
    return summaries, len(shared)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def markdown(summaries: list[RunSummary], shared: int) -> str:
    base = summaries[0].name if summaries else ""
    out = [
        f"# Comparison on {shared} tasks every run scored",
        "",
        f"| run | agent | passed | success % | 95% CI | tokens/task | s/task | tokens/s | not scored | "
        f"vs {base}: won / lost | p (McNemar) |",
        "|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in summaries:
        lo, hi = wilson(s.passed, s.n)
        per_task = s.tokens / s.n if s.n else 0.0
        secs = s.seconds / s.n if s.n else 0.0
        rate = s.tokens / s.seconds if s.seconds and s.tokens else 0.0
        vs = "–" if s.p_value is None else f"{s.won} / {s.lost}"
        p = "–" if s.p_value is None else f"{s.p_value:.3g}"
        out.append(
            f"| {s.name} | {s.agent} | {s.passed}/{s.n} | {_pct(s.rate)} | {_pct(lo)}-{_pct(hi)} | "
            f"{per_task:.0f} | {secs:.2f} | {rate:.0f} | {s.not_scored} | {vs} | {p} |"
        )
    for title, attr in (
        ("suite", "by_suite"),
        ("difficulty", "by_difficulty"),
        ("suite/category", "by_category"),
    ):
        keys = sorted({k for s in summaries for k in getattr(s, attr)})
        if not keys:
            continue
        out += [
            "",
            f"| {title} | " + " | ".join(s.name for s in summaries) + " |",
            "|---|" + "---:|" * len(summaries),
        ]
        for key in keys:
            cells = []
            for s in summaries:
                p, n = getattr(s, attr).get(key, (0, 0))
                cells.append(f"{_pct(p / n)} ({p}/{n})" if n else "–")
            out.append(f"| {key} | " + " | ".join(cells) + " |")
    classes = sorted({c for s in summaries for c in s.errors})
    if classes:
        out += [
            "",
            "| failed tasks by error class | " + " | ".join(s.name for s in summaries) + " |",
            "|---|" + "---:|" * len(summaries),
        ]
        out += [
            f"| {c} | " + " | ".join(str(s.errors.get(c, 0)) for s in summaries) + " |"
            for c in classes
        ]
    if any(s.claimed for s in summaries):  # said versus did, paired like success
        out += [
            "",
            f"| said versus did | turns with a claim | with a false claim | false-claim % | "
            f"vs {base}: more / fewer | p (McNemar) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for s in summaries:
            vs = "–" if s.false_p is None else f"{s.false_more} / {s.false_less}"
            p = "–" if s.false_p is None else f"{s.false_p:.3g}"
            rate = _pct(s.false_turns / s.claimed) if s.claimed else "–"
            out.append(f"| {s.name} | {s.claimed} | {s.false_turns} | {rate} | {vs} | {p} |")
    out += [
        "",
        "Only tasks every run scored are compared (endpoint failures are left out). s/task is the "
        "agent's wall time; tokens/s is prompt + completion tokens over it.",
    ]
    return "\n".join(out) + "\n"


def write_csv(summaries: list[RunSummary], path: Path) -> None:
    """One row per run and suite/category (and ``all``): passed, n, rate and its interval."""
    import csv

    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["run", "agent", "group", "passed", "tasks", "success", "ci_low", "ci_high"])
        for s in summaries:
            for group, (p, n) in [("all", (s.passed, s.n)), *s.by_category.items()]:
                lo, hi = wilson(p, n)
                w.writerow(
                    [
                        s.name,
                        s.agent,
                        group,
                        p,
                        n,
                        f"{p / n:.4f}" if n else "",
                        f"{lo:.4f}",
                        f"{hi:.4f}",
                    ]
                )


def write_png(summaries: list[RunSummary], path: Path) -> None:
    """Grouped bars: each suite/category (and all), one bar per run, 95% Wilson intervals as
    error bars and n in the labels, so two runs are read with their uncertainty."""
    from matplotlib.figure import Figure  # not pyplot: no GUI backend to pick, 0.1 s less to import

    groups = ["all", *sorted({k for s in summaries for k in s.by_category})]
    width = 0.8 / max(1, len(summaries))
    fig = Figure(figsize=(max(7, 0.9 * len(groups) * max(1, len(summaries)) / 2 + 3), 4.8))
    ax = fig.subplots()
    for i, s in enumerate(summaries):
        cells = {"all": (s.passed, s.n), **s.by_category}
        rates, low, high = [], [], []
        for g in groups:
            p, n = cells.get(g, (0, 0))
            lo, hi = wilson(p, n)
            rate = p / n if n else 0.0
            rates.append(100 * rate)
            low.append(100 * max(0.0, rate - lo))
            high.append(100 * max(0.0, hi - rate))
        xs = [j + (i - (len(summaries) - 1) / 2) * width for j in range(len(groups))]
        ax.bar(xs, rates, width, yerr=[low, high], capsize=2, label=f"{s.name} ({s.agent})")
    sizes = {
        g: max(dict({"all": (0, s.n), **s.by_category}).get(g, (0, 0))[1] for s in summaries)
        for g in groups
    }
    ax.set_xticks(
        range(len(groups)),
        [f"{g}\nn={sizes[g]}" for g in groups],
        rotation=45,
        ha="right",
        fontsize=7,
    )
    ax.set_ylabel("success % (95% Wilson interval)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    ax.set_title("Runs compared on the tasks every run scored")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
