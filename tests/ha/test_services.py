"""``smh.execute`` and ``smh.snapshot`` through Home Assistant's service layer."""

from __future__ import annotations

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError

from custom_components.smh.const import DOMAIN


async def test_execute_applies_a_valid_call(hass: HomeAssistant, tiny_entry) -> None:
    response = await hass.services.async_call(
        DOMAIN,
        "execute",
        {"did": "1002", "locator": "fan.turn_on"},
        blocking=True,
        return_response=True,
    )
    assert response == {
        "changes": [{"did": "1002", "locator": "fan.state", "before": "off", "after": "on"}]
    }
    assert tiny_entry.runtime_data.engine.value("1002", "fan.state") == "on"


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (
            {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "turbo"}},
            "invalid_option",
        ),
        (
            {"did": "1001", "locator": "set_brightness", "arguments": {"brightness": 10}},
            "the lamp must be on",
        ),
        ({"did": "42", "locator": "turn_on"}, "device_not_found"),
    ],
)
async def test_invalid_call_raises_with_engine_message(
    hass: HomeAssistant, tiny_entry, data, fragment
) -> None:
    before = await hass.services.async_call(
        DOMAIN, "snapshot", {}, blocking=True, return_response=True
    )
    with pytest.raises(ServiceValidationError) as exc:
        await hass.services.async_call(DOMAIN, "execute", data, blocking=True, return_response=True)
    assert exc.value.translation_key == "engine_error"
    assert fragment in exc.value.translation_placeholders["message"]
    after = await hass.services.async_call(
        DOMAIN, "snapshot", {}, blocking=True, return_response=True
    )
    assert after == before


async def test_snapshot_returns_every_device(hass: HomeAssistant, tiny_entry) -> None:
    response = await hass.services.async_call(
        DOMAIN, "snapshot", {}, blocking=True, return_response=True
    )
    assert response["home"] == "tiny"
    assert set(response["devices"]) == {"1001", "1002", "1003"}
    assert response["devices"]["1003"]["target_temperature"] == 24.0


async def test_services_without_a_loaded_home_fail_clearly(hass: HomeAssistant, tiny_entry) -> None:
    with pytest.raises(ServiceValidationError) as exc:
        await hass.services.async_call(
            DOMAIN, "snapshot", {"config_entry_id": "nope"}, blocking=True, return_response=True
        )
    assert exc.value.translation_key == "no_home"


async def test_snapshot_names_each_device_and_its_room(hass: HomeAssistant, tiny_entry) -> None:
    response = await hass.services.async_call(
        DOMAIN, "snapshot", {}, blocking=True, return_response=True
    )
    info = response["device_info"]
    assert set(info) == set(response["devices"])
    assert info["1003"]["room_name"] and info["1003"]["name"]
    assert all(v["model"] and "_" not in v["model"] for v in info.values())


async def test_device_models_read_as_words_with_the_type_id_kept(
    hass: HomeAssistant, tiny_entry
) -> None:
    from homeassistant.helpers import device_registry as dr

    from custom_components.smh.registry import readable_model

    assert readable_model("floor_ac") == "Floor AC" and readable_model("smart_lock") == "Smart Lock"
    devices = [
        d
        for d in dr.async_entries_for_config_entry(dr.async_get(hass), tiny_entry.entry_id)
        if d.serial_number in ("1001", "1002", "1003")
    ]
    assert len(devices) == 3
    for device in devices:
        assert device.model == readable_model(device.model_id) and "_" not in device.model
