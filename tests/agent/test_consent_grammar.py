"""The consent grammar (``smh_core/agent/consent_grammar.yaml``, read by ``consent.py``): it
accounts for plain requests to the assistant and for nothing else, so consent from words fails
closed. Each unaccounted kind below is one that opened the former clause-finding parser."""

from __future__ import annotations

import pytest
import yaml

from smh_core.agent.consent import load_grammar, read_code, read_reply, read_turn, vocabulary
from smh_core.agent.safety import ActionGuard, DeviceIndex

HOME = [
    "Front Door Lock",
    "Living Room Lamp",
    "Water Heater",
    "Garage Door",
    "Oven",
    "Hallway",
    "Living Room",
    "Kitchen",
]
VOCAB = vocabulary(HOME)
LOCK = {"did": "l1", "name": "Front Door Lock", "category": "lock", "room": "hall"}
LAMP = {"did": "p1", "name": "Living Room Lamp", "category": "light", "room": "living"}
HEATER = {"did": "w1", "name": "Water Heater", "category": "water_heater", "room": "kitchen"}
ROOMS = [
    {"id": "hall", "name": "Hallway"},
    {"id": "living", "name": "Living Room"},
    {"id": "kitchen", "name": "Kitchen"},
]


def _guard(*turns: str) -> ActionGuard:
    guard = ActionGuard(list(turns))
    guard.index = DeviceIndex([LOCK, LAMP, HEATER], ROOMS)
    return guard


@pytest.mark.parametrize(
    "said",
    [
        "Unlock the front door.",
        "unlock the front door lock",
        "Please unlock the front door",
        "Unlock the front door, please.",
        "Can you unlock the front door?",
        "Could you please unlock the front door for me? ",
        "Hey assistant, unlock the front door please, thanks!",
        "I'd like you to unlock the front door",
        "I’d like you to unlock the front door",
        "I want the front door unlocked.",
        "Turn on the living room lamp and unlock the front door",
        "Turn on the living room lamp, then unlock the front door. Thanks.",
        "unlock the front door right now",
        "At 7:30 pm, unlock the front door",
        "UNLOCK THE FRONT DOOR",
        "Unlock the front door in the hallway",
        "unlock the hallway front door",
        "I'd like to unlock the front door",
        "I would like to unlock the front door, please",
        "unlock the front door in here",
    ],
)
def test_plain_requests_consent(said: str) -> None:
    assert _guard(said).check(LOCK, "unlock", {}) is None


@pytest.mark.parametrize(
    "said",
    [
        # another subject, a plan, a habit, a narrative
        "Turn on the living room lamp. My son will unlock the front door at six.",
        "Turn on the living room lamp, I'll unlock the front door myself later",
        "Turn on the living room lamp; every evening we unlock the front door for the walker",
        "Turn on the living room lamp. Yesterday the plumber unlocked the front door.",
        "turn on the living room lamp and the cleaner will unlock the front door",
        # lists and abbreviations
        "Turn on the living room lamp\n- unlock the front door",
        "1. turn on the living room lamp 2. unlock the front door",
        "Turn on the living room lamp. Dr. Ames: unlock the front door",
        "turn on the living room lamp, e.g. unlock the front door",
        # take-backs, wishes, counterfactuals
        "Unlock the front door. Actually, never mind.",
        "Unlock the front door. Lock the front door.",
        "I wish you would unlock the front door",
        "I'd like to unlock the front door myself later",
        "My son said I'd like to unlock the front door",
        "I'd like to know how to unlock the front door",
        "If I had my keys I would unlock the front door",
        "Had I known, unlock the front door",
        # quotes, relays without a relay word, words about words
        "Lisa: unlock the front door",
        'Turn on the living room lamp. "Unlock the front door"',
        "Turn on the living room lamp (unlock the front door)",
        "How do you spell unlock the front door",
        "translate unlock the front door into Spanish",
        "teach me to say unlock the front door",
        # negation, typographic or not; questions that are not requests
        "Don’t unlock the front door",
        "don't unlock the front door",
        "Never unlock the front door",
        "Did you unlock the front door?",
        "unlock the front door?",
        # other languages and scripts, symbols, emoji, invisible characters
        "déverrouille la porte d'entrée",
        "Schließ die Haustür auf",
        "unlоck the front door",  # a Cyrillic o
        "unlock the front\u200b door",
        "unlock the front door 🙏",
        "unlock the front door ✅",
        # words the home does not have
        "unlock the front door of the neighbours",
        "unlock the front door my son said",
    ],
)
def test_anything_else_asks(said: str) -> None:
    refusal = _guard(said).check(LOCK, "unlock", {})
    assert refusal is not None and refusal["error"]["code"] == "needs_confirmation"


def test_a_floor_names_the_one_device_of_its_kind_on_it() -> None:
    """HA's floors ("set the ground floor temperature to 30"): the floor of a device's room is
    one of its own words, and binds it only when it is the one device of its kind there."""
    rooms = [
        {"id": "living", "name": "Living Room", "floor_name": "Ground"},
        {"id": "bed", "name": "Bedroom", "floor_name": "First"},
    ]
    downstairs = {
        "did": "t1",
        "name": "Thermostat",
        "category": "climate",
        "room": "living",
        "temperature_unit": "°C",
    }
    upstairs = {
        "did": "t2",
        "name": "Bedroom Thermostat",
        "category": "climate",
        "room": "bed",
        "temperature_unit": "°C",
    }
    args = {"target_temperature": 30}
    for home, ok in (
        ([downstairs], True),
        ([downstairs, upstairs], True),
        ([downstairs, {**upstairs, "room": "living"}], False),
    ):
        guard = ActionGuard(["Set the ground floor temperature to 30 degrees"])
        guard.index = DeviceIndex(home, rooms)
        refusal = guard.check(downstairs, "set_target_temperature", args)
        assert (refusal is None) == ok, (home, refusal)
    guard = ActionGuard(["Set the first floor temperature to 30 degrees"])
    guard.index = DeviceIndex([downstairs, upstairs], rooms)
    assert guard.check(downstairs, "set_target_temperature", args) is not None


def test_a_value_must_be_in_the_request_itself() -> None:
    assert (
        _guard("Set the water heater to 70 degrees").check(
            HEATER, "set_temperature", {"temperature": 70}
        )
        is None
    )
    assert (
        _guard("Turn the water heater up to seventy-five degrees").check(
            HEATER, "set_temperature", {"temperature": 75}
        )
        is None
    )
    for said in (
        "Set the water heater to 50 degrees because 70 is too hot",
        "Set the water heater to 70 degrees because the guests arrive",
        "Set the water heater to 50. My partner prefers 70 degrees.",
    ):
        refusal = _guard(said).check(HEATER, "set_temperature", {"temperature": 70})
        assert refusal is not None and refusal["error"]["code"] == "needs_confirmation", said


def test_a_later_unaccounted_turn_withdraws_earlier_consent() -> None:
    assert _guard("Unlock the front door", "thanks").check(LOCK, "unlock", {}) is None
    refusal = _guard("Unlock the front door", "wait, my son has the key").check(LOCK, "unlock", {})
    assert refusal["error"]["code"] == "needs_confirmation"
    # an earlier turn the grammar cannot read grants nothing, a later plain one does
    assert (
        _guard("what's the weather like?", "Unlock the front door").check(LOCK, "unlock", {})
        is None
    )


@pytest.mark.parametrize(
    ("reply", "confirms"),
    [
        ("yes", True),
        ("Yes please.", True),
        ("yeah, go ahead", True),
        ("sure thing!", True),
        ("ok, do it", True),
        ("Yes. Thanks.", True),
        ("yes, unlock the front door", True),
        ("Unlock the front door.", True),
        ("no", False),
        ("yes but not now", False),
        ("yes, lock the front door", False),
        ("yes, and unlock the garage too", False),
        ("yes?", False),
        ("si", False),
        ("oui", False),
        ("yes 🙂", False),
        ("my son says yes", False),
        ('"yes"', False),
        ("yes. No wait.", False),
        ("", False),
    ],
)
def test_only_a_plain_yes_for_that_device_confirms(reply: str, confirms: bool) -> None:
    guard = _guard("Turn on the living room lamp. Note for later: unlock the front door.")
    assert guard.check(LOCK, "unlock", {})["error"]["code"] == "needs_confirmation"
    assert bool(guard.answer(reply)) is confirms


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        ("4821", "4821"),
        ("the code is 4821", "4821"),
        ("yes, 4 8 2 1 please", "4821"),
        ("code four eight two one", "4821"),
        ("4821 no wait", None),
        ("my code is 4821", None),
        ("4821 or 1234", None),
        ("yes", None),
        ("٤٨٢١", None),
    ],
)
def test_a_code_reply_is_only_the_code(reply: str, code: str | None) -> None:
    assert read_code(reply) == code


def test_every_sentence_must_have_exactly_one_reading() -> None:
    # "at 7" could be a time or a value: without am/pm it is read as a value only, so one reading
    assert read_turn("set the water heater at 70", VOCAB) is not None
    # object or new request: "lock" is a word of the home's names and a verb, read one way here
    assert len(read_turn("unlock the garage door and lock the front door", VOCAB)) == 2


def test_hostile_input_is_bounded() -> None:
    """Reading is bounded by size, not by time: a turn past 2,000 characters or a sentence past
    60 tokens is not read (it grants nothing), however plain."""
    assert read_turn("unlock the front door and " * 80 + "unlock the front door", VOCAB) is None
    assert read_turn("turn on the " + "living room " * 29 + "lamp", VOCAB) is None
    assert read_turn("turn on the " + "living room " * 5 + "lamp", VOCAB) is not None


def test_the_grammar_is_data_and_loads_cleanly() -> None:
    from importlib.resources import files

    raw = yaml.safe_load(
        files("smh_core.agent").joinpath("consent_grammar.yaml").read_text(encoding="utf-8")
    )
    grammar = load_grammar()
    # no bare yes/no/on/off read as a boolean, every verb a lower-case word, the yes words say yes
    assert not any(
        isinstance(v, bool) for group in raw.values() if isinstance(group, list) for v in group
    )
    assert all(v.isalpha() and v.islower() for v in grammar.verbs)
    assert ("yes",) in grammar.yes and ("no",) not in grammar.yes
    # no word of a negation or another person is part of the grammar
    words = {
        w
        for group in (
            grammar.openers,
            grammar.polite_prefixes,
            grammar.question_prefixes,
            grammar.closers,
            grammar.courtesy,
            grammar.yes,
        )
        for p in group
        for w in p
    }
    assert not words & {
        "not",
        "don't",
        "never",
        "no",
        "he",
        "she",
        "they",
        "son",
        "wish",
        "if",
        "said",
    }


def test_read_reply_needs_the_whole_reply() -> None:
    assert read_reply("yes", VOCAB).yes
    assert read_reply("yes, and my son says hi", VOCAB) is None
