"""A light's brightness reads back what HA wrote, over every level: 1-255 (0 turns a light off in
HA) and every percentage, for a catalog light stored in 1-100 % and for a light imported from an
HA home stored in HA's own 0-255."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry

LIGHTS = {"percent": ("light.percent", None), "native": ("light.native", {"brightness": (0, 255)})}


async def _home(hass: HomeAssistant):
    room = Room(id="hall", type="hall", name="Hall")
    devices = [
        instantiate("light", did=did, room="hall", name=did.split(".")[1].title(), ranges=ranges)
        for did, ranges in LIGHTS.values()
    ]
    return await setup_home_entry(hass, Home(rooms=[room], devices=devices))


async def _turn_on(hass: HomeAssistant, entity_id: str, **data) -> int | None:
    await hass.services.async_call(
        "light", "turn_on", {"entity_id": entity_id, **data}, blocking=True
    )
    return hass.states.get(entity_id).attributes.get("brightness")


@pytest.mark.parametrize("kind", list(LIGHTS))
async def test_every_brightness_level_reads_back(hass: HomeAssistant, kind: str) -> None:
    entry = await _home(hass)
    did, _ = LIGHTS[kind]
    engine = entry.runtime_data.engine
    stored = set()
    for level in range(1, 256):
        assert await _turn_on(hass, did, brightness=level) == level, level
        stored.add(engine.value(did, "brightness"))
    # the percent light holds 100 values for 255 levels; the native one every level itself
    assert stored == (set(range(1, 101)) if kind == "percent" else set(range(1, 256)))


@pytest.mark.parametrize("kind", list(LIGHTS))
async def test_every_percentage_reads_back(hass: HomeAssistant, kind: str) -> None:
    entry = await _home(hass)
    did, _ = LIGHTS[kind]
    for pct in range(1, 101):
        level = await _turn_on(hass, did, brightness_pct=pct)
        assert level == round(pct * 255 / 100), pct
        if kind == "percent":
            assert entry.runtime_data.engine.value(did, "brightness") == pct


async def test_a_change_from_elsewhere_shows_the_scaled_value(hass: HomeAssistant) -> None:
    """The remembered HA value holds only while the device keeps what it became."""
    entry = await _home(hass)
    engine = entry.runtime_data.engine
    assert await _turn_on(hass, "light.percent", brightness=100) == 100  # stored as 39 %
    assert engine.value("light.percent", "brightness") == 39
    await hass.services.async_call(
        "smh",
        "execute",
        {"did": "light.percent", "locator": "set_brightness", "arguments": {"brightness": 40}},
        blocking=True,
    )
    assert hass.states.get("light.percent").attributes["brightness"] == 102  # 40 % scaled
    await hass.services.async_call(
        "smh",
        "execute",
        {"did": "light.percent", "locator": "set_brightness", "arguments": {"brightness": 39}},
        blocking=True,
    )
    assert (
        hass.states.get("light.percent").attributes["brightness"] == 99
    )  # 39 % scaled, HA did not write it


async def test_a_level_that_stores_the_same_percentage_still_shows(hass: HomeAssistant) -> None:
    await _home(hass)
    assert await _turn_on(hass, "light.percent", brightness=99) == 99
    assert (
        await _turn_on(hass, "light.percent", brightness=100) == 100
    )  # both 39 %: no engine change


async def test_a_native_light_keeps_brightness_zero_when_turned_on(hass: HomeAssistant) -> None:
    """The source's lights: one set up off at brightness 0 comes on at 0 (it keeps its level)."""
    entry = await _home(hass)
    entry.runtime_data.engine.set_values("light.native", {"brightness": 0})
    assert await _turn_on(hass, "light.native") == 0
    assert hass.states.get("light.native").state == "on"


async def test_a_refused_dim_changes_nothing(hass: HomeAssistant) -> None:
    """Dimming a light that is on (its own short path) is refused as any call is: while the home
    is fast-forwarded, and when the engine refuses it; the home, HA's state and the remembered
    HA value stay as they were, and the next call reads back as before."""
    from types import SimpleNamespace

    from homeassistant.exceptions import ServiceValidationError

    from smh_core.homeenv.errors import ErrorCode, ExecResult, ServiceError

    entry = await _home(hass)
    runtime = entry.runtime_data
    engine = runtime.engine
    assert await _turn_on(hass, "light.percent", brightness=100) == 100  # stored as 39 %
    before = (engine.to_home().model_dump_json(), hass.states.get("light.percent").as_dict())
    clock = runtime.clock
    runtime.clock = SimpleNamespace(in_slice=True)
    with pytest.raises(ServiceValidationError, match="being fast-forwarded"):
        await _turn_on(hass, "light.percent", brightness=30)
    runtime.clock = clock
    refused = ServiceError(ErrorCode.PRECONDITION_FAILED, "no dimming today")
    real = engine.execute
    engine.execute = lambda *a: ExecResult(False, error=refused)
    with pytest.raises(ServiceValidationError, match="no dimming today"):
        await _turn_on(hass, "light.percent", brightness=30)
    engine.execute = real
    assert (
        engine.to_home().model_dump_json(),
        hass.states.get("light.percent").as_dict(),
    ) == before
    assert await _turn_on(hass, "light.percent", brightness=99) == 99  # also 39 %: HA's 99 shown
