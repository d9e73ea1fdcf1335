"""The ``smh`` suite's wording per language: one module per language, each written for that
language by the conventions of its speakers (not a translated word list).

Every module offers the same names: the request templates (lists of the same length in every
language, so the generator draws the same way and task ``i`` of one language is task ``i`` of
another, said differently), the language's words for attributes, values and kinds of device, and
the few grammar helpers its templates need (a device's name with its article, "of the device").
``en`` reproduces the shipped suite's wording byte for byte (``tasks/smh.jsonl``).

Every subcategory is written in every language (issue 41, item 3), the ambiguous-intent ones
with the question the agent should ask and the simulated user's reply.
docs/wording-review.md is the checklist a native speaker reviews a module with.
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
    return wording_module(__name__, "smh", language)


def resolve_languages(asked: Iterable[str]) -> list[str]:
    """The codes ``asked`` names, in order, once each (``all``: every language); an unknown
    code is an error (:class:`UnknownLanguage`) that lists the known ones."""
    return resolve_languages_of("smh", asked)
