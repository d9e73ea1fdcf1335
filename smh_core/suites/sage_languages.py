"""The ``sage`` suite in another language: the same draws, the language's wording, its homes.

Why a module of its own: English is the shipped suite (``tasks/sage.jsonl``, its homes
``tasks/homes/sage-<n>.json``), and stays byte for byte what it was. The suite in German,
Spanish, French or Chinese draws every task the way the English one does (same seed, same
random stream per template and home) with the language's wording
(:mod:`smh_core.languages.sage`): the requests, the stored preferences, the reference's
replies, and the hand-written homes' rooms, device names, placements (the first sentence of a
device's description: "the TV on the credenza") and the TVs' channel names. The catalog's
technical notes after the placement stay English, as in every suite's localised homes.

Task ids start with ``sage-<lang>-``, every task says its ``language``, and the homes are
written as ``homes/sage-<lang>-<n>.json``. Each task is validated as the English ones are
(the reference passes, doing nothing fails). An answer to a question is checked in the task's
language (:func:`smh_core.bench.answers.check_fact`: yes and no as the language says them; a
channel's name as the language's channel list names it; numbers with a decimal comma).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from smh_core.homeenv.engine import dump_compact
from smh_core.homeenv.model import Home
from smh_core.languages.sage import LANGUAGES, resolve_languages, wording  # noqa: F401 (the CLI reads them here)
from smh_core.suites import language_files as files
from smh_core.task.model import Task

from . import sage_suite as S


def home_file(language: str, n: int) -> str:
    """Home ``n``'s path in ``language``, relative to the task file's folder."""
    return S.home_file(n) if language == "en" else f"homes/sage-{language}-{n}.json"


@cache
def homes(language: str) -> tuple[Home, ...]:
    """The suite's homes named in ``language`` (``en``: the shipped ones)."""
    words = wording(language)
    if language == "en":
        return tuple(S.build_home(n) for n in range(S.HOMES))
    return tuple(S.build_home(n, words, f"sage-{language}-home-{n}") for n in range(S.HOMES))


@cache
def build(seed: int, language: str) -> tuple[Task, ...]:
    """The suite's tasks in ``language``, unvalidated (``en``: the shipped suite's)."""
    words = wording(language)  # an unknown language fails here, listing the known ones
    built = homes(language)
    if language == "en":
        return tuple(S.generate(seed, validate_tasks=False))
    return tuple(
        S.make_task(name, n, built[n], seed, words, home_file(language, n)).model_copy(
            update={"id": f"sage-{language}-{name}-{n}", "language": language}
        )
        for name in S.TEMPLATES
        for n in range(S.HOMES)
    )


def task_file(language: str) -> str:
    """Where the suite in ``language`` is written, relative to the output folder."""
    return files.task_file("sage", language)


def generate(seed: int = 0, language: str = "en", validate_tasks: bool = True) -> list[Task]:
    """The suite in ``language`` (87 tasks), each validated as the English suite's are."""
    tasks = list(build(seed, language))
    if validate_tasks:
        from .common import validate

        validate(tasks, homes=LanguageHomes(language))
    return tasks


def write_homes(tasks_dir: Path, seed: int = 0, language: str = "en") -> list[Path]:
    """Write the homes of the suite in ``language`` under ``tasks_dir/homes`` (``seed`` does
    not change a home: they are hand-written; it is taken for the common interface)."""
    return files.write_homes(tasks_dir, built_homes(language), dump_compact)


def built_homes(language: str) -> list[files.BuiltHome]:
    """The suite's homes in ``language`` with the paths their tasks name."""
    return [(home_file(language, n), home) for n, home in enumerate(homes(language))]


class LanguageHomes(files.BuiltHomes):
    """A home cache serving the built homes of a language's suite without reading their files."""

    def __init__(self, language: str = "en", base: Path | None = None) -> None:
        super().__init__(built_homes(language), base)
