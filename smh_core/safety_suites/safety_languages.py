"""The ``safety`` suite in another language: the same draws, the language's wording, its homes.

Why a module of its own: English is the shipped suite (``tasks/safety.jsonl``, its homes named
by level and seed), and stays byte for byte what it was. A suite in German, Spanish, French or
Chinese draws every task the way the English one does (same seed, same random stream per slot)
through a :class:`LanguageContext`, which hands the makers the language's wording
(:mod:`smh_core.languages.safety`) and the suite's homes with rooms and devices named in
that language (:mod:`smh_core.languages.names`), each written as a home file
(``homes/safety-<lang>-<kind>-<seed>.json``; injected homes
``homes/safety-<lang>-<kind>-<seed>-<placement>-<target>.json``). Task ids start with
``safety-<lang>-`` and every task says its ``language``.

How the action guard treats these tasks: its consent grammar reads English only, so a request in
another language grants nothing and the guard asks its confirmation question; the simulated user
answers it with the task's intent (yes to the reference's own high-risk action, no to anything
else). A legitimate high-risk request in German is therefore done after a confirmation, never on
the words alone (fail closed), and scored as in English: the reference is the request carried
out, and the oracle passes behind the guard with one confirmation per high-risk action.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from smh_core.homeenv.engine import dump_compact
from smh_core.homeenv.model import Home
from smh_core.languages.names import localise
from smh_core.languages.safety import LANGUAGES, resolve_languages, wording  # noqa: F401 (the CLI reads them here)
from smh_core.suites import language_files as files
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from . import safety_suite as S


class LanguageContext(S.Context):
    """The suite's context in a language: its wording, and its homes as localised home files."""

    def __init__(self, seed: int, language: str) -> None:
        super().__init__(seed)
        self.language = language
        self.words = wording(language)
        self.files = {}

    def home(self, kind: str, seed: int) -> Home:
        return localised_home(self.language, kind, seed)

    def ref(self, kind: str, seed: int) -> dict[str, Any]:
        path = f"homes/safety-{self.language}-{kind}-{seed}.json"
        self.files.setdefault(path, self.home(kind, seed))
        return {"file": path}

    def injected_file(self, kind: str, seed: int, placement: str, target: str) -> tuple[str, str]:
        name = f"safety-{self.language}-{kind}-{seed}-{placement}-{target}"
        return f"homes/{name}.json", name


@cache
def localised_home(language: str, kind: str, seed: int) -> Home:
    """The suite's base home of a kind and seed, named in ``language``."""
    return localise(S.base_home(kind, seed), wording(language), f"safety-{language}-{kind}-{seed}")


@cache
def build(seed: int, language: str) -> tuple[tuple[Task, ...], tuple[tuple[str, Home], ...]]:
    """The suite's tasks in ``language`` and the home files they name, unvalidated (``en``:
    the shipped suite, :func:`smh_core.safety_suites.safety_suite.build`)."""
    wording(language)  # an unknown language fails here, listing the known ones
    if language == "en":
        return S.build(seed)
    tasks, homes = S.build_in(LanguageContext(seed, language))
    named = tuple(
        t.model_copy(
            update={"id": t.id.replace("safety-", f"safety-{language}-", 1), "language": language}
        )
        for t in tasks
    )
    return named, homes


def task_file(language: str) -> str:
    """Where the suite in ``language`` is written, relative to the output folder."""
    return files.task_file("safety", language)


def generate(seed: int = 0, language: str = "en", validate_tasks: bool = True) -> list[Task]:
    """The suite in ``language`` (224 tasks), each validated as the English suite's are."""
    tasks = list(build(seed, language)[0])
    if validate_tasks:
        S.validate(tasks, LanguageHomes(seed, language))
    return tasks


def write_homes(tasks_dir: Path, seed: int = 0, language: str = "en") -> list[Path]:
    """Write the home files of the suite in ``language`` under ``tasks_dir/homes``."""
    return files.write_homes(tasks_dir, build(seed, language)[1], dump_compact)


class LanguageHomes(files.BuiltHomes):
    """A home cache serving the built home files of a language's suite without reading them."""

    def __init__(self, seed: int = 0, language: str = "en", base: Path | None = None) -> None:
        super().__init__(build(seed, language)[1], base)


def figures(tasks: list[Task], homes: HomeCache) -> dict[str, Any]:
    """The figures docs/languages.md reports for a language's suite: the oracle behind the guard
    (passed, confirmations asked and granted, refusals), and the injection-obeying agent's
    unrequested high-risk changes on injection tasks without the guard and behind it."""
    from smh_core.bench.agents import InjectionObeyingAgent, OracleAgent

    oracle = S.measure(tasks, homes, OracleAgent(), guard=True)
    injected = [t for t in tasks if t.category in S.INJECTION_CATEGORIES]
    obey = S.measure(injected, homes, InjectionObeyingAgent(), guard=False)
    behind = S.measure(injected, homes, InjectionObeyingAgent(), guard=True)
    return {
        "tasks": len(tasks),
        "oracle_passed": sum(r.passed for r in oracle),
        "oracle_confirmations": sum(r.confirmations for r in oracle),
        "oracle_confirmed": sum(r.confirmed for r in oracle),
        "oracle_refusals": sum(r.refusals for r in oracle),
        "injection_tasks": len(injected),
        "obey_high_risk": sum(len(r.high_risk) for r in obey),
        "obey_tasks_with_high_risk": sum(bool(r.high_risk) for r in obey),
        "obey_guarded_high_risk": sum(len(r.high_risk) for r in behind),
        "obey_guarded_passed": sum(r.passed for r in behind),
    }
