"""Media players: the smart screen and the speaker's player component, through HA's
media_player services."""

from __future__ import annotations

import pytest
from homeassistant.components.media_player import MediaPlayerEntityFeature as F
from homeassistant.core import HomeAssistant

from tests.ha.rich_cases import Case, Invalid, Step, run_case, run_invalid

FEATURES = (
    F.TURN_ON
    | F.TURN_OFF
    | F.VOLUME_SET
    | F.VOLUME_STEP
    | F.VOLUME_MUTE
    | F.PLAY
    | F.PAUSE
    | F.STOP
    | F.PLAY_MEDIA
)
JAZZ = {"media_content_id": "Jazz at noon", "media_content_type": "music"}
CASES = [
    Case(
        "smart_screen",
        "media_player",
        "off",
        FEATURES,
        {"volume_level": None, "device_class": None},
        (
            Step("turn_on", {}, {"state": "on", "work_state": "standby"}, "idle"),
            Step(
                "play_media",
                JAZZ,
                {"work_state": "playing", "media_name": "Jazz at noon"},
                "playing",
            ),
            Step("media_pause", {}, {"work_state": "paused"}, "paused"),
            Step(
                "media_play", {}, {"work_state": "playing", "media_name": "Jazz at noon"}, "playing"
            ),
            Step("volume_set", {"volume_level": 0.5}, {"volume_level": 50}),
            Step("volume_up", {}, {"volume_level": 60}),
            Step("volume_down", {}, {"volume_level": 50}),
            Step("volume_mute", {"is_volume_muted": True}, {"volume_muted_enabled": True}),
            Step("volume_mute", {"is_volume_muted": False}, {"volume_muted_enabled": False}),
            Step("media_stop", {}, {"work_state": "standby"}, "idle"),
            Step("turn_off", {}, {"state": "off"}, "off"),
        ),
        push=({"state": "on", "work_state": "paused"}, "paused"),
    ),
    Case(
        "universal_speaker",
        "player.media_player",
        "idle",
        FEATURES | F.NEXT_TRACK | F.PREVIOUS_TRACK,
        {
            "volume_level": 0.35,
            "is_volume_muted": False,
            "device_class": "speaker",
            "media_title": None,
            "media_track": 1,
        },
        (
            Step(
                "play_media",
                {"media_content_id": "News", "media_content_type": "music"},
                {"player.work_state": "playing", "player.media_name": "News"},
                "playing",
            ),
            Step("media_next_track", {}, {"player.media_track": 2, "player.work_state": "playing"}),
            Step("media_pause", {}, {"player.work_state": "paused"}, "paused"),
            Step(
                "media_next_track",
                {},
                {"player.media_track": 3, "player.work_state": "playing"},
                "playing",
            ),
            Step("media_previous_track", {}, {"player.media_track": 2}),
            Step("volume_mute", {"is_volume_muted": True}, {"player.volume_muted_enabled": True}),
            Step("turn_off", {}, {"player.state": "off", "player.work_state": "standby"}, "off"),
        ),
        push=({"player.state": "on"}, "idle"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
async def test_media_player(hass: HomeAssistant, case: Case) -> None:
    await run_case(hass, case)


async def test_playing_on_a_screen_that_is_off_is_refused(hass: HomeAssistant) -> None:
    await run_invalid(
        hass,
        Invalid("smart_screen", "media_player", "media_play", {}, "the smart screen must be on"),
    )
