"""``smh report site``: a static leaderboard site from run folders (:mod:`smh_core.bench.site_data`
reads them, :mod:`smh_core.bench.site_html` writes the pages)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    rp = sub.add_parser("report", help="reports over many runs (a static leaderboard site)")
    rs = rp.add_subparsers(dest="report_command", metavar="REPORT", required=True)
    site = rs.add_parser(
        "site",
        help="a static leaderboard site (HTML, CSS, a small script; opens from disk or GitHub "
        "Pages) from run folders: success per suite with 95%% CI and McNemar against the best, "
        "cost, baselines, per-task drill-down, each row's reproduce command and manifest hash",
    )
    site.add_argument(
        "dirs",
        type=Path,
        nargs="+",
        metavar="RUN_DIR",
        help="run folders (results.jsonl + run.json) or trace replays (replay.json: one row per "
        "published model), or folders to search for them (e.g. runs/)",
    )
    site.add_argument("--out", type=Path, required=True, help="the site's folder")
    site.add_argument("--no-plots", action="store_true", help="skip the matplotlib plots")
    site.set_defaults(func=_site)


def _site(args: argparse.Namespace) -> int:
    from smh_core.bench.site_data import build
    from smh_core.bench.site_html import write_site
    from smh_core.importers.replay_site import ReplayReader

    start = time.perf_counter()
    # every run (and replay of published traces) read and checked before anything is written
    model = build(args.dirs, readers=(ReplayReader(),))
    size = write_site(model, args.out, plots=not args.no_plots)
    if model.left_out:
        names = ", ".join(str(p) for p in model.left_out[:5])
        more = f" and {len(model.left_out) - 5} more" if len(model.left_out) > 5 else ""
        print(f"left out (results.jsonl without run.json): {names}{more}", file=sys.stderr)
    print(
        f"{args.out / 'index.html'}: {len(model.rows)} runs, {len(model.suites)} suites, "
        f"{size['files']} files, {size['bytes'] / 1e6:.1f} MB in {time.perf_counter() - start:.1f} s"
    )
    return 0
