"""Entry point of the ``smh`` console script: one parser, one module per subcommand group."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from smh_core import __version__

from . import automation, bench, ha, home, matter, model, perf, tasks


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smh",
        description="SMH: evaluate and run LLM smart-home agents on a simulated or real home.",
    )
    parser.add_argument("--version", action="version", version=f"smh {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    automation.register(sub)
    bench.register(sub)
    ha.register(sub)
    home.register(sub)
    matter.register(sub)
    model.register(sub)
    perf.register(sub)
    tasks.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (ValueError, FileNotFoundError) as e:
        print(f"smh: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
