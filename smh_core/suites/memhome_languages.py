"""The ``memhome`` suite in another language: the same draws, the language's wording, its homes.

Why a module of its own: English is the shipped suite (``tasks/memhome.jsonl``, its homes named
by level and seed) and stays byte for byte what it was. The suite in German, Spanish, French or
Chinese draws every task the way the English one does (same seed, same random stream per task,
same home, device and values) with the language's wording (:mod:`smh_core.languages.memhome`) on the
suite's generated homes with rooms and devices named in that language (:mod:`smh_core.languages.names`), each
written as a home file (``homes/memhome-<lang>-<level>-<seed>.json``). Task ids start with
``memhome-<lang>-`` and every task says its ``language``.

What is compared as text, and how: a memory write is judged by
:func:`smh_core.bench.verifier.bank_problems` on tokens (:func:`smh_core.memory.metrics.tokenize`:
words, and each Chinese character on its own), with the key terms (scene, device name, value) in
the language the memory is written in; entries kept from before must survive verbatim. An update
replaces the stored entry when both name the same device words
(:data:`smh_core.memory.decision._SUBJECT`, which reads these languages' device words too).

A memory may name a device without its room (``den Einbauspot``, the entry room says which one)
exactly where the English one may: the English home decides (:func:`memhome_suite.english_scope`)
and the short name is the language's noun for that kind of device.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from smh_core.homeenv.engine import HomeEngine, dump_compact
from smh_core.homeenv.model import Home
from smh_core.homes.generator import generate_home
from smh_core.languages.memhome import LANGUAGES, resolve_languages, wording  # noqa: F401 (the CLI reads them)
from smh_core.languages.names import localise, names
from smh_core.suites import language_files as files
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from . import memhome_suite as M
from .common import HOMES_PER_LEVEL, validate


def home_file(language: str, level: str, seed: int) -> str:
    """The home file of a generated home in ``language``, relative to the tasks folder."""
    return f"homes/memhome-{language}-{level}-{seed}.json"


@cache
def english_home(level: str, seed: int) -> Home:
    """The suite's generated home of a level and seed, as English names it."""
    return generate_home(level, seed)  # type: ignore[arg-type]


@cache
def localised_home(language: str, level: str, seed: int) -> Home:
    """The suite's generated home of a level and seed, named in ``language``."""
    return localise(
        english_home(level, seed), names(language), f"memhome-{language}-{level}-{seed}"
    )


def _homes(language: str) -> dict[tuple[str, int], Home]:
    """The draw loop's home cache, filled with the language's homes (copies: a draw may not
    change the cached ones)."""
    return {
        (level, seed): localised_home(language, level, seed).model_copy(deep=True)
        for level, _ in M.SPLIT
        for seed in range(HOMES_PER_LEVEL)
    }


def _english(language: str) -> dict[str, Home]:
    """The English home of each of the language's homes, by the localised home's name."""
    return {
        localised_home(language, level, seed).name: english_home(level, seed)
        for level, _ in M.SPLIT
        for seed in range(HOMES_PER_LEVEL)
    }


def _scope(language: str) -> M.Scope:
    """Where a memory may leave a device's room out in ``language``: where the English home
    allows it, with the language's noun for the kind of device as the short name."""
    kinds = names(language).KINDS
    english = _english(language)

    def scope(engine: HomeEngine, did: str, name: str) -> tuple[str, str] | None:
        home = HomeEngine(english[engine.home.name])
        found = M.english_scope(home, did, home.device(did).name)
        if found is None or found[0] not in kinds:
            return None
        noun = kinds[found[0]][0]
        if sum(v[0] == noun for v in kinds.values()) != 1:  # two kinds, one noun: ambiguous
            return None
        return noun, engine.room(engine.device(did).userdata.room).name

    return scope


def _draw(language: str) -> M.Draw:
    """The draw of a task in ``language``: the English draw's twin, from the same random
    stream, kept exactly when the English one is (so task ``i`` is the same task in every
    language, whichever bank rule held in English). A twin that consumed the stream
    differently is a wording module out of shape: an error."""
    words, scope, english = wording(language), _scope(language), _english(language)

    def draw(sub: str, home: Home, rng: random.Random, idx: int) -> M.Made | None:
        twin = random.Random()
        twin.setstate(rng.getstate())
        kept = M.consistent_draw(sub, english[home.name].model_copy(deep=True), twin, idx)
        made = M.consistent_draw(sub, home, rng, idx, words, scope)
        if twin.getstate() != rng.getstate():
            raise RuntimeError(f"memhome {language}/{sub}/{idx}: drawn unlike the English task")
        return made if kept is not None else None

    return draw


@cache
def build(seed: int, language: str) -> tuple[tuple[Task, ...], tuple[tuple[str, Home], ...]]:
    """The suite's tasks in ``language`` and the home files they name, unvalidated (``en``: the
    shipped suite, on generated homes, no files)."""
    wording(language)  # an unknown language fails here, listing the known ones
    if language == "en":
        return tuple(M.build(seed)), ()
    tasks = M.build(
        seed,
        _draw(language),
        _homes(language),
        lambda level, home_seed: {"file": home_file(language, level, home_seed)},
        f"memhome-{language}",
    )
    named = tuple(t.model_copy(update={"language": language}) for t in tasks)
    used = sorted({t.home.file for t in named if t.home.file})
    files = []
    for path in used:
        level, home_seed = path.removesuffix(".json").rsplit("-", 2)[1:]
        files.append((path, localised_home(language, level, int(home_seed))))
    return named, tuple(files)


def task_file(language: str) -> str:
    """Where the suite in ``language`` is written, relative to the output folder."""
    return files.task_file("memhome", language)


def generate(seed: int = 0, language: str = "en", validate_tasks: bool = True) -> list[Task]:
    """The suite in ``language`` (420 tasks), each validated as the English suite's are."""
    tasks = list(build(seed, language)[0])
    if validate_tasks:
        validate(tasks, LanguageHomes(seed, language))
    return tasks


def write_homes(tasks_dir: Path, seed: int = 0, language: str = "en") -> list[Path]:
    """Write the home files of the suite in ``language`` under ``tasks_dir/homes`` (none for
    English, whose tasks name generated homes)."""
    return files.write_homes(tasks_dir, build(seed, language)[1], dump_compact)


class LanguageHomes(files.BuiltHomes):
    """A home cache serving the built home files of a language's suite without reading them."""

    def __init__(self, seed: int = 0, language: str = "en", base: Path | None = None) -> None:
        super().__init__(build(seed, language)[1], base)


def figures(tasks: list[Task], homes: HomeCache) -> dict[str, int]:
    """The figures docs/languages.md reports for the suite in a language
    (:func:`~smh_core.suites.language_files.reference_figures`)."""
    return files.reference_figures(tasks, homes)
