"""The memory filter's fail-closed rule for memories about getting in: a memory about a door,
gate, lock, alarm, safe, keypad, Wi-Fi, router, hub, camera, app or account is refused when it
holds anything that could encode a secret, unless a small grammar accounts for it.

Why: a deny-list of secret formats fails open on every format nobody listed (a door code in
Italian number words, in NATO letters, in Roman numerals, as keycap emoji or Morse; a password
with no credential word; a login split over two sentences). On this one topic the rule is
turned round: what is not positively a time, a duration, a percentage, a temperature, a count
of devices or a device's number is taken for a secret.

What could encode a secret (each a rule, named in a refusal, never the text):

- ``access_digits``: a digit of any script (any Nd character; fullwidth, circled, superscript and
  mathematical digits after NFKC), or any other numeric character left after NFKC;
- ``access_number_words``: a number said in words, found by ``text2num`` (French, Spanish,
  English, Portuguese, German, Dutch, Danish, Italian) and by a short own list of digit words
  of other languages (Swedish, Norwegian, Finnish, Polish, Czech, Russian, Turkish, Hungarian,
  Romanian, Greek, Indonesian, Swahili, romanised Hindi and Japanese, radiotelephony, Chinese);
- ``access_spelled_letters``: two or more spelling-alphabet words ("kilo lima"), or three or
  more single letters in a row ("k q 7", "x-r-t");
- ``access_roman_numeral``: a valid Roman numeral of two or more letters, upper case (a few
  acronyms aside: DC, CD, MC ...) or in any case next to a credential word, not after a level
  word ("level III", "Mk II"); numerals joined by dashes ("XII-XXXIV-LVI");
- ``access_described_code``: a code described instead of written (keypad columns and rows next
  to a credential word, "the letters of FADE as numbers");
- ``access_keycap``: keycap emoji digits (``U+20E3``);
- ``access_morse``: runs of dots and dashes;
- ``access_mixed_token``: a word with a symbol inside it ("p@ss", "Sun&Rain", "dark_horse").

And on any topic: ``access_digits`` for three or more digits of another script in a row
("⑨⑨⓪"), ``phone_number`` for four or more number words read out next to a phone word,
``uri_credentials`` (a URI with a user and a password: ``scheme://user:pass@``,
``sip:user:pass@``) and ``wifi_payload`` (a Wi-Fi QR string, ``WIFI:T:WPA;S:..;P:..;;``).

The grammar that accounts for a number (:func:`_accounted`): a unit after it (seconds ...
years, %, degrees, GHz, metres, beeps, attempts ... in the languages above), a clock time
(``22:00`` after "at"/"from"/"until" ..., or with am/pm/h), and, for a number below 100 only,
an ordinal ("2nd floor"), a count of things ("2 cameras", "3 failed attempts") or a device's or
control's number ("camera 2", "channel 6", "zone 3"), plus a few technology names ("WPA2",
"Wi-Fi 6", "2.4 GHz", "1080p"). Shapes added on ``write_corpus_holdout3.yaml``, each a role of
the number: a private, loopback or link-local IPv4 address, a port ("port 1883", a URL's port
with no user info), an address's last part in a network memory (".100 to .200"), a date after a
preposition ("on 01/04"), a product's name after a model word or "a" ("model is Nuki 4.0 Pro",
"a Fritz!Box 7590"), a range whose end is accounted for ("4 to 8 digits"), a count before a
plural noun with qualifiers ("3 guest slots", "the last 100 events"), a label in a list ("zones:
1 the path", "⑤ is the plug"), a conjunct of a device number ("channel 6 ... and 44"), "minus 5",
thresholds ("over 35"), "all 3", a grid ("2 × 2 grid"), ordinal words, possessives ("camera
3's"), Home Assistant entity ids and UPPER_SNAKE settings ("ALARM_EXIT_DELAY=30"). Most of them
hold only in a memory with no code, PIN or password word. Every pattern is linear-time, as in
:mod:`.sensitive`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

_I = re.IGNORECASE

ACCESS_KINDS = frozenset(
    {
        "access_digits",
        "access_number_words",
        "access_spelled_letters",
        "access_roman_numeral",
        "access_keycap",
        "access_morse",
        "access_mixed_token",
        "access_described_code",
        "access_switch_pattern",
        "access_value_given",
        "uri_credentials",
        "wifi_payload",
    }
)


# --- the topic ----------------------------------------------------------------------------------


def _is_cjk(word: str) -> bool:
    return any("\u3040" <= ch <= "\u9fff" for ch in word)


def _is_symbol(word: str) -> bool:
    """An emoji or other symbol standing for an access thing ("🚪", "🔑", "📶")."""
    return not any(ch.isalnum() for ch in word)


_ENDINGS = ("es", "en", "er", "ne", "et", "s", "e", "n", "a")
"""Plural and article endings an access word may carry ("doors", "Türen", "porten")."""


@cache
def _vocabulary() -> tuple[frozenset[str], frozenset[str], tuple[str, ...], tuple[str, ...]]:
    """``data/access_words.txt``: single words, phrases (words joined by one space), compound
    endings ("~" lines) and Chinese terms."""
    lines = (
        files(__package__)
        .joinpath("data/access_words.txt")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    words = [w.strip().lower() for w in lines if w.strip() and not w.startswith("#")]
    latin = [
        " ".join(re.findall(r"[^\W\d_]+", w.lstrip("~")))
        for w in words
        if not _is_cjk(w) and not _is_symbol(w)
    ]
    single = frozenset(w for w in latin if " " not in w)
    phrases = frozenset(w for w in latin if " " in w)
    ends = tuple(w[1:] for w in words if w.startswith("~"))
    return single, phrases, ends, tuple(w for w in words if _is_cjk(w) or _is_symbol(w))


@cache
def _access_words() -> re.Pattern[str]:
    """The single access words as one pattern (for the short windows of the grammar)."""
    single = sorted(_vocabulary()[0], key=len, reverse=True)
    return re.compile(
        r"(?<![\w])(?:" + "|".join(map(re.escape, single)) + r")(?:s|es|en|e|n|er)?(?![\w])", _I
    )


def _known(word: str, vocabulary: frozenset[str]) -> bool:
    return word in vocabulary or any(
        word.endswith(e) and word[: -len(e)] in vocabulary for e in _ENDINGS
    )


def _has_access_word(text: str) -> bool:
    """A word of ``data/access_words.txt`` in ``text``: looked up word by word in sets (one
    pattern of 300 alternatives costs a second on 100,000 characters)."""
    single, phrases, ends, cjk = _vocabulary()
    if any(w in text for w in cjk):
        return True
    words = re.findall(r"[^\W\d_]+", text.lower())
    for i, word in enumerate(words):
        if _known(word, single) or (i and _known(f"{words[i - 1]} {word}", phrases)):
            return True
        if len(word) > 4 and any(
            word.endswith(e) or any(word.endswith(e + x) for x in _ENDINGS) for e in ends
        ):
            return True
    return False


_CREDENTIAL = re.compile(
    r"\b(?:code|codes|pin|pins|password|passwords|passcode|passphrase|passkey|pw|pwd|gc|p/w|k/c|"
    r"combination|combo|keypad|credentials?|secret|login)\b",
    _I,
)


_ACCOUNT_SECURITY = re.compile(
    r"\b(?:2fa|mfa|otp|totp|two[\s\-]factor|2[\s\-]step|two[\s\-]step|backup\s+codes?|"
    r"recovery\s+codes?|authenticator)\b",
    _I,
)


_LOCKED_WITH_WORDS = r"(?:locked|locks|secured|padlocked)\s+(?:it\s+)?with(?=\s+\d{3})"
_LOCKED_WITH = re.compile(rf"\b{_LOCKED_WITH_WORDS}", _I)
"""Something locked with a number of three or more digits ("the dome is locked with 2719"): about
getting in, whatever the thing is called, and the number opens it (one of :data:`_OPENS`)."""


def about_access(text: str, english: str | None = None) -> bool:
    """Whether ``text`` is about getting into the home or an account: an access word of
    ``data/access_words.txt`` or a credential word of any language the filter reads
    (``english``: ``text`` with those words in English, if the caller has it)."""
    from .words import english_credential_words

    if _has_access_word(text) or _ACCOUNT_SECURITY.search(text) or _LOCKED_WITH.search(text):
        return True
    english = english_credential_words(text)[0] if english is None else english
    return english != text and bool(_CREDENTIAL.search(english))


# --- NFKC with a map back ------------------------------------------------------------------------


def _nfkc(text: str) -> tuple[str, list[int] | range]:
    """``text`` in NFKC, character by character ("４" -> "4", "①" -> "1", "²" -> "2"), and for
    each character of the result the index of the character it came from."""
    if text.isascii():
        return text, range(len(text))
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if unicodedata.category(ch) == "Cf":
            continue  # an invisible character ("3\u200b0", a soft hyphen): read as if it were not there
        n = ch if ch.isascii() else unicodedata.normalize("NFKC", ch)
        if not (n.isascii() and n.isdigit()) and unicodedata.digit(ch, None) is not None:
            n = str(unicodedata.digit(ch))  # "➂", "⑴", "₂": a digit of another script, read as one
        out.append(n)
        where.extend([i] * len(n))
    return "".join(out), where


# --- the grammar that accounts for a number ------------------------------------------------------

_UNITS = (
    r"%|[°º]\s?[cfk]?|‰|percent|per\s?cent|prozent|pour\s?cent|por\s?ciento|per\s?cento|por\s?cento|"
    r"procent|prosent|"
    r"degrees?|deg|grad|degr[ée]s?|grados?|gradi|graden|grader|celsius|fahrenheit|[cfk]|kelvin|"
    r"seconds?|secs?|s|h|ms|minutes?|mins?|min|hours?|hrs?|hr|days?|weeks?|wks?|months?|years?|yrs?|"
    r"sekunden|sek|minuten|stunden|std|tage?n?|wochen|monate?n?|jahren?|"
    r"secondes?|heures?|jours?|semaines?|mois|"
    r"segundos?|minutos?|horas?|d[ií]as?|semanas?|meses|mes|años?|anos?|"
    r"secondi|minuti|giorni|settimane|mesi|anni|"
    r"seconden|uur|uren|dagen|weken|maanden|jaar|jaren|"
    r"sekunder|minutter|minuter|timmar|dage|dager|dagar|uger|uker|veckor|"
    r"sekuntia|minuuttia|tuntia|päivää|sekund|sekundy|minut|minuty|godzin[ya]?|dni|hodin|hodiny|"
    r"секунд[аы]?|минут[аы]?|час(?:а|ов)?|дн(?:я|ей)|saniye|dakika|saat|gün|"
    r"am|pm|a\.m|p\.m|uhr|o['’]?clock|ish|"
    r"times|ghz|mhz|khz|hz|kbps|kbit|kb/s|mb/s|mbit/s|mbps|gbps|mbit|gbit|btu|mb|gb|tb|db|dbm|volts?|watts?|kw|kwh|mah|amps?|v|w|m|l|g|ah|(?-i:A)|"
    r"(?:a|an|per|each|every)\s(?:second|minute|hour|day|week|month|year|night)(?!\s+ago)|cm|mm|km|ft|feet|foot|inch(?:es)?|metres?|meters?|mètres?|metros?|metri|yards?|miles?|lux|lm|lumens?|"
    r"newtons?|decibels?|kilovolts?|kv|kilos?|grams?|tonnes?|lbs?|gallons?|cycles|"
    r"(?:milli|centi|kilo)(?:met(?:re|er)s?|lit(?:re|er)s?|grams?)|"
    r"fps|mp|megapixels?|beeps?|rings?|chimes?|attempts?|tries|goes|tentatives?|essais|intentos|"
    r"versuche|tentativi|pogingen|forsøg|försök|fps|ppm|rpm|litres?|liters?|kg|bar|psi|baud|bps|"
    r"秒|秒钟|分钟|分|小时|点|点钟|天|度|个|台|次|号|楼|层|路"
)
_SHORT_UNITS = r"x|a|in|ore|ans?|timer"
"""Units that are also English words ("in", "a", "ore"): a unit only glued to the number or before
no further word ("13A", "6 in."), not in "reset to 8814 in ten minutes"."""
_UNIT_AFTER = re.compile(
    rf"\s?-?\s?(?:{_UNITS})(?![^\W\d_])|-?(?:{_SHORT_UNITS})(?![^\W\d_])|"
    rf"\s(?:{_SHORT_UNITS})(?![^\W\d_])(?!\s*[^\W\d_])",
    _I,
)
"""A unit after a number: a duration, a percentage, a temperature, a frequency, a size, a
count of tries or beeps, a time of day with am/pm or "Uhr"."""

_TIME_BEFORE = re.compile(
    r"(?:@\s?|\b(?:at|from|until|till|til|to|by|after|before|between|around|about|since|and|or|"
    r"ab|um|bis|vor|nach|gegen|zwischen|à|a|dès|jusqu['’]?à|avant|après|vers|de|desde|hasta|las|los|"
    r"alle|dalle|fino|verso|om|tot|vanaf|tussen|kl|klo|klockan|kello|às|até|entre|o|od|do|в|с|до)"
    r"\.?\s{0,3}(?:(?:my|the|our|your|his|her|their|mon|ma|mein|meine|mi|il)\s{1,3})?|[-–—~]\s{0,3})$",
    _I,
)
_TIME_AFTER = re.compile(
    r"\s?(?:[-–—~]|to|until|till|bis|à|a|hasta|alle|tot|and|und|et|y|e|en)\s?\d{1,2}[:.h]\d{2}|"
    r"\s?(?:h\b|hrs?\b|uhr|am\b|pm\b|a\.m|p\.m|o['’]?clock|heures?|horas?|uur|every|each|daily|nightly|"
    r"tonight|on\s+weekdays|at\s+night|in\s+the\s+(?:morning|evening|afternoon))",
    _I,
)
_CLOCK = re.compile(r"(?P<h>\d{1,2})[:.h](?P<m>\d{2})")


def _clock_ok(token: str, before: str, after: str, credential: bool) -> bool:
    """A clock time ("22:00", "6.30", "7h15"): in a memory with no credential word any valid
    one; next to a credential word only said as a time, after "at", "from", "until" ... or with
    "am", "h", "Uhr", or as one end of a range or a recurring time."""
    m = _CLOCK.fullmatch(token)
    if not m or int(m.group("h")) > 24 or int(m.group("m")) > 59:
        return False
    return not credential or bool(_TIME_BEFORE.search(before) or _TIME_AFTER.match(after))


_ORDINAL_AFTER = re.compile(
    r"(?:st|nd|rd|th|e|er|re|ère|ème|eme|º|ª|o|a|te|de|ste|\.)(?![^\W\d_])", _I
)

_NUMBERED = (
    r"volume|level|speed|setting|mode|channel|station|input|hdmi|programme|program|zone|sensor|plug|"
    r"switch|bulb|lamp|light|scene|preset|step|position|dial|remote|port|fan|timer|cycle|user|slot|"
    r"bay|floor|room|unit|apartment|flat|door|gate|garage|camera|cam|lock|keypad|hub|router|"
    r"extender|band|line|group|profile|button|relay|output|circuit|area|partition|panel|"
    r"sirene?|siren|alarm|tür|tor|porte|puerta|porta|deur|kamera|caméra|cámara|telecamera|canal|"
    r"kanal|canale|kanaal|zona|zone|etage|étage|piso|piano|verdieping|stock|no|nr|nº|#|number|"
    r"nummer|numéro|número|numero|shelf|drawer|cupboard|step|page|row|column|option|menu|track|"
    r"socket|outlet|node|tab|bin|hook|peg|spot|space|stall|post|pillar|side|section|bedroom|bathroom|"
    r"garden|shed|house|pro|plus|max|mini|lite|ultra|gen|edition|mk|series|v|vlan|vlans|ssid|id|"
    r"wlan|eth|radio|wl|handset|dect|console|junctions?|exit|route|platform|bus|pitch|item|stop|chapter|raid|"
    r"episode|season|numbered|labelled|labeled|grade|p|pp|pg"
)
_DEVICE_BEFORE = re.compile(
    rf"\b(?:{_NUMBERED})(?:s|es)?\.?\s?(?:#|no\.?|nr\.?|nº|number)?\s?$", _I
)
"""A device's or a control's number: "camera 2", "channel 6", "zone 3", "door #2"."""

_TECH = re.compile(
    r"wpa[23]?(?:-psk)?|wep|ipv[46]|[2-6]g|2[.,]4g?|2[.,]4ghz|[56]ghz|\d{3,4}p|[248]k|"
    r"h\.?26[45]|802\.11[a-z]{1,2}|usb-?[23c]?|mp[34]|3d|wi-?fi-?[4-7]e?|[4-7]e|"
    r"zigbee3?|z-wave|s[0-2]|ip6[4-8]|ip[4-6]x|wifi6e?|2fa|2sv|[23]-?d",
    _I,
)
"""Technology names with a digit that are no secret: "WPA2", "Wi-Fi 6", "2.4 GHz", "1080p"."""
_TEXTING = re.compile(
    r"zigbee2mqtt|z2m|esp32(?:-[a-z]\d)?|esp8266|rpi[345]|pi[345]|mqtt5|co2|cr\d{3}a?|"
    r"[\w\-]{2,30}[-_](?:2\.4g|2g|5g|6g|5ghz|6ghz)|\d{1,4}[dhms]|[5-8][noe][12]|"
    r"24/7|1password|cr\d{4}|lr\d{1,2}|18650|b4|2day|2nite|2night|2moro|2morrow|2mrw|4ever|l8r|l8|"
    r"gr8|w8|m8|2u|4u|2go",
    _I,
)
"""Words of texting style written with a digit ("b4", "2nite", "l8r"), "24/7", battery sizes."""
_LIST_MARK_AFTER = re.compile(r"[.):]\s")
_LIST_MARK_BEFORE = re.compile(r"(?:^|[\n;•·*\-–—]|[:,]\s)\s*$")
_TECH_BEFORE = re.compile(
    r"\b(?:wi-?fi|wpa|zigbee|matter|thread|bluetooth|usb|ip|version|v|gen|"
    r"generation|series|mk|model)\s?$",
    _I,
)


@cache
def _counted() -> re.Pattern[str]:
    """What a small number may count: devices, parts of the home, access things, tries."""
    from .home_topic import _PLACES, _device_words

    counts = (
        r"times|attempts?|tries|failed|wrong|incorrect|beeps?|rings?|chimes?|users?|people|persons?|"
        r"guests?|members?|kids?|children|adults?|dogs?|cats?|pets?|cars?|keys?|fobs?|cards?|tags?|"
        r"digits?|characters?|letters?|codes?|batteries|aa|aaa|bars?|streams?|steps?|levels?|"
        r"zones?|floors?|rooms?|entrances?|exits?|doors?|gates?|locks?|cameras?|devices?|spare|"
        r"extra|more|other|new|old|outdoor|indoor|smart|wireless|ip|security|motion|of|"
        r"segundos|minutos|personas|puertas|cámaras|portes|caméras|personnes|türen|kameras|"
        r"personen|porte|telecamere|persone|deuren|camera's"
    )
    return re.compile(
        rf"\s?-?\s?(?:{counts}|{_device_words().pattern}|{_PLACES.pattern}|"
        rf"{_access_words().pattern})",
        _I,
    )


_SETTING_WORDS = re.compile(
    r"\b(?:volume|level|sensitivity|brightness|channel|tune|tone|ringtone|melody|sound|mode|speed|setting|"
    r"setpoint|set|preset|station|temperature|temp|heat|cool|down|up|maximum|max|minimum|min|lautstärke|"
    r"stufe|volumen|nivel|volume|niveau|livello|sensibilité|sensibilidad|sensibilità|gevoeligheid)\b",
    _I,
)
_CLAUSE_END = re.compile(r"[.;!?\n。！；]")
_VERSION = re.compile(r"v?\d+(?:\.\d+){0,5}(?:[_\-][\w.]{1,20})?", _I)
_VERSION_BEFORE = re.compile(
    r"\b(?:firmware|version|software|release|update|build|os|v|section|chapter|clause|paragraph|"
    r"figure|table|step|page|p)\b[^.;!?\d]{0,20}$",
    _I,
)
_PRODUCT_BEFORE = re.compile(
    r"\b(?:model|type|series|gen|generation|mk|make|part|sku|article|item|"
    r"serial|product)\s?(?:number|no\.?|#|code)?\s?(?:is\s|(?:ends|ending|starts|starting)\s(?:in\s|with\s)?)?$",
    _I,
)
_BRAND_BEFORE = re.compile(r"\b(?:a|an)\s+(?:[A-Z][\w\-&!+]*\s+){1,3}$")
"""A product named after "a"/"an" ("a BFT Deimos 600", "a TP-Link Archer AX55")."""
_ERROR_CODE = re.compile(r"[A-Z]{1,2}-?\d{1,3}")
_ERROR_CONTEXT = re.compile(
    r"\b(?:error|fault|display|shows?|showing|flash(?:es|ing)?|blink(?:s|ing)?|"
    r"means|warning|diagnostic|fehler|erreur|errore|fout)\b",
    _I,
)
_DIAGNOSTIC_BEFORE = re.compile(
    r"\b(?:fault|error|err|warning|status|http)\s?(?:code\s|no\.?\s?|number\s|#)?$", _I
)
"""A device's fault or status number ("says "fault 3"", "error 404"): what it reports, not what
opens it."""
_STATUS_SHOWN_BEFORE = re.compile(
    r"\b(?:shows?|showing|gives?|giving|returns?|throws?|displays?)\s(?:a|an)\s$", _I
)
"""Before an HTTP status a page shows ("shows a 404")."""
_AGE_BEFORE = re.compile(
    r"\b(?:(?:he|she|they|i|we|you)['’](?:s|re|m)|(?:he|she|they|i|we|you)\s(?:is|are|am|turns?)|"
    r"aged?|turns?|turned)\s$",
    _I,
)
"""Before an age ("until he's 13", "aged 7")."""
_TYRE = re.compile(r"\d{3}/\d{2}(?P<rim>\s?Z?R\s?\d{2}\b)?", _I)
"""A tyre's size ("205/55 R16"; the rim, when said, makes it one on any topic)."""
_CYLINDER = re.compile(r"\b(?:cylinders?|barrels?|euro[\s\-]profile|anti[\s\-]snap)\b", _I)
"""A lock cylinder, whose size is written as two lengths ("a 35/45 anti-snap", "40/50 cylinder")."""
_STANDARD_BEFORE = re.compile(r"\b(?:RAL|Pantone|PMS|NCS|BS|EN|DIN|ISO|IEC|TS)\s?$")
"""A standard's or a colour system's name before its number ("RAL 7016", "BS 3621")."""
_LISTED_NOUN = re.compile(
    r"\b(?:weeks?|days?|months?|pages?|chapters?|tracks?|songs?|rounds?|holes?|frames?|innings|periods?|lessons?|"
    r"sets?|games?|lanes?|rows?|seats?|platforms?|junctions?|routes?|lines?|tables?|flats?|"
    r"units?|classes|years?)\s$",
    _I,
)
"""A plural noun whose numbers follow it as a list ("weeks 8, 14 and 15")."""
_ORDER_CONTEXT = re.compile(
    r"\b(?:for\s+order(?:ing)?|replacement|spare\s+part|warranty|manual|part\s+number|"
    r"order\s+number|reorder|for\s+a\s+spare)\b",
    _I,
)
_TIMESTAMP = re.compile(r"[0-2]\d:[0-5]\d:[0-5]\d(?:[,.]\d{1,3})?")
_MONTH_YEAR = re.compile(r"(?:0?[1-9]|1[0-2])/(?:19|20)\d{2}")
_DUE_BEFORE = re.compile(
    r"\b(?:due|expires?|expiry|exp|valid|until|till|by|from|since|serviced|installed|fitted|"
    r"next|last)\.?:?\s$",
    _I,
)
"""Before a month and year: when something is due or was done, not a code."""
_YEAR_BEFORE = re.compile(
    r"\b(?:in|since|from|until|till|of|year|circa|c\.|back\s+in|im|seit|depuis|en|desde|"
    r"installed|fitted|bought|built|serviced|replaced|purchased|made|dated|renewed|"
    r"dal|nel|sinds|sedan|siden|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|"
    r"sep\w*|oct\w*|nov\w*|dec\w*)\.?\s$",
    _I,
)
_HOUR_BEFORE = re.compile(
    r"(?:@|\b(?:at|from|until|till|by|after|before|around|between|um|ab|bis|à|a\s+las|alle|om))\s?$",
    _I,
)
_TIME_WORDS = re.compile(
    r"\b(?:every|each|daily|nightly|weekdays?|weekends?|weeknights?|(?:mon|tues?|wednes|thurs?|fri|satur|sun)"
    r"days?|morning|mornings|evening|evenings|afternoon|night|nights|tonight|tomorrow|bedtime|am|pm|"
    r"o['’]?clock|uhr|heures?|horas?|ore|uur)\b",
    _I,
)
_ADJACENT = re.compile(r"(?<![^\W_])\d+\s?(?:[,/\-+]|and|then|und|et|y|e|en|og)?\s?$", _I)
"""A number straight after another ("12 34", "12, 34", "12 and 34"): digits read out, never a
setting or a count. A model's digits ("a Deco X50, 3 units") are no number before it."""


def _word_around(text: str, start: int, end: int) -> tuple[int, str]:
    """The whitespace-delimited word a number is part of (its start, and the word without the
    punctuation around it)."""
    a = start
    while a > 0 and not text[a - 1].isspace() and start - a < 20:
        a -= 1
    b = end
    while b < len(text) and not text[b].isspace() and b - end < 20:
        b += 1
    return a, text[a:b].strip(".,;:!?()[]\"'“”‘’")


def _setting_before(before: str) -> bool:
    """A device or a setting within the last five words of the clause, and no credential word:
    "the thermostat 18", "set the AC to 28", "the chime volume is 3"."""
    from .home_topic import _device_words
    from .words import english_credential_words

    clause = _CLAUSE_END.split(before)[-1]
    words = re.findall(r"[^\W\d_][\w'’\-]*", clause)[-5:]
    window = " ".join(words)
    if not window or _CREDENTIAL.search(window):
        return False
    devices = [
        m.group(0)
        for m in _device_words().finditer(window)
        if not _access_words().fullmatch(m.group(0))
    ]
    if not (_SETTING_WORDS.search(window) or devices):
        return False
    return not _CREDENTIAL.search(english_credential_words(window)[0])


_MODEL_NAME_BEFORE = re.compile(
    r"\b(?:model|type|make|brand)(?:\s(?:is\s|:\s?)|:\s?|,\s)(?:(?:a|an|the)\s)?"
    r"(?:[A-Z][\w\-&!+]*\s){1,3}$"
)
"""A product's name after a model word ("the lock model is Nuki 4.0 Pro", "model: Texecom Premier 24")."""
_PRIVATE_IP = re.compile(
    r"(?:10|127)(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|"
    r"172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}"
)
"""A private, loopback or link-local IPv4 address (RFC 1918, RFC 3927): a place in the home's
own network, reachable by no one outside it."""
_URL_PORT_BEFORE = re.compile(r"\b[a-z][a-z0-9+.\-]{1,15}://[^\s/@?#]{1,100}:$", _I)
"""A URL's port, in an authority with no user info ("http://homeassistant.local:8123")."""
_PORT_BEFORE = re.compile(r"\bports?\s?(?:#|no\.?|number)?\s?$", _I)
_NETWORK = re.compile(
    r"\b(?:ip|dhcp|subnet|address(?:es)?|static|lease|range|router|lan|gateway|dns|vlan)\b", _I
)
_IPV4 = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])")
_OCTET_BEFORE = re.compile(r"(?:^|\s)\.$")
"""The last part of an address written alone (".100 to .200"), in a memory about the network."""
_DATE = re.compile(r"(?<![\d/.])(\d{1,2})([/.])(\d{1,2})(?:\2(?:\d{4}|\d{2}))?(?![\d/]|\.\d)")
_DATE_BEFORE = re.compile(
    r"\b(?:on|from|until|till|by|before|after|since|am|le|el|il|op|den|du|au|vom|bis|"
    r"dal|desde|hasta)\s$",
    _I,
)
"""A date after a preposition ("changes on 01/04", "from 24.12")."""
_LABEL_BEFORE = re.compile(r"(?:^|[:;,(]|\b(?:remember|ignore|and|or|skip|use|not))\s?$", _I)
_LABEL_AFTER = re.compile(
    r"\s?(?:is|=|:|-|–|—)?\s?\(?(?:(?:the|my|our|le|la|der|die|das|el|il)\s)?[^\W\d_]", _I
)
"""A small number that labels a thing, in a list ("zones: 1 the path, 2 the drive", "⑤ is the plug")."""
_MINUS_BEFORE = re.compile(r"(?:\b(?:minus|moins|menos|meno)|[−\-])\s?$", _I)
_BELOW_ZERO = re.compile(
    r"(?:\b(?:below|under|above|at|to|from|until|till|reaches|drops?|falls?|about|around|be|is|"
    r"sous|bajo|sotto|unter|bei|à|a|при|στους)\s+|\d\s(?:and|or|to)\s|\d,\s)(?:minus|moins|menos|meno|[−\-])\s?$",
    _I,
)
"""A temperature below zero said after a preposition ("jams below minus 5"); "minus 4 minus 7" is none."""
_THRESHOLD_BEFORE = re.compile(
    r"\b(?:over|above|under|below|exceeds?|more\s+than|less\s+than|fewer\s+than|"
    r"at\s+least|at\s+most|up\s+to)\s$",
    _I,
)
_ALL_BEFORE = re.compile(r"\b(?:all|both|only|just)\s$", _I)
_COUNT_AFTER = re.compile(
    r"\s(?:[^\W\d_][\w\-]*\s){0,2}?(?P<n>[^\W\d_]{2,}s|people|children|men|women|sheep|fish)\b", _I
)
"""A count before a plural noun, maybe after one or two words that qualify it ("3 guest slots",
"5 auto-lock options", "the last 100 events")."""
_RANGE_AFTER = re.compile(r"\s?(?:to|till|until|-|–|or|bis|à|a|al|tot)\s?(?=\d)", _I)
_RANGE_START_BEFORE = re.compile(
    r"(?:\bbetween\s|\bfrom\s|(?<![\d,.\-\s])\s|^)(?P<low>\d{1,2})\s?(?:to|-|–|and|&|or)\s?$", _I
)
_BETWEEN_AND = re.compile(r"\s(?:and|&)\s(?=\d)", _I)
"""The end of "between 4 and 8": a range only after "between"."""
_PRICE_BEFORE = re.compile(r"[£$€¥₹]\s?$")
_PRICE_AFTER = re.compile(
    r"\s?(?:[£$€¥₹]|(?:pounds?|quid|dollars?|bucks|euros?|pence|cents?|gbp|usd|eur|aud|cad|nzd|inr)\b)|"
    r"p\s(?=per\b)",
    _I,
)
"""A price: a currency sign or word beside the number ("£219", "61,30 €", "25 quid")."""


def _priced(text: str, start: int, end: int) -> bool:
    """The number at ``text[start:end]`` is what something cost: "bought for £64", "£2,000 cash"."""
    return bool(
        _PRICE_BEFORE.search(text, max(0, start - 3), start) or _PRICE_AFTER.match(text, end)
    )


_CONJUNCT_BEFORE = re.compile(r"(?:,|\band|\bor|\bthen)\s$", _I)
_DIMENSION_BEFORE = re.compile(r"(?<![×x\d]\s)(?<![×x\d])\d{1,4}\s?[×x]\s?$", _I)
_DIMENSION_AFTER = re.compile(r"\s?[×x]\s?\d{1,4}(?!\d|\s?[×x])", _I)
_DIMENSION_NOUN = re.compile(
    r"\s?(?:grid|layout|view|matrix|mosaic|split|tiles?|squares?|array|wall|screen|panel|"
    r"pixels?|px|cm|mm|m|in|inch(?:es)?|ft|feet|metres?|meters?)\b",
    _I,
)


def _dimension(before: str, after: str) -> bool:
    """One side of a size of two numbers before a noun of layout or length ("the 2 × 2 grid",
    "a 3x3 view", "60 x 40 cm"); a chain ("3 x 7 x 9") is none."""
    if _DIMENSION_BEFORE.search(before):
        return bool(_DIMENSION_NOUN.match(after)) and not re.match(r"\s?[×x]", after, _I)
    m = _DIMENSION_AFTER.match(after)
    return m is not None and bool(_DIMENSION_NOUN.match(after, m.end()))


def _label(text: str, start: int, after: str) -> bool:
    """A small number labelling a device, a place or an access thing ("⑤ is the plug", "2 the
    gate"), or anything in a list after a plural numbered word ("zones: 1 the path")."""
    from .home_topic import _PLACES, _device_words

    m = _LABEL_AFTER.match(after)
    if not m:
        return False
    thing = re.match(r"[^\W\d_][\w\-]*", after[m.end() - 1 :])
    if thing and (
        _device_words().fullmatch(thing.group(0))
        or _PLACES.fullmatch(thing.group(0))
        or (_access_words().fullmatch(thing.group(0)) and not _CREDENTIAL.fullmatch(thing.group(0)))
    ):
        return True
    clause = re.split(r"[.;!?\n]", text[max(0, start - 200) : start])[-1]
    return bool(_plural_numbered().search(clause))


@cache
def _plural_numbered() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{_NUMBERED})(?:s|es)\b", _I)


_ORDINAL_WORD = re.compile(r"first|second|third|[^\W\d_]{2,}th|[^\W\d_]+(?:ième|ieme|ste|te)", _I)


@cache
def _device_number() -> re.Pattern[str]:
    """A device's or a control's small number anywhere in a clause ("channel 6", "button 1")."""
    return re.compile(
        rf"\b(?:{_NUMBERED})(?:s|es)?\.?:?\s?(?:#|no\.?|nr\.?)?\s?\d{{1,2}}(?!\d)", _I
    )


def _network_number(
    text: str, token: str, start: int, value: int | None, before: str, network: bool
) -> bool:
    """A private address, a port, or an address's last part: "192.168.1.10", "port 1883",
    "http://homeassistant.local:8123", ".100 to .200"."""
    m = re.fullmatch(r"(?P<ip>[\d.]+?)(?::(?P<port>\d{1,5}))?", token)
    if (
        m
        and _PRIVATE_IP.fullmatch(m.group("ip"))
        and all(int(o) <= 255 for o in m.group("ip").split("."))
    ):
        return True
    if (
        value is not None
        and value <= 65535
        and (
            _URL_PORT_BEFORE.search(text[max(0, start - 120) : start])
            or (network and _PORT_BEFORE.search(before))
        )
    ):
        return True
    return value is not None and value <= 255 and network and bool(_OCTET_BEFORE.search(before))


def _date(text: str, start: int, end: int) -> bool:
    """A day and month ("on 01/04", "from 24.12.2025") after a preposition."""
    for m in _DATE.finditer(text, max(0, start - 6), min(len(text), end + 9)):
        if m.start() <= start and end <= m.end():
            a, b = int(m.group(1)), int(m.group(3))
            valid = (1 <= a <= 31 and 1 <= b <= 12) or (1 <= a <= 12 and 1 <= b <= 31)
            return valid and bool(_DATE_BEFORE.search(text[max(0, m.start() - 12) : m.start()]))
    return False


@dataclass(frozen=True)
class _Memory:
    """What the grammar asks of the whole memory, read once: a credential word (which takes
    the benefit of the doubt from bare hours and clock times), time words, an error display,
    an order of a spare part."""

    credential: bool
    time_words: bool
    error: bool
    order: bool
    network: bool = False  # a network word or a private address: ".100" is an address's last part


def _about_network(text: str) -> bool:
    return bool(
        _NETWORK.search(text) or any(_PRIVATE_IP.fullmatch(ip) for ip in _IPV4.findall(text))
    )


def _memory_of(text: str, credential: bool) -> _Memory:
    """What the grammar asks of the whole memory ``text``, read once."""
    return _Memory(
        credential,
        bool(_TIME_WORDS.search(text)),
        bool(_ERROR_CONTEXT.search(text)),
        bool(_ORDER_CONTEXT.search(text)),
        _about_network(text),
    )


_MAC = re.compile(r"(?<![0-9A-Fa-f:\-])(?:[0-9A-Fa-f]{2}[:\-]){5}[0-9A-Fa-f]{2}(?![0-9A-Fa-f:\-])")
_MAC_TAIL = re.compile(r"\bmac\b[^.;!?\n]{0,30}?(?:[:\-][0-9A-Fa-f]{2}){2,5}(?![0-9A-Fa-f])", _I)
"""A device's hardware address, whole or its last bytes after "MAC": names a plug, opens nothing."""
_RESOLUTION = re.compile(r"\d{3,4}\s?[x×]\s?\d{3,4}")
_ISO_DATE = re.compile(r"(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])")
_COMPACT_DATE = re.compile(r"\(?(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\)?")
_BIRTH = re.compile(r"\b(?:born|birth|birthday|dob|d\.o\.b|geboren|née?|nacid[oa]|nato|nata)\b", _I)
_DOTTED_VERSION = re.compile(r"\(?v?\d{1,4}(?:\.\d{1,4}){2,5}(?:[_\-+][\w.]{1,20})?\)?", _I)
_SOFTWARE = re.compile(
    r"\b(?:firmware|version|software|release|updated?|updates|upgraded?|downgraded?|build|core|"
    r"os|esphome|home\s?assistant|integration|compiled|flashed|nodes?|app|beta|stable|patch)\b",
    _I,
)
"""A software word: a dotted number of three or more parts beside one is a version."""
_TIME_SPAN = re.compile(r"(?P<a>[0-2]\d[0-5]\d)\s?[-–]\s?(?P<b>[0-2]\d[0-5]\d)")
_SCHEDULE = re.compile(
    r"\b(?:schedule|timer|plan|programme|program|timetable|slots?|shifts?|hours)\b", _I
)
_HHMM_BEFORE_WORD = re.compile(
    r"\s(?:bedtime|routine|wake[\s\-]?up|schedule|slot|shift|news|"
    r"morning|evening|night|nightly|curfew|lights[\s\-]out)\b",
    _I,
)
_SERVE_BEFORE = re.compile(
    r"(?:\b(?:listens?|listening|runs?|running|served|serves|streams?|streaming|is|are|sits?|lives?|answers?|"
    r"reachable|available)\s+(?:only\s+)?on|\b(?:server|ui|interface|dashboard|api|broker|"
    r"one|proxy)\s+(?:is\s+)?on)\s$",
    _I,
)
_SERVER = re.compile(
    r"\b(?:ports?|server|ui|web|broker|mqtt|mdns|tls|https?|api|service|listens?|nas|"
    r"dashboard|proxy|plex|jellyfin|sonos)\b",
    _I,
)
_PORT_EARLIER = re.compile(r"\b(?:ports?|on)\s\d{2,5}\b", _I)
_SNAKE_KEY_BEFORE = re.compile(r"(?<![\w])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s?(?:=|:|is)?\s?$")
"""A setting's key in lower snake case ("pan_id 6754", "night_brightness = 15")."""
_CREDENTIAL_PART = re.compile(r"code|pin|pass|pwd|key|secret|token|psk|auth|cred|login|user", _I)
_NAMED_BEFORE = re.compile(
    r"\b(?:called|named|nicknamed|ssid\s+is|ssid:|network\s+name\s+is)\s['\"“‘]?$", _I
)
_PRODUCT_TOKEN = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*")
_PRODUCT_PREVIOUS = re.compile(r"(?:\b(?:a|an|two|three|four|five|six|\d)|\()\s?$", _I)
_PRODUCT_NEXT = re.compile(
    r"\s(?:pro|plus|max|mini|ultra|v\d|router|nodes?|dongle|coordinator|hub|camera|"
    r"bridge|stick|gateway|mesh|extender|satellite)\b",
    _I,
)
_SERIES_BEFORE = re.compile(r"(?:^|[\s(])(?:[A-Z][\w\-]*[a-z][\w\-]*\s){2}$")
"""A model code after a brand and a series name ("TP-Link Archer AX55", "Yale Linus L2")."""
_CIDR_BEFORE = re.compile(r"(?:10|172|192|169)(?:\.\d{1,3}){3}/$")


@lru_cache(maxsize=256)
def _mentions(pattern: re.Pattern[str], text: str) -> bool:
    """Whether ``pattern`` occurs anywhere in the memory ``text``, read once per memory: the number
    grammar asks it about each number, and a memory of many numbers read in full for each is
    quadratic."""
    return pattern.search(text) is not None


def _role(text: str, start: int, end: int, value: int | None, word_start: int, word: str) -> bool:
    """The roles a number has in a memory with no code, PIN or password word, whatever its
    size: a hardware address, a resolution, a date, a version, a schedule's span, a port, a
    setting's value after its key, a network's name, a path in a link, a product's name."""
    if any(
        m.start() <= start and end <= m.end()
        for m in _MAC.finditer(text, max(0, start - 18), end + 18)
    ) or any(
        m.start() <= start and end <= m.end()
        for m in _MAC_TAIL.finditer(text, max(0, start - 50), end + 18)
    ):
        return True  # "the plug with MAC 3C:71:BF:0A:12:9E is the kettle"
    if (
        _setting_key_before(_ASSIGNED_KEY, text[max(0, start - 40) : start])
        or _setting_key_before(_COLON_KEY, text[max(0, start - 40) : start], suffix=True)
        or (
            value is not None
            and _setting_key_before(_SNAKE_KEY_BEFORE, text[max(0, word_start - 40) : word_start])
        )
    ):
        return True  # a setting's value: "channel=11", "uci set wireless.radio1.channel='36'", "pan_id 6754"
    if (
        "=" in word
        and word.index("=") > start - word_start
        and not _CREDENTIAL_PART.search(word.split("=")[0])
    ):
        return True  # a digit in a setting's key: "wl0_txpwr=70"
    if (
        value is not None
        and value <= 65535
        and _PORT_BEFORE.search(text[max(0, start - 12) : start])
    ):
        return True  # "on port 993"
    if _FULL_DATE.fullmatch(word.strip("[](),")) and not _mentions(_BIRTH, text):
        return True  # "[28/11/2026, 09:15]" in a chat export
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", word.rstrip(".,;")) and _COUNT_AFTER.match(
        text, start + len(word.rstrip(".,;"))
    ):
        return True  # "about 150,000 domains"
    if re.fullmatch(r"0x[0-9a-fA-F]{4,16}", word):
        return True  # a Zigbee device's address in the logs: "0x00158d0004a1b2c3"
    if _RESOLUTION.fullmatch(word) or _RESOLUTION.fullmatch(word.rstrip(",.;")):
        return True  # "2560x1440"
    if _COMPACT_DATE.fullmatch(word) and not _mentions(_BIRTH, text):
        return True  # "v4.8.0 (20261004)" (an ISO date is a role :func:`_accounted` gives beside a code word too)
    if _DOTTED_VERSION.fullmatch(word) and _mentions(_SOFTWARE, text):
        return True  # "ESPHome 2026.10.3", "on 3.0.0.6.102_34713"
    span = _TIME_SPAN.fullmatch(word)
    if (
        span
        and span.group("a") < span.group("b")
        and int(span.group("b")[:2]) <= 24
        and (_mentions(_TIME_WORDS, text) or _mentions(_SCHEDULE, text))
    ):
        return True  # "the heating schedule ... 0630-0830 and 1700-2230"
    if (
        re.fullmatch(r"[0-2]\d[0-5]\d", word)
        and int(word[:2]) <= 24
        and _HHMM_BEFORE_WORD.match(text, end)
    ):
        return True  # "the 2200 bedtime routine"
    before = text[max(0, start - 60) : start]
    if value is not None and 20 <= value <= 65535 and _mentions(_SERVER, text):
        clause = re.split(r"[;!?\n]|\.(?!\d)", before)[-1]
        if _SERVE_BEFORE.search(before) or (
            re.search(r"(?:,|\band|\bor)\s$", before) and _PORT_EARLIER.search(clause)
        ):
            return True  # "Mosquitto listens on 1883", "port 1400 is Sonos and 5353 is mDNS"
    if _NAMED_BEFORE.search(text[max(0, word_start - 12) : word_start]):
        return True  # "the network called Loft-24"
    if value is not None and value < 1000 and _URL_PATH.search(text[max(0, start - 120) : start]):
        return True  # "http://nvr.local/view/3"
    if value is not None and value <= 32 and _CIDR_BEFORE.search(before):
        return True  # "10.30.0.0/24"
    # a product's name: "an RT-AX86U Pro", "two RT-AX58U V2"
    return bool(
        _PRODUCT_TOKEN.fullmatch(word)
        and sum(ch.isupper() for ch in word) >= 2
        and word.upper() == word
        and (
            _PRODUCT_PREVIOUS.search(text[max(0, word_start - 8) : word_start])
            or _PRODUCT_NEXT.match(text, word_start + len(word))
            or _SERIES_BEFORE.search(text[max(0, word_start - 40) : word_start])
        )
    )


_SETTING_SUFFIXES = (
    r"delay|timeout|time|seconds|secs|minutes|mins|level|volume|brightness|count|retries|interval|"
    r"duration|temp|temperature|port|channel|zone"
)
"""What a setting's key ends with when its value is a duration, a level or a count."""
_SETTING_SUFFIX = re.compile(rf"(?:{_SETTING_SUFFIXES})", _I)


def _setting_key_before(pattern: re.Pattern[str], before: str, suffix: bool = False) -> bool:
    """A setting's key right before a value ("channel=", "wireless.radio1.channel='", "pan_id ",
    "night_brightness = "), that names no credential and no door, gate or alarm ("door=2580",
    "front_door = 2580": the value may be the code). ``suffix``: the key must also end with a
    duration, level or count ("port:", "autoLockSeconds:"; "shed: 4821" is a label and its code)."""
    key = pattern.search(before)
    if not key or _CREDENTIAL_PART.search(key.group(1)) or _names_access_thing(key.group(1)):
        return False
    last = re.split(r"[_\-./:]|(?<=[a-z])(?=[A-Z])", key.group(1))[-1]
    return not suffix or bool(
        re.fullmatch(rf"(?:{_SETTING_SUFFIXES})s?|zones|port|retries", last, _I)
    )


def _names_access_thing(key: str) -> bool:
    """A setting's key that names a door, gate, alarm ... ("door=2580", "auto_relock"): its value may
    be the code, unless the key ends with a duration, level or count ("relock_delay")."""
    last = re.split(r"[.]", key)[-1]  # "wireless.radio1.channel": the channel is what is set
    if _SETTING_SUFFIX.fullmatch(re.split(r"[_\-]|(?<=[a-z])(?=[A-Z])", last)[-1]):
        return False
    return bool(_access_words().search(" ".join(re.split(r"[_\-]|(?<=[a-z])(?=[A-Z])", last))))


_COLON_KEY = re.compile(r"(?<![\w])([A-Za-z][\w.\-/]{1,40})['\"]?\s?:\s?$")
"""A setting's key before a colon in a pasted config ("port: 1883", "autoLockSeconds: 30"): its
value is a setting when the key ends with a duration, level or count and names no credential."""
_ASSIGNED_KEY = re.compile(r"(?<![\w])([A-Za-z][\w.\-]{1,40})\s?=\s?['\"]?$")
_FULL_DATE = re.compile(r"(?:[0-3]?\d[/.][01]?\d|[01]?\d[/.][0-3]?\d)[/.](?:19|20)\d{2},?")
_URL_PATH = re.compile(r"\b(?:https?|rtsp)://[^\s/@]+/[^\s@?#]*$", _I)


def _accounted(
    text: str, start: int, end: int, value: int | None, memory: _Memory, ranged: bool = False
) -> bool:
    """Whether the grammar accounts for the number at ``text[start:end]`` (``value`` is its
    value, ``None`` when it is more than one number, as "192.168.1.4")."""
    credential = memory.credential
    token = text[start:end]
    before = text[max(0, start - 40) : start]
    after = text[end : end + 40]
    word_start, word = _word_around(text, start, end)
    whole = re.fullmatch(r"[\-−+~±#(]*", text[word_start:start]) is not None
    if _priced(text, start, end):
        return True
    if _TECH.fullmatch(word) or (_TECH.fullmatch(token) and whole) or _TEXTING.fullmatch(word):
        return True
    if _CONFIG_SETTING.fullmatch(word):
        return True  # "ALARM_EXIT_DELAY=30"
    if not credential and _role(text, start, end, value, word_start, word):
        return True
    if _TIMESTAMP.fullmatch(word.strip("()[]<>,")):
        return True  # a clock time with seconds: "for 00:02:00", a subtitle's "00:02:11,400"
    if _MONTH_YEAR.fullmatch(word.strip("()[]<>,.")) and _DUE_BEFORE.search(
        text[max(0, word_start - 40) : word_start]
    ):
        return True  # "SERVICE DUE 05/2027", "expires 11/2026"
    if _ISO_DATE.fullmatch(word.strip("()[]<>")) and not _mentions(_BIRTH, text):
        return True  # "changed 2026-06-20": a date, beside a code word too
    if not credential and value is not None and value < 10000 and _SETTING_IS.search(before):
        return True  # "the IoT VLAN is 30"
    if (
        value is not None
        and value < 100
        and _LIST_MARK_AFTER.match(after)
        and _LIST_MARK_BEFORE.search(before)
    ):
        return True  # a list's "1." or "2)"
    if _network_number(text, token, start, value, before, memory.network):
        return True  # "192.168.1.10 port 1883", "http://homeassistant.local:8123", ".100 to .200"
    if _date(text, start, end):
        return True  # "the gate code changes on 01/04"
    if token.isalpha() and value is not None and value < 100 and _ORDINAL_WORD.fullmatch(token):
        return True  # "we use the third one"
    if not credential and _MODEL_NAME_BEFORE.search(text[max(0, word_start - 60) : word_start]):
        return True  # "the lock model is Nuki 4.0 Pro", "model: Texecom Premier 24"
    if not ranged and whole:
        m = _RANGE_AFTER.match(after) or (
            _BETWEEN_AND.match(after) if re.search(r"\bbetween\s$", before, _I) else None
        )
        nxt = _NUMBER.match(text, end + m.end()) if m else None
        if nxt and value is not None and value < 1000:
            nv = int(nxt.group(0)) if nxt.group(0).isdigit() and len(nxt.group(0)) <= 9 else None
            if (
                nv is not None
                and nv >= value
                and _accounted(text, nxt.start(), nxt.end(), nv, memory, True)
            ):
                return True  # a range whose end the grammar accounts for: "4 to 8 digits"
    if _CLOCK.fullmatch(token) and _clock_ok(token, before, after, credential):
        return True
    if whole and _UNIT_AFTER.match(after):
        return True
    if (
        (
            _VERSION.fullmatch(word)
            and _VERSION_BEFORE.search(before[: len(before) - (start - word_start)])
        )
        or _PRODUCT_BEFORE.search(text[max(0, word_start - 30) : word_start])
        or _BRAND_BEFORE.search(text[max(0, word_start - 60) : word_start])
    ):
        return True  # "firmware 1.4.2", "model 4020", "a BFT Deimos 600"
    if not whole and _ERROR_CODE.fullmatch(word) and memory.error:
        return True  # "code E24 when the drain is blocked"
    if (
        value is not None
        and value < 1000
        and whole
        and (
            _DIAGNOSTIC_BEFORE.search(before)
            or (100 <= value < 600 and _STATUS_SHOWN_BEFORE.search(before))
        )
    ):
        return True  # beside a code word too: "the keypad says "fault 3"", "the router shows a 404"
    if (
        value is not None
        and value < 120
        and whole
        and not credential
        and _AGE_BEFORE.search(before)
    ):
        return True  # "switched off until he's 13", "aged 7"
    if (
        value is None
        and not credential
        and "," in word
        and _written_as_quantity(text, word_start, word.rstrip(".,;"))
    ):
        return True  # "has done 18,240 cycles, service at 20,000"
    if not credential and _TYRE.match(text, word_start) and "/" in word:
        return True  # "the tyres are 205/55 R16" (beside a code word, "35/45" is no size)
    if value is not None and whole and not credential and _STANDARD_BEFORE.search(before):
        return True  # "painted RAL 7016", "a BS 3621 lock"
    if (
        not credential
        and re.fullmatch(r"\d{2}/\d{2}", word.strip(",.;()"))
        and _CYLINDER.search(
            _CLAUSE_END.split(text[max(0, start - 80) : start])[-1]
            + _CLAUSE_END.split(text[start : end + 40])[0]
        )
    ):
        return True  # a cylinder's two lengths: "the euro cylinder is 35/45"
    if not whole and re.search(r"[^\W\d_]{2}", word) and memory.order:
        return True  # "TH8320 for ordering a new one"
    if value is not None and 1900 <= value <= 2099 and whole and _YEAR_BEFORE.search(before):
        return True  # "changed in 2023"
    if _GLUED_DEVICE.fullmatch(word):
        return True  # "cam2", "zone3"
    if (
        value is not None
        and value < 2400
        and not credential
        and whole
        and re.fullmatch(r"\d{3,4}", token)
        and value % 100 < 60
        and _HOUR_BEFORE.search(before)
    ):
        return True  # "lock up @ 2300"
    if value in (3, 4, 5, 10, 100) and re.search(r"\d\s?(?:/|\bof)\s?$", before, _I):
        return True  # the scale of "7/10", "2 of 5"
    glued = (
        re.fullmatch(r"-(?P<noun>[^\W\d_]{3,})", word[len(token) :])
        if word.startswith(token)
        else None
    )
    if (
        glued
        and value is not None
        and value < 100
        and not _CREDENTIAL.fullmatch(glued.group("noun"))
        and glued.group("noun").lower() not in ("key", "keys", "word", "words")
    ):
        return (
            True  # a size or a count before its noun: "the 12-button keypad", "a brass 4-wheel one"
        )
    if not credential and value is not None and value < 100 and _number_list_after_device(before):
        return True  # "zones 4, 5 and 6", "cameras 1-3", "rooms 1 and 2"
    if (
        not credential
        and value is not None
        and value < 100
        and whole
        and _plural_numbered().search(_CLAUSE_END.split(before)[-1])
    ):
        start_of = re.match(r"\s?(?:to|through|thru|-|–)\s?(\d{1,2})(?!\d)", after, _I)
        end_of = re.search(r"(?<![\d\-–])(\d{1,2})\s?(?:to|through|thru|-|–)\s?$", before, _I)
        if (start_of and int(start_of.group(1)) > value) or (
            end_of and int(end_of.group(1)) < value
        ):
            return True  # a range of numbered things: "the zones only, 1 to 5", "ZONES 1-4 NIGHT / 1-8 AWAY"
    if (
        not credential
        and value is not None
        and value < 100
        and whole
        and (
            _LISTED_NOUN.search(before)
            or ((m := _LIST_BEFORE.search(before)) and _LISTED_NOUN.search(before[: m.start()]))
        )
    ):
        return True  # "the holidays are weeks 8, 14 and 15"
    if value is not None and 100 <= value < 1000 and whole and not credential:
        c = _COUNT_AFTER.match(after)
        if c and not _CREDENTIAL.fullmatch(c.group("n")) and not _ADJACENT.search(before):
            return True  # "the lock app logs the last 100 events"
    bare = word.lstrip("-−+~#")
    alone = bare.startswith(token) and (
        bare == token
        or bool(_ORDINAL_AFTER.fullmatch(bare[len(token) :]))
        or bool(re.fullmatch(r"['’]s", bare[len(token) :]))
        or bool(re.fullmatch(r"/\d{1,3}|[-–]\d{1,2}", bare[len(token) :]))
        or bool(
            re.fullmatch(
                r"-(?:digits?|characters?|letters?|way|gang|zone|"
                r"button|door|camera|node|port|channel|step|speed|"
                r"minute|second|hour|day|week|year)s?",
                bare[len(token) :],
                _I,
            )
        )
    )
    if (
        value == 100
        and alone
        and not _ADJACENT.search(before)
        and (_setting_before(before) or _UNIT_AFTER.match(after))
    ):
        return True  # "turn every light to 100": a full setting
    if (
        value is not None
        and value <= 24
        and alone
        and _RANGE_END_BEFORE.search(before)
        and (memory.time_words or not credential)
    ):
        return True  # "on Tuesdays from 9 to 13": the end of a time range
    if value is not None and value <= 24 and alone and _DAYTIME_AFTER.match(after):
        return True  # "opens by itself 7 till 10 in the morning"
    if (
        value is not None
        and value <= 16
        and alone
        and not _ADJACENT.search(before)
        and re.search(r"(?:,|\band)\s(?:[^\W\d_]+\s){0,4}$", before, _I)
        and _LENGTH_WORDS_EARLIER.search(re.split(r"[.;!?\n]", before)[-1])
    ):
        return True  # "six digits on the front lock and four on the garage": another length
    if value is not None and value <= 24 and alone and _HOURS_BEFORE.search(before):
        return True  # "feed the cat at 7 and 5": two hours, not digits read out
    low = _RANGE_START_BEFORE.search(before)
    if (
        low
        and value is not None
        and value <= 24
        and alone
        and int(low.group("low")) <= value
        and _counted().match(after)
    ):
        return True  # the end of a counted range: "between 4 and 8 digits", "2 or 3 times"
    if value is None or value >= 100 or not alone or _ADJACENT.search(before):
        return bool(
            value is not None
            and value < 10000
            and alone
            and re.search(
                r"\b(?:room|channel|station|"
                r"preset|program|programme|input)\s?$",
                before,
                _I,
            )
            and not _ADJACENT.search(before)
        )
    if _ORDINAL_AFTER.match(after) or _DEVICE_BEFORE.search(before) or _TECH_BEFORE.search(before):
        return True
    if (
        re.search(r"\b(?:last|first|next|past|latest|oldest|newest|top)\s$", before, _I)
        and not credential
    ):
        return True  # "keeps the last 8": a count
    ellipsis = _ELLIPSIS_BEFORE.search(before)
    if (
        not credential
        and (ellipsis or _PARALLEL_BEFORE.search(before))
        and _measured_earlier(text, start, token, strict=not ellipsis)
    ):
        return True  # "opens in 14 seconds and closes in 18", "on channel 11, the neighbours on 1 and 6"
    if _CONTRAST_BEFORE.search(before) and _LENGTH_EARLIER.search(
        re.split(r"[.;!?\n]", before)[-1]
    ):
        return True  # "6-digit codes, not 4": another length, not a code
    if value <= 24 and (
        _HOUR_BEFORE.search(before)
        and (memory.time_words or not credential)
        or _HALF_BEFORE.search(before)
    ):
        return True  # "unlock the door at 9 on weekdays", "half 10"
    if _MONTH.match(after) or _MONTH_BEFORE.search(before):
        return True  # a date: "3 March", "March 3"
    if _last_word_device(before):
        return True  # "the Ring doorbell 4", "hub 2"
    if re.match(r"\s?out\s+of\s+\d", after, _I) or re.search(r"\bout\s+of\s$", before, _I):
        return True  # "3 out of 10"
    if _MINUS_BEFORE.search(before) and (
        _UNIT_AFTER.match(after) or (not credential and _BELOW_ZERO.search(before))
    ):
        return True  # a temperature below zero: "jams below minus 5"
    if not credential and (_THRESHOLD_BEFORE.search(before) or _ALL_BEFORE.search(before)):
        return True  # "warn me if it goes over 35", "all 3 are empty"
    if not credential and _LABEL_BEFORE.search(before) and _label(text, start, after):
        return True  # "zones: 1 the path, 2 the drive", "⑤ is the plug"
    if not credential and _dimension(before, after):
        return True  # "the 2 × 2 grid"
    if not credential and _CONJUNCT_BEFORE.search(before):
        clause = re.split(r"[;!?\n。！；]|\.(?!\d)", text[max(0, start - 80) : start])[-1]
        if _device_number().search(clause):
            return True  # "channel 6 for 2.4 GHz and 44 for 5 GHz", "button 1 is the garage, 2 the gate"
    if (
        _PARTS_AFTER.match(after)
        and not _ADJACENT.search(before)
        and not _LINKED_BEFORE.search(before)
    ):
        return (
            True  # beside a code word too: "the lockbox has 10 buttons", "6 users", "5 wrong tries"
        )
    if not credential and re.match(r"\s(?:each|apiece)\b", after, _I):
        return True  # "2 each for us and 1 for the cleaner"
    if not credential:
        c = _COUNT_AFTER.match(after)
        if c and not _CREDENTIAL.fullmatch(c.group("n")):
            return True  # "3 guest slots", "5 auto-lock options"
    if (
        not credential
        and re.match(r"\s[^\W\d_]{3,}s\b", after)
        and not _CREDENTIAL.match(after.strip())
    ):
        return True  # a count of things: "3 nodes", "2 buttons"
    return bool(_counted().match(after)) or _setting_before(before)


_SETTING_IS = re.compile(
    r"\b(?:vlans?|channels?|zones?|volume|level|speed|ssid|id|ports?|preset|scene|mode|"
    r"sensitivity|brightness|threshold|timeout|delay)\s"
    r"(?:is|=|:)\s?$",
    _I,
)


def _known_spelled_word(run: str) -> bool:
    """Letters spaced out that spell a word of the home ("w i f i", "d o o r"): the word, not a code."""
    from .home_topic import _PLACES, _device_words

    word = re.sub(r"[\s.\-]", "", run)
    return bool(
        _device_words().fullmatch(word)
        or _PLACES.fullmatch(word)
        or _access_words().fullmatch(word)
    )


def spelled_plainly(text: str) -> str:
    """``text`` with words written to dodge a reader put back: letters spaced or dotted out ("d.o.o.r
    c.o.d.e", "s a f e") joined, and digits inside words read as the letters they stand for
    ("w1f1 p4ss"). Only for finding what a memory is about; its values are judged as written."""
    joined = _SPACED_LETTERS.sub(lambda m: re.sub(r"[.\s]", "", m.group(0)), text)
    return _LEET_WORD.sub(_read_leet, joined)


def _read_leet(m: re.Match[str]) -> str:
    """A word of two letters or more with a digit or sign standing for a letter, read as letters.
    The test is on the matched word, not in a lookahead, so a long run costs linear time."""
    word = m.group(0)
    letters = sum(c.isalpha() for c in word)
    return word.translate(_LEET) if letters >= 2 and letters < len(word) else word


_SPACED_LETTERS = re.compile(r"(?<![\w.])(?:[A-Za-z][.\s]){2,}[A-Za-z](?![\w])")
_LEET_WORD = re.compile(r"(?<![\w])[A-Za-z013457@$]{3,20}(?![\w])")
_LEET = str.maketrans("013457@$", "oieastas")


_HOURS_BEFORE = re.compile(
    r"\b(?:at|from)\s(?:[01]?\d|2[0-4])(?:[:.]\d{2})?\s?(?:am|pm)?\s(?:and|&|or)\s$", _I
)
_ELLIPSIS_BEFORE = re.compile(
    r"\b(?:in|at|on|to|of|hits?|reaches|and|or|from|under|over|above|below|actually|not|"
    r"now|it['’]s|instead|rather|after|before|every|for|within|than|delay|timeout|using|use|uses|used|"
    r"have|has|got|left|free|spare)\s$",
    _I,
)


_PARALLEL_BEFORE = re.compile(
    r"(?:\b(?:is|are|was|were|reads?|read|has|have|had|with|on|like|want|prefer)|,)\s$", _I
)
_SENTENCE_END = re.compile(r"(?:(?<!\.)\.(?!\.)|[!?\n])\s")
"""A sentence's end: a full stop that is no ellipsis ("60 seconds... actually 90" is one sentence)."""


def _measured_earlier(text: str, start: int, token: str, strict: bool = False) -> bool:
    """An earlier number of the same sentence carries a unit, a control's name, a count or a
    setting ("14 seconds", "channel 11", "6 zones", "the channel is 25"), and nothing between it
    and this one names a code, a password or a thing that opens: a later bare number in a
    parallel phrase shares its role ("40 percent; it's 60 now", "6 zones, my sister's has 4",
    "number 2 and the one in the study is 3"). Not a longer number than the measured one plus a
    digit: "30 seconds and then 4512" is no second delay. ``strict`` (after "is", "has", a comma:
    a phrase that could give a value): nor anything that opens ("the exit delay is 30 seconds and
    the side gate is 45" gives the gate's code)."""
    window = text[max(0, start - 160) : start]
    ends = [m.end() for m in _SENTENCE_END.finditer(window)]
    sentence = window[ends[-1] :] if ends else window
    for m in reversed(list(_NUMBER.finditer(sentence))):
        between = sentence[m.end() :]
        if (
            _CREDENTIAL.search(between)
            or _OPENS.search(between)
            or (strict and _access_words().search(between))
        ):
            return False
        if len(token) > len(m.group(0)) + 1:
            continue
        if (
            _UNIT_AFTER.match(sentence, m.end())
            or _DEVICE_BEFORE.search(sentence[: m.start()])
            or _COUNT_AFTER.match(sentence, m.end())
            or _SETTING_IS.search(sentence[: m.start()])
            or re.search(r"\bat\s$", sentence[: m.start()], _I)
        ):
            return True  # "14 seconds", "channel 11", "10 guest slots ... and 3 are in use", "at 7 and 5"
    return False


_PARTS_AFTER = re.compile(
    r"\s(?:[^\W\d_][\w\-]*\s)?(?:buttons|zones|users|user\s+slots|slots|wheels|dials|attempts|tries|goes|"
    r"people|sensors|cameras|doors|locks|fobs|tags|cards|levels|options|modes|keypads|panels|stars|"
    r"batteries|screws|bolts|hinges|channels|bars)\b",
    _I,
)
"""A count of parts or people: no code, even in a memory that has a code word."""
_LINKED_BEFORE = re.compile(r"(?:\b(?:is|are|was|were|then|press|pressed)|[:=,])\s?$", _I)
"""What a value follows: "the code is 10 buttons" is a value told oddly, not a count."""
_RANGE_END_BEFORE = re.compile(
    r"\b(?:from|between|(?:mon|tues?|wednes|thurs?|fri|satur|sun)days?|weekdays|weekends|mornings?|"
    r"evenings?|nights?|daily)\s(?:[01]?\d|2[0-4])(?:[:.]\d{2})?\s?(?:am|pm|h)?\s?(?:to|-|–|and|until|till)\s?$",
    _I,
)
_DAYTIME_AFTER = re.compile(
    r"\s(?:in\s+the\s+(?:morning|evening|afternoon|day|daytime)|at\s+night|tonight|by\s+day)\b", _I
)
_LENGTH_WORDS_EARLIER = re.compile(
    r"\b(?:\d{1,2}|four|five|six|seven|eight|ten|twelve)[\s\-]?(?:digits?|characters?|letters?)\b",
    _I,
)
_CONTRAST_BEFORE = re.compile(r"\b(?:not|instead\s+of|rather\s+than|or|nor)\s$", _I)
_LENGTH_EARLIER = re.compile(r"\b\d{1,2}[\s\-]?(?:digits?|characters?|letters?|numbers)\b", _I)
_GLUED_DEVICE = re.compile(rf"(?:{_NUMBERED})-?\d{{1,2}}", _I)
_HALF_BEFORE = re.compile(r"\b(?:half|quarter\s+(?:past|to)|halb|past)\s$", _I)
_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|januar|februar|märz|mai|juni|juli|oktober|dezember|"
    r"janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|enero|febrero|"
    r"marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|gennaio|febbraio|"
    r"aprile|maggio|giugno|luglio|settembre|ottobre|dicembre"
)
_MONTH = re.compile(rf"\s?(?:of\s)?(?:{_MONTHS})\b", _I)
_MONTH_BEFORE = re.compile(rf"\b(?:{_MONTHS})\.?\s$", _I)


_LIST_BEFORE = re.compile(r"(?:\d{1,2}\s?(?:,\s?|\s(?:and|or|to|&)\s|[-–]\s?)){1,3}$", _I)


def _number_list_after_device(before: str) -> bool:
    """A short list or range of small numbers after a device, place or numbered word ("zones 4,
    5 and 6", "cameras 1-3")."""
    m = _LIST_BEFORE.search(before)
    return m is not None and (
        _DEVICE_BEFORE.search(before[: m.start()]) is not None
        or _last_word_device(before[: m.start()])
    )


def _last_word_device(before: str) -> bool:
    """The word right before a number is a device or an access thing that is no credential word
    ("the Ring doorbell 4", "hub 2")."""
    from .home_topic import _device_words

    m = re.search(r"([^\W\d_][\w\-]*)\s?(?:#|no\.?|nr\.?|:)?\s?$", before)
    if not m or _CREDENTIAL.fullmatch(m.group(1)) or m.group(1).lower() in ("key", "keys", "pin"):
        return False
    from .home_topic import _PLACES

    return bool(
        _device_words().fullmatch(m.group(1))
        or _access_words().fullmatch(m.group(1))
        or _PLACES.fullmatch(m.group(1))
    )


# --- what could encode a secret --------------------------------------------------------------

_NUMBER = re.compile(r"(?<!\d)\d+(?:[.,:h]\d+)*")
_KEYCAP = re.compile(r"[0-9#*]\ufe0f?\u20e3|\U0001f51f")
_MORSE_CH = r"[.·•∙\-−–—_]"
_MORSE = re.compile(
    rf"(?<![^\s/|]){_MORSE_CH}{{1,7}}(?:[ /|]{{1,3}}{_MORSE_CH}{{1,7}}){{1,40}}(?![^\s/|])"
)
_MORSE_WORD = re.compile(rf"(?<![\w.·•∙\-−–—_]){_MORSE_CH}{{4,8}}(?![\w.·•∙\-−–—_])")
_NATO = (
    "alfa|alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett|juliet|kilo|lima|mike|"
    "november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiskey|whisky|x-?ray|yankee|zulu|"
    "anton|berta|caesar|cäsar|dora|emil|friedrich|gustav|heinrich|ida|julius|kaufmann|ludwig|martha|"
    "nordpol|otto|paula|quelle|richard|samuel|siegfried|theodor|ulrich|viktor|wilhelm|xanthippe|"
    "ypsilon|zacharias|zeppelin"
)
_RADIO_DIGITS = "zero|one|two|three|four|five|six|seven|eight|nine|niner|tree|fife|fower|wun|oh"
_SPELLING = re.compile(
    rf"(?<![\w\-])(?:{_NATO})(?:[\s,\-]{{1,3}}(?:{_NATO})){{1,30}}(?![\w\-])", _I
)
_SPELLED_RUN = re.compile(
    rf"(?<![\w\-])(?:{_NATO}|{_RADIO_DIGITS})(?:[\s,\-]{{1,3}}(?:{_NATO}|{_RADIO_DIGITS})){{3,30}}"
    r"(?![\w\-])",
    _I,
)
"""Four or more words of a spelling alphabet and radio digits ("Whiskey-Delta-One-Four, Foxtrot"),
three of them letters: on any topic, a plate, a code or an id spelled out."""
_LETTERS = re.compile(
    r"(?<![\w.\-'’])[^\W\d_](?:(?:\s{1,2}|\s?[\-.]\s?)[^\W\d_]){2,30}(?![\w\-'’])"
)
_ROMAN_TOKEN = re.compile(r"(?<![\w\-])[IVXLCDMivxlcdm]{2,15}(?![\w\-])")
_ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_WORDS = frozenset(
    {
        "dc",
        "cd",
        "mc",
        "md",
        "cm",
        "mm",
        "cc",
        "lv",
        "xl",
        "mi",
        "di",
        "li",
        "vi",
        "xi",
        "ci",
        "mix",
        "dim",
        "did",
        "civ",
        "lid",
        "mid",
        "mil",
        "dl",
        "ml",
        "cv",
        "iv",
        "ii",
        "xx",
        "xxx",
    }
)
"""Roman numerals that are also ordinary acronyms or words ("24 V DC", "the CD player", kisses): read
as numerals only next to a credential word."""
_MIXED = re.compile(
    r"(?<![^\s\"'“‘(\[])(?=[^\s]{0,40}?(?:[^\W\d_][@#$%^&*!?_+=~|\\<>{}\[\]][^\W_]|"
    r"[^\W\d_]{2}\.[^\W\d_]{2}))[^\s]{3,64}"
)
"""A word with a symbol inside ("p@ss", "Sun&Rain", "dark_horse") or a dot between letters
("jo.smith", "fox.trot": a user name or a password; a sentence's dot has a space after it)."""
_URI_CREDENTIALS = re.compile(
    r"(?<![\w+.\-])(?:[A-Za-z][A-Za-z0-9+.\-]{0,19}:(?://)?|(?!(?:sips?|mailto|xmpp|tel|"
    r"https?|mqtts?|rtsps?|ftps?|wss?|smb|nfs|ssh|telnet):))[^\s/@:]{1,64}:"
    r"[^\s/@]{1,64}@[\w\-\[]"
)
_WIFI_PAYLOAD = re.compile(r"\bWIFI:(?:T|S|P|H|E|EAP|PH2|A|I|R|K):(?:[^\n;]{0,100};){0,12};?", _I)

_DIGIT_WORDS = {
    # Swedish, Norwegian (Danish is text2num's), Finnish, Polish, Czech, Russian, Turkish
    "noll": 0,
    "ett": 1,
    "två": 2,
    "tre": 3,
    "fyra": 4,
    "fem": 5,
    "sex": 6,
    "sju": 7,
    "åtta": 8,
    "nio": 9,
    "null": 0,
    "én": 1,
    "fire": 4,
    "seks": 6,
    "åtte": 8,
    "ni": 9,
    "nolla": 0,
    "yksi": 1,
    "kaksi": 2,
    "kolme": 3,
    "neljä": 4,
    "viisi": 5,
    "kuusi": 6,
    "seitsemän": 7,
    "kahdeksan": 8,
    "yhdeksän": 9,
    "zero": 0,
    "jeden": 1,
    "dwa": 2,
    "trzy": 3,
    "cztery": 4,
    "pięć": 5,
    "sześć": 6,
    "siedem": 7,
    "osiem": 8,
    "dziewięć": 9,
    "nula": 0,
    "jedna": 1,
    "dva": 2,
    "tři": 3,
    "čtyři": 4,
    "pět": 5,
    "šest": 6,
    "sedm": 7,
    "osm": 8,
    "devět": 9,
    "ноль": 0,
    "нуль": 0,
    "один": 1,
    "одна": 1,
    "два": 2,
    "две": 2,
    "три": 3,
    "четыре": 4,
    "пять": 5,
    "шесть": 6,
    "семь": 7,
    "восемь": 8,
    "девять": 9,
    "sıfır": 0,
    "bir": 1,
    "iki": 2,
    "üç": 3,
    "dört": 4,
    "beş": 5,
    "altı": 6,
    "yedi": 7,
    "sekiz": 8,
    "dokuz": 9,
    # Hungarian, Romanian, Greek
    "nulla": 0,
    "egy": 1,
    "kettő": 2,
    "két": 2,
    "három": 3,
    "négy": 4,
    "öt": 5,
    "hét": 7,
    "nyolc": 8,
    "kilenc": 9,
    "unu": 1,
    "doi": 2,
    "două": 2,
    "trei": 3,
    "patru": 4,
    "cinci": 5,
    "șase": 6,
    "şase": 6,
    "sase": 6,
    "șapte": 7,
    "şapte": 7,
    "sapte": 7,
    "opt": 8,
    "nouă": 9,
    "noua": 9,
    "μηδέν": 0,
    "ένα": 1,
    "μία": 1,
    "δύο": 2,
    "τρία": 3,
    "τρεις": 3,
    "τέσσερα": 4,
    "τέσσερις": 4,
    "πέντε": 5,
    "έξι": 6,
    "επτά": 7,
    "εφτά": 7,
    "οκτώ": 8,
    "οχτώ": 8,
    "εννέα": 9,
    "εννιά": 9,
    # Indonesian and Malay, Swahili, Hindi and Urdu (romanised), Japanese (romanised)
    "nol": 0,
    "kosong": 0,
    "satu": 1,
    "dua": 2,
    "tiga": 3,
    "empat": 4,
    "lima": 5,
    "enam": 6,
    "tujuh": 7,
    "delapan": 8,
    "lapan": 8,
    "sembilan": 9,
    "sifuri": 0,
    "moja": 1,
    "mbili": 2,
    "tatu": 3,
    "nne": 4,
    "tano": 5,
    "sita": 6,
    "saba": 7,
    "nane": 8,
    "tisa": 9,
    "shunya": 0,
    "sunya": 0,
    "ek": 1,
    "char": 4,
    "chaar": 4,
    "paanch": 5,
    "panch": 5,
    "chhe": 6,
    "chhah": 6,
    "saat": 7,
    "aath": 8,
    "aat": 8,
    "nau": 9,
    "rei": 0,
    "ichi": 1,
    "yon": 4,
    "roku": 6,
    "nana": 7,
    "shichi": 7,
    "hachi": 8,
    "kyuu": 9,
    "kyu": 9,
    # the radiotelephony digits ("tree-wun-niner")
    "wun": 1,
    "fower": 4,
    "fife": 5,
    "niner": 9,
    "zee-ro": 0,
}
"""Digit words of common languages text2num does not cover. Only a run of two or more counts
(a code read out), so a word that is also English ("fire", "sex", "ni", "do", "go", "hat") alone
is no number; only in a memory about getting in (:func:`about_access`) are they read at all."""
_DIGIT_WORD = re.compile(
    r"(?<![^\W\d_])(?:" + "|".join(sorted(_DIGIT_WORDS, key=len, reverse=True)) + r")(?![^\W\d_])",
    _I,
)
_CJK_NUMERAL = re.compile(
    r"[零〇洞幺一二三四五六七八九十百千两壹贰貳叁參肆伍陆陸柒捌玖拾佰仟]{2,24}"
)
_CJK_VALUE = {
    "零": 0,
    "〇": 0,
    "幺": 1,
    "洞": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}


def _cjk_value(run: str) -> int | None:
    """The value of a Chinese numeral written with 十/百/千 ("三十" = 30), ``None`` for digits
    read one by one ("一二三四")."""
    if not any(ch in "十百千" for ch in run) or any(
        ch not in _CJK_VALUE and ch not in "十百千" for ch in run
    ):
        return (
            None  # digits read one by one, or banking numerals ("陆贰捌叁"): a run, never a setting
        )
    total, digit = 0, 0
    for ch in run:
        if ch in "十百千":
            total += (digit or 1) * {"十": 10, "百": 100, "千": 1000}[ch]
            digit = 0
        else:
            digit = _CJK_VALUE[ch]
    return total + digit


class _Token:
    """A word or a gap, as ``text2num.find_numbers`` reads a text."""

    __slots__ = ("start", "word")

    def __init__(self, word: str, start: int) -> None:
        self.word, self.start = word, start

    def text(self) -> str:
        return self.word

    def nt_separated(self, previous: object) -> bool:
        return False

    def not_a_number_part(self) -> bool:
        return False


_T2N_LANGS = ("en", "fr", "es", "pt", "de", "nl", "da", "it")
_FUNCTION_WORDS = {
    "fr": "le la les est et pour avec des du une un pas dans sur quand toujours au aux ce cette mon ma mes",
    "es": "el los las es y para con del una por cuando siempre que mi mis este esta al se",
    "pt": "os as é para com da do uma quando sempre que não meu minha no na ao se",
    "de": "der die das und ist nicht mit für den dem ein eine einen bitte immer wenn auf zu ich mein meine",
    "nl": "de het een is en voor met van niet altijd als op mijn wij",
    "da": "og er det en til med ikke den altid når på min mit jeg",
    "it": "il lo gli è per con della del una quando sempre che di non mio mia la le",
}


def _languages(text: str) -> list[str]:
    """English, and each text2num language with two or more of its function words in ``text``."""
    words = set(re.findall(r"[^\W\d_]+", text.lower()))
    return ["en"] + [
        lang for lang, fw in _FUNCTION_WORDS.items() if len(words & set(fw.split())) >= 2
    ]


_PRONOUN_ONE = re.compile(
    r"(\b(?:the|this|that|which|each|every|any|no|another|the\s+[^\W\d_]+|a\s+[^\W\d_]+)\s)one\b",
    _I,
)
""""one" standing for a thing ("the Westminster one", "a new one"), not a number."""


def _number_words(text: str) -> list[tuple[int, int, int | None]]:
    """Numbers said in words: (start, end, value; ``None`` for a run of several numbers read
    out one by one). text2num's numbers in the text's languages; in any of its languages, and
    in the own list of other languages, runs of two or more."""
    found: list[tuple[int, int, int | None]] = []
    read = _text2num_groups(text)
    if read is None:  # an install without it (requirements.txt lists it): English runs, and warn
        _warn_no_text2num()
        return found + _runs(text, _english_digit_word()) + _own_numbers(text)
    languages = _languages(text)
    for lang, group in read:
        if len(group) > 1:
            found.append((group[0][0], group[-1][1], None))
        elif lang in languages and group[0][2] is not None and group[0][2] >= 2:
            found.append((group[0][0], group[0][1], int(group[0][2])))
    return found + _own_numbers(text)


def _text2num_groups(
    text: str,
) -> list[tuple[str, list[tuple[int, int, float | None, str]]]] | None:
    """text2num's numbers said in words in each of its languages, as (language, group): a group
    is one number, or several read out one after the other ("vier acht zwei eins"), each as
    (start, end, value, its digits as text2num writes them: "null eins" is "01"). ``None`` when
    text2num is not installed."""
    text = _PRONOUN_ONE.sub(lambda m: m.group(1) + "@@@", text)  # "the Westminster one": no number
    tokens = [
        _Token(m.group(0), m.start()) for m in re.finditer(r"[^\W\d_]+|\d+|\s+|[^\w\s]", text)
    ]
    if not tokens:
        return []
    try:
        from text_to_num import find_numbers  # type: ignore[import-untyped]  # ships no types
    except ImportError:
        return None
    groups: list[tuple[str, list[tuple[int, int, float | None, str]]]] = []
    vocabulary = sorted({t.word.lower() for t in tokens if t.word.isalpha()})
    probe = [_Token(w if i % 2 == 0 else ".", 0) for w in vocabulary for i in range(2)]
    for lang in _T2N_LANGS:
        if not find_numbers(probe, lang):  # no number word of this language at all: skip the text
            continue
        occurrences = list(find_numbers(tokens, lang))
        spans = [
            (
                tokens[o.start].start,
                tokens[o.end - 1].start + len(tokens[o.end - 1].word),
                o.value,
                str(o.text),
            )
            for o in occurrences
            if not tokens[o.start].word.isdigit()
        ]
        i = 0
        while i < len(spans):  # join numbers read out one after the other into one run
            j = i
            while j + 1 < len(spans) and re.fullmatch(
                r"[\s,\-]{1,3}(?:(?:and|und|et|y|e|en|og)\s)?",
                text[spans[j][1] : spans[j + 1][0]],
                _I,
            ):
                j += 1
            groups.append((lang, spans[i : j + 1]))
            i = j + 1
    return groups


_BANKING_DIGITS = dict(zip("壹贰貳叁參肆伍陆陸柒捌玖", "122334566789", strict=True))
_CJK_TIMES = re.compile(r"([两二三])个([零〇洞幺一二三四五六七八九])")
""""两个六": two sixes, as a Chinese phone number is read out."""
_EXTRA_DIGIT_WORDS = {"meia": "6"}
"""Digit words text2num does not know: Brazilian "meia" (half a dozen) for six."""
_EXTRA_DIGIT = re.compile(r"(?<![^\W\d_])(?:meia)(?![^\W\d_])", _I)
_LONE_LETTER = re.compile(r"(?<![^\W_])[A-Z](?![^\W_])")
"""A capital letter standing alone: a letter of an ID or passport number read out ("J", "A V")."""
_REPEAT = {
    "double": 2,
    "doppel": 2,
    "dubbel": 2,
    "doble": 2,
    "doppio": 2,
    "duplo": 2,
    "dupla": 2,
    "triple": 3,
    "tripel": 3,
    "triplo": 3,
    "dreifach": 3,
}
_GAP = re.compile(
    r"[\s,，、;:\-–—/]{0,3}"
    r"(?:(?:and|und|et|y|e|en|og|i|und\s+dann|dann|then|puis|luego|poi|depois|dan)[\s,，、]{1,3})?"
    r"(?:(?:äh|ähm|öh|euh|heu|eh|ehm|uh|um|uhm|hum|hm|mmh|嗯|呃|那个)[\s,，、.…]{1,3})?"
    r"(?:(?P<repeat>" + "|".join(_REPEAT) + r")[\s\-]{1,2})?",
    _I,
)
"""What may stand between two parts of one number read out: a separator, a "then", a filler and
a "double" (its part is said twice). Bounded: a gap is a few characters or none."""


def digit_parts(text: str) -> list[tuple[int, int, str, bool]]:
    """Every number said or written in ``text`` and every lone capital letter, as (start, end,
    digits or letter, is a number), in order, none overlapping (the longest reading first)."""
    parts: list[tuple[int, int, str, bool]] = []
    for _lang, group in _text2num_groups(text) or []:
        parts += [(a, b, d, True) for a, b, _v, d in group if d.isascii() and d.isdigit()]
    for m in _CJK_NUMERAL.finditer(text):
        run, value = m.group(0), _cjk_value(m.group(0))
        if value is not None:
            parts.append((m.start(), m.end(), str(value), True))
        elif all(ch in _CJK_VALUE or ch in _BANKING_DIGITS for ch in run):
            digits = "".join(
                str(_CJK_VALUE[ch]) if ch in _CJK_VALUE else _BANKING_DIGITS[ch] for ch in run
            )
            parts.append((m.start(), m.end(), digits, True))
    for m in _CJK_TIMES.finditer(text):
        times = {"两": 2, "二": 2, "三": 3}[m.group(1)]
        parts.append((m.start(), m.end(), str(_CJK_VALUE[m.group(2)]) * times, True))
    parts += [
        (m.start(), m.end(), _EXTRA_DIGIT_WORDS[m.group(0).lower()], True)
        for m in _EXTRA_DIGIT.finditer(text)
    ]
    parts += [(m.start(), m.end(), m.group(0), False) for m in _LONE_LETTER.finditer(text)]
    parts.sort(key=lambda p: (p[0], -p[1]))
    kept: list[tuple[int, int, str, bool]] = []
    for part in parts:
        if not kept or part[0] >= kept[-1][1]:
            kept.append(part)
    return kept


def spoken_digit_runs(
    text: str, letters: bool = True, parts: list[tuple[int, int, str, bool]] | None = None
) -> list[tuple[int, int, str]]:
    """Numbers read out one after the other, in any language the filter reads, as the digits
    a detector of phone, card or ID numbers looks for: (start, end, digits). "null eins sieben
    eins" -> "0171", "zéro six douze trente-quatre" -> "061234", "一三八一二" -> "13812",
    "doppel drei" -> "33", "fünfundsechzig, J, null null drei" -> "65J003".

    Why: the detectors (:mod:`.sensitive`) know digits and English number words; a phone number
    or an ID read out in German, Spanish, French, Italian, Portuguese, Dutch, Danish or Chinese
    must reach them as digits too (issue 41: safe in every language). Parts join across a
    separator, a "then", a filler ("äh", "嗯") and a "double"; with ``letters``, lone capital
    letters join as themselves (an ID's letters; without, a letter ends a run: "... acht I
    think" stays a phone number). A run needs two numbers; one number said in words of two or
    more digits ("dieciocho millones") is a run of its own. ``parts``: :func:`digit_parts` of
    ``text`` when the caller has them (read with and without letters, the text is read once)."""
    runs: list[tuple[int, int, str]] = []
    parts = [p for p in (digit_parts(text) if parts is None else parts) if letters or p[3]]
    i = 0
    while i < len(parts):
        j, digits, numbers = i, [parts[i][2]], int(parts[i][3])
        while j + 1 < len(parts):
            gap = _GAP.fullmatch(text, parts[j][1], parts[j + 1][0])
            if gap is None:
                break
            j += 1
            times = _REPEAT[gap.group("repeat").lower()] if gap.group("repeat") else 1
            digits.append(parts[j][2] * times)
            numbers += parts[j][3]
        start, end, said = parts[i][0], parts[j][1], "".join(digits)
        if numbers >= 2 or (
            numbers == 1 and len(said) >= 2 and said.isdigit() and said != text[start:end]
        ):
            runs.append((start, end, said))
        i = j + 1
    return runs


def _runs(text: str, pattern: re.Pattern[str]) -> list[tuple[int, int, int | None]]:
    """Runs of two or more number words of ``pattern`` (joined by spaces, commas or dashes)."""
    found: list[tuple[int, int, int | None]] = []
    words = list(pattern.finditer(text))
    i = 0
    while i < len(words):
        j = i
        while j + 1 < len(words) and re.fullmatch(
            r"[\s,\-]{1,3}", text[words[j].end() : words[j + 1].start()]
        ):
            j += 1
        if j > i:
            found.append((words[i].start(), words[j].end(), None))
        i = j + 1
    return found


def _own_numbers(text: str) -> list[tuple[int, int, int | None]]:
    """Runs of the own digit words, and Chinese numerals."""
    return _runs(text, _DIGIT_WORD) + [
        (m.start(), m.end(), _cjk_value(m.group(0))) for m in _CJK_NUMERAL.finditer(text)
    ]


@cache
def _english_digit_word() -> re.Pattern[str]:
    from .words import _NUMBER_WORD

    return _NUMBER_WORD


@cache
def _warn_no_text2num() -> None:
    import logging

    logging.getLogger(__name__).warning(
        "text2num is not installed: the memory filter reads numbers in words "
        "of English and its own list only"
    )


_ROMAN_LEVEL_BEFORE = re.compile(
    r"\b(?:level|stage|mk|mark|gen|generation|type|class|grade|series|phase|tier|"
    r"category|cat|of)\s$",
    _I,
)


def _roman(text: str, credential: bool) -> list[tuple[int, int]]:
    found = []
    for m in _ROMAN_TOKEN.finditer(text):
        token = m.group(0)
        if not _ROMAN.fullmatch(token.upper()):
            continue
        if _ROMAN_LEVEL_BEFORE.search(text[max(0, m.start() - 20) : m.start()]):
            continue  # "level III of V", "Mk II", "type IV"
        if credential or (token.isupper() and token.lower() not in _ROMAN_WORDS):
            found.append(m.span())
    return found


def _morse(text: str) -> list[tuple[int, int]]:
    """Dots and dashes: one group of four or more signs that mixes dots and dashes, or two or
    more groups, six or more signs in all, one of them mixing ("door... - it sticks" is none)."""
    found = []
    for m in _MORSE_WORD.finditer(text):
        if re.search(r"[.·•∙]", m.group(0)) and re.search(r"[\-−–—_]", m.group(0)):
            found.append(m.span())
    for m in _MORSE.finditer(text):
        groups = re.split(r"[\s/|]+", m.group(0))
        mixed = any(re.search(r"[.·•∙]", g) and re.search(r"[\-−–—_]", g) for g in groups)
        if mixed and sum(map(len, groups)) >= 6:
            found.append(m.span())
    return found


_ENTITY_ID = re.compile(
    r"(?:light|switch|lock|cover|sensor|binary_sensor|climate|fan|media_player|camera|"
    r"alarm_control_panel|input_boolean|input_number|scene|script|automation|person|"
    r"device_tracker|button|number|select|vacuum|siren|valve|water_heater|humidifier|"
    r"remote)\.[a-z][a-z0-9_]{0,63}"
)
"""A Home Assistant entity id ("light.driveway"): a domain and an object id, no secret."""
_CONFIG_SETTING = re.compile(
    rf"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:{_SETTING_SUFFIXES.upper()})=\d{{1,5}}"
)
"""A configuration setting of a duration, level or count ("ALARM_EXIT_DELAY=30")."""
_HOST_OR_FILE = re.compile(
    r"[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.(?:com|net|org|local|lan|home|arpa|io|de|uk|fr|nl|it|es|"
    r"conf|cfg|ini|yaml|yml|json|toml|xml|txt|log|sh|py|db)",
    _I,
)
_PRODUCT_NAME = re.compile(r"[A-Z][a-z]+[!&+][A-Z][a-z]+")
_INDEFINITE_BEFORE = re.compile(r"\b(?:a|an)\s$", _I)


def _named_token(text: str, start: int, token: str, credential: bool) -> bool:
    """A word with a symbol inside that is a name, not a password: an entity id, a setting
    with its value, or a product named after "a"/"an" ("a Fritz!Box 7590") in a memory with no
    credential word."""
    bare = token.strip(".,;:!?()[]\"'“”‘’")
    if _ENTITY_ID.fullmatch(bare) or _CONFIG_SETTING.fullmatch(bare):
        return True
    if _NAMED_BEFORE.search(text[max(0, start - 24) : start]) and not credential:
        return True  # a name given: "the guest network is named Pr3tty_Fly_4_a_W1Fi"
    if _HOST_OR_FILE.fullmatch(bare):
        return True  # "smtp.example.com", "hostapd.conf": a host or a file, not a user name
    setting = re.fullmatch(r"[A-Za-z][\w.\-]{1,40}=['\"]?[\w.\-:]{1,24}['\"]?", bare)
    if (
        setting
        and not _CREDENTIAL_PART.search(bare.split("=")[0])
        and not _names_access_thing(bare.split("=")[0])
        and not re.search(r"[^\w\s]", bare.split("=")[1].strip("'\".-:"))
    ):
        return True  # a setting with its value: "AutoConnect=true", "country_code=GB"
    if (
        re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", bare)
        and not _CREDENTIAL_PART.search(bare)
        and re.match(
            r"\s?(?:=|:|is\b|\d|true\b|false\b|on\b|off\b|yes\b|no\b)",
            text[start + len(token) :],
            _I,
        )
    ):
        return True  # a setting's key: "permit_join false", "update_interval is 60s"
    return (
        not credential
        and bool(_PRODUCT_NAME.fullmatch(bare))
        and bool(_INDEFINITE_BEFORE.search(text[max(0, start - 4) : start]))
    )


_CLOCK_FACES = re.compile(r"[\U0001F550-\U0001F567]\ufe0f?(?:\s?[\U0001F550-\U0001F567]\ufe0f?)+")
"""Two or more clock-face emoji: hours read off the clocks, a code."""
_ODD_DIGITS = re.compile(
    r"(?:(?![0-9])[\d\u2460-\u24ff\u2776-\u2793\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089]"
    r"\ufe0f?){3,}"
)
"""Three or more digits in a script other than ASCII (circled, fullwidth, superscript ...) in a
row, on any topic: no setting is written that way ("the shed ⑨⑨⓪")."""
_ROMAN_GROUPS = re.compile(
    r"(?<![\w\-])[IVXLCDM]{1,15}(?:\s?[\-–./]\s?[IVXLCDM]{1,15}){1,8}(?![\w\-])"
)
"""Roman numerals in groups joined by dashes ("XII-XXXIV-LVI"): a combination."""


def _roman_groups(run: str) -> bool:
    """Every group a valid numeral, and one of them no acronym or single letter ("DC-DC" is none)."""
    parts = re.split(r"\s?[\-–./]\s?", run)
    return all(_ROMAN.fullmatch(p) for p in parts) and any(
        len(p) > 1 and p.lower() not in _ROMAN_WORDS for p in parts
    )


_PHONE_TOPIC = re.compile(
    r"\b(?:mobile|phone|cell|landline|móvil|movil|teléfono|telefono|handy|portable|"
    r"cellulare|telefone|telemóvel|celular|telefoon|mobiel|telefon|mobil|puhelin|телефон)\b",
    _I,
)
"""A phone: a run of number words next to one is a phone number read out, in any language."""


_KEYPAD_SHAPE = re.compile(
    r"\b(?:columns?|diagonals?|(?:down|up|across)\s+the\s+(?:middle|left|right|top|bottom)|"
    r"(?:letters|word)\s+\w+\s+as\s+(?:numbers|digits)|as\s+(?:numbers|digits)\s+on\s+the\s+"
    r"(?:keypad|phone)|spells?\b|spelt|spelled|backwards|in\s+reverse|reversed)\b",
    _I,
)
"""A code described instead of written: a path over the keypad's columns and rows, a word's
letters as digits, digits backwards."""
_ENCODED = re.compile(
    r"\b(?:letters\s+of\s+\S+\s+as\s+(?:numbers|digits)|as\s+(?:numbers|digits)\s+on\s+the)\b", _I
)


_MAX_NUMBERS = 64
"""A memory holds a few numbers; past this many, the rest are refused without the grammar (it
keeps hostile input linear and cheap)."""


_OPENS = re.compile(
    r"\b(?:(?:those|these|the|its|four|five|six|three|\d)\s+(?:digits|numbers)\s+(?:open|unlock|disarm)|"
    r"opens?\s+(?:it|with|the\s+(?:door|gate|lock|safe|garage))|it\s+opens|clicks?\s+open|"
    r"unlocks?\s+(?:it|with)|(?:that|this)['’]?s\s+what\s+opens|they\s+open|disarms?\s+(?:it|with)|"
    rf"{_LOCKED_WITH_WORDS})\b",
    _I,
)
"""Words that say a value opens something ("those four digits open it", "and it opens"): the
memory is about a code whether or not it says "code"."""
_GRID_PATH = re.compile(
    r"\b(?:(?:column|col)\s+[A-Z0-9]{1,2},?\s+row\s+\d{1,2}|row\s+\d{1,2},?\s+(?:column|col)\s+"
    r"[A-Z0-9]{1,2})\b(?:[^.;!?\n]{0,20}?\b(?:(?:column|col)\s+[A-Z0-9]{1,2},?\s+row\s+\d{1,2}|"
    r"row\s+\d{1,2},?\s+(?:column|col)\s+[A-Z0-9]{1,2})\b){1,}",
    _I,
)
"""Keys named by their column and row, two or more of them: a code described on the keypad."""
_SWITCH_RUN = re.compile(
    r"(?<![\w])(?:on|off|up|down|open|closed|1|0)(?:[\s,/]{1,3}(?:on|off|up|down|open|closed|1|0)"
    r"(?![\w])){5,}|(?<!\S)[+\-0](?:\s{1,2}[+\-0](?!\S)){5,}",
    _I,
)
"""Six or more switch positions in a row ("on off on on off off", "+ - + + 0 -"): the setting
of a remote's DIP or trinary switches, which is its code."""


_LONG_RUN = re.compile(
    r"(?<![\d.,])\d+(?:[.,]\d+)*(?:(?:\s|\s?-\s?|(?<![0-9]{4})/)\d+(?:[.,]\d+)*)*"
)
"""Digit groups one after the other ("6275 9800 1234 5678", "55-98123", "150-0001")."""


_DAY_MONTH_YEAR = re.compile(
    r"(?:[0-3]?\d[/.\-][01]?\d|[01]?\d[/.\-][0-3]?\d)[/.\-](?:19|20)?\d{2}"
)


_GROUPED_QUANTITY = re.compile(r"\d{1,3}(?:,\d{3}){1,2}|\d{1,4}\.\d{1,3}")
"""A number written as a quantity, with thousands separators or a short decimal part ("10,000
steps", "38,214 miles", "145.500"): cards, phones, accounts and national ids are never written
so."""
_IDENTIFIER_BEFORE = re.compile(
    r"\b(?:numbers?|no|nr|num|ref|reference|id|ids|account|serial|policy|customer|member|membership|"
    r"ssn|sin|nhs|nino|passport|licen[cs]e|pps|tfn|iban|card|phone|mobile|tel)\b\W{0,3}"
    r"(?:(?:is|was|reads|=|:)\s?)?(?:\w+\s){0,1}$|#\s?$",
    _I,
)
"""An identifier's name right before a number: then even "4,821,337" is the identifier."""


def _written_as_quantity(text: str, start: int, token: str) -> bool:
    """``token`` (at ``start``) has thousands separators or a short decimal part and no
    identifier's name right before it: a quantity, on any topic ("service at 20,000")."""
    return bool(_GROUPED_QUANTITY.fullmatch(token)) and not _IDENTIFIER_BEFORE.search(
        text, max(0, start - 40), start
    )


def unplaced_long_numbers(text: str) -> list[tuple[int, int]]:
    """On any topic: a number of five or more digits (its groups joined) that the grammar
    gives no role (a unit, a date, a version, a port, a private address, a resolution, a
    product ...). Such a number identifies something, a person's card, plate, customer or
    national id, their phone or where they live, until a rule says what it is: fail closed."""
    found: list[tuple[int, int]] = []
    if not re.search(r"\d{2}", text):
        return found
    norm, where = _nfkc(text)
    memory = _memory_of(norm, False)
    for n, run in enumerate(_LONG_RUN.finditer(norm)):
        digits = sum(ch.isdigit() for ch in run.group(0))
        if digits < 5:
            continue
        if n >= _MAX_NUMBERS:
            break
        if _ISO_DATE.match(run.group(0)) and not _BIRTH.search(norm):
            continue  # a log line's date and time: "2026-11-27 22:31"
        if _DAY_MONTH_YEAR.fullmatch(run.group(0)) and not _BIRTH.search(norm):
            continue  # "installed 14/10/2019" (a birth date is sensitive's date_of_birth)
        tyre = _TYRE.match(norm, run.start())
        if tyre and tyre.group("rim") and tyre.start("rim") == run.end():
            continue  # a tyre's size: "205/55 R16"
        if _written_as_quantity(norm, run.start(), run.group(0)):
            continue  # "the steps goal is 10,000", "the club net is on 145.500"
        groups = list(_NUMBER.finditer(norm, run.start(), run.end()))
        for g in groups:
            token = g.group(0)
            value = int(token) if token.isdigit() and len(token) <= 9 else None
            if len(groups) > 1 and _role(
                norm, g.start(), g.end(), value, *_word_around(norm, g.start(), g.end())
            ):
                continue
            if not _accounted(norm, g.start(), g.end(), value, memory):
                found.append((where[run.start()], where[run.end() - 1] + 1))
                break
    return found


_READ_OUT = re.compile(
    r"(?<![\w'’])[^\W\d_]{1,7}(?:(?:\s?,\s?|\s?-\s?)[^\W\d_]{1,7}){3,11}(?![\w'’\-])"
)
"""Four or more short words joined by commas or dashes ("pump, un, wyth, tri", "mek-vets-yerku-ut"):
in a memory about getting in, a code read out in a language the filter has no numbers of."""


_READ_OUT_LONG = re.compile(
    r"(?<![\w'’])[^\W\d_]{1,12}(?:\s?,\s?(?:and\s|then\s)?[^\W\d_]{1,12}){3,11}(?![\w'’\-])"
)


def _read_out(text: str, credential: bool = False) -> list[tuple[int, int]]:
    """:data:`_READ_OUT` runs that are not lists of the home's own words (rooms, devices, days).
    Next to a code, PIN or password word any list of four or more words is one: "the garage PIN as
    ISO weekdays: Friday, Tuesday, Sunday, Wednesday"."""
    from .home_topic import _PLACES, _device_words

    found = [m.span() for m in _READ_OUT_LONG.finditer(text)] if credential else []
    for m in _READ_OUT.finditer(text):
        words = re.split(r"\s?[,\-]\s?", m.group(0))
        known = [
            w
            for w in words
            if _device_words().fullmatch(w)
            or _PLACES.fullmatch(w)
            or _access_words().fullmatch(w)
            or _TIME_WORDS.fullmatch(w)
            or w.lower() in _LIST_WORDS
            or _DESCRIBING.fullmatch(w)
        ]
        if len(known) < len(words) / 2:
            found.append(m.span())
    return found


_DESCRIBING = re.compile(
    r"[a-z]{3,}(?:ed|ing|ful|ous|ive|able|ible)|grey|gray|black|white|brown|silver|gold|"
    r"wall|mounted|new|old|big|small|clean|dirty|fine|good|bad",
    _I,
)
"""Participles and adjectives in an inventory line ("key safe, grey, wall-mounted, working"):
words that describe, never a digit read out."""
_LIST_WORDS = frozenset(
    {
        "and",
        "or",
        "then",
        "on",
        "off",
        "up",
        "down",
        "open",
        "close",
        "closed",
        "left",
        "right",
        "red",
        "green",
        "blue",
        "white",
        "yellow",
        "low",
        "high",
        "auto",
        "eco",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "am",
        "pm",
        "a",
        "b",
        "c",
        "d",
    }
)


_NUMBER_OF_ACCESS = re.compile(
    r"\b(?:key\s?safe|lock\s?box|key\s?box|safe|lock|padlock|alarm|door|gate|garage|"
    r"keypad|entry|intercom)s?['’]?s?\s+(?:number|no\.?|#|digits|combination)\b",
    _I,
)


@lru_cache(maxsize=16)
def _code_context(text: str) -> _Memory | None:
    """What :func:`accounts_for` reads of the whole memory, once per memory (the code detectors
    ask about each of its numbers: read per number, a memory of many numbers cost quadratic time):
    ``None`` next to a code, PIN or password word, else the grammar's view of the memory."""
    from .words import english_credential_words

    if (
        _CREDENTIAL.search(english_credential_words(text)[0])
        or _NUMBER_OF_ACCESS.search(text)
        or _OPENS.search(text)
    ):
        return None
    return _memory_of(text, False)


def accounts_for(text: str, start: int, end: int) -> bool:
    """Whether the grammar accounts for the digits at ``text[start:end]`` (a model, a count,
    a resolution ...), read in ``text`` as a memory about getting in: the code detectors of
    :mod:`.sensitive` ask before they call a number a code."""
    token = text[start:end]
    if not _NUMBER.fullmatch(token):
        return False
    if _priced(text, start, end):
        return True  # beside a code word too: "the safe is rated for £2,000"
    memory = _code_context(text)
    if memory is None:
        return False  # next to a code, PIN or password word, or "the keysafe number": no benefit of the doubt
    value = int(token) if token.isdigit() and len(token) <= 9 else None
    return _accounted(text, start, end, value, memory)


def access_findings(text: str, english: str | None = None) -> list[tuple[int, int, str]]:
    """What in ``text`` could encode a secret, as (start, end, kind): on any topic a URI with
    a password or a Wi-Fi QR payload; in a memory about getting in (:func:`about_access`),
    everything the module's docstring lists that the grammar does not account for."""
    found = [(m.start(), m.end(), "uri_credentials") for m in _URI_CREDENTIALS.finditer(text)]
    found += [(m.start(), m.end(), "wifi_payload") for m in _WIFI_PAYLOAD.finditer(text)]
    found += [(m.start(), m.end(), "access_digits") for m in _ODD_DIGITS.finditer(text)]
    found += [(a, b, "long_number") for a, b in unplaced_long_numbers(text)]
    found += [
        (m.start(), m.end(), "access_spelled_letters")
        for m in _SPELLED_RUN.finditer(text)
        if len(re.findall(rf"(?<![\w])(?:{_NATO})(?![\w])", m.group(0), _I)) >= 3
    ]
    if _PHONE_TOPIC.search(text):
        words = re.compile(r"[^\W\d_]+")
        found += [
            (a, b, "phone_number")
            for a, b, v in _number_words(text)
            if v is None and len(words.findall(text, a, b)) >= 4
        ]
    if not about_access(text, english) and not about_access(spelled_plainly(text)):
        return found
    norm, where = _nfkc(text)

    from .words import english_credential_words

    credential = bool(
        _CREDENTIAL.search(english if english is not None else english_credential_words(norm)[0])
        or _OPENS.search(norm)
    )
    memory = _memory_of(norm, credential)

    def back(a: int, b: int, kind: str) -> tuple[int, int, str]:
        return where[a], where[max(a, b - 1)] + 1, kind

    for n, m in enumerate(_NUMBER.finditer(norm)):
        token = m.group(0)
        value = int(token) if token.isdigit() and len(token) <= 9 else None
        if n >= _MAX_NUMBERS or not _accounted(norm, m.start(), m.end(), value, memory):
            found.append(back(m.start(), m.end(), "access_digits"))
    found += [
        back(i, i + 1, "access_digits")
        for i, ch in enumerate(norm)
        if unicodedata.category(ch) in ("No", "Nl")
    ]
    found += [back(m.start(), m.end(), "access_keycap") for m in _KEYCAP.finditer(norm)]
    for n, (a, b, value) in enumerate(_number_words(norm)):
        if value is None or n >= _MAX_NUMBERS or not _accounted(norm, a, b, value, memory):
            found.append(back(a, b, "access_number_words"))
    found += [back(m.start(), m.end(), "access_spelled_letters") for m in _SPELLING.finditer(norm)]
    found += [
        back(m.start(), m.end(), "access_spelled_letters")
        for m in _LETTERS.finditer(norm)
        if not _known_spelled_word(m.group(0))
    ]
    found += [back(a, b, "access_roman_numeral") for a, b in _roman(norm, credential)]
    found += [
        back(m.start(), m.end(), "access_roman_numeral")
        for m in _ROMAN_GROUPS.finditer(norm)
        if _roman_groups(m.group(0))
    ]
    if credential:
        found += [
            back(m.start(), m.end(), "access_described_code") for m in _KEYPAD_SHAPE.finditer(norm)
        ]
    found += [back(m.start(), m.end(), "access_described_code") for m in _ENCODED.finditer(norm)]
    found += [back(m.start(), m.end(), "access_described_code") for m in _GRID_PATH.finditer(norm)]
    found += [back(m.start(), m.end(), "access_switch_pattern") for m in _SWITCH_RUN.finditer(norm)]
    found += [back(a, b, "access_number_words") for a, b in _read_out(norm, credential)]
    found += [
        (i, i + 1, "access_digits")
        for i, ch in enumerate(text)
        if unicodedata.category(ch) in ("No", "Nl")
        and not ch.isascii()
        and not any(c.isdigit() for c in unicodedata.normalize("NFKC", ch))
    ]  # "ⅱ ⅴ ⅷ": before NFKC reads them as letters
    found += [(m.start(), m.end(), "access_digits") for m in _CLOCK_FACES.finditer(text)]
    found += [back(a, b, "access_morse") for a, b in _morse(norm)]
    found += [
        back(m.start(), m.end(), "access_mixed_token")
        for m in _MIXED.finditer(norm)
        if "://" not in m.group(0) and not _named_token(norm, m.start(), m.group(0), credential)
    ]
    return found
