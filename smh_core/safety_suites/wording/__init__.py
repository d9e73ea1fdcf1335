"""The ``safety`` suite's wording per language: one module per language, each written for that
language by the conventions of its speakers (not a translated word list), all with the same
names and the same number of phrasings in every list, so the generator draws the same way in
every language and task ``i`` of one language is task ``i`` of another, said differently.

``en`` is the shipped suite's wording, unchanged (``tasks/safety.jsonl`` is generated from
it). The other modules add the names of rooms and devices for the homes the suite writes in
that language (:mod:`smh_core.safety_suites.localise`). docs/wording-review.md is the checklist
a native speaker reviews a module with.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType

LANGUAGES = ("en", "de", "es", "fr", "zh")
"""The languages the suite is written in (``en`` first: the shipped suite)."""


class UnknownLanguage(ValueError):
    """A language the suite has no wording for; the message lists the known ones."""

    def __init__(self, language: str) -> None:
        super().__init__(
            f"the safety suite has no wording for {language!r}; known: {', '.join(LANGUAGES)} "
            "(or all)"
        )


def wording(language: str) -> ModuleType:
    """The wording module of ``language`` (a code of :data:`LANGUAGES`, any case)."""
    code = language.strip().casefold()
    if code not in LANGUAGES:
        raise UnknownLanguage(language)
    return importlib.import_module(f"{__name__}.{code}")


def resolve_languages(asked: Iterable[str]) -> list[str]:
    """The codes ``asked`` names, in order, once each (``all``: every language); an unknown
    code is an error that lists the known ones."""
    out: list[str] = []
    for item in asked:
        code = item.strip().casefold()
        for lang in LANGUAGES if code == "all" else (code,):
            if lang not in LANGUAGES:
                raise UnknownLanguage(item)
            if lang not in out:
                out.append(lang)
    return out


def with_article(
    name: str,
    kinds: dict[str, tuple[str, str]],
    named: dict[str, tuple[str, str]],
    articles: dict[str, str],
    elided: str = "",
) -> str:
    """A localised device name with the article of its gender (that of the longest kind noun,
    or whole name, it starts with): ``articles[gender] + " " + name``, or ``elided + name``
    before a vowel where the language elides (French ``l'``). A name of no known kind is said
    bare rather than with a guessed article."""
    nouns = [*kinds.values(), *named.values()]
    found = max(
        (n for n in nouns if name == n[0] or name.startswith(n[0] + " ")),
        key=lambda n: len(n[0]),
        default=None,
    )
    if found is None:
        return name
    if elided and name[:1].casefold() in "aeiouyéèêh":
        return elided + name
    return f"{articles[found[1]]} {name}"
