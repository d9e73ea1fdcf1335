"""Make the bundled copies of ``smh_core`` and ``sim_devices`` importable (side effect on import).

The integration is a thin layer over the project's own packages ``smh_core`` (engine,
simulator, agent) and ``sim_devices`` (device catalog). Neither is on PyPI, so the manifest
cannot list them as requirements, and HACS installs only this directory. The HACS release zip
(``scripts/build_hacs.py``) therefore ships copies of what this integration imports of both
(its modules, transitively, and their data) in ``_vendor/`` next to this file.

Imported first by ``__init__`` (before any ``smh_core`` import; the platform modules are
imported after the package, so this covers them too). It touches ``sys.path`` only when
``smh_core`` is not importable already, and *appends* the directory, so a pip-installed smh
(a development checkout, ``pip install -e .``) always wins over the bundled copy.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

VENDOR_DIR = Path(__file__).resolve().parent / "_vendor"


def ensure_vendored(vendor_dir: Path = VENDOR_DIR) -> bool:
    """Append ``vendor_dir`` to ``sys.path`` if ``smh_core`` cannot be found and the directory
    exists; returns whether it did. Idempotent."""
    if importlib.util.find_spec("smh_core") is not None or not vendor_dir.is_dir():
        return False
    path = str(vendor_dir)
    if path not in sys.path:
        sys.path.append(path)
    return True


ensure_vendored()
