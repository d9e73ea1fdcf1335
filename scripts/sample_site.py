"""A sample leaderboard site from small runs, built the way `make site` builds one, and timed.

    python scripts/sample_site.py [--out artifacts/sample-site] [--no-local] [--no-ha]
    make sample-site

Runs, into ``<out>/runs/`` (made afresh each time):

- ``oracle`` and ``null``: ``smh bench run --suite sample`` (the reference and do-nothing baselines);
- ``local``: the bundled local model on the sample suite, when it is installed (``make
  local-llm``); skipped with a note otherwise, and with ``--no-local`` (a minute or more of
  CPU on two cores: the test suite leaves it out);
- ``ha-assist``: HA's built-in Assist agent (no LLM) on ``--ha-limit`` sample tasks inside a real
  ``hass`` (``scripts/bench_ha.py``), when Home Assistant is installed; skipped with a note
  otherwise, and with ``--no-ha``;
- ``had-replay``: published models replayed from home-assistant-datasets' traces
  (``scripts/replay_traces.py`` on ``--traces``, a checkout in its format; default: the hand-made
  one of ``tests/fixtures/ha_traces``, whose "models" are made up, since the data set itself is
  not shipped here), likewise only with Home Assistant.

then builds ``<out>/site`` with ``smh report site`` and prints its build time and rows. The
folder is under ``artifacts/`` (git-ignored); CI builds it in the browser test
(tests/e2e/test_site_browser.py), and ``scripts/site_screenshot.py`` photographs it for the README.
A step that fails stops the script (exit 1) naming the step and its output's tail: a sample
site missing a row it was asked for would look complete when it is not.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DEFAULT_OUT = REPO / "artifacts" / "sample-site"
FIXTURE_TRACES = REPO / "tests" / "fixtures" / "ha_traces"


class StepFailed(RuntimeError):
    """A run the sample site needs did not finish; the message names it and its output."""


@dataclass
class Built:
    """What the script made: the run folders, the site, its build time and what was skipped."""

    runs: dict[str, Path] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    site: Path | None = None
    seconds: float = 0.0
    rows: list[str] = field(default_factory=list)


def _step(name: str, argv: list[str], timeout: float) -> None:
    started = time.monotonic()
    done = subprocess.run(
        argv, cwd=REPO, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise StepFailed(f"{name}: exit {done.returncode} ({' '.join(argv)})\n{tail}")
    print(f"  {name}: {time.monotonic() - started:.1f} s", flush=True)


def _rel(path: Path) -> str:
    """A path as the steps are given it: relative to the checkout when inside it (the steps run
    there), so the commands the site shows reproduce in any clone."""
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def _smh(*args: str) -> list[str]:
    return [sys.executable, "-m", "smh_core.cli.main", *args]


def ha_unavailable() -> str | None:
    """Why the Home Assistant steps cannot run here (``None``: they can)."""
    try:
        import homeassistant  # noqa: F401
    except ImportError:
        return "Home Assistant is not installed in this environment (make bootstrap installs it)"
    return None


def local_unavailable() -> str | None:
    """Why the local model cannot run here (``None``: it can)."""
    from smh_core.llm.local import unavailable_reason

    return unavailable_reason()


def build_sample(
    out: Path,
    *,
    local: bool = True,
    local_limit: int | None = None,
    ha: bool = True,
    ha_limit: int = 4,
    traces: Path = FIXTURE_TRACES,
) -> Built:
    """Make the runs and the site under ``out`` (its ``runs/`` and ``site/`` replaced)."""
    built = Built()
    runs = out / "runs"
    shutil.rmtree(runs, ignore_errors=True)
    runs.mkdir(parents=True)
    for agent in ("oracle", "null"):
        built.runs[agent] = runs / agent
        argv = _smh("bench", "run", "--suite", "sample", "--agent", agent)
        _step(agent, [*argv, "--out", _rel(runs / agent), "--quiet", "--no-chart"], 120)
    why = "left out (--no-local)" if not local else local_unavailable()
    if why is None:
        built.runs["local"] = runs / "local"
        argv = _smh("bench", "run", "--suite", "sample", "--agent", "local")
        if local_limit is not None:  # CI's copy: a stratified few, so the row exists in a minute
            argv += ["--limit", str(local_limit)]
        _step("local", [*argv, "--out", _rel(runs / "local"), "--quiet", "--no-chart"], 1800)
    else:
        built.skipped["local model"] = why
    why = "left out (--no-ha)" if not ha else ha_unavailable()
    if why is None:
        script = [sys.executable, "scripts/bench_ha.py", "--suite", "sample"]
        limit = ["--limit", str(ha_limit), "--out", _rel(runs / "ha-assist"), "--quiet"]
        _step("HA Assist", [*script, *limit], 600)
        built.runs["ha-assist"] = runs / "ha-assist" / "sample"
        had = runs / "had-import"
        _step(
            "import traces",
            _smh("tasks", "import", "--from", "ha-datasets", _rel(traces), "--out", _rel(had)),
            300,
        )
        replay = [sys.executable, "scripts/replay_traces.py", "--out", _rel(runs / "had-replay")]
        replay += ["--tasks", _rel(had / "ha_datasets.jsonl")]
        _step("replay traces", [*replay, "--quiet"], 600)
        built.runs["replayed"] = runs / "had-replay"
    else:
        built.skipped["HA Assist and the replayed published models"] = why

    from smh_core.bench.site_data import build
    from smh_core.bench.site_html import write_site
    from smh_core.importers.replay_site import ReplayReader

    started = time.perf_counter()
    site = build(list(built.runs.values()), readers=(ReplayReader(),))
    built.site = out / "site"
    write_site(site, built.site)
    built.seconds = time.perf_counter() - started
    built.rows = [
        (r.baseline or f"{r.config['agent']} {r.config['model']}")
        + f" ({r.total().passed}/{r.total().n})"
        for r in site.rows
    ]
    return built


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"default: {_rel(DEFAULT_OUT)}")
    p.add_argument("--no-local", action="store_true", help="leave out the local model's run")
    p.add_argument(
        "--local-limit", type=int, help="sample tasks the local model answers (default: all)"
    )
    p.add_argument("--no-ha", action="store_true", help="leave out the two runs inside HA")
    p.add_argument("--ha-limit", type=int, default=4, help="sample tasks Assist answers (4)")
    p.add_argument(
        "--traces",
        type=Path,
        default=FIXTURE_TRACES,
        help="a home-assistant-datasets checkout (its datasets/ folder) to replay "
        "(default: the hand-made fixture in its format)",
    )
    args = p.parse_args(argv)
    started = time.monotonic()
    try:
        built = build_sample(
            args.out.resolve(),
            local=not args.no_local,
            local_limit=args.local_limit,
            ha=not args.no_ha,
            ha_limit=args.ha_limit,
            traces=args.traces.resolve(),
        )
    except StepFailed as e:
        print(f"sample site: {e}", file=sys.stderr)
        return 1
    print(f"sample site {built.site / 'index.html'}: {len(built.rows)} rows")
    for row in built.rows:
        print(f"  {row}")
    for what, why in built.skipped.items():
        print(f"  skipped {what}: {why}")
    print(
        f"site built in {built.seconds:.1f} s (runs and site: {time.monotonic() - started:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
