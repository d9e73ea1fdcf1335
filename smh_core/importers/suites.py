"""Where ``smh bench run --suite NAME`` finds a suite's task file, imported suites included.

Generated suites are committed as ``tasks/NAME.jsonl``. Imported suites are built from a
user's own copy of another benchmark (none of their data ships here), so they live wherever
``smh tasks import --out`` put them — by default ``tasks/imported/`` (git-ignored); a run looks
there as well as in the tasks folder itself, and a missing one says which command writes it.
"""

from __future__ import annotations

from pathlib import Path

IMPORTED = {
    "ha_datasets": "ha-datasets",
    "simuhome_import": "simuhome",
    "homebench_import": "homebench",
}
"""Imported suite name -> the ``smh tasks import --from`` source that writes it."""
IMPORTED_DIR = "imported"
"""Sub-folder of the tasks folder that ``smh tasks import`` writes to by default."""


def suite_file(name: str, tasks_dir: Path) -> Path:
    """The task file of suite ``name`` under ``tasks_dir``: ``NAME.jsonl`` there, or for an
    imported suite ``imported/NAME.jsonl`` when only that exists. May not exist: see
    :func:`missing_hint`."""
    direct = tasks_dir / f"{name}.jsonl"
    if name in IMPORTED and not direct.exists():
        return tasks_dir / IMPORTED_DIR / f"{name}.jsonl"
    return direct


def missing_hint(name: str, tasks_dir: Path) -> str:
    """What writes suite ``name`` when its file is missing."""
    if name in IMPORTED:
        return (
            f" (an imported suite: `smh tasks import --from {IMPORTED[name]} PATH --out "
            f"{tasks_dir / IMPORTED_DIR}` writes it from your copy of the source)"
        )
    return " (`smh tasks generate` writes the suites)"
