"""The "device-related" write rule read as "about the home" (smh_core/memory/home_topic.py), and
the explicit-request rule's shortened and mistyped "remember". None of these sentences is in a
corpus."""

from __future__ import annotations

import pytest

from smh_core.memory.decision import NOT_DEVICE, NOT_EXPLICIT, check_write
from smh_core.memory.home_topic import about_home, one_slip
from tests.support.linear_time import assert_linear


@pytest.mark.parametrize(
    "text",
    [
        "the lantern in warm white",  # a device word
        "the Klimaanlage on eco",  # another language's device word
        "the dehumidifer is too loud",  # one slip in a long device word
        "the twins sleep in the back bedroom",  # a part of the home
        "the kombucha brewer gets 24°C",  # a quantity with a unit
        "dinner music on zone 3",  # a numbered control
        "the proofing drawer at 35",  # a set point that ends the phrase
        "the dog goes out at 6:45",  # a clock time
        "the cat's bowl gets topped up every morning",  # a recurring time
        "the fairy string by the telly stays on",  # a state
    ],
)
def test_about_home_by_each_mark(text) -> None:
    assert about_home(text)


@pytest.mark.parametrize(
    "text",
    [
        "my cat is called Tom",
        "my sister's birthday is in May",
        "my favourite band is Queen",
        "my nephew is 12",  # a number, no unit, no set point
        "I support the team in red",
        "keep in mind my brother is vegan",  # "keep in" is no state
        "the capital of Peru is Lima",
    ],
)
def test_facts_about_people_are_not_about_home(text) -> None:
    assert not about_home(text)
    assert check_write("Remember " + text, text).rule == NOT_DEVICE


@pytest.mark.parametrize(
    ("word", "target", "slip"),
    [
        ("themostat", "thermostat", True),
        ("thermostta", "thermostat", True),
        ("thermostats", "thermostat", True),
        ("thermometer", "thermostat", False),
        ("radaitor", "radiator", True),
        ("radiator", "radiator", False),
    ],
)
def test_one_slip(word, target, slip) -> None:
    assert one_slip(word, target) is slip


@pytest.mark.parametrize(
    ("query", "stored"),
    [
        ("rmbr the hall lamp at 30%", True),
        ("pls rember the hall lamp at 30%", True),
        ("remeber the hall lamp at 30%", True),
        ("make a note: the hall lamp at 30%", True),
        ("save this - the hall lamp at 30%", True),
        ("going forward the hall lamp at 30%", True),
        ("the hall lamp at 30% looks nice", False),
        ("remodel the hall, lamp at 30%", False),  # a word two slips from "remember"
    ],
)
def test_explicit_request_in_other_words(query, stored) -> None:
    veto = check_write(query, query)
    assert (veto is None) if stored else (veto is not None and veto.rule == NOT_EXPLICIT), veto


@pytest.mark.parametrize(
    "unit", ["turn a ", "at 1 ", "themostat ", "a" * 9 + " ", "1 ", "keep ", "half "]
)
def test_about_home_linear_time(unit) -> None:
    assert_linear(about_home, unit)  # a long memory's cost against one a fifth as long
