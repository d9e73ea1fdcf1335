"""The automation synthesizer against a fake OpenAI-compatible server and a simulated home."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from smh_core.agent.synthesizer import AutomationSynthesizer, parse_draft, validate_rule
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.rules import Rule
from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.sim.simulator import Simulator
from tests.support import sim_home as sh
from tests.support.fake_openai import FakeOpenAI

NOW = datetime(2025, 6, 27, 6, 0, 0)
LAMP_AT_7 = {
    "id": "lamp_7",
    "name": "Lamp on at 7",
    "triggers": [{"kind": "time", "cron": "0 0 7 * * ?"}],
    "actions": [{"did": "1001", "locator": "turn_on"}],
}


@pytest.fixture
def sim() -> Simulator:
    engine = sh.engine(
        sh.lamp("1001", "living"), sh.motion("2001", "living"), sh.ac("3001", "kitchen"), now=NOW
    )
    s = Simulator(engine)
    yield s
    s.close()


@pytest.fixture
def backend(sim: Simulator) -> EmbeddedBackend:
    return EmbeddedBackend(sim.engine, sim=sim)


def _synth(server: FakeOpenAI, **kw) -> AutomationSynthesizer:
    return AutomationSynthesizer(
        LLMClient(LLMConfig(base_url=server.base_url, model="m", api_key="k", max_retries=0)), **kw
    )


def _rule(**changes) -> dict:
    return {**LAMP_AT_7, **changes}


async def test_correct_draft_first_try(socket_enabled, backend) -> None:
    async with FakeOpenAI([{"content": json.dumps(LAMP_AT_7)}]) as server:
        result = await _synth(server).synthesize("turn the lamp on at 7 every morning", backend)
    assert (
        result.ok
        and result.tries == 1
        and result.errors == []
        and result.structured == "json_schema"
    )
    assert result.rule == Rule.model_validate(LAMP_AT_7)
    assert result.usage.calls == 1 and result.usage.total_tokens > 0
    request = server.requests[0]
    schema = request["response_format"]["json_schema"]["schema"]
    assert {"triggers", "actions"} <= set(schema["required"])
    system = request["messages"][0]["content"]
    assert "- 1001 | Lamp 1001 | living" in system and "attr level: int [1, 254] writable" in system
    assert "@living: temperature" in system and "2025-06-27T06:00:00" in system
    assert request["messages"][1] == {
        "role": "user",
        "content": "turn the lamp on at 7 every morning",
    }
    assert backend.list_automations() == []  # nothing stored by the synthesizer


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        (
            _rule(actions=[{"did": "1001", "locator": "switch_on"}]),
            "actions[0]: device 1001 has no service 'switch_on'",
        ),
        (
            _rule(triggers=[{"kind": "time", "cron": "0 0 7 * *"}]) | {"id": "x"},
            None,
        ),  # a valid Unix cron: accepted as is
        (
            _rule(triggers=[{"kind": "time", "cron": "0 61 7 * * ?"}]),
            "triggers[0]: cron '0 61 7 * * ?'",
        ),
        (
            _rule(triggers=[{"kind": "state", "did": "2001", "locator": "motion", "to": True}]),
            "triggers[0]: device 2001 has no attribute 'motion'; attributes: ['occupied']",
        ),
    ],
)
async def test_invalid_draft_gets_the_error_back(socket_enabled, backend, bad, error) -> None:
    async with FakeOpenAI(
        [{"content": json.dumps(bad)}, {"content": json.dumps(LAMP_AT_7)}]
    ) as server:
        result = await _synth(server).synthesize("lamp on at 7", backend)
    assert result.ok
    if error is None:
        assert result.tries == 1 and len(server.requests) == 1
        return
    assert result.tries == 2 and result.rule.id == "lamp_7"
    assert result.errors[0].startswith("try 1: " + error)
    second = server.requests[1]["messages"]
    assert second[2] == {"role": "assistant", "content": json.dumps(bad)}
    assert second[3]["role"] == "user" and error in second[3]["content"]


async def test_schema_errors_and_prose_are_repaired_or_reported(socket_enabled, backend) -> None:
    script = [
        {"content": '{"id": "r", "triggers": [], "actions": [{"did": "1001"}]}'},
        {"content": "Here it is:\n```json\n" + json.dumps({"rule": LAMP_AT_7}) + "\n```"},
    ]
    async with FakeOpenAI(script) as server:
        result = await _synth(server).synthesize("lamp on at 7", backend)
    assert result.ok and result.tries == 2
    feedback = server.requests[1]["messages"][-1]["content"]
    assert (
        "triggers: List should have at least 1 item" in feedback
        and "actions.0.locator: Field required" in feedback
    )
    assert result.repairs == ["extracted_json", "unwrapped_rule"]


async def test_max_tries_exhausted_is_a_clear_failure(socket_enabled, backend) -> None:
    bad = _rule(actions=[{"did": "1001", "locator": "level", "arguments": {"value": 999}}])
    async with FakeOpenAI(default={"content": json.dumps(bad)}) as server:
        result = await _synth(server, max_tries=2).synthesize("lamp to 999", backend)
    assert not result.ok and result.rule is None and result.tries == 2 and len(server.requests) == 2
    assert (
        "no valid rule after 2 tries" in result.failure and "level=999 is outside" in result.failure
    )
    assert len(result.errors) == 2 and result.usage.calls == 2
    assert result.to_dict()["rule"] is None
    assert backend.list_automations() == []


async def test_endpoint_without_structured_output_falls_back(socket_enabled, backend) -> None:
    async with FakeOpenAI(
        [{"content": json.dumps(LAMP_AT_7)}], refuse_formats={"json_schema"}, refusal_status=500
    ) as server:
        synth = _synth(server)
        result = await synth.synthesize("lamp on at 7", backend)
    assert result.ok and result.structured == "json_object" and synth.structured == "json_object"
    assert [r["response_format"]["type"] for r in server.refused] == ["json_schema"]
    assert server.requests[0]["response_format"]["type"] == "json_object"
    assert server.requests[0]["response_format"]["schema"]["required"]


async def test_synthesized_rule_runs_in_the_simulator_once(socket_enabled, backend, sim) -> None:
    async with FakeOpenAI([{"content": json.dumps(LAMP_AT_7)}]) as server:
        result = await _synth(server).synthesize("lamp on at 7", backend)
    stored = backend.create_automation(result.rule.model_dump(mode="json", by_alias=True))
    assert stored["ok"], stored
    sim.advance(3 * 3600)  # 06:00 -> 09:00: one 07:00
    assert sim.engine.value("1001", "on") is True
    fired = [e for e in sim.log if e.kind == "rule"]
    assert [(e.time, e.ok) for e in fired] == [(datetime(2025, 6, 27, 7, 0, 0), True)]


async def test_state_for_rule_runs_in_the_simulator(socket_enabled, backend, sim) -> None:
    rule = {
        "id": "off_when_empty",
        "name": "Lamp off after 10 min without motion",
        "triggers": [
            {"kind": "state", "did": "2001", "locator": "occupied", "to": False, "for_s": 600}
        ],
        "conditions": [{"kind": "state", "did": "1001", "locator": "on", "equals": True}],
        "actions": [{"did": "1001", "locator": "turn_off"}],
    }
    async with FakeOpenAI([{"content": json.dumps(rule)}]) as server:
        result = await _synth(server).synthesize(
            "lamp off when nobody is there for 10 minutes", backend
        )
    assert backend.create_automation(result.rule.model_dump(mode="json", by_alias=True))["ok"]
    backend.execute("1001", "turn_on", {})
    backend.execute("2001", "occupied", {"value": True})
    sim.advance(60)
    backend.execute("2001", "occupied", {"value": False})
    sim.advance(599)
    assert sim.engine.value("1001", "on") is True
    sim.advance(2)
    assert sim.engine.value("1001", "on") is False
    assert len([e for e in sim.log if e.kind == "rule"]) == 1


def test_validate_rule_is_usable_alone(backend) -> None:
    rule = Rule.model_validate(
        {
            "id": "r",
            "triggers": [
                {"kind": "time", "cron": "0 0 22 27 6 ? 2024"},
                {"kind": "numeric", "did": "@living", "locator": "temperature", "above": 30},
                {"kind": "numeric", "did": "@attic", "locator": "temperature", "above": 30},
                {"kind": "numeric", "did": "3001", "locator": "fan", "above": 100},
            ],
            "conditions": [
                {"kind": "time", "after": "25:00"},
                {"kind": "state", "did": "3001", "locator": "mode", "in": [3, 5]},
            ],
            "actions": [
                {"did": "3001", "locator": "cool_setpoint", "arguments": {"value": 2450}},
                {"did": "3001", "locator": "turn_on", "arguments": {"speed": 1}},
                {"did": "9999", "locator": "turn_on"},
            ],
        }
    )
    assert validate_rule(rule, backend, NOW) == [
        "triggers[0]: cron '0 0 22 27 6 ? 2024' never fires after 2025-06-27T06:00:00",
        "triggers[2]: no room 'attic' with sensed climate; rooms: ['living', 'kitchen']",
        "triggers[3]: the band never holds: values are in [0, 100]",
        "conditions[0].after: '25:00' is not a time of day (HH:MM or HH:MM:SS)",
        "conditions[1]: in[1]=5 is not one of 0, 3, 4",
        "actions[1]: 3001/turn_on takes no argument 'speed'; arguments: []",
        "actions[2]: unknown device '9999'; devices: 1001 (Lamp 1001), 2001 (Motion 2001), 3001 (AC 3001)",
    ]
    assert validate_rule(Rule.model_validate(LAMP_AT_7), backend) == []


def test_parse_draft_reports_non_json() -> None:
    rule, errors = parse_draft("I set it up for you.", [])
    assert rule is None and errors == [
        "the reply holds no JSON object; reply with the rule as one JSON object"
    ]


async def test_a_rule_that_unlocks_later_needs_the_same_consent(socket_enabled) -> None:
    """A drafted rule whose action is high-risk is flagged (``consent``: the guard's question)
    unless the request itself asks for that action on that device."""
    from smh_core.agent.safety import ActionGuard
    from smh_core.homeenv.engine import HomeEngine
    from smh_core.homes.generator import generate_home

    home = EmbeddedBackend(HomeEngine(generate_home("complex", 0)))
    lock = next(d["did"] for d in home.list_devices() if d["category"] == "lock")
    rule = {
        "id": "night",
        "name": "Night",
        "triggers": [{"kind": "time", "cron": "0 0 1 * * ?"}],
        "actions": [{"did": lock, "locator": "open"}],
    }
    for request, asked in (
        ("every night at 1:00 turn on the hallway light", False),
        ("Every night at 1:00 unlock the foyer door", True),
    ):
        async with FakeOpenAI([{"content": json.dumps(rule)}]) as server:
            result = await _synth(server).synthesize(request, home, guard=ActionGuard([request]))
        assert result.ok
        if asked:
            assert result.consent is None
        else:
            assert result.consent["error"]["code"] == "needs_confirmation"
            assert (
                result.consent["error"]["prompt"]
                == "Unlock “Foyer Door Lock” in Foyer? Say yes to confirm."
            )
    assert home.list_automations() == []
