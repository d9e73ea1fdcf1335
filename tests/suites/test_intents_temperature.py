"""Temperature tasks of the intents suite follow HA's own handlers (found by running HA's agent
on them, issue 41 item 2): a question about the set point ("Solltemperatur") is answered with
the target temperature, any other with the current one, and the two differ so a wrong answer
fails; a set point is asked of one thermostat only (HA's handler takes a single target)."""

from __future__ import annotations

import pytest

from smh_core.suites.intents.suite import generate_language


@pytest.fixture(scope="module")
def de_tasks():
    return generate_language("de", 0, 80).tasks


SET_POINT = ("soll", "ziel", "gestellt")
"""German words of HA's set-point questions ("Solltemperatur", "auf welche Temperatur ist ...
[ein]gestellt"); HA's other temperature questions have none of them."""


def test_a_set_point_question_asks_the_target_temperature(de_tasks):
    asks = [t for t in de_tasks if t.subcategory == "HassClimateGetTemperature"]
    kinds = set()
    for t in asks:
        fact = t.goal.facts[0].value
        [values] = [o.values for o in t.overrides]
        set_point = any(w in t.turns[0].text.casefold() for w in SET_POINT)
        asked, other = ("target_temperature", "current_temperature")[:: 1 if set_point else -1]
        assert values[asked] == fact and abs(values[other] - fact) == 5, (t.id, values)
        kinds.add(set_point)
    assert kinds == {True, False}  # both kinds of question are in the sample


def test_a_set_point_is_for_one_thermostat(de_tasks):
    sets = [t for t in de_tasks if t.subcategory == "HassClimateSetTemperature"]
    assert sets
    for t in sets:
        assert t.goal.critic.count("target_temperature ==") == 1, t.goal.critic
