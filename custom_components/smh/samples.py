"""The sample homes a new user picks from in the config flow (pure: no HA imports).

A HACS user has no checkout and no home file, so the integration ships a few: the three
SMH-Bench sizes and a SimuHome-style Matter home (generated, seed 0), and home files under
``sample_homes/``: the sample suite's tiny flat, a SAGE home, and one home each as SMH's
importers make them from HomeBench, SimuHome and home-assistant-datasets data (from SMH's own
hand-written examples of those formats, ``tests/fixtures/``; ``scripts/sample_homes.py``
writes them). A file sample is copied into ``<config>/smh_homes/`` under the name its task
files use (``tiny.json``, ``sage-0.json``), so the benchmark runner finds it there.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .const import (
    CONF_FILE,
    CONF_LEVEL,
    CONF_SEED,
    CONF_SOURCE,
    SOURCE_FILE,
    SOURCE_GENERATED,
    SOURCE_MATTER,
)

SAMPLE_DIR = Path(__file__).parent / "sample_homes"
HOME_DIR = "smh_homes"
"""Folder under HA's config dir for home files (the benchmark runner's ``--ha-home-dir``)."""


@dataclass(frozen=True)
class Sample:
    """One pickable home: generated (``level``/``seed``, or the Matter generator) or a file."""

    key: str
    source: str
    level: str = "medium"
    seed: int = 0
    file: str | None = None

    def entry_data(self, config_dir: str) -> dict[str, Any]:
        """The entry data of this home; a file sample is installed into the config dir first
        (blocking: run in an executor)."""
        if self.source != SOURCE_FILE:
            return {CONF_SOURCE: self.source, CONF_LEVEL: self.level, CONF_SEED: self.seed}
        assert self.file is not None
        return {
            CONF_SOURCE: SOURCE_FILE,
            CONF_FILE: install(config_dir, SAMPLE_DIR / self.file),
            CONF_LEVEL: self.level,
            CONF_SEED: self.seed,
        }


SAMPLES: dict[str, Sample] = {
    s.key: s
    for s in (
        Sample("simple", SOURCE_GENERATED, level="simple"),
        Sample("medium", SOURCE_GENERATED, level="medium"),
        Sample("complex", SOURCE_GENERATED, level="complex"),
        Sample("matter", SOURCE_MATTER),
        Sample("tiny", SOURCE_FILE, file="tiny.json"),
        Sample("sage", SOURCE_FILE, file="sage-0.json"),
        Sample("homebench", SOURCE_FILE, file="homebench-example.json"),
        Sample("simuhome", SOURCE_FILE, file="simuhome-example.json"),
        Sample("ha_datasets", SOURCE_FILE, file="ha-datasets-example.json"),
    )
}
"""Key (the selector's option and translation key) -> sample, in the order the flow lists them."""


def install(config_dir: str, source: Path, name: str | None = None) -> str:
    """Copy a home file into ``<config_dir>/smh_homes/`` and return its path relative to the
    config dir. A file already there with the same bytes is reused; one with other bytes is
    never overwritten (the copy gets ``-2``, ``-3`` ... before its suffix)."""
    folder = Path(config_dir) / HOME_DIR
    folder.mkdir(parents=True, exist_ok=True)
    name = Path(name or source.name).name  # a bare file name: nothing outside the folder
    stem, suffix = Path(name).stem, Path(name).suffix or ".json"
    data = source.read_bytes()
    for n in range(1, 1000):
        target = folder / (f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}")
        if not target.exists():
            shutil.copyfile(source, target)
            return f"{HOME_DIR}/{target.name}"
        if target.is_file() and target.read_bytes() == data:
            return f"{HOME_DIR}/{target.name}"
    raise FileExistsError(f"{folder} holds 999 other files named {stem}-N{suffix}")
