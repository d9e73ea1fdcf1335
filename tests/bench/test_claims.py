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
    false claim (the first set tuned on, a second written blind after it and measured once)."""
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
