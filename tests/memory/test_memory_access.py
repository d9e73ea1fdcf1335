"""The memory filter fails closed on access (issue 34, item 4; smh_core/memory/access.py): a memory
about getting into the home or an account is refused when it holds anything that could encode a
secret, unless the grammar accounts for it as a time, a duration, a percentage, a temperature, a
count or a device's number. One parametrized test per rule, each with secrets that must be
refused and near misses that must be kept, in several languages; refusals never echo the secret;
linear time on 100,000-character hostile input. None of these sentences is in a corpus."""

from __future__ import annotations

import pytest

from smh_core.memory.access import ACCESS_KINDS, about_access, access_findings
from smh_core.memory.decision import NOT_DEVICE, SECRET, check_write, write_veto
from smh_core.memory.sensitive import SECRET_KINDS, find_sensitive, redact, sensitive_kinds
from tests.support.linear_time import assert_linear

# (text, the secret's characters, the rule that must refuse it)
SECRETS = {
    "access_code": [
        # Italian number words read as digits (access.spoken_digit_runs), "codice" as "code"
        ("il codice del cancello è quattro otto due uno", "quattro otto due uno"),
        ("o código do portão é quatro oito dois um", "quatro oito dois um"),  # Portuguese
    ],
    "password": [
        # Chinese numerals read as digits, "密码" is "password"
        ("门锁密码是一二三四", "一二三四"),
    ],
    "access_digits": [
        ("the wifi is HomeNet, use Tr0ub4dor", "Tr0ub4dor"),  # no credential word
        ("alarm code ➍➑➋➊", "➍➑➋➊"),  # dingbat digits: no Nd, no NFKC form
        ("das WLAN heißt Heimnetz, nimm Sonnenblume77", "77"),  # German
        ("le portail s'ouvre avec 7 3", "7 3"),  # French, a digit alone is no setting
        ("The router's admin page. Use sunflower 2468 there.", "2468"),  # split over two sentences
        (
            "the wifi is the Kestrel 99",
            "99",
        ),  # a name after "the" is no product: only after "a"/"an"
        ("the alarm panel: zones 4, 8 and 2 then 6", "6"),  # a list, then more
    ],
    "access_number_words": [
        ("koden til døren er fire otte to en", "fire otte to en"),  # Danish
        ("dörrkoden är fyra sju ett ett", "fyra sju ett ett"),  # Swedish (own list)
        ("код от двери четыре восемь два один", "четыре восемь два один"),  # Russian (own list)
        ("kapı şifresi dört sekiz iki bir", "dört sekiz iki bir"),  # Turkish (own list)
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
        "lock the back door at 22:00",
        "auto-lock after 5 minutes",
        "the alarm's exit delay is 30 seconds",
        "camera 2 watches the driveway",
        "Wi-Fi channel 6",
        "the front door locks at 10 pm every night",
        "die Haustür schließt um 22:00",
        "la porte se verrouille après 5 minutes",
        "la alarma suena 30 segundos",
        "the garage door opens to 80%",
        "the WPA2 network on 5 GHz",
        "the door lock beeps 3 times when it locks",
        "the smart lock firmware is 1.4.2",
        "the smoke alarm batteries were changed in 2023",
        "the 2 cameras record the gate",
        "the doorbell chime volume is 3 out of 10",
        "lock the door at 9 on weekdays",
        "the mesh has 3 nodes: hall, loft and garage",
        "the wifi extender in bedroom 2",
        "the door sensor battery is a CR2032",
        "cameras 1-3 record only when we're away",
        "the alarm's night mode covers zones 4, 5 and 6",
        "the Ring doorbell pro 2 on the front door",
        "the porch light and door lock go at sunset +15 min",
        "the garage door shouldn't open below 0°C",
    ],
    "access_number_words": [
        "the alarm arms after five minutes",
        "la porte se ferme après cinq minutes",
        "die Tür schließt nach fünf Minuten",
        "once the door locks, dim the hall light",
        "the fire alarm in the hall stays on",
        "lock the door at ten past six",
    ],
    "access_spelled_letters": [
        "the Delta faucet by the back door",
        "the hotel-style door hanger",
        "the A/C by the door at 21 degrees",
    ],
    "access_roman_numeral": [
        "the 24 V DC supply of the gate motor",
        "mix warm and cool light by the door",
        "the civil twilight door light",
    ],
    "access_keycap": ["🔒 the front door at 22:00", "the garage 🚗 door closes at night"],
    "access_morse": ["the door... - it sticks in winter", "the gate -- the old one -- stays shut"],
    "access_mixed_token": [
        "the front door & the back door lock at 22:00",
        "the on/off switch by the door",
        "the doors, e.g. the back door, lock at 22:00",
    ],
    "uri_credentials": [
        "the NAS share smb://nas.local/clips for the camera",
        "the camera stream at rtsp://cam.local/live",
    ],
    "wifi_payload": ["the wifi: HomeNet is the guest network", "WIFI is slow in the garage"],
    "email_address": [
        "the doorbell rings at the door (at night)",
        "the camera (at the gate) dot matrix",
    ],
}


def _cases(table: dict[str, list]) -> list:
    return [
        (kind, *case) if isinstance(case, tuple) else (kind, case)
        for kind, cases in table.items()
        for case in cases
    ]


@pytest.mark.parametrize(("kind", "text", "secret"), _cases(SECRETS))
def test_access_secret_is_refused_by_its_rule(kind, text, secret) -> None:
    kinds = sensitive_kinds(text)
    assert kind in kinds, kinds
    at = text.index(secret)
    assert any(
        f.start < at + len(secret) and at < f.end for f in find_sensitive(text)
    )  # the span covers it
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
    for text in (
        "lock the back door at 22:00",
        "auto-lock after 5 minutes",
        "the alarm's exit delay is 30 seconds",
        "camera 2 watches the driveway",
        "Wi-Fi channel 6",
    ):
        assert write_veto("Remember " + text, text) is None, text


def test_access_kinds_are_secrets() -> None:
    assert ACCESS_KINDS <= SECRET_KINDS


@pytest.mark.parametrize(
    ("text", "about"),
    [
        ("the Haustür at night", True),
        ("le digicode du hall", True),
        ("路由器在书房", True),
        ("the Passwort of the TV", True),
        ("the living room lamp at 40%", False),
        ("my sister likes tulips", False),
    ],
)
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


HOSTILE_UNITS = [
    "door ab.",
    "( ",
    "door a&",
    "door 1 ",
    "door code one two ",
    "门 一二 ",
    "porte un deux ",
    "lock ➍",
    "door -.- ",
    "door A B ",
    "door Alfa ",
    "door XV ",
    "door a_b ",
    "sip:a:b@",
    "WIFI:S:",
    "a [at] b [dot] ",
    "door 22:00 ",
    "lock 4️⃣",
    "Tür ",
    "door at 9 ",
    "router 1.2.",
    "gate x",
    "lock -",
]


@pytest.mark.parametrize("unit", HOSTILE_UNITS)
def test_access_linear_time_on_hostile_input(unit) -> None:
    """A quadratic pattern takes minutes on 100,000 characters; these grow linearly."""
    assert_linear(find_sensitive, unit)


def test_without_text2num_english_number_words_still_refuse(monkeypatch) -> None:
    """An install without text2num (the HA integration's manifest must list it) reads English and
    the own list only, and does not crash."""
    import sys

    monkeypatch.setitem(sys.modules, "text_to_num", None)
    assert "access_number_words" in sensitive_kinds("the gate wants nine nine")
    assert "access_number_words" in sensitive_kinds("dörrkoden är fyra sju ett ett")
    assert sensitive_kinds("the alarm arms after five minutes") == []


# The grammar's shapes added while tuning on write_corpus_holdout3.yaml: for each, a near miss the
# grammar now accounts for (stored) and a secret beside it that must still be refused. None of
# these sentences is in a corpus.
GRAMMAR_SHAPES = [
    # a private address and a port; a public address or a number after "code" is no place
    ("the hub is on 10.0.0.12 port 8080", "the hub code is 10.0.0.12 port 8080 then 4471"),
    (
        "the hub is on 10.0.0.12 port 8080",
        "the gate keypad port 4471",
    ),  # a port only in a network memory
    (
        "the NVR page is http://nvr.local:8000/live",
        "the NVR page is http://nvr.local/live?pin=4471",
    ),
    ("the alarm server is 172.20.0.5", "the door opens with 8.8.4.4"),
    ("the router hands out .50 to .99 by DHCP", "the gate keypad takes .50 .99"),
    # a date after a preposition
    ("the lock batteries get changed on 15/09", "the gate code is 15/09"),
    # a product's name after a model word or "a"
    ("the door lock model is Yale Linus 2.0", "the door lock model is Yale, code 4471"),
    (
        "the alarm panel model is Bosch 4821",
        "the alarm panel model is Bosch 4821, the code is the same number",
    ),
    ("the router is a Deco X50, 3 units", "the router is a Deco, 50 3"),
    ("the router is a Speedport Smart 4", "the router is the Hawk 4471"),
    # a range whose end is accounted for
    ("the keypad beeps 3 to 5 times", "the keypad code is 3 to 5"),
    # a count before a plural noun, with words that qualify it
    ("the lock keeps 200 log entries", "the lock code is 200 then 34"),
    ("the gate remote has 4 spare rubber buttons", "the gate code is 4 8 2 2"),
    # labels in a list, a conjunct of a device number, thresholds, minus, "all"
    ("the alarm buttons: 1 the panic, 2 the night mode", "the alarm: 1 4 7 1"),
    ("the remote: 3 is the garage door", "the alarm is 35 the usual one"),
    ("the door camera uses channel 11 on 2.4 GHz and 36 on 5 GHz", "the door code 11 and 36"),
    ("warn me if the door cam sees over 20 people", "the door code is over 20 34"),
    ("the gate motor stalls at minus 10", "the gate code is minus 10 44"),
    ("the gate motor stalls at minus 10", "the lock is minus 4 minus 7"),
    ("the gate has 2 remotes and all 2 work", "the gate opens with 2 2"),
    # a grid, an ordinal word, a possessive, a Roman numeral after a level word
    ("the door cams in a 3 × 3 grid", "the lockbox is 3 x 7 x 9"),
    ("the door cams in a 3 × 3 grid", "the lockbox is 3 x 7"),
    ("the lock's second slot is the cleaner's", "the lock code is second 44"),
    ("camera 2's lens is dirty", "camera code 2 is 4471"),
    ("the alarm siren is class II", "the alarm code is XII-IV"),
    # entity ids, settings, a product written with a symbol after "a"
    ("the automation turns lock.back_door and light.porch on at sunset", "the lock: back_door_77"),
    ("set DOOR_OPEN_TIMEOUT=45 on the gate controller", "the gate wants DOOR_OPEN=4471"),
    ("the router is a Fritz!Box with mesh", "the router login is Fritz!Box"),
    # a bare number parallel to a measured one shares its role, unless something that opens
    # comes between or it is longer than the measured one plus a digit
    (
        "the porch lock battery was at 35 percent; it's 80 now",
        "the porch lock battery was at 35 percent; the porch lock is 8031 now",
    ),
    (
        "the side gate closes after 40 seconds... well, actually 50",
        "the side gate closes after 40 seconds, actually 5072",
    ),
    (
        "the hub's radio channel is 20 and the mesh is on 11",
        "the hub's radio channel is 20 and the gate is 11",
    ),
    ("our alarm has 8 zones, the cabin's has 3", "our alarm has 8 zones, the cabin's code is 3"),
    # a scale, a size glued to its noun, a count of parts beside a code word
    ("the keypad light is at 3 of 5", "the keypad is 3 of 57"),
    ("the shed has a 10-button keypad", "the shed keypad is 10-4471"),
    ("the lockbox code uses a keypad with 12 buttons", "the lockbox code is 12 buttons then 7"),
    # "in" and "a" are units only before no further word: not "reset to 5519 in an hour"
    (
        "the gate motor fuse is 13 A, the lock runs on 12 v",
        "the installer reset the gate keypad to 5519 in an hour",
    ),
    ("the alarm contract is 9.50 a month", "the gate keypad was reset to 4471 a week ago"),
    # a price, a counted range, a section number, an irregular plural, "each"
    (
        "the shed padlock cost £38 and the hasp was another £12",
        "the shed padlock is 38 and then 12",
    ),
    (
        "the garage keypad takes between 4 and 8 digits",
        "the garage keypad code is between 4 and 8 then 7",
    ),
    ("the gate manual's section 6.3 covers the keypad", "the gate keypad is 6.3"),
    ("the door cam counted 140 people at the fete", "the door cam code is 140 then 22"),
    ("the gate has 4 fobs, 2 each for us", "the gate is 2 each 4"),
    ("the garage door opener is rated 800 newtons", "the garage door opener is 800 then 12"),
    # a clock time with seconds, a month and year something is due, a year something was done,
    # a page, the end of a serial number
    ("the porch lock automation waits 00:03:00 before locking", "the porch lock is 00 03 then 9"),
    ("the gate motor's next service is due 09/2027", "the gate keypad is 09/2027"),
    ("the side door lock was fitted 2022, grade 3", "the side door lock is 2022 then 3"),
    ("the alarm manual covers zones on p. 14", "the alarm is 14 then p"),
    ("the water meter by the gate has a serial ending 5521", "the gate keypad ends 5521"),
]


@pytest.mark.parametrize(("kept", "refused"), GRAMMAR_SHAPES)
def test_grammar_shape_kept_with_its_secret_refused(kept, refused) -> None:
    assert sensitive_kinds(kept) == [], (kept, sensitive_kinds(kept))
    assert write_veto("Remember " + kept, kept) is None, kept
    veto = check_write("Remember " + refused, refused)
    assert veto is not None and veto.rule == SECRET, (refused, veto)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("the shed lock is satu tiga tujuh dua", "access_number_words"),  # Indonesian digit words
        ("the safe is nne tisa moja", "access_number_words"),  # Swahili
        ("the garage is ek char saat nau", "access_number_words"),  # Hindi, romanised
        ("the kluis is hat hét egy", "access_number_words"),  # Hungarian
        ("the gate at the cottage: niner fife wun", "access_number_words"),  # radiotelephony
        ("la boîte à clés: trois neuf un", "access_number_words"),  # a key box in French
        ("the candado: cuatro siete uno", "access_number_words"),  # a padlock in Spanish
        ("the safe is XIV-XL-IX", "access_roman_numeral"),  # Roman numerals joined by dashes
        ("the lock code is the letters of CAFE as numbers", "access_described_code"),
        ("the door code goes down the left column then across the top", "access_described_code"),
        ("🔑 3391", "access_digits"),  # a symbol for a key is an access word
        (
            "the 2FA backup codes: 551 902, 120 337",
            "access_code",
        ),  # "2FA" itself is no digit since holdout13
        ("the attic ⑦⑦⑧", "access_digits"),  # circled digits on any topic
        ("my phone, as I say it in Dutch: vier vier twee, nul drie, zes", "phone_number"),
    ],
)
def test_secret_in_holdout3_shapes_is_refused(text, kind) -> None:
    assert kind in sensitive_kinds(text), sensitive_kinds(text)
    assert check_write("Remember " + text, text) is not None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("remember the NAS admin is Quill7&Ember", "password"),  # shaped like a strong password
        ("remember the hub token 4be0c19a77d2f3e85a10", "token"),  # a long hex string
        ("remember the account recovery answer is Marigold", "security_answer"),
        ("remember for the Ring reset: first pet = Biscuit", "security_answer"),
        ("remember the helper's email anna_b [@] example [.] org", "email_address"),
        ("remember Oma wohnt in der Via Roma 12", "street_address"),
        ("remember 🔑 under the mat", "key_location"),
    ],
)
def test_sensitive_shapes_of_holdout3(text, kind) -> None:
    assert kind in sensitive_kinds(text), sensitive_kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "remember the 5-4-3-2-1 countdown before the kids' lamps go off",
        "remember the door codes live in 1Password, never here",
        "remember the DC-DC converter of the gate motor is in the shed",
        "remember the Wi-Fi 6 mesh has 3 nodes",
    ],
)
def test_holdout3_near_misses_are_kept(text) -> None:
    assert sensitive_kinds(text) == [], sensitive_kinds(text)


@pytest.mark.parametrize(
    "unit",
    [
        "10.0.0.1:",
        "Aa1!Aa1!",
        "I-I-",
        "4be0c19a",
        "⑨",
        "light.a",
        "A_DELAY=1 ",
        "on 1/1 ",
        "1 to ",
        "3 × ",
        "mobile ",
        "cinco ",
        "🔑 ",
        "minus 1 ",
        "port 1 ",
        # the value grammar's shapes (issue 34), and a memory of many dated numbers (the number
        # grammar read the whole memory for each of them: quadratic until 2026-11-28)
        "born 1 may 2001 ",
        "it's got ",
        "where's the key? in ",
        "first second ",
        "the gate is the ",
        "say 'a' ",
        "mysqldump -p ",
        "up down ",
    ],
)
def test_new_shapes_linear_time_on_hostile_input(unit) -> None:
    assert_linear(lambda text: find_sensitive("door " + text), unit)


@pytest.mark.parametrize(
    "text",
    [
        "remember the door lock: do go to bed at 22:00",  # Hindi and Japanese digits that are English words
        "remember the front door: no no, keep it unlocked until 8 pm",
        "remember the HmIP-eTRV-2 valve in the bedroom at 19 degrees",  # model codes are no password shape
        "remember the thermostat ID is TRV_Living-Room2",
    ],
)
def test_words_and_model_codes_that_look_like_new_shapes_are_kept(text) -> None:
    assert check_write(text, text) is None, check_write(text, text)


def test_the_linear_time_check_catches_a_quadratic_pattern() -> None:
    """The check above means something: a pattern that backtracks over the whole input fails it."""
    import re

    quadratic = re.compile(r"a*b")  # tried from every start: n²/2 steps on a run of "a"
    # long enough that the quadratic run is far above assert_linear's 0.3 s floor on a fast
    # machine too (30,000 took 0.24 s on 2026-11-30's: under the floor, so it passed as linear)
    with pytest.raises(AssertionError):
        assert_linear(lambda text: quadratic.search(text), "a", length=90_000)
    assert_linear(lambda text: text.count("a"), "a")
