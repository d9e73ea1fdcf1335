"""Build a HomeEnv home from a config entry's data (generated preset, Matter home or a JSON file).

Kept apart from the config flow so the flow's validation and the entry's setup load homes
the same way and report the same errors. :func:`entry_home_key` names the home an entry
hosts in the benchmark's terms, so ``smh.load_task`` can refuse a task of another home.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from smh_core.homeenv.engine import load_home
from smh_core.homes.keys import ha_file_key

if TYPE_CHECKING:
    from smh_core.homeenv.model import Home

from .const import CONF_FILE, CONF_SEED, CONF_SOURCE, SOURCE_FILE


class HomeSourceError(Exception):
    """The configured home cannot be loaded; ``key`` is the translation key of the reason."""

    def __init__(self, key: str, detail: str) -> None:
        super().__init__(detail)
        self.key = key
        self.detail = detail


def resolve_file(config_dir: str, name: str) -> Path:
    """A home file path, relative to the HA config dir; refuses paths that leave it."""
    base = Path(config_dir).resolve()
    path = (base / name).resolve()
    if base != path and base not in path.parents:
        raise HomeSourceError(
            "file_outside_config", f"{name} is outside the configuration directory"
        )
    return path


def _seed(data: dict[str, Any]) -> int:
    seed = data.get(CONF_SEED)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise HomeSourceError("invalid_seed", f"seed must be a non-negative integer, got {seed!r}")
    return seed


def build_home(config_dir: str, data: dict[str, Any]) -> Home:
    """Load or generate the home described by ``data`` (blocking: run in an executor).

    A generated SMH-Bench home gets a climate drawn from its seed on every room (the generator
    gives rooms none), so HA can answer "how warm is the living room?" there as in a Matter
    home. A home file is taken as written: its rooms are simulated where it declares an
    ``environment``."""
    if data.get(CONF_SOURCE) == SOURCE_FILE:
        path = resolve_file(config_dir, data[CONF_FILE])
        if not path.is_file():
            raise HomeSourceError("file_not_found", f"no file {path}")
        try:  # plain: validated as pydantic would, without importing it (issue 37)
            return load_home(path, plain=True)
        except ValueError as err:
            raise HomeSourceError("invalid_home", str(err)) from err
    # a generated home: the generators, the catalog and the pydantic model, as needed
    from smh_core.homes.ref import generated_home, ref_from_entry_options
    from smh_core.homes.simulated import with_room_climate

    seed = _seed(data)
    ref = ref_from_entry_options(data)
    home = generated_home(ref)
    return home if ref.generator == "matter" else with_room_climate(home, seed)


def entry_home_key(data: dict[str, Any]) -> str:
    """The benchmark key of the entry's home (see :meth:`smh_core.homes.ref.HomeRef.ha_key`):
    ``simple:3``, ``matter:7`` or, for a file, ``file:`` + the file's name."""
    if data.get(CONF_SOURCE) == SOURCE_FILE:
        return ha_file_key(data[CONF_FILE])
    from smh_core.homes.ref import ref_from_entry_options

    return ref_from_entry_options(data).ha_key()
