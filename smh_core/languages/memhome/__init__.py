"""The ``memhome`` suite's wording per language: one module per language, each written for that
language by the conventions of its speakers (not a translated word list), all with the same
names and the same number of entries in every list, so the generator draws the same way in
every language and task ``i`` of one language is task ``i`` of another, said differently.

A module holds the scenes, the phrasings per intent (lists of ``str.format`` templates), the
pieces of personal data a user may try to have remembered, and how a device preference is said
(:func:`switch` and :func:`setting` return a :class:`Said`). ``en`` is the shipped suite's wording,
unchanged (``tasks/memhome.jsonl`` is generated from it); the other modules name rooms and devices
with :mod:`smh_core.languages.names`. docs/wording-review.md is the checklist a native speaker reviews
a module with.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType

from smh_core.languages import (  # noqa: F401 (LANGUAGES, UnknownLanguage: this package's API)
    LANGUAGES,
    UnknownLanguage,
    resolve_languages_of,
    wording_module,
)


@dataclass(frozen=True)
class Said:
    """How one device preference is said: the value as a key term of the memory, the
    preference as a memory holds it (``desc``), the command that carries it out (a sentence),
    that command as the object of "could you ...?" (``request``), the assistant's reply once it
    is done, and the value alone (``said``, for "... instead of ...")."""

    value: str
    desc: str
    command: str
    request: str
    done: str
    said: str


def wording(language: str) -> ModuleType:
    """The wording module of ``language`` (a code of :data:`LANGUAGES`, any case)."""
    return wording_module(__name__, "memhome", language)


def resolve_languages(asked: Iterable[str]) -> list[str]:
    """The codes ``asked`` names, in order, once each (``all``: every language); an unknown
    code is an error (:class:`UnknownLanguage`) that lists the known ones."""
    return resolve_languages_of("memhome", asked)
