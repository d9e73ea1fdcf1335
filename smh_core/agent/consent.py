"""What the user asks for in their own words: requests, parsed, for the action guard.

Why: a high-risk action (unlocking, disarming, starting an oven ...) may run only when the user
asked for *that* action on *that* device. Keyword presence is not asking: "don't unlock the
front door", "did you unlock the front door?", a neighbour's text the user relays, or a word of
one request counting for another device all contain the words. So the user's text is parsed
into requests, and only a request counts:

1. :func:`own_text` keeps the user's own words: quoted text in any quoting style (straight,
   curly, low-9, guillemets, CJK corner brackets, backticks, single quotes that are not
   apostrophes), quotes that span lines or whose marks do not match, an unclosed quote (to the
   end), e-mail style ``>`` lines, forwarded blocks, and reported text after a colon ("my
   neighbour texted: ...", to the end of that line) are someone else's.
2. :func:`requests` splits the rest into clauses and keeps those that ask: an imperative
   ("unlock the front door", "please turn the oven on") or a first-person wish ("I want you to
   unlock ...", "I'd like the oven on"). Questions, negations ("don't", "never", "no need"),
   hedges ("maybe", "if", "whether") and clauses whose subject is someone else ("my son wants
   you to ...") are not requests.
3. Each request keeps its verb, its object phrase and the values it states with their units
   (:class:`Quantity`): a number is a temperature only with a temperature unit, or right after
   "to"/"on" with no other unit and not a clock time. The guard then binds the object phrase
   to a device through the agent's resolver (:mod:`.resolve`), never by word overlap alone.

Text is folded first (:func:`fold`): NFKC, zero-width and bidirectional controls removed,
Cyrillic and Greek look-alikes mapped to Latin letters, accents dropped, lower case, so a
device named with confusables reads like the name it imitates (and ties with it).

Everything here is deterministic, linear in the text and free of model calls.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# ----------------------------------------------------------------------------- folding
_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
                        "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]")
"""Zero-width, joiner, bidirectional-control and variation-selector characters: invisible, so a
name that contains them looks like one that does not."""
_LOOK_ALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l",
    "ԛ": "q", "ԝ": "w", "ո": "n", "ս": "u", "ɡ": "g", "ɑ": "a", "ο": "o", "α": "a", "ν": "v", "ι": "i",
    "κ": "k", "ρ": "p", "χ": "x", "υ": "u", "τ": "t", "ε": "e", "η": "n", "ω": "w", "μ": "u",
    "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p", "С": "c", "Т": "t",
    "Х": "x", "У": "y", "І": "i", "Ј": "j", "Ѕ": "s", "Ԁ": "d", "Һ": "h", "Ӏ": "l", "Ԛ": "q", "Ԝ": "w",
    # Greek capitals
    "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m", "Ν": "n", "Ο": "o",
    "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x",
    # others that NFKC keeps
    "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe", "ℓ": "l",
})
"""Letters that look like Latin ones (Unicode's confusables for the Latin alphabet, the common
part): folded to the letter they imitate."""


def fold(text: str) -> str:
    """``text`` as the guard compares it: NFKC, invisible characters removed, look-alikes
    mapped to Latin letters, accents dropped, lower case, whitespace collapsed."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).translate(_LOOK_ALIKES)
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return " ".join(text.translate(_LOOK_ALIKES).casefold().split())


# ----------------------------------------------------------------------------- the user's own words
_DOUBLE = set('"“”„‟«»‹›「」『』〝〞〟＂`´')
_SINGLE = set("'‘’‚‛")
_RELAY_WORDS = re.compile(
    r"\b(said|says|say|saying|wrote|writes|write|written|text(?:ed|s)?|messag(?:e|ed|es)|note|notes|"
    r"e-?mail(?:ed|s)?|mail|voicemail|sms|chat|post(?:ed)?|tweet(?:ed)?|notice|notification|sign|"
    r"reads?|told|tells?|ask(?:ed|s)?|reminder|forward(?:ed)?|quot(?:e|ed|es)|instructions?|shows?|"
    r"showed|displays?|displayed|printed|label|sticker|letter|memo|dm|whatsapp|signal|telegram|"
    r"slack|call(?:ed)?|rang|left|sent|send|pinged|wants|announced|claims?|claimed|goes|went)\b")
"""Words that introduce someone else's words before a colon ("my son texted: ...")."""
_FORWARD_HEADER = re.compile(r"(?:-{2,}\s*)?(?:forwarded|original)\s+message|begin\s+forwarded|^\s*(?:from|sent|subject)\s*:",
                             re.I)


def _is_apostrophe(text: str, i: int) -> bool:
    """A single quote between two letters or digits (don't, it's, rock'n'roll) or after a
    word's last letter before a space (James' car) is an apostrophe, not a quote mark."""
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return before.isalnum() and (after.isalnum() or after.isspace() or after in ".,;:!?")


def _strip_quotes(text: str) -> str:
    """``text`` with quoted spans blanked: any double-quote-like mark opens or closes (so a span
    whose marks do not match, or that crosses lines, is still one span); a single quote counts
    when it is not an apostrophe; an unclosed quote runs to the end."""
    out: list[str] = []
    quoted = False
    for i, ch in enumerate(text):
        mark = ch in _DOUBLE or (ch in _SINGLE and not (not quoted and _is_apostrophe(text, i))
                                 and not (quoted and text[i - 1: i].isalnum() and text[i + 1: i + 2].isalnum()))
        if mark:
            quoted = not quoted
            out.append(" ")
        elif ch == "\n":
            out.append("\n")
        else:
            out.append(" " if quoted else ch)
    return "".join(out)


def own_text(text: str) -> str:
    """The user's own words in ``text``: quoted, forwarded and reported text left out (blanked,
    so clause boundaries stay where they were)."""
    lines = _strip_quotes(text).split("\n")
    kept: list[str] = []
    forwarded = False
    for line in lines:
        stripped = line.strip()
        if forwarded or _FORWARD_HEADER.search(stripped):
            forwarded = True  # a forwarded block runs to the end of the turn
            kept.append("")
            continue
        if stripped.startswith((">", "|")):
            kept.append("")
            continue
        kept.append(_drop_reported(line))
    return "\n".join(kept)


def _drop_reported(line: str) -> str:
    """A line up to a colon that follows a relay word in its sentence ("my neighbour texted:"):
    what comes after is someone else's, to the end of the line."""
    for m in re.finditer(r"[:：]", line):
        start = max(line.rfind(".", 0, m.start()), line.rfind("!", 0, m.start()), line.rfind("?", 0, m.start()))
        head = fold(line[start + 1: m.start()])
        if re.search(r"\d$", head) and line[m.end(): m.end() + 1].isdigit():
            continue  # a clock time, 7:30
        if _RELAY_WORDS.search(head) or not head:
            return line[: m.start()] + " ." + " " * (len(line) - m.start() - 2)
    return line


# ----------------------------------------------------------------------------- numbers and units
_UNITS_TEMPERATURE = {"°": "deg", "º": "deg", "degree": "deg", "degrees": "deg", "deg": "deg", "°c": "C",
                      "ºc": "C", "℃": "C", "c": "C", "celsius": "C", "centigrade": "C", "°f": "F", "ºf": "F",
                      "℉": "F", "f": "F", "fahrenheit": "F", "k": "K", "kelvin": "K", "kelvins": "K"}
_OTHER_UNITS = re.compile(
    r"^(?:%|(?:percent|per\s*cent|pct|min|mins|minutes?|h|hrs?|hours?|s|secs?|seconds?|ms|am|pm|a\.m|p\.m|"
    r"o'?clock|oclock|days?|weeks?|months?|years?|times|x|l|litres?|liters?|ml|gal|gallons?|kwh|wh|kw|w|"
    r"watts?|v|volts?|a|amps?|lux|lx|lm|db|rpm|kg|g|grams?|lbs?|pounds?|oz|people|persons?|guests?|"
    r"dollars?|euros?|bucks|cents?|km|m|cm|mm|miles?|ft|feet|inch(?:es)?|levels?|steps?|notches|"
    r"channel|ppm|mg|bar|psi|portions?|servings?|slices?|eggs?|cups?|loaves?)\b)")
_WORD_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_NUMBER_WORD = "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
_WORDS_NUMBER = re.compile(
    rf"\b(?:(?:{_NUMBER_WORD})\s+hundred(?:\s+and)?(?:[\s-]+(?:{_NUMBER_WORD}))*|(?:{_NUMBER_WORD})"
    rf"(?:[\s-]+(?:{_NUMBER_WORD}))*)(?:\s+point\s+(?:{_NUMBER_WORD}))?\b")


def words_to_number(text: str) -> float | None:
    """"seventy-five" -> 75, "one hundred and forty" -> 140, "sixty five point five" -> 65.5;
    ``None`` when ``text`` is not a number in words."""
    whole, _, frac = text.replace("-", " ").partition(" point ")
    value = 0
    for word in whole.split():
        if word == "and":
            continue
        if word == "hundred":
            value = max(value, 1) * 100
        elif word in _WORD_NUMBERS:
            value += _WORD_NUMBERS[word]
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


_NUMBER = re.compile(r"(?<![\w.:,])(-?\d+(?:[.,]\d+)?)(?![\d:]|[.,]\d)")


def quantities(clause: str) -> list[Quantity]:
    """Temperatures stated in a (folded) clause: a number with a temperature unit, or a bare
    number right after "to"/"on"/"=" that no other unit follows. Clock times (7:30, 7 pm, "at
    7"), percentages, durations and counts are not temperatures."""
    text = _WORDS_NUMBER.sub(lambda m: _number_text(m.group(0)), clause)
    found: list[Quantity] = []
    for m in _NUMBER.finditer(text):
        value = float(m.group(1).replace(",", "."))
        rest = text[m.end():].lstrip()
        unit_match = re.match(r"(°\s*[cfk]?|º\s*[cfk]?|℃|℉|degrees?(?:\s+(?:celsius|centigrade|fahrenheit|c|f))?|"
                              r"deg\b(?:\s*[cf]\b)?|celsius|centigrade|fahrenheit|kelvins?|[cfk]\b)", rest)
        if unit_match:
            raw = unit_match.group(0).replace(" ", "")
            unit = _unit_of(raw)
            found.append(Quantity(value, unit))
            continue
        if _OTHER_UNITS.match(rest) or text[m.end(): m.end() + 1].isalpha():
            continue  # another unit, or glued letters ("2nd", "7pm")
        before = text[: m.start()].rstrip()
        if re.search(r"(?:\bto|\bon|=|\bat\s+setting)$", before):
            found.append(Quantity(value, ""))
    return found


def _unit_of(raw: str) -> str:
    raw = raw.replace("º", "°")
    if raw.startswith("degree"):
        tail = raw.removeprefix("degrees").removeprefix("degree")
        return _UNITS_TEMPERATURE.get(tail, "deg") if tail else "deg"
    if raw.startswith("deg") and raw != "deg":
        return _UNITS_TEMPERATURE.get(raw[3:], "deg")
    return _UNITS_TEMPERATURE.get(raw, "deg")


def _number_text(words: str) -> str:
    value = words_to_number(words)
    return words if value is None else f"{value:g}"


# ----------------------------------------------------------------------------- clauses and requests
_NEGATION = re.compile(
    r"\b(not|no|never|don'?t|dont|doesn'?t|didn'?t|won'?t|wouldn'?t|shouldn'?t|can'?t|cannot|mustn'?t|"
    r"isn'?t|aren'?t|wasn'?t|nobody|nothing|neither|nor|without|avoid|refrain|cancel|undo|stop|"
    r"forget|instead|rather|except|unless|nope|nah|hold\s+off|no\s+need|leave)\b|n't\b")
_HEDGE = re.compile(
    r"\b(maybe|perhaps|possibly|probably|might|may\s+be|whether|if|in\s+case|wonder(?:ing)?|unsure|"
    r"not\s+sure|thinking\s+(?:about|of)|consider(?:ing)?|suppose|supposing|hypothetically|someday|"
    r"kidding|joking|imagine|pretend|would\s+it|should\s+(?:i|we)|shall\s+(?:i|we)|what\s+if|how\s+about|"
    r"ought|could|would(?!\s+(?:like|love|prefer))|should|wanna\s+know|curious)\b")
_DISCOURSE = re.compile(
    r"^(?:(?:ok(?:ay)?|hey|hi|hello|so|now|and|then|also|please|pls|kindly|just|alright|all\s+right|right|"
    r"well|oh|first|next|finally|after\s+that|afterwards|then\s+also|plus|lastly|thanks|thank\s+you|"
    r"go\s+ahead\s+and|quickly|quick|asap|right\s+away|immediately|assistant|smh|computer|jarvis|"
    r"google|alexa|siri|tonight|tomorrow|today|this\s+(?:morning|evening|afternoon)|at\s+(?:noon|midnight)|"
    r"at\s+\d[\d:.]*(?:\s?[ap]\.?m\.?)?|in\s+\d+\s+\w+|every\s+\w+|each\s+\w+|daily|nightly|weekly|"
    r"on\s+\w+days?|weekdays|weekends|at\s+(?:sunset|sunrise|dusk|dawn|night))\b[\s,!]*)+")
_WISH = re.compile(
    r"^(?:i|we)\s*(?:'d|would)?\s*(?:really\s+)?(?:want|need|like|love|wish|prefer|require)s?\b\s*"
    r"(?:(?:you|u)\s+to\b|to\s+have\b|to\b)?\s*")
_LETS = re.compile(r"^let'?s\s+")
_CLAUSE_SPLIT = re.compile(r"\s*(?:,\s*(?:and|but|then|so|also|plus)?|\band\s+then\b|\bthen\b|\band\b|\bbut\b|"
                           r"\balso\b|\bafter\s+that\b|\bplus\b)\s*")


@dataclass(frozen=True)
class Target:
    """One object of a request ("the front door lock in the hall") and the temperatures stated
    for it ("... to 70 degrees")."""

    phrase: str
    quantities: tuple[Quantity, ...] = ()


@dataclass(frozen=True)
class Request:
    """One thing the user asks for: the verb as said (folded, particles joined: "turn on"), its
    objects with their values, and the clause itself."""

    verb: str
    targets: tuple[Target, ...]
    clause: str = ""


_PARTICLES = ("on", "off", "up", "down", "in", "out", "open", "back")
_OBJECT_END = re.compile(r"\s(?:to|at|for|until|till|by|with|so|because|since|while|before|after|when|as|"
                         r"from|now|please|right|asap|again|too|immediately|tonight|today|tomorrow|later|"
                         r"then|which|that|who|whose|where)\b.*$")


def sentences(text: str) -> list[tuple[str, bool]]:
    """(sentence, is_question) of folded own text: split at . ! ? ; and line breaks; a decimal
    point or a clock's colon does not end one."""
    out: list[tuple[str, bool]] = []
    for m in re.finditer(r"[^.!?;\n？！。；]+(?:(?<=\d)\.(?=\d)[^.!?;\n？！。；]*)*([.!?;\n？！。；]*)", text):
        body = m.group(0).rstrip(".!?;\n？！。； ").strip()
        if body:
            out.append((body, "?" in m.group(1) or "？" in m.group(1)))
    return out


def _clauses(sentence: str) -> list[str]:
    """A sentence split where a new clause starts with a verb-like word: "open the blinds and
    turn on the lamp" -> two; "unlock the front door and the back door" stays one."""
    parts = _CLAUSE_SPLIT.split(sentence)
    out: list[str] = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        first = part.split()[0]
        if out and not (first in VERBS or _DISCOURSE.match(part) or _WISH.match(part) or first in ("i", "we",
                                                                                                      "let's", "lets")):
            out[-1] += " and " + part  # another object of the same verb
        else:
            out.append(part)
    return out


VERBS = frozenset({
    "turn", "switch", "set", "put", "make", "open", "close", "shut", "lock", "unlock", "unbolt", "unlatch",
    "disarm", "arm", "disable", "enable", "deactivate", "activate", "silence", "mute", "start", "stop", "run",
    "resume", "restart", "pause", "preheat", "heat", "warm", "cool", "bake", "roast", "grill", "broil", "cook",
    "steam", "defrost", "thaw", "reheat", "microwave", "boil", "raise", "lower", "increase", "decrease",
    "crank", "bump", "boost", "dial", "adjust", "change", "lift", "let", "fire", "get", "keep", "leave",
    "play", "dim", "brighten", "release", "pop", "kill", "cut", "power", "flip", "toggle", "bring", "crack",
    "drop", "push", "pull", "roll", "draw", "give", "use", "send", "tell", "show", "check", "read", "remind",
    "schedule", "remember", "go", "do", "take", "have", "add", "clean", "vacuum", "mop", "wash", "dry",
    "retract", "extend", "buzz", "admit", "override", "jack", "ramp", "hike", "drive",
})
"""Verbs a request can start with (and so a clause): any household command, so that "open the
blinds and turn on the lamp" splits into two clauses before the verbs are matched to rules."""


STATES = frozenset({"unlocked", "open", "opened", "unbolted", "disarmed", "off", "deactivated", "disabled",
                    "on", "running", "started", "preheated", "preheating", "heating", "baking", "hot", "hotter",
                    "warm", "warmer", "up", "raised", "lifted"})
"""State words of a wish ("I want the door unlocked"): they stand for the verb of the request."""


def requests(text: str) -> list[Request]:
    """The requests in the user's own words of ``text`` (see the module docstring)."""
    out: list[Request] = []
    for sentence, question in sentences(fold(own_text(text))):
        if question:
            continue  # a clause that starts with "can you", "is", "when does" has no verb first anyway
        for clause in _clauses(sentence):
            request = _request(clause)
            if request is not None:
                out.append(request)
    return out


def _request(clause: str) -> Request | None:
    """A clause as a request, or ``None`` (negated, hedged, someone else's subject, no verb)."""
    if _NEGATION.search(clause) or _HEDGE.search(clause):
        return None
    body = _DISCOURSE.sub("", clause).strip()
    body = _LETS.sub("", body)
    wish = _WISH.match(body)
    if wish:
        body = _DISCOURSE.sub("", body[wish.end():]).strip()
        words = body.split()
        if words and words[0] not in VERBS:
            # "I want the front door unlocked", "I need the oven on": the state word is the verb
            at = next((i for i, w in enumerate(words) if w in STATES), None)
            if not at:
                return None
            return Request(words[at], _targets(" ".join(words[:at]) + " to " + " ".join(words[at + 1:])), clause)
    words = body.split()
    if not words or words[0] not in VERBS:
        return None
    verb = words[0]
    rest = words[1:]
    if rest and rest[0] in _PARTICLES:
        verb = f"{verb} {rest[0]}"
        rest = rest[1:]
    else:
        # "turn the oven on", "let the plumber in": the particle after the object
        for i, word in enumerate(rest[:8]):
            if word in _PARTICLES and (i + 1 == len(rest) or not rest[i + 1].isalpha()
                                       or rest[i + 1] in ("and", "through", "via", "by", "at")
                                       or _OBJECT_END.match(" " + " ".join(rest[i + 1:]))):
                verb = f"{verb} {word}"
                rest = rest[:i] + rest[i + 1:]
                break
    return Request(verb, _targets(" ".join(rest)), clause)


def _targets(rest: str) -> tuple[Target, ...]:
    """The objects after a verb, each cut before its "to ..."/"for ..." and with the values said
    in its own part; an object without a value shares the next one's ("A and B to 70")."""
    parts = [p.strip() for p in re.split(r"\s*(?:,|\band\b|\bplus\b|&)\s*", rest) if p.strip()]
    found: list[tuple[Target, bool]] = []  # (target, only the object was said)
    for part in parts:
        phrase = _OBJECT_END.sub("", " " + part).strip()
        said = tuple(quantities(part))
        if phrase or not found:
            found.append((Target(phrase, said), phrase == part))
        elif said:  # "... to 70, 75 at night": more values of the last object
            last, bare = found[-1]
            found[-1] = (Target(last.phrase, last.quantities + said), bare)
    for i in range(len(found) - 2, -1, -1):
        (target, bare), (following, _) = found[i], found[i + 1]
        if bare and following.quantities:
            found[i] = (Target(target.phrase, following.quantities), bare)
    return tuple(t for t, _ in found if t.phrase)


# ----------------------------------------------------------------------------- replies to a confirmation
_YES = re.compile(r"^(yes|yeah|yep|yup|ya|yea|sure|ok|okay|confirm(?:ed)?|affirmative|correct|absolutely|"
                  r"of\s+course|definitely|certainly|go\s+ahead|do\s+it|please\s+do|proceed|approved?|"
                  r"that'?s\s+right|right|aye|si|oui|ja|da)\b")


def is_affirmative(reply: str) -> bool:
    """Whether a reply to "...? Say yes to confirm" consents: it starts with a yes-word in the
    user's own words, and has no negation, hedge or question anywhere."""
    said = fold(own_text(reply))
    if not said or "?" in said or _NEGATION.search(said) or re.search(r"\b(wait|hold|hang\s+on|maybe|perhaps|"
                                                                       r"not\s+sure|unsure|later)\b", said):
        return False
    return _YES.match(_DISCOURSE.sub("", said.strip(" .,!")).strip()) is not None or _YES.match(said) is not None
