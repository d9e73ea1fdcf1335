"""The action guard's words in the user's language: its confirmation question, the plain yeses
and noes it reads as a whole reply, and the simulated user's answers.

Why: the consent grammar (:mod:`.consent`) reads English only, so in a German task every
high-risk request is confirmed by a question; that question must be asked in German and a German
"Ja." must be read, failing closed as in English. A language's reply words are a short closed
list, not a grammar: a reply confirms only when it is exactly one plain yes of the list ("Ja.",
"Oui, vas-y.", "好的") with courtesy around it ("bitte", "gracias", "谢谢") and nothing else. Any
other word (a negation, a hedge, a condition, a relayed "er sagt ja"), a question mark, an
ellipsis, a quote mark, a letter outside the language's script (Latin for de/es/fr, Han for zh),
an invisible character or a second yes ("Ja, ja.") is not consent. A request cannot be repeated
in these languages (there is no grammar to read it): only the yes confirms. A reply may also be in
English, read by the English grammar; a yes in a third language is not consent.

Where: one data file per language, ``guard_languages/<code>.yaml`` next to this module, for a
native speaker to review in one place. The suites' wording lives in :mod:`smh_core.languages`,
but that package sits above the guard's (``tests/test_layers.py``: agent under languages), and
the guard runs under the benchmark and inside Home Assistant alike, so its words are data here.
English keeps its questions in ``safety_policy.yaml`` and its replies in the consent grammar;
``en.yaml`` holds only the question's frame and the simulated user's answers. A code this module
does not know (``it``, ``zh-tw``) gets English: the English question, the English grammar.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Literal

import yaml

GUARD_LANGUAGES = ("en", "de", "es", "fr", "zh")
"""The languages the guard asks and reads replies in (``en`` first: the consent grammar's)."""

_TRADITIONAL = frozenset({"tw", "hk", "mo", "hant"})
"""Chinese subtags of the traditional script: the ``zh`` wording is simplified, so these get
English rather than a question their reader may not read and replies this module cannot."""

MAX_REPLY_CHARACTERS = 200
"""A longer reply is not a plain yes: it is not read (fail closed)."""

Answer = Literal["yes", "no"]
Phrase = tuple[str, ...]


def language_code(language: str | None) -> str:
    """The guard's language for a task's or a conversation's code: ``de``, ``de-CH`` and
    ``DE_de`` are ``de``; ``zh``, ``zh-CN`` and ``zh-Hans`` are ``zh``; ``None``, a language
    without wording here and traditional Chinese are ``en``."""
    if not isinstance(language, str):
        return "en"
    parts = language.strip().casefold().replace("_", "-").split("-")
    if parts[0] == "zh" and _TRADITIONAL & set(parts[1:]):
        return "en"
    return parts[0] if parts[0] in GUARD_LANGUAGES else "en"


# ----------------------------------------------------------------------------- reading a reply
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})
_MARKS = {"latin": frozenset(".,!'-¡"), "han": frozenset(".,!。、")}
"""Punctuation a reply may hold besides letters, ASCII digits and spaces (after NFKC, "，" and
"！" are "," and "!"): no "?", no quote mark, no bracket, no colon."""
_TOKEN = {
    "latin": re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*|\d+|[.,!¡]"),
    "han": re.compile(r"[^\W\d_]|\d+|[.,!。、]"),
}
_ENDS = frozenset(".!。")


def _in_script(ch: str, script: str) -> bool:
    name = unicodedata.name(ch, "")
    if script == "han":
        return name.startswith("CJK UNIFIED IDEOGRAPH") or name == "IDEOGRAPHIC NUMBER ZERO"
    return name.startswith("LATIN")


def _sentences(text: str, script: str) -> list[list[str]] | None:
    """The sentences of a reply as tokens (words, or Han characters, and ASCII numbers; commas
    kept), or ``None`` when it holds anything outside what a plain reply holds: another script,
    a mark not in :data:`_MARKS`, an invisible character, a line break, an ellipsis."""
    if not isinstance(text, str) or len(text) > MAX_REPLY_CHARACTERS:
        return None
    text = unicodedata.normalize("NFKC", text).translate(_APOSTROPHES)
    for ch in text:
        if ch.isalpha() or unicodedata.name(ch, "") == "IDEOGRAPHIC NUMBER ZERO":
            if not _in_script(ch, script):
                return None
        elif ch.isdigit():
            if ch not in "0123456789":
                return None
        elif ch != " " and ch not in _MARKS[script]:
            return None
    text = text.casefold()
    pattern, found, at = _TOKEN[script], [], 0
    for m in pattern.finditer(text):
        if text[at : m.start()].strip():
            return None  # a stray "-" or "'" between words
        found.append(m.group())
        at = m.end()
    if text[at:].strip():
        return None
    out: list[list[str]] = []
    current: list[str] = []
    for i, tok in enumerate(found):
        if tok in _ENDS:
            if tok == "." and i + 1 < len(found) and found[i + 1] == ".":
                return None  # ".." is an ellipsis: a trailing-off reply is no plain one
            if current:
                out.append(current)
            current = []
        elif tok == "¡":
            if current:
                return None  # "¡" opens a sentence, nowhere else
        else:
            current.append(tok)
    if current:
        out.append(current)
    if any(s[0] in ",、" or s[-1] in ",、" for s in out):
        return None
    return out


def _phrase_tokens(text: str, script: str) -> Phrase:
    sentences = _sentences(str(text), script)
    if not sentences or len(sentences) != 1 or any(t in ",、" for t in sentences[0]):
        raise ValueError(f"guard wording: {text!r} is not one plain phrase of its language")
    return tuple(sentences[0])


@dataclass(frozen=True)
class ReplyWords:
    """A language's plain replies (see the module docstring), tokenized as replies are."""

    script: str
    yes: tuple[Phrase, ...]
    no: tuple[Phrase, ...]
    courtesy: tuple[Phrase, ...]
    code_intros: tuple[Phrase, ...]
    digits: dict[str, int]

    def _units(self) -> list[tuple[Phrase, int, int]]:
        return (
            [(p, 1, 0) for p in self.yes]
            + [(p, 0, 1) for p in self.no]
            + [(p, 0, 0) for p in self.courtesy]
        )

    def counts(self, toks: list[str]) -> set[tuple[int, int]]:
        """(yeses, noes), each capped at 2, of every way to read a sentence as yes, no and
        courtesy phrases (a comma between any two); empty when there is none."""
        reach: list[set[tuple[int, int]]] = [set() for _ in range(len(toks) + 1)]
        reach[0].add((0, 0))
        for i in range(len(toks)):
            if not reach[i]:
                continue
            for phrase, yes, no in self._units():
                j = _match(toks, i, phrase)
                if j is None:
                    continue
                nxt = [j + 1] if j + 1 < len(toks) and toks[j] in ",、" else []
                for k in [j, *nxt]:
                    reach[k] |= {(min(y + yes, 2), min(n + no, 2)) for y, n in reach[i]}
        return reach[len(toks)]

    def code_in(self, toks: list[str]) -> set[str]:
        """Every code a sentence reads as: [a yes] [an intro] digits [courtesy], or ``""`` for
        courtesy alone."""
        found: set[str] = set()
        starts = {0}
        for phrase in self.yes:
            if tuple(toks[: len(phrase)]) == phrase:
                k = len(phrase)
                starts.add(k + 1 if k < len(toks) and toks[k] in ",、" else k)
        for s in list(starts):
            for phrase in self.code_intros:
                if tuple(toks[s : s + len(phrase)]) == phrase:
                    starts.add(s + len(phrase))
        for s in starts:
            for end, digits in self._digits(toks, s):
                if end == len(toks) or self._courtesy_only(toks[end:]):
                    found.add(digits)
        if self._courtesy_only(toks):
            found.add("")
        return found

    def _digits(self, toks: list[str], i: int) -> list[tuple[int, str]]:
        """A code from ``i``: one run of 3 to 12 ASCII digits, or 3 to 12 single digits or
        digit words of the language (a number said as more than a digit is not read)."""
        if i < len(toks) and re.fullmatch(r"\d{3,12}", toks[i]):
            return [(i + 1, toks[i])]
        digits, j = "", i
        while j < len(toks) and len(digits) < 12:
            tok = toks[j]
            if re.fullmatch(r"\d", tok):
                digits += tok
            elif tok in self.digits:
                digits += str(self.digits[tok])
            else:
                break
            j += 1
        return [(j, digits)] if len(digits) >= 3 else []

    def _courtesy_only(self, toks: list[str]) -> bool:
        toks = toks[1:] if toks[:1] in ([","], ["、"]) else toks
        return bool(toks) and self.counts(toks) == {(0, 0)}


def _match(toks: list[str], i: int, phrase: Phrase) -> int | None:
    """Where ``phrase`` ends when it is said at ``i``, a comma allowed between its words ("ja,
    gerne" is "ja gerne"); ``None`` when it is not said there."""
    j = i
    for n, word in enumerate(phrase):
        if n and j < len(toks) and toks[j] in ",、":
            j += 1
        if j >= len(toks) or toks[j] != word:
            return None
        j += 1
    return j


def read_answer(text: str, words: ReplyWords) -> Answer | None:
    """``"yes"`` when the whole reply is exactly one plain yes with courtesy around it, read so
    every way; ``"no"`` when every reading of it holds a plain no; ``None`` otherwise (anything
    the reply words do not account for, a question, a second yes)."""
    sentences = _sentences(text, words.script)
    if not sentences:
        return None
    totals = {(0, 0)}
    for toks in sentences:
        counts = words.counts(toks)
        if not counts:
            return None
        totals = {(min(y + a, 2), min(n + b, 2)) for y, n in totals for a, b in counts}
    yeses, noes = {y for y, _ in totals}, {n for _, n in totals}
    if noes == {0} and 0 not in yeses and min(yeses) == 1:
        # every reading says yes, none says no, and the fewest yeses is one ("ja gerne" is one
        # listed phrase or two, "ja, ja" only two)
        return "yes"
    if 0 not in noes:
        return "no"
    return None


def read_code_answer(text: str, words: ReplyWords) -> str | None:
    """The code a reply says when that is all it says ("4821", "Der Code ist vier acht zwei
    eins", "密码是四八二一"), read one way; ``None`` otherwise."""
    sentences = _sentences(text, words.script)
    if not sentences:
        return None
    codes: set[str] = set()
    for toks in sentences:
        found = words.code_in(toks)
        if len(found) != 1:
            return None
        codes |= found - {""}
    return next(iter(codes)) if len(codes) == 1 else None


# ----------------------------------------------------------------------------- the wording
@dataclass(frozen=True)
class GuardWording:
    """One language's words for the guard (``guard_languages/<code>.yaml``)."""

    code: str
    say_yes: str
    say_code: str
    prompt_frame: str
    device_frame: str
    room_frame: str
    decimal: str
    questions: dict[str, str]
    answer_yes: str
    answer_no: str
    reply: ReplyWords | None

    def prompt(
        self, question: str, name: str, room: str | None, values: Iterable[float], coded: bool
    ) -> tuple[str, str]:
        """(the question, the whole prompt): ``question`` is a template with ``{device}`` and
        ``{value}``; ``name`` is already cut to length."""
        device = self.device_frame.format(
            name=name, room=self.room_frame.format(room=room) if room else ""
        )
        value = ", ".join(f"{v:g}".replace(".", self.decimal) + " °C" for v in values)
        asked = question.format(device=device, value=value)
        say = self.say_code if coded else self.say_yes
        return asked, self.prompt_frame.format(question=asked, say=say)


def _read_file(code: str) -> Any:
    text = (
        files(__package__).joinpath("guard_languages", f"{code}.yaml").read_text(encoding="utf-8")
    )
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _reply_words(code: str, raw: dict[str, Any]) -> ReplyWords:
    script = str(raw["script"])
    if script not in _MARKS:
        raise ValueError(f"guard_languages/{code}.yaml: unknown script {script!r}")

    def words_only(items: Any, key: str) -> list[str]:
        # YAML reads a bare no, yes, on, off or null as a boolean or None, and a bare number as a
        # number: a word written so would be read as "false" or "none" (German "null")
        words = [v for v in items if isinstance(v, str)]
        wrong = [v for v in items if not isinstance(v, str)]
        if wrong:
            raise ValueError(
                f"guard_languages/{code}.yaml: {key}: {wrong!r} is not text (quote it: YAML "
                "reads a bare no, yes, on, off or null as a boolean or null)"
            )
        return words

    def phrases(key: str) -> tuple[Phrase, ...]:
        return tuple(sorted({_phrase_tokens(v, script) for v in words_only(raw[key], key)}))

    words = ReplyWords(
        script=script,
        yes=phrases("yes"),
        no=phrases("no"),
        courtesy=phrases("courtesy"),
        code_intros=phrases("code_intros"),
        digits={
            _phrase_tokens(k, script)[0]: int(v)
            for k, v in zip(
                words_only(raw["digits"], "digits"), raw["digits"].values(), strict=True
            )
        },
    )
    # every listed phrase reads alone as what it is listed as, or the list contradicts itself
    for kind in ("yes", "no"):
        for phrase in getattr(words, kind):
            text = "".join(phrase) if script == "han" else " ".join(phrase)
            if read_answer(text, words) != kind:
                raise ValueError(
                    f"guard_languages/{code}.yaml: {text!r} is listed under {kind!r} but does "
                    f"not read as a plain {kind} (another listed phrase reads inside it)"
                )
    return words


def load_wording(language: str | None) -> GuardWording:
    """The guard's words in ``language`` (any code; see :func:`language_code`), checked: every
    yes and no reads as listed, and the simulated user's answers read as a yes and a no (that
    every rule has its question, the policy checks: :func:`.safety.load_policy`). Each
    language's file is read once, whatever the spelling of its code."""
    return _load(language_code(language))


@cache
def _load(code: str) -> GuardWording:
    raw = _read_file(code)
    reply = _reply_words(code, raw["reply"]) if "reply" in raw else None
    answers = raw["answers"]
    wording = GuardWording(
        code=code,
        say_yes=str(raw["say_yes"]),
        say_code=str(raw["say_code"]),
        prompt_frame=str(raw["prompt"]),
        device_frame=str(raw["device"]),
        room_frame=str(raw["room"]),
        decimal=str(raw["decimal"]),
        questions={str(k): str(v) for k, v in (raw.get("questions") or {}).items()},
        answer_yes=str(answers["yes"]),
        answer_no=str(answers["no"]),
        reply=reply,
    )
    if reply is not None and (
        read_answer(wording.answer_yes, reply) != "yes"
        or read_answer(wording.answer_no, reply) != "no"
    ):
        raise ValueError(f"guard_languages/{code}.yaml: the answers do not read as a yes and a no")
    return wording


def question_endings() -> tuple[str, ...]:
    """How every guard question ends, in every language ("Say yes to confirm.", "Sag ja, um zu
    bestätigen." ...): an agent tells the guard's questions from its own by these."""
    return tuple(
        end
        for wording in map(load_wording, GUARD_LANGUAGES)
        for end in (wording.say_yes, wording.say_code)
    )
