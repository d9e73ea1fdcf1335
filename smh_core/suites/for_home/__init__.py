"""Suites written for one given home (``smh tasks generate --home``; issue 39, item 2): a
user's twin of their HA home, or any home file. One module per suite, each drawing with that
suite's own makers on the given home; :mod:`.base` holds the draw-and-validate loop they share.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from smh_core.homeenv.model import Home

from .base import HomeTasks, RealCheck, TwinUnchecked, difficulty, is_twin, pins_unknown
from .memhome import generate_memhome
from .sage import generate_sage
from .simuhome import generate_simuhome
from .smh import generate_for_home


class Generator(Protocol):
    """A suite's generator for a given home: (home, out folder, file stem, seed, tasks per row),
    and for a twin the check of what its HA can run."""

    def __call__(
        self, home: Home, out: Path, stem: str, seed: int, per: int, /, *, real: RealCheck | None
    ) -> HomeTasks: ...


GENERATORS: dict[str, Generator] = {
    "smh": generate_for_home,
    "memhome": generate_memhome,
    "simuhome": generate_simuhome,
    "sage": generate_sage,
}
"""Suite -> its generator for a given home (:class:`Generator`). The safety suites sit a layer
above (``smh_core.safety_suites.for_home``); the CLI adds theirs."""

SUITES = tuple(GENERATORS)
"""Suites of this layer that can be written for a given home (the CLI adds ``safety``)."""

__all__ = [
    "GENERATORS",
    "SUITES",
    "Generator",
    "HomeTasks",
    "RealCheck",
    "TwinUnchecked",
    "difficulty",
    "generate_for_home",
    "generate_memhome",
    "generate_sage",
    "generate_simuhome",
    "is_twin",
    "pins_unknown",
]
