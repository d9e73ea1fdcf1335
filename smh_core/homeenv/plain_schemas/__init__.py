"""The home model's pydantic-core schema, one module per pydantic-core version it was written
for (``core_2_41_4``: pydantic-core 2.41.4), each written by ``python -m
smh_core.homeenv.plain_build`` under that version: pydantic pins its core, and the schema it
generates is for that core (:func:`smh_core.homeenv.plain.usable`)."""

from __future__ import annotations


def module_name(version: str) -> str:
    """The module of the schema written for pydantic-core ``version``."""
    return f"{__name__}.core_{version.replace('.', '_')}"
