"""``report.png``: success by suite/category with Wilson intervals, drawn by matplotlib.

Importing matplotlib takes 0.3-0.5 s, most of what a small run (``--suite sample``) costs cold.
So a run may :func:`prestart` a child process that imports matplotlib on the second core while
the run loads its tasks and plays them, and then draws the chart from the summary the run
hands it. Nothing else changes: the same function draws the same chart, in the child or, when
the child cannot start, fails or was never started (the tests, ``smh bench report``), in this
process. ``report.png`` is there either way, and the child never outlives the run (it exits
when the parent's pipe closes).
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from .stats import wilson

CHILD_TIMEOUT = 120.0
"""Seconds the run waits for the child's chart before drawing it itself."""

_child: subprocess.Popen[bytes] | None = None


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


def prestart() -> None:
    """Start the child that imports matplotlib now and draws the chart later (see the module
    docstring); a failure to start is silent: :func:`draw` then draws in this process."""
    global _child
    if _child is not None:
        return
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        _child = subprocess.Popen(
            [sys.executable, "-m", "smh_core.bench.chart"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    except OSError:
        _child = None
        return
    atexit.register(_stop)


def _stop() -> None:
    global _child
    child, _child = _child, None
    if child is None:
        return
    if child.stdin is not None and not child.stdin.closed:
        child.stdin.close()  # EOF: the child exits without drawing
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def draw(summary: dict[str, Any], path: Path) -> None:
    """Draw ``report.png`` at ``path``: by the prestarted child when there is one and it
    succeeds, else here."""
    global _child
    child, _child = _child, None
    if child is not None and child.stdin is not None:
        try:
            child.stdin.write(
                json.dumps({"summary": summary, "path": str(path)}, default=sorted).encode()
            )
            child.stdin.close()
            if child.wait(timeout=CHILD_TIMEOUT) == 0 and path.is_file():
                return
        except (OSError, ValueError, subprocess.TimeoutExpired):
            child.kill()
            child.wait()
    draw_chart(summary, path)


def _main() -> int:
    """The child: import matplotlib first, then draw what the parent sends (nothing on EOF)."""
    import matplotlib.figure  # noqa: F401  (the point of the child: this import, before the data)

    raw = sys.stdin.buffer.read()
    if not raw:
        return 0
    job = json.loads(raw)
    draw_chart(job["summary"], Path(job["path"]))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
