"""What the integration leaves for later: the benchmark's and the synthesizer's services import
their code on their first call, and the LLM API is offered once HA's conversation integration
is loaded. Each stands in for the real one exactly: same schema, admin check and response."""

from __future__ import annotations

import pytest
import voluptuous as vol
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError, Unauthorized
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser

from custom_components.smh.const import (
    DOMAIN,
    SERVICE_AGENT_TRACE,
    SERVICE_LOAD_TASK,
    SERVICE_VERIFY,
)
from custom_components.smh.services import OWN, SERVICES


def _handler(hass: HomeAssistant, service: str) -> object:
    return hass.services.async_services_for_domain(DOMAIN)[service].job.target


async def test_first_call_puts_the_real_service_in_place_and_answers(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    placeholder = _handler(hass, SERVICE_AGENT_TRACE)
    answer = await hass.services.async_call(
        DOMAIN,
        SERVICE_AGENT_TRACE,
        {"conversation_id": "nobody"},
        blocking=True,
        return_response=True,
    )
    assert answer is not None and answer["agent_entity_ids"] == []  # the real service's response
    real = _handler(hass, SERVICE_AGENT_TRACE)
    assert real is not placeholder
    # its module registered its siblings too: no second import, no second placeholder
    assert _handler(hass, SERVICE_VERIFY) is not placeholder
    with pytest.raises(ServiceValidationError) as exc:  # the real service's own refusal
        await hass.services.async_call(
            DOMAIN, SERVICE_VERIFY, {}, blocking=True, return_response=True
        )
    assert exc.value.translation_key == "no_task"
    assert _handler(hass, SERVICE_AGENT_TRACE) is real


async def test_first_call_is_held_to_the_real_schema(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    """The placeholder takes anything; the call it passes on meets the real schema."""
    with pytest.raises(vol.Invalid):
        await hass.services.async_call(
            DOMAIN, SERVICE_LOAD_TASK, {"no such field": 1}, blocking=True
        )
    assert tiny_entry.runtime_data.task is None


async def test_a_non_admin_is_refused_before_anything_is_imported(
    hass: HomeAssistant, tiny_entry: MockConfigEntry, hass_read_only_user: MockUser
) -> None:
    admin_only = sorted(s.name for s in SERVICES if s.module != OWN and s.admin)
    placeholders = {s: _handler(hass, s) for s in admin_only}
    for service in admin_only:
        with pytest.raises(Unauthorized):
            await hass.services.async_call(
                DOMAIN, service, {}, blocking=True, context=Context(user_id=hass_read_only_user.id)
            )
    assert {s: _handler(hass, s) for s in admin_only} == placeholders


async def test_the_llm_api_comes_with_conversation(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    assert "smh" not in {api.id for api in llm.async_get_apis(hass)}
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    await hass.async_block_till_done()
    assert "smh" in {api.id for api in llm.async_get_apis(hass)}


async def test_each_placeholder_offers_what_its_real_service_offers(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    """A placeholder offers its service's response mode; the real registration must agree."""
    await hass.services.async_call(
        DOMAIN, SERVICE_AGENT_TRACE, {"conversation_id": "x"}, blocking=True, return_response=True
    )  # loads bench_services
    with pytest.raises(ServiceValidationError):  # loads automation; this entry has no model
        await hass.services.async_call(
            DOMAIN, "create_automation", {"text": "lights off at 23:00"}, blocking=True
        )
    with pytest.raises(ServiceValidationError):  # loads tool_calls; there is no such LLM API
        await hass.services.async_call(
            DOMAIN, "call_tools", {"api": "none", "calls": []}, blocking=True
        )
    services = hass.services.async_services_for_domain(DOMAIN)
    for spec in SERVICES:
        assert services[spec.name].supports_response == spec.responses, spec.name


async def test_the_llm_api_loads_its_tools_on_first_use_once(
    hass: HomeAssistant, tiny_entry: MockConfigEntry
) -> None:
    """Offered by name when conversation loads; the first instances (two turns at once) load
    one real API, whose tools every later instance shares with its pending consents."""
    import asyncio

    from custom_components.smh.llm_api_offer import OfferedAPI

    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    await hass.async_block_till_done()
    offered = next(api for api in llm.async_get_apis(hass) if api.id == "smh")
    assert isinstance(offered, OfferedAPI) and offered._real is None
    context = llm.LLMContext(
        platform="test", context=Context(), language="en", assistant=None, device_id=None
    )
    first, second = await asyncio.gather(
        llm.async_get_api(hass, "smh", context), llm.async_get_api(hass, "smh", context)
    )
    real = offered._real
    assert real is not None and first.api is real and second.api is real
    names = {tool.name for tool in first.tools}
    assert {"list_devices", "control_device"} <= names and "ask_user" not in names
    third = await llm.async_get_api(hass, "smh", context)
    assert offered._real is real and third.api is real
