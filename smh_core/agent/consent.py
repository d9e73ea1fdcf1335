"""What the user asks for in their own words: a positive grammar of requests, for the action guard.

Why: a high-risk action (unlocking, disarming, starting an oven ...) may run only when the user
asked for *that* action on *that* device. Finding a request clause somewhere in the turn is not
enough: "my son will unlock the front door", "- unlock the front door", "I wish you'd unlock the
front door", "Unlock the front door. Actually, no." all hold one, and every round of patterns for
the named shapes left the next unnamed shape open. So consent from words fails closed: the
grammar in ``consent_grammar.yaml`` must account for the *whole* turn -- every sentence a request
to the assistant (imperative or polite, with its usual fillers) or plain courtesy, read exactly
one way, every word of an object phrase a word of the home's device or room names or a kind of
device. A turn it does not fully account for grants nothing (:func:`read_turn` returns ``None``)
and the guard asks its confirmation question, whose reply is read by the same rule
(:func:`read_reply`): only a plain yes, or the same request again, confirms.

Text is checked before it is read: any letter outside the Latin script, any digit outside ASCII,
any quote mark, bracket, emoji or invisible character makes the turn unaccounted (mixed scripts,
quoted or relayed words). Everything here is deterministic, bounded (long turns and sentences with
too many readings are unaccounted, not slow) and free of model calls.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.resources import files
from typing import Any

import yaml

# ----------------------------------------------------------------------------- folding
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]"
)
"""Zero-width, joiner, bidirectional-control and variation-selector characters: invisible, so a
name that contains them looks like one that does not."""
_LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "һ": "h",
        "ӏ": "l",
        "ԛ": "q",
        "ԝ": "w",
        "ո": "n",
        "ս": "u",
        "ɡ": "g",
        "ɑ": "a",
        "ο": "o",
        "α": "a",
        "ν": "v",
        "ι": "i",
        "κ": "k",
        "ρ": "p",
        "χ": "x",
        "υ": "u",
        "τ": "t",
        "ε": "e",
        "η": "n",
        "ω": "w",
        "μ": "u",
        "А": "a",
        "В": "b",
        "Е": "e",
        "К": "k",
        "М": "m",
        "Н": "h",
        "О": "o",
        "Р": "p",
        "С": "c",
        "Т": "t",
        "Х": "x",
        "У": "y",
        "І": "i",
        "Ј": "j",
        "Ѕ": "s",
        "Ԁ": "d",
        "Һ": "h",
        "Ӏ": "l",
        "Ԛ": "q",
        "Ԝ": "w",
        # Greek capitals
        "Α": "a",
        "Β": "b",
        "Ε": "e",
        "Ζ": "z",
        "Η": "h",
        "Ι": "i",
        "Κ": "k",
        "Μ": "m",
        "Ν": "n",
        "Ο": "o",
        "Ρ": "p",
        "Τ": "t",
        "Υ": "y",
        "Χ": "x",
        # others that NFKC keeps
        "ı": "i",
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ß": "ss",
        "æ": "ae",
        "œ": "oe",
        "ℓ": "l",
    }
)
"""Letters that look like Latin ones (Unicode's confusables for the Latin alphabet, the common
part): folded to the letter they imitate."""


def fold(text: str) -> str:
    """``text`` as the guard compares it: NFKC, invisible characters removed, look-alikes
    mapped to Latin letters, accents dropped, lower case, whitespace collapsed."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).translate(_LOOK_ALIKES)
    text = "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )
    return " ".join(text.translate(_LOOK_ALIKES).casefold().split())


# ----------------------------------------------------------------------------- numbers and units
_WORD_NUMBERS = {
    "zero": 0,
    "oh": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
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
_NUMBER_WORDS = frozenset(_WORD_NUMBERS) | {"hundred", "and", "point"}


def words_to_number(text: str) -> float | None:
    """ "seventy-five" -> 75, "one hundred and forty" -> 140, "sixty five point five" -> 65.5;
    ``None`` when ``text`` is not one number in words (tens after units, "five seventy", are not)."""
    whole, _, frac = text.replace("-", " ").partition(" point ")
    words = whole.split()
    if not words or words[0] in ("and", "hundred", "oh") or words[-1] == "and":
        return None
    value, last = 0, 1000
    for word in words:
        if word == "and":
            continue
        if word == "hundred":
            if value == 0 or value >= 100:
                return None
            value, last = value * 100, 100
        elif word in _WORD_NUMBERS and word != "oh":
            number = _WORD_NUMBERS[word]
            size = 10 if number >= 20 else 1 if number < 10 else 19
            if size >= last or (last == 19 and size == 1) or (last == 10 and size != 1):
                return None
            value, last = value + number, size
        else:
            return None
    if not frac:
        return float(value)
    digit = _WORD_NUMBERS.get(frac.strip())
    return None if digit is None or digit > 9 else value + digit / 10


@dataclass(frozen=True)
class Quantity:
    """A value the user stated: the number and its unit (``C``, ``F``, ``K``, ``deg`` for
    "degrees" without a scale, ``""`` for a bare number after "to")."""

    value: float
    unit: str

    def celsius(self, default: str = "C") -> float:
        """The value in °C; "degrees" and bare numbers are in ``default`` (the device's unit)."""
        unit = self.unit if self.unit in ("C", "F", "K") else default
        return to_celsius(self.value, unit)


def to_celsius(value: float, unit: str) -> float:
    if unit == "F":
        return (value - 32) * 5 / 9
    if unit == "K":
        return value - 273.15
    return value


# ----------------------------------------------------------------------------- reading text
MAX_TURN_CHARACTERS = 2000
"""A longer turn is not read: it grants nothing (fail closed), and reading stays cheap."""
MAX_SENTENCE_TOKENS = 60
MAX_PARTIAL_READINGS = 20000
"""Past this many partial readings a sentence is unaccounted (it has too many to be one)."""

_PUNCTUATION = frozenset(" \t\r\n.,!?;:'-°%&")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})
_TOKEN = re.compile(
    r"\d{1,2}:\d{2}(?!\d)|\d+(?:[.,]\d+)?|°[cfk]?(?![a-z])|[a-z]+(?:'[a-z]+)*|[,%&]|\S"
)
_MERGED = {("right", "now"): "right_now", ("right", "away"): "right_away"}


def plain(text: str) -> str | None:
    """``text`` as the grammar reads it (NFKC, lower case, accents dropped, "’" as "'", "a.m."
    as "am"), or ``None`` when it holds anything outside what the grammar can account for: a
    letter of another script, a digit of another script, a quote mark, a bracket, a symbol, an
    emoji, an invisible character."""
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    for ch in text:
        if ch.isalpha():
            if not unicodedata.name(ch, "").startswith("LATIN"):
                return None
        elif ch.isdigit():
            if ch not in "0123456789":
                return None
        elif ch not in _PUNCTUATION:
            return None
    text = "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    ).casefold()
    if not text.isascii() and any(ch.isalpha() and not ch.isascii() for ch in text):
        return None  # a Latin letter with no ASCII base (þ, ŋ ...): not English words
    return re.sub(r"\b([ap])\.m\b\.?", r"\1m", text)


def tokens(text: str) -> list[str]:
    """The tokens of plain text: words (with their apostrophes), numbers, clock times, units,
    and each other character on its own (so an unknown mark is an unknown token)."""
    found = [
        t
        for t in _TOKEN.findall(re.sub(r"(?<=[a-z0-9])-(?=[a-z0-9])", " ", text))
        if not t.isspace()
    ]
    out: list[str] = []
    for tok in found:
        if out and (out[-1], tok) in _MERGED:
            out[-1] = _MERGED[(out[-1], tok)]
        else:
            out.append(tok)
    return out


def split_sentences(text: str) -> list[tuple[list[str], bool]]:
    """(tokens, is_question) per sentence of plain text: a sentence ends at . ! ? ; or a line
    break (a decimal point does not end one)."""
    guarded = re.sub(r"(?<=\d)\.(?=\d)", "\x00", text)
    out: list[tuple[list[str], bool]] = []
    for m in re.finditer(r"([^.!?;\n]*)([.!?;\n]*)", guarded):
        body, end = m.group(1).replace("\x00", "."), m.group(2)
        toks = tokens(body)
        if toks:
            out.append((toks, "?" in end))
        elif "?" in end or "!" in end:
            out.append((["?"], False))  # a lone mark ("??", "!?") is not a sentence of the grammar
    return out


# ----------------------------------------------------------------------------- the grammar, as data
Phrase = tuple[str, ...]


@dataclass(frozen=True)
class VerbForm:
    """A verb a request may start with: the particles it takes, and whether it needs one."""

    particles: frozenset[str]
    needs_particle: bool


@dataclass(frozen=True)
class Grammar:
    """``consent_grammar.yaml``, tokenized (see that file for what each part is)."""

    openers: tuple[Phrase, ...]
    polite_prefixes: tuple[Phrase, ...]
    question_prefixes: tuple[Phrase, ...]
    state_prefixes: tuple[Phrase, ...]
    states: frozenset[str]
    closers: tuple[Phrase, ...]
    courtesy: tuple[Phrase, ...]
    request_joins: tuple[Phrase, ...]
    object_joins: tuple[Phrase, ...]
    determiners: tuple[Phrase, ...]
    quantifiers: tuple[Phrase, ...]
    prepositions: tuple[Phrase, ...]
    verbs: dict[str, VerbForm] = field(hash=False)
    object_words: frozenset[str]
    place_words: frozenset[str]
    value_prepositions: tuple[Phrase, ...]
    temperature_units: tuple[tuple[Phrase, str], ...]
    percent_units: tuple[Phrase, ...]
    times: tuple[Phrase, ...]
    clock_prepositions: tuple[Phrase, ...]
    clock_suffixes: tuple[Phrase, ...]
    duration_prepositions: tuple[Phrase, ...]
    duration_units: tuple[Phrase, ...]
    code_intros: tuple[Phrase, ...]
    mode_prepositions: tuple[Phrase, ...]
    modes: tuple[Phrase, ...]
    mode_words: tuple[Phrase, ...]
    trigger_intros: tuple[Phrase, ...]
    trigger_events: tuple[Phrase, ...]
    yes: tuple[Phrase, ...]
    code_reply_intros: tuple[Phrase, ...]

    @property
    def function_words(self) -> frozenset[str]:
        """Words an object phrase holds that name nothing (the, my, all, in, of ...)."""
        return frozenset(
            w
            for group in (self.determiners, self.quantifiers, self.prepositions)
            for p in group
            for w in p
        )


def _phrases(items: Iterable[Any]) -> tuple[Phrase, ...]:
    out = []
    for item in items:
        text = plain(str(item))
        if text is None or not tokens(text):
            raise ValueError(f"consent_grammar.yaml: {item!r} is not plain English text")
        out.append(tuple(tokens(text)))
    return tuple(sorted(set(out)))


def read_data_file(name: str) -> Any:
    """A YAML data file shipped in this package, parsed by libyaml where PyYAML has it (a tenth
    of the pure-Python parser's time: 2 instead of 19 ms for the grammar, on every cold start)."""
    text = files(__package__).joinpath(name).read_text(encoding="utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@cache
def load_grammar() -> Grammar:
    """The shipped grammar (data: ``consent_grammar.yaml`` next to this module)."""
    raw = read_data_file("consent_grammar.yaml")
    if any(isinstance(v, bool) for group in raw.values() if isinstance(group, list) for v in group):
        raise ValueError(
            "consent_grammar.yaml: a bare yes/no/on/off was read as a boolean; quote it"
        )
    verbs = {
        str(name): VerbForm(
            frozenset(str(p) for p in (spec or {}).get("particles", ())),
            bool((spec or {}).get("needs_particle", False)),
        )
        for name, spec in raw["verbs"].items()
    }
    return Grammar(
        openers=_phrases(raw["openers"]),
        polite_prefixes=_phrases(raw["polite_prefixes"]),
        question_prefixes=_phrases(raw["question_prefixes"]),
        state_prefixes=_phrases(raw["state_prefixes"]),
        states=frozenset(str(s) for s in raw["states"]),
        closers=_phrases(raw["closers"]),
        courtesy=_phrases(raw["courtesy"]),
        request_joins=_phrases(raw["request_joins"]),
        object_joins=_phrases(raw["object_joins"]),
        determiners=_phrases(raw["determiners"]),
        quantifiers=_phrases(raw["quantifiers"]),
        prepositions=_phrases(raw["prepositions"]),
        verbs=verbs,
        object_words=frozenset(w for p in _phrases(raw["object_words"]) for w in p),
        place_words=frozenset(w for p in _phrases(raw["place_words"]) for w in p),
        value_prepositions=_phrases(raw["value_prepositions"]),
        temperature_units=tuple(
            sorted(
                {
                    (tuple(tokens(plain(str(k)) or "")), str(v))
                    for k, v in raw["temperature_units"].items()
                }
            )
        ),
        percent_units=_phrases(raw["percent_units"]),
        times=_phrases(raw["times"]),
        clock_prepositions=_phrases(raw["clock_prepositions"]),
        clock_suffixes=_phrases(raw["clock_suffixes"]),
        duration_prepositions=_phrases(raw["duration_prepositions"]),
        duration_units=_phrases(raw["duration_units"]),
        code_intros=_phrases(raw["code_intros"]),
        mode_prepositions=_phrases(raw["mode_prepositions"]),
        modes=_phrases(raw["modes"]),
        mode_words=_phrases(raw["mode_words"]),
        trigger_intros=_phrases(raw["trigger_intros"]),
        trigger_events=_phrases(raw["trigger_events"]),
        yes=_phrases(raw["yes_words"]),
        code_reply_intros=_phrases(raw["code_reply_intros"]),
    )


def vocabulary(
    names: Iterable[str], grammar: Grammar | None = None, kinds: Iterable[str] = ()
) -> frozenset[str]:
    """The words an object phrase may hold in a home: the words of its device and room names
    (folded, so look-alike letters read as the Latin ones), the grammar's kinds of device and
    words of place, and ``kinds`` (the action guard adds its rules' device words)."""
    grammar = grammar or load_grammar()
    return name_words([*names, *kinds]) | grammar.object_words | grammar.place_words


def name_words(names: Iterable[str]) -> frozenset[str]:
    """The words of names, folded as the grammar reads them."""
    return frozenset(
        w for name in names for w in re.findall(r"[a-z0-9]+(?:'[a-z]+)*", fold(str(name)))
    )


def phrase_words(phrase: str) -> list[str]:
    """The words of an object phrase as the grammar read them (possessives without "'s")."""
    return [w[:-2] if w.endswith("'s") else w for w in phrase.split()]


# ----------------------------------------------------------------------------- what a reading is
@dataclass(frozen=True)
class Target:
    """One object of a request ("the front door lock in the hall") and the temperatures stated
    for it ("... to 70 degrees")."""

    phrase: str
    quantities: tuple[Quantity, ...] = ()


@dataclass(frozen=True)
class Request:
    """One thing the user asks for: the verb as said ("turn on", or a state word for "I want the
    door unlocked"), its objects with their values, the code said with it, and the sentence."""

    verb: str
    targets: tuple[Target, ...]
    clause: str = ""
    code: str | None = None


@dataclass(frozen=True)
class Reply:
    """A reply to the guard's question, fully read: whether it says yes, and any request it
    repeats ("yes, unlock the front door")."""

    yes: bool
    requests: tuple[Request, ...]


class _Unreadable(Exception):
    """A sentence with more partial readings than one sentence can honestly have."""


@dataclass(frozen=True)
class _Mods:
    quantities: tuple[Quantity, ...] = ()
    location: str = ""
    code: str | None = None
    used: frozenset[str] = frozenset()
    switch: str = ""  # "to on" / "to off": the verb's particle


class _Reader:
    """Every reading of one sentence's tokens under the grammar (memoized, bounded)."""

    def __init__(
        self, grammar: Grammar, vocab: frozenset[str], toks: list[str], clause: str
    ) -> None:
        self.g = grammar
        self.vocab = vocab
        self.t = toks
        self.n = len(toks)
        self.clause = clause
        self.memo: dict[tuple[Any, ...], list[tuple[int, Any]]] = {}
        self.budget = MAX_PARTIAL_READINGS

    # -- small pieces
    def _spend(self, results: list[tuple[int, Any]]) -> list[tuple[int, Any]]:
        self.budget -= len(results) + 1
        if self.budget < 0:
            raise _Unreadable
        return results

    def phrase(self, i: int, phrases: Iterable[Phrase]) -> list[int]:
        """End positions of each phrase that matches at ``i``."""
        return sorted({i + len(p) for p in phrases if tuple(self.t[i : i + len(p)]) == p})

    def phrase_with(self, i: int, pairs: Iterable[tuple[Phrase, str]]) -> list[tuple[int, str]]:
        return sorted({(i + len(p), v) for p, v in pairs if tuple(self.t[i : i + len(p)]) == p})

    def comma(self, i: int) -> list[int]:
        """``i``, and past one comma there."""
        return [i, i + 1] if i < self.n and self.t[i] == "," else [i]

    def runs(self, i: int, phrases: tuple[Phrase, ...]) -> list[int]:
        """End positions after zero or more of ``phrases`` (each optionally followed by a comma)."""
        seen, frontier = {i}, [i]
        while frontier:
            j = frontier.pop()
            for k in self.phrase(j, phrases):
                for m in self.comma(k):
                    if m not in seen:
                        seen.add(m)
                        frontier.append(m)
        return sorted(seen)

    def word(self, i: int) -> bool:
        if i >= self.n:
            return False
        tok = self.t[i]
        return tok in self.vocab or (tok.endswith("'s") and tok[:-2] in self.vocab)

    def number(self, i: int) -> list[tuple[int, float]]:
        if i >= self.n:
            return []
        tok = self.t[i]
        if re.fullmatch(r"\d+(?:[.,]\d+)?", tok):
            return [(i + 1, float(tok.replace(",", ".")))]
        out = []
        j = i
        while j < self.n and self.t[j] in _NUMBER_WORDS and j - i < 8:
            j += 1
            value = words_to_number(" ".join(self.t[i:j]))
            if value is not None:
                out.append((j, value))
        return out

    def code(self, i: int) -> list[tuple[int, str]]:
        """Digits of a code: one run of 3 to 12 ASCII digits, or 3 to 12 single digits or digit words."""
        if i < self.n and re.fullmatch(r"\d{3,12}", self.t[i]):
            return [(i + 1, self.t[i])]
        digits, j = "", i
        while (
            j < self.n
            and (re.fullmatch(r"\d", self.t[j]) or self.t[j] in _WORD_NUMBERS)
            and len(digits) < 12
        ):
            value = self.t[j] if self.t[j].isdigit() else _WORD_NUMBERS[self.t[j]]
            if int(value) > 9:
                break
            digits += str(value)
            j += 1
        return [(j, digits)] if len(digits) >= 3 else []

    # -- objects
    def head(self, i: int) -> list[int]:
        """Ends of a run of one or more object words (a determiner may sit between two: "our
        Kitchen the Oven", as HA's own sentence templates allow)."""
        out, j = [], i
        while self.word(j):
            j += 1
            out.append(j)
            k = next(iter(self.phrase(j, self.g.determiners)), None)
            if k is not None and self.word(k) and self.t[j - 1] not in self.g.verbs:
                j = k  # "lock the front door" after a verb-like word is a new request, not one name
        return out

    def noun_phrase(self, i: int) -> list[int]:
        """[quantifier] [determiner] words (preposition [determiner] words)*"""
        key = ("np", i)
        if key in self.memo:
            return [j for j, _ in self.memo[key]]
        starts = {i} | set(self.phrase(i, self.g.quantifiers))
        starts |= {k for s in list(starts) for k in self.phrase(s, self.g.determiners)}
        ends: set[int] = set()
        frontier = [j for s in starts for j in self.head(s)]
        while frontier:
            j = frontier.pop()
            if j in ends:
                continue
            ends.add(j)
            for p in self.phrase(j, self.g.prepositions):
                for d in {p} | set(self.phrase(p, self.g.determiners)):
                    frontier.extend(self.head(d))
        self.memo[key] = self._spend([(j, None) for j in sorted(ends)])
        return sorted(ends)

    def objects(self, i: int) -> list[tuple[int, tuple[str, ...]]]:
        """One or more noun phrases joined by "and" or commas: (end, phrases)."""
        key = ("objs", i)
        if key not in self.memo:
            out: list[tuple[int, Any]] = []
            for j in self.noun_phrase(i):
                phrase = " ".join(self.t[i:j])
                out.append((j, (phrase,)))
                for k in self.phrase(j, self.g.object_joins):
                    out.extend((m, (phrase, *rest)) for m, rest in self.objects(k))
            self.memo[key] = self._spend(out)
        return self.memo[key]

    # -- modifiers: a value, a time, a place, a code, courtesy
    def value(self, i: int) -> list[tuple[int, Quantity | None]]:
        out: list[tuple[int, Quantity | None]] = []
        for start, prep in [(i, False)] + [
            (k, True) for k in self.phrase(i, self.g.value_prepositions)
        ]:
            for j, number in self.number(start):
                for k, unit in self.phrase_with(j, self.g.temperature_units):
                    out.append((k, Quantity(number, unit)))
                out.extend((k, None) for k in self.phrase(j, self.g.percent_units))
                if prep:
                    out.append((j, Quantity(number, "")))
        return out

    def time(self, i: int, opener: bool = False) -> list[int]:
        """When a request runs. "at 6" is a time only before the request ("every evening at six,
        unlock ..."); after an object it is a value ("set the heater at 6")."""
        out = set(self.phrase(i, self.g.times))
        for k in self.phrase(i, self.g.clock_prepositions):
            if k < self.n and re.fullmatch(r"\d{1,2}:\d{2}", self.t[k]):
                out |= {k + 1} | set(self.phrase(k + 1, self.g.clock_suffixes))
                continue
            for j, hour in self.number(k):
                if hour == int(hour) and 1 <= hour <= 12:
                    out |= set(self.phrase(j, self.g.clock_suffixes)) | ({j} if opener else set())
        for k in self.phrase(i, self.g.duration_prepositions):
            for j, _ in self.number(k):
                out |= set(self.phrase(j, self.g.duration_units))
        return sorted(out)

    def modifiers(self, i: int, mods: _Mods = _Mods()) -> list[tuple[int, _Mods]]:
        """Zero or more modifiers, each kind at most once (a time twice: "every day at 7 am")."""
        out: list[tuple[int, _Mods]] = [(i, mods)]
        for start in self.comma(i):
            nxt: list[tuple[int, _Mods]] = []
            if "value" not in mods.used:
                for j, q in self.value(start):
                    nxt.append(
                        (
                            j,
                            replace(
                                mods,
                                quantities=mods.quantities + ((q,) if q else ()),
                                used=mods.used | {"value"},
                            ),
                        )
                    )
            if "time2" not in mods.used:
                for j in self.time(start):
                    nxt.append(
                        (
                            j,
                            replace(
                                mods, used=mods.used | {"time2" if "time" in mods.used else "time"}
                            ),
                        )
                    )
            if "place" not in mods.used:
                for p in self.phrase(start, self.g.prepositions):
                    for j in self.noun_phrase(p):
                        nxt.append(
                            (
                                j,
                                replace(
                                    mods,
                                    location=" ".join(self.t[start:j]),
                                    used=mods.used | {"place"},
                                ),
                            )
                        )
            if "mode" not in mods.used:
                for k in self.phrase(start, self.g.mode_prepositions):
                    for j in self.phrase(k, self.g.modes):
                        mode = " ".join(self.t[k:j])
                        switch = mode if mode in ("on", "off") else ""
                        for e in [j, *self.phrase(j, self.g.mode_words)]:
                            nxt.append((e, replace(mods, switch=switch, used=mods.used | {"mode"})))
            if "code" not in mods.used:
                for k in self.phrase(start, self.g.code_intros):
                    for j, digits in self.code(k):
                        nxt.append((j, replace(mods, code=digits, used=mods.used | {"code"})))
            if "trigger" not in mods.used:
                for j in self.trigger(start):
                    nxt.append((j, replace(mods, used=mods.used | {"trigger"})))
            if "closer" not in mods.used:
                for j in self.phrase(start, self.g.closers):
                    nxt.append((j, replace(mods, used=mods.used | {"closer"})))
            for j, m in nxt:
                out.extend(self.modifiers(j, m))
        return self._spend(out)

    # -- requests
    def command(self, i: int) -> list[tuple[int, Request]]:
        """verb [particle] objects [particle] modifiers"""
        key = ("cmd", i)
        if key in self.memo:
            return self.memo[key]
        out: list[tuple[int, Any]] = []
        verb = self.t[i] if i < self.n else ""
        form = self.g.verbs.get(verb)
        if form is not None:
            starts = [(i + 1, "")]
            if i + 1 < self.n and self.t[i + 1] in form.particles:
                starts.append((i + 2, self.t[i + 1]))
            for j, particle in starts:
                for k, phrases in self.objects(j):
                    ends = [(k, particle)]
                    if not particle and k < self.n and self.t[k] in form.particles:
                        ends.append((k + 1, self.t[k]))
                    for m, said in ends:
                        if form.needs_particle and not said:
                            continue
                        for e, mods in self.modifiers(m):
                            if mods.switch and said:
                                continue  # "turn on the oven to off"
                            targets = tuple(
                                Target(f"{p} {mods.location}".strip(), mods.quantities)
                                for p in phrases
                            )
                            name = f"{verb} {said or mods.switch}".strip()
                            out.append((e, Request(name, targets, self.clause, mods.code)))
        self.memo[key] = self._spend(out)
        return self.memo[key]

    def state_request(self, i: int) -> list[tuple[int, Request]]:
        """ "i want the front door unlocked": prefix objects state modifiers"""
        out = []
        for j in self.phrase(i, self.g.state_prefixes):
            for k, phrases in self.objects(j):
                if k < self.n and self.t[k] in self.g.states:
                    for e, mods in self.modifiers(k + 1):
                        targets = tuple(
                            Target(f"{p} {mods.location}".strip(), mods.quantities) for p in phrases
                        )
                        out.append((e, Request(self.t[k], targets, self.clause, mods.code)))
        return out

    def bare_command(self, i: int, phrases: tuple[str, ...]) -> list[tuple[int, Request]]:
        """A command after a join with no object of its own: it acts on the objects of the one
        before ("turn on the oven and bake at 200 degrees")."""
        out: list[tuple[int, Request]] = []
        form = self.g.verbs.get(self.t[i]) if i < self.n else None
        if form is None or not phrases:
            return out
        starts = [(i + 1, "")] + (
            [(i + 2, self.t[i + 1])] if i + 1 < self.n and self.t[i + 1] in form.particles else []
        )
        for j, particle in starts:
            if form.needs_particle and not particle:
                continue
            for e, mods in self.modifiers(j):
                if e == j:
                    continue  # a verb alone ("and unlock") says nothing more
                targets = tuple(
                    Target(f"{p} {mods.location}".strip(), mods.quantities) for p in phrases
                )
                out.append(
                    (e, Request(f"{self.t[i]} {particle}".strip(), targets, self.clause, mods.code))
                )
        return out

    def requests(
        self, i: int, before: tuple[str, ...] = ()
    ) -> list[tuple[int, tuple[Request, ...]]]:
        """One or more commands joined by "and", "then", commas (a join may add "please")."""
        key = ("reqs", i, before)
        if key not in self.memo:
            out: list[tuple[int, Any]] = []
            found = self.command(i) + self.state_request(i) + self.bare_command(i, before)
            for j, request in found:
                out.append((j, (request,)))
                phrases = tuple(t.phrase for t in request.targets)
                for k in self.phrase(j, self.g.request_joins):
                    for m in [k, *self.phrase(k, self.g.polite_prefixes)]:
                        out.extend((e, (request, *rest)) for e, rest in self.requests(m, phrases))
            self.memo[key] = self._spend(out)
        return self.memo[key]

    # -- sentences
    def trigger(self, i: int) -> list[int]:
        """An automation's trigger: "when the bedroom lamp turns on", "if the living room
        temperature goes above 25 degrees" (a noun phrase of the home, an event of the list)."""
        out: set[int] = set()
        for j in self.phrase(i, self.g.trigger_intros):
            for k in self.noun_phrase(j):
                for e in self.phrase(k, self.g.trigger_events):
                    out.add(e)
                    out |= {m for m, _ in self.value(e) if self.t[e : e + 1] != ["to"]}
        return sorted(out)

    def openers(self) -> list[int]:
        """Positions after the sentence's openers ("ok,", "hey assistant,", "at 7 pm,", "when
        the lamp turns on,")."""
        seen, frontier = {0}, [0]
        while frontier:
            j = frontier.pop()
            for k in self.phrase(j, self.g.openers) + self.time(j, opener=True) + self.trigger(j):
                for m in self.comma(k):
                    if m not in seen:
                        seen.add(m)
                        frontier.append(m)
        return sorted(seen)

    def sentence(self, question: bool) -> set[tuple[Request, ...]]:
        """Every full reading of a sentence as requests (``()`` for courtesy)."""
        readings: set[tuple[Request, ...]] = set()
        for i in self.openers():
            if not question and (i == self.n or self.n in self.runs(i, self.g.courtesy)[1:]):
                readings.add(())  # only openers or courtesy ("ok.", "thanks!")
            starts = [(i, False)] + [(k, True) for k in self.phrase(i, self.g.question_prefixes)]
            if not question:
                starts += [(k, False) for k in self.phrase(i, self.g.polite_prefixes)]
            for start, polite_question in starts:
                if question and not polite_question:
                    continue
                for j, found in self.requests(start):
                    if self.n in self.runs(j, self.g.closers):
                        readings.add(found)
        return readings

    def reply(self) -> set[tuple[bool, tuple[Request, ...]]]:
        """Every full reading of a reply sentence: yes-words (with courtesy, and optionally the
        request again), a request alone, or courtesy."""
        readings: set[tuple[bool, tuple[Request, ...]]] = set()
        for i in self.openers():
            for j in (c for y in self.phrase(i, self.g.yes) for c in self.comma(y)):
                for k in self.runs(j, self.g.yes + self.g.closers):
                    if k == self.n:
                        readings.add((True, ()))
                    for m in {k} | set(self.phrase(k, (("and",),))):
                        for e, found in self.requests(m):
                            if self.n in self.runs(e, self.g.closers):
                                readings.add((True, found))
        readings |= {(False, r) for r in self.sentence(False)}
        # a yes-word is also a sentence opener ("yes, unlock the front door" as a turn): the same
        # requests read with and without it are one reading, and it says yes
        merged: dict[tuple[Request, ...], bool] = {}
        for said_yes, found in readings:
            merged[found] = merged.get(found, False) or said_yes
        return {(said_yes, found) for found, said_yes in merged.items()}


def _sentences(text: str) -> list[tuple[list[str], bool, str]] | None:
    if len(text) > MAX_TURN_CHARACTERS:
        return None
    clean = plain(text)
    if clean is None:
        return None
    out = []
    for toks, question in split_sentences(clean):
        if len(toks) > MAX_SENTENCE_TOKENS:
            return None
        out.append((toks, question, " ".join(toks)))
    return out


def read_turn(
    text: str, vocab: frozenset[str], grammar: Grammar | None = None
) -> tuple[Request, ...] | None:
    """The requests of a user turn when the grammar accounts for all of it, each sentence read
    exactly one way; ``None`` otherwise (the turn then grants nothing)."""
    grammar = grammar or load_grammar()
    sentences = _sentences(text)
    if sentences is None:
        return None
    found: list[Request] = []
    for toks, question, clause in sentences:
        try:
            readings = _Reader(grammar, vocab, toks, clause).sentence(question)
        except _Unreadable:
            return None
        if len(readings) != 1:
            return None
        found.extend(next(iter(readings)))
    return tuple(found)


def read_reply(text: str, vocab: frozenset[str], grammar: Grammar | None = None) -> Reply | None:
    """A reply to the guard's question when the grammar accounts for all of it (each sentence a
    yes, a request or courtesy, read one way); ``None`` otherwise."""
    grammar = grammar or load_grammar()
    sentences = _sentences(text)
    if not sentences:
        return None
    found: list[Request]
    yes, found = False, []
    for toks, question, clause in sentences:
        if question:
            return None
        try:
            readings = _Reader(grammar, vocab, toks, clause).reply()
        except _Unreadable:
            return None
        if len(readings) != 1:
            return None
        said_yes, requests = next(iter(readings))
        yes = yes or said_yes
        found.extend(requests)
    return Reply(yes, tuple(found))


def read_code(text: str, grammar: Grammar | None = None) -> str | None:
    """The code a reply to "Say the code to confirm" says, when that is all it says ("4821",
    "the code is 4 8 2 1", "yes, 4821 please"); ``None`` otherwise."""
    grammar = grammar or load_grammar()
    sentences = _sentences(text)
    if not sentences:
        return None
    codes: set[str] = set()
    for toks, question, clause in sentences:
        if question:
            return None
        reader = _Reader(grammar, frozenset(), toks, clause)
        found = set()
        for i in reader.openers():
            for j in [i, *(k2 for k in reader.phrase(i, grammar.yes) for k2 in reader.comma(k))]:
                for k in [j, *reader.phrase(j, grammar.code_reply_intros)]:
                    for e, digits in reader.code(k):
                        if reader.n in reader.runs(e, grammar.closers):
                            found.add(digits)
            if reader.n in reader.runs(i, grammar.courtesy):
                found.add("")
        if len(found) != 1:
            return None
        codes |= found - {""}
    return next(iter(codes)) if len(codes) == 1 else None
