"""Agreement of SMH's deterministic reading of infeasible replies with SimuHome's judge rubric,
on a labelled set of transcripts (tests/fixtures/simuhome_infeasible_replies/), per query type
and per half (tune / holdout, fixed by a hash of each transcript's id).

    .venv/bin/python scripts/infeasible_agreement.py ~/src/SimuHome/data/benchmark
    .venv/bin/python scripts/infeasible_agreement.py DATA --half tune --disagreements
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from smh_core.importers.simuhome_agreement import load_transcripts, markdown, measure  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("episodes", type=Path, help="SimuHome's data/benchmark folder")
    p.add_argument(
        "--labelled",
        type=Path,
        default=ROOT / "tests" / "fixtures" / "simuhome_infeasible_replies",
        help="a labelled YAML file or a folder of them (default: the shipped set)",
    )
    p.add_argument("--half", choices=("tune", "holdout", "both"), default="both")
    p.add_argument("--disagreements", action="store_true", help="list every disagreement")
    args = p.parse_args(argv)
    halves = ("tune", "holdout") if args.half == "both" else (args.half,)
    result = measure(load_transcripts(args.labelled), args.episodes, halves)
    print(markdown(result), end="")
    if args.disagreements:
        for d in result.disagreements:
            print(
                f"- {d['id']} [{d['half']}] labelled {d['label']}; SMH: {d['smh']}; why: {d['why']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
