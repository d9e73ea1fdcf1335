"""The key an SMH Home Assistant entry hosts a home file under, without the task format.

:meth:`smh_core.homes.ref.HomeRef.ha_key` gives every home's key; a file's is here so that
Home Assistant can key an entry whose home is a file without importing pydantic (issue 37:
:class:`~smh_core.homes.ref.HomeRef` is a pydantic model).
"""

from __future__ import annotations

from pathlib import PurePosixPath


def ha_file_key(file: str) -> str:
    """``file:`` + the file's name (not its directory): the task file's directory and HA's
    config dir are different places."""
    return f"file:{PurePosixPath(file).name}"
