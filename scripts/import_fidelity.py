"""How faithfully an external benchmark imports: per category and device kind, the source's
items imported and skipped (by reason), the reference solution replayed by SMH's engine and
verifier (it must pass every one), doing nothing (it must fail all but the no-change ones),
HomeBench's gold calls replayed with every attribute they set checked, and every request the
source labels impossible replayed on the task's home (the engine must refuse it).

    .venv/bin/python scripts/import_fidelity.py --from simuhome ~/src/SimuHome/data/benchmark
    .venv/bin/python scripts/import_fidelity.py --from ha-datasets ~/src/home-assistant-datasets/datasets
    .venv/bin/python scripts/import_fidelity.py --from homebench ~/src/HomeBench/dataset

The same report follows an import with `smh tasks import --report`. Run on the fixtures under
tests/fixtures/ in CI's tests; the README's figures come from this script on the real sources.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smh_core.importers.fidelity import markdown, measure  # noqa: E402
from smh_core.importers.registry import IMPORTERS  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--from", dest="source", required=True, choices=sorted(IMPORTERS))
    p.add_argument("path", type=Path)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        tasks, report = IMPORTERS[args.source][1](args.path, out)
        figures = measure(tasks, report, out, args.source, args.path)
    print(markdown(figures), end="")
    return 1 if figures.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
