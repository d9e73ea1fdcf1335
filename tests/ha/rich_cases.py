"""Table-driven checks of the rich platforms: each case is one catalog device type in a home of
its own, its entity's state, features and attributes, then HA service calls (blocking) with the
engine values each must produce; each invalid case is a call HA or the engine refuses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from sim_devices.catalog import instantiate
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry

DID = "100"


@dataclass(frozen=True)
class Step:
    """One HA service call and the engine values (and optionally the HA state) after it."""

    service: str
    data: dict[str, Any]
    engine: dict[str, Any]
    state: str | None = None


@dataclass(frozen=True)
class Case:
    type: str  # catalog device type
    key: str  # the rich entity's key: "light", or "fan.fan" for the fan component
    state: str
    features: int
    attributes: dict[str, Any]  # expected subset of the entity's attributes
    steps: tuple[Step, ...]
    push: tuple[dict[str, Any], str]  # engine-side values, and the HA state they must show at once
    values: dict[str, Any] = field(default_factory=dict)  # initial values over the type's defaults

    @property
    def platform(self) -> str:
        return self.key.rsplit(".", 1)[-1]

    def __str__(self) -> str:
        return self.type if "." not in self.key else f"{self.type}-{self.key.split('.')[0]}"


@dataclass(frozen=True)
class Invalid:
    """A call that must raise ServiceValidationError and leave the home unchanged."""

    type: str
    key: str
    service: str
    data: dict[str, Any]
    fragment: str  # in the engine's message (or, for HA's own refusals, the translation key)
    values: dict[str, Any] = field(default_factory=dict)

    @property
    def platform(self) -> str:
        return self.key.rsplit(".", 1)[-1]


async def setup_device(
    hass: HomeAssistant, type_name: str, values: dict[str, Any]
) -> tuple[MockConfigEntry, HomeEngine]:
    """Set up the integration on a home holding one device of ``type_name``."""
    device = instantiate(type_name, did=DID, room="r1", values=values or None)
    home = Home(
        name=type_name,
        rooms=[Room(id="r1", type="living_room", name="Living Room")],
        devices=[device],
    )
    entry = await setup_home_entry(hass, home)
    return entry, entry.runtime_data.engine


def entity_id(hass: HomeAssistant, entry: MockConfigEntry, platform: str, key: str) -> str:
    eid = er.async_get(hass).async_get_entity_id(platform, DOMAIN, f"{entry.entry_id}_{DID}_{key}")
    assert eid is not None, (platform, key)
    return eid


async def run_case(hass: HomeAssistant, case: Case) -> None:
    entry, engine = await setup_device(hass, case.type, case.values)
    eid = entity_id(hass, entry, case.platform, case.key)
    state = hass.states.get(eid)
    # (a helper module: pytest does not rewrite these asserts, so each names what it compared)
    assert state.state == case.state, state
    assert state.attributes["supported_features"] == case.features, state
    shown = {k: state.attributes.get(k) for k in case.attributes}
    assert shown == case.attributes, shown
    # the raw values of what the entity covers are attributes; none has a generic entity too
    (rich,) = entry.runtime_data.riches(case.platform)
    assert state.attributes["homeenv"] == {loc: engine.value(DID, loc) for loc in rich.locators}
    registry = er.async_get(hass)
    generic = {
        e.unique_id.removeprefix(f"{entry.entry_id}_{DID}_")
        for e in er.async_entries_for_config_entry(registry, entry.entry_id)
        if e.domain != case.platform
    }
    assert generic.isdisjoint(rich.locators)
    for step in case.steps:
        await hass.services.async_call(
            case.platform, step.service, {"entity_id": eid, **step.data}, blocking=True
        )
        values = {k: engine.value(DID, k) for k in step.engine}
        assert values == step.engine, (step, values)
        if step.state is not None:
            assert hass.states.get(eid).state == step.state, (step, hass.states.get(eid))
    pushed, expected = case.push
    assert engine.set_values(DID, pushed).ok
    assert hass.states.get(eid).state == expected, hass.states.get(eid)


async def run_invalid(hass: HomeAssistant, case: Invalid) -> None:
    entry, engine = await setup_device(hass, case.type, case.values)
    eid = entity_id(hass, entry, case.platform, case.key)
    before, shown = engine.snapshot(), hass.states.get(eid)
    with pytest.raises(ServiceValidationError) as exc:
        await hass.services.async_call(
            case.platform, case.service, {"entity_id": eid, **case.data}, blocking=True
        )
    placeholders = exc.value.translation_placeholders or {}
    message = placeholders.get("message", exc.value.translation_key or "")
    assert case.fragment in message, message
    assert engine.diff(before, engine.snapshot()) == []
    assert hass.states.get(eid).state == shown.state
    assert hass.states.get(eid).attributes == shown.attributes
