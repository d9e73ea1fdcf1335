"""The ``simuhome`` suite's wording per language: one module per language, written for that
language by the conventions of its speakers (not a translated word list), all with the same
names and the same number of phrasings in every list, so the generator draws the same way in
every language and task ``i`` of one language is task ``i`` of another, said differently.

``en`` is the shipped suite's wording, unchanged (``tasks/simuhome.jsonl`` is generated from
it). The other modules name rooms and devices by :mod:`smh_core.languages.names`, so a Matter home
is named as in the other suites of the language. docs/wording-review.md is the checklist a
native speaker reviews a module with.
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
    return wording_module(__name__, "simuhome", language)


def resolve_languages(asked: Iterable[str]) -> list[str]:
    """The codes ``asked`` names, in order, once each (``all``: every language); an unknown
    code is an error (:class:`UnknownLanguage`) that lists the known ones."""
    return resolve_languages_of("simuhome", asked)


def forms_named(rooms: dict[str, tuple[tuple[str, str, str], ...]], name: str) -> dict[str, str]:
    """The forms of a localised room called ``name`` a sentence takes: ``room`` (the name),
    ``room_of`` and ``room_in`` (:mod:`smh_core.languages.names`); a name no table gives is an
    error, never an English room left in a sentence."""
    from smh_core.languages.names import room_forms_of

    for names in rooms.values():
        for k in range(len(names) + 8):
            forms = room_forms_of(names, k)
            if forms[0] == name:
                return {"room": forms[0], "room_of": forms[1], "room_in": forms[2]}
    raise LookupError(f"no room called {name!r} in the language's room names")
