"""The home model's pydantic-core schema as pydantic generates it, one module per distinct schema
(``schema_<digest>``: named by its content), and which one each pydantic-core version takes.

pydantic pins its core to one version and generates its schema for it; another core may read a
schema differently, so a schema is used only under a core it was written for
(:func:`smh_core.homeenv.plain.usable`). ``python -m smh_core.homeenv.plain_build``, run under
a pydantic, writes its schema (if no module holds it yet) and records its core here (HA
2026.2's and 2026.10's share one; 2026.11's pydantic writes model configurations without
titles).
"""

from __future__ import annotations

from typing import Any

# --- written by smh_core.homeenv.plain_build
from . import schema_7f067a6928, schema_aeefeb7351

SCHEMAS = (schema_7f067a6928, schema_aeefeb7351)
WRITTEN_FOR: dict[str, str] = {
    "2.41.4": "schema_7f067a6928",
    "2.46.5": "schema_7f067a6928",
    "2.50.1": "schema_aeefeb7351",
}
# --- end of what plain_build writes


def written_for(version: str) -> Any:
    """The schema module written for pydantic-core ``version``; ``None``: none is."""
    name = WRITTEN_FOR.get(version)
    return next((m for m in SCHEMAS if m.__name__.rsplit(".", 1)[1] == name), None)
