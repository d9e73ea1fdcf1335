"""Where ``smh bench run --suite NAME`` finds a suite, from any working directory.

A newcomer runs ``smh`` from wherever their shell is. Looking only in ``./tasks`` made every
``--suite`` fail outside the checkout, and a typo got a hint (``smh tasks generate``) that could
not write the suite asked for. Here a suite is looked up in ``--tasks-dir`` when given, else
in ``./tasks`` and then in the task folder of the installed smh (the checkout it was installed
from); a name that is nowhere gets one line with the closest name, every suite found and the
folders looked in, or the command that writes a known suite not yet generated.
"""

from __future__ import annotations

from pathlib import Path

import smh_core
from smh_core.importers.suites import IMPORTED, IMPORTED_DIR, missing_hint, suite_file

from .parser import did_you_mean
from .tasks import SUITES as GENERATED  # the suites ``smh tasks generate`` writes

SHIPPED = ("sample",)
"""Suites written by hand, shipped in the checkout's ``tasks/`` folder."""
CWD_TASKS = Path("tasks")


def installed_tasks_dir() -> Path:
    """The ``tasks/`` folder beside the installed ``smh_core`` package (the checkout an
    editable install points at)."""
    return Path(smh_core.__file__).resolve().parent.parent / "tasks"


def search_dirs(tasks_dir: Path | None) -> list[Path]:
    """The folders a suite name is looked up in, in order: ``--tasks-dir`` alone when given,
    else ``./tasks`` then the installed package's (once, when they are the same folder)."""
    if tasks_dir is not None:
        return [tasks_dir]
    dirs = [CWD_TASKS]
    if installed_tasks_dir() != CWD_TASKS.resolve():
        dirs.append(installed_tasks_dir())
    return dirs


def available(dirs: list[Path]) -> dict[str, Path]:
    """Suite name -> task file, for every suite in ``dirs`` (the first folder holding a name wins)."""
    found: dict[str, Path] = {}
    for folder in dirs:
        for path in sorted([*folder.glob("*.jsonl"), *(folder / IMPORTED_DIR).glob("*.jsonl")]):
            found.setdefault(path.stem, path)
    return found


class UnknownSuite(ValueError):
    """A suite name found in none of the folders; the message says what to do instead."""

    def __init__(self, name: str, dirs: list[Path], found: list[str]) -> None:
        self.name, self.dirs, self.found = name, dirs, found
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ", ".join(str(d.resolve()) for d in self.dirs)
        if self.name in GENERATED:
            out = self.dirs[0]
            return (
                f"suite {self.name!r} is not generated yet (looked in {where}): "
                f"`smh tasks generate --suite {self.name} --out {out}` writes it"
            )
        if self.name in IMPORTED:
            return f"suite {self.name!r} is not in {where}{missing_hint(self.name, self.dirs[0])}"
        if self.name in SHIPPED:
            return (
                f"suite {self.name!r} is not in {where}: it ships in the checkout's tasks/ folder; "
                "run from the checkout or give --tasks-dir CHECKOUT/tasks"
            )
        known = sorted({*self.found, *GENERATED, *SHIPPED, *IMPORTED})
        listed = ", ".join(self.found) if self.found else "none"
        return (
            f"unknown suite {self.name!r}{did_you_mean(self.name, known)}; suites found: {listed} "
            f"(looked in {where}; --tasks-dir DIR for another folder)"
        )


def find_suite(name: str, tasks_dir: Path | None) -> Path:
    """The task file of suite ``name`` (see :func:`search_dirs`); :class:`UnknownSuite` if none."""
    dirs = search_dirs(tasks_dir)
    for folder in dirs:
        path = suite_file(name, folder)
        if path.is_file():
            return path
    raise UnknownSuite(name, dirs, sorted(available(dirs)))
