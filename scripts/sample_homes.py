"""Write the sample home files the HA integration ships (``custom_components/smh/sample_homes/``).

The config flow offers them to a user who has no home file (a HACS install has no checkout):
the sample suite's tiny flat and a SAGE home (copied from ``tasks/homes/``), and one home each
as ``smh tasks import`` makes it from HomeBench, SimuHome and home-assistant-datasets data,
imported from SMH's own hand-written examples of those formats in ``tests/fixtures/`` (no data
of those benchmarks ships here). Deterministic: the same sources give the same bytes, and
``tests/ha/test_sample_homes.py`` checks the shipped files are what this script writes.

    python scripts/sample_homes.py            # (re)write the files
    python scripts/sample_homes.py --check    # exit 1 if a shipped file differs
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from smh_core.importers.registry import IMPORTERS  # noqa: E402

OUT = REPO / "custom_components" / "smh" / "sample_homes"
FIXTURES = REPO / "tests" / "fixtures"
COPIED = {
    "tiny.json": REPO / "tasks" / "homes" / "tiny.json",
    "sage-0.json": REPO / "tasks" / "homes" / "sage-0.json",
}
IMPORTED = {  # shipped name: (importer, its input, the home file it writes)
    "homebench-example.json": ("homebench", FIXTURES / "homebench", "hb-home-0.json"),
    "simuhome-example.json": (
        "simuhome",
        FIXTURES / "simuhome_episodes",
        "sh-qt3_feasible_seed_901.json",
    ),
    "ha-datasets-example.json": (
        "ha-datasets",
        FIXTURES / "ha_datasets" / "datasets",
        "had-assist-mini-house-mixed.json",
    ),
}


def sample_bytes() -> dict[str, bytes]:
    """Shipped file name -> its bytes, as built from the sources now."""
    out = {name: path.read_bytes() for name, path in COPIED.items()}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (source, path, home) in IMPORTED.items():
            target = Path(tmp) / source
            IMPORTERS[source][1](path, target)
            out[name] = (target / "homes" / home).read_bytes()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--check", action="store_true", help="compare with the shipped files; write nothing"
    )
    args = p.parse_args(argv)
    wanted = sample_bytes()
    if args.check:
        stale = [
            name
            for name, data in wanted.items()
            if not (OUT / name).is_file() or (OUT / name).read_bytes() != data
        ]
        for name in stale:
            print(f"stale: {OUT / name} (run python scripts/sample_homes.py)", file=sys.stderr)
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in wanted.items():
        (OUT / name).write_bytes(data)
        print(f"wrote {OUT / name} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
