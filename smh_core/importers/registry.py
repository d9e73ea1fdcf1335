"""``smh tasks import --from SOURCE``: which importer each source names.

Its own module, not the package's ``__init__``: a benchmark run that only looks up where an
imported suite's file lives (:mod:`.suites`) would otherwise import every importer."""

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
