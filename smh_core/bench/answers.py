"""Deterministic checks of natural-language answers against expected facts.

Numbers (digits or number words), yes/no, and names are checked without a model; free-text
facts are scored lexically unless an LLM judge is configured. Each check says how it decided.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from smh_core.memory.metrics import token_f1

_WORDS = {
    w: i
    for i, w in enumerate(
        [
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
            "twenty",
        ]
    )
}
_WORDS.update(
    {
        "no": 0,
        "none": 0,
        "thirty": 30,
        "forty": 40,
        "fifty": 50,
        "sixty": 60,
        "seventy": 70,
        "eighty": 80,
        "ninety": 90,
        "hundred": 100,
        "both": 2,
        "single": 1,
    }
)
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
_YES = re.compile(
    r"\b(yes|yeah|yep|correct|it is|they are|there is|there are|is on|are on)\b", re.I
)
_NO = re.compile(
    r"\b(no|not|none|isn't|aren't|there is no|there are no|is off|are off|nothing)\b", re.I
)
_YES_NO = {
    "de": (
        r"\b(ja|jawohl|genau|stimmt|ist an|sind an|ist eingeschaltet|läuft|laufen)\b",
        r"\b(nein|nicht|kein|keine|keiner|nichts|ist aus|sind aus|ist ausgeschaltet)\b",
    ),
    "es": (
        r"\b(sí|claro|efectivamente|está encendid[oa]|están encendid[oa]s)\b",
        r"\b(no|ningún|ninguna|nada|está apagad[oa]|están apagad[oa]s)\b",
    ),
    "fr": (
        r"\b(oui|effectivement|est allumée?|sont allumée?s)\b",
        r"\b(non|pas|aucun|aucune|rien|est éteinte?|sont éteinte?s)\b",
    ),
    "zh": (r"(是的|对的|没错|开着|打开着|在播)", r"(不|没|关着|关了|已关闭)"),
}
"""Yes and no as an answer in another language says them (a task's ``language``); English:
:data:`_YES`, :data:`_NO`."""
YES_NO = {
    lang: (re.compile(yes, re.I), re.compile(no, re.I)) for lang, (yes, no) in _YES_NO.items()
}
REFUSAL = re.compile(
    r"\b(can(?:not|'t)|unable|not able|impossible|no such|doesn't exist|does not exist|"
    r"isn't (?:possible|available)|not (?:possible|available|supported)|already at|"
    r"out of range|outside|conflict|won't be able|sorry)\b",
    re.I,
)


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return re.sub(r"[\s\-_'’]+", " ", text).strip()


def numbers_in(text: str) -> list[float]:
    found = [float(n.replace(",", ".")) for n in _NUMBER.findall(text)]
    found += [float(_WORDS[w]) for w in re.findall(r"[a-z]+", text.lower()) if w in _WORDS]
    return found


def check_fact(fact: Any, answer: str, language: str | None = None) -> bool | None:
    """True/False when decidable without a model; ``None`` for free text. A yes/no fact is read
    in the answer's ``language`` (a code of :data:`YES_NO`; English otherwise)."""
    kind, value = fact.kind, fact.value
    if kind == "number":
        return any(abs(n - float(value)) <= fact.tolerance + 1e-9 for n in numbers_in(answer))
    if kind == "yesno":
        yes_re, no_re = YES_NO.get(language or "en", (_YES, _NO))
        yes, no = bool(yes_re.search(answer)), bool(no_re.search(answer))
        if yes == no:
            return False
        return yes == bool(value)
    if kind == "name":
        if isinstance(value, list):  # a value's names in several languages: any, as a word
            return any(_names_word(str(v), answer) for v in value)
        return _norm(str(value)) in _norm(answer)
    return None


def _names_word(name: str, answer: str) -> bool:
    """``name`` in ``answer`` as a whole word (``on`` not inside ``salon``); a Chinese name,
    written without spaces, as a substring."""
    name, text = _norm(name), _norm(answer)
    edge = r"(?<![^\W_]){}(?![^\W_])"
    if any("\u4e00" <= c <= "\u9fff" for c in name):
        return name in text
    return re.search(edge.format(re.escape(name)), text) is not None


def lexical_match(expected: str, answer: str, threshold: float = 0.5) -> bool:
    return token_f1(answer, expected) >= threshold or _norm(expected) in _norm(answer)
