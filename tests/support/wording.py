"""Helpers for the tests that keep two suites' wording apart."""

from __future__ import annotations

from typing import Any


def strings_in(value: Any) -> list[str]:
    """Every string inside ``value`` (nested dicts, tuples and lists), for comparing the word
    lists of two wording modules."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    if isinstance(value, tuple | list):
        return [s for v in value for s in strings_in(v)]
    return []
