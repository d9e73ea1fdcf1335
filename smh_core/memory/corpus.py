"""The memory write corpus (``data/write_corpus.yaml``) and its fixed split into a tuning half
and an untouched half, so the filter's figures on text it was not adjusted on can be reported.

An entry's half follows from its text alone (the first hex digit of its SHA-256: even ->
``tune``, odd -> ``untouched``); nobody picks which entries land where. The untouched half was
measured once (96.3% of secrets refused, 2.8% of memories) and then looked at, so a second set
(``fresh``) was written after the filter's next change; it was measured once (97.4%, 2.0%) and
then looked at too. The third set (``holdout``, ``write_corpus_holdout.yaml``) was written and
committed before the filter's next change, which was made on the first two sets only; it was
measured once (95.6%, 6.4%) and then tuned on too. The fourth set (``holdout2``,
``write_corpus_holdout2.yaml``, in wording apart from the others: texting style, other English
varieties, second-hand reports, lists) was written and committed before the change after that,
which was made on the first three sets only, and measured once afterwards (98.3% of secrets
refused, 0.8% of memories); it is the untouched one, never tuned on. With the fail-closed
access rule of issue 34 (:mod:`.access`, designed on the issue's list and the first three sets)
it gives 99.6% and 2.7%. The fifth set (``holdout3``, ``write_corpus_holdout3.yaml``, 233
secrets and 281 home memories) was written blind and committed before the access rule, and
measured once after it: 206/233 secrets refused (88.4%), 59/281 memories refused (21.0%), both
targets missed; it has been tuned on since, like ``tune``, ``fresh`` and ``holdout``, and gives
233/233 and 0/281 after that tuning (tuning figures, not held-out ones). The same tuning moved
``holdout2`` (never tuned on, its entries not read) to 240/241 and 5/262. The sixth set
(``holdout4``, ``write_corpus_holdout4.yaml``, 222 secrets and 216 home memories) was written
blind in its own worktree after ``holdout3``'s measurement and before that tuning was merged,
and measured once after it: 205/222 secrets refused (92.3%), 44/216 memories refused (20.4%),
both targets missed again (most refusals of memories by the access rule's digits, 26, and the
home-topic check, 11; most missed secrets stored with no rule firing, 16); it has been tuned on
since (222/222 and 6/216, tuning figures). The seventh set (``holdout5``,
``write_corpus_holdout5.yaml``, 324 secrets and 332 home memories) was written blind by a helper
after ``holdout4``'s measurement and before its tuning, and measured once after it: 222/324
secrets refused by the sensitive-data filter (68.5%), 313/332 memories refused by some write rule
(94.3%, 264 of them by the explicit-request rule, which lacks the corpus's languages; the write
rules together stored 11/324 secrets); tuned on since (256/324, 1 stored). The eighth set
(``holdout6``, ``write_corpus_holdout6.yaml``, 274 + 276, mostly English "remember" wording)
was written blind before that tuning and measured once after it: 233/274 secrets refused
(85.0%), 65/276 memories refused (23.6%), 29 secrets stored by the write rules together. Not
tuned on since (252/274, 11 stored). The ninth set (``holdout7``,
``write_corpus_holdout7.yaml``, 281 + 276) was written blind before that tuning and measured once
after it: 241/281 secrets refused (85.8%), 42/276 memories refused (15.2%), 32 secrets stored by
the write rules together; tuned on since (the value grammar, :mod:`.disclosure`). The tenth set
(``holdout8``, ``write_corpus_holdout8.yaml``, 285 + 304) was written blind while that grammar
was written and measured once after it: 262/285 secrets refused (91.9%), 57/304 memories refused
(18.8%), 18 secrets stored by the write rules together; tuned on since. The eleventh set
(``holdout9``, ``write_corpus_holdout9.yaml``, 293 + 292, about a third plain secrets and two
thirds ordinary memories) was written blind while holdout8 was tuned on and measured once after
that tuning: 282/293 secrets refused (96.2%), 24/292 memories refused (8.2%: 11 by the
explicit-request rule, 8 by the sensitive-data filter, 5 as not about the home), 6 secrets stored
by the write rules together (2.0%); tuned on since. The twelfth set (``holdout10``,
``write_corpus_holdout10.yaml``, 297 + 300, every request in plain English) was written blind while
holdout9 was tuned on and measured once after that tuning: 292/297 secrets refused (98.3%, the
target met), 18/300 memories refused (6.0%, all by the sensitive-data filter; target missed), 3
secrets stored by the write rules together (1.0%); tuned on since (13/300 memories refused). The
thirteenth set (``holdout11``, ``write_corpus_holdout11.yaml``, 308 + 319, a third of its memories
about locks, alarms and networks full of numbers that open nothing) was written blind while
holdout10 was tuned on and measured once after that tuning: 303/308 secrets refused (98.4%, the
target met), 38/319 memories refused (11.9%: 32 by the sensitive-data filter; target missed), 2
secrets stored by the write rules together (0.6%); tuned on since (16/319 memories refused). The
fourteenth set (``holdout12``, ``write_corpus_holdout12.yaml``, 303 + 320) was written blind while
holdout11 was tuned on and measured once after that tuning: 295/303 secrets refused (97.4%),
30/320 memories refused (9.4%: 18 by the sensitive-data filter, 11 as not about the home), 8
secrets stored by the write rules together (2.6%); tuned on since (299/303, 18/320). The
fifteenth set (``holdout13``, ``write_corpus_holdout13.yaml``, 304 + 323) was written blind while
holdout12 was tuned on and measured once after that tuning: 298/304 secrets refused (98.0%, the
target met), 35/323 memories refused (10.8%: 16 by the sensitive-data filter, 19 as not about the
home), 5 secrets stored by the write rules together (1.6%); tuned on since (300/304, 28/323: 7 by
the sensitive-data filter).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Literal

import yaml

Half = Literal[
    "tune",
    "untouched",
    "fresh",
    "holdout",
    "holdout2",
    "holdout3",
    "holdout4",
    "holdout5",
    "holdout6",
    "holdout7",
    "holdout8",
    "holdout9",
    "holdout10",
    "holdout11",
    "holdout12",
    "holdout13",
]


def half_of(text: str) -> Half:
    return (
        "tune"
        if int(hashlib.sha256(text.encode("utf-8")).hexdigest()[0], 16) % 2 == 0
        else "untouched"
    )


@dataclass(frozen=True)
class Entry:
    text: str
    secret: bool
    half: Half


def _read(name: str) -> dict[str, list[str]]:
    data: dict[str, list[str]] = yaml.safe_load(
        files(__package__).joinpath(f"data/{name}").read_text(encoding="utf-8")
    )
    return data


@cache
def load_corpus() -> tuple[Entry, ...]:
    """``write_corpus.yaml`` by its hash split, then ``write_corpus_fresh.yaml`` (half ``fresh``:
    written after the filter was adjusted on all of the first file) and
    ``write_corpus_holdout.yaml`` (half ``holdout``: measured once, then tuned on) and
    ``write_corpus_holdout2.yaml`` (half ``holdout2``: never tuned on) and
    ``write_corpus_holdout3.yaml`` (half ``holdout3``: measured once, then tuned on), and so on to
    ``write_corpus_holdout13.yaml`` (half ``holdout13``: measured once)."""
    first = _read("write_corpus.yaml")
    whole_sets: tuple[tuple[str, Half], ...] = (
        ("write_corpus_fresh.yaml", "fresh"),
        ("write_corpus_holdout.yaml", "holdout"),
        ("write_corpus_holdout2.yaml", "holdout2"),
        ("write_corpus_holdout3.yaml", "holdout3"),
        ("write_corpus_holdout4.yaml", "holdout4"),
        ("write_corpus_holdout5.yaml", "holdout5"),
        ("write_corpus_holdout6.yaml", "holdout6"),
        ("write_corpus_holdout7.yaml", "holdout7"),
        ("write_corpus_holdout8.yaml", "holdout8"),
        ("write_corpus_holdout9.yaml", "holdout9"),
        ("write_corpus_holdout10.yaml", "holdout10"),
        ("write_corpus_holdout11.yaml", "holdout11"),
        ("write_corpus_holdout12.yaml", "holdout12"),
        ("write_corpus_holdout13.yaml", "holdout13"),
    )
    return tuple(
        Entry(t, kind == "secrets", half_of(t))
        for kind in ("secrets", "benign")
        for t in first[kind]
    ) + tuple(
        Entry(t, kind == "secrets", half)
        for name, half in whole_sets
        for data in (_read(name),)
        for kind in ("secrets", "benign")
        for t in data[kind]
    )


@dataclass(frozen=True)
class Figures:
    """Refusal counts of one half: secrets refused (by the sensitive-data filter) and benign
    memories refused (by any write rule)."""

    secrets: int
    secrets_refused: int
    benign: int
    benign_refused: int

    def __str__(self) -> str:
        return (
            f"secrets refused {self.secrets_refused}/{self.secrets} "
            f"({100 * self.secrets_refused / max(1, self.secrets):.1f}%), benign refused "
            f"{self.benign_refused}/{self.benign} ({100 * self.benign_refused / max(1, self.benign):.1f}%)"
        )


def measure(half: Half) -> tuple[Figures, list[Entry]]:
    """The write rules (:func:`~.decision.check_write`, the user's words as both request and
    memory) on one half, and the entries they get wrong."""
    from .decision import IDENTIFIER, SECRET, check_write

    entries = [e for e in load_corpus() if e.half == half]
    wrong = []
    for e in entries:
        veto = check_write(e.text, e.text)
        refused = veto is not None and (veto.rule in (SECRET, IDENTIFIER) if e.secret else True)
        if refused != e.secret:
            wrong.append(e)
    secrets = [e for e in entries if e.secret]
    benign = [e for e in entries if not e.secret]
    return Figures(
        len(secrets),
        len(secrets) - sum(e.secret for e in wrong),
        len(benign),
        sum(not e.secret for e in wrong),
    ), wrong
