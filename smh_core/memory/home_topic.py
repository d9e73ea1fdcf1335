"""Whether a memory is about the home: MemHome's "device-related" write rule, read as what a
smart-home assistant may keep.

Why: the rule exists so the memory holds what the home's devices and routines need (a
preference, a setting, a schedule, a name for a device) and not the user's life story ("my
sister likes tulips"). A list of English device words decided it before, and refused plain
preferences it had no word for ("the sous vide at 56.5", "the Heizung in the Bad at 23", "the
themostat at 20"). Now a memory is about the home when it has any of five marks, each a class
of wording rather than a list of things:

- a **device or appliance word** (``data/device_words.txt``, English, Chinese and the common
  words for heating, lights, blinds, doors, rooms and appliances in ten European languages and
  Turkish), also with one slip of the keyboard in a word of six or more letters ("themostat");
- a **part of the home**: a room, floor, door, gate, window, garden, driveway ...;
- a **setting**: a number with a unit a home uses (°, %, K, lumens, W, bar, ml, grams, minutes,
  copies ...), a numbered control ("volume 35", "channel 612", "zone 3", "HDMI 2"), or a
  set point ("... at 37", "... to 21") that ends the phrase;
- a **schedule**: a clock time ("6:30", "7am", "half six", "midnight", "sunset"), a
  recurring time ("every", "weekdays", "on Mondays", "overnight", "in the evening",
  "bedtime", "by default") or a task the assistant itself does later ("remind me", "announce
  it", "wake us up");
- a **state**: something switched, kept or left on or off ("the ice maker stays on").

What none of these marks has is refused: names, birthdays, likes and facts about people that
mention no part of the home, no setting and no time.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

_I = re.IGNORECASE

_PLACES = re.compile(
    r"\b(?:rooms?|bedrooms?|bathrooms?|en[\s\-]?suite|kitchen|kitchenette|hall|hallway|landing|stairs|staircase|"
    r"living\s+room|lounge|den|study|office|nursery|loft|attic|basement|cellar|garage|shed|workshop|"
    r"conservatory|sun\s?room|porch|patio|deck|balcony|terrace|veranda|verandah|garden|yard|backyard|"
    r"driveway|lawn|utility|laundry|pantry|playroom|dining\s+room|drawing\s+room|sitting\s+room|"
    r"front\s+room|box\s+room|upstairs|downstairs|house|home|flat|apartment|annexe?|doors?|front\s+door|"
    r"back\s+door|gates?|windows?|roof|ceiling|floors?|closet|wardrobe|cupboard|toilet|loo|shower|bath|"
    r"bathtub|tub|sink|tap|faucet|pool|pond|greenhouse|carport|hallways|lawns|gardens|yards|driveways|"
    r"balkon|balkone|balcón|varanda|hall|hallen|balkong|altan)\b",
    _I,
)
"""Rooms and parts of a home, where a device or a routine is."""

_UNIT = (
    r"(?:°\s?[CF]?|º|degrees?|deg\b|celsius|fahrenheit|%|percent|k\b|kelvin|lumens?|lm\b|lux|w\b|watts?|"
    r"kw\b|kwh|a\b|amps?|v\b|volts?|bar\b|psi|ml\b|l\b|litres?|liters?|gallons?|g\b|grams?|kg\b|cubes?|"
    r"copies|portions?|scoops?|minutes?|mins?\b|hours?|hrs?\b|h\b|seconds?|secs?\b|s\b|db\b|rpm|x\b|"
    r"hz\b|fm\b|inch(?:es)?\b|cm\b|mm\b|bar\b|"
    # the same units in the languages the topic reads
    r"grad(?:os|i|en|er|e)?\b|graus\b|asteeseen|astetta|asteen|aste\b|градус\w*|βαθμ\w*|"
    r"minut(?:os|er|ter|en|i|e|y)?\b|minuuttia|λεπτά|минут\w*|timer\b|timmar|uur\b|ore\b|horas\b|"
    r"heures?\b|stunden?\b|uhr\b)"
)
_QUANTITY = re.compile(rf"(?<![\w.])-?\d+(?:[.,]\d+)?\s?{_UNIT}", _I)
"""A number with a unit of a home setting: a temperature, a level, an amount, a duration."""
_NUMBERED_CONTROL = re.compile(
    r"\b(?:volume|level|speed|setting|mode|channel|station|input|hdmi|programme|program|zone|sensor|plug|"
    r"switch|bulb|lamp|scene|preset|step|position|dial|remote|port|fan|timer|cycle)\s*(?:#|no\.?\s*)?\d",
    _I,
)
"""A control and its number: "volume 35", "channel 612", "zone 3", "HDMI 2", "programme 4"."""
_SET_POINT = re.compile(
    r"\b(?:at|to|on)\s+-?\d{1,3}(?:[.,]\d)?(?![\d:.]|\s*(?:am|pm|a\.m|p\.m)\b)"
    r"(?=\s*(?:$|[,.;!?)\-–—]|(?:and|or|in|at|for|when|while|during|overnight|from|until|till|by|every|each|"
    r"max|maximum|min|minimum|not|but|please|pls|so|if|on|instead|tops|ish)\b))",
    _I,
)
"""A value that ends its phrase after "at", "to" or "on": a set point ("the bottle warmer at
37", "the shower at 38, the kids like 36"), not a count of something named after it."""
_CLOCK = re.compile(
    r"(?<![\d.])\d{1,2}[:h.]\d{2}(?!\d)|\b\d{1,2}\s?(?:am|pm|a\.m\.|p\.m\.)|\b(?:noon|midday|midnight|dusk|"
    r"dawn|sunset|sunrise|o'?clock|half\s+(?:past\s+)?\w+|quarter\s+(?:past|to)\s+\w+)\b|"
    r"\b(?:kl|klo|klockan|kello|um|στις|alle|às|a\s+las)\.?\s?\d{1,2}(?![\d%])",
    _I,
)
_RECURRING = re.compile(
    r"\b(?:every|each|daily|nightly|weekly|fortnightly|monthly|weekdays?|weeknights?|weekends?|"
    r"(?:mon|tues?|wednes|thurs?|fri|satur|sun)days?|overnight|at\s+night|(?:in\s+the|this|every)\s+"
    r"(?:morning|evening|afternoon|night|arvo)|mornings|evenings|afternoons|nights|bedtime|nap\s?time|"
    r"by\s+default|whenever|if\s+i\s+say|when\s+(?:i|we|he|she|they|the\s+\w+)\b|"
    # a task the assistant itself does later: "remind me the night before", "announce it at breakfast"
    r"remind\s+(?:me|us|him|her|them|everyone|the\s+kids)|announce\s+(?:it|this|that)|"
    r"wake\s+(?:me|us)\s+up)",
    _I,
)
_STATE = re.compile(
    r"\b(?:turn(?:s|ed|ing)?|switch(?:es|ed|ing)?|stays?|stayed|keep|keeps|kept|left|leave|"
    r"goes|go|put|set|comes?|came|kicks?|runs?|run)\b(?:\s+(?!mind\b)[\w'’\-]+){0,3}?"
    r"\s+(?:on|off|in)\b(?!\s+mind\b)",
    _I,
)
"""Something switched, kept or left on or off, or that comes or kicks in."""


@cache
def _device_words() -> re.Pattern[str]:
    """The device vocabulary (``data/device_words.txt``): a whole word or phrase, plural
    allowed; Chinese terms anywhere."""
    lines = (
        files(__package__)
        .joinpath("data/device_words.txt")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    words = [w.strip() for w in lines if w.strip() and not w.startswith("#")]
    latin = sorted((w for w in words if not _is_cjk(w)), key=len, reverse=True)
    other = [w for w in words if _is_cjk(w)]
    spaced = "|".join(re.escape(w).replace(r"\ ", r"[\s\-]?") for w in latin)
    return re.compile(
        rf"(?<![\w])(?:{spaced})(?:e?s)?(?![\w])|" + "|".join(map(re.escape, other)), re.I
    )


def _is_cjk(word: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in word)


@cache
def _long_device_words() -> frozenset[str]:
    """Single device words of six or more letters: long enough that one slip still names them."""
    lines = (
        files(__package__)
        .joinpath("data/device_words.txt")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    return frozenset(
        w.strip().lower()
        for w in lines
        if w.strip().isalpha() and len(w.strip()) >= 6 and w.strip().isascii()
    )


def one_slip(word: str, target: str) -> bool:
    """``word`` is ``target`` with one letter left out, added, changed or two swapped."""
    if abs(len(word) - len(target)) > 1 or word == target:
        return False
    if len(word) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == target[diff[1]]
            and word[diff[1]] == target[diff[0]]
        )
    short, long_ = sorted((word, target), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _misspelt_device_word(text: str) -> bool:
    targets = _long_device_words()
    for m in re.finditer(r"[A-Za-z]{5,}", text):
        word = m.group(0).lower()
        if any(
            one_slip(word, t) for t in targets if abs(len(t) - len(word)) <= 1 and t[0] == word[0]
        ):
            return True
    return False


def about_home(text: str) -> bool:
    """Whether a memory names a device, a part of the home, a setting, a schedule or a state
    (see the module's docstring)."""
    return bool(
        _device_words().search(text)
        or _PLACES.search(text)
        or _QUANTITY.search(text)
        or _NUMBERED_CONTROL.search(text)
        or _SET_POINT.search(text)
        or _CLOCK.search(text)
        or _RECURRING.search(text)
        or _STATE.search(text)
        or _misspelt_device_word(text)
    )
