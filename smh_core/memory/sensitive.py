"""Secrets and personal identifiers in free text, for the memory bank's write guard.

Why: the memory bank keeps what it is given for as long as the user's profile lives, and its
entries are pasted back into later prompts. A user, or text injected through a tool result,
may say "remember my lock code is 4821" or "my number is (555) 123-4567"; MemHome's rule is
that the memory holds device preferences only, so such a write must be refused whatever the
model decided. :func:`find_sensitive` says what kind of sensitive data a text holds and
where, never the data itself, so a refusal can name the rule without echoing the secret.

How: well-kept detectors where they fit, patterns where none does. detect-secrets' regex
plugins know vendor key and token formats and Google's libphonenumber (``phonenumbers``) knows
phone numbers; neither finds a door code or a password, so the rest are regular expressions plus,
where a format alone would catch ordinary numbers, a validator: Luhn for card numbers, ISO 13616
mod-97 and the country's length for IBANs, ISO 7064 for the Chinese resident ID, an entropy test
for bare tokens. Context words ("PIN", "passport", "card number") let unvalidated numbers through
only next to them. Before the patterns run a second time, numbers said in words become digits
and credential words of other languages or with one typing slip ("Passwort", "pasword",
``data/credential_words.yaml``) become the English word.

A deny-list fails open on every format nobody listed (a door code in Italian number words, NATO
letters, Roman numerals, keycap emoji or Morse; a password with no credential word). So on one
topic the filter fails closed: a memory about getting into the home or an account (doors, locks,
alarms, safes, Wi-Fi, routers, cameras, apps, accounts) is refused when it holds anything that
could encode a secret (digits of any script, number words, spelled letters, Roman numerals,
keycaps, Morse, symbol-laden words) that a small grammar cannot account for as a time, a
duration, a percentage, a temperature, a count or a device's number: :mod:`.access`. A URI with
a password and a ``WIFI:`` QR payload are refused on any topic.

Every pattern is linear-time on hostile input (it is run on whatever a model or a user sends):
no quantified group whose body can match the same text in two ways, every unbounded run is
preceded by a look-behind on its own character class (so a match can only start at the run's
first character, not at each of its characters), and windows and look-aheads are bounded.
``tests/memory/test_memory_sensitive.py`` checks this on 100,000-character inputs.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Literal

from .access import (
    ACCESS_KINDS,
    access_findings,
    accounts_for,
    digit_parts,
    spoken_digit_runs,
)
from .disclosure import disclosures, non_value
from .words import (  # noqa: F401
    _DIGIT_WORDS,
    _NUMBER_WORD,
    _SCALES,
    _TEENS_TENS,
    _replace,
    english_credential_words,
)

Category = Literal["secret", "identifier"]

SECRET_KINDS = (
    frozenset(
        {
            "api_key",
            "token",
            "private_key",
            "password",
            "access_code",
            "security_answer",
            "card_security_code",
            "key_location",
        }
    )
    | ACCESS_KINDS
)
"""Credentials: whoever reads them can act as the user (log in, unlock, disarm)."""

IDENTIFIER_KINDS = frozenset(
    {
        "phone_number",
        "email_address",
        "ssn",
        "iban",
        "card_number",
        "account_number",
        "street_address",
        "postal_code",
        "national_id",
        "id_number",
        "date_of_birth",
        "username",
        "long_number",
        "vehicle_id",
        "home_location",
    }
)
"""Personal data: identifies or locates a person, or reaches their money."""


@dataclass(frozen=True, order=True)
class Finding:
    """One sensitive span: its kind and character offsets, deliberately not its text (a
    finding may be logged or sent back to a model)."""

    start: int
    end: int
    kind: str

    @property
    def category(self) -> Category:
        return "secret" if self.kind in SECRET_KINDS else "identifier"

    def __str__(self) -> str:
        return f"{self.kind}[{self.start}:{self.end}]"


# --- validators -------------------------------------------------------------------------------


def luhn_ok(digits: str) -> bool:
    """The Luhn checksum of payment card numbers (one random number in ten passes it)."""
    if not digits.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card_ok(value: str) -> bool:
    """A bare 13-19 digit card number that passes Luhn. The match may have swallowed a number
    written after the card (an expiry, a count), so shorter prefixes cut at a separator are
    tried too; a run of one repeated digit is not a card."""
    chunks = re.split(r"[ \-]", value)
    for n in range(len(chunks), 0, -1):
        digits = "".join(chunks[:n])
        if 13 <= len(digits) <= 19 and len(set(digits)) > 1 and luhn_ok(digits):
            return True
    return False


_IBAN_LENGTHS = {
    cc: int(n)
    for cc, n in re.findall(
        r"([A-Z]{2})(\d{2})",
        (
            "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 "
            "DE22 DJ27 DK18 DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 "
            "GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 "
            "LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 "
            "PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 "
            "TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30"
        ),
    )
}
"""IBAN length by country (ISO 13616 registry); a country not listed needs 15-34 characters."""


def iban_ok(value: str) -> bool:
    """ISO 13616: the country's length and ``mod 97 == 1`` over the rearranged characters."""
    iban = re.sub(r"\s", "", value).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", iban):
        return False
    if len(iban) != _IBAN_LENGTHS.get(iban[:2], len(iban) if 15 <= len(iban) <= 34 else -1):
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


def _iban_match_ok(value: str) -> bool:
    """The IBAN pattern may take a following four-letter word as a last group; drop up to two
    trailing groups before giving up."""
    chunks = value.split()
    return any(
        iban_ok("".join(chunks[:n])) for n in range(len(chunks), max(len(chunks) - 3, 0), -1)
    )


_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def cn_resident_id_ok(value: str) -> bool:
    """The check character of an 18-character Chinese resident ID (ISO 7064 MOD 11-2)."""
    if not re.fullmatch(r"\d{17}[\dXx]", value):
        return False
    total = sum(int(d) * w for d, w in zip(value[:17], _CN_ID_WEIGHTS, strict=True))
    return "10X98765432"[total % 11] == value[17].upper()


def shannon_entropy(text: str) -> float:
    """Bits per character of the text's own character distribution."""
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values()) if n else 0.0


def _class_changes(text: str) -> int:
    """How often consecutive characters switch between lower case, upper case, digit and
    other: random tokens switch constantly, words and snake_case names rarely."""

    def cls(ch: str) -> int:
        return 0 if ch.islower() else 1 if ch.isupper() else 2 if ch.isdigit() else 3

    return sum(cls(a) != cls(b) for a, b in zip(text, text[1:], strict=False))


def looks_random(token: str) -> bool:
    """A bare token that looks generated (a key, a secret, a session token) rather than a name:
    20+ characters (``_``/``-`` aside) mixing letters and digits, with high entropy and
    frequent letter/digit/case changes, which ``living_room_lamp_2`` or ``WH-1000XM5`` lack.
    Hex digests count from 32 characters."""
    longest = re.sub(r"[_\-]", "", token.strip("="))
    n = len(longest)
    if n < 20:
        return False
    digits = sum(ch.isdigit() for ch in longest)
    letters = sum(ch.isalpha() for ch in longest)
    if digits < 2 or letters < 2:
        return False
    if re.fullmatch(r"[0-9a-fA-F]+", longest):
        return n >= 32 and shannon_entropy(longest) >= 3.0
    return shannon_entropy(longest) >= 3.5 and _class_changes(longest) >= n // 4


def _digits_between(lo: int, hi: int) -> Callable[[str], bool]:
    def ok(value: str) -> bool:
        return lo <= sum(ch.isdigit() for ch in value) <= hi

    return ok


def _id_number_ok(value: str) -> bool:
    """Four to 24 digits, and not a year alone with a preposition's last letters before it (the
    licence "needs renewing in 2027" says when, not which)."""
    if re.fullmatch(r"(?:[A-Za-z]{0,3}[ \-])?(?:19|20)\d{2}", value):
        return False
    return 4 <= sum(ch.isdigit() for ch in value) <= 24


def _hex_id_ok(value: str) -> bool:
    """An RFID/NFC id: six or more hex digits in all (a fob's UID is 8 to 20)."""
    return len(re.sub(r"[^0-9A-Fa-f]", "", value)) >= 6


def _ssn_ok(value: str) -> bool:
    """US SSN: never area 000 or 666, group 00 or serial 0000 (area 9xx is an ITIN, also
    personal)."""
    digits = re.sub(r"\D", "", value)
    return (
        len(digits) == 9
        and digits[:3] not in ("000", "666")
        and digits[3:5] != "00"
        and digits[5:] != "0000"
    )


# --- patterns ---------------------------------------------------------------------------------

_I = re.IGNORECASE
_WINDOW = r"(?:[^.!;\n。！；]|\.(?!\s{0,3}(?:[A-Z][a-z]|$))){0,%d}?"
"""A short stretch within one sentence: "?" may sit inside ("PIN? It's 8207"), and so may a dot
that ends no sentence ("passport no. X123", "21.5")."""
_NOT_UNIT = (
    r"(?!\s?(?:%|°|percent|degrees?|deg\b|c\b|f\b|k\b|kelvin|lux|lm|w\b|watts?|v\b|"
    r"volts?|db\b|rpm|minutes?|mins?\b|hours?|hrs?\b|seconds?|secs?\b|ms\b|am\b|pm\b|"
    r"days?|times|x\b))"
)
"""A number followed by a unit is a setting, not a code."""

_PASSWORD_WORDS = (
    r"(?:pass(?:word|wd|code|phrase|key)|pass[ \-](?:code|phrase|word)|pwd|pw|"
    r"pass(?=\s*[:=]|\s+(?:is|was)\b)|"
    r"(?:wi-?fi|wlan|wireless|network|wpa\d?|security|encryption)\s+key|secret\s+(?:key|word|"
    r"phrase)|client\s+secret|api[ _\-]?key|access\s+key|(?:access|auth|"
    r"authentication|bearer|refresh|api|bot)\s+token|recovery\s+code|backup\s+"
    r"code|one[ \-]time\s+code|otp|2fa\s+code|verification\s+code)s?"
)
_STRONG_COPULA = (
    r"(?:\b(?:is|was|are|it's|it’s|it\s+is|is\s+now|equals|ist|est|es|è|é|är|er|jest)\b|"
    r"[=:：]|是|为)"
)
""""is" (and its German, French, Spanish, Italian, Portuguese, Swedish, Norwegian and Polish
words), or a colon or equals sign."""
_CODE_DEVICE = (
    r"lock|alarm|door|front\s+door|back\s+door|gate|safe|garage(?:\s+door)?|keypad|"
    r"entry|access|security|unlock|disarm|arming|master|building|lock\s?box|key\s?box|"
    r"intercom|padlock|vault|smart\s+lock|deadbolt|apartment|elevator|mailbox"
)
_CODE_VALUE = (
    r"(?P<v>(?<!\d)(?:\d{3,12}(?:[ \-]\d{1,6}){0,5}|\d{1,2}(?:[ \-]\d{1,6}){1,5}))"
    r"(?![\d%°])" + _NOT_UNIT
)
"""A code's digits, maybe grouped ("4821", "12-34-56", "2 4 6 8"): three or more in a row, or
groups (never a lone "2", so "the code for door 2 is 4821" reaches the code)."""
_ID_WORDS = (
    r"passport|driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e\s+(?:number|no)|"
    r"national\s+(?:id|identity|insurance)|(?<!device\s)(?<!device's\s)\bid\s+(?:card|"
    r"number|no)|identity\s+(?:card|number)|tax\s+(?:id|number|file\s+number|code)|"
    r"nhs\s+number|medicare|health\s+(?:card|insurance)|aadhaar|pan\s+card|residence\s+"
    r"permit|green\s+card|voter\s+id|student\s+id|employee\s+id|member(?:ship)?\s+"
    r"(?:number|id)|policy\s+number|insurance\s+number|personalausweis|ausweis(?:nummer)?|reisepass|"
    r"steuer-?id|carte\s+d['’]identit[ée]|carte\s+vitale|carta\s+d['’]identit[àa]|codice\s+fiscale|"
    r"documento\s+(?:de\s+identidad|nacional)|c[ée]dula|dni|nif|nie\s+(?:number|no)|bsn|pesel|"
    r"personnummer|henkil[öo]tunnus|cpf|curp|rfc|nric|hkid|mykad|emirates\s+id|ppsn?|"
    r"(?:sin|pan|tfn|ird|sss)\s+(?:number|no|card|#)|身份证|护照|社保|驾照|驾驶证|"
    r"passeport|paspoort|pasaporte|passaporto|passaporte|pass-?nummer|reisepassnummer|"
    r"sozialversicherungs-?(?:nummer|ausweis)|versicherungsnummer|steuernummer|"
    r"s[ée]curit[ée]\s+sociale|s[ée]cu|niss|rijbewijs|f[üu]hrerschein|permis\s+de\s+conduire|"
    r"licencia\s+de\s+conducir|patente\s+di\s+guida|carteira\s+de\s+(?:identidade|motorista)|"
    r"tessera\s+sanitaria|identiteitskaart|"
    r"burgerservicenummer|identificaci[óo]n|護照|身份證"
)
"""Words for an identity, tax, health or licence number, also of other countries and languages
(an acronym that is also an English word only with "number"/"card" after it)."""
_ACCOUNT_WORDS = (
    r"account\s+(?:number|no)|acct|routing\s+number|sort\s+code|bank\s+account|"
    r"swift|bic|账号|账户"
)
_CARD_WORDS = (
    r"card\s+(?:number|no)|credit\s+card|debit\s+card|bank\s+card|visa|mastercard|amex|银行卡|卡号"
)
_PHONE_WORDS = (
    r"phone|mobile|cell|cellphone|tel|telephone|landline|fax|whatsapp|call|"
    r"(?:my|his|her|their|our|your|\w+['’]s)\s+(?:phone\s+|mobile\s+|contact\s+)?number|"
    r"ring|text|reach\s+me|contact|dial"
)
_STREET = (
    r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|"
    r"Terrace|Way|Close|Crescent|Cres|Parkway|Pkwy|Highway|Hwy|Square|Sq|Circle|Cir|Trail|"
    r"Mews|Gardens|Grove|Alley|Plaza|Strasse|Straße|Weg|Platz|Gasse"
)
_STREET_FIRST = r"rue|avenue|boulevard|bd|chemin|allée|impasse|calle|avenida|rua|piazza|viale"
"""Street words written before the name ("12 rue des Lilas", "8 Calle Mayor")."""
_STOPWORDS = (
    r"the|a|an|on|in|at|to|of|for|and|or|my|our|your|by|with|from|off|up|down|is|are|"
    r"minutes?|mins?|hours?|seconds?|degrees?|percent|pm|am|times?|days?|lights?|lamps?"
)
_US_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|"
    "NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY"
)
_MONTHS = r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"


_CODE_DIGITS = _digits_between(3, 16)
_AT_WORDS = (
    r"arroba|arobase|chiocciola|snabel-a|apenstaartje|kukac|собака|małpa|malpa|klammeraffe|"
    r"at-zeichen|kissanhäntä|zavináč|골뱅이|at\s+sign"
)
_DOT_WORDS = r"dot|punto|punkt|punt|pont|point|ponto|точка|kropka|tečka|piste|nokta|점"
"""The @ and the dot of an e-mail address as said in other languages (English "at" and "dot"
have their own rule above, which also asks for a top-level domain)."""
_CIDR = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}/\d{1,2}")
"""A network and its prefix length ("10.30.0.0/24"): no user and password pair."""
_CODE_COPULA = r"(?:\b(?:is|was|is\s+now|changed\s+to|set\s+to)\b|[=:：]|['’]s\b)"


@dataclass(frozen=True)
class _Rule:
    kind: str
    pattern: re.Pattern[str]
    valid: Callable[[str], bool] | None = None


def _rule(
    kind: str, pattern: str, flags: int = 0, valid: Callable[[str], bool] | None = None
) -> _Rule:
    return _Rule(kind, re.compile(pattern, flags), valid)


_RULES: tuple[_Rule, ...] = (
    # API keys by their vendor prefix; the look-behind is the token class itself.
    _rule(
        "api_key",
        r"(?<![A-Za-z0-9_\-])(?:sk-[A-Za-z0-9_\-]{16,}|(?:sk|rk|pk)_(?:live|test)_"
        r"[A-Za-z0-9]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-"
        r"[A-Za-z0-9_\-]{20,}|xox[abposr]-[A-Za-z0-9\-]{10,}|AIza[A-Za-z0-9_\-]{30,}|hf_"
        r"[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{30,}|shp(?:at|ss|ca)_[A-Fa-f0-9]{20,}|"
        r"SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}|(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9]))",
    ),
    _rule(
        "token",
        r"(?<![A-Za-z0-9_\-.])eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\."
        r"[A-Za-z0-9_\-]{8,}",
    ),  # JWT (Home Assistant long-lived tokens are JWTs)
    _rule(
        "token",
        r"(?<![A-Za-z0-9\-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
        r"[0-9a-f]{12}(?![A-Za-z0-9\-])",
        _I,
    ),  # UUID-shaped keys
    _rule("token", r"\bbearer\s+(?P<v>[A-Za-z0-9_\-.+/=]{16,})", _I),
    _rule("token", r"(?<![A-Za-z0-9_\-+/=])[A-Za-z0-9_\-+/=]{20,}", valid=looks_random),
    _rule("private_key", r"-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----"),
    # a word shaped like a strong password (upper and lower case letters, a digit and a symbol
    # other than "-" and "_", which model codes and ids use; 8 to 64 characters), with or without
    # a password word: nothing else is written that way
    _rule(
        "password",
        r"(?<![^\s\"'“‘(:])(?=[^\s]{0,63}[a-z])(?=[^\s]{0,63}[A-Z])(?=[^\s]{0,63}\d)"
        r"(?=[^\s]{0,63}[!@#$%^&*+=?~|\\<>{}\[\]])(?P<v>[^\s\"'”’]{8,64})(?![^\s\"'”’])",
        valid=lambda v: "://" not in v and not re.fullmatch(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+", v),
    ),
    # a long hexadecimal string with letters and digits: a key, a token or a hash
    _rule(
        "token",
        r"(?<![\w\-:.])(?=[0-9a-f]{0,63}[a-f])(?=[0-9a-f]{0,63}\d)[0-9a-f]{20,64}(?![\w\-:.])",
    ),
    # Passwords: a password word, then "is"/":"/"=" and any value, or a value with a digit
    # straight after it or after "to"/"as".
    _rule(
        "password",
        rf"\b(?:{_PASSWORD_WORDS})\b{_WINDOW % 60}{_STRONG_COPULA}\s*[\"'“‘]?"
        r"(?P<v>[^\s\"'”’.,;!?]{3,64})",
        _I,
    ),
    _rule(
        "password",
        rf"\b(?:{_PASSWORD_WORDS})\b\s*[:=]?\s*[\"'“‘]?(?P<v>(?=[^\s]{{0,63}}\d)"
        r"[^\s\"'”’.,;!?]{3,64})",
        _I,
    ),
    _rule(
        "password",
        rf"\b(?:{_PASSWORD_WORDS})\b{_WINDOW % 40}\b(?:to|as)\s+[\"'“‘]?"
        r"(?P<v>(?=[^\s]{0,63}\d)[^\s\"'”’.,;!?]{3,64})",
        _I,
    ),
    _rule(
        "password",
        rf"\b(?:{_PASSWORD_WORDS})\b{_WINDOW % 40}\b(?P<v>(?:capital|upper\s?case|lower\s?case|"
        r"small\s+letter|exclamation(?:\s+mark)?|at\s+sign|underscore|hyphen|dollar\s+sign|ampersand)\b)",
        _I,
    ),
    _rule(
        "password",
        r"(?:密码|口令|开锁码|门禁码|解锁码|验证码)[^。！；\n]{0,8}?(?P<v>[A-Za-z0-9]{3,32})",
    ),
    # a pattern lock, whatever it is told as ("an L from the top left dot")
    _rule(
        "security_answer",
        rf"\b(?:unlock|lock|swipe|screen)\s+pattern\b{_WINDOW % 50}{_STRONG_COPULA}\s*"
        r"(?P<v>[^\s.,;!?]{1,64})",
        _I,
    ),
    # a login told as "user / password" after a login word ("the admin credentials: root / toor")
    _rule(
        "password",
        rf"\b(?:credentials?|creds|login|log-?in|logon|sign[\s\-]?in|account|user(?:\s?name)?|"
        rf"wi-?fi|wlan|ssid|network|hotspot|router)\b"
        rf"{_WINDOW % 40}(?<![^\s:=\"'“‘(])(?P<v>[^\s/]{{2,64}}\s?/\s?[^\s/]{{2,64}})",
        _I,
        valid=lambda v: not _CIDR.fullmatch(v.replace(" ", "")),
    ),
    _rule("security_answer", rf"\bmaiden\s+name\b{_WINDOW % 60}{_STRONG_COPULA}\s*(?P<v>\w+)", _I),
    # an answer to a question, given ("Answer: Mr Abernathy-Cole", "the answer to 'first street' ... is X")
    _rule(
        "security_answer",
        r"\banswer\b[^\n]{0,80}?(?::|\bis\b|\bwas\b)\s*[\"'“‘]?(?P<v>[^\s\"'”’.,;!?]{2,64})",
        _I,
    ),
    # a duress or pick-up word agreed with the alarm company: the word itself is the secret
    _rule(
        "security_answer",
        r"\b(?:duress|pick[\s\-]?up\s+(?:word|phrase|code)|code\s?word|safe\s?word|passwort\s+"
        r"(?:für|beim)\s+(?:den\s+)?wachdienst)\b",
        _I,
    ),
    # where the home is, as a locator: a geohash, a plus code, a Maidenhead square, three words
    _rule(
        "home_location",
        r"\b(?:geohash|maidenhead(?:\s+locator)?|plus\s+code|open\s+location\s+code|what3words|w3w|"
        r"grid\s+ref(?:erence)?|qth\s+locator|locator)\b[^\n]{0,20}?(?P<v>[A-Za-z0-9+./]{6,20})",
        _I,
    ),
    # a security question named in another language, then its answer after ":" or a copula
    _rule(
        "security_answer",
        r"\b(?:sicherheitsfrage|geheimfrage|question\s+secr[èe]te|question\s+de\s+s[ée]curit[ée]|"
        r"nom\s+de\s+jeune\s+fille|pregunta\s+(?:de\s+)?seguridad|pregunta\s+secreta|domanda\s+(?:di\s+sicurezza|"
        r"segreta)|beveiligingsvraag|pergunta\s+(?:de\s+)?seguran[çc]a|säkerhetsfråga|sikkerhedsspørgsmål|"
        r"pytanie\s+(?:pomocnicze|bezpieczeństwa)|секретный\s+вопрос|보안\s*질문|秘密の質問)\b"
        r"[^\n]{0,80}?(?::|\s(?:ist|est|es|è|is|är|er|jest)\s)\s*(?P<v>[^\s,;.]{2,64})",
        _I,
    ),
    # account recovery: a recovery question's answer, or the answer to a usual security question
    _rule(
        "security_answer",
        rf"\b(?:recovery\s+(?:question|answer|word|phrase|hint)|question\s+answer|"
        rf"answer\s+to\s+(?:the|my)\s+(?:security|recovery)\s+question)s?\b{_WINDOW % 50}"
        rf"(?:{_STRONG_COPULA}|\bwas\b)\s*[\"'“‘]?(?P<v>[^\s\"'”’.,;!?]{{2,64}})",
        _I,
    ),
    _rule(
        "security_answer",
        r"\b(?:(?:my\s+)?first\s+(?:teacher|pet|pet's\s+name|car|school|street|job|boss|"
        r"concert|love|kiss)|childhood\s+(?:street|friend|home|nickname|best\s+friend|hero|pet)|"
        r"(?:city|town)\s+(?:where\s+)?i\s+was\s+born|favou?rite\s+(?:teacher|childhood\s+\w+)|"
        r"name\s+of\s+my\s+first\s+\w+)\s*(?:was|is|=|:)\s*[\"'“‘]?(?P<v>[^\s\"'”’.,;!?]{2,64})",
        _I,
    ),
    _rule(
        "security_answer",
        r"\b(?i:maiden\s+name)\b(?:\s+(?i:of\s+)?[A-Za-z'’]+){0,2}?[\s,:\-]+"
        r"(?P<v>[A-Z][a-zà-ÿ'’\-]+)",
    ),  # a maiden name is an answer to security questions
    # Secrets said as words: answers to security questions, safe and code words, pass phrases.
    _rule(
        "security_answer",
        rf"\b(?:security\s+(?:question|answer)|secret\s+(?:answer|question|word|phrase)|"
        rf"(?:safe|code|duress|panic|family|emergency)\s?word|verbal\s+(?:password|passcode|code)|"
        rf"pass\s?phrase|password\s+hint|memorable\s+(?:word|"
        rf"phrase|answer))s?\b{_WINDOW % 50}{_STRONG_COPULA}\s*[\"'“‘]?(?P<v>[^\s\"'”’.,;!?]{{2,64}})",
        _I,
    ),
    _rule(
        "private_key",
        r"\b(?:seed|recovery|mnemonic|backup|secret)\s+(?:phrase|words|seed)\b|\bwallet\s+seed\b",
        _I,
    ),
    # PINs and lock/alarm/door/gate/safe codes.
    _rule(
        "access_code",
        rf"\bpins?\b(?:\s*(?:code|number|no\.?|#))?{_WINDOW % 30}{_CODE_VALUE}",
        _I,
        valid=_CODE_DIGITS,
    ),
    _rule(
        "access_code",
        rf"\b(?:{_CODE_DEVICE})\s*(?:pin|code|passcode|combination|combo|"
        rf"number|key\s?code)s?\b{_WINDOW % 30}{_CODE_VALUE}",
        _I,
        valid=_CODE_DIGITS,
    ),
    _rule(
        "access_code",
        rf"\b(?:code|combination|combo|keycode|key\s+code)s?\b{_WINDOW % 30}"
        rf"{_CODE_COPULA}\s*(?:now\s+)?{_CODE_VALUE}",
        _I,
        valid=_CODE_DIGITS,
    ),
    _rule(
        "access_code",
        rf"\b(?:unlock|disarm|arm|open|enter|punch\s+in|key\s+in|type\s+in)\b"
        rf"{_WINDOW % 40}\b(?:with|using|code|pin)\s+(?P<v>\d{{4,12}})(?![\d%°]){_NOT_UNIT}",
        _I,
    ),
    # "opens with 4 5 9", "unlocked using 12-34", "gets in by typing 3310": a door, box or panel
    # opened with digits is opened with a code, whatever the thing is called
    _rule(
        "access_code",
        rf"\b(?:open|unlock|disarm|release)(?:s|ed|ing)?\b{_WINDOW % 40}\b(?:with|using|via|"
        rf"by\s+(?:typing|entering|pressing|keying|punching)(?:\s+in)?)\s+(?:the\s+)?(?:code\s+|pin\s+|"
        rf"digits\s+|number\s+)?{_CODE_VALUE}",
        _I,
        valid=_CODE_DIGITS,
    ),
    # RFID cards, fobs and tags: their id is what the reader checks, so it opens the door
    _rule(
        "access_code",
        r"\b(?:rfid|nfc|fob|key\s?fob|tag|badge|key\s?card|access\s+card|card|chip)\s+"
        r"(?:uid|id|number|no\.?|code|serial)\b[^.!?\n\d]{0,30}?(?P<v>(?<![0-9A-Fa-f])(?=[0-9A-Fa-f]{0,8}\d)"
        r"[0-9A-Fa-f]{2,8}(?:[ :\-][0-9A-Fa-f]{2,8}){1,7}|\d{4,20})(?![0-9A-Za-z])",
        _I,
        valid=_hex_id_ok,
    ),
    _rule(
        "access_code",
        rf"\b(?:enter|punch\s+in|key\s+in|type\s+in)\s+(?:the\s+)?(?:code\s+|pin\s+)?"
        rf"(?P<v>\d{{4,12}})(?![\d%°]){_NOT_UNIT}",
        _I,
    ),
    # Digits keyed or read out one at a time ("0 4 1 7", "2-9-6-3"): a code or a number being
    # dictated; nobody writes a setting, a time or a model number that way.
    _rule("access_code", r"(?<![\w.,:/\-])\d(?:(?: | ?- ?)\d){3,15}(?![\w%°\-]|[.,:]\d|\s?\d)"),
    # Keys pressed on a keypad: digits after a keying verb, or next to star, hash or enter.
    _rule(
        "access_code",
        rf"\b(?:press(?:es|ed|ing)?|punch(?:es|ed|ing)?|tap(?:s|ped|ping)?|key(?:s|ed|ing)?|"
        rf"type[sd]?|typing|dial(?:s|l?ed|l?ing)?|enter(?:s|ed|ing)?)\s+(?:in\s+)?(?:the\s+)?(?:code\s+|pin\s+|"
        rf"digits\s+|numbers?\s+)?(?:(?:star|hash|pound)\s+|[#*]\s?)?(?P<v>\d(?:[ \-]?\d){{2,15}})"
        rf"(?![\d%°]|[.,:]\d){_NOT_UNIT}",
        _I,
    ),
    _rule(
        "access_code", r"(?:\b(?:star|hash|pound)\b|[#*])\s?(?P<v>\d(?:[ \-]?\d){2,15})(?!\d)", _I
    ),
    _rule(
        "access_code",
        r"(?<![\w.])(?P<v>\d(?:[ \-]?\d){2,15})\s?(?:[#*]|\b(?:star|hash|pound)\b)",
        _I,
    ),
    _rule(
        "access_code",
        r"(?<![\d.,])(?P<v>\d{3,12})\s+(?:is|was)\s+(?:the|my|our)?\s*"
        r"(?:[A-Za-z\-]+\s+)?(?:code|pin|password|passcode|combination)\b",
        _I,
    ),
    # Phone numbers: international (+...), North American, national with a trunk 0, Chinese
    # mobiles, and any 7+ digit number next to a phone word.
    _rule(
        "phone_number",
        r"(?<![\w+])\+\d(?:[ .\-]?(?:\(\d{1,4}\)|\d)){6,16}(?!\d)",
        valid=_digits_between(8, 15),
    ),
    _rule(
        "phone_number",
        r"(?<![0-9A-Za-z+\-.])(?:1[ .\-]?)?(?:\(\d{3}\)[ .\-]?|\d{3}[ .\-]?)"
        r"\d{3}[ .\-]?\d{4}(?![0-9])(?![.\-]\d)",
    ),
    _rule(
        "phone_number",
        r"(?<![0-9A-Za-z+\-.])0\d{1,4}(?:[ .\-]\d{2,4}){1,4}(?![0-9])"
        r"(?![ .\-]?\d)",
        valid=_digits_between(9, 12),
    ),
    _rule("phone_number", r"(?<![0-9])1[3-9]\d(?:[ \-]?\d{4}){2}(?![0-9])"),
    _rule(
        "phone_number",
        rf"\b(?:{_PHONE_WORDS})\b{_WINDOW % 30}(?P<v>\+?\d[\d ().\-]{{5,18}}\d)"
        r"(?![0-9])",
        _I,
        valid=_digits_between(7, 15),
    ),
    _rule(
        "phone_number",
        r"(?:手机|电话|联系方式|号码)[^。！；\n]{0,8}?(?P<v>\d[\d \-]{5,16}\d)",
        valid=_digits_between(7, 15),
    ),
    _rule(
        "email_address",
        r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}"
        r"(?:\.[A-Za-z0-9\-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z0-9\-])",
    ),
    _rule(
        "email_address",
        r"(?<![\w.])[A-Za-z0-9._%+\-]{1,64}(?:\s+dot\s+[A-Za-z0-9]{1,30}){0,3}\s+(?:at|\[at\]|\(at\))\s+"
        r"[A-Za-z0-9\-]{1,63}(?:\s*(?:\bdot\b|\.)\s*[A-Za-z]{2,10}){0,2}\s*(?:\bdot\b|\.)\s*(?:com|net|org|uk|de|"
        r"fr|io|ie|au|nz|ca|in|za|us|es|it|nl|edu|gov|info|me|co)\b",
        _I,
    ),  # "john dot smith at gmail dot com"
    # "sam [at] example [dot] com", "sam(at)example.com", "sam @ example . com": the @ written out
    _rule(
        "email_address",
        r"(?<![\w.%+\-])[\w.%+\-]{1,64}\s?(?:@|[\[({<]\s?(?:at|ät|a|arroba|chez|@)\s?[\])}>])\s?"
        r"[\w\-]{1,63}(?:\s?(?:[\[({<]\s?(?:dot|punkt|point|punto|ponto|\.)\s?[\])}>]|\.)\s?[\w\-]{1,63}){1,4}"
        r"(?<=[^\W\d_]{2})",
        _I,
    ),
    # the @ and the dot said in other languages ("kasia kropka nowak małpa example kropka pl")
    _rule(
        "email_address",
        rf"(?<![\w.])[\w.%+\-]{{1,64}}(?:\s+(?:{_DOT_WORDS})\s+[\w\-]{{1,30}}){{0,3}}\s+(?:{_AT_WORDS})\s+"
        rf"[\w\-]{{1,63}}(?:\s+(?:{_DOT_WORDS})\s+[\w\-]{{1,63}}){{1,4}}",
        _I,
    ),
    _rule("ssn", r"(?<![0-9\-])\d{3}-\d{2}-\d{4}(?![0-9\-])", valid=_ssn_ok),
    _rule(
        "ssn",
        rf"\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?|social\s+insurance\s+"
        rf"number|itin){_WINDOW % 30}(?P<v>\d{{3}}[ \-]?\d{{2,3}}[ \-]?\d{{3,4}})(?![0-9])",
        _I,
    ),
    _rule(
        "iban",
        r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?"
        r"(?![A-Za-z0-9])",
        _I,
        valid=_iban_match_ok,
    ),
    _rule("card_number", r"(?<![0-9\-])\d(?:[ \-]?\d){12,18}(?![0-9])", valid=_card_ok),
    _rule(
        "card_number",
        rf"(?:\b(?:{_CARD_WORDS})\b|银行卡|卡号){_WINDOW % 30}"
        r"(?P<v>\d(?:[ \-]?\d){11,18})(?![0-9])",
        _I,
    ),
    _rule(
        "account_number",
        rf"(?:\b(?:{_ACCOUNT_WORDS})\b|账号|账户){_WINDOW % 30}"
        r"(?P<v>[A-Za-z]{0,4}\d(?:[ \-]?\d){5,30})(?![0-9])",
        _I,
    ),
    # Street addresses: house number, capitalised street name, street word; lower case only
    # with an unambiguous street word and no stop words between.
    _rule(
        "street_address",
        rf"(?<![\w#])\d{{1,6}}[A-Za-z]?(?:[ \-]\d{{1,4}})?,?\s+"
        rf"(?:[A-Z][A-Za-z'’\-]*\.?\s+){{1,4}}(?:{_STREET})\b",
    ),
    _rule(
        "street_address",
        rf"(?<![\w#])\d{{1,6}}[a-z]?\s+(?:(?!(?:{_STOPWORDS})\b)"
        r"[a-z'’\-]+\s+){1,3}(?:street|avenue|road|boulevard|lane|st|ave|rd|blvd)\b",
        _I,
    ),
    _rule(
        "street_address",
        r"(?<![\w#])\d{1,6}[a-z]?\s+[A-Z][a-zäöüß]+(?:strasse|straße|weg|platz|"
        r"gasse|allee)\b",
    ),
    _rule(
        "street_address",
        r"\b[A-Z][a-zäöüßåæø]+(?:strasse|straße|str\.|weg|platz|gasse|allee|straat|laan|plein|"
        r"gracht|kade|singel|dijk|steeg|gade|vej|gatan|gata|vägen|veien|vei|katu|tie|utca|ulica|ulice)\s+"
        r"\d{1,4}[a-z]?\b",
    ),
    _rule("street_address", r"〒\s?\d{3}-?\d{4}"),
    _rule(
        "street_address",
        rf"(?<![\w#])\d{{1,5}}(?:bis|ter)?,?\s+(?i:{_STREET_FIRST})\s+"
        r"(?:(?i:d[eu]s?|la|le|del|della|do|da)\s+|l['’])?[A-Z]",
    ),
    _rule("street_address", r"\bp\.?\s?o\.?\s?box\s+\d+", _I),
    # the street word first and the number after the name ("Via dei Tigli 7", "Calle de Alcalá 45")
    _rule(
        "street_address",
        r"\b(?:Via|Viale|Piazza|Corso|Vicolo|Largo|Calle|Avenida|Paseo|Plaza|Carrer|Rua|Travessa|"
        r"Rue|Avenue|Boulevard|Chemin)\s+(?:(?i:d[aeiu]\w{0,3}|la|le|l['’]|de\s+la|do|da|dos|das)\s*)?"
        r"[A-ZÀ-Ý][\w'’\-]+(?:\s+[A-ZÀ-Ý][\w'’\-]+){0,3},?\s+\d{1,4}[a-z]?\b",
    ),
    _rule(
        "street_address",
        rf"\b(?:(?:my|our|home|mailing|billing|shipping|postal|street)\s+"
        rf"address|i\s+live\s+at|we\s+live\s+at){_WINDOW % 40}(?P<v>\d+)",
        _I,
    ),
    _rule("street_address", r"[\u4e00-\u9fff]{1,12}?(?:路|街|大道|巷|胡同)\d{1,5}(?:号|弄)"),
    _rule("street_address", r"\d{1,4}(?:号楼|栋|幢)\s*(?:\d{1,3}单元)?\s*\d{2,5}(?:室|号)?"),
    _rule("postal_code", rf"\b(?:{_US_STATES})\s+\d{{5}}(?:-\d{{4}})?(?![0-9])"),
    _rule("postal_code", r"(?<![A-Za-z0-9])(?:[A-Z]{1,2}\d[A-Z\d]?|GIR) \d[A-Z]{2}(?![A-Za-z0-9])"),
    _rule("postal_code", r"(?<![A-Za-z0-9])[ABCEGHJ-NPRSTVXY]\d[A-Z] \d[A-Z]\d(?![A-Za-z0-9])"),
    _rule(
        "postal_code",
        rf"\b(?:zip|postcode|post\s+code|postal\s+code){_WINDOW % 20}"
        r"(?P<v>[A-Za-z0-9]{2,5}[ \-]?[A-Za-z0-9]{3,4})",
        _I,
        valid=_digits_between(3, 9),
    ),
    # National and other personal ID numbers.
    _rule("national_id", r"(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])", valid=cn_resident_id_ok),
    _rule(
        "national_id",
        r"(?<![A-Za-z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?"
        r"\d{2} ?[A-D](?![A-Za-z0-9])",
    ),  # UK National Insurance number
    _rule(
        "id_number",
        rf"(?:\b(?:{_ID_WORDS})\b|身份证|护照|社保|驾照|驾驶证){_WINDOW % 30}"
        r"(?P<v>[A-Za-z]{0,3}[ \-]?\d(?:[ \-]?\d){3,24}(?:[ \-]?[A-Za-z]{1,3})?|"
        r"(?<![A-Za-z0-9])(?=[A-Za-z]{0,8}\d)[A-Za-z0-9]{6,24}(?![A-Za-z0-9]))",
        _I,
        valid=_id_number_ok,
    ),
    _rule(
        "date_of_birth",
        rf"\b(?:born(?:\s+on)?|date\s+of\s+birth|dob|birth\s?date|birthday(?:\s+is)?)\b"
        rf"{_WINDOW % 20}(?P<v>\d{{1,4}}[/.\-]\d{{1,2}}[/.\-]\d{{2,4}}|(?:{_MONTHS})[a-z]*\.?\s+"
        rf"\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
        rf"(?:{_MONTHS})[a-z]*,?\s+\d{{4}})",
        _I,
    ),
    _rule(
        "username",
        rf"\b(?:user\s?name|login|user\s+id){_WINDOW % 40}{_STRONG_COPULA}\s*"
        r"(?P<v>[A-Za-z0-9_.\-]{3,64})",
        _I,
    ),
    # Any nine or more digits in a row: no device setting is that long.
    _rule("long_number", r"(?<![0-9.,])\d{9,}(?![0-9])"),
)


# --- numbers said in words ------------------------------------------------------------------


def _below_hundred(words: list[str], i: int) -> tuple[int, int]:
    """The value of "twenty one", "twelve" or "seven" starting at ``words[i]`` (0 if none) and
    the index after it."""
    word = words[i].lower() if i < len(words) else ""
    if word in _DIGIT_WORDS and word not in ("o", "oh"):
        return int(_DIGIT_WORDS[word]), i + 1
    if word in _TEENS_TENS:
        value = _TEENS_TENS[word]
        nxt = words[i + 1].lower() if i + 1 < len(words) else ""
        if value >= 20 and nxt in _DIGIT_WORDS and nxt not in ("oh", "o", "zero", "nought"):
            return value + int(_DIGIT_WORDS[nxt]), i + 2
        return value, i + 1
    return 0, i


def _spoken_group(words: list[str]) -> str:
    """Digits of a run of number words as a PIN is read out: "four seven one one" -> 4711,
    "nineteen eighty-four" -> 1984, "double zero" -> 00, "twenty one" -> 21, "seven hundred
    and twelve" -> 712, "two thousand and nine" -> 2009."""
    out: list[str] = []
    repeat, i = 1, 0
    while i < len(words):
        word = words[i].lower()
        if word in _SCALES:
            head = int(out.pop()) if out and len(out[-1]) <= 2 else 1
            value = head * _SCALES[word]
            if word == "thousand" and i + 2 < len(words) and words[i + 2].lower() == "hundred":
                hundreds, _ = _below_hundred(words, i + 1)
                value += hundreds * 100
                i += 2
            tail, after = _below_hundred(words, i + 1)
            out.append(str(value + tail))
            i = after
            continue
        if word in ("double", "triple"):
            repeat = 2 if word == "double" else 3
        elif word in _DIGIT_WORDS:
            out.append(_DIGIT_WORDS[word] * repeat)
            repeat = 1
        else:
            value = _TEENS_TENS[word]
            nxt = words[i + 1].lower() if i + 1 < len(words) else ""
            if (
                value >= 20
                and value % 10 == 0
                and nxt in _DIGIT_WORDS
                and nxt not in ("oh", "o", "zero", "nought")
            ):
                value += int(_DIGIT_WORDS[nxt])
                i += 1
            out.append(str(value) * repeat)
            repeat = 1
        i += 1
    return "".join(out)


def spell_out_digits(text: str) -> tuple[str, list[int]]:
    """``text`` with runs of two or more number words (joined by spaces, hyphens or commas)
    written as digits, and for each character of the result the index of the character it came
    from, so findings point into the original text."""
    out: list[str] = []
    where: list[int] = []
    pos = 0
    words = list(_NUMBER_WORD.finditer(text))
    i = 0
    while i < len(words):
        j = i
        while j + 1 < len(words) and re.fullmatch(
            r"[\s,\-]{1,3}(?:and\s{1,3})?"
            if words[j].group(0).lower() in _SCALES
            else r"[\s,\-]{1,3}",
            text[words[j].end() : words[j + 1].start()],
        ):
            j += 1
        run = words[i : j + 1]
        said = [m.group(0) for m in run]
        if len(run) >= 2 and not all(
            w.lower() in ("o", "oh", "double", "triple", *_SCALES) for w in said
        ):
            digits = _spoken_group(said)
            start, end = run[0].start(), run[-1].end()
            out.append(text[pos:start])
            where.extend(range(pos, start))
            out.append(digits)
            where.extend(
                range(start, start + len(digits))
                if start + len(digits) <= end
                else [min(start + k, end - 1) for k in range(len(digits))]
            )
            pos = end
        i = j + 1
    out.append(text[pos:])
    where.extend(range(pos, len(text)))
    return "".join(out), where


# --- detectors beyond single patterns ---------------------------------------------------------

_SENTENCE = re.compile(r"(?:[^.!?;\n。！；]|[.!?](?=[^\s.!?]))+")
"""A sentence: up to a full stop, ! or ? followed by a space or the end (not inside "21.5" or a
password such as "Tr!cky"), a semicolon, or a line break."""
_CODE_CONTEXT = re.compile(
    r"\b(?:code|codes|pin|pins|passcode|passkey|combination|combo|keypad|key\s?pad|lockbox|key\s?safe|"
    r"padlock|safe|disarm|arm|unlock|setup\s+code|pairing\s+code|entry|intercom|lock|locks|door\s+code|"
    r"gate|alarm|puk|sim|garage|door|doors|shed|locker|key\s?box)\b",
    _I,
)
_DIGIT_GROUP = re.compile(
    r"(?<![\w.,:/])[#*]?\d(?:(?:[ \-,]{0,2}|,?\s(?:and\s)?then\s)\d){2,15}[#*]?"
    r"(?![\d%°]|[.,:]\d)"
)
"""Three or more digits, maybe grouped or keyed one by one ("2 4 6 8", "1 then 3 then 5")."""
_MEASURE_AFTER = re.compile(
    r"\s?(?:%|°|(?:percent|degrees?|deg|c|f|k|kelvin|lux|lm|w|watts?|kw|kwh|v|volts?|"
    r"db|rpm|ppm|min|mins|minutes?|hours?|hrs?|h|seconds?|secs?|s|ms|am|pm|days?|weeks?|"
    r"months?|years?|times|x|mm|cm|m|km|km/h|mph|bar|psi|ml|l|litres?|liters?|gallons?|"
    r"amps?|a|square|sq|inch|inches|ft|feet|fm|hz|ghz|mhz|euros?|dollars?)\b)",
    _I,
)
_TIME_BEFORE = re.compile(
    r"(?:\b(?:at|from|until|till|to|by|around|after|before|between|since|in|on|the|"
    r"model|room|apartment|floor|channel|program|programme|number|no|version|v|level|"
    r"setting|speed|mode|zone|port|input|hdmi|band|step)\s*)$",
    _I,
)


_CODE_BEFORE = re.compile(
    r"\b(?:set|changed)\s+(?:to|at)\s*$|"
    r"(?:code|pin|combination|combo|passcode|pattern|sequence)(?:\s+(?:number|no\.?|#))?"
    r"\s*(?:is|was|:|=)?\s*$|(?:\bis|:|=)\s*$",
    _I,
)
"""What makes a number after "number", "the", "on" ... a code all the same: a credential noun
("pin number 4821", "unlock pattern number 1-5-9-8") or "is"/":" right before it."""


_PRODUCT_BEFORE = re.compile(
    r"\b(?:serial|model|part|product|firmware|version|sku|batch|lot|article|item|"
    r"type|error|fault)(?:\s+(?:number|no\.?|#|code))?\s*(?:is|was|[:=])?\s*$",
    _I,
)
"""A number right after "serial", "model", "part" ...: it names a product, not a person's
phone or a lock's code."""
_PRODUCT_CONTEXT = re.compile(
    r"\b(?:model|part|product|order|ordering|replacement|spare\s+part|sku|firmware|"
    r"version|serial|warranty|error|fault|manual)\b",
    _I,
)
_PRODUCT_QUALIFIER = re.compile(
    r"\b(?:part|model|product|error|fault|order|item|article|sku|colou?r|country|"
    r"region|area|zip|post|bar|qr|paint)\s+$",
    _I,
)
"""A "code" that names a product, an error or a place, whatever the sentence is about."""
_ACCESS_CONTEXT = re.compile(
    r"\b(?:door|lock|alarm|gate|wi-?fi|password|pin|unlock|disarm|login|log\s+in|account|"
    r"safe|garage|keypad|entry|access|network|router|admin|app)\b",
    _I,
)


def _model_name_before(sentence: str, start: int) -> bool:
    """A number straight after a capitalised name inside the sentence ("a BFT Deimos 600",
    "the Nice Robus 600"): a product's model, unless the name is a code word ("Door 4821")."""
    m = re.search(r"(?<=\s)([A-Z][A-Za-z0-9\-]{1,})\s$", sentence[max(0, start - 40) : start])
    return (
        m is not None
        and not _CODE_CONTEXT.search(m.group(1))
        and not _CREDENTIAL_WORD.search(m.group(1))
    )


_COUNT_WORD = re.compile(r"\bcount(?:s|ing)?\s?down\b|\bcountdown\b", _I)
"""A countdown read out ("5-4-3-2-1"), in a sentence that says it counts down."""


def _countdown(digits: str) -> bool:
    """Digits counting down by one to 1 or 0 ("54321", "3210")."""
    return (
        len(digits) >= 3
        and digits[-1] in "01"
        and all(int(x) - int(y) == 1 for x, y in pairwise(digits))
    )


def _codes(sentence: str, before: str = "") -> list[tuple[int, int]]:
    """Digit groups of three or more digits in a sentence about codes, PINs, locks, alarms or
    gates (said in it or in the sentence ``before`` it), that are no measurement, clock time or
    model, room or channel number."""
    if not (_CODE_CONTEXT.search(sentence) or _CODE_CONTEXT.search(before)):
        return []
    found = []
    for m in _DIGIT_GROUP.finditer(sentence):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) < 3 or _MEASURE_AFTER.match(sentence, m.end()):
            continue
        if re.fullmatch(
            r"(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])", m.group(0)
        ) and not re.search(r"\b(?:born|birth|birthday|dob)\b", sentence, _I):
            continue  # an ISO date: "changed 2026-06-20"
        keyed = re.fullmatch(r"\d(?:(?: | ?- ?)\d)+", m.group(0))  # "0 4 1 7": read out one by one
        if not keyed and (
            _model_name_before(sentence, m.start())
            or _PRODUCT_BEFORE.search(sentence[max(0, m.start() - 30) : m.start()])
        ):
            continue
        if not keyed and accounts_for(sentence, m.start(), m.end()):
            continue  # a count, a resolution, a model the access grammar places: "the last 100 events"
        if keyed and _countdown(digits) and _COUNT_WORD.search(sentence):
            continue  # "5-4-3-2-1 is how I count down"
        if (
            not keyed
            and _TIME_BEFORE.search(sentence[max(0, m.start() - 12) : m.start()])
            and not _CODE_BEFORE.search(sentence[max(0, m.start() - 30) : m.start()])
        ):
            continue
        found.append((m.start(), m.end()))
    return found


_TURN = (
    r"(?:(?:\b(?:left|right|cw|ccw|clockwise|(?:counter|anti)[\s\-]?clockwise)|\b[lr])\s*(?:to\s+)?\d{1,3}"
    r"(?!\d)|(?<!\d)\d{1,3}\s*(?:(?:degrees?|°|notches|clicks|marks?)\s*)?(?:to\s+the\s+)?(?:left|right|cw|ccw|clockwise|(?:counter|anti)[\s\-]?clockwise|[lr])\b)"
)
_DIAL = re.compile(rf"{_TURN}(?:\s*(?:[,;]\s*|\s(?:and\s)?then\s|\s)\s*{_TURN}){{1,5}}", _I)
"""A dial combination written as turns: "left 24, right 11, left 38", "27 L 14 R 3 L"."""
_DIAL_CONTEXT = re.compile(
    r"\b(?:safe|combination|combo|dial|lock|padlock|vault|code|strongbox)\b", _I
)


_CLOCK_POSITIONS = re.compile(
    r"(?<!\d)\d{1,2}\s?o['’]?clock(?:(?:\s*[,;]\s*|\s+)(?:(?:and\s+)?then\s+)?(?:(?:back|"
    r"round|again)\s+)?(?:to\s+)?\d{1,2}\s?o['’]?clock){2,}",
    _I,
)
"""Three or more clock positions in a row ("2 o'clock, 11 o'clock, 7 o'clock"): turns of a dial."""


def _dial_turns(sentence: str) -> list[tuple[int, int]]:
    """Two or more turns of a dial (or three clock positions), in a sentence about a safe,
    lock or combination."""
    if not _DIAL_CONTEXT.search(sentence):
        return []
    return [m.span() for m in _DIAL.finditer(sentence)] + [
        m.span() for m in _CLOCK_POSITIONS.finditer(sentence)
    ]


_CREDENTIAL_WORD = re.compile(
    r"\b(?:password|passwords|passphrase|pass|pw|pwd|passkey|key|secret|token|"
    r"login|credentials?|code|codes|voucher|serial|"
    r"(?-i:[a-z]+(?:Secret|Password|Passwd|Passphrase|Token|Key|Pin|Code)s?))\b",
    _I,
)
_CREDENTIAL_VALUE = re.compile(r"[\"'“‘]?(?P<v>[^\s\"'”’,;]{4,64})")


_PASSWORD_MANAGERS = frozenset(
    {
        "1password",
        "bitwarden",
        "lastpass",
        "keepass",
        "keepassxc",
        "dashlane",
        "keeper",
        "protonpass",
        "enpass",
        "nordpass",
    }
)
"""Password managers, where a code is kept: named after a credential word, no password."""


def _credentials(sentence: str) -> list[tuple[int, int]]:
    """A token right after a credential word (within a few words, after "is", ":" or "with")
    that mixes letters with digits or symbols, or is a long hex string: a password or key."""
    found = []
    product = bool(_PRODUCT_CONTEXT.search(sentence)) and not _ACCESS_CONTEXT.search(sentence)
    for word in _CREDENTIAL_WORD.finditer(sentence):
        if word.group(0).lower() == "key" and re.match(
            r"\s?(?:box|safe|pad|fob|ring|chain|holder|cabinet|switch)", sentence[word.end() :], _I
        ):
            continue  # "the key box is a Master Lock 5401D": a product, no key
        if word.group(0).lower() in ("code", "codes", "serial", "key") and (
            product or _PRODUCT_QUALIFIER.search(sentence[max(0, word.start() - 20) : word.start()])
        ):
            continue  # "the thermostat code on the side is TH8320 for ordering", "the part code"
        if (
            sentence[max(0, word.start() - 1) : word.start()] == "1"
            and word.group(0).lower() == "password"
        ):
            continue  # "1Password", the password manager: where the codes are, not a code
        window = sentence[word.end() : word.end() + 48]
        for m in _CREDENTIAL_VALUE.finditer(window):
            value = m.group("v").rstrip(".!?)")
            letters = any(ch.isalpha() for ch in value)
            other = any(ch.isdigit() or not ch.isalnum() for ch in value)
            if (
                (
                    letters
                    and other
                    and len(value) >= 5
                    and not value.lower().startswith(("http", "www."))
                )
                or re.fullmatch(r"[0-9a-fA-F]{12,}", value)
            ) and value.lower() not in _PASSWORD_MANAGERS:
                start = word.end() + m.start("v")
                found.append((start, start + len(value)))
                break
    return found


_URL = re.compile(r"\b(?:https?|rtsp|rtmp|mqtts?|wss?)://[^\s<>\"']{4,2000}", _I)
_URL_SECRET = re.compile(
    r"(?:[?&](?:key|api_?key|token|access_token|secret|sig|signature|auth|appid|code|"
    r"password|pass)=)|/(?:api/)?webhooks?/|/hooks/|/trigger/|/catch/|/services/T|"
    r"/g/|//[^/@\s]{1,64}:[^/@\s]{1,64}@|/ical/|/private-",
    _I,
)


def _secret_urls(text: str) -> list[tuple[int, int]]:
    """URLs that carry a credential: a webhook or trigger path, a key or token parameter, a
    user:password part, or a path segment that looks generated."""
    found = []
    for m in _URL.finditer(text):
        url = m.group(0).rstrip(".,;)")
        segments = re.split(r"[/?&=:#@.]", url)
        if _URL_SECRET.search(url) or any(
            looks_random(seg)
            or (len(seg) >= 12 and re.search(r"\d", seg) and re.search(r"[A-Za-z]", seg))
            for seg in segments
        ):
            found.append((m.start(), m.start() + len(url)))
    return found


_CVV = re.compile(
    r"\b(?:cvv2?|cvc2?|cid|card\s+verification(?:\s+value|\s+code)?|security\s+code|"
    r"three\s+digits\s+on\s+the\s+back)\b[^\d\n]{0,60}(?P<v>\d(?:\s?\d){2,3})(?!\d)",
    _I,
)
_KEY_PLACE = re.compile(
    r"(?:🔑|🗝)\ufe0f?[^.!?\n]{0,20}?\b(?:under|underneath|beneath|behind|on\s+top\s+of|taped|hidden|in)\b|"
    r"\b(?:vara-?a?vain|varavaimet|cl[ée]f?s?\s+de\s+(?:secours|rechange|r[ée]serve)|double\s+des\s+cl[ée]s|llaves?\s+de\s+(?:repuesto|"
    r"reserva|emergencia)|ersatzschl[üu]ssel|zweitschl[üu]ssel|chiavi?\s+di\s+(?:riserva|scorta)|reservesleutel|"
    r"chave\s+(?:reserva|suplente)|reservnyckel|reservenøgle|reservenøkkel|zapasowy\s+klucz|запасной\s+ключ)\b"
    r"[^.!?\n]{0,60}?\b(?:sous|dans|derri[èe]re|dentro|debajo|detr[áa]s|en|unter|im|in|hinter|sotto|dietro|nel|"
    r"nella|onder|achter|embaixo|atrás|under|bakom|bag|pod|w|за|под|в|alla|sisällä|takana|ligger|ligg)\b|"
    r"\b(?:n[øo]glen|n[øo]kkelen|nyckeln)\b[^.!?\n]{0,40}?\b(?:ligger|ligg|hænger|henger|hänger|gemt|gjemt|gömd)\b|"
    r"\b(?:(?:spare|backup|hidden|extra|emergency|house|door|back\s?door|front\s?door|garage|shed|gate|car)\s+"
    r"(?:keys?|fobs?|key\s?cards?|key\s?fobs?|tags?|remotes?|openers?|transponders?)\b"
    r"[^.!?\n]{0,60}?\b(?:under|underneath|inside|behind|beneath|in(?=\s+[\w\"'‘“])|on\s+top\s+of|hidden|taped|"
    r"stashed|tucked)\b|"
    r"(?:keys?|fobs?)\b(?!\s*(?:pad|code|light|board|fob|card|word|frame|ring|chain|hole|note|signature|safe|box|"
    r"cabinet|switch|press|holder|rack|hook|tag)s?\b)[^.!?\n]{0,50}?\b(?:under|underneath|beneath|behind|"
    r"on\s+top\s+of|taped|hidden|hides|stashed|tucked|buried|inside)\b|"
    # the place first: "the bird box is where the spare shed key is", "sits on top of the spare key"
    r"\bwhere\s+(?:the|our|my|a)\s+(?:spare|backup|hidden|extra|emergency)\s+(?:[\w\-]+\s+){0,2}"
    r"(?:keys?|fobs?)\s+(?:is|are|lives?|goes|stays?|hangs?|sits?|hides?|gets\s+(?:kept|hidden|left))\b|"
    r"\b(?:on\s+top\s+of|covers?|covering|hides|hiding|over)\s+(?:the|our|my|a)\s+(?:spare|backup|hidden|"
    r"extra|emergency)\s+(?:[\w\-]+\s+){0,2}(?:keys?|fobs?)\b)",
    _I,
)
"""Where a physical key is kept: a spare, house or shed key with a place, or any key hidden,
taped or under, behind or on top of something."""


def _short_lines_joined(text: str) -> str:
    """``text`` with a line break between two lines of one or two words each read as a space (the
    same length, so spans still point into ``text``): a sentence written a word per line, down a
    margin or on a narrow pad, is still one sentence."""
    if text.count("\n") < 3:
        return text
    lines = text.split("\n")
    short = [0 < len(line.split()) <= 2 for line in lines]
    return "".join(
        line + ("" if i == len(lines) - 1 else " " if short[i] and short[i + 1] else "\n")
        for i, line in enumerate(lines)
    )


_UK_PLATE = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}\s?[A-Z]{3}(?![A-Za-z0-9])")
"""A British number plate since 2001 ("AB12 CDE"): two letters, two digits, three letters."""
_VIN = re.compile(r"(?<![A-Za-z0-9])[A-HJ-NPR-Z0-9]{17}(?![A-Za-z0-9])")
_PLATE = re.compile(
    r"\b(?:licen[cs]e\s+plate|number\s+plate|registration|registered|plate|plate\s+number|reg|"
    r"rego|tags?)\b[^\n]{0,20}?"
    r"(?P<v>[A-Z0-9]{2,4}[ \-]?[A-Z0-9]{2,4})\b",
    _I,
)


def _vin_ok(value: str) -> bool:
    return (
        bool(re.search(r"\d", value)) and bool(re.search(r"[A-Z]", value)) and len(set(value)) > 6
    )


_VENDOR_PLUGINS: list[Any] | None = None
_KEY_TOKEN = re.compile(r"(?<!\S)\S{8,512}(?!\S)")


def _vendor_tokens(text: str) -> list[tuple[int, int]]:
    """Keys and tokens in the formats detect-secrets knows (AWS, Slack, GitHub, Stripe, Twilio,
    SendGrid, npm, PyPI, Discord, Telegram, JWTs, private keys, basic-auth URLs, public IPs, ...):
    its regex plugins, without its high-entropy and keyword plugins, which are made for code."""
    global _VENDOR_PLUGINS
    if _VENDOR_PLUGINS is None:
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

        skip = {"Base64HighEntropyString", "HexHighEntropyString", "KeywordDetector"}
        classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
        _VENDOR_PLUGINS = [c() for c in classes if c.__name__ not in skip]
    found = []
    # one token at a time (a key has no spaces): the plugins' patterns were written for lines of
    # code and are slow on long runs, so only tokens that could be a key are looked at
    for token in _KEY_TOKEN.finditer(text):
        value = token.group(0)
        if not (re.search(r"\d", value) and re.search(r"[A-Za-z]", value)) and "://" not in value:
            continue
        for plugin in _VENDOR_PLUGINS:
            for secret in plugin.analyze_string(value):
                start = value.find(secret)
                if start >= 0:
                    found.append((token.start() + start, token.start() + start + len(secret)))
    return found


_PHONE_WORD = re.compile(rf"\b(?:{_PHONE_WORDS})\b", _I)
_PHONE_REGIONS = (
    "US",
    "GB",
    "DE",
    "FR",
    "NL",
    "IT",
    "ES",
    "AU",
    "CA",
    "IE",
    "CH",
    "AT",
    "BE",
    "PT",
    "SE",
)


_PHONE_CANDIDATE = re.compile(r"(?<![\w+])\+?\(?\d[\d ().\-/]{5,22}\d(?![\d])")
"""Runs that could be a phone number (7 to 24 characters of digits and separators), bounded by
non-digits: the library is asked about these only, so a long digit run costs one look."""


def _phone_numbers(text: str) -> list[tuple[int, int]]:
    """Phone numbers as Google's libphonenumber reads them: a candidate run that is a valid
    number internationally or in a common region (7+ digits; no date, IP or card)."""
    import phonenumbers

    found = []
    for n, m in enumerate(_PHONE_CANDIDATE.finditer(text)):
        if n == 24:  # a memory holds a few numbers, not thousands: the patterns judge the rest
            break
        raw = m.group(0)
        digits = sum(ch.isdigit() for ch in raw)
        if digits < 7 or (
            digits < 9 and not _PHONE_WORD.search(text[max(0, m.start() - 40) : m.start()])
        ):
            continue  # a short run is a local number only where a phone word says so
        if re.fullmatch(r"[\d.]+", raw) or re.fullmatch(
            r"\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4}|\d{4}[/.\-]\d{1,2}[/.\-]\d{1,2}", raw
        ):
            continue  # an IP address or a date
        if re.match(r"(?:19|20)\d{2}-\d{2}-\d{2}(?:\s|$)", raw):
            continue  # a log's date and time ("2026-11-27 22:31")
        if re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}(?:/\d{1,2})?", raw.split()[0]):
            continue  # a network and its prefix ("172.16.8.0/22")
        if re.search(
            r"\b(?:firmware|version|build|release|v\d)",
            text[max(0, m.start() - 30) : m.start()],
            _I,
        ) and re.search(r"\d\.\d", raw):
            continue  # a version and its build ("firmware v4.8.0 (20261004)")
        if _PRODUCT_BEFORE.search(text[max(0, m.start() - 30) : m.start()]):
            continue  # "the boiler serial is 4729-118-2204"
        for region in (None,) if raw.startswith("+") else _PHONE_REGIONS:
            try:
                number = phonenumbers.parse(raw, region)
            except phonenumbers.NumberParseException:
                continue
            if phonenumbers.is_valid_number(number):
                found.append((m.start(), m.end()))
                break
    return found


def _extra(text: str) -> list[Finding]:
    """Findings of the detectors that are functions, not single patterns."""
    phones = _phone_numbers(text)
    out: list[Finding] = [Finding(a, b, "phone_number") for a, b in phones]
    before = ""
    for sentence in _SENTENCE.finditer(text):
        base = sentence.start()
        out += [
            Finding(base + a, base + b, "access_code")
            for a, b in _codes(sentence.group(0), before)
            if not any(p < base + b and base + a < q for p, q in phones)
        ]  # a phone number is one
        out += [Finding(base + a, base + b, "password") for a, b in _credentials(sentence.group(0))]
        out += [
            Finding(base + a, base + b, "access_code") for a, b in _dial_turns(sentence.group(0))
        ]
        before = sentence.group(0)[-200:]
    out += [Finding(a, b, "token") for a, b in _secret_urls(text)]
    out += [Finding(m.start("v"), m.end("v"), "card_security_code") for m in _CVV.finditer(text)]
    out += [
        Finding(m.start(), m.end(), "key_location")
        for m in _KEY_PLACE.finditer(_short_lines_joined(text))
    ]
    out += [
        Finding(m.start(), m.end(), "vehicle_id")
        for m in _VIN.finditer(text)
        if _vin_ok(m.group(0))
    ]
    out += [Finding(m.start(), m.end(), "vehicle_id") for m in _UK_PLATE.finditer(text)]
    out += [
        Finding(m.start("v"), m.end("v"), "vehicle_id")
        for m in _PLATE.finditer(text)
        if re.search(r"\d", m.group("v")) and re.search(r"[A-Za-z]", m.group("v"))
    ]
    out += [Finding(a, b, "token") for a, b in _vendor_tokens(text)]
    return out


_SAID_VALUE_KINDS = frozenset({"password", "security_answer"})
_CLAUSE_AFTER = re.compile(r"[.!?;\n](?:\s|$)|\s[/·|]\s")


def _said_no_value(text: str, start: int) -> bool:
    """What a password or answer rule took for the value starts a phrase the value grammar
    (:func:`.disclosure.non_value`) reads as none: "Password: scan the QR", "is rotated every
    quarter", "is six digits". A word it does not know stays a value."""
    stop = min(len(text), start + 200)
    end = _CLAUSE_AFTER.search(text, start, stop)
    return non_value(text[start : end.start() if end else stop], strict=True, defer_digits=False)


def _pattern_findings(text: str) -> set[Finding]:
    found: set[Finding] = set()
    for rule in _RULES:
        for m in rule.pattern.finditer(text):
            group = "v" if "v" in rule.pattern.groupindex else 0
            if (
                group == "v"
                and rule.kind in _SAID_VALUE_KINDS
                and _said_no_value(text, m.start(group))
            ):
                continue
            if rule.valid is None or rule.valid(m.group(group)):
                found.add(Finding(m.start(group), m.end(group), rule.kind))
    if _COUNT_WORD.search(text):  # "5-4-3-2-1 is how I count down": a countdown is no code
        found = {
            f
            for f in found
            if not (
                f.kind == "access_code"
                and _countdown(re.sub(r"\D", "", text[f.start : f.end]))
                and re.fullmatch(r"\d(?:(?: | ?- ?)\d)+", text[f.start : f.end])
            )
        }
    return found | set(_extra(text))


def find_sensitive(text: str) -> list[Finding]:
    """Every secret or personal identifier in ``text``: kind and span, sorted by position.

    Credential words of other languages or mistyped ("Passwort", "pasword") are read as the
    English word and numbers said in words ("four seven one one") as digits, and the detectors
    run again on that reading; a finding in it points at the original words. A span may be
    reported under two kinds (an 18-digit resident ID is also a long number); callers that only need a yes/no look at whether the list is empty."""
    found = _pattern_findings(text)
    english, first = english_credential_words(text)
    spelled, second = spell_out_digits(english)
    if spelled != text:
        _add_reading(found, spelled, [first[i] for i in second])
    # numbers read out in the other languages the filter reads (and Chinese numerals), as digits
    # (an ID's lone letters read with its digits, then without: "... acht I think" is a phone)
    parts = digit_parts(english)
    for letters in (True, False):
        runs = spoken_digit_runs(english, letters, parts)
        if not runs:
            break
        read, third = _replace(english, runs, spread=True)
        _add_reading(found, read, [first[i] for i in third])
        if letters:
            # letters and five or more digits read out as one run: an ID or a passport number,
            # whatever the words around it (no device setting is read out letter by letter)
            found |= {
                Finding(first[a], first[b - 1] + 1, "id_number")
                for a, b, said in runs
                if _SPELLED_ID.fullmatch(said)
            }
    # the fail-closed rule of memories about getting in (.access), where no detector above
    # already named the span (a phone number for the doorbell stays a phone number)
    named = _Spans(found)
    found |= {
        Finding(a, b, kind)
        for a, b, kind in access_findings(text, english)
        if not kind.startswith("access_") or not named.overlaps(a, b)
    }
    # a value given to what opens or identifies, in any wording (.disclosure): fails closed
    named = _Spans(found)
    found |= {Finding(a, b, kind) for a, b, kind in disclosures(text) if not named.overlaps(a, b)}
    return sorted(found)


def _add_reading(found: set[Finding], read: str, where: list[int]) -> None:
    """Add to ``found`` what the detectors find in another reading of the text (``where``: for
    each of its characters, the original one it stands for), pointing at the original words."""
    for f in _pattern_findings(read) - found:
        start, end = where[f.start], where[max(f.start, f.end - 1)] + 1
        found.add(Finding(start, max(end, start + 1), f.kind))


_SPELLED_ID = re.compile(r"(?=(?:\D*\d){5})(?=.*[A-Z])[0-9A-Z]{6,40}")
"""A run read out with letters and at least five digits ("fünfundsechzig, J, null null drei")."""


class _Spans:
    """The findings' spans merged into disjoint intervals, asked whether a span overlaps one in
    log time (a memory of thousands of numbers has thousands of findings: asked one by one
    against each, quadratic)."""

    def __init__(self, findings: set[Finding]) -> None:
        merged: list[list[int]] = []
        for f in sorted(findings):
            if merged and f.start < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], f.end)
            else:
                merged.append([f.start, f.end])
        self.starts = [m[0] for m in merged]
        self.ends = [m[1] for m in merged]

    def overlaps(self, a: int, b: int) -> bool:
        i = bisect_left(self.starts, b) - 1  # the last interval starting before b
        return i >= 0 and self.ends[i] > a


def sensitive_kinds(text: str) -> list[str]:
    """The distinct kinds found in ``text``, in order of first appearance: what a refusal may
    name without quoting the data."""
    return list(dict.fromkeys(f.kind for f in find_sensitive(text)))


def redact(text: str, mask: str = "[REDACTED:{kind}]") -> str:
    """``text`` with every finding replaced by ``mask`` (overlapping spans merged into one,
    named after the first), for logs that must not keep the data."""
    spans: list[list[Any]] = []
    for f in find_sensitive(text):
        if spans and f.start < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], f.end)
        else:
            spans.append([f.start, f.end, f.kind])
    out: list[str] = []
    pos = 0
    for start, end, kind in spans:
        out.append(text[pos:start])
        out.append(mask.format(kind=kind))
        pos = end
    out.append(text[pos:])
    return "".join(out)
