"""Said versus did on home-assistant-datasets' published models: each recorded reply's claims
checked against what its replayed turn did, per model and report version (issue 38).

    .venv/bin/python scripts/trace_claims.py --tasks runs/had/ha_datasets.jsonl --replay runs/had-replay/replay.jsonl
    ... --labelled tests/fixtures/claims_labelled/had_replies.yaml   # agreement with hand labels

The replay comes from scripts/replay_traces.py; the traces file is read from beside --tasks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from smh_core.ha.trace_replay import load_replayed  # noqa: E402
from smh_core.importers.ha_traces import load_cases  # noqa: E402
from smh_core.importers.trace_claims import (  # noqa: E402
    Listings,
    agreement,
    case_claims,
    labelled,
    load_tasks_by_id,
    markdown,
    per_kind,
    per_model,
)
from smh_core.task.home import HomeCache  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", type=Path, required=True, help="the imported ha_datasets.jsonl")
    p.add_argument("--replay", type=Path, required=True, help="replay.jsonl of replay_traces.py")
    p.add_argument("--traces", type=Path, help="default: ha_datasets.traces.jsonl beside --tasks")
    p.add_argument("--all-versions", action="store_true", help="archived report versions too")
    p.add_argument("--labelled", type=Path, help="hand labels (YAML): print the agreement")
    p.add_argument("--disagreements", action="store_true", help="with --labelled: list them")
    p.add_argument(
        "--per-kind", action="store_true", help="with --labelled: agreement per claim kind"
    )
    args = p.parse_args(argv)
    traces = args.traces or args.tasks.with_name("ha_datasets.traces.jsonl")
    cases = load_cases(traces)
    records = load_replayed(args.replay)
    listing = Listings(load_tasks_by_id(args.tasks), HomeCache(args.tasks.parent))
    results = {c.id: case_claims(c, records[c.id], listing) for c in cases if c.id in records}
    rows = per_model(cases, results)
    print(markdown(rows, latest_only=not args.all_versions), end="")
    read = [r for r in results.values() if r is not None]
    claimed = [r for r in read if r.claims]
    false = [r for r in claimed if r.false]
    print(
        f"\n{len(read)} replies read, {len(claimed)} with a claim, {len(false)} with a false claim "
        f"({100 * len(false) / max(1, len(claimed)):.1f}%)"
    )
    if args.labelled is not None:
        agree, n, wrong = agreement(labelled(args.labelled), results)
        print(f"agreement with {args.labelled.name}: {agree}/{n} ({100 * agree / max(1, n):.1f}%)")
        if args.per_kind:
            for kind, (n, found, same) in per_kind(args.labelled, results).items():
                print(
                    f"  {kind}: {n} labelled, {found} found, {same} with the same truth "
                    f"({100 * same / max(1, n):.1f}% of labelled, {100 * same / max(1, found):.1f}% of found)"
                )
        if args.disagreements:
            for case_id, label, said in wrong:
                got = results.get(case_id)
                spans = [(c.span, c.truth) for c in got.claims] if got else []
                print(f"  - {case_id}: labelled {label}, checker {said}; {spans}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
