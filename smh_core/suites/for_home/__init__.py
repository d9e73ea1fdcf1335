"""Suites written for one given home (``smh tasks generate --home``; issue 39, item 2): a
user's twin of their HA home, or any home file. One module per suite, each drawing with that
suite's own makers on the given home; :mod:`.base` holds the draw-and-validate loop they share.
"""

from __future__ import annotations

from .base import HomeTasks, difficulty, pins_unknown
from .smh import generate_for_home

SUITES = ("smh",)
"""Suites that can be written for a given home."""

__all__ = ["SUITES", "HomeTasks", "difficulty", "generate_for_home", "pins_unknown"]
