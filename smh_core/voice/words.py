"""Text as a sequence of spoken words: what the recognizer's language model is built from and
what the word error rate compares.

Numbers are the trap: a task says "Set it to 22%", the speaker says "twenty two percent", the
recognizer writes words. Both sides go through :func:`spoken_words`, so "22" and "twenty two"
count as the same two words.
"""

from __future__ import annotations

import re

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SYMBOLS = {
    "%": " percent ",
    "°c": " degrees ",
    "°f": " degrees ",
    "°": " degrees ",
    "&": " and ",
    "+": " plus ",
}
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)?")


def number_words(n: int) -> list[str]:
    """``n`` (0 <= n < 1,000,000) as English words, without "and" ("one hundred five")."""
    if not 0 <= n < 1_000_000:
        raise ValueError(f"number out of range for spoken words: {n}")
    if n < 20:
        return [_ONES[n]]
    if n < 100:
        return [_TENS[n // 10]] + ([_ONES[n % 10]] if n % 10 else [])
    if n < 1000:
        return [_ONES[n // 100], "hundred"] + (number_words(n % 100) if n % 100 else [])
    return number_words(n // 1000) + ["thousand"] + (number_words(n % 1000) if n % 1000 else [])


def _number(token: str) -> list[str]:
    whole, _, frac = token.partition(".")
    if len(whole) > 6:  # an id or a long code: read digit by digit
        return [_ONES[int(d)] for d in token if d.isdigit()]
    words = number_words(int(whole))
    if frac:
        words += ["point"] + [_ONES[int(d)] for d in frac]
    return words


def spoken_words(text: str) -> list[str]:
    """Lower-case words as they would be spoken: digits as number words, symbols as words,
    punctuation, underscores and hyphens as word breaks, "and" dropped (speakers and number
    readers disagree on it)."""
    text = text.lower()
    for symbol, word in _SYMBOLS.items():
        text = text.replace(symbol, word)
    text = re.sub(r"(\d),(\d{3})", r"\1\2", text)  # 1,000 -> 1000
    words: list[str] = []
    for token in _TOKEN.findall(text.replace("_", " ")):
        words.extend(_number(token) if token[0].isdigit() else [token])
    return [w for w in words if w != "and"]
