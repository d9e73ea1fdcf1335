"""Entry point of the ``smh`` console script: one parser, one module per subcommand group."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from smh_core import __version__

from . import automation, bench, ha, home, matter, model, perf, report, safety, tasks, voice
from .parser import SmhParser


def build_parser() -> argparse.ArgumentParser:
    parser = SmhParser(
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
    report.register(sub)
    safety.register(sub)
    tasks.register(sub)
    voice.register(sub)
    return parser


def error_line(error: BaseException) -> str:
    """A bad input as one line (``FILE:LINE: FIELD: problem`` where the error knows them): an
    OS error by its file and reason, a multi-line message folded, so scripts can grep it."""
    if isinstance(error, OSError) and error.filename is not None:
        text = f"{error.filename}: {error.strerror or type(error).__name__}"
    elif isinstance(error, RecursionError):
        text = "input nested too deeply"
    else:
        text = str(error) or type(error).__name__
    return " | ".join(part.strip() for part in text.splitlines() if part.strip())


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # the command as typed, for run.json (a leaderboard row's reproduce line)
    args.argv = ["smh", *(sys.argv[1:] if argv is None else argv)]
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # inside the try: a closed pipe found at exit would print a traceback
        return code
    except (
        KeyboardInterrupt
    ):  # Ctrl-C or SIGTERM: one line, not a traceback; results so far are kept
        print(
            "smh: interrupted; what was recorded is kept (run the same command again to resume a "
            "bench run)",
            file=sys.stderr,
        )
        return 130
    except BrokenPipeError:  # `smh ... | head`: the reader left; what was written is all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    except (
        ValueError,
        FileNotFoundError,
        RecursionError,
    ) as e:  # bad input: one line, exit 2, no traceback
        print(f"smh: error: {error_line(e)}", file=sys.stderr)
        return 2
    except OSError as e:
        if e.filename is None:
            raise  # not about a file: a network or system failure, not the user's input
        print(f"smh: error: {error_line(e)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
