"""``smh.call_tools`` runs recorded LLM tool calls through HA's Assist API against SMH's
entities, the way a conversation agent's chat log runs them: intents match names and areas,
errors come back as results, and non-admins are refused."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError, Unauthorized

from custom_components.smh.compat import tool_result
from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry


def _home() -> Home:
    rooms = [
        Room(id="kitchen", type="kitchen", name="Kitchen"),
        Room(id="hall", type="hall", name="Hall"),
    ]
    return Home(
        rooms=rooms,
        devices=[
            instantiate("light", did="light.kitchen_light", room="kitchen", name="Kitchen Light"),
            instantiate(
                "smart_lock",
                did="lock.front_door",
                room="hall",
                name="Front Door",
                values={"state": "unlocked"},
            ),
        ],
    )


async def _setup(hass: HomeAssistant) -> None:
    """The home, every entity exposed to Assist (locks are not by default; the source's
    synthetic homes expose everything)."""
    from homeassistant.components.homeassistant.exposed_entities import async_expose_entity

    await setup_home_entry(hass, _home())
    for entity_id in hass.states.async_entity_ids():
        async_expose_entity(hass, "conversation", entity_id, True)


async def _call(hass: HomeAssistant, calls: list[dict], **data) -> dict:
    return await hass.services.async_call(
        "smh", "call_tools", {"calls": calls, **data}, blocking=True, return_response=True
    )


async def test_intents_act_on_smh_entities_by_name(hass: HomeAssistant, conversation: None) -> None:
    await _setup(hass)
    out = await _call(
        hass,
        [
            {"tool": "HassTurnOn", "arguments": {"name": "Kitchen Light", "domain": ["light"]}},
            {"tool": "HassTurnOn", "arguments": {"name": "Front Door", "domain": ["lock"]}},
        ],
    )
    assert out["api"] == "assist"
    for r in out["results"]:  # HA 2026.10+ names the tool intent__HassTurnOn, 2026.2 HassTurnOn
        assert r["tool"] == "HassTurnOn" and r["called"] in out["tools"]
        assert r["called"] in ("HassTurnOn", "intent__HassTurnOn")
    first, second = (r["result"] for r in out["results"])
    assert first["response_type"] == "action_done"
    assert [t["id"] for t in first["data"]["success"]] == ["light.kitchen_light"]
    assert [t["id"] for t in second["data"]["success"]] == ["lock.front_door"]
    assert hass.states.get("light.kitchen_light").state == "on"
    assert hass.states.get("lock.front_door").state == "locked"


async def test_errors_are_results_and_the_replay_goes_on(
    hass: HomeAssistant, conversation: None
) -> None:
    await _setup(hass)
    out = await _call(
        hass,
        [
            {"tool": "HassTurnOn", "arguments": {"name": "Attic Light"}},  # no such name
            {"tool": "NoSuchTool", "arguments": {}},
            {"tool": "HassTurnOn", "arguments": {"area": "Kitchen", "domain": ["light"]}},
        ],
    )
    missing, unknown, by_area = (r["result"] for r in out["results"])
    assert missing["error"] == "MatchFailedError" and missing["reason"] == "NAME"
    assert unknown == {"error": "HomeAssistantError", "error_text": 'Tool "NoSuchTool" not found'}
    assert [t["id"] for t in by_area["data"]["success"] if t["type"] == "entity"] == [
        "light.kitchen_light"
    ]
    assert hass.states.get("light.kitchen_light").state == "on"


class _Echo:
    """A tool answering with its own name (``integration`` named, as HA 2026.10+ asks)."""

    integration = "smh"
    description = "echo"

    def __init__(self, name: str) -> None:
        self.name = name

    async def async_call(self, hass, tool_input, llm_context):
        return tool_result({"ok": True, "tool": self.name})


def _register_api(hass: HomeAssistant, names: list[str]) -> None:
    from homeassistant.helpers import llm

    class EchoAPI(llm.API):
        async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
            tools = [type("EchoTool", (_Echo, llm.Tool), {})(n) for n in names]
            return llm.APIInstance(api=self, api_prompt="", llm_context=llm_context, tools=tools)

    llm.async_register_api(hass, EchoAPI(hass=hass, id="echo", name="Echo"))


async def test_a_recorded_name_finds_its_tool_on_any_release(
    hass: HomeAssistant, conversation: None
) -> None:
    """Exact name first; else the one tool namespaced by its integration; else the bare tool a
    namespaced name means; two namespaced candidates are an error result, and the rest runs."""
    await _setup(hass)
    _register_api(hass, ["Ping", "light__Ping", "intent__Set", "a__Both", "b__Both", "Bare"])
    out = await _call(
        hass,
        [{"tool": t, "arguments": {}} for t in ("Ping", "Set", "Both", "x__Bare", "Gone")],
        api="echo",
    )
    assert [(r["tool"], r["called"]) for r in out["results"]] == [
        ("Ping", "Ping"),
        ("Set", "intent__Set"),
        ("Both", "Both"),
        ("x__Bare", "Bare"),
        ("Gone", "Gone"),
    ]
    ping, set_, both, bare, gone = (r["result"] for r in out["results"])
    assert (ping["tool"], set_["tool"], bare["tool"]) == ("Ping", "intent__Set", "Bare")
    assert both == {
        "error": "HomeAssistantError",
        "error_text": 'Tool "Both" is ambiguous: a__Both, b__Both',
    }
    assert gone == {"error": "HomeAssistantError", "error_text": 'Tool "Gone" not found'}


async def test_an_unknown_api_is_refused(hass: HomeAssistant, conversation: None) -> None:
    await _setup(hass)
    with pytest.raises(ServiceValidationError, match="No LLM API nope"):
        await _call(hass, [{"tool": "HassTurnOn", "arguments": {}}], api="nope")
    assert hass.states.get("light.kitchen_light").state == "off"


async def test_non_admins_are_refused(
    hass: HomeAssistant, conversation: None, hass_read_only_user
) -> None:
    from homeassistant.core import Context

    await _setup(hass)
    with pytest.raises(Unauthorized):
        await hass.services.async_call(
            "smh",
            "call_tools",
            {"calls": [{"tool": "HassTurnOn", "arguments": {"name": "Kitchen Light"}}]},
            blocking=True,
            return_response=True,
            context=Context(user_id=hass_read_only_user.id),
        )
    assert hass.states.get("light.kitchen_light").state == "off"
