"""What HA writes reads back as written where the device is coarser than HA: a fan's percentage
(a three-speed fan holds 50 % as medium and shows 50) and a player's volume (whole percent holds
0.555 as 56 and shows 0.555); a value changed from elsewhere shows its own reading. (Brightness:
test_brightness_round_trip.py.)"""

from __future__ import annotations

from homeassistant.core import HomeAssistant

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry


async def test_every_fan_percentage_reads_back(hass: HomeAssistant) -> None:
    entry = await setup_home_entry(
        hass,
        Home(
            rooms=[Room(id="bed", type="bedroom", name="Bedroom")],
            devices=[
                instantiate("smart_fan", did="fan.bedroom_fan", room="bed", name="Bedroom Fan")
            ],
        ),
    )
    engine = entry.runtime_data.engine
    for pct in range(1, 101):
        await hass.services.async_call(
            "fan",
            "set_percentage",
            {"entity_id": "fan.bedroom_fan", "percentage": pct},
            blocking=True,
        )
        assert hass.states.get("fan.bedroom_fan").attributes["percentage"] == pct, pct
        assert engine.value("fan.bedroom_fan", "speed_level") == (
            "low" if pct <= 33 else "medium" if pct <= 66 else "high"
        )
    await hass.services.async_call(
        "smh",
        "execute",
        {
            "did": "fan.bedroom_fan",
            "locator": "set_speed_level",
            "arguments": {"speed_level": "low"},
        },
        blocking=True,
    )
    assert hass.states.get("fan.bedroom_fan").attributes["percentage"] == 33
    await hass.services.async_call(
        "fan", "turn_off", {"entity_id": "fan.bedroom_fan"}, blocking=True
    )
    assert hass.states.get("fan.bedroom_fan").attributes["percentage"] == 0
    await hass.services.async_call(
        "fan", "turn_on", {"entity_id": "fan.bedroom_fan", "percentage": 50}, blocking=True
    )
    assert hass.states.get("fan.bedroom_fan").attributes["percentage"] == 50


async def test_a_players_volume_reads_back(hass: HomeAssistant) -> None:
    entry = await setup_home_entry(
        hass,
        Home(
            rooms=[Room(id="den", type="living_room", name="Den")],
            devices=[
                instantiate(
                    "smart_screen",
                    did="media_player.den_tv",
                    room="den",
                    name="Den TV",
                    values={"state": "on"},
                )
            ],
        ),
    )
    engine = entry.runtime_data.engine

    async def volume(service: str, **data) -> float:
        await hass.services.async_call(
            "media_player", service, {"entity_id": "media_player.den_tv", **data}, blocking=True
        )
        return hass.states.get("media_player.den_tv").attributes["volume_level"]

    assert await volume("volume_set", volume_level=0.555) == 0.555
    assert engine.value("media_player.den_tv", "volume_level") == 56
    assert await volume("volume_up") == 0.66  # moved by the device: its own reading
    assert await volume("volume_set", volume_level=0.25) == 0.25
