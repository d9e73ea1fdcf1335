"""vacuum entities of the plain baseline (see the package docstring)."""

from .entities import platform_setup

async_setup_entry = platform_setup("vacuum")
