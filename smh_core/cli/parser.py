"""The ``smh`` argument parser: argparse, with the mistakes a newcomer makes answered where
they were made.

Plain argparse reports an unknown flag of ``smh bench run`` with the top-level usage
(``usage: smh [-h] [--version] COMMAND ...``), which says nothing about the flags ``bench run``
takes, and it never suggests the flag or value that was meant. Here an unknown flag is reported
by the subcommand it was given to, naming it and, when one is close, the
flag that was probably meant (``--agnet`` -> ``--agent``); an invalid choice
(``--agent opnai``) gets the same kind of suggestion. A usage error is one line, ending with
where the full usage is (``--help``), and exits with status 2, as argparse's do.
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

_INVALID_CHOICE = re.compile(r"invalid choice: '(?P<value>[^']*)' \(choose from (?P<choices>.*)\)$")


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` most probably meant (difflib's ratio >= 0.6), or ``None``."""
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the closest candidate, or an empty string."""
    guess = closest(word, candidates)
    return f" (did you mean {guess!r}?)" if guess else ""


class SmhParser(argparse.ArgumentParser):
    """An ArgumentParser whose subparsers report their own unknown flags, with suggestions.

    Every parser made through :meth:`add_subparsers` is of this class too (argparse creates
    subparsers with the parent's class), so the whole command tree behaves the same."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._chosen: list[SmhParser] = []  # the parsers a parse went through, outermost first

    def parse_known_args(
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        chosen = getattr(namespace, "_smh_chosen", None)
        if chosen is None:  # the outermost call: start the record of which subparsers ran
            chosen = []
            namespace = namespace or argparse.Namespace()
            namespace._smh_chosen = chosen
        chosen.append(self)
        return super().parse_known_args(args, namespace)

    def parse_args(
        self,
        args: Sequence[str] | None = None,  # type: ignore[override]
        namespace: argparse.Namespace | None = None,
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        chosen: list[SmhParser] = parsed.__dict__.pop("_smh_chosen", [self])
        if extras:
            innermost = chosen[-1]
            flags = [f for f in extras if f.startswith("-")]
            hint = did_you_mean(flags[0].split("=", 1)[0], innermost.flags()) if flags else ""
            innermost.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
        return parsed

    def flags(self) -> list[str]:
        """Every option string this parser takes (``--agent``, ``-h`` ...)."""
        return [s for action in self._actions for s in action.option_strings]

    def error(self, message: str) -> NoReturn:
        """One line (exit 2): the error, a suggestion for a mistyped choice (Python 3.14's
        ``suggest_on_error`` adds its own; this adds one only where none is) and where the full
        usage is. argparse's usage block (23 lines for ``bench run``) came before the line that
        mattered; it is under ``--help``."""
        match = _INVALID_CHOICE.search(message)
        if match and "maybe you meant" not in message:
            choices = [c.strip().strip("'") for c in match["choices"].split(",")]
            message += did_you_mean(match["value"], choices)
        self.exit(2, f"{self.prog}: error: {message}; '{self.prog} --help' lists every option\n")
