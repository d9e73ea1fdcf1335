"""The ``sage`` suite's wording per language: one module per language, each written for that
language by the conventions of its speakers (not a translated word list): the requests, the
reference's replies, the stored preferences (memories), and the hand-written homes' rooms,
device names, placements and channel names. Every module has the same names and as many
phrasings in every list as :mod:`.en`, so the generator draws the same way in every language and
task ``i`` of one language is task ``i`` of another, said differently.

``en`` is the shipped suite's wording (``tasks/sage.jsonl`` and ``tasks/homes/sage-<n>.json``
are generated from it, byte for byte). docs/wording-review.md is the checklist a native speaker
reviews a module with.
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
            f"the sage suite has no wording for {language!r}; known: {', '.join(LANGUAGES)} "
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
