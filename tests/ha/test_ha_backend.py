"""HaBackend: the SMH agent's tool contract over Home Assistant itself (real HA).

An SMH entry (the tiny home) plus "real" non-SMH entities (input_boolean, input_number and a
template sensor), with exposure to Assist set explicitly: the backend must see and control
exactly the exposed ones, through HA's own service validation.
"""

from __future__ import annotations

import inspect
from datetime import timedelta
from pathlib import Path

import pytest
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.smh.const import DOMAIN
from custom_components.smh.ha_backend import HaBackend, HaSchedules
from custom_components.smh.llm_api import UserHome
from smh_core.agent.backend import AsyncHomeBackend
from smh_core.agent.dr import DRAgent, DROutput
from smh_core.agent.tools import dispatch_async
from smh_core.homeenv.engine import dump_home
from tests.support import sim_home as sh

PORCH, SECRET, LEVEL = "input_boolean.porch", "input_boolean.secret", "input_number.level"


@pytest.fixture(autouse=True)
async def core(hass: HomeAssistant) -> None:
    """The ``homeassistant`` core integration (exposure settings live there)."""
    assert await async_setup_component(hass, "homeassistant", {})


def _lamp(hass: HomeAssistant, entry: MockConfigEntry) -> str:
    entity_id = er.async_get(hass).async_get_entity_id(
        "light", DOMAIN, f"{entry.entry_id}_1001_light"
    )
    assert entity_id is not None
    return entity_id


@pytest.fixture
async def home(hass: HomeAssistant, tiny_entry: MockConfigEntry) -> MockConfigEntry:
    """The tiny SMH home and three non-SMH entities; porch, level and the lamp are exposed."""
    assert await async_setup_component(
        hass,
        "input_boolean",
        {"input_boolean": {"porch": {"name": "Porch light"}, "secret": {"name": "Secret switch"}}},
    )
    assert await async_setup_component(
        hass,
        "input_number",
        {
            "input_number": {
                "level": {"name": "Level", "min": 0, "max": 10, "step": 1, "initial": 5}
            }
        },
    )
    await hass.async_block_till_done()
    kitchen = ar.async_get(hass).async_get_area_by_name("Kitchen")
    assert kitchen is not None
    er.async_get(hass).async_update_entity(PORCH, area_id=kitchen.id)
    for entity_id, exposed in (
        (PORCH, True),
        (SECRET, False),
        (LEVEL, True),
        (_lamp(hass, tiny_entry), True),
    ):
        async_expose_entity(hass, "conversation", entity_id, exposed)
    return tiny_entry


async def _backend(hass: HomeAssistant, context: Context | None = None) -> HaBackend:
    backend = HaBackend(hass, context, HaSchedules())
    await backend.async_prepare()
    return backend


async def test_lists_exposed_entities_only(hass: HomeAssistant, home: MockConfigEntry) -> None:
    backend = await _backend(hass)
    lamp = _lamp(hass, home)
    devices = {d["did"]: d for d in await backend.list_devices()}
    assert {PORCH, LEVEL, lamp} <= set(devices) and SECRET not in devices
    kitchen = ar.async_get(hass).async_get_area_by_name("Kitchen").id
    assert devices[PORCH] == {
        "did": PORCH,
        "name": "Porch light",
        "category": "input_boolean",
        "subcategory": "input_boolean",
        "room": kitchen,
        "tags": [],
    }
    bedroom = ar.async_get(hass).async_get_area_by_name("Master Bedroom").id
    assert devices[lamp]["room"] == bedroom  # an SMH entity: its device's area
    assert [
        d["did"] for d in await backend.list_devices(room=kitchen, category="input_boolean")
    ] == [PORCH]
    rooms = {r["id"]: r for r in await backend.list_rooms()}
    assert rooms[bedroom]["name"] == "Master Bedroom" and rooms[bedroom]["floor"] == 1
    # an unexposed entity answers exactly like one that does not exist, and cannot be changed
    missing = await backend.device_status("input_boolean.nothing")
    for result in (
        await backend.device_status(SECRET),
        await backend.device_spec(SECRET),
        await backend.execute(SECRET, "turn_on", {}),
    ):
        assert (
            result["ok"] is False
            and result["error"]["code"] == missing["error"]["code"] == "device_not_found"
        )
    assert hass.states.get(SECRET).state == "off"
    assert await dispatch_async(backend, "find_devices", {"description": "secret switch"}) == []
    assert (await dispatch_async(backend, "find_devices", {"description": "porch light"}))[0][
        "did"
    ] == PORCH


async def test_spec_lists_the_services_that_apply_with_their_fields(
    hass: HomeAssistant, home
) -> None:
    backend = await _backend(hass)
    spec = await backend.device_spec(_lamp(hass, home))
    assert spec["ok"] and {"turn_on", "turn_off", "toggle"} <= set(spec["services"])
    turn_on = spec["services"]["turn_on"]["arguments"]
    assert turn_on["brightness_pct"]["selector"]["number"]["max"] == 100  # a field of a section
    assert turn_on["brightness_pct"]["description"]  # HA's translated field description
    assert spec["attributes"]["state"] == {"type": "str", "read_only": True}
    porch = (await backend.device_spec(PORCH))["services"]
    assert set(porch) == {"turn_on", "turn_off", "toggle"}  # not input_boolean.reload: no target
    level = (await backend.device_spec(LEVEL))["services"]
    assert level["set_value"]["arguments"]["value"]["required"] is True
    assert (await backend.device_status(LEVEL))["status"]["state"] == "5.0"


async def test_valid_calls_change_real_and_simulated_entities(hass: HomeAssistant, home) -> None:
    backend = await _backend(hass)
    result = await dispatch_async(backend, "control_device", {"did": PORCH, "locator": "turn_on"})
    assert result == {
        "ok": True,
        "changes": [{"did": PORCH, "locator": "state", "before": "off", "after": "on"}],
    }
    assert hass.states.get(PORCH).state == "on"
    lamp = _lamp(hass, home)
    result = await backend.execute(lamp, "light.turn_on", {"brightness_pct": 80})
    assert result["ok"] is True
    assert {"locator": "state", "before": "off", "after": "on"}.items() <= result["changes"][
        0
    ].items()
    engine = home.runtime_data.engine
    assert engine.value("1001", "state") == "on" and engine.value("1001", "brightness") == 80
    assert hass.states.get(lamp).state == "on"
    assert (await backend.execute(LEVEL, "set_value", {"value": 7}))["ok"]
    assert hass.states.get(LEVEL).state == "7.0"


async def test_bad_arguments_name_the_field_and_change_nothing(hass: HomeAssistant, home) -> None:
    backend = await _backend(hass)
    lamp = _lamp(hass, home)
    engine = home.runtime_data.engine
    before = engine.snapshot().to_dict()
    bad = await backend.execute(lamp, "turn_on", {"brightness_pct": 150})
    assert bad["ok"] is False and bad["error"]["code"] == "bad_arguments"
    assert bad["error"]["field"] == "brightness_pct" and "150" in bad["error"]["message"]
    assert bad["error"]["allowed"]["number"]["max"] == 100
    extra = await backend.execute(lamp, "turn_on", {"warp": 9})
    assert extra["error"]["field"] == "warp" and "brightness_pct" in extra["error"]["allowed"]
    assert engine.snapshot().to_dict() == before and hass.states.get(lamp).state == "off"
    word = await backend.execute(LEVEL, "set_value", {"value": "high"})
    assert word["error"]["field"] == "value" and hass.states.get(LEVEL).state == "5.0"
    far = await backend.execute(LEVEL, "set_value", {"value": 50})  # refused by the entity itself
    assert far["error"]["field"] == "value" and "range" in far["error"]["message"]
    assert hass.states.get(LEVEL).state == "5.0"
    # HA's own checks after the schema (ServiceValidationError) come back with HA's message
    ac = er.async_get(hass).async_get_entity_id(
        "number", DOMAIN, f"{home.entry_id}_1003_target_temperature"
    )
    async_expose_entity(hass, "conversation", ac, True)
    hot = await backend.execute(ac, "set_value", {"value": 50})
    assert hot["ok"] is False and hot["error"]["code"] == "service_rejected", hot
    assert "50" in hot["error"]["message"] and engine.value("1003", "target_temperature") == 24.0
    # a target key would reach other (unexposed) entities: refused before HA is asked
    widened = await backend.execute(PORCH, "turn_on", {"entity_id": SECRET})
    assert (
        widened["error"]["code"] == "unexpected_argument"
        and widened["error"]["field"] == "entity_id"
    )
    assert hass.states.get(SECRET).state == "off" and hass.states.get(PORCH).state == "off"


async def test_unknown_service(hass: HomeAssistant, home) -> None:
    backend = await _backend(hass)
    for locator in (
        "fly",
        "reload",
        "light.turn_on",
    ):  # reload is no entity service; light is another domain
        result = await backend.execute(PORCH, locator, {})
        assert result["ok"] is False and result["error"]["code"] == "service_not_found", locator
        assert result["error"]["allowed"] == ["toggle", "turn_off", "turn_on"]
    assert hass.states.get(PORCH).state == "off"


async def test_user_permissions_apply(hass: HomeAssistant, home, hass_read_only_user) -> None:
    backend = await _backend(hass, Context(user_id=hass_read_only_user.id))
    result = await backend.execute(PORCH, "turn_on", {})
    assert result["ok"] is False and result["error"]["code"] == "unauthorized"
    assert hass.states.get(PORCH).state == "off"


async def test_room_environment_from_area_sensors(hass: HomeAssistant, home) -> None:
    assert await async_setup_component(
        hass,
        "template",
        {
            "template": [
                {
                    "sensor": [
                        {
                            "name": "Porch temperature",
                            "unique_id": "porch_t",
                            "state": "68",
                            "device_class": "temperature",
                            "unit_of_measurement": "°F",
                        },
                        {
                            "name": "Porch humidity",
                            "unique_id": "porch_h",
                            "state": "40",
                            "device_class": "humidity",
                            "unit_of_measurement": "%",
                        },
                        {
                            "name": "Hidden humidity",
                            "unique_id": "hidden_h",
                            "state": "90",
                            "device_class": "humidity",
                            "unit_of_measurement": "%",
                        },
                    ]
                }
            ]
        },
    )
    await hass.async_block_till_done()
    kitchen = ar.async_get(hass).async_get_area_by_name("Kitchen").id
    registry = er.async_get(hass)
    for unique_id, exposed in (("porch_t", True), ("porch_h", True), ("hidden_h", False)):
        entity_id = registry.async_get_entity_id("sensor", "template", unique_id)
        registry.async_update_entity(entity_id, area_id=kitchen)
        async_expose_entity(hass, "conversation", entity_id, exposed)
    backend = await _backend(hass)
    env = await backend.room_environment(kitchen)
    assert env["ok"] and env["environment"] == {
        "temperature": pytest.approx(20.0),
        "humidity": 40.0,
    }
    bedroom = ar.async_get(hass).async_get_area_by_name("Master Bedroom").id
    assert (await backend.room_environment(bedroom))["ok"] is False  # no sensors there
    assert (await backend.room_environment("attic"))["error"]["code"] == "device_not_found"


async def test_room_environment_from_smh_room_sensors(hass: HomeAssistant) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    (Path(hass.config.config_dir) / "home.json").write_text(
        dump_home(sh.home(sh.lamp("2", "kitchen")))
    )
    data = {"source": "file", "file": "home.json", "level": "simple", "seed": 0, "time_scale": 0.0}
    entry = MockConfigEntry(domain=DOMAIN, data=data, options=data)
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    registry = er.async_get(hass)
    for variable in ("temperature", "illuminance", "air_quality"):
        entity_id = registry.async_get_entity_id(
            "sensor", DOMAIN, f"{entry.entry_id}_@kitchen_{variable}"
        )
        async_expose_entity(hass, "conversation", entity_id, True)
    area = ar.async_get(hass).async_get_area_by_name("Kitchen").id
    env = await (await _backend(hass)).room_environment(area)
    engine = entry.runtime_data.engine
    assert env["ok"] and set(env["environment"]) >= {"temperature", "illuminance", "air_quality"}
    assert env["environment"]["temperature"] == pytest.approx(
        engine.value("@kitchen", "temperature"), abs=0.01
    )
    assert env["environment"]["air_quality"] == engine.value("@kitchen", "air_quality")


async def test_schedules_run_on_ha_time_and_automations_are_refused(
    hass: HomeAssistant, home
) -> None:
    backend = await _backend(hass)
    at = (dt_util.now() + timedelta(minutes=5)).replace(microsecond=0)
    out = await dispatch_async(
        backend,
        "schedule_actions",
        {"at": at.isoformat(), "actions": [{"did": PORCH, "locator": "turn_on"}]},
    )
    assert out["ok"] is True and await backend.list_schedules() == [out["schedule"]]
    gone = await dispatch_async(
        backend,
        "schedule_actions",
        {"at": at.isoformat(), "actions": [{"did": SECRET, "locator": "turn_on"}]},
    )
    assert gone["error"]["code"] == "device_not_found" and gone["error"]["field"] == "actions.0.did"
    past = await backend.schedule(
        "2020-01-01T00:00:00", [{"did": PORCH, "locator": "turn_on", "arguments": {}}]
    )
    assert past["error"]["field"] == "at"
    async_fire_time_changed(hass, at + timedelta(seconds=1))
    await hass.async_block_till_done()
    assert hass.states.get(PORCH).state == "on" and await backend.list_schedules() == []
    later = await backend.schedule(
        (at + timedelta(hours=1)).isoformat(), [{"did": PORCH, "locator": "turn_off"}]
    )
    assert (await backend.cancel_schedule(later["schedule"]["id"]))["ok"]
    async_fire_time_changed(hass, at + timedelta(hours=2))
    await hass.async_block_till_done()
    assert hass.states.get(PORCH).state == "on"
    refused = await dispatch_async(
        backend,
        "create_automation",
        {
            "triggers": [{"kind": "time", "cron": "0 7 * * *"}],
            "actions": [{"did": PORCH, "locator": "turn_on"}],
        },
    )
    assert (
        refused["error"]["code"] == "unsupported"
        and "smh.create_automation" in refused["error"]["message"]
    )


async def test_every_method_is_a_coroutine_and_tools_await_them(hass: HomeAssistant, home) -> None:
    """HaBackend and the LLM API's UserHome are AsyncHomeBackends: all 13 methods coroutines, so tools that post-process a
    result (find_devices, get_current_time) and DR's replay await them like any other."""
    backend = await _backend(hass)
    methods = [m for m in dir(AsyncHomeBackend) if not m.startswith("_")]
    assert len(methods) == 13
    for backend_type in (HaBackend, UserHome):
        assert all(inspect.iscoroutinefunction(getattr(backend_type, m)) for m in methods)
    found = await dispatch_async(backend, "find_devices", {"description": "porch light"})
    assert found[0]["did"] == PORCH and found[0]["score"] > 0
    assert (await dispatch_async(backend, "get_current_time", {}))["now"] == await backend.now()
    assert (await dispatch_async(backend, "control_device", {"did": PORCH, "locator": "turn_on"}))[
        "ok"
    ]
    assert hass.states.get(PORCH).state == "on"
    # DR: the sync replay refuses an async backend before anything runs; async_apply awaits each call
    plan = DROutput(mode="execute", actions=[{"did": PORCH, "locator": "turn_off"}])
    agent = DRAgent(None, backend)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="async_apply"):
        agent.apply(plan)
    await hass.async_block_till_done()
    assert hass.states.get(PORCH).state == "on"
    assert (await agent.async_apply(plan))[0]["ok"] and hass.states.get(PORCH).state == "off"
