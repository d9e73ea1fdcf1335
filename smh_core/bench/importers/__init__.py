"""Importers: other benchmarks' published formats turned into SMH homes and task files.

Each importer reads a user's local copy of a source (nothing is downloaded or shipped), writes
homes and a task JSONL in this project's format, validates every task like a generated suite
(the reference passes, doing nothing fails unless it is correct) and says, item by item, what
it imported, what it approximated and what it skipped, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from . import ha_datasets, homebench, simuhome

IMPORTERS: dict[str, tuple[ModuleType, Callable[[Path, Path], tuple[list[Any], Any]]]] = {
    "ha-datasets": (ha_datasets, ha_datasets.import_ha_datasets),
    "simuhome": (simuhome, simuhome.import_simuhome),
    "homebench": (homebench, homebench.import_homebench),
}
"""``smh tasks import --from`` source -> (its module, with ``SUITE``; its import function)."""
