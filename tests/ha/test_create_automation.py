"""``smh.create_automation``: words -> a validated HA automation, saved, loaded and running.

Real HA (automation integration reading this test's configuration.yaml), the real ``openai``
client against the fake OpenAI-compatible server, which plays the model's drafts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.automation import automation_id
from custom_components.smh.const import DOMAIN
from tests.ha.conftest import setup_agent_entry
from tests.support.fake_openai import FakeOpenAI

REQUEST = "when the bedroom lamp turns on, turn on the bathroom light too"
LAMP_ON_THEN_BATHROOM_LIGHT = {
    "id": "draft",
    "name": "Bathroom light follows the lamp",
    "triggers": [{"kind": "state", "did": "1001", "locator": "state", "to": "on"}],
    "actions": [{"did": "1002", "locator": "light.turn_on"}],
}


def _reply(rule: dict[str, Any]) -> dict[str, Any]:
    return {"content": json.dumps(rule)}


EMPTY = "[]\n"  # what HA's onboarding writes into automations.yaml


@pytest.fixture
def config_dir(private_config_dir: Path) -> Path:
    (private_config_dir / "configuration.yaml").write_text(
        "automation: !include automations.yaml\n"
    )
    (private_config_dir / "automations.yaml").write_text(EMPTY)
    return private_config_dir


@pytest.fixture
async def entry(
    hass: HomeAssistant, config_dir: Path, tiny_home_file: str, server: FakeOpenAI
) -> MockConfigEntry:
    assert await async_setup_component(hass, "automation", {"automation": []})
    return await setup_agent_entry(
        hass, tiny_home_file, {"base_url": server.base_url, "model": "fake-model", "api_key": "k"}
    )


async def _create(hass: HomeAssistant, text: str = REQUEST, **data: Any) -> dict[str, Any]:
    return await hass.services.async_call(
        DOMAIN, "create_automation", {"text": text, **data}, blocking=True, return_response=True
    )


def _entity(hass: HomeAssistant, entry: MockConfigEntry, platform: str, key: str) -> str:
    entity_id = er.async_get(hass).async_get_entity_id(platform, DOMAIN, f"{entry.entry_id}_{key}")
    assert entity_id is not None
    return entity_id


async def test_request_becomes_a_running_automation(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    server.script = [_reply(LAMP_ON_THEN_BATHROOM_LIGHT)]
    out = await _create(hass)
    expected_id = automation_id(entry.entry_id, REQUEST)
    assert out["saved"] is True and out["automation_id"] == expected_id and out["tries"] == 1
    lamp = _entity(hass, entry, "light", "1001_light")
    # the lamp's power is covered by its light entity: a template trigger on its raw value
    assert out["config"]["triggers"] == [
        {
            "trigger": "template",
            "value_template": f"{{{{ (state_attr('{lamp}', 'homeenv') or {{}}).get('state') == \"on\" }}}}",
        }
    ]
    assert out["config"]["actions"] == [
        {
            "action": "smh.execute",
            "data": {
                "did": "1002",
                "locator": "light.turn_on",
                "arguments": {},
                "config_entry_id": entry.entry_id,
            },
        }
    ]
    saved = yaml.safe_load((config_dir / "automations.yaml").read_text())
    assert [a["id"] for a in saved] == [expected_id]
    state = hass.states.get(out["entity_id"])
    assert state is not None and state.state == "on" and state.attributes["id"] == expected_id

    # it runs: the lamp turned on from HA switches the bathroom light on through the engine
    engine = entry.runtime_data.engine
    assert engine.value("1002", "light.state") == "off"
    await hass.services.async_call("light", "turn_on", {"entity_id": lamp}, blocking=True)
    await hass.async_block_till_done()
    assert engine.value("1002", "light.state") == "on"
    assert hass.states.get(out["entity_id"]).attributes.get("last_triggered") is not None


async def test_asking_again_replaces_instead_of_duplicating(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    server.script = [
        _reply(LAMP_ON_THEN_BATHROOM_LIGHT),
        _reply({**LAMP_ON_THEN_BATHROOM_LIGHT, "name": "Renamed"}),
    ]
    await _create(hass)
    out = await _create(hass)
    saved = yaml.safe_load((config_dir / "automations.yaml").read_text())
    assert len(saved) == 1 and saved[0]["alias"] == "Renamed"
    assert len(hass.states.async_all("automation")) == 1 and out["entity_id"]


async def test_draft_errors_go_back_to_the_model(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    wrong = {**LAMP_ON_THEN_BATHROOM_LIGHT, "actions": [{"did": "9999", "locator": "turn_on"}]}
    server.script = [_reply(wrong), _reply(LAMP_ON_THEN_BATHROOM_LIGHT)]
    out = await _create(hass)
    assert out["tries"] == 2 and out["saved"]
    feedback = server.requests[1]["messages"][-1]["content"]
    assert "9999" in feedback


async def test_no_valid_rule_saves_nothing(hass: HomeAssistant, entry, server, config_dir) -> None:
    wrong = {**LAMP_ON_THEN_BATHROOM_LIGHT, "actions": [{"did": "9999", "locator": "turn_on"}]}
    server.script = [_reply(wrong), _reply(wrong)]
    with pytest.raises(
        ServiceValidationError, match="did not produce a valid automation: no valid rule after 2"
    ):
        await _create(hass, max_tries=2)
    assert (config_dir / "automations.yaml").read_text() == EMPTY
    assert hass.states.async_all("automation") == []


async def test_dry_run_returns_the_config_only(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    server.script = [_reply(LAMP_ON_THEN_BATHROOM_LIGHT)]
    out = await _create(hass, save=False)
    assert (
        out["saved"] is False
        and out["entity_id"] is None
        and out["config"]["id"] == out["automation_id"]
    )
    assert (config_dir / "automations.yaml").read_text() == EMPTY


async def test_what_home_assistant_cannot_express_is_refused(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    # a 'last day of the month' cron is valid for SMH's simulator, but HA has no trigger for it
    rule = {**LAMP_ON_THEN_BATHROOM_LIGHT, "triggers": [{"kind": "time", "cron": "0 0 12 L * ?"}]}
    server.script = [_reply(rule)]
    with pytest.raises(
        ServiceValidationError, match="cannot be written in Home Assistant's syntax: .*'L'"
    ):
        await _create(hass)
    assert (config_dir / "automations.yaml").read_text() == EMPTY


async def test_file_is_restored_when_home_assistant_does_not_load_it(
    hass: HomeAssistant, tiny_home_file: str, server, private_config_dir: Path
) -> None:
    # configuration.yaml without the automations.yaml include: the saved automation never loads
    (private_config_dir / "configuration.yaml").write_text("automation: []\n")
    other = [{"id": "mine", "alias": "Kept", "triggers": [], "actions": []}]
    (private_config_dir / "automations.yaml").write_text(yaml.safe_dump(other))
    before = (private_config_dir / "automations.yaml").read_text()
    assert await async_setup_component(hass, "automation", {"automation": []})
    await setup_agent_entry(
        hass, tiny_home_file, {"base_url": server.base_url, "model": "fake-model"}
    )
    server.script = [_reply(LAMP_ON_THEN_BATHROOM_LIGHT)]
    with pytest.raises(ServiceValidationError, match="did not load the automation"):
        await _create(hass)
    assert (private_config_dir / "automations.yaml").read_text() == before


async def test_without_a_model_there_is_no_synthesis(hass: HomeAssistant, tiny_entry) -> None:
    with pytest.raises(ServiceValidationError, match="No model is configured"):
        await _create(hass)


async def test_endpoint_failure_is_reported(hass: HomeAssistant, entry, server, config_dir) -> None:
    server.script = [{"status": 500}] * 10
    with pytest.raises(ServiceValidationError, match="could not be reached or failed"):
        await _create(hass)
    assert (config_dir / "automations.yaml").read_text() == EMPTY


def _ours(hass: HomeAssistant, entry: MockConfigEntry, text: str = REQUEST) -> str | None:
    """The registry entry of the automation ``text`` would make (None: there is none)."""
    return er.async_get(hass).async_get_entity_id(
        "automation", "automation", automation_id(entry.entry_id, text)
    )


async def test_a_missing_automations_file_is_refused_and_no_orphan_is_left(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    """The user's automations.yaml is away for a moment (being edited, restored from a backup):
    SMH does not write one of its own, whose automation would turn into an unavailable orphan
    entity once the user's file is back."""
    mine = [{"id": "mine", "alias": "Mine", "triggers": [], "actions": []}]
    (config_dir / "automations.yaml").unlink()
    server.script = [_reply(LAMP_ON_THEN_BATHROOM_LIGHT)]
    with pytest.raises(
        ServiceValidationError, match="There is no .*automations.yaml.*nothing was saved"
    ):
        await _create(hass)
    assert not (config_dir / "automations.yaml").exists()
    (config_dir / "automations.yaml").write_text(yaml.safe_dump(mine))  # the user's file is back
    await hass.services.async_call("automation", "reload", blocking=True)
    assert [(s.attributes.get("id"), s.state) for s in hass.states.async_all("automation")] == [
        ("mine", "on")
    ]
    assert _ours(hass, entry) is None
    server.script = [_reply(LAMP_ON_THEN_BATHROOM_LIGHT)]  # and then it works, beside the user's
    out = await _create(hass)
    assert out["saved"] and [
        a["id"] for a in yaml.safe_load((config_dir / "automations.yaml").read_text())
    ] == ["mine", out["automation_id"]]


async def test_a_configuration_that_does_not_load_leaves_nothing_behind(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    """configuration.yaml stopped loading (a typo the user made meanwhile): HA's reload logs it
    and loads nothing new, the automations file goes back to what it was and no entity is
    registered (a regression test: this already held)."""
    (config_dir / "configuration.yaml").write_text(
        "automation: !include automations.yaml\nbroken: [\n"
    )
    server.script = [_reply(LAMP_ON_THEN_BATHROOM_LIGHT)]
    with pytest.raises(ServiceValidationError, match="did not load the automation"):
        await _create(hass)
    assert (config_dir / "automations.yaml").read_text() == EMPTY
    assert _ours(hass, entry) is None and hass.states.async_all("automation") == []


# ---------------------------------------------------------------------------- consent for high-risk rules
HEAT_AC = {
    **LAMP_ON_THEN_BATHROOM_LIGHT,
    "name": "Warm kitchen",
    "actions": [
        {
            "did": "1003",
            "locator": "set_target_temperature",
            "arguments": {"target_temperature": 30},
        }
    ],
}


async def test_a_high_risk_rule_the_request_did_not_ask_for_needs_confirming(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    """The model (told by text it read, say) drafts a rule that heats the kitchen to 30 °C for a
    request about a light: nothing is saved, the caller gets the guard's question and a code;
    calling again with that code saves exactly the held rule, without another model call."""
    server.script = [_reply(HEAT_AC)]
    with pytest.raises(ServiceValidationError) as exc:  # a caller that wants no response: a refusal
        await hass.services.async_call(
            DOMAIN, "create_automation", {"text": REQUEST}, blocking=True
        )
    assert exc.value.translation_key == "needs_confirmation"
    placeholders = exc.value.translation_placeholders
    assert (
        placeholders["prompt"]
        == "Heat the room with “Kitchen AC” in Kitchen to 30 °C? Say yes to confirm."
    )
    assert (config_dir / "automations.yaml").read_text() == EMPTY
    asked = len(server.requests)
    with pytest.raises(ServiceValidationError) as wrong:
        await _create(hass, confirm="0000000000")
    assert wrong.value.translation_key == "not_confirmable"
    with pytest.raises(ServiceValidationError):  # the code belongs to this text only
        await _create(hass, text="something else", confirm=placeholders["code"])
    response = await _create(hass, confirm=placeholders["code"])
    assert response["saved"] and len(server.requests) == asked
    saved = yaml.safe_load((config_dir / "automations.yaml").read_text())
    assert [a["id"] for a in saved] == [automation_id(entry.entry_id, REQUEST)]
    with pytest.raises(ServiceValidationError):  # a code is used once
        await _create(hass, confirm=placeholders["code"])


async def test_the_question_is_asked_in_home_assistants_language(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    """The service call carries no language: the guard asks in the one HA is set to."""
    server.script = [_reply(HEAT_AC)]
    hass.config.language = "de"
    with pytest.raises(ServiceValidationError) as exc:
        await hass.services.async_call(
            DOMAIN, "create_automation", {"text": REQUEST}, blocking=True
        )
    assert exc.value.translation_key == "needs_confirmation"
    assert exc.value.translation_placeholders["prompt"] == (
        "Soll ich den Raum mit „Kitchen AC“ (Kitchen) auf 30 °C heizen? Sag ja, um zu bestätigen."
    )
    assert (config_dir / "automations.yaml").read_text() == EMPTY


async def test_a_high_risk_rule_the_request_asks_for_is_saved(
    hass: HomeAssistant, entry, server, config_dir
) -> None:
    server.script = [_reply(HEAT_AC)]
    text = "When the bedroom lamp turns on, set the Kitchen AC to 30 degrees"
    response = await _create(hass, text=text)
    assert response["saved"] and response["tries"] == 1


async def test_a_rest_caller_reads_the_question_and_the_code(
    hass: HomeAssistant, entry, server, config_dir, hass_client
) -> None:
    """Through HA's own REST view: a refused call's body is a bare ``400: Bad Request`` (HA drops
    the message and its placeholders), so a caller that asks for the response
    (``?return_response``) gets the guard's question and the code in it, and confirms over REST."""
    assert await async_setup_component(hass, "api", {})
    client = await hass_client()
    url = "/api/services/smh/create_automation"
    server.script = [_reply(HEAT_AC)]
    plain = await client.post(url, json={"text": REQUEST})
    assert plain.status == 400  # no response asked for: the refusal, with nothing to read in it
    server.script = [_reply(HEAT_AC)]
    asked = await client.post(f"{url}?return_response", json={"text": REQUEST})
    assert asked.status == 200, await asked.text()
    answer = (await asked.json())["service_response"]
    question = "Heat the room with “Kitchen AC” in Kitchen to 30 °C? Say yes to confirm."
    code = answer["confirmation"]["code"]
    assert (
        answer["saved"] is False
        and answer["needs_confirmation"] is True
        and answer["entity_id"] is None
    )
    assert answer["confirmation"] == {"question": question, "code": code, "valid_seconds": 600}
    assert question in answer["message"] and f"confirm: {code}" in answer["message"]
    assert answer["automation_id"] == automation_id(entry.entry_id, REQUEST)
    assert (config_dir / "automations.yaml").read_text() == EMPTY
    asked_model = len(server.requests)
    done = await client.post(f"{url}?return_response", json={"text": REQUEST, "confirm": code})
    assert done.status == 200, await done.text()
    saved = (await done.json())["service_response"]
    assert saved["saved"] is True and len(server.requests) == asked_model
    assert [a["id"] for a in yaml.safe_load((config_dir / "automations.yaml").read_text())] == [
        automation_id(entry.entry_id, REQUEST)
    ]
    again = await client.post(f"{url}?return_response", json={"text": REQUEST, "confirm": code})
    assert again.status == 400  # a code is used once


async def test_a_websocket_caller_reads_the_question_and_the_code(
    hass: HomeAssistant, entry, server, config_dir, hass_ws_client
) -> None:
    """The websocket API reports the refusal with the translated message, which holds both."""
    client = await hass_ws_client(hass)
    server.script = [_reply(HEAT_AC)]
    await client.send_json_auto_id(
        {
            "type": "call_service",
            "domain": DOMAIN,
            "service": "create_automation",
            "service_data": {"text": REQUEST},
        }
    )
    reply = await client.receive_json()
    assert reply["success"] is False
    assert (
        "Heat the room with “Kitchen AC” in Kitchen to 30 °C? Say yes to confirm."
        in reply["error"]["message"]
    )
    assert re.search(r"confirm: [0-9a-f]{10}", reply["error"]["message"])
    assert (config_dir / "automations.yaml").read_text() == EMPTY
