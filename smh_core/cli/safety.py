"""``smh safety ...``: what the action guard costs (plain high-risk requests it asks about)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "safety", help="measure the action guard (high-risk actions need the user's consent)"
    )
    ps = p.add_subparsers(dest="safety_command", metavar="TARGET", required=True)
    c = ps.add_parser(
        "cost",
        help="the share of plain high-risk requests (HA's intent sentences, "
        "home-assistant-datasets, the suites' tasks) that run without a question, and "
        "after a yes, per source and half, as markdown",
    )
    c.add_argument(
        "--ha-datasets",
        type=Path,
        default=None,
        metavar="PATH",
        help="a local copy of home-assistant-datasets' datasets/ (or one dataset of it): "
        "its sentences too (default: left out)",
    )
    c.add_argument(
        "--tasks-dir",
        type=Path,
        default=Path("tasks"),
        help="suite folder whose *.jsonl tasks are read (default: tasks/)",
    )
    c.add_argument("--no-suites", action="store_true", help="leave the suites' tasks out")
    c.add_argument(
        "--seed", type=int, default=0, help="seed of the intent sentences' sample (default: 0)"
    )
    c.add_argument(
        "--cap",
        type=int,
        default=16,
        help="intent sentences kept per template and device (default: 16)",
    )
    c.add_argument(
        "--shapes", type=int, default=25, help="most common question shapes listed (default: 25)"
    )
    c.add_argument(
        "--out", type=Path, default=None, help="write the report here (default: print it)"
    )
    c.set_defaults(func=_cost)


def _cost(args: argparse.Namespace) -> int:
    from smh_core.bench.consent_cost import corpus, measure, report
    from smh_core.importers.ha_datasets import import_ha_datasets

    if args.cap < 1:
        raise ValueError(f"--cap must be at least 1, got {args.cap}")
    if args.ha_datasets is not None and not args.ha_datasets.exists():
        raise FileNotFoundError(2, "No such file or directory", str(args.ha_datasets))
    tasks_dir = None if args.no_suites else args.tasks_dir
    if tasks_dir is not None and not tasks_dir.is_dir():
        raise FileNotFoundError(2, "No such file or directory", str(tasks_dir))
    text = report(
        measure(
            corpus(
                args.ha_datasets,
                tasks_dir,
                seed=args.seed,
                cap=args.cap,
                importer=import_ha_datasets,
            )
        ),
        shapes=args.shapes,
    )
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0
