"""``smh.call_tools`` runs recorded LLM tool calls through HA's Assist API against SMH's
entities, the way a conversation agent's chat log runs them: intents match names and areas,
errors come back as results, and non-admins are refused."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError, Unauthorized

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry


def _home() -> Home:
    rooms = [Room(id="kitchen", type="kitchen", name="Kitchen"), Room(id="hall", type="hall", name="Hall")]
    return Home(rooms=rooms, devices=[
        instantiate("light", did="light.kitchen_light", room="kitchen", name="Kitchen Light"),
        instantiate("smart_lock", did="lock.front_door", room="hall", name="Front Door", values={"state": "unlocked"}),
    ])


async def _setup(hass: HomeAssistant) -> None:
    """The home, every entity exposed to Assist (locks are not by default; the source's
    synthetic homes expose everything)."""
    from homeassistant.components.homeassistant.exposed_entities import async_expose_entity

    await setup_home_entry(hass, _home())
    for entity_id in hass.states.async_entity_ids():
        async_expose_entity(hass, "conversation", entity_id, True)


async def _call(hass: HomeAssistant, calls: list[dict], **data) -> dict:
    return await hass.services.async_call("smh", "call_tools", {"calls": calls, **data}, blocking=True,
                                          return_response=True)


async def test_intents_act_on_smh_entities_by_name(hass: HomeAssistant, conversation: None) -> None:
    await _setup(hass)
    out = await _call(hass, [
        {"tool": "HassTurnOn", "arguments": {"name": "Kitchen Light", "domain": ["light"]}},
        {"tool": "HassTurnOn", "arguments": {"name": "Front Door", "domain": ["lock"]}},
    ])
    assert out["api"] == "assist" and "HassTurnOn" in out["tools"]
    first, second = (r["result"] for r in out["results"])
    assert first["response_type"] == "action_done"
    assert [t["id"] for t in first["data"]["success"]] == ["light.kitchen_light"]
    assert [t["id"] for t in second["data"]["success"]] == ["lock.front_door"]
    assert hass.states.get("light.kitchen_light").state == "on"
    assert hass.states.get("lock.front_door").state == "locked"


async def test_errors_are_results_and_the_replay_goes_on(hass: HomeAssistant, conversation: None) -> None:
    await _setup(hass)
    out = await _call(hass, [
        {"tool": "HassTurnOn", "arguments": {"name": "Attic Light"}},  # no such name
        {"tool": "NoSuchTool", "arguments": {}},
        {"tool": "HassTurnOn", "arguments": {"area": "Kitchen", "domain": ["light"]}},
    ])
    missing, unknown, by_area = (r["result"] for r in out["results"])
    assert missing["error"] == "MatchFailedError"
    assert unknown == {"error": "HomeAssistantError", "error_text": 'Tool "NoSuchTool" not found'}
    assert [t["id"] for t in by_area["data"]["success"] if t["type"] == "entity"] == ["light.kitchen_light"]
    assert hass.states.get("light.kitchen_light").state == "on"


async def test_an_unknown_api_is_refused(hass: HomeAssistant, conversation: None) -> None:
    await _setup(hass)
    with pytest.raises(ServiceValidationError, match="No LLM API nope"):
        await _call(hass, [{"tool": "HassTurnOn", "arguments": {}}], api="nope")
    assert hass.states.get("light.kitchen_light").state == "off"


async def test_non_admins_are_refused(hass: HomeAssistant, conversation: None, hass_read_only_user) -> None:
    from homeassistant.core import Context

    await _setup(hass)
    with pytest.raises(Unauthorized):
        await hass.services.async_call("smh", "call_tools", {"calls": [
            {"tool": "HassTurnOn", "arguments": {"name": "Kitchen Light"}}]}, blocking=True,
            return_response=True, context=Context(user_id=hass_read_only_user.id))
    assert hass.states.get("light.kitchen_light").state == "off"
