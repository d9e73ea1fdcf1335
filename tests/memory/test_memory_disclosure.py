"""The value grammar of :mod:`smh_core.memory.disclosure` (issue 34): what a memory says a door,
a code, a password or an account's answer IS is refused unless the grammar reads it as no value.

The sentences here are written for these tests, not taken from any corpus."""

from __future__ import annotations

import pytest

from smh_core.memory.decision import SECRET, check_write
from smh_core.memory.disclosure import disclosures, non_value
from smh_core.memory.sensitive import find_sensitive


def _kinds(text: str) -> set[str]:
    return {f.kind for f in find_sensitive(text)}


@pytest.mark.parametrize(
    "text",
    [
        # a value described, not written: refused whatever it is
        "remember the shed padlock is the number of legs on a spider twice",
        "remember the back gate is my grandmother's house number with the street's initial",
        "note that the garage is the speed limit on our road and then the one in town",
        "remember the cellar door is a dozen and a half followed by our flat number",
        # a credential word misheard by speech to text, and the value after it
        "remember the alarm pass word is lighthouse",
        "note that the cupboard keypad coat is nine nine for one",
        # an answer told as a story for an account
        "keep in mind for the energy app: my first pet was a hamster called Biscuit",
        "remember the bank's question, the town where my parents married: Harrogate",
        # a key's hiding place is its value
        "remember the key to the shed is under the third flowerpot from the left",
        # hand-over verbs in a memory about getting in
        "if the alarm monitoring centre rings, say 'bluebell' and they stand down",
        # identity heads on any topic
        "remember my email is pat dot quinn at mailbox dot example",
        "note that the car reg is ex why zed won too tree",
        # a box named by two words; "how many", a quantity, and someone's words after a password word
        "remember the key box is a baker's dozen and then a score",
        "remember the garden padlock is how many days in a fortnight, twice",
        "remember the shed lock is the fence's height in inches",
        "remember the router password is just we love the seaside, no capitals",
        # the word right before a mark is its subject
        "remember the abacus by the door shows the safe code: second wire two beads, third wire one",
        # a thing that opens it is no value, but a key word, a quote or a number after it is
        "remember the loft hatch opens with the key word 'bramble'",
        "remember the loft hatch opens with the blue fob and then 4471",
        "remember the cellar door is Tuesday",
    ],
)
def test_values_told_another_way_are_refused(text: str) -> None:
    veto = check_write(text, text)
    assert veto is not None and veto.rule == SECRET, (text, veto)


@pytest.mark.parametrize(
    "text",
    [
        "remember the back gate is locked at night and open from 7 on weekdays",
        "remember the garage door is the one on the left",
        "remember the Wi-Fi password is in the family vault",
        "remember the alarm code is six digits and changes every month",
        "remember the padlock on the shed is a brass one with four wheels",
        "remember the front door lock is a Yale Linus L2, fitted in 2024",
        "remember the router is in the hall cupboard, the lights should be white",
        "remember the side gate is left open on bin day",
        "remember the key safe code is sent by text on the day",
        "remember the alarm siren is limited to 3 minutes",
        "remember the spare remote for the gate is with Sam",
        "remember when it's dark the porch light turns on at 30%",
        "remember the conservatory wifi is the weak spot, the extender helps",
        "remember the installer who fitted our gate is Priya, she's booked for May",
        "remember the key box is the council-approved one, screwed to the brick",
        "remember the new gate lock was £149 fitted",
        "remember the cleaner's door access is Tuesdays 9 till 12 only",
        "remember the loft hatch lock opens with the long key on the red ring",
        "remember the garden door unlocks with the app on my phone",
    ],
)
def test_memories_about_access_with_no_value_are_kept(text: str) -> None:
    assert check_write(text, text) is None, (text, find_sensitive(text))


@pytest.mark.parametrize(
    ("phrase", "strict", "expected"),
    [
        ("in the drawer by the door", False, True),
        ("rotated every quarter", True, True),
        ("six digits", True, True),
        ("a Yale 250", False, True),
        ("the one by the bins", False, True),
        ("the year the war ended", False, False),
        ("a dozen then a score", False, False),
        ("'Copper Kettle'", False, False),
        ("Noodle", False, False),
        ("based on my birthday", False, False),
        ("blue", True, False),  # after a password word one bare colour is the password
        ("blue", False, True),  # after a light it is a colour
        ("purple monkey dishwasher", True, False),
        ("all one word: purple monkey dishwasher", True, False),
        ("1234", False, True),  # where the access rule's number grammar judges digits
    ],
)
def test_non_value_phrases(phrase: str, strict: bool, expected: bool) -> None:
    assert non_value(phrase, strict=strict) is expected


def test_digits_after_an_identity_head_are_a_value_off_the_access_topic() -> None:
    """Off the access topic no number grammar judges the digits, so the value grammar does."""
    assert non_value("5 Nisan 5702", defer_digits=False) is False
    assert "access_value_given" in _kinds(
        "remember Gran's birthday is 5 Nisan 5702, put it on her profile"
    )


def test_a_refusal_names_the_rule_never_the_value() -> None:
    text = "remember the study door is the year the Titanic sank"
    veto = check_write(text, text)
    assert veto is not None and "Titanic" not in str(veto) and "access_value_given" in str(veto)


def test_pasted_labels_are_labels_not_values() -> None:
    """A mark after a door or a network is a label ("Wi-Fi: Loft-Guest"); after a password word
    it gives the value."""
    assert not [
        d
        for d in disclosures("remember the sign says Wi-Fi: Loft-Guest, ask us")
        if d[2] == "access_value_given"
    ]
    assert _kinds("remember the sign says Password: starling") & {"password", "access_value_given"}


@pytest.mark.parametrize(
    "text",
    [
        "remember the garden office door opens if you set the hall light to 40, then 10, then 70",
        "remember the trunk in the loft has a direction lock: left, left, up, down, right",
        "remember the garage unlocks when the speaker hears 'porridge before sunrise'",
        "remember the number on the fridge magnet, 8812, is also what opens the side gate",
        "remember the phrase that unlocks the tablet is velvet-otter",
        "remember our road is Juniper Close and our house is number nine",
        "remember the backup script runs mysqldump -u hass -pQuince77 every night",
        "remember the alarm company passphrase 'Winterbourne' in the contract",
    ],
)
def test_codes_by_steps_phrases_and_pointers_are_refused(text: str) -> None:
    veto = check_write(text, text)
    assert veto is not None and veto.rule in (SECRET, "personal identifier"), (text, veto)


@pytest.mark.parametrize(
    "text",
    [
        "remember the playroom blinds open when you say 'good morning' to the speaker",
        "remember the wake word on the kitchen speaker is 'Computer'",
        "remember the door codes are six digits on the front lock and four on the garage",
        "remember the gate opens by itself 7 till 10 in the morning",
    ],
)
def test_the_same_shapes_without_a_secret_are_kept(text: str) -> None:
    assert check_write(text, text) is None, (text, find_sensitive(text))
