"""Words the memory filter reads before its patterns: numbers said in words, and credential
words of other languages or with one typing slip read as the English word.

Why a module of their own: the sensitive-data filter (:mod:`.sensitive`) and the fail-closed
access rule (:mod:`.access`) both read them, and the filter also asks the access rule; keeping
the shared words here keeps the imports one way (words <- access <- sensitive).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import yaml

_I = re.IGNORECASE

# --- numbers said in words --------------------------------------------------------------------

_DIGIT_WORDS = {
    "zero": "0",
    "oh": "0",
    "o": "0",
    "nought": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
}
_TEENS_TENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_WORD = re.compile(
    r"(?<![A-Za-z])(?:double|triple|"
    + "|".join(sorted({*_DIGIT_WORDS, *_TEENS_TENS, *_SCALES}, key=len, reverse=True))
    + r")(?![A-Za-z])",
    _I,
)


# --- credential words in other languages and mistyped -----------------------------------------

_FUZZY_TARGETS = ("password", "passcode", "passphrase", "combination", "keypad")
"""Credential words long enough (6+ letters) that one slip of the keyboard still names them and
nothing else: "pasword", "passwrod", "combinaton", "keypda"."""
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_]+(?:['’\-][^\W\d_]+)*")


def _one_edit(word: str) -> set[str]:
    """Every string one deletion, transposition, substitution or insertion away from ``word``."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return (
        {a + b[1:] for a, b in splits if b}
        | {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
        | {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
        | {a + c + b for a, b in splits for c in _LETTERS}
    )


def _fold_accents(text: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )


@dataclass(frozen=True)
class _Lexicon:
    """``data/credential_words.yaml`` compiled."""

    translations: re.Pattern[str]  # every translation, with and without accents
    english: dict[str, str]  # a translation (lower case, single spaces) -> its English word
    typos: dict[str, str]  # a mistyping of one of _FUZZY_TARGETS -> that word
    suffixes: tuple[tuple[str, str], ...]  # (compound ending, English word)
    not_compounds: frozenset[str]  # English words with such an ending


@cache
def _lexicon() -> _Lexicon:
    data = yaml.safe_load(
        files(__package__).joinpath("data/credential_words.yaml").read_text(encoding="utf-8")
    )
    english: dict[str, str] = {}
    for canonical in ("password", "code", "pin", "combination", "keypad"):
        for word in data[canonical]:
            for form in {word.lower(), _fold_accents(word.lower())}:
                english[form] = canonical
    phrases = sorted(english, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![^\W_])(?:"
        + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in phrases)
        + r")(?![^\W_])",
        re.I,
    )
    typos = {
        variant: target
        for target in _FUZZY_TARGETS
        for variant in _one_edit(target)
        if variant != target and variant.rstrip("s") != target
    }
    suffixes = tuple(
        (suffix, canonical)
        for canonical, ends in data["compound_suffixes"].items()
        for suffix in ends
    )
    return _Lexicon(pattern, english, typos, suffixes, frozenset(data["not_compounds"]))


def _credential_word(word: str) -> str | None:
    """The English credential word a single word stands for (a mistyping, or a compound such as
    "Türcode"), or ``None``."""
    lexicon = _lexicon()
    low = word.lower()
    if len(low) >= 6 and low in lexicon.typos:
        return lexicon.typos[low]
    if low in lexicon.not_compounds or low.startswith(("pass", "key")):
        return None
    for suffix, canonical in lexicon.suffixes:
        if low.endswith(suffix) and len(low) > len(suffix) + 1:
            return canonical
    return None


def _replace(
    text: str, spans: list[tuple[int, int, str]], spread: bool = False
) -> tuple[str, list[int]]:
    """``text`` with each (start, end) span replaced, and for each character of the result the
    index of the character it came from. ``spread``: the new characters point at places spread
    from the first replaced character to the last (the digits of "null eins fünf eins" cover
    every word, so a finding over all of them covers, and redaction hides, all the words);
    otherwise at the replaced characters one by one."""
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for start, end, new in sorted(spans):
        if start < pos or (spread and not new):
            continue
        out.append(text[pos:start])
        where.extend(range(pos, start))
        out.append(new)
        if spread:
            last = max(len(new) - 1, 1)
            where.extend(start + (k * (end - 1 - start)) // last for k in range(len(new)))
        else:
            where.extend(min(start + k, end - 1) for k in range(len(new)))
        pos = end
    out.append(text[pos:])
    where.extend(range(pos, len(text)))
    return "".join(out), where


def english_credential_words(text: str) -> tuple[str, list[int]]:
    """``text`` with credential words of other languages ("Passwort", "contraseña", "mot de
    passe", "Türcode") and mistyped ones ("pasword") written as the English word, and a map of
    positions back into ``text`` (as :func:`spell_out_digits`)."""
    lexicon = _lexicon()
    spans = []
    for m in lexicon.translations.finditer(text):
        said = re.sub(r"\s+", " ", m.group(0).lower())
        canonical = lexicon.english.get(said) or lexicon.english.get(_fold_accents(said))
        if canonical:  # None only where case-insensitive matching and lower() disagree ("İ")
            spans.append((m.start(), m.end(), canonical))
    taken = bytearray(len(text))
    for a, b, _ in spans:
        taken[a:b] = b"\x01" * (b - a)
    for m in _WORD.finditer(text):
        if any(taken[m.start() : m.end()]):
            continue
        canonical = _credential_word(m.group(0))
        if canonical:
            spans.append((m.start(), m.end(), canonical))
    return _replace(text, spans) if spans else (text, list(range(len(text))))
