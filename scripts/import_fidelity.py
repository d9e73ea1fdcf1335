"""How faithfully an external benchmark imports: per category, the source's items, the tasks
imported, the reference solution replayed by SMH's engine and verifier (it must pass every
one), doing nothing (it must fail all but the no-change ones), and every skipped item's reason.

    .venv/bin/python scripts/import_fidelity.py --from simuhome ~/src/SimuHome/data/benchmark
    .venv/bin/python scripts/import_fidelity.py --from ha-datasets ~/src/home-assistant-datasets/datasets
    .venv/bin/python scripts/import_fidelity.py --from homebench ~/src/HomeBench/dataset

For HomeBench it also replays every valid gold call on its imported home and lists each one
that does not land in the state it asks for, with the reason.

Run on the fixtures under tests/fixtures/ in CI's tests; the README's figures come from this
script on the real sources.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smh_core.bench.agents import NullAgent, OracleAgent  # noqa: E402
from smh_core.bench.importers.homebench_replay import replay_gold  # noqa: E402
from smh_core.bench.importers.registry import IMPORTERS  # noqa: E402
from smh_core.bench.runner import HomeCache, run_task  # noqa: E402


async def _verdicts(tasks: list, out: Path) -> tuple[Counter, Counter, list[str]]:
    cache = HomeCache(out)
    oracle, null, failures = Counter(), Counter(), []
    for task in tasks:
        ref = await run_task(task, OracleAgent(), cache)
        oracle[task.subcategory] += ref["passed"]
        if not ref["passed"]:
            failures.append(f"{task.id}: {ref['verdict']['reason']}")
        null[task.subcategory] += (await run_task(task, NullAgent(), cache))["passed"]
    return oracle, null, failures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--from", dest="source", required=True, choices=sorted(IMPORTERS))
    p.add_argument("path", type=Path)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        tasks, report = IMPORTERS[args.source][1](args.path, out)
        oracle, null, failures = asyncio.run(_verdicts(tasks, out))
    imported = Counter(t.subcategory for t in tasks)
    print(f"# Import fidelity: {report.source} ({args.path})\n")
    print("| subcategory | imported | reference passes | doing nothing passes |")
    print("|---|---:|---:|---:|")
    for sub in sorted(imported):
        print(f"| {sub} | {imported[sub]} | {oracle[sub]} | {null[sub]} |")
    total = sum(imported.values())
    print(f"| all | {total} | {sum(oracle.values())} | {sum(null.values())} |\n")
    print(f"{len(report.skipped)} source items skipped, by reason:\n")
    for why, n in Counter(w for _, w in report.skipped).most_common():
        print(f"- {n} x {why}")
    if args.source == "homebench":
        _print_gold_replay(args.path)
    for line in failures:
        print(f"REFERENCE FAILS: {line}")
    return 1 if failures else 0


def _print_gold_replay(path: Path) -> None:
    replay = replay_gold(path)
    share = 100.0 * replay.landed / replay.calls if replay.calls else 0.0
    print(f"\nHomeBench gold calls replayed: {replay.landed} of {replay.calls} valid calls land in the "
          f"state they ask for ({share:.1f}%)\n")
    print("| method | gold calls | land |")
    print("|---|---:|---:|")
    for method in sorted(replay.by_method):
        print(f"| {method} | {replay.by_method[method]} | {replay.landed_by_method[method]} |")
    print(f"\n{len(replay.disagreements)} gold calls do not land, by reason:\n")
    for why, n in Counter(w for _, _, w in replay.disagreements).most_common():
        print(f"- {n} x {why}")
    print()
    for where, call, why in replay.disagreements:
        print(f"DISAGREES: {where} {call}: {why}")


if __name__ == "__main__":
    raise SystemExit(main())
