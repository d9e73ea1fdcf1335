"""Every suite's words in every language it is written in, apart from the generators.

One package per suite (``safety``, ``sage``, ``simuhome``...), each with a module per language
(``en`` holds the shipped English wording as it was), and ``names``: the rooms and devices of a
home named the way a household speaking the language names them, shared by every suite. The
generators (:mod:`smh_core.suites`, :mod:`smh_core.safety_suites`) draw the same way in every
language and take their sentences from here, so a native speaker reviews a language's wording in
one place (docs/wording-review.md) without reading the draw logic, and the generators' code does
not grow with each language.
"""
