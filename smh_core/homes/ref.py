"""Which home a task or an SMH Home Assistant entry runs: the reference and the generated home.

:class:`HomeRef` names a home (a generated one by level and seed, a SimuHome-style Matter home
by seed, or a HomeEnv JSON file) and gives the keys runners and HA entries group homes by. It
lives below the benchmark's task format so that Home Assistant can set up an entry (turn its
options into a home and a key) without loading any of the benchmark (issue 37): the task format
(:mod:`smh_core.task.model`) uses it as its ``home`` field, and reading a file home with the
task's errors stays in :mod:`smh_core.task.home`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from smh_core.homeenv.model import Home

from .keys import ha_file_key

Difficulty = Literal["simple", "medium", "complex"]

ENTRY_SOURCE = {"generated": "generated", "matter": "matter", "file": "file"}
"""The SMH entry's ``source`` option per kind of home (custom_components/smh/const.py SOURCES)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HomeRef(_Strict):
    """Which home a task runs in: a generated one (level + seed) or a HomeEnv JSON file
    (relative to the task file's directory). ``generator: matter`` means a SimuHome-style home
    of Matter devices (:func:`smh_core.homes.simulated.generate_matter_home`; ``level`` is then unused)."""

    level: Difficulty | None = None
    seed: int | None = None
    file: str | None = None
    generator: Literal["homeenv", "matter"] = "homeenv"

    @model_validator(mode="after")
    def _one_source(self) -> HomeRef:
        if self.generator == "matter":
            if self.seed is None or self.file is not None:
                raise ValueError("a matter home needs a seed (and no file)")
            return self
        generated = self.level is not None and self.seed is not None
        if generated == (self.file is not None):
            raise ValueError("give either level and seed, or file")
        if self.file is None and (self.level is None) != (self.seed is None):
            raise ValueError("level and seed go together")
        return self

    def key(self) -> str:
        """A stable key for grouping tasks by home (so runners load each home once)."""
        if self.file:
            return f"file:{self.file}"
        return f"matter:{self.seed}" if self.generator == "matter" else f"{self.level}:{self.seed}"

    def ha_key(self) -> str:
        """The key under which an SMH Home Assistant entry hosts this home: :meth:`key` for
        generated and Matter homes, ``file:`` + the file's name (not its directory) for file
        homes, because the task file's directory and HA's config dir are different places."""
        if self.file is not None:
            return ha_file_key(self.file)
        return self.key()


def generated_home(ref: HomeRef) -> Home:
    """The home a reference that is not a file names (same seed, same home)."""
    assert ref.file is None and ref.seed is not None, "a generated home has a seed and no file"
    # the generators and the device catalog, only for a home that is generated (an HA entry
    # with a home file never loads them)
    from .generator import generate_home
    from .simulated import generate_matter_home

    if ref.generator == "matter":
        return generate_matter_home(ref.seed)
    assert ref.level is not None, "HomeRef's validator: a generated home has a level"
    return generate_home(ref.level, ref.seed)


def entry_options(ref: HomeRef, home_dir: str) -> dict[str, Any]:
    """The SMH entry's options-flow fields that make it host ``ref``'s home; a file home is
    looked for by its name in ``home_dir`` of HA's config dir (where the runner copies it)."""
    if ref.file is not None:
        name = PurePosixPath(ref.file).name
        return {
            "source": ENTRY_SOURCE["file"],
            "file": f"{home_dir.strip('/')}/{name}" if home_dir.strip("/") else name,
        }
    if ref.generator == "matter":
        return {"source": ENTRY_SOURCE["matter"], "seed": ref.seed, "file": ""}
    return {"source": ENTRY_SOURCE["generated"], "level": ref.level, "seed": ref.seed, "file": ""}


def ref_from_entry_options(data: Mapping[str, Any]) -> HomeRef:
    """The home an SMH entry's data names (the inverse of :func:`entry_options`), so the entry
    and the benchmark agree on :meth:`HomeRef.ha_key`."""
    source = data.get("source", ENTRY_SOURCE["generated"])
    if source == ENTRY_SOURCE["file"]:
        return HomeRef(file=data["file"])
    if source == ENTRY_SOURCE["matter"]:
        return HomeRef(generator="matter", seed=data["seed"])
    return HomeRef(level=data["level"], seed=data["seed"])
