"""The leaderboard's static plots (PNG, matplotlib's Agg canvas), each with its alt text.

Success against cost per solved task (tokens when any run spent tokens, else seconds), success
per suite/category for the best ranked runs beside the baselines, and, where runs were spoken
(``--voice``), the word error rate of each spoken run's transcripts. Alt texts say what the plot
shows in words and name the leading run, so the figure is not the only way to read it.
"""

from __future__ import annotations

from pathlib import Path

from .site_data import Row, Site

MOST_BARS = 6  # rows in the category plot: the best ranked ones, then the baselines


def _name(row: Row) -> str:
    c = row.config
    name = row.baseline or c["agent"] + ("" if c["model"] == "–" else f" {c['model']}")
    return name + (f" #{row.run_index}" if row.runs_of_config > 1 else "")


def draw_plots(site: Site, out: Path) -> list[tuple[str, str, str]]:
    """Write the plots into ``out``; ``(src relative to the site, alt text, caption)`` each."""
    from matplotlib.figure import Figure  # not pyplot: no GUI backend to pick

    rows = [r for r in site.rows if r.total().n]
    if not rows:
        return []
    use_tokens = any(r.total().tokens for r in rows)
    unit = "tokens" if use_tokens else "seconds"
    points = []
    for r in rows:
        t = r.total()
        cost = t.per_solved(t.tokens if use_tokens else t.seconds)
        points.append((r, 100 * t.rate, cost if cost is not None else 0.0))
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    for r, y, x in points:
        ax.scatter(
            [x], [y], marker="s" if r.baseline else "o", color="#555" if r.baseline else "#1f5fa8"
        )
    for r, y, x in points[:20]:
        ax.annotate(_name(r), (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(f"{unit} per solved task")
    ax.set_ylabel("success % (all suites)")
    ax.set_ylim(-2, 102)
    ax.set_title("Success against cost per solved task (squares: baselines)")
    fig.tight_layout()
    fig.savefig(out / "success-vs-cost.png", dpi=90)
    top = max(points, key=lambda p: p[1])
    alt1 = (
        f"Scatter plot of {len(points)} runs: overall success in percent against {unit} per "
        f"solved task. Highest success: {_name(top[0])} at {top[1]:.1f}% with "
        f"{top[2]:.3g} {unit} per solved task."
    )

    chosen = sorted(site.ranked, key=lambda r: -r.total().rate)[
        : MOST_BARS - len(site.baselines[:2])
    ]
    chosen += site.baselines[:2]
    groups = sorted({k for r in chosen for k in r.categories})
    fig = Figure(figsize=(max(8, 0.45 * len(groups) + 3), 4.8))
    ax = fig.subplots()
    width = 0.8 / max(1, len(chosen))
    for i, r in enumerate(chosen):
        rates = [
            100 * p / n if n else 0.0 for p, n in (r.categories.get(g, (0, 0)) for g in groups)
        ]
        xs = [j + (i - (len(chosen) - 1) / 2) * width for j in range(len(groups))]
        ax.bar(xs, rates, width, label=_name(r))
    ax.set_xticks(range(len(groups)), groups, rotation=60, ha="right", fontsize=6)
    ax.set_ylabel("success %")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    ax.set_title("Success per suite/category")
    fig.tight_layout()
    fig.savefig(out / "categories.png", dpi=90)
    lead = chosen[0] if chosen else None
    worst = ""
    if lead is not None and lead.categories:
        k, (p, n) = min(
            lead.categories.items(), key=lambda kv: kv[1][0] / kv[1][1] if kv[1][1] else 1
        )
        worst = f" {_name(lead)}'s weakest category is {k} at {100 * p / n:.1f}%."
    alt2 = (
        f"Grouped bar chart of success in percent for {len(groups)} suite/category groups, one "
        f"bar per run for {', '.join(_name(r) for r in chosen)}.{worst} Exact figures are in "
        "each run's Categories table."
    )
    return [
        ("plots/success-vs-cost.png", alt1, f"Success against {unit} per solved task."),
        ("plots/categories.png", alt2, "Success per suite/category (best runs and baselines)."),
        *_wer_plot(site, out),
    ]


def _wer_plot(site: Site, out: Path) -> list[tuple[str, str, str]]:
    """Word error rate per spoken run (none when no run was spoken: no empty figure)."""
    from matplotlib.figure import Figure

    spoken = [(r, r.wer) for r in site.rows if r.wer is not None]
    if not spoken:
        return []
    fig = Figure(figsize=(8, max(2.0, 0.4 * len(spoken) + 1.2)))
    ax = fig.subplots()
    names = [_name(r) for r, _ in spoken]
    ax.barh(range(len(spoken)), [100 * w for _, w in spoken], color="#1f5fa8")
    ax.set_yticks(range(len(spoken)), names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("word error rate % (transcripts against the words said)")
    ax.set_title("Voice: word error rate per spoken run")
    fig.tight_layout()
    fig.savefig(out / "wer.png", dpi=90)
    figures = ", ".join(
        f"{_name(r)} {100 * w:.1f}% ({r.voice[0] if r.voice else 0} errors in "
        f"{r.voice[1] if r.voice else 0} words)"
        for r, w in spoken
    )
    alt = f"Bar chart of the word error rate of {len(spoken)} spoken runs: {figures}."
    return [("plots/wer.png", alt, "Voice: word error rate of each spoken run's transcripts.")]
