"""Secrets and personal identifiers in free text, for the memory bank's write guard.

Why: the memory bank keeps what it is given for as long as the user's profile lives, and its
entries are pasted back into later prompts. A user, or text injected through a tool result,
may say "remember my lock code is 4821" or "my number is (555) 123-4567"; MemHome's rule is
that the memory holds device preferences only, so such a write must be refused whatever the
model decided. :func:`find_sensitive` says what kind of sensitive data a text holds and
where, never the data itself, so a refusal can name the rule without echoing the secret.

How: the Python standard library only (no PyPI dependency that fits: ``phonenumbers`` rejects
the fictional 555 numbers users and tests write, and neither it nor ``python-stdnum`` finds
passwords or API keys). Each detector is a regular expression plus, where a format alone
would catch ordinary numbers, a validator: Luhn for card numbers, ISO 13616 mod-97 and the
country's length for IBANs, ISO 7064 for the Chinese resident ID, an entropy test for bare
tokens. Context words ("PIN", "passport", "card number") let unvalidated numbers through
only next to them.

Every pattern is linear-time on hostile input (it is run on whatever a model or a user sends):
no quantified group whose body can match the same text in two ways, every unbounded run is
preceded by a look-behind on its own character class (so a match can only start at the run's
first character, not at each of its characters), and windows and look-aheads are bounded.
``tests/test_memory_sensitive.py`` checks this on 100,000-character inputs.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Category = Literal["secret", "identifier"]

SECRET_KINDS = frozenset({"api_key", "token", "private_key", "password", "access_code",
                          "security_answer"})
"""Credentials: whoever reads them can act as the user (log in, unlock, disarm)."""

IDENTIFIER_KINDS = frozenset({"phone_number", "email_address", "ssn", "iban", "card_number",
                              "account_number", "street_address", "postal_code", "national_id",
                              "id_number", "date_of_birth", "username", "long_number"})
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


_IBAN_LENGTHS = {cc: int(n) for cc, n in re.findall(r"([A-Z]{2})(\d{2})", (
    "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 "
    "DE22 DJ27 DK18 DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 "
    "GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 "
    "LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 "
    "PS29 PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 "
    "TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30"))}
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
    return any(iban_ok("".join(chunks[:n])) for n in range(len(chunks), max(len(chunks) - 3, 0), -1))


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


def _ssn_ok(value: str) -> bool:
    """US SSN: never area 000 or 666, group 00 or serial 0000 (area 9xx is an ITIN, also
    personal)."""
    digits = re.sub(r"\D", "", value)
    return (len(digits) == 9 and digits[:3] not in ("000", "666") and digits[3:5] != "00"
            and digits[5:] != "0000")


# --- patterns ---------------------------------------------------------------------------------

_I = re.IGNORECASE
_WINDOW = r"(?:[^.!;\n。！；]|\.(?!\s{0,3}(?:[A-Z][a-z]|$))){0,%d}?"
"""A short stretch within one sentence: "?" may sit inside ("PIN? It's 8207"), and so may a dot
that ends no sentence ("passport no. X123", "21.5")."""
_NOT_UNIT = (r"(?!\s?(?:%|°|percent|degrees?|deg\b|c\b|f\b|k\b|kelvin|lux|lm|w\b|watts?|v\b|"
             r"volts?|db\b|rpm|minutes?|mins?\b|hours?|hrs?\b|seconds?|secs?\b|ms\b|am\b|pm\b|"
             r"days?|times|x\b))")
"""A number followed by a unit is a setting, not a code."""

_PASSWORD_WORDS = (r"pass(?:word|wd|code|phrase|key)s?|pass[ \-](?:code|phrase|word)s?|pwd|"
                   r"wi-?fi\s+key|network\s+key|wpa2?\s+key|security\s+key|secret\s+(?:key|word|"
                   r"phrase)|client\s+secret|api[ _\-]?key|access\s+key|(?:access|auth|"
                   r"authentication|bearer|refresh|api|bot)\s+token|recovery\s+code|backup\s+"
                   r"code|one[ \-]time\s+code|otp|2fa\s+code|verification\s+code")
_STRONG_COPULA = r"(?:\b(?:is|was|are|it's|it’s|it\s+is|is\s+now|equals)\b|[=:：]|是|为)"
_CODE_DEVICE = (r"lock|alarm|door|front\s+door|back\s+door|gate|safe|garage(?:\s+door)?|keypad|"
                r"entry|access|security|unlock|disarm|arming|master|building|lock\s?box|key\s?box|"
                r"intercom|padlock|vault|smart\s+lock|deadbolt|apartment|elevator|mailbox")
_CODE_VALUE = (r"(?P<v>(?<!\d)(?:\d{3,12}(?:[ \-]\d{1,6}){0,5}|\d{1,2}(?:[ \-]\d{1,6}){1,5}))"
               r"(?![\d%°])" + _NOT_UNIT)
"""A code's digits, maybe grouped ("4821", "12-34-56", "2 4 6 8"): three or more in a row, or
groups (never a lone "2", so "the code for door 2 is 4821" reaches the code)."""
_ID_WORDS = (r"passport|driver'?s?\s+licen[cs]e|driving\s+licen[cs]e|licen[cs]e\s+(?:number|no)|"
             r"national\s+(?:id|identity|insurance)|(?<!device\s)(?<!device's\s)\bid\s+(?:card|"
             r"number|no)|identity\s+(?:card|number)|tax\s+(?:id|number|file\s+number|code)|"
             r"nhs\s+number|medicare|health\s+(?:card|insurance)|aadhaar|pan\s+card|residence\s+"
             r"permit|green\s+card|voter\s+id|student\s+id|employee\s+id|member(?:ship)?\s+"
             r"(?:number|id)|policy\s+number|insurance\s+number|身份证|护照|社保|驾照|驾驶证")
_ACCOUNT_WORDS = (r"account\s+(?:number|no)|acct|routing\s+number|sort\s+code|bank\s+account|"
                  r"swift|bic|账号|账户")
_CARD_WORDS = r"card\s+(?:number|no)|credit\s+card|debit\s+card|bank\s+card|visa|mastercard|amex|银行卡|卡号"
_PHONE_WORDS = (r"phone|mobile|cell|cellphone|tel|telephone|landline|fax|whatsapp|number|call|"
                r"ring|text|reach\s+me|contact|dial")
_STREET = (r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|"
           r"Terrace|Way|Close|Crescent|Cres|Parkway|Pkwy|Highway|Hwy|Square|Sq|Circle|Cir|Trail|"
           r"Mews|Gardens|Grove|Alley|Plaza|Strasse|Straße|Weg|Platz|Gasse")
_STREET_FIRST = r"rue|avenue|boulevard|bd|chemin|allée|impasse|calle|avenida|rua|piazza|viale"
"""Street words written before the name ("12 rue des Lilas", "8 Calle Mayor")."""
_STOPWORDS = (r"the|a|an|on|in|at|to|of|for|and|or|my|our|your|by|with|from|off|up|down|is|are|"
              r"minutes?|mins?|hours?|seconds?|degrees?|percent|pm|am|times?|days?|lights?|lamps?")
_US_STATES = ("AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|"
              "NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY")
_MONTHS = r"jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec"


_CODE_DIGITS = _digits_between(3, 16)
_CODE_COPULA = r"(?:\b(?:is|was|is\s+now|changed\s+to|set\s+to)\b|[=:：]|['’]s\b)"


@dataclass(frozen=True)
class _Rule:
    kind: str
    pattern: re.Pattern[str]
    valid: Callable[[str], bool] | None = None


def _rule(kind: str, pattern: str, flags: int = 0, valid: Callable[[str], bool] | None = None) -> _Rule:
    return _Rule(kind, re.compile(pattern, flags), valid)


_RULES: tuple[_Rule, ...] = (
    # API keys by their vendor prefix; the look-behind is the token class itself.
    _rule("api_key", r"(?<![A-Za-z0-9_\-])(?:sk-[A-Za-z0-9_\-]{16,}|(?:sk|rk|pk)_(?:live|test)_"
          r"[A-Za-z0-9]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-"
          r"[A-Za-z0-9_\-]{20,}|xox[abposr]-[A-Za-z0-9\-]{10,}|AIza[A-Za-z0-9_\-]{30,}|hf_"
          r"[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{30,}|shp(?:at|ss|ca)_[A-Fa-f0-9]{20,}|"
          r"SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}|(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9]))"),
    _rule("token", r"(?<![A-Za-z0-9_\-.])eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\."
          r"[A-Za-z0-9_\-]{8,}"),  # JWT (Home Assistant long-lived tokens are JWTs)
    _rule("token", r"(?<![A-Za-z0-9\-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
          r"[0-9a-f]{12}(?![A-Za-z0-9\-])", _I),  # UUID-shaped keys
    _rule("token", r"\bbearer\s+(?P<v>[A-Za-z0-9_\-.+/=]{16,})", _I),
    _rule("token", r"(?<![A-Za-z0-9_\-+/=])[A-Za-z0-9_\-+/=]{20,}", valid=looks_random),
    _rule("private_key", r"-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----"),
    # Passwords: a password word, then "is"/":"/"=" and any value, or a value with a digit
    # straight after it or after "to"/"as".
    _rule("password", rf"\b(?:{_PASSWORD_WORDS})\b{_WINDOW % 60}{_STRONG_COPULA}\s*[\"'“‘]?"
          r"(?P<v>[^\s\"'”’.,;!?]{3,64})", _I),
    _rule("password", rf"\b(?:{_PASSWORD_WORDS})\b\s*[:=]?\s*[\"'“‘]?(?P<v>(?=[^\s]{{0,63}}\d)"
          r"[^\s\"'”’.,;!?]{3,64})", _I),
    _rule("password", rf"\b(?:{_PASSWORD_WORDS})\b{_WINDOW % 40}\b(?:to|as)\s+[\"'“‘]?"
          r"(?P<v>(?=[^\s]{0,63}\d)[^\s\"'”’.,;!?]{3,64})", _I),
    _rule("password", r"(?:密码|口令|开锁码|门禁码|解锁码|验证码)[^。！；\n]{0,8}?(?P<v>[A-Za-z0-9]{3,32})"),
    _rule("security_answer", rf"\bmaiden\s+name\b{_WINDOW % 20}{_STRONG_COPULA}\s*(?P<v>\w+)", _I),
    # PINs and lock/alarm/door/gate/safe codes.
    _rule("access_code", rf"\bpins?\b(?:\s*(?:code|number|no\.?|#))?{_WINDOW % 30}{_CODE_VALUE}",
          _I, valid=_CODE_DIGITS),
    _rule("access_code", rf"\b(?:{_CODE_DEVICE})\s*(?:pin|code|passcode|combination|combo|"
          rf"number|key\s?code)s?\b{_WINDOW % 30}{_CODE_VALUE}", _I, valid=_CODE_DIGITS),
    _rule("access_code", rf"\b(?:code|combination|combo|keycode|key\s+code)s?\b{_WINDOW % 30}"
          rf"{_CODE_COPULA}\s*(?:now\s+)?{_CODE_VALUE}", _I, valid=_CODE_DIGITS),
    _rule("access_code", rf"\b(?:unlock|disarm|arm|open|enter|punch\s+in|key\s+in|type\s+in)\b"
          rf"{_WINDOW % 40}\b(?:with|using|code|pin)\s+(?P<v>\d{{4,12}})(?![\d%°]){_NOT_UNIT}", _I),
    _rule("access_code", rf"\b(?:enter|punch\s+in|key\s+in|type\s+in)\s+(?:the\s+)?(?:code\s+|pin\s+)?"
          rf"(?P<v>\d{{4,12}})(?![\d%°]){_NOT_UNIT}", _I),
    _rule("access_code", r"(?<![\d.,])(?P<v>\d{3,12})\s+(?:is|was)\s+(?:the|my|our)?\s*"
          r"(?:[A-Za-z\-]+\s+)?(?:code|pin|password|passcode|combination)\b", _I),
    # Phone numbers: international (+...), North American, national with a trunk 0, Chinese
    # mobiles, and any 7+ digit number next to a phone word.
    _rule("phone_number", r"(?<![\w+])\+\d(?:[ .\-]?(?:\(\d{1,4}\)|\d)){6,16}(?!\d)",
          valid=_digits_between(8, 15)),
    _rule("phone_number", r"(?<![0-9A-Za-z+\-.])(?:1[ .\-]?)?(?:\(\d{3}\)[ .\-]?|\d{3}[ .\-]?)"
          r"\d{3}[ .\-]?\d{4}(?![0-9])(?![.\-]\d)"),
    _rule("phone_number", r"(?<![0-9A-Za-z+\-.])0\d{1,4}(?:[ .\-]\d{2,4}){1,4}(?![0-9])"
          r"(?![ .\-]?\d)", valid=_digits_between(9, 12)),
    _rule("phone_number", r"(?<![0-9])1[3-9]\d(?:[ \-]?\d{4}){2}(?![0-9])"),
    _rule("phone_number", rf"\b(?:{_PHONE_WORDS})\b{_WINDOW % 30}(?P<v>\+?\d[\d ().\-]{{5,18}}\d)"
          r"(?![0-9])", _I, valid=_digits_between(7, 15)),
    _rule("phone_number", r"(?:手机|电话|联系方式|号码)[^。！；\n]{0,8}?(?P<v>\d[\d \-]{5,16}\d)",
          valid=_digits_between(7, 15)),
    _rule("email_address", r"(?<![A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}"
          r"(?:\.[A-Za-z0-9\-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z0-9\-])"),
    _rule("ssn", r"(?<![0-9\-])\d{3}-\d{2}-\d{4}(?![0-9\-])", valid=_ssn_ok),
    _rule("ssn", rf"\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?|social\s+insurance\s+"
          rf"number|itin){_WINDOW % 30}(?P<v>\d{{3}}[ \-]?\d{{2,3}}[ \-]?\d{{3,4}})(?![0-9])", _I),
    _rule("iban", r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?"
          r"(?![A-Za-z0-9])", _I, valid=_iban_match_ok),
    _rule("card_number", r"(?<![0-9\-])\d(?:[ \-]?\d){12,18}(?![0-9])", valid=_card_ok),
    _rule("card_number", rf"(?:\b(?:{_CARD_WORDS})\b|银行卡|卡号){_WINDOW % 30}"
          r"(?P<v>\d(?:[ \-]?\d){11,18})(?![0-9])", _I),
    _rule("account_number", rf"(?:\b(?:{_ACCOUNT_WORDS})\b|账号|账户){_WINDOW % 30}"
          r"(?P<v>[A-Za-z]{0,4}\d(?:[ \-]?\d){5,30})(?![0-9])", _I),
    # Street addresses: house number, capitalised street name, street word; lower case only
    # with an unambiguous street word and no stop words between.
    _rule("street_address", rf"(?<![\w#])\d{{1,6}}[A-Za-z]?(?:[ \-]\d{{1,4}})?,?\s+"
          rf"(?:[A-Z][A-Za-z'’\-]*\.?\s+){{1,4}}(?:{_STREET})\b"),
    _rule("street_address", rf"(?<![\w#])\d{{1,6}}[a-z]?\s+(?:(?!(?:{_STOPWORDS})\b)"
          r"[a-z'’\-]+\s+){1,3}(?:street|avenue|road|boulevard|lane|st|ave|rd|blvd)\b", _I),
    _rule("street_address", r"(?<![\w#])\d{1,6}[a-z]?\s+[A-Z][a-zäöüß]+(?:strasse|straße|weg|platz|"
          r"gasse|allee)\b"),
    _rule("street_address", r"\b[A-Z][a-zäöüß]+(?:strasse|straße|str\.|weg|platz|gasse|allee)\s+"
          r"\d{1,4}[a-z]?\b"),
    _rule("street_address", rf"(?<![\w#])\d{{1,5}}(?:bis|ter)?,?\s+(?i:{_STREET_FIRST})\s+"
          r"(?:(?i:d[eu]s?|la|le|del|della|do|da)\s+|l['’])?[A-Z]"),
    _rule("street_address", r"\bp\.?\s?o\.?\s?box\s+\d+", _I),
    _rule("street_address", rf"\b(?:(?:my|our|home|mailing|billing|shipping|postal|street)\s+"
          rf"address|i\s+live\s+at|we\s+live\s+at){_WINDOW % 40}(?P<v>\d+)", _I),
    _rule("street_address", r"[\u4e00-\u9fff]{1,12}?(?:路|街|大道|巷|胡同)\d{1,5}(?:号|弄)"),
    _rule("street_address", r"\d{1,4}(?:号楼|栋|幢)\s*(?:\d{1,3}单元)?\s*\d{2,5}(?:室|号)?"),
    _rule("postal_code", rf"\b(?:{_US_STATES})\s+\d{{5}}(?:-\d{{4}})?(?![0-9])"),
    _rule("postal_code", r"(?<![A-Za-z0-9])(?:[A-Z]{1,2}\d[A-Z\d]?|GIR) \d[A-Z]{2}(?![A-Za-z0-9])"),
    _rule("postal_code", r"(?<![A-Za-z0-9])[ABCEGHJ-NPRSTVXY]\d[A-Z] \d[A-Z]\d(?![A-Za-z0-9])"),
    _rule("postal_code", rf"\b(?:zip|postcode|post\s+code|postal\s+code){_WINDOW % 20}"
          r"(?P<v>[A-Za-z0-9]{2,5}[ \-]?[A-Za-z0-9]{3,4})", _I, valid=_digits_between(3, 9)),
    # National and other personal ID numbers.
    _rule("national_id", r"(?<![0-9A-Za-z])\d{17}[\dXx](?![0-9A-Za-z])", valid=cn_resident_id_ok),
    _rule("national_id", r"(?<![A-Za-z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?"
          r"\d{2} ?[A-D](?![A-Za-z0-9])"),  # UK National Insurance number
    _rule("id_number", rf"(?:\b(?:{_ID_WORDS})\b|身份证|护照|社保|驾照|驾驶证){_WINDOW % 30}"
          r"(?P<v>[A-Za-z]{0,3}[ \-]?\d(?:[ \-]?\d){3,24}(?:[ \-]?[A-Za-z]{1,3})?)", _I),
    _rule("date_of_birth", rf"\b(?:born(?:\s+on)?|date\s+of\s+birth|dob|birth\s?date|birthday\s+is)\b"
          rf"{_WINDOW % 20}(?P<v>\d{{1,4}}[/.\-]\d{{1,2}}[/.\-]\d{{2,4}}|(?:{_MONTHS})[a-z]*\.?\s+"
          rf"\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
          rf"(?:{_MONTHS})[a-z]*,?\s+\d{{4}})", _I),
    _rule("username", rf"\b(?:user\s?name|login|user\s+id){_WINDOW % 20}{_STRONG_COPULA}\s*"
          r"(?P<v>[A-Za-z0-9_.\-]{3,64})", _I),
    # Any nine or more digits in a row: no device setting is that long.
    _rule("long_number", r"(?<![0-9.,])\d{9,}(?![0-9])"),
)


def find_sensitive(text: str) -> list[Finding]:
    """Every secret or personal identifier in ``text``: kind and span, sorted by position.

    A span may be reported under two kinds (an 18-digit resident ID is also a long number);
    callers that only need a yes/no look at whether the list is empty."""
    found: set[Finding] = set()
    for rule in _RULES:
        for m in rule.pattern.finditer(text):
            group = "v" if "v" in rule.pattern.groupindex else 0
            if rule.valid is None or rule.valid(m.group(group)):
                found.add(Finding(m.start(group), m.end(group), rule.kind))
    return sorted(found)


def sensitive_kinds(text: str) -> list[str]:
    """The distinct kinds found in ``text``, in order of first appearance: what a refusal may
    name without quoting the data."""
    return list(dict.fromkeys(f.kind for f in find_sensitive(text)))


def redact(text: str, mask: str = "[REDACTED:{kind}]") -> str:
    """``text`` with every finding replaced by ``mask`` (overlapping spans merged into one,
    named after the first), for logs that must not keep the data."""
    spans: list[list] = []
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
