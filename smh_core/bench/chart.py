"""``report.png``: success by suite/category with Wilson intervals, drawn by matplotlib.

Importing matplotlib takes 0.4-0.5 s of CPU, more than a small run (``--suite sample``) costs
itself, so the chart is drawn only when it is asked for: by ``smh bench report`` and by
``smh bench run --chart`` (and a run keeps an existing ``report.png`` current). report.md and
report.csv hold the same figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .stats import wilson


def draw_chart(summary: dict[str, Any], path: Path) -> None:
    """Success by suite/category with 95% Wilson intervals as error bars and n under each bar:
    a bar without its interval and size invites reading noise as a difference."""
    from matplotlib.figure import Figure  # not pyplot: no GUI backend to pick, 0.1 s less to import

    labels, rates, lows, highs = [], [], [], []
    for suite, s in summary.items():
        for cat, cells in s["categories"].items():
            got = sum(g for g, _ in cells.values())
            tot = sum(t for _, t in cells.values())
            lo, hi = wilson(got, tot)
            rate = got / tot if tot else 0.0
            labels.append(f"{suite}/{cat}\nn={tot}")
            rates.append(100 * rate)
            lows.append(100 * max(0.0, rate - lo))  # the interval holds the rate; rounding may not
            highs.append(100 * max(0.0, hi - rate))
    fig = Figure(figsize=(max(6, 0.6 * len(labels) + 2), 4.5))
    ax = fig.subplots()
    ax.bar(
        range(len(labels)), rates, color="#3b7dd8", yerr=[lows, highs], capsize=3, ecolor="#333333"
    )
    ax.set_xticks(range(len(labels)), labels, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("success % (95% Wilson interval)")
    ax.set_ylim(0, 100)
    agents = sorted({a for s in summary.values() for a in s["agents"]})
    ax.set_title(f"SMH success rate by category: {', '.join(agents)}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
