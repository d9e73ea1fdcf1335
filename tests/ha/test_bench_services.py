"""smh.load_task and smh.verify: the benchmark's task cycle inside Home Assistant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError

from custom_components.smh.const import DOMAIN

TASKS = {
    json.loads(x)["id"]: json.loads(x)
    for x in (Path(__file__).parent.parent / "fixtures" / "tasks_tiny.jsonl")
    .read_text()
    .splitlines()
}


async def _call(hass: HomeAssistant, service: str, data: dict) -> dict:
    return await hass.services.async_call(
        DOMAIN, service, data, blocking=True, return_response=True
    )


async def test_load_act_verify(hass: HomeAssistant, tiny_entry) -> None:
    engine = tiny_entry.runtime_data.engine
    await _call(
        hass, "execute", {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "heat"}}
    )
    loaded = await _call(hass, "load_task", {"task": TASKS["exec-2"]})
    assert loaded == {
        "task_id": "exec-2",
        "turns": ["Bathroom fan to high and the kitchen AC to 22."],
    }
    assert engine.value("1003", "ac_mode") == "cool"  # back to the home's initial state
    assert engine.value("1002", "fan.state") == "on"  # the task's override
    failed = await _call(hass, "verify", {"response": "ok"})
    assert (
        failed["passed"] is False and failed["error_class"] == "DC" and "no-op" in failed["reason"]
    )
    for action in TASKS["exec-2"]["reference"]["actions"]:
        await _call(hass, "execute", action)
    passed = await _call(hass, "verify", {"response": "Done."})
    assert passed["passed"] is True and passed["task_id"] == "exec-2"


async def test_a_multi_goal_task_through_verify(hass: HomeAssistant, tiny_entry) -> None:
    task = {
        **{k: v for k, v in TASKS["exec-1"].items() if k != "goal"},
        "goals": [
            {"kind": "execute", "critic": "device(1001).state == on"},
            {"kind": "infeasible", "reason": "there is no garage window"},
        ],
    }
    await _call(hass, "load_task", {"task": task})
    await _call(hass, "execute", {"did": "1001", "locator": "turn_on"})
    half = await _call(hass, "verify", {"response": "Done."})
    assert half["passed"] is False and half["error_class"] == "CB"
    passed = await _call(
        hass, "verify", {"response": "The lamp is on; I can't open a garage window, there is none."}
    )
    assert passed["passed"] is True


async def test_query_task_through_verify(hass: HomeAssistant, tiny_entry) -> None:
    await _call(hass, "load_task", {"task": TASKS["query-2"]})
    assert (await _call(hass, "verify", {"response": "It is in cool mode."}))["passed"] is True
    assert (await _call(hass, "verify", {"response": "It is heating."}))["error_class"] == "EP"


@pytest.mark.parametrize(
    ("task", "key", "fragment"),
    [
        ({**TASKS["exec-1"], "home": {"level": "simple", "seed": 3}}, "other_home", "simple:3"),
        ({**TASKS["exec-1"], "difficulty": "extreme"}, "bad_task", "difficulty"),
        (
            {**TASKS["exec-1"], "overrides": [{"did": "1001", "values": {"brightness": 500}}]},
            "engine_error",
            "out_of_range",
        ),
        (
            {**TASKS["exec-1"], "climate": {"outdoor": {"temperature": 30}}},
            "bad_task",
            "embedded runner only",
        ),
    ],
)
async def test_bad_tasks_are_refused(hass: HomeAssistant, tiny_entry, task, key, fragment) -> None:
    before = tiny_entry.runtime_data.engine.snapshot()
    with pytest.raises(ServiceValidationError) as exc:
        await _call(hass, "load_task", {"task": task})
    assert exc.value.translation_key == key
    assert fragment in " ".join(exc.value.translation_placeholders.values())
    if key != "engine_error":
        assert (
            tiny_entry.runtime_data.engine.diff(before, tiny_entry.runtime_data.engine.snapshot())
            == []
        )


async def test_verify_needs_a_loaded_task(hass: HomeAssistant, tiny_entry) -> None:
    with pytest.raises(ServiceValidationError) as exc:
        await _call(hass, "verify", {})
    assert exc.value.translation_key == "no_task"


async def test_verify_checks_what_the_reply_claims(hass: HomeAssistant, tiny_entry) -> None:
    """Said versus did (issue 38) inside HA, as the embedded runner records it: a reply that
    claims an action the turn did not make is a false claim beside its verdict; once the action
    is made, the same words are true."""
    await _call(hass, "load_task", {"task": TASKS["exec-1"]})
    lied = await _call(hass, "verify", {"response": "I've turned on the bedroom lamp."})
    assert lied["passed"] is False and lied["false_claims"] == 1
    assert [c["truth"] for c in lied["claims"]] == ["false"]
    await _call(hass, "execute", {"did": "1001", "locator": "turn_on"})
    told = await _call(hass, "verify", {"response": "I've turned on the bedroom lamp."})
    assert told["false_claims"] == 0 and [c["truth"] for c in told["claims"]] == ["true"]
    silent = await _call(hass, "verify", {"response": ""})
    assert "claims" not in silent


async def test_a_claim_without_a_trace_is_false_only_where_the_state_contradicts_it(
    hass: HomeAssistant, tiny_entry
) -> None:
    """HA's own agents report no calls: "turned on" of a lamp that was on already may be a call
    that went through (unverifiable), where the same words with the turn's calls given (none)
    are false; a bare "Done." with nothing changed is unverifiable without the calls too."""
    task = {**TASKS["exec-1"], "overrides": [{"did": "1001", "values": {"state": "on"}}]}
    await _call(hass, "load_task", {"task": task})
    assert tiny_entry.runtime_data.engine.value("1001", "state") == "on"
    said = {"response": "I've turned on the bedroom lamp."}
    untraced = await _call(hass, "verify", said)
    assert [c["truth"] for c in untraced["claims"]] == ["unverifiable"]
    traced = await _call(hass, "verify", {**said, "tool_calls": []})
    assert [c["truth"] for c in traced["claims"]] == ["false"] and traced["false_claims"] == 1
    done = await _call(hass, "verify", {"response": "Done."})
    assert [c["truth"] for c in done["claims"]] == ["unverifiable"]
    done_traced = await _call(hass, "verify", {"response": "Done.", "tool_calls": []})
    assert [c["truth"] for c in done_traced["claims"]] == ["false"]
