"""The memory filter fails closed on access (issue 34, item 4; smh_core/memory/access.py): a memory
about getting into the home or an account is refused when it holds anything that could encode a
secret, unless the grammar accounts for it as a time, a duration, a percentage, a temperature, a
count or a device's number. One parametrized test per rule, each with secrets that must be
refused and near misses that must be kept, in several languages; refusals never echo the secret;
linear time on 100,000-character hostile input. None of these sentences is in a corpus."""

from __future__ import annotations

import time

import pytest

from smh_core.memory.access import ACCESS_KINDS, about_access, access_findings
from smh_core.memory.decision import NOT_DEVICE, SECRET, check_write, write_veto
from smh_core.memory.sensitive import SECRET_KINDS, find_sensitive, redact, sensitive_kinds

# (text, the secret's characters, the rule that must refuse it)
SECRETS = {
    "access_digits": [
        ("the wifi is HomeNet, use Tr0ub4dor", "Tr0ub4dor"),  # no credential word
        ("alarm code ➍➑➋➊", "➍➑➋➊"),  # dingbat digits: no Nd, no NFKC form
        ("das WLAN heißt Heimnetz, nimm Sonnenblume77", "77"),  # German
        ("le portail s'ouvre avec 7 3", "7 3"),  # French, a digit alone is no setting
        ("The router's admin page. Use sunflower 2468 there.", "2468"),  # split over two sentences
        ("the wifi is the Kestrel 99", "99"),  # a name after "the" is no product: only after "a"/"an"
        ("the alarm panel: zones 4, 8 and 2 then 6", "6"),  # a list, then more
    ],
    "access_number_words": [
        ("il codice del cancello è quattro otto due uno", "quattro otto due uno"),  # Italian
        ("o código do portão é quatro oito dois um", "quatro oito dois um"),  # Portuguese
        ("koden til døren er fire otte to en", "fire otte to en"),  # Danish
        ("dörrkoden är fyra sju ett ett", "fyra sju ett ett"),  # Swedish (own list)
        ("код от двери четыре восемь два один", "четыре восемь два один"),  # Russian (own list)
        ("kapı şifresi dört sekiz iki bir", "dört sekiz iki bir"),  # Turkish (own list)
        ("门锁密码是一二三四", "一二三四"),  # Chinese numerals
    ],
    "access_spelled_letters": [
        ("door: sierra tango uniform", "sierra tango uniform"),  # NATO
        ("the shed padlock wants Anton Berta Dora", "Anton Berta Dora"),  # German spelling alphabet
        ("the lock code is k q x", "k q x"),  # single letters
        ("garage: X-R-T", "X-R-T"),
    ],
    "access_roman_numeral": [
        ("the gate code is XLVIII", "XLVIII"),
        ("the safe: MCMLXXXIV", "MCMLXXXIV"),
        ("el código del cofre es mcmxc", "mcmxc"),  # lower case next to a credential word
    ],
    "access_keycap": [
        ("gate code 4️⃣8️⃣2️⃣1️⃣", "4️⃣8️⃣2️⃣1️⃣"),
        ("Tür 🔟 #️⃣", "🔟"),
    ],
    "access_morse": [
        ("the safe: -.... ....- ...-- ..---", "-.... ....- ...-- ..---"),
        ("la cerradura: ..--- ....-", "..--- ....-"),
    ],
    "access_mixed_token": [
        ("The garage opener app. Log in with fox.trot and Purple*Rain", "Purple*Rain"),
        ("la caméra du salon : moineau&pluie", "moineau&pluie"),
        ("the camera account is jo.smith with Sunset-Drive", "jo.smith"),  # a dot between letters
    ],
    "uri_credentials": [
        ("remember sip:frontdoor:Pa55word@sip.example.net for the intercom", "Pa55word"),
        ("the hub talks to mqtt://ha:birchtree@broker.local", "birchtree"),
        ("notes: ftp://backup:hazelnut@nas.local", "hazelnut"),  # on any topic
    ],
    "wifi_payload": [
        ("WIFI:S:Home;T:WPA;P:lavender;;", "lavender"),
        ("the QR on the fridge says WIFI:T:WPA;S:Attic;P:marmalade;;", "marmalade"),
    ],
    "email_address": [
        ("remember the alarm account mail sam(at)example(dot)com", "sam(at)example(dot)com"),
        ("camera alerts to jo [at] example [dot] org", "jo [at] example [dot] org"),
    ],
}

NEAR_MISSES = {
    "access_digits": [
        "lock the back door at 22:00", "auto-lock after 5 minutes", "the alarm's exit delay is 30 seconds",
        "camera 2 watches the driveway", "Wi-Fi channel 6", "the front door locks at 10 pm every night",
        "die Haustür schließt um 22:00", "la porte se verrouille après 5 minutes",
        "la alarma suena 30 segundos", "the garage door opens to 80%", "the WPA2 network on 5 GHz",
        "the door lock beeps 3 times when it locks", "the smart lock firmware is 1.4.2",
        "the smoke alarm batteries were changed in 2023", "the 2 cameras record the gate",
        "the doorbell chime volume is 3 out of 10", "lock the door at 9 on weekdays",
        "the mesh has 3 nodes: hall, loft and garage", "the wifi extender in bedroom 2",
        "the door sensor battery is a CR2032", "cameras 1-3 record only when we're away",
        "the alarm's night mode covers zones 4, 5 and 6", "the Ring doorbell pro 2 on the front door",
        "the porch light and door lock go at sunset +15 min", "the garage door shouldn't open below 0°C",
    ],
    "access_number_words": [
        "the alarm arms after five minutes", "la porte se ferme après cinq minutes",
        "die Tür schließt nach fünf Minuten", "once the door locks, dim the hall light",
        "the fire alarm in the hall stays on", "lock the door at ten past six",
    ],
    "access_spelled_letters": [
        "the Delta faucet by the back door", "the hotel-style door hanger", "the A/C by the door at 21 degrees",
    ],
    "access_roman_numeral": [
        "the 24 V DC supply of the gate motor", "mix warm and cool light by the door", "the civil twilight door light",
    ],
    "access_keycap": ["🔒 the front door at 22:00", "the garage 🚗 door closes at night"],
    "access_morse": ["the door... - it sticks in winter", "the gate -- the old one -- stays shut"],
    "access_mixed_token": ["the front door & the back door lock at 22:00", "the on/off switch by the door",
                           "the doors, e.g. the back door, lock at 22:00"],
    "uri_credentials": ["the NAS share smb://nas.local/clips for the camera",
                        "the camera stream at rtsp://cam.local/live"],
    "wifi_payload": ["the wifi: HomeNet is the guest network", "WIFI is slow in the garage"],
    "email_address": ["the doorbell rings at the door (at night)", "the camera (at the gate) dot matrix"],
}


def _cases(table: dict[str, list]) -> list:
    return [(kind, *case) if isinstance(case, tuple) else (kind, case) for kind, cases in table.items()
            for case in cases]


@pytest.mark.parametrize(("kind", "text", "secret"), _cases(SECRETS))
def test_access_secret_is_refused_by_its_rule(kind, text, secret) -> None:
    kinds = sensitive_kinds(text)
    assert kind in kinds, kinds
    at = text.index(secret)
    assert any(f.start < at + len(secret) and at < f.end for f in find_sensitive(text))  # the span covers it
    veto = check_write("Remember " + text, text)
    assert veto is not None and veto.rule in (SECRET, "personal identifier")
    assert secret not in str(veto) and secret not in redact(text)


@pytest.mark.parametrize(("kind", "text"), _cases(NEAR_MISSES))
def test_access_near_miss_is_kept(kind, text) -> None:
    """Nothing sensitive is found (whether a sentence in another language is "about the home"
    is home_topic's rule, not this filter's)."""
    assert sensitive_kinds(text) == []
    assert write_veto("Remember " + text, text) in (None, NOT_DEVICE)


def test_issue_near_misses_are_stored() -> None:
    for text in ("lock the back door at 22:00", "auto-lock after 5 minutes", "the alarm's exit delay is 30 seconds",
                 "camera 2 watches the driveway", "Wi-Fi channel 6"):
        assert write_veto("Remember " + text, text) is None, text


def test_access_kinds_are_secrets() -> None:
    assert ACCESS_KINDS <= SECRET_KINDS


@pytest.mark.parametrize(("text", "about"), [
    ("the Haustür at night", True), ("le digicode du hall", True), ("路由器在书房", True),
    ("the Passwort of the TV", True), ("the living room lamp at 40%", False), ("my sister likes tulips", False),
])
def test_about_access(text, about) -> None:
    assert about_access(text) is about


def test_a_phone_number_for_the_doorbell_stays_an_identifier() -> None:
    """An access finding on a span another detector named is dropped: the refusal names the
    better rule."""
    text = "Remember my phone number (555) 123-4567 for the doorbell"
    assert "phone_number" in sensitive_kinds(text) and "access_digits" not in sensitive_kinds(text)


def test_many_numbers_are_refused_without_the_grammar() -> None:
    """Past 64 numbers the grammar is not asked (hostile input stays cheap): fail closed."""
    text = "the door " + " ".join("5 minutes" for _ in range(80))
    assert sum(k == "access_digits" for *_, k in access_findings(text)) == 80 - 64


HOSTILE_UNITS = ["door ab.", "( ", "door a&", "door 1 ", "door code one two ", "门 一二 ", "porte un deux ",
                 "lock ➍", "door -.- ", "door A B ", "door Alfa ", "door XV ", "door a_b ", "sip:a:b@",
                 "WIFI:S:", "a [at] b [dot] ", "door 22:00 ", "lock 4️⃣", "Tür ", "door at 9 ",
                 "router 1.2.", "gate x", "lock -"]


@pytest.mark.parametrize("unit", HOSTILE_UNITS)
def test_access_linear_time_on_hostile_input(unit) -> None:
    text = (unit * (100_000 // len(unit) + 1))[:100_000]
    start = time.perf_counter()
    find_sensitive(text)
    assert time.perf_counter() - start < 3.0


def test_without_text2num_english_number_words_still_refuse(monkeypatch) -> None:
    """An install without text2num (the HA integration's manifest must list it) reads English and
    the own list only, and does not crash."""
    import sys

    monkeypatch.setitem(sys.modules, "text_to_num", None)
    assert "access_number_words" in sensitive_kinds("the gate wants nine nine")
    assert "access_number_words" in sensitive_kinds("dörrkoden är fyra sju ett ett")
    assert sensitive_kinds("the alarm arms after five minutes") == []
