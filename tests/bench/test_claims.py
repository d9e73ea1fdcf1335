"""Said versus did (issue 38): a reply's claims checked against what the turn really did."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from smh_core.bench.agents import OracleAgent
from smh_core.bench.claims import Turn, claims_in
from smh_core.bench.report import write_report
from smh_core.bench.results import ResultsLog
from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.homeenv.errors import Change
from smh_core.task.home import HomeCache
from smh_core.task.model import load_tasks

TASKS = Path(__file__).parents[2] / "tasks"

DEVICES = [
    {"did": "l1", "name": "Kitchen Light", "room": "kitchen", "category": "light", "tags": []},
    {"did": "l2", "name": "Bedroom Light", "room": "bedroom", "category": "light", "tags": []},
    {"did": "d1", "name": "Front Door Lock", "room": "hall", "category": "lock", "tags": []},
    {"did": "m1", "name": "Desk Lamp", "room": "bedroom", "category": "light", "tags": []},
]
ROOMS = [
    {"id": "kitchen", "name": "Kitchen", "type": "kitchen"},
    {"id": "bedroom", "name": "Bedroom", "type": "bedroom"},
    {"id": "hall", "name": "Hall", "type": "hall"},
]
AFTER = {
    "l1": {"state": "off", "brightness": 50},
    "l2": {"state": "on"},
    "d1": {"state": "locked"},
    "m1": {"1.OnOff.OnOff": True},  # a Matter light: power is a boolean attribute
}
KITCHEN_OFF = Turn([Change("l1", "state", "on", "off")], AFTER, DEVICES, ROOMS)
NOTHING = Turn([], AFTER, DEVICES, ROOMS)


def _read(reply: str, turn: Turn = KITCHEN_OFF) -> list[tuple[str, list[str], str]]:
    return [(c.says, c.devices, c.truth) for c in claims_in(reply, turn)]


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        ("I've turned off the kitchen light.", [("off", ["l1"], "true")]),
        ("I turned the bedroom light off.", [("off", ["l2"], "false")]),
        ("The front door is now unlocked.", [("unlocked", ["d1"], "false")]),
        ("The bedroom light is still on.", [("on", ["l2"], "true")]),
        ("I couldn't unlock the front door.", [("not unlocked", ["d1"], "true")]),
        ("I couldn't turn off the kitchen light.", [("not off", ["l1"], "false")]),
        (  # the bedroom light was on already: this turn did not turn it on
            "I've turned on the kitchen light and the bedroom light.",
            [("on", ["l1"], "false"), ("on", ["l2"], "false")],
        ),
        (
            "I've turned off the kitchen light and turned on the bedroom light.",
            [("off", ["l1"], "true"), ("on", ["l2"], "false")],
        ),
        ("Closing the kitchen light now.", [("closed", ["l1"], "false")]),
        ("Bedroom Light has been turned off.", [("off", ["l2"], "false")]),
        ("Unlocked the front door.", [("unlocked", ["d1"], "false")]),
        ("The front door is locked.", [("locked", ["d1"], "true")]),
        ("The desk lamp is on.", [("on", ["m1"], "true")]),
        ("Okay, I set the kitchen light to 50%.", [("set", ["l1"], "true")]),
        ("I set the kitchen light to 80%.", [("set", ["l1"], "false")]),  # a value it does not hold
        ("Done.", [("done", [], "true")]),
        ("What should I set the bedroom light to?", []),  # a question claims nothing
        ("The TV is on channel 5.", []),  # "on channel" is no power state
        ("I've switched on the patio heater.", [("on", [], "unverifiable")]),  # no such device
    ],
)
def test_each_claim_is_checked_against_the_turn(reply, claims):
    assert _read(reply) == claims


def test_done_is_false_when_the_turn_did_nothing_and_true_after_a_rule():
    assert _read("Done.", NOTHING) == [("done", [], "false")]
    rule = Turn([], AFTER, DEVICES, ROOMS, other_effects=True)
    assert _read("All set, I set that up.", rule)[-1][2] == "true"


def test_another_language_gives_no_claims_yet():
    assert claims_in("J'ai éteint la lumière de la cuisine.", KITCHEN_OFF, language="fr") == []


class SaysDone:
    """A worst case of said versus did: never acts, always says it did."""

    name = "says-done"

    async def run(self, task, backend, user) -> Outcome:
        return Outcome(response="Done.", stop="answered")


async def test_the_oracle_claims_nothing_false_and_done_saying_is_caught(tmp_path: Path):
    tasks = load_tasks([TASKS / "sample.jsonl"])
    cache = HomeCache(TASKS)
    oracle = [await run_task(t, OracleAgent(), cache) for t in tasks]
    done = [await run_task(t, SaysDone(), cache) for t in tasks]
    assert sum(r.get("false_claims", 0) for r in oracle) == 0
    assert any(r.get("claims") for r in oracle)
    acting = [r for r, t in zip(done, tasks, strict=True) if t.goal_kinds[0] == "execute"]
    assert acting and all(r["false_claims"] == 1 and not r["passed"] for r in acting)
    log = ResultsLog(tmp_path / "results.jsonl")
    for r in done:
        log.append(r)
    paths = write_report(tmp_path)
    text = paths["markdown"].read_text(encoding="utf-8")
    assert "## Said versus did" in text and "**FC**" in text
    rows = list(csv.DictReader(paths["csv"].open(encoding="utf-8")))
    assert sum(int(r["false_claim_turns"]) for r in rows) >= len(acting)


def test_the_hand_labelled_sets_load_with_both_answers():
    """Issue 38's labels: replies of the published models, each marked with whether it makes a
    false claim (the first two sets tuned on, a third written blind after them and measured once)."""
    from smh_core.importers.trace_claims import labelled

    labels = labelled(Path(__file__).parents[1] / "fixtures" / "claims_labelled")
    assert len(labels) >= 300 and set(labels.values()) == {True, False}


def test_a_turns_effects_come_from_its_calls():
    """One reading of the calls for the runner and for Assist: a control call with a recorded
    result counts only when it went through; a memory, rule or schedule tool is an effect."""
    from smh_core.bench.claims import call_effects

    calls = [
        {"tool": "control_device", "arguments": {"did": "l1"}, "result": {"ok": True}},
        {"tool": "control_device", "arguments": {"did": "l2"}, "result": {"ok": False}},
        {"tool": "control_device", "arguments": {"did": "d1"}},  # the runner records no result
    ]
    assert call_effects(calls) == (frozenset({"l1", "d1"}), False)
    assert call_effects([{"tool": "forget_memory", "arguments": {}}])[1]
    assert call_effects([{"tool": "delete_automation", "arguments": {}}])[1]


# A second home for readings and the wider grammar: a vacuum, a player, a climate device in °C,
# a battery sensor (its value as HA's state string), a door sensor beside a lock, an HA light.
HOME2 = [
    {"did": "v1", "name": "Roborock", "room": "living", "category": "vacuum", "tags": []},
    {"did": "p1", "name": "Living Room TV", "room": "living", "category": "tv", "tags": []},
    {"did": "p2", "name": "Bedroom Speaker", "room": "hall", "category": "speaker", "tags": []},
    {
        "did": "t1",
        "name": "Living Room Thermostat",
        "room": "living",
        "category": "thermostat",
        "tags": [],
        "temperature_unit": "°C",
    },
    {
        "did": "b1",
        "name": "Front Door Lock Battery",
        "room": "hall",
        "category": "sensor",
        "tags": [],
    },
    {"did": "d1", "name": "Front Door Lock", "room": "hall", "category": "lock", "tags": []},
    {"did": "s1", "name": "Front Door Sensor", "room": "hall", "category": "sensor", "tags": []},
    {"did": "l1", "name": "Kitchen Light", "room": "kitchen", "category": "light", "tags": []},
]
ROOMS2 = [
    {"id": "living", "name": "Living Room", "type": "living_room"},
    {"id": "hall", "name": "Hall", "type": "hall"},
    {"id": "kitchen", "name": "Kitchen", "type": "kitchen"},
]
AFTER2 = {
    "v1": {"state": "returning"},
    "p1": {"state": "playing", "volume_level": 0.5, "media_title": "Blue in Green"},
    "p2": {"state": "paused", "volume_level": 0.2},
    "t1": {"state": "heat", "current_temperature": 21.4, "temperature": 22.0},
    "b1": {"state": "90"},
    "d1": {"state": "locked"},
    "s1": {"state": "off"},
    "l1": {"state": "on", "brightness": 128},
}
VACUUM_HOME = Turn(
    [Change("v1", "state", "cleaning", "returning"), Change("d1", "state", "unlocked", "locked")],
    AFTER2,
    HOME2,
    ROOMS2,
    scales={"volume_level": 100.0, "brightness": 100 / 255},
)
UNCHANGED2 = Turn([], AFTER2, HOME2, ROOMS2, scales=VACUUM_HOME.scales)


def _read2(reply: str, turn: Turn = VACUUM_HOME) -> list[tuple[str, str, list[str], str]]:
    return [(c.kind, c.says, c.devices, c.truth) for c in claims_in(reply, turn)]


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        # readings: the value a device shows, in the reply's rounding and the home's unit
        ("The living room is 21 degrees.", [("reading", "temperature 21 degrees", ["t1"], "true")]),
        (
            "The living room is 25 degrees.",
            [("reading", "temperature 25 degrees", ["t1"], "false")],
        ),
        ("The living room is 71°F.", [("reading", "temperature 71°F", ["t1"], "true")]),
        ("The thermostat is set to 22 °C.", [("reading", "temperature 22°C", ["t1"], "true")]),
        ("The front door lock battery is at 90%.", [("reading", "battery 90%", ["b1"], "true")]),
        (
            "The kitchen light is at 50% brightness.",
            [("reading", "brightness 50%", ["l1"], "true")],
        ),
        (
            "The kitchen light is at 80% brightness.",
            [("reading", "brightness 80%", ["l1"], "false")],
        ),
        ("The TV volume is 50%.", [("reading", "volume 50%", ["p1"], "true")]),
        (  # no device of the hall shows a humidity
            "The humidity in the hall is 45%.",
            [("reading", "humidity 45%", ["b1", "d1", "p2", "s1"], "unverifiable")],
        ),
        ("The TV is playing Blue in Green.", [("reading", "playing", ["p1"], "true")]),
        ("The TV is playing So What.", [("reading", "playing", ["p1"], "false")]),
        # near misses: a number that is no reading, a value set, a channel
        ("The kitchen light is 3 years old.", []),
        ("The TV is on channel 5.", []),
        ("I set the kitchen light to 50%.", [("action", "set", ["l1"], "false")]),  # unchanged
    ],
)
def test_readings_are_checked_against_the_values_shown(reply, claims):
    assert _read2(reply) == claims


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        # a vacuum sent home, music stopped by a pause, a track no device shows
        ("I've sent the Roborock back to its base.", [("action", "returning", ["v1"], "true")]),
        ("The Roborock has started cleaning.", [("action", "on", ["v1"], "false")]),
        ("Roborock returned to its dock.", [("action", "returning", ["v1"], "true")]),
        ("The bedroom speaker is stopped.", [("state", "stopped", ["p2"], "true")]),  # paused
        ("The TV is stopped.", [("state", "stopped", ["p1"], "false")]),
        ("I've skipped to the next track on the TV.", [("action", "track", ["p1"], "false")]),
        # the subject without an auxiliary must name a device
        ("The problem started yesterday.", []),
        ("Front door lock locked.", [("action", "locked", ["d1"], "true")]),
        # a door sensor's "off" is no lock state: the lock alone answers for "all locks"
        ("All locks have been locked.", [("action", "locked", ["d1"], "true")]),
        ("The front door lock was locked.", [("action", "locked", ["d1"], "true")]),
        # a failure said after the subject: not done
        ("The Roborock could not be sent back.", [("action", "not returning", ["v1"], "false")]),
        (
            "The front door lock is not able to unlock.",
            [("action", "not unlocked", ["d1"], "true")],
        ),
    ],
)
def test_wider_grammar_of_actions_and_states(reply, claims):
    assert _read2(reply) == claims


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        # Assist failing to parse "So set ...": an apology repeats the request, it claims nothing
        ("Sorry, I am not aware of any area called So set", [("action", "not set", [], "true")]),
        (
            "Sorry, I couldn't find a device called Kitchen Light.",
            [("action", "not set", ["l1"], "true")],
        ),
        (
            "There was an error while trying to unlock the front door lock.",
            [("action", "not unlocked", ["d1"], "true")],
        ),
        ("Unfortunately, I turned on the kitchen light.", []),  # no positive claim in an apology
        # near miss: "no problem" is no failure frame
        (
            "No problem, I've turned on the kitchen light.",
            [("action", "on", ["l1"], "false")],
        ),
        # the assistant's own errors and abilities: about the assistant, not the home
        ("Timeout (after 0 tries)", [("action", "error", [], "unverifiable")]),
        (
            "I'm sorry, but I don't have the capability to control devices.",
            [("action", "error", [], "unverifiable")],
        ),
        # offers, conditions and plans claim nothing; a reasoning model's thoughts neither
        ("If so, I'll unlock the front door lock.", []),
        ("To save energy, I will turn off the kitchen light. Should I?", []),
        (
            "<think>I turned on the kitchen light</think>The front door lock is locked.",
            [("state", "locked", ["d1"], "true")],
        ),
        # a bare OK claims it was done; beside a specific claim it is folded into it
        ("OK.", [("action", "done", [], "false")]),
        ("Sure.", []),  # near miss: an acknowledgement of the user claims nothing
        ("OK, the front door lock is locked.", [("state", "locked", ["d1"], "true")]),
        # "it" is the device of the claim before
        (
            "I locked the front door lock. It is locked now.",
            [("action", "locked", ["d1"], "false"), ("state", "locked", ["d1"], "true")],
        ),
    ],
)
def test_failures_offers_and_errors(reply, claims):
    assert _read2(reply, UNCHANGED2) == claims


def test_a_failure_beside_a_change_is_not_held_true():
    """A failure report that names nothing, after a turn that changed the home: it may be about
    another part of the request, so it is unverifiable, never false."""
    got = _read2("Sorry, I am not aware of any area called So set", VACUUM_HOME)
    assert got == [("action", "not set", [], "unverifiable")]


def test_a_false_reading_is_corrected_with_the_replys_words():
    from smh_core.bench.claims import correction

    claims = claims_in("The kitchen light is at 80% brightness.", VACUUM_HOME)
    assert correction(claims, VACUUM_HOME) == (
        "Correction: The kitchen light does not show brightness 80%."
    )
    assert correction(claims_in("The TV is playing So What.", VACUUM_HOME), VACUUM_HOME) == (
        "Correction: The TV is not playing that."
    )


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        # Markdown emphasis and a quoted one-word state are plain text
        ("The **front door lock** is 'locked'.", [("state", "locked", ["d1"], "true")]),
        # a relative clause is about the noun before it
        (
            "The only lock is the front door lock, which is currently locked.",
            [("state", "locked", ["d1"], "true")],
        ),
        # a second sentence after ", and": split only when it has a verb of its own
        (
            "The front door lock is locked, and the kitchen light is at 50% brightness.",
            [("state", "locked", ["d1"], "true"), ("reading", "brightness 50%", ["l1"], "true")],
        ),
        (  # near miss: a list of objects stays one claim per object
            "I've locked the front door lock, and the kitchen light.",
            [("action", "locked", ["d1"], "true"), ("action", "locked", ["l1"], "false")],
        ),
        ("The next song is playing on the TV.", [("state", "playing", ["p1"], "true")]),
        ("I can not unlock the front door lock.", [("action", "not unlocked", ["d1"], "true")]),
        ("The Roborock could not be found.", [("action", "not set", ["v1"], "false")]),
        # a possessive names the device, a colour temperature is no temperature
        ("The kitchen light's brightness is 50%.", [("reading", "brightness 50%", ["l1"], "true")]),
        (
            "The kitchen light's color temperature is 4000.",
            [("reading", "color temperature 4000", ["l1"], "unverifiable")],
        ),
    ],
)
def test_plain_text_relative_clauses_and_joined_sentences(reply, claims):
    assert _read2(reply) == claims


def test_matter_values_and_room_climate_are_read_as_a_reply_says_them():
    """Matter keeps hundredths of a degree (``TemperatureMeasurement.MeasuredValue`` 2150 is
    21.5 °C) and a 0-254 level; a room's own temperature is the simulator's ``@<room>``
    variable; limits (``MinMeasuredValue``) are no reading."""
    devices = [
        {"did": "f1", "name": "Freezer", "room": "kitchen", "category": "fridge", "tags": []},
        {"did": "m1", "name": "Desk Lamp", "room": "kitchen", "category": "light", "tags": []},
    ]
    rooms = [{"id": "kitchen", "name": "Kitchen", "type": "kitchen"}]
    after = {
        "f1": {
            "1.TemperatureMeasurement.MeasuredValue": -1850,
            "1.TemperatureMeasurement.MinMeasuredValue": -5000,
        },
        "m1": {"1.OnOff.OnOff": True, "1.LevelControl.CurrentLevel": 127},
        "@kitchen": {"temperature": 21.5, "humidity": 40.0},
    }
    turn = Turn([], after, devices, rooms)
    assert _read2("The freezer is at -18.5 °C.", turn)[0][3] == "true"
    assert _read2("The freezer is at -50 °C.", turn)[0][3] == "false"
    assert _read2("The desk lamp is at 50% brightness.", turn)[0][3] == "true"
    assert _read2("The temperature in the kitchen is 21.5 °C.", turn) == [
        ("reading", "temperature 21.5°C", ["@kitchen"], "true")
    ]
    assert _read2("The kitchen humidity is 60%.", turn)[0][3] == "false"


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        # a device said not to exist that the home lists: false
        ("There is no front door lock.", [("state", "absent", ["d1"], "false")]),
        ("Sorry, there's no lock in the hall.", [("state", "absent", ["d1"], "false")]),
        (
            "The kitchen light is not available in the system.",
            [("state", "absent", ["l1"], "false")],
        ),
        # "no other": false only with a second one
        ("There are no other locks.", [("state", "absent", [], "unverifiable")]),
        # near misses: a device the home does not list, a place or a match not found
        ("There is no garage door.", [("state", "absent", [], "unverifiable")]),
        ("There is no area called upstairs.", []),
        ("There is no match for the floor Living Room.", []),
        (  # the reason is its own claim beside the failure
            "I couldn't unlock the front door lock because there is no lock in the hall.",
            [("action", "not unlocked", ["d1"], "true"), ("state", "absent", ["d1"], "false")],
        ),
    ],
)
def test_a_device_said_absent_is_checked_against_the_listing(reply, claims):
    assert _read2(reply, UNCHANGED2) == claims


def test_a_kind_said_absent_from_a_room_it_is_not_in_is_true():
    """ "There is no TV in the kitchen": the home has a TV and a kitchen, none of its TVs is in
    the kitchen."""
    assert _read2("Sorry, there is no TV in the kitchen.", UNCHANGED2) == [
        ("state", "absent", ["p1"], "true")
    ]
    # near miss: a room the home does not have stays unverifiable
    assert _read2("There is no TV in the attic.", UNCHANGED2)[0][3] == "unverifiable"


@pytest.mark.parametrize(
    ("reply", "claims"),
    [
        # a name it did not know, beside a device that changed: no claim that nothing changed
        (
            "Sorry, I am not aware of any device called roborock music.",
            [("action", "not set", ["v1"], "unverifiable")],
        ),
        # what was added is before the verb, where it went after it
        (
            "The task to lock the front door lock has been added to the Roborock.",
            [("action", "set", ["v1"], "true")],
        ),
        # advice in the perfect is no claim; "not possible" is a failure frame
        ("To lock it, you should have added the front door lock to Home Assistant.", []),
        ("Skipping to the next track is not possible right now.", []),
        # a room alone is no device said absent
        ("There is no device in the hall that is classified as a heater.", []),
    ],
)
def test_echoed_names_advice_and_places_are_not_read_as_claims(reply, claims):
    assert _read2(reply) == claims


def test_a_runaway_reply_is_read_only_as_far_as_the_grammar_reads():
    """200,000 brackets (a model's runaway output) is no sentence: no claim is read from it,
    and the reader does not look past MAX_REPLY characters; a normal sentence after a runaway
    one is still read."""
    from smh_core.bench.claims import MAX_REPLY, MAX_SENTENCE, Turn, claims_in

    turn = Turn(changes=[], after={}, devices=[], rooms=[])
    assert claims_in("[" * 200_000 + "]" * 200_000, turn) == []
    long = "I turned on the lamp and " + "the lamp and " * (MAX_SENTENCE // 10) + "the fan."
    assert claims_in(long, turn) == []
    assert claims_in("x" * (MAX_REPLY + 10) + ". Done.", turn) == []
    after = claims_in("[" * (MAX_SENTENCE + 1) + ". Done.", turn)
    assert [c.kind for c in after] == ["action"]
