"""Every suite's words in every language it is written in, apart from the generators.

One package per suite (``safety``, ``sage``, ``simuhome``...), each with a module per language
(``en`` holds the shipped English wording as it was), and ``names``: the rooms and devices of a
home named the way a household speaking the language names them, shared by every suite. The
generators (:mod:`smh_core.suites`, :mod:`smh_core.safety_suites`) draw the same way in every
language and take their sentences from here, so a native speaker reviews a language's wording in
one place (docs/wording-review.md) without reading the draw logic, and the generators' code does
not grow with each language.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType

LANGUAGES = ("en", "de", "es", "fr", "zh")
"""The languages the suites are written in (``en`` first: the shipped suites)."""


class UnknownLanguage(ValueError):
    """A language a suite has no wording for; the message lists the known ones."""

    def __init__(self, suite: str, language: str) -> None:
        super().__init__(
            f"the {suite} suite has no wording for {language!r}; known: {', '.join(LANGUAGES)} "
            "(or all)"
        )


def wording_module(package: str, suite: str, language: str) -> ModuleType:
    """The module of ``language`` (a code of :data:`LANGUAGES`, any case) in the wording package
    ``package`` of ``suite``."""
    code = language.strip().casefold()
    if code not in LANGUAGES:
        raise UnknownLanguage(suite, language)
    return importlib.import_module(f"{package}.{code}")


def resolve_languages_of(suite: str, asked: Iterable[str]) -> list[str]:
    """The codes ``asked`` names, in order, once each (``all``: every language); an unknown
    code is an error that lists the known ones."""
    out: list[str] = []
    for item in asked:
        code = item.strip().casefold()
        for lang in LANGUAGES if code == "all" else (code,):
            if lang not in LANGUAGES:
                raise UnknownLanguage(suite, item)
            if lang not in out:
                out.append(lang)
    return out
