"""The ``simuhome`` suite in another language: the same draws, the language's wording, its homes.

Why a module of its own: English is the shipped suite (``tasks/simuhome.jsonl``, on generated
Matter homes referred to by seed), and stays byte for byte what it was. A suite in German,
Spanish, French or Chinese draws every task the way the English one does (same seed, same random
stream per slot, :func:`smh_core.suites.simuhome_suite.draw`) with the language's wording
(:mod:`smh_core.languages.simuhome`) on the same Matter homes with rooms and devices named in
that language (:mod:`smh_core.languages.names`: ``Luftreiniger 1`` im ``Bad``), each written as a
home file ``homes/simuhome-<lang>-matter-<seed>.json``. Task ids start with ``simuhome-<lang>-``
and every task says its ``language``.

How the tasks are judged in the language: feasible tasks on the simulated state (nothing to
read); QT1's answer by the number in the reply (a decimal comma reads as a point); an
infeasible request's reply must decline, read by the refusal words of the task's language
(:mod:`smh_core.bench.refusals`) as English replies are by English ones. No SimuHome task
acts on a high-risk device, so the action guard never asks here.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from smh_core.homeenv.engine import dump_compact
from smh_core.homeenv.model import Home
from smh_core.homes.simulated import generate_matter_home
from smh_core.languages.names import localise, names
from smh_core.languages.simuhome import LANGUAGES, resolve_languages, wording  # noqa: F401 (the CLI reads them here)
from smh_core.suites import language_files as files
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from . import simuhome_suite as S


def home_file(language: str, seed: int) -> str:
    """Where the Matter home of ``seed`` named in ``language`` is written (under the task file's
    folder)."""
    return f"homes/simuhome-{language}-matter-{seed}.json"


@cache
def localised_home(language: str, seed: int) -> Home:
    """The suite's Matter home of ``seed``, its rooms and devices named in ``language``."""
    return localise(
        generate_matter_home(seed), names(language), f"simuhome-{language}-matter-{seed}"
    )


@cache
def build(seed: int, language: str) -> tuple[tuple[Task, ...], tuple[tuple[str, Home], ...]]:
    """The suite's tasks in ``language`` and the home files they name, unvalidated (``en``: the
    shipped suite on generated homes, no files)."""
    w = wording(language)  # an unknown language fails here, listing the known ones
    if language == "en":
        return tuple(S.generate(seed, validate_tasks=False)), ()
    tasks = S.draw(
        seed,
        S.PER_VARIANT,
        w,
        lambda s: localised_home(language, s),
        lambda s: {"file": home_file(language, s)},
    )
    named = tuple(
        t.model_copy(
            update={
                "id": t.id.replace("simuhome-", f"simuhome-{language}-", 1),
                "language": language,
            }
        )
        for t in tasks
    )
    used = sorted({t.home.file for t in named if t.home.file})
    seeds = {home_file(language, s): s for s in range(S.HOMES)}
    return named, tuple((path, localised_home(language, seeds[path])) for path in used)


def task_file(language: str) -> str:
    """Where the suite in ``language`` is written, relative to the output folder."""
    return files.task_file("simuhome", language)


def generate(seed: int = 0, language: str = "en", validate_tasks: bool = True) -> list[Task]:
    """The suite in ``language`` (600 tasks), each validated as the English suite's are (the
    reference passes, doing nothing fails)."""
    tasks = list(build(seed, language)[0])
    if validate_tasks:
        from .common import validate

        validate(tasks, LanguageHomes(seed, language))
    return tasks


def write_homes(tasks_dir: Path, seed: int = 0, language: str = "en") -> list[Path]:
    """Write the home files of the suite in ``language`` under ``tasks_dir/homes`` (English:
    none, its tasks name generated homes by seed)."""
    return files.write_homes(tasks_dir, build(seed, language)[1], dump_compact)


class LanguageHomes(files.BuiltHomes):
    """A home cache serving the built home files of a language's suite without reading them."""

    def __init__(self, seed: int = 0, language: str = "en", base: Path | None = None) -> None:
        super().__init__(build(seed, language)[1], base)


def figures(tasks: list[Task], homes: HomeCache) -> dict[str, int]:
    """The figures docs/languages.md reports for the suite in a language
    (:func:`~smh_core.suites.language_files.reference_figures`)."""
    return files.reference_figures(tasks, homes)
