"""One exposure rule (:mod:`custom_components.smh.exposure`, issue 36 item 2): SMH's agent
(:class:`~custom_components.smh.ha_backend.HaBackend`) and the ``smh`` LLM API see the same
entities of a simulated home for the same settings in Settings > Voice assistants > Expose, and
an unexposed lock is invisible to both."""

from __future__ import annotations

import pytest
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import llm

from custom_components.smh.compat import result_data
from custom_components.smh.exposure import exposed_attributes, is_exposed
from custom_components.smh.ha_backend import HaBackend
from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry

CONTEXT = llm.LLMContext(
    platform="test", context=None, language="en", assistant=None, device_id=None
)
LAMP, LOCK = "2001", "2002"


async def _home(hass: HomeAssistant) -> tuple[dict[tuple[str, str], str], set[str]]:
    """A lamp and a front-door lock; ``(did, locator) -> entity id`` and all of the home's
    entity ids."""
    home = Home(
        name="exposure",
        rooms=[Room(id="r1", type="living_room", name="Hall")],
        devices=[
            instantiate("light", did=LAMP, room="r1"),
            instantiate("smart_lock", did=LOCK, room="r1"),
        ],
    )
    entry = await setup_home_entry(hass, home)
    ids = entry.runtime_data.entity_ids(hass)
    entities = {
        e.entity_id for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
    }
    return ids, entities


async def _api_view(hass: HomeAssistant, ids: dict[tuple[str, str], str]) -> set[str]:
    """The entities whose attributes the ``smh`` LLM API shows (through its own tools)."""
    api = await llm.async_get_api(hass, "smh", CONTEXT)
    listed = result_data(await api.async_call_tool(llm.ToolInput("list_devices", {})))
    seen = set()
    for device in listed["result"]:  # a list comes back wrapped in an object
        spec = result_data(
            await api.async_call_tool(llm.ToolInput("get_device_spec", {"did": device["did"]}))
        )
        seen |= {ids[(device["did"], loc)] for loc in spec["attributes"]}
    return seen


async def _agent_view(hass: HomeAssistant, entities: set[str]) -> set[str]:
    """The home's entities SMH's agent lists (it sees HA's entities, not the engine's)."""
    return {d["did"] for d in await HaBackend(hass).list_devices()} & entities


@pytest.mark.parametrize(
    "shown",
    ["all", "lock entity only", "no lock entity"],
    ids=["lock exposed", "lock's own entity only", "lock hidden"],
)
async def test_agent_and_llm_api_see_the_same_entities(
    hass: HomeAssistant, conversation: None, shown: str
) -> None:
    ids, entities = await _home(hass)
    lock_entities = {e for (did, _), e in ids.items() if did == LOCK}
    lock_exposed = shown != "no lock entity"
    for entity_id in entities:
        async_expose_entity(
            hass,
            "conversation",
            entity_id,
            entity_id not in lock_entities
            or shown == "all"
            or (shown == "lock entity only" and entity_id.startswith("lock.")),
        )
    agent, api = await _agent_view(hass, entities), await _api_view(hass, ids)
    assert agent == api == {e for e in ids.values() if is_exposed(hass, e)}
    assert bool(lock_entities & agent) is lock_exposed
    if shown == "lock entity only":
        assert [e.split(".")[0] for e in agent if e in lock_entities] == ["lock"]
    assert {e for (did, _), e in ids.items() if did == LAMP} <= agent
    if not lock_exposed:  # not found, exactly like a device that does not exist
        backend = HaBackend(hass)
        for entity_id in lock_entities:
            assert (await backend.device_status(entity_id))["error"]["code"] == "device_not_found"
        api_instance = await llm.async_get_api(hass, "smh", CONTEXT)
        status = result_data(
            await api_instance.async_call_tool(llm.ToolInput("get_device_status", {"did": LOCK}))
        )
        assert status["error"]["code"] == "device_not_found"


async def test_without_exposure_settings_everything_is_visible(hass: HomeAssistant) -> None:
    """A bare instance (no ``homeassistant`` integration, so no settings): the rule's one
    exception, as before for the LLM API."""
    ids, _ = await _home(hass)
    assert exposed_attributes(hass, ids) is None
    assert all(is_exposed(hass, e) for e in ids.values())
