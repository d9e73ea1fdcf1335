"""Who may call SMH's services and tools, what a refusal looks like, and that a refused
``smh.load_task`` changes nothing (issue 13: items 1, 6 and 9).

Measured on a real HA with a non-admin token, ``smh.load_task``, ``smh.advance_time`` and
``smh.create_automation`` used to run for anyone; engine rejections escaped as plain Python
errors; a task with a bad override reset the home before it was refused; and the ``smh`` LLM
API ignored the caller and HA's exposure settings. These tests pin the fixed behaviour; each
fails on the code before the fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from homeassistant.auth.const import GROUP_ID_USER
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import Context, Event, HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError, Unauthorized
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator, WebSocketGenerator

from custom_components.smh.compat import result_data
from custom_components.smh.const import DOMAIN
from smh_core.sim.simulator import SimulationError

TASKS = {
    json.loads(x)["id"]: json.loads(x)
    for x in (Path(__file__).parent.parent / "fixtures" / "tasks_tiny.jsonl")
    .read_text()
    .splitlines()
}
ADMIN_SERVICES = {
    "load_task": {"task": TASKS["exec-2"]},
    "advance_time": {"seconds": 3600},
    "create_automation": {"text": "every night at 1:00 turn on the bedroom lamp"},
    "restore_state": {"devices": {"1001": {"state": "on"}}},
}
"""Every service that replaces, fast-forwards or reconfigures the home, with valid data."""


@pytest.fixture
async def hass_user(hass: HomeAssistant, local_auth: Any) -> MockUser:
    """An ordinary (non-admin, not read-only) HA user: the caller the issue measured."""
    group = await hass.auth.async_get_group(GROUP_ID_USER)
    return MockUser(name="Ordinary", groups=[group]).add_to_hass(hass)


async def _call(
    hass: HomeAssistant, service: str, data: dict[str, Any], user: MockUser | None = None
) -> Any:
    context = Context(user_id=user.id) if user is not None else Context()
    return await hass.services.async_call(
        DOMAIN, service, data, blocking=True, return_response=True, context=context
    )


def _entity(hass: HomeAssistant, did: str, locator: str) -> str:
    """The SMH entity showing ``did``/``locator`` (from the states, not the integration's code)."""
    for state in hass.states.async_all():
        if state.attributes.get("did") != did:
            continue
        if state.attributes.get("locator") == locator or locator in (
            state.attributes.get("homeenv") or {}
        ):
            return state.entity_id
    raise AssertionError(f"no entity for {did}/{locator}")


def _picture(hass: HomeAssistant, entry: MockConfigEntry) -> dict[str, Any]:
    """Everything a refused call must leave alone: the engine's state, every entity's state
    and attributes, the simulated clock, and the loaded task."""
    runtime = entry.runtime_data
    return {
        "engine": runtime.engine.snapshot().to_dict(),
        "entities": {
            s.entity_id: (s.state, dict(s.attributes), s.last_updated)
            for s in hass.states.async_all()
            if "did" in s.attributes
        },
        "now": runtime.clock.sim.now,
        "task": runtime.task,
        "task_before": runtime.task_before,
    }


# ---------------------------------------------------------------------------- item 1: admin services
@pytest.mark.parametrize("service", sorted(ADMIN_SERVICES))
@pytest.mark.parametrize("who", ["hass_user", "hass_read_only_user"])
async def test_admin_services_refuse_non_admins(
    hass: HomeAssistant,
    tiny_entry: MockConfigEntry,
    hass_user: MockUser,
    hass_read_only_user: MockUser,
    service: str,
    who: str,
) -> None:
    """A non-admin cannot replace the home, fast-forward it or write an automation, and the
    refusal happens before the service runs: nothing changes."""
    user = hass_user if who == "hass_user" else hass_read_only_user
    before = _picture(hass, tiny_entry)
    with pytest.raises(Unauthorized):
        await _call(hass, service, ADMIN_SERVICES[service], user)
    assert _picture(hass, tiny_entry) == before
    assert not (Path(hass.config.config_dir) / "automations.yaml").exists()


async def test_admins_and_internal_callers_may(
    hass: HomeAssistant, tiny_entry: MockConfigEntry, hass_admin_user: MockUser
) -> None:
    """An admin (and a call without a user: automations, scripts) still runs them."""
    runtime = tiny_entry.runtime_data
    loaded = await _call(hass, "load_task", ADMIN_SERVICES["load_task"], hass_admin_user)
    assert loaded["task_id"] == "exec-2" and runtime.engine.value("1002", "fan.state") == "on"
    start = runtime.clock.sim.now
    await _call(hass, "advance_time", {"seconds": 3600}, hass_admin_user)
    await _call(hass, "advance_time", {"seconds": 60})
    assert (runtime.clock.sim.now - start).total_seconds() == 3660
    # past the admin check, the service itself answers: this entry has no model
    with pytest.raises(ServiceValidationError) as exc:
        await _call(hass, "create_automation", ADMIN_SERVICES["create_automation"], hass_admin_user)
    assert exc.value.translation_key == "no_model"


async def test_user_services_stay_open_under_entity_permissions(
    hass: HomeAssistant,
    tiny_entry: MockConfigEntry,
    hass_user: MockUser,
    hass_read_only_user: MockUser,
) -> None:
    """execute, snapshot and verify are for every user, as the home's entities are: an ordinary
    user may control, a read-only user may read and score but not control."""
    engine = tiny_entry.runtime_data.engine
    await _call(hass, "load_task", {"task": TASKS["exec-1"]})
    await _call(hass, "execute", {"did": "1001", "locator": "turn_on"}, hass_user)
    assert engine.value("1001", "state") == "on"
    before = _picture(hass, tiny_entry)
    with pytest.raises(Unauthorized):
        await _call(
            hass,
            "execute",
            {"did": "1001", "locator": "set_brightness", "arguments": {"brightness": 30}},
            hass_read_only_user,
        )
    assert _picture(hass, tiny_entry) == before
    for user in (hass_user, hass_read_only_user):
        assert (await _call(hass, "snapshot", {}, user))["devices"]["1001"]["state"] == "on"
        verdict = await _call(hass, "verify", {"response": "Done."}, user)
        assert verdict["task_id"] == "exec-1" and verdict["passed"] is False  # brightness not set


async def test_execute_state_changes_carry_the_callers_context(
    hass: HomeAssistant, tiny_entry: MockConfigEntry, hass_user: MockUser
) -> None:
    """HA's logbook names who turned the lamp on: the entity's state change has the caller's context."""
    lamp = _entity(hass, "1001", "state")
    seen: list[Event] = []
    hass.bus.async_listen(EVENT_STATE_CHANGED, callback(lambda e: seen.append(e)))
    await _call(hass, "execute", {"did": "1001", "locator": "turn_on"}, hass_user)
    await hass.async_block_till_done()
    changes = [e for e in seen if e.data["entity_id"] == lamp]
    assert changes and changes[-1].data["new_state"].state == "on"
    assert changes[-1].context.user_id == hass_user.id


async def test_rest_api_answers_a_non_admin_with_401(
    hass: HomeAssistant,
    tiny_entry: MockConfigEntry,
    hass_client: ClientSessionGenerator,
    hass_read_only_access_token: str,
) -> None:
    """Through HA's REST API (where the issue was measured) a non-admin token gets 401 and the
    home is not reset; an admin token loads the task."""
    assert await async_setup_component(hass, "api", {})
    engine = tiny_entry.runtime_data.engine
    await _call(
        hass, "execute", {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "heat"}}
    )
    user = await hass_client(hass_read_only_access_token)
    response = await user.post("/api/services/smh/load_task", json={"task": TASKS["exec-2"]})
    assert response.status == 401
    assert engine.value("1003", "ac_mode") == "heat"
    admin = await hass_client()
    response = await admin.post(
        "/api/services/smh/load_task?return_response", json={"task": TASKS["exec-2"]}
    )
    assert response.status == 200
    assert (await response.json())["service_response"]["task_id"] == "exec-2"
    assert engine.value("1003", "ac_mode") == "cool"


# ---------------------------------------------------------------------------- item 9: errors
async def test_a_rejection_reaches_the_ui_with_the_engines_message(
    hass: HomeAssistant, tiny_entry: MockConfigEntry, hass_ws_client: WebSocketGenerator
) -> None:
    """The websocket API (HA's frontend, scripts' editors) reports a rejection as an invalid
    request carrying the engine's words, not as an unknown error with a traceback."""
    client = await hass_ws_client(hass)
    await client.send_json_auto_id(
        {
            "type": "call_service",
            "domain": DOMAIN,
            "service": "execute",
            "service_data": {
                "did": "1003",
                "locator": "set_ac_mode",
                "arguments": {"ac_mode": "turbo"},
            },
        }
    )
    reply = await client.receive_json()
    assert reply["success"] is False
    assert reply["error"]["code"] == "invalid_format"
    assert "invalid_option" in reply["error"]["message"] and "turbo" in reply["error"]["message"]


async def test_refusals_are_400s_through_the_rest_api(
    hass: HomeAssistant,
    tiny_entry: MockConfigEntry,
    hass_client: ClientSessionGenerator,
    hass_access_token: str,
    hass_read_only_access_token: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """smh.verify with no task loaded and an invalid smh.execute (an admin's and a non-admin's)
    are the caller's mistakes: HTTP 400 with nothing changed and no traceback in the log,
    where a plain ServiceValidationError is a 500 on HA 2026.2."""
    assert await async_setup_component(hass, "api", {})
    before = _picture(hass, tiny_entry)
    for token in (hass_access_token, hass_read_only_access_token):
        client = await hass_client(token)
        response = await client.post(
            "/api/services/smh/verify?return_response", json={"response": "Done."}
        )
        assert response.status == 400, await response.text()
        response = await client.post(
            "/api/services/smh/execute", json={"did": "nope", "locator": "turn_on"}
        )
        assert response.status == 400, await response.text()
    user = await hass_client(hass_read_only_access_token)
    response = await user.post(
        "/api/services/smh/execute",
        json={"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "turbo"}},
    )
    assert response.status in (400, 401)  # either way refused before anything changes
    assert _picture(hass, tiny_entry) == before
    assert "Traceback" not in caplog.text and "Error handling request" not in caplog.text


async def test_simulation_failures_are_validation_errors(
    hass: HomeAssistant, tiny_entry: MockConfigEntry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The simulator refusing to go on (automations that trigger each other forever) is the
    home's fault, reported with its message."""

    def loop(seconds: float, **_: Any) -> None:
        raise SimulationError("more than 1000 events at 09:00; do rules trigger each other?")

    monkeypatch.setattr(tiny_entry.runtime_data.clock.sim, "advance", loop)
    with pytest.raises(ServiceValidationError) as exc:
        await _call(hass, "advance_time", {"seconds": 10})
    assert exc.value.translation_key == "simulation_error"
    assert "trigger each other" in exc.value.translation_placeholders["message"]


async def test_a_goal_ha_cannot_judge_is_a_validation_error(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    """A timed goal needs the embedded runner's futures; verify says so instead of crashing."""
    timed = {
        **TASKS["exec-1"],
        "id": "timed-1",
        "goal": {
            "kind": "timed",
            "checkpoints": [{"at_seconds": 60, "critic": "device(1001).state == on"}],
        },
    }
    await _call(hass, "load_task", {"task": timed})
    with pytest.raises(ServiceValidationError) as exc:
        await _call(hass, "verify", {"response": "Done."})
    assert exc.value.translation_key == "cannot_verify"
    assert exc.value.translation_placeholders["task"] == "timed-1"


# ---------------------------------------------------------------------------- item 6: load_task
@pytest.mark.parametrize(
    ("change", "key", "fragment"),
    [
        ({"difficulty": "extreme"}, "bad_task", "difficulty"),
        ({"start_time": "yesterday at nine"}, "bad_task", "start_time"),
        ({"home": {"level": "simple", "seed": 3}}, "other_home", "simple:3"),
        # the first override is valid, the second is not: neither may be applied, nor the reset
        (
            {
                "overrides": [
                    {"did": "1002", "values": {"fan.state": "on"}},
                    {"did": "1001", "values": {"brightness": 500}},
                ]
            },
            "engine_error",
            "overrides.1",
        ),
        (
            {
                "overrides": [
                    {"did": "1001", "values": {"state": "on"}},
                    {"did": "9999", "values": {"state": "on"}},
                ]
            },
            "engine_error",
            "9999",
        ),
        (
            {"overrides": [{"did": "1003", "values": {"no_such_attribute": 1}}]},
            "engine_error",
            "no_such_attribute",
        ),
    ],
)
async def test_a_refused_task_changes_nothing(
    hass: HomeAssistant,
    tiny_entry: MockConfigEntry,
    change: dict[str, Any],
    key: str,
    fragment: str,
) -> None:
    """Every check runs before the home is touched: the engine, every entity (not even a state
    write), the clock and the loaded task are exactly as before the refused call."""
    await _call(hass, "load_task", {"task": TASKS["exec-1"]})
    await _call(
        hass, "execute", {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "heat"}}
    )
    await hass.async_block_till_done()
    before = _picture(hass, tiny_entry)
    writes: list[Event] = []
    hass.bus.async_listen(EVENT_STATE_CHANGED, callback(lambda e: writes.append(e)))
    with pytest.raises(ServiceValidationError) as exc:
        await _call(hass, "load_task", {"task": {**TASKS["exec-2"], **change}})
    await hass.async_block_till_done()
    assert exc.value.translation_key == key
    assert fragment in " ".join(exc.value.translation_placeholders.values())
    assert _picture(hass, tiny_entry) == before
    assert writes == []


async def test_an_accepted_task_applies_its_overrides_in_order(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    """Overrides apply as the embedded runner applies them (a later one wins), on the home's
    initial state, and the entities follow."""
    engine = tiny_entry.runtime_data.engine
    await _call(
        hass, "execute", {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "heat"}}
    )
    task = {
        **TASKS["exec-1"],
        "overrides": [
            {"did": "1002", "values": {"fan.speed_level": "low"}},
            {"did": "1002", "values": {"fan.speed_level": "high"}},
        ],
    }
    await _call(hass, "load_task", {"task": task})
    await hass.async_block_till_done()
    assert engine.value("1003", "ac_mode") == "cool"
    assert engine.value("1002", "fan.speed_level") == "high"
    assert hass.states.get(_entity(hass, "1002", "fan.speed_level")).state == "high"
    assert tiny_entry.runtime_data.task_before == engine.snapshot()


# ---------------------------------------------------------------------------- item 9: the LLM API
@pytest.fixture
async def exposed(
    hass: HomeAssistant, tiny_entry: MockConfigEntry, conversation: None
) -> MockConfigEntry:
    """Exposure set by hand: the lamp's light and the AC's mode and setpoint are exposed to
    Assist; nothing of the bathroom fan (1002), nor the AC's child lock, is."""
    assert await async_setup_component(hass, "homeassistant", {})
    wanted = {
        _entity(hass, "1001", "state"),
        _entity(hass, "1003", "ac_mode"),
        _entity(hass, "1003", "target_temperature"),
    }
    for state in hass.states.async_all():
        if "did" in state.attributes:
            async_expose_entity(hass, "conversation", state.entity_id, state.entity_id in wanted)
    await (
        hass.async_block_till_done()
    )  # the smh API is offered by a task run once conversation is loaded
    return tiny_entry


async def _api(hass: HomeAssistant, user: MockUser | None = None) -> llm.APIInstance:
    context = Context(user_id=user.id) if user is not None else None
    return await llm.async_get_api(
        hass,
        "smh",
        llm.LLMContext(
            platform="test",
            context=context,
            language="en",
            assistant="conversation",
            device_id=None,
        ),
    )


async def _tool(api: llm.APIInstance, tool: str, /, **args: Any) -> Any:
    return result_data(await api.async_call_tool(llm.ToolInput(tool, args)))


async def test_llm_api_lists_and_reads_only_exposed_entities(
    hass: HomeAssistant, exposed: MockConfigEntry
) -> None:
    """An unexposed device is answered like an unknown one; a visible device shows only its
    exposed attributes and the services that change nothing else."""
    api = await _api(hass)
    listed = await _tool(api, "list_devices")
    assert {d["did"] for d in listed["result"]} == {"1001", "1003"}
    found = await _tool(api, "find_devices", description="bathroom fan light")
    assert all(d["did"] != "1002" for d in found["result"])
    for name in ("get_device_status", "get_device_spec"):
        assert (await _tool(api, name, did="1002"))["error"]["code"] == "device_not_found"
    status = await _tool(api, "get_device_status", did="1003")
    assert set(status["status"]) == {"ac_mode", "target_temperature"}
    spec = await _tool(api, "get_device_spec", did="1003")
    assert set(spec["attributes"]) == {"ac_mode", "target_temperature"}
    assert "set_target_temperature" in spec["services"]
    assert "set_ac_mode" not in spec["services"]  # it also sets the unexposed child lock


async def test_llm_api_cannot_control_unexposed_entities(
    hass: HomeAssistant, exposed: MockConfigEntry
) -> None:
    """Neither at once, nor later through a schedule or a stored automation."""
    api = await _api(hass)
    engine = exposed.runtime_data.engine
    before = engine.snapshot()
    refused = await _tool(api, "control_device", did="1002", locator="fan.turn_on")
    assert refused["ok"] is False and refused["error"]["code"] == "device_not_found"
    refused = await _tool(
        api, "control_device", did="1003", locator="set_ac_mode", arguments={"ac_mode": "heat"}
    )
    assert (
        refused["error"]["code"] == "service_not_found"
        and "set_ac_mode" not in refused["error"]["allowed"]
    )
    later = (exposed.runtime_data.clock.sim.now.replace(microsecond=0)).isoformat()
    scheduled = await _tool(
        api, "schedule_actions", at=later, actions=[{"did": "1002", "locator": "fan.turn_on"}]
    )
    assert scheduled["ok"] is False and scheduled["error"]["field"] == "actions.0"
    rule = await _tool(
        api,
        "create_automation",
        name="fan at night",
        triggers=[{"type": "time", "cron": "0 0 1 * * ?"}],
        actions=[{"did": "1002", "locator": "fan.turn_on"}],
    )
    assert rule["ok"] is False
    assert (await _tool(api, "list_schedules"))["result"] == []
    assert (await _tool(api, "list_automations"))["result"] == []
    assert engine.diff(before, engine.snapshot()) == []
    done = await _tool(
        api,
        "control_device",
        did="1003",
        locator="set_target_temperature",
        arguments={"target_temperature": 22},
    )
    assert done["ok"] is True and engine.value("1003", "target_temperature") == 22


async def test_llm_api_acts_with_the_users_context(
    hass: HomeAssistant,
    exposed: MockConfigEntry,
    hass_user: MockUser,
    hass_read_only_user: MockUser,
) -> None:
    """The lamp's state change names the user the agent talks to; a read-only user's agent
    cannot control anything (HA's entity permissions apply)."""
    engine = exposed.runtime_data.engine
    lamp = _entity(hass, "1001", "state")
    refused = await _tool(
        await _api(hass, hass_read_only_user), "control_device", did="1001", locator="turn_on"
    )
    assert refused["ok"] is False and refused["error"]["code"] == "unauthorized"
    assert engine.value("1001", "state") == "off"
    seen: list[Event] = []
    hass.bus.async_listen(EVENT_STATE_CHANGED, callback(lambda e: seen.append(e)))
    done = await _tool(await _api(hass, hass_user), "control_device", did="1001", locator="turn_on")
    await hass.async_block_till_done()
    assert done["ok"] is True and engine.value("1001", "state") == "on"
    changes = [e for e in seen if e.data["entity_id"] == lamp]
    assert changes and changes[-1].context.user_id == hass_user.id


# ---------------------------------------------------------------------------- smh.restore_state
async def test_restore_state_puts_a_snapshot_back(
    hass: HomeAssistant, tiny_entry: MockConfigEntry, hass_admin_user: MockUser
) -> None:
    """What a benchmark run inside HA does at its end: the home it found, back again."""
    runtime = tiny_entry.runtime_data
    saved = await hass.services.async_call(
        DOMAIN, "snapshot", {}, blocking=True, return_response=True
    )
    await _call(hass, "load_task", ADMIN_SERVICES["load_task"], hass_admin_user)
    assert runtime.engine.snapshot().to_dict() != saved["devices"]
    done = await _call(hass, "restore_state", {"devices": saved["devices"]}, hass_admin_user)
    assert done["changes"] > 0
    assert runtime.engine.snapshot().to_dict() == saved["devices"]
    lamp = _entity(hass, "1001", "state")
    assert hass.states.get(lamp).state == (
        "on" if saved["devices"]["1001"]["state"] == "on" else "off"
    )


@pytest.mark.parametrize(
    "devices",
    [
        {"1001": {"state": "on"}, "1003": {"target_temperature": 999}},  # second value out of range
        {"1001": {"state": "on"}, "9999": {"state": "on"}},  # no such device
        {"1001": {"no_such_attribute": 1}},
    ],
)
async def test_a_refused_restore_changes_nothing(
    hass: HomeAssistant,
    tiny_entry: MockConfigEntry,
    hass_admin_user: MockUser,
    devices: dict[str, Any],
) -> None:
    before = _picture(hass, tiny_entry)
    with pytest.raises(ServiceValidationError) as exc:
        await _call(hass, "restore_state", {"devices": devices}, hass_admin_user)
    assert exc.value.translation_key == "engine_error"
    assert _picture(hass, tiny_entry) == before
