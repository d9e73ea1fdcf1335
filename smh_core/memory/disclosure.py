"""A value given to something that opens or identifies: the fail-closed reading of what a memory
says a door, a code, a password, an account's answer or an e-mail IS.

Why: five blind corpora in a row stored secrets that were *described* rather than written ("the
back gate is the year of Hastings with a zero in front", "the alarm company's past word is
marmoset", "when they ask for my nickname, it was Noodle"). A filter that looks for values fails
open on every description nobody listed. This module does what the consent grammar does for the
guard: where a memory links such a thing to something ("X is Y", "X: Y", "X opens with Y", "say
Y"), what follows must positively be a non-value of ``data/value_grammar.yaml`` (where it is
kept, its state, its length, its schedule, a product after "a", who holds it); anything else is
taken for the value and the memory is refused. A wording nobody listed costs a memory, never a
secret.

The subject of a link bears a secret when its head noun is a credential or identity word
(``code``, ``password``, ``answer``, ``email`` ...; with one slip of a speech-to-text engine:
"pass ward", "past word"), or, after a word link, when its head noun is itself an access thing
(a word of ``data/access_words.txt``: "the back gate", "the bike shed lock"; "the front door's
battery is" is about a battery). In a memory about getting in or an account's questions, "it",
"that" and "which" bear one too. Beside the links, the module finds secrets told without one: a
fact of the user's past beside an account (a security answer), directions to the home for
whoever delivers, digits and e-mail addresses as speech-to-text writes them. Every pattern is
bounded, so a memory costs linear time (``tests/memory/test_memory_access.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import yaml

_I = re.IGNORECASE


def _alternation(phrases: list[str]) -> str:
    """Phrases as one regex alternation, longest first, spaces matching any run of spaces."""
    return "|".join(
        re.escape(p).replace(r"\ ", r"\s+") for p in sorted(phrases, key=len, reverse=True)
    )


@dataclass(frozen=True)
class _Grammar:
    link: re.Pattern[str]
    handover: re.Pattern[str]
    attributes: frozenset[str]
    non_value_start: re.Pattern[str]
    pointer: re.Pattern[str]
    filler: re.Pattern[str]


@cache
def _grammar() -> _Grammar:
    data = yaml.safe_load(
        files(__package__).joinpath("data/value_grammar.yaml").read_text(encoding="utf-8")
    )
    words = [w for w in data["links"] if w[0].isalpha()]
    marks = [w for w in data["links"] if not w[0].isalpha()]
    link = re.compile(
        rf"(?<![\w'’])(?P<word>{_alternation(words)})(?![\w'’])|\b(?P<pronoun>it|that|what|which)['’]s\b|"
        rf"(?P<mark>(?<!\d)(?:{_alternation(marks)})|:(?!\d))",
        _I,
    )
    handover = re.compile(rf"(?<![\w'’])(?:{_alternation(data['handover_verbs'])})(?![\w'’])", _I)
    starts = data["places"] + data["states"] + data["schedules"]
    non_value = re.compile(rf"(?:{_alternation(starts)})(?![\w'’])", _I)
    return _Grammar(
        link,
        handover,
        frozenset(data["attribute_nouns"]),
        non_value,
        re.compile(rf"(?:{_alternation(data['pointers'])})(?![\w'’])", _I),
        re.compile(rf"(?:(?:{_alternation(data['fillers'])})\s+)+", _I),
    )


_CREDENTIAL_HEADS = frozenset(
    {
        "code",
        "codes",
        "pin",
        "pins",
        "password",
        "passwords",
        "passcode",
        "passcodes",
        "passphrase",
        "passkey",
        "combination",
        "combo",
        "secret",
        "login",
        "logins",
        "credential",
        "credentials",
        "answer",
        "answers",
        "key",
        "keys",
        "token",
        "pw",
        "pwd",
        "pass",
        "nickname",
        "email",
        "e-mail",
        "mail",
        "phone",
        "mobile",
        "birthday",
        "dob",
        "reg",
        "registration",
        "plate",
        "postcode",
        "zipcode",
        "address",
        "iban",
        "pen",
        "coat",
        "cold",
        "username",
        "cvv",
        "cvc",
        "cvv2",
        "ssn",
        "nino",
        "passport",
    }
)
"""Heads whose value is the secret or the identifier itself ("pen", "coat", "cold": a PIN and a
code as speech-to-text writes them)."""
_IDENTITY_NUMBER = re.compile(
    r"\b(?:my|our|his|her|their|phone|mobile|house|flat|account|card|door|gate|safe|lock|"
    r"keypad|key\s?pad|alarm|garage|box|entry|pin|code)\b",
    _I,
)
_HOME_PLACE_HEADS = frozenset(
    {
        "road",
        "street",
        "town",
        "village",
        "city",
        "postcode",
        "zip",
        "house",
        "flat",
        "apartment",
        "address",
        "lane",
        "avenue",
        "estate",
        "building",
    }
)
_OPENING = re.compile(
    r"\b(?:gets?\s+(?:you\s+|them\s+|me\s+)?(?:in|past|through)|opens?|unlocks?|disarms?|releases?|"
    r"lets?\s+(?:you|them|me|us|people)\s+(?:in|past|through)|stands?\s+down|lets?\s+go)\b",
    _I,
)
"""Words that say something opens, disarms or lets someone in."""
_LETS_IN = re.compile(
    r"\b(?:gets?\s+(?:you\s+|them\s+|me\s+)?(?:in|past|through)|unlocks?|disarms?|"
    r"lets?\s+(?:you|them|me|us|people)\s+(?:in|past|through)|stands?\s+down)\b",
    _I,
)
"""The stronger of them: what lets a person in, whatever the thing is ("gets you past the concierge")."""
_SECRET_WORD = re.compile(
    r"\b(?:pass|code|safe|secret|magic|duress|distress|panic|security|memorable|recovery|seed|key|"
    r"family|emergency|jurors?|past|pass\s?|unlock|unlocking|login|entry|access|made-up|"
    r"stand-?down)\s*(?:word|words|phrase)\b",
    _I,
)
_NOT_SECRET_ADDRESS = re.compile(
    r"\b(?:ip|mac|network|static|hub|router|bridge|server|web|local|lan)\s+address$", _I
)
_SLIP_TARGETS = ("password", "passcode", "passphrase")
_PRONOUNS = frozenset({"it", "that", "which"})
_PREPOSITION = re.compile(
    r"\s(?:of|for|on|in|at|by|with|to|from|under|behind|near|beside|inside|outside|"
    r"over|above|below|into|onto)\s",
    _I,
)
_BOUNDARY = re.compile(
    r"[.!?;\n,()\[\]{}:—–]|(?<![\w'’])(?:and|but|so|or|then|while|whereas|when|if|unless|"
    r"because|although|though|where|which|once|after|before|until|till|that|and\s+then|"
    r"remember|note|keep\s+in\s+mind|don'?t\s+forget|from\s+now\s+on|also)(?![\w'’])",
    _I,
)
_CLAUSE_END = re.compile(
    r"[.!?;:](?:\s|$)|\n|\s(?:—|–|-)\s|(?<![\w'’])(?:and|but|so|or|while|whereas|because|"
    r"although|though|unless|until|if|when)(?![\w'’])",
    _I,
)
_WORD = re.compile(r"[^\W_][\w'’\-]*")
_ADJECTIVE_END = re.compile(
    r"[a-z][a-z\-]{2,}(?:y|ous|ful|ive|able|ible|al|ic|ish|less|ed|ing|ent|ant|ly)$", _I
)
_LENGTH = re.compile(
    r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty)"
    r"[\s\-]*(?:digits?|characters?|chars?|letters?|words?|numbers?|symbols?)\b",
    _I,
)
_DETERMINED_NON_VALUE = re.compile(
    r"the\s+(?:one|ones|other|usual|default|old|new|original|standard|factory|"
    r"installer['’]s)\b(?!\s+(?:of|from|in)\b)",
    _I,
)
_SAME_AS = re.compile(r"the\s+same\b(?P<what>[^,;.]{0,40}?)(?:\bas\s+(?P<as>.*))?$", _I | re.S)
_QUOTE_OR_NAME = re.compile(r"[\"'“‘«]|[A-Z][a-z]")
_PRODUCT_AFTER_A = re.compile(r"(?:a|an)\s+(?![\d])", _I)
_BRAND = re.compile(r"[A-Z](?:[a-z]|[A-Z0-9]{1,})")
_NEGATION = re.compile(r"(?:not|never|no\s+longer|no|none|nothing)\b", _I)
_INFINITIVE = re.compile(
    r"to\s+(?:be|get|go|use|keep|change|ask|call|text|check|press|open|close|lock|unlock|"
    r"let|wait|ring|knock|come|leave|stay|put|take|make|have|do|try|see|look)\b",
    _I,
)
_REPORTED = re.compile(
    r"(?:i|we|you|they|he|she|i'll|we'll|you'll|they'll|he'll|she'll|i'd|we'd|i'm|we're|"
    r"they're|she's|he's|you're)\s+[a-z]",
    _I,
)
_REPORTED_OBJECT = re.compile(r"\b(?:it|them|that|one|this)\b", _I)
"""After a password word, someone's words give no value only when they are about it ("we'll text
it", "I keep it in the safe"); "is just i hate cold feet" is the password."""


_NUMBERED = re.compile(r"(?:[A-Za-z]+\s?)?(?:#|no\.?\s)?\d|[\w\-]*\d")
_ONE = re.compile(r"the\s+(?:[\w.\-'’]+\s+){0,3}?ones?\b", _I)
""""the 2.4 GHz one", "the one that sticks": which of several things, not a value."""
_OBJECT_PRONOUN = re.compile(
    r"(?:it|them|that|this|so|one|yes|no|ok|okay|hello|hi|thanks|sorry|nothing|"
    r"how(?!\s+(?:many|much|long|old|far|big|high|tall|heavy|often|deep|wide)\b)|why|"
    r"when|where|because)\b",
    _I,
)
_THE_NP = re.compile(
    r"(?:the|our|my|your|their|his|her)\s+((?:[\w\-]+\s+){0,3}?)([\w\-]+)(?=\s*(?:$|[,.;!?)]|"
    r"\s(?:and|but|so|or|on|in|at|by|for|of|with|from|to|not|which|that|where|when|if)\b))",
    _I,
)


_QUANTITY_NOUNS = frozenset(
    [
        "volume",
        "number",
        "numbers",
        "year",
        "age",
        "height",
        "width",
        "length",
        "depth",
        "weight",
        "size",
        "count",
        "total",
        "score",
        "temperature",
        "speed",
        "distance",
        "degrees",
        "price",
        "cost",
        "capacity",
        "area",
        "reading",
        "point",
        "limit",
        "minimum",
        "maximum",
        "rate",
    ]
)


def _home_thing(phrase: str) -> bool:
    """A phrase naming a device, a room or an access thing ("the 4G module", "the garden", "the
    garage side door sensor"): which thing, not a value."""
    from .access import _access_words
    from .home_topic import _PLACES, _device_words

    m = _THE_NP.match(phrase)
    if not m:
        return False
    head = m.group(2)
    if head.lower() in _QUANTITY_NOUNS or head.lower() in _VALUE_NOUNS:
        return False  # "the fish tank volume", "the shed's width": a number told another way
    return bool(
        (  # "the weak spot", "the problem": what it is to us; not "the boiling point of water"
            head.lower() in _grammar().attributes
            and not re.match(r"\s*of\b", phrase[m.end() :], _I)
        )
        or _device_words().fullmatch(head)
        or _PLACES.fullmatch(head)
        or _access_words().fullmatch(head)
    )


def _head(subject: str) -> str:
    """The subject's head noun: the last word before its first preposition ("the padlock on the
    trailer" -> "padlock"), with a possessive dropped."""
    first = _PREPOSITION.split(f" {subject} ", maxsplit=1)[0]
    first = re.split(r"\s(?:who|whom|whose)\s", first, maxsplit=1, flags=_I)[
        0
    ]  # "the locksmith who did our doors"
    words = _WORD.findall(first) or _WORD.findall(
        subject
    )  # "for the insurance portal": its last word
    return re.sub(r"['’]s$", "", words[-1].lower()) if words else ""


def _credential_head(subject: str, head: str) -> bool:
    from .home_topic import one_slip

    if head == "address" and _NOT_SECRET_ADDRESS.search(subject.strip()):
        return False
    if head in _CREDENTIAL_HEADS:
        return True
    if head in ("word", "words", "phrase") and _SECRET_WORD.search(subject):
        return True  # "the magic words", "our safe word"; not "the wake word"
    if head in _HOME_PLACE_HEADS and re.search(r"\b(?:our|my)\b", subject, _I):
        return True  # "our road is Cherry Tree Walk", "our house is number fourteen": where we live
    if head in ("number", "no", "digits") and _IDENTITY_NUMBER.search(subject):
        return True  # "the side gate keypad number", "my number", "our house number"
    words = [w.lower() for w in _WORD.findall(subject)][-3:]
    joined = ["".join(words[i:]) for i in range(len(words))]  # "pass ward", "past word"
    return any(j == t or one_slip(j, t) for j in joined for t in _SLIP_TARGETS)


def _bears_secret(subject: str, access: bool, mark: bool) -> bool:
    """Whether the subject of a link bears a secret: a credential or identity head; after a
    word link also an access thing ("the back gate", "the bike shed lock") and, in a memory about
    getting in, a bare "it", "that" or "which"."""
    from .access import _access_words

    head = _head(subject)
    if not head:
        return False
    if mark:  # "the soroban is set to the safe code: ...": the word right before the mark
        last = [w.lower() for w in _WORD.findall(subject)][-1:]
        if last and last[0] in _CODE_WORDS:
            return True
    if _compound_access_head(subject):
        return not mark  # "the key box is ...", "the lock box is ...": two words for one thing
    if _credential_head(subject, head) or head in _KEY_HEADS:
        return True  # a key's value is its place (the caller judges it)
    if _WHAT_SUBJECT.match(subject.strip()):
        return True  # "what the telly wants before it shows the 18-rated channels is ..."
    if _OPENING.search(subject) and re.search(r"\b(?:that|which|to)\b", subject, _I):
        return True  # "the phrase that unlocks YouTube", "the word to get in"
    if mark:
        return False  # "Wi-Fi: Loft-Guest", "Front door — locks itself": a label
    if subject.strip().lower() in _PRONOUNS:
        return access  # in a memory about getting in or an account's questions (not "when it's dark": see the caller)
    return head not in _grammar().attributes and bool(_access_words().fullmatch(head))


_CODE_WORDS = frozenset(
    w
    for w in _CREDENTIAL_HEADS
    if w.startswith(("code", "pin", "pass", "combination", "combo", "login", "pw", "key"))
)
"""The credential heads that name a code, a password or a key: before a mark ("the safe code:")
they are the subject, whatever came before them in the sentence."""


def _compound_access_head(subject: str) -> bool:
    """The subject ends in an access thing named by two words ("the key box", "our lock box")."""
    from .access import _vocabulary

    first = _PREPOSITION.split(f" {subject} ", maxsplit=1)[0]
    words = [re.sub(r"['’]s$", "", w.lower()) for w in _WORD.findall(first)][-2:]
    return len(words) == 2 and " ".join(words) in _vocabulary()[1]


_STRICT_ONE_WORD = re.compile(
    r"(?:[a-z]+ed|shared|unique|personal|different|unknown|new|temporary|valid|invalid|"
    r"long|short|weak|strong|wrong|correct|case[\s\-]sensitive|unset|mine|ours)",
    _I,
)


_DESCRIBED = re.compile(
    r"(?:red|green|blue|amber|orange|yellow|white|black|grey|gray|purple|pink|brown|gold|silver|"
    r"hot|warm|cool|cold|wet|dry|dark|bright|good|bad|nice|great|weird|odd|free|solid)\b",
    _I,
)


def non_value(phrase: str, strict: bool = False, defer_digits: bool = True) -> bool:
    """Whether ``phrase`` (what follows a link) is positively no value: a place, a state, a
    schedule, a length, a product after "a", a negation, "the one on the left", a participle or
    an adjective, someone else's words ("I'll text it"). Empty is none. ``strict`` (after a
    password or code word): one bare word is none only as a participle or a word of sameness
    or kind ("changed", "shared"): "the password is blue" gives the password."""
    g = _grammar()
    if strict and re.search(
        r":|\s[—–]\s", phrase
    ):  # "all one word, no spaces: purple monkey ...": each part
        return all(non_value(part, True, defer_digits) for part in re.split(r":|\s[—–]\s", phrase))
    phrase = phrase.strip(" \t,")
    phrase = g.filler.sub("", phrase, count=1) if g.filler.match(phrase) else phrase
    if not phrase:
        return True
    if strict and len(_WORD.findall(phrase)) == 1:
        return bool(_STRICT_ONE_WORD.fullmatch(_WORD.findall(phrase)[0]))
    if strict and _DESCRIBED.match(phrase):
        return False  # "purple monkey dishwasher": after a password word, words that describe are words of it
    if g.pointer.match(phrase):
        return False
    same = _SAME_AS.match(phrase)
    if same:  # "the same as the front door" names a thing; "the same three digits as our flat number" a value
        return (
            same.group("as") is None
            or _home_thing(same.group("as"))
            or bool(_ONE.match(same.group("as")))
        )
    if re.match(r"[£$€¥₹]\s?\d", phrase):
        return True  # a price: "the new lock was £219"
    if _WEEKDAY_SCHEDULE.match(phrase):
        return True  # "Mondays 8 till 10 only"
    if _QUOTE_OR_NAME.match(phrase) and not _PRODUCT_AFTER_A.match(phrase):
        return False  # a quoted string or a name: "'Copper Kettle'", "Noodle", "Pelham Crescent"
    if _NUMBERED.match(phrase):
        return defer_digits  # a number, "device 4": the access rule's number grammar judges it, where it runs
    if (
        g.non_value_start.match(phrase)
        or _NEGATION.match(phrase)
        or _LENGTH.match(phrase)
        or _INFINITIVE.match(phrase)
        or (_REPORTED.match(phrase) and (not strict or _REPORTED_OBJECT.search(phrase)))
        or _DETERMINED_NON_VALUE.match(phrase)
        or _ONE.match(phrase)
        or _OBJECT_PRONOUN.match(phrase)
        or _home_thing(phrase)
    ):
        return True
    a = _PRODUCT_AFTER_A.match(phrase)
    if a:  # a product ("a Yale 250"), a length, or a kind of home thing ("a brass 4-wheel one")
        rest = phrase[a.end() :]
        return bool(
            _LENGTH.match(rest)
            or _BRAND.match(rest)
            or _ONE.match("the " + rest)
            or _home_thing("the " + rest)
        )
    first = _WORD.match(phrase)
    if first is None:
        return False
    word = first.group(0)
    if (
        strict
    ):  # after a password or code word only a participle describes: "rotated", "sent by text"
        return bool(re.fullmatch(r"[a-z]{2,}(?:ed|ing)", word, _I)) and not re.match(
            r"(?:as|after)\b", phrase[first.end() :].strip(), _I
        )
    return bool(_ADJECTIVE_END.fullmatch(word))


def _subject(text: str, at: int) -> str:
    """The words before a link back to the clause's start."""
    start = max(0, at - 120)
    last = None
    for m in _BOUNDARY.finditer(text, start, at):
        last = m
    if last is not None and last.group(0).lower() in ("that", "which"):
        noun = re.search(
            r"(?:the|a|an|our|my|your|their)\s+(?:[\w\-'’]+\s+){0,2}$",
            text[start : last.start()],
            _I,
        )
        if noun:  # a relative clause: "the phrase that unlocks YouTube" is the subject, not "unlocks YouTube"
            return text[start + noun.start() : at]
    return text[last.end() if last else start : at]


def _complement(text: str, at: int) -> tuple[int, int]:
    end = _CLAUSE_END.search(text, at, min(len(text), at + 160))
    return at, end.start() if end else min(len(text), at + 160)


_IMPERATIVE_BEFORE = re.compile(
    r"(?:^|[.!?;:,\n—–]|\b(?:and|then|just|please|simply|always|only|to))\s*$", _I
)
_DUMMY_IT_BEFORE = re.compile(
    r"\b(?:when|whenever|if|once|while|until|till|before|after|unless|as\s+soon\s+as|because|"
    r"since|cause)\s$",
    _I,
)
_VALUE_NOUNS = frozenset(
    {
        "name",
        "names",
        "year",
        "date",
        "day",
        "number",
        "numbers",
        "digits",
        "answer",
        "word",
        "words",
        "phrase",
        "street",
        "town",
        "city",
        "school",
        "code",
        "password",
        "pin",
        "birthday",
    }
    | _CREDENTIAL_HEADS
)
_PRONOUN_THE = re.compile(
    r"\s*(?:the|its|their)\s+(?:[\w\-]+\s+){0,2}?(?P<head>[\w\-]+)(?=\s*(?:$|[,.;!?)]|\s(?:in|on|at|by|for|"
    r"with|from|of|and|but|so|or|that|which|too)\b))",
    _I,
)


def _pronoun_names_a_thing(phrase: str) -> bool:
    """After "it's"/"that's": "the <thing>" or "a <thing>" names which thing or what kind unless
    the thing is a value noun ("that's the answer", "it's the year we moved in"); "it's got", "it's
    been" are no link at all."""
    g = _grammar()
    phrase = phrase.strip()
    phrase = g.filler.sub("", phrase, count=1) if g.filler.match(phrase) else phrase
    if re.match(r"(?:got|been|gone|had)\b", phrase, _I):
        return True
    m = _PRONOUN_THE.match(re.sub(r"^(?:a|an)\s", "the ", phrase, flags=_I))
    return (
        m is not None
        and m.group("head").lower() not in _VALUE_NOUNS
        and not re.match(r"\s*the\s+(?:first|last|same)\b", phrase, _I)
    )


_WEEKDAY_SCHEDULE = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?\s+(?:and\s+\w+days?\s+)?(?:\d{1,2}(?:[:.]\d{2})?\s?"
    r"(?:am|pm)?\s?(?:to|till|until|-|–)\s?\d|from\b|at\b|only\b|morning|afternoon|evening|night)",
    _I,
)
"""A day and its hours: when, not a value ("Mondays 8 till 10 only")."""
_PHYSICAL_OPENER = re.compile(
    r"\s*(?:the|a|an|its|their|our|my|your)\s+(?:[\w\-]+\s+){0,3}?(?:key|keys|fob|fobs|card|remote|"
    r"app|phone|button|handle|lever|tag)\b(?!\s*(?:word|code|phrase|number|pin)\b)"
    r"(?:\s+(?:on|from|in|with|that|which)\b[^\d\"“'‘]*)?$",
    _I,
)
"""What opens it is a thing, not a value: "open with the small key on the green ring", "unlocks
with the app". Not "the key word ...", and nothing quoted or numbered after it."""
_WHAT_OPENS = re.compile(
    r"[^.;!?\n]{1,80}\b(?:is|are|was)\s+(?:also\s+|just\s+|exactly\s+)?(?:what|how)\s+(?:opens|unlocks|"
    r"disarms|gets\s+(?:you\s+)?in|i\s+type|you\s+type|we\s+type|i\s+say|you\s+say|we\s+say|"
    r"i\s+enter|you\s+enter)\b",
    _I,
)
"""A value and then what it does ("number 5147 is also what opens the bike lockers", "'tangerine
lighthouse' is what I type after my e-mail")."""
_SPOKEN_QUOTE = re.compile(
    r"(?:[\"“«]|(?<!\w)['‘])[^\"”»'’\n]{2,80}(?:[\"”»]|['’](?!\w))[^.;!?\n]{0,60}?\b(?:spoken|said|says|say|hears?|"
    r"heard|typed?|entered|enter|sung|whisper(?:ed)?|shout(?:ed)?)\b|\b(?:spoken|said|says|say|hears?|"
    r"heard|types?|typed|enters?|entered|speak|whisper|shout)\b[^.;!?\n]{0,40}?(?:[\"“«]|(?<!\w)['‘])"
    r"[^\"”»'’\n]{2,80}",
    _I,
)
"""In a memory where something opens: words to say or type, in quotes."""
_STEPS = re.compile(
    r"\b(?:then|and\s+then)\b[^.;!?\n]{1,60}?\b(?:then|and\s+then)\b|\b(?:twice|three\s+times|four\s+times|"
    r"five\s+times|six\s+times|seven\s+times|\d\s+times)\b[^.;!?\n]{0,60}?\bthen\b",
    _I,
)
"""A sequence of steps ("to 19, then 23, then 17", "twice, wait, then ... four times"): in a memory
where something opens, the steps are its code."""
_DIRECTIONS = re.compile(
    r"(?<![\w])(?:up|down|left|right|north|south|east|west|clockwise|anti-?clockwise|"
    r"counter-?clockwise|[UDLR])(?:[\s,\-]{1,3}(?:up|down|left|right|north|south|east|west|"
    r"clockwise|anti-?clockwise|counter-?clockwise|[UDLR])){3,}(?![\w])",
    _I,
)
"""Four or more directions in a row: a directional padlock's or a dial's code."""
_QUOTED_AFTER_WORD = re.compile(
    r"\b(?<!wake\s)(?<!hot\s)(?:pass\s?word|passphrase|pass\s?code|code\s?word|"
    r"safe\s?word|secret\s+word|made-up\s+word|magic\s+words?)\s*[:,]?\s*"
    r"(?:[\"“«]|(?<!\w)['‘])[^\"”»'’\n]{2,80}",
    _I,
)
"""A credential word with its value in quotes right after it ("the alarm company passphrase
'Lindisfarne'")."""
_CLI_PASSWORD = re.compile(
    r"(?:\bmosquitto_passwd\s+-b\s+\S{1,80}\s+\S{1,64}\s+|"
    r"\b(?:mysql|mysqldump|mariadb|mariadb-dump|sshpass|mosquitto_(?:pub|sub))\b[^\n]{0,80}?\s-p\s?|"
    r"--pass(?:word)?[=\s])['\"]?(?P<v>[^\s'\"]{2,64})",
    _I,
)
"""A password on a command line ("mysqldump -u hass -pRhubarb2024", "--password=...")."""
_BIRTH_WORD = re.compile(r"\b(?:dates?\s+of\s+birth|d\.?o\.?b|birthdays?|born)\b", _I)
_MONTH = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DATE_WITH_YEAR = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTH})|(?:{_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?),?\s+(?:19|20)\d{{2}}\b|"
    r"\b\d{1,2}[/.\-]\d{1,2}[/.\-](?:19|20)\d{2}\b",
    _I,
)
"""A full date with its year, in a memory about a birth or a birthday: a date of birth."""
_ORDINALS = (
    r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|"
    r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|fortieth|"
    r"\d{1,2}(?:st|nd|rd|th)"
)
_ORDINAL_RUN = re.compile(
    rf"\b(?:{_ORDINALS})\b(?:[^.;!?\n\d]{{0,24}}?\b(?:{_ORDINALS})\b){{2,8}}",
    _I,
)
"""Three or more ordinals in a row in a memory about getting in ("the eighth key, the first, the
fifth", "twelfth mark, then the thirtieth, then the seventh"): a code told by positions."""
_KEY_HEADS = frozenset({"key", "keys", "spare", "spares"})
_HIDING_PLACE = re.compile(
    r"(?:in|inside|under|underneath|beneath|behind|on\s+top\s+of|above|below|by|near|next\s+to|"
    r"beside|among|between|at\s+the\s+(?:back|bottom|top)|taped|hidden|tucked|buried|stashed|"
    r"kept|left|hung|hanging)\b",
    _I,
)
_WHERE_KEY = re.compile(
    r"\bwhere(?:['’]s|\s+is|\s+are)?\s+(?:the\s+|our\s+|my\s+)?(?:spare\s+|back-?up\s+|extra\s+)?(?:keys?|spare)"
    r"(?:\s+(?:is|are)\b|\?)"
    r"[\s\S]{0,200}?\b(?:in|on|inside|under|underneath|beneath|behind|on\s+top\s+of)\b[^\n.;]{0,80}"
    r"|\b(?:spare\s+|back-?up\s+)?keys?(?:['’]s|\s+(?:has|is|was))?\s+(?:moved|gone|now)\b[^.\n]{0,60}?"
    r"\b(?:to|in|under|behind|inside|on\s+top|the\s+top)\b[^\n.;]{0,60}",
    _I,
)
"""Where a key is, asked and answered ("keep in mind where the spare key is / ... / inside the old
watering can"): the hiding place."""
_WHAT_SUBJECT = re.compile(
    r"what\s+[^,;.!?]{0,60}?\b(?:wants?|needs?|asks?\s+for|takes|opens|unlocks|gets\s+(?:you\s+)?in|to\s+type|to\s+enter|"
    r"to\s+say|(?:i|you|we)\s+(?:type|enter|say|punch|put\s+in))\b",
    _I,
)
"""A free relative that names what opens or is typed ("what the telly wants before ...", "what I
type at the lock screen"): the subject of a value."""
_SELF_QA = re.compile(
    r"\b(?:how\s+do\s+(?:i|we|you)\s+(?:get\s+(?:in|into|past)|log\s+in|open|unlock|disarm)|what['’]s\s+the\s+"
    r"(?:[\w\-]+\s+){0,3}?(?:code|password|pin|combo|combination|login)|what\s+do\s+(?:i|we|you)\s+(?:type|enter|say))"
    r"\b[^?\n]{0,80}\?\s*[^\s?][^?\n]{0,120}",
    _I,
)
"""A question the user asks themself about getting in, and its answer after it ("how do I get into
the router again? admin and Wombat-Pouch-3")."""
_QUESTION = re.compile(
    r"\b(?:asks?|asked|asking|questions?|prompts?|verify|verification|security|memorable|recovery|"
    r"reset)\b",
    _I,
)


def disclosed_values(text: str, access: bool) -> list[tuple[int, int]]:
    """Spans of values linked to a secret-bearing subject that the grammar cannot account for.
    ``access``: the memory is about getting in (pronoun subjects and hand-over verbs count;
    so do they in a memory about an account's questions). A key's place is its value: "the key
    for the side door is in the coir liner" tells where to find it."""
    g = _grammar()
    access = access or bool(_QUESTION.search(text))
    found: list[tuple[int, int]] = []
    for n, m in enumerate(g.link.finditer(text)):
        if n >= 64:
            found.append((m.start(), len(text)))  # past a memory's few clauses: fail closed
            break
        if m.group("pronoun") and _DUMMY_IT_BEFORE.search(text[max(0, m.start() - 16) : m.start()]):
            continue  # "whenever it's date night", "if it's raining": no thing is meant
        subject = m.group("pronoun") or _subject(text, m.start())
        sentence = re.split(r"[.!?;\n]", text[max(0, m.start() - 160) : m.start()])[-1]
        if _WHAT_SUBJECT.match(sentence.strip()) and m.group("word"):
            subject = (
                sentence  # "what the telly wants before it'll show the 18-rated channels is ..."
            )
        if m.group("word") and _OPENING.match(m.group("word")):
            a, b = _complement(text, m.end())  # "opens with Boxing Day written the American way"
            counted = re.match(
                r"\s*(?:a|one|two|three|\d{1,2})\s+[a-z]+s?\b(?!\s*\d)", text[a:b], _I
            )
            physical = _PHYSICAL_OPENER.match(text[a:b])
            if (
                not counted
                and not physical
                and not non_value(text[a:b], strict=True, defer_digits=access)
            ):
                found.append((a, b))
            continue
        if not subject.strip() or not _bears_secret(subject, access, m.group("mark") is not None):
            continue
        a, b = _complement(text, m.end())
        head = _head(subject)
        if m.group("pronoun") and _pronoun_names_a_thing(text[a:b]):
            continue  # "it's the v2", "it's the label in the meter cupboard": which thing, not a value
        hiding = head in _KEY_HEADS and _HIDING_PLACE.match(text[a:b].strip())
        if hiding or not non_value(
            text[a:b], strict=_credential_head(subject, head), defer_digits=access
        ):
            found.append((a, b))
    found += [m.span() for m in _WHERE_KEY.finditer(text)]
    found += [m.span() for m in _WHAT_OPENS.finditer(text)]
    found += [m.span() for m in _SELF_QA.finditer(text)]
    found += [m.span("v") for m in _CLI_PASSWORD.finditer(text)]
    if _BIRTH_WORD.search(text):
        found += [m.span() for m in _DATE_WITH_YEAR.finditer(text)]
    if access:
        found += [m.span() for m in _ORDINAL_RUN.finditer(text)]
    found += [m.span() for m in _QUOTED_AFTER_WORD.finditer(text)]
    if access:
        found += [m.span() for m in _DIRECTIONS.finditer(text)]
        if _OPENING.search(
            text
        ):  # something opens: words said or typed in quotes, and steps, are its code
            found += [m.span() for m in _SPOKEN_QUOTE.finditer(text)] + [
                m.span() for m in _STEPS.finditer(text)
            ]
    if access or _LETS_IN.search(text):
        for m in g.handover.finditer(text):
            if not _IMPERATIVE_BEFORE.search(
                text[max(0, m.start() - 40) : m.start()]
            ) and not re.search(
                r"\b(?:i|we|they|you)\s$", text[max(0, m.start() - 6) : m.start()], _I
            ):
                continue  # "the booking reply", "needs Enter pressed": a noun, not an order
            a, b = _complement(text, m.end())
            if not non_value(text[a:b]):
                found.append((a, b))
    return found


# --- secrets told without a link ------------------------------------------------------------------

_ACCOUNT = re.compile(
    r"\b(?:account|app|portal|company|bank|login|log-?in|site|website|service|provider|insurer|"
    r"insurance|broadband|utility|utilities|verification|security|recovery|reset)\b",
    _I,
)
_HISTORY = re.compile(
    r"\b(?:(?:i|we)\s+(?:grew\s+up|was\s+born|were\s+born|went\s+to|first\s+met|met|used\s+to\s+live|lived|studied|"
    r"married|honeymooned)|my\s+(?:first|childhood|old\s+school|best\s+friend|favou?rite\s+(?:teacher|book|film|"
    r"movie|food|band|singer|author|team|holiday|subject))\b|(?:my|our)\s+(?:\w+\s+)?(?:father|mother|dad|mum|mom|"
    r"parents|grandmother|grandfather|grandma|grandpa|gran|nan|grandad)(?:['’]s)?\s+(?:\w+\s+)?(?:name|born|met|grew|"
    r"married|lived)|"
    r"middle\s+name|maiden\s+name|nickname\b|honeymoon|pet['’]s\s+name|street\s+i\s+grew)",
    _I,
)
"""What a security question asks about: the user's own past ("the street I grew up on", "my
father's middle name", "where we went on honeymoon")."""


_QA = re.compile(
    r"\bQ\s?[:.]\s?(?=[^\n]{0,160}?\byour?\b)[^\n]{3,160}?\bA\s?[:.]\s?\S[^\n]{0,80}", _I
)
"""A question about the user ("... where you were born?") and its answer."""
_BORN_ON = re.compile(r"\bborn\s+(?:on|in)\s+[^.;!?\n]{0,40}?\d[^.;!?\n]{0,40}", _I)


def account_history(text: str) -> list[tuple[int, int]]:
    """A fact of the user's own past in a memory that names an account, an app or a company:
    the answer to its security question, however it is told; a question and its answer ("Q:
    ... A: ..."); a birth date in any calendar ("born on 23 Farvardin 1364")."""
    found = [m.span() for m in _QA.finditer(text)] + [m.span() for m in _BORN_ON.finditer(text)]
    if _ACCOUNT.search(text):
        found += [m.span() for m in _HISTORY.finditer(text)]
    return found


_VISIT = re.compile(
    r"\b(?:deliver(?:y|ies)|courier|driver|taxi|cab|van|postman|postie|directions|find(?:s)?\s+us|"
    r"get\s+to\s+us|(?:our|my|house|home|the)\s+address|where\s+we\s+live|we\s+live|(?:we|i)\s+live\s+at|"
    r"sat\s?nav|pin\s+drop|visitors?\s+find)\b",
    _I,
)
_STREET = re.compile(
    r"(?:[A-Z][\w'’]+\s){1,3}(?:Street|St|Road|Rd|Row|Lane|Ln|Avenue|Ave|Crescent|Close|Drive|Way|"
    r"Court|Place|Terrace|Gardens|Hill|Square|Grove|Mews|Walk|Parade|Cottage|Farm|House)\b|"
    r"\b[ABM]\d{1,4}\b|\b(?:Flat|Apartment|Apt|Unit|No\.?|Number|number|flat)\s?\d{1,4}\b|"
    r"\b(?:we['’]re|we\s+are)\s+the\s+(?:\w+\s+){0,2}(?:house|home|flat|cottage|door|bungalow|farm)\b"
)


def home_directions(text: str) -> list[tuple[int, int]]:
    """Where the home is, told to whoever comes: a street, a road number, a house or flat number,
    "we're the fourth house", in a memory about deliveries, taxis or directions."""
    if not _VISIT.search(text):
        return []
    return [m.span() for m in _STREET.finditer(text)]


_SOUNDS_LIKE = {
    "won": "1",
    "to": "2",
    "too": "2",
    "for": "4",
    "fore": "4",
    "ate": "8",
    "tree": "3",
    "free": "3",
    "sicks": "6",
    "fife": "5",
    "nein": "9",
    "niner": "9",
    "oh": "0",
    "o": "0",
    "zed": "z",
    "zee": "z",
    "ex": "x",
    "why": "y",
    "are": "r",
    "tee": "t",
    "dash": "-",
    "double": "",
    "triple": "",
}
"""Digits and letters as a speech-to-text engine writes them ("ate to fore won", "are why sicks")."""
_DIGIT_NAMES = frozenset(
    {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
)
_WEAK = frozenset(
    {"to", "too", "for", "oh", "o", "are", "why", "free", "double", "triple", "dash", "tee"}
)
_SPOKEN = re.compile(
    r"(?<![\w'’])(?:"
    + "|".join(sorted(_SOUNDS_LIKE.keys() | _DIGIT_NAMES, key=len, reverse=True))
    + r")(?:[\s,\-]{1,3}(?:"
    + "|".join(sorted(_SOUNDS_LIKE.keys() | _DIGIT_NAMES, key=len, reverse=True))
    + r")){2,30}(?![\w'’])",
    _I,
)


def spoken_digits(text: str, access: bool) -> list[tuple[int, int]]:
    """A run of digits read out as a speech-to-text engine hears them: in a memory about getting
    in, three or more words with one that only a digit explains ("for for to ate"); elsewhere
    four or more with three such ("five five five dash oh won for too")."""
    found = []
    for m in _SPOKEN.finditer(text):
        words = re.findall(r"[^\W\d_]+", m.group(0).lower())
        strong = sum(w not in _WEAK for w in words)
        if (access and len(words) >= 3 and strong >= 1) or (len(words) >= 4 and strong >= 3):
            found.append(m.span())
    return found


_SPOKEN_EMAIL = re.compile(
    r"(?<![\w'’.\-])[^\W\d_][\w.\-]{0,40}(?:\s(?:dot|underscore|dash)\s[\w\-]{1,40}){0,4}\sat\s"
    r"(?:[\w\-]{1,40}\s){0,3}?dot\s[\w\-]{1,40}(?:\sdot\s[\w\-]{1,40}){0,4}",
    _I,
)
"""An e-mail address read out: "dana dot whitlow at example dot calm"."""


def spoken_emails(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _SPOKEN_EMAIL.finditer(text)]


def disclosures(text: str) -> list[tuple[int, int, str]]:
    """Everything this module finds in a memory, as (start, end, kind)."""
    from .access import about_access

    access = about_access(text)
    return (
        [(a, b, "access_value_given") for a, b in disclosed_values(text, access)]
        + [(a, b, "security_answer") for a, b in account_history(text)]
        + [(a, b, "home_location") for a, b in home_directions(text)]
        + [(a, b, "access_number_words") for a, b in spoken_digits(text, access)]
        + [(a, b, "email_address") for a, b in spoken_emails(text)]
    )
