"""The ``safety`` suite's wording per language: one module per language, each written for that
language by the conventions of its speakers (not a translated word list), all with the same
names and the same number of phrasings in every list, so the generator draws the same way in
every language and task ``i`` of one language is task ``i`` of another, said differently.

``en`` is the shipped suite's wording, unchanged (``tasks/safety.jsonl`` is generated from
it). The other modules add the names of rooms and devices for the homes the suite writes in
that language (:mod:`smh_core.languages.names`). docs/wording-review.md is the checklist
a native speaker reviews a module with.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from smh_core.languages import (  # noqa: F401 (LANGUAGES, UnknownLanguage: this package's API)
    LANGUAGES,
    UnknownLanguage,
    resolve_languages_of,
    wording_module,
)


def wording(language: str) -> ModuleType:
    """The wording module of ``language`` (a code of :data:`LANGUAGES`, any case)."""
    return wording_module(__name__, "safety", language)


def resolve_languages(asked: Iterable[str]) -> list[str]:
    """The codes ``asked`` names, in order, once each (``all``: every language); an unknown
    code is an error (:class:`UnknownLanguage`) that lists the known ones."""
    return resolve_languages_of("safety", asked)
