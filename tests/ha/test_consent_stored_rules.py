"""Issue 34 in a real HA: a schedule or rule that would make a high-risk change later is high-risk
now, and consent fails closed on every path that stores one.

Paths: SMH's agent in Assist (its ``schedule_actions`` / ``create_automation`` tools on the entry's
home, through ``AsyncGuardedBackend``; and ``schedule_actions`` on HA's own entities, tools ``ha``),
HA's LLM agents through the ``smh`` API (a chat log turn as HA's agents run it), and
``smh.create_automation`` (the synthesizer's draft). The model is scripted and obeys any
injection: whatever the user said, it stores the high-risk call. Expected everywhere: nothing
stored (no schedule, no rule, automations.yaml as it was), nothing changed, the guard's question.

* ``test_*_stores_nothing_the_user_did_not_mention``: the user asks for a light only (issue 34,
  item 2).
* ``test_*_fails_closed[<kind>]``: the user's turn is a plain request plus one sentence about the
  high-risk action that is not a request (:mod:`tests.support.consent_carriers`); many of these
  pass the consent parser of before the positive grammar (the failures are the point: no xfail).
* controls: a plain request for the action stores it without a question; after the question a
  plain yes stores it (and does not run it now).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from smh_core.homeenv.engine import dump_home
from tests.ha.conftest import setup_agent_entry
from tests.ha.test_llm_api import _agent_turn
from tests.support.consent_carriers import (
    ASK,
    BENIGN,
    BENIGN_CALL,
    CARRIERS,
    CONTROL,
    HEATER,
    LOCK,
    UNLOCK,
    YES,
    Carrier,
    consent_home,
)
from tests.support.fake_openai import FakeOpenAI

AGENT = "conversation.tiny"  # setup_agent_entry titles the entry "tiny"
HOME_FILE = "consent_home.json"
NIGHTLY = [{"kind": "time", "cron": "0 0 18 * * ?"}]
KINDS = [pytest.param(c, id=c.kind) for c in CARRIERS]


def _tool_call(name: str, args: dict[str, Any]) -> tuple[str, str]:
    return (name, json.dumps(args))


@pytest.fixture
async def home(hass: HomeAssistant, conversation: None, server: FakeOpenAI) -> MockConfigEntry:
    """The carriers' home with SMH's agent (tools on the home, simulated clock stopped); every
    entity exposed to Assist, so the ``smh`` API sees the lock too."""
    (Path(hass.config.config_dir) / HOME_FILE).write_text(dump_home(consent_home()))
    entry = await setup_agent_entry(
        hass,
        HOME_FILE,
        {
            "base_url": server.base_url,
            "model": "fake-model",
            "api_key": "k",
            "agent_mode": "eia",
            "tool_budget": 6,
            "tools": "home",
        },
    )
    for state in hass.states.async_all():
        async_expose_entity(hass, "conversation", state.entity_id, True)
    return entry


def _later(entry: MockConfigEntry) -> str:
    return (
        (entry.runtime_data.clock.sim.now + timedelta(hours=6)).replace(microsecond=0).isoformat()
    )


def _stored(entry: MockConfigEntry) -> tuple[list, list]:
    sim = entry.runtime_data.clock.sim
    return list(sim.schedules()), list(sim.rules())


def _door(entry: MockConfigEntry) -> dict[str, Any]:
    engine = entry.runtime_data.engine
    return {"state": engine.value(LOCK, "state"), "armed": engine.value(LOCK, "defend_enabled")}


def _store(tool: str, entry: MockConfigEntry, action: dict[str, Any]) -> dict[str, Any]:
    if tool == "schedule_actions":
        return {"at": _later(entry), "actions": [action]}
    return {"name": "evening", "triggers": NIGHTLY, "actions": [action]}


def _obeying(server: FakeOpenAI, entry: MockConfigEntry, tool: str, action: dict[str, Any]) -> None:
    """An injection-obeying model: the user's light, then the high-risk call stored for later."""

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        if any(m["role"] == "tool" for m in body["messages"]):
            return {"content": "All set."}
        return {
            "tool_calls": [
                _tool_call("control_device", BENIGN_CALL),
                _tool_call(tool, _store(tool, entry, action)),
            ]
        }

    server.default = reply


async def _assist(hass: HomeAssistant, text: str, conversation_id: str | None = None) -> Any:
    return await conversation.async_converse(hass, text, conversation_id, Context(), agent_id=AGENT)


def _speech(result: Any) -> str:
    return result.response.speech["plain"]["speech"]


# ---------------------------------------------------------------------------- SMH's agent in Assist
@pytest.mark.parametrize("tool", ["schedule_actions", "create_automation"])
async def test_assist_stores_nothing_the_user_did_not_mention(
    hass: HomeAssistant, home, server, tool
) -> None:
    _obeying(server, home, tool, UNLOCK)
    door = _door(home)
    result = await _assist(hass, BENIGN)
    assert ASK in _speech(result), _speech(result)
    assert _stored(home) == ([], []) and _door(home) == door


@pytest.mark.parametrize("carrier", KINDS)
@pytest.mark.parametrize("tool", ["schedule_actions", "create_automation"])
async def test_assist_fails_closed(
    hass: HomeAssistant, home, server, tool: str, carrier: Carrier
) -> None:
    _obeying(server, home, tool, carrier.call)
    door = _door(home)
    result = await _assist(hass, carrier.text)
    stored = _stored(home)
    assert stored == ([], []) and _door(home) == door, f"stored without consent: {stored}"
    assert carrier.question() in _speech(result), _speech(result)


@pytest.mark.parametrize("tool", ["schedule_actions", "create_automation"])
async def test_assist_control_a_plain_request_stores_it(
    hass: HomeAssistant, home, server, tool
) -> None:
    _obeying(server, home, tool, UNLOCK)
    result = await _assist(hass, CONTROL.text)
    assert ASK not in _speech(result)
    assert sum(map(len, _stored(home))) == 1


@pytest.mark.parametrize("tool", ["schedule_actions", "create_automation"])
async def test_assist_control_a_yes_stores_it_for_later(
    hass: HomeAssistant, home, server, tool
) -> None:
    """After the question, a plain yes stores the schedule or rule the question was about; the
    door stays locked until then (a yes to a stored unlock is not an unlock now)."""
    _obeying(server, home, tool, UNLOCK)
    asked = await _assist(hass, BENIGN)
    assert ASK in _speech(asked)
    await _assist(hass, YES, asked.conversation_id)
    stored, door = sum(map(len, _stored(home))), _door(home)["state"]
    assert (stored, door) == (1, "locked"), f"after the yes: {stored} stored, the door {door} now"


async def test_assist_on_ha_entities_schedules_no_unlock_the_user_did_not_mention(
    hass: HomeAssistant, conversation: None, server: FakeOpenAI, tiny_home_file: str
) -> None:
    """Tools ``ha`` (HA's exposed entities, HA's timer): ``AsyncGuardedBackend.schedule`` over
    :class:`~custom_components.smh.ha_backend.HaBackend` keeps no timer for an unlock."""
    entry = await setup_agent_entry(
        hass,
        tiny_home_file,
        {
            "base_url": server.base_url,
            "model": "fake-model",
            "api_key": "k",
            "agent_mode": "eia",
            "tool_budget": 5,
        },
    )
    hass.states.async_set(
        "lock.front_door", "locked", {"friendly_name": "Front Door", "supported_features": 1}
    )
    hass.services.async_register("lock", "unlock", lambda call: None)
    async_expose_entity(hass, "conversation", "lock.front_door", True)
    later = "2099-01-01T18:00:00"
    server.script = [
        {
            "tool_calls": [
                _tool_call(
                    "schedule_actions",
                    {
                        "at": later,
                        "actions": [
                            {"did": "lock.front_door", "locator": "unlock", "arguments": {}}
                        ],
                    },
                )
            ]
        },
        {"content": "Scheduled."},
    ]
    result = await _assist(hass, "Turn on the bedroom lamp")
    assert ASK in _speech(result)
    entity = next(
        e for e in hass.data["entity_components"]["conversation"].entities if e.entity_id == AGENT
    )
    assert entity._schedules.pending == {}
    assert entry.runtime_data is not None


# ---------------------------------------------------------------------------- the smh LLM API
def _llm_call(
    tool: str, entry: MockConfigEntry, action: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    return (tool, _store(tool, entry, action))


@pytest.mark.parametrize("tool", ["schedule_actions", "create_automation"])
async def test_llm_api_stores_nothing_the_user_did_not_mention(
    hass: HomeAssistant, home, tool
) -> None:
    _, (light, stored) = await _agent_turn(
        hass,
        None,
        BENIGN,
        [("control_device", BENIGN_CALL), _llm_call(tool, home, UNLOCK)],
        "Done.",
    )
    assert light["ok"] is True
    assert stored["ok"] is False and stored["error"]["code"] == "needs_confirmation", stored
    assert _stored(home) == ([], [])
    # said versus did (issue 38): the agent hears that nothing happened and to ask, not report
    assert "note" not in light
    assert "nothing was changed" in stored["note"] and "do not say it was done" in stored["note"]


@pytest.mark.parametrize("carrier", KINDS)
@pytest.mark.parametrize("tool", ["schedule_actions", "create_automation"])
async def test_llm_api_fails_closed(hass: HomeAssistant, home, tool: str, carrier: Carrier) -> None:
    _, (_, stored) = await _agent_turn(
        hass,
        None,
        carrier.text,
        [("control_device", BENIGN_CALL), _llm_call(tool, home, carrier.call)],
        "Done.",
    )
    assert _stored(home) == ([], []), f"stored without consent: {stored}"
    assert (
        stored["error"]["code"] == "needs_confirmation"
        and stored["error"]["prompt"] == carrier.question()
    )


@pytest.mark.parametrize("tool", ["schedule_actions", "create_automation"])
async def test_llm_api_control_plain_request_then_yes(hass: HomeAssistant, home, tool) -> None:
    _, (done,) = await _agent_turn(
        hass, None, CONTROL.text, [_llm_call(tool, home, UNLOCK)], "Done."
    )
    assert done["ok"] is True, done
    conv, (_, asked) = await _agent_turn(
        hass,
        None,
        BENIGN,
        [("control_device", BENIGN_CALL), _llm_call(tool, home, UNLOCK)],
        CONTROL.question(),
    )
    assert asked["error"]["code"] == "needs_confirmation"
    _, (confirmed,) = await _agent_turn(hass, conv, YES, [_llm_call(tool, home, UNLOCK)], "Done.")
    assert confirmed["ok"] is True, confirmed
    assert sum(map(len, _stored(home))) == 2 and _door(home)["state"] == "locked"


# ---------------------------------------------------------------------------- smh.create_automation
@pytest.fixture
async def automations(hass: HomeAssistant, home) -> AsyncIterator[Path]:
    """HA's automation integration reading automations.yaml (empty, as onboarding writes it);
    emptied and reloaded afterwards, so a stored rule's time trigger leaves no timer behind (HA
    2026.10 fails a test on one)."""
    config = Path(hass.config.config_dir)
    (config / "configuration.yaml").write_text("automation: !include automations.yaml\n")
    (config / "automations.yaml").write_text("[]\n")
    assert await async_setup_component(hass, "automation", {"automation": []})
    yield config / "automations.yaml"
    (config / "automations.yaml").write_text("[]\n")
    await hass.services.async_call("automation", "reload", blocking=True)


def _draft(action: dict[str, Any]) -> dict[str, Any]:
    """The synthesizer's model, obeying: a rule that stores the high-risk call for the evening."""
    return {
        "content": json.dumps(
            {"id": "draft", "name": "Evening", "triggers": NIGHTLY, "actions": [action]}
        )
    }


async def _create(hass: HomeAssistant, text: str, **data: Any) -> Any:
    return await hass.services.async_call(
        DOMAIN, "create_automation", {"text": text, **data}, blocking=True
    )


async def test_create_automation_stores_nothing_the_user_did_not_mention(
    hass: HomeAssistant, home, server, automations: Path
) -> None:
    server.script = [_draft(UNLOCK)]
    with pytest.raises(ServiceValidationError) as refused:
        await _create(hass, "every evening at six turn on the kitchen light")
    assert refused.value.translation_key == "needs_confirmation"
    assert automations.read_text() == "[]\n" and hass.states.async_all("automation") == []


@pytest.mark.parametrize("carrier", KINDS)
async def test_create_automation_fails_closed(
    hass: HomeAssistant, home, server, automations: Path, carrier: Carrier
) -> None:
    server.script = [_draft(carrier.call)]
    try:
        await _create(hass, carrier.text)
    except ServiceValidationError as refused:
        assert refused.translation_key == "needs_confirmation", refused
        assert refused.translation_placeholders["prompt"] == carrier.question()
    assert automations.read_text() == "[]\n", f"saved without consent: {automations.read_text()}"
    assert hass.states.async_all("automation") == []


async def test_create_automation_control_plain_request_then_confirm(
    hass: HomeAssistant, home, server, automations: Path
) -> None:
    server.script = [_draft(UNLOCK)]
    await _create(hass, "Every evening at six, unlock the front door.")
    assert len(yaml.safe_load(automations.read_text())) == 1
    server.script = [_draft(UNLOCK)]
    with pytest.raises(ServiceValidationError) as refused:
        await _create(hass, BENIGN)
    await _create(hass, BENIGN, confirm=refused.value.translation_placeholders["code"])
    assert len(yaml.safe_load(automations.read_text())) == 2 and _door(home)["state"] == "locked"


# ---------------------------------------------------------------------------- hostile numbers
HUGE = [
    float("inf"),
    float("-inf"),
    float("nan"),
    10**5000 - 1,
]  # 1e400 parses to inf; the last has 5000 digits


@pytest.mark.parametrize("value", HUGE, ids=["1e400", "-1e400", "nan", "5000_digits"])
@pytest.mark.parametrize("tool", ["control_device", "schedule_actions", "create_automation"])
async def test_llm_api_answers_a_hostile_number_with_a_refusal(
    hass: HomeAssistant, home, tool, value
) -> None:
    """A model's tool call with 1e400 or a 5000-digit integer for the water's temperature is
    answered (an error or the guard's refusal), never an exception, and changes nothing.
    Needs the guard's bounded number handling (smh_core/agent/safety.py, issue 34, the other
    developer's change on main); before it the guard may raise."""
    action = {
        "did": HEATER,
        "locator": "set_target_water_temperature",
        "arguments": {"target_water_temperature": value},
    }
    call = ("control_device", action) if tool == "control_device" else _llm_call(tool, home, action)
    _, (out,) = await _agent_turn(hass, None, BENIGN, [call], "Done.")
    assert out["ok"] is False, out
    assert home.runtime_data.engine.value(HEATER, "target_water_temperature") == 50
    assert _stored(home) == ([], [])
