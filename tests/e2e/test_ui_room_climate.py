"""End to end, in a browser: on ``make demo``'s configuration (recorder and history on), a room of
the generated home shows its climate from HA's Overview: the area page lists the room's
temperature, and its dialog leads to the temperature's history graph.

Why a browser: "what is the temperature in the living room?" needs a room temperature entity
in the room's area; the history graph needs the recorder and a numeric sensor HA can chart
(device class, unit, state class). Only the frontend shows the three together.

Browser set-up, skip rule and artifact folder: :mod:`tests.e2e.ui_browser`.
"""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from smh_core.llm.local import free_port

from .test_ui_assist import states
from .ui_browser import WIDTH, browser_page, fresh_shot, ha_instance, png_size, run_in_own_loop

pytestmark = pytest.mark.slow  # a real hass with a recorder and a browser: about 40 s

LEVEL, SEED = "simple", 0
AREA = "Living Room"
SHOT_NAME = "ha-room-climate-history.png"


def room_temperature(all_states: dict[str, dict]) -> tuple[str, str]:
    """(entity id, friendly name) of the living room's temperature sensor."""
    found = sorted(
        (eid, s["attributes"]["friendly_name"])
        for eid, s in all_states.items()
        if eid.startswith("sensor.")
        and s["attributes"].get("device_class") == "temperature"
        and s["attributes"].get("friendly_name", "").startswith(AREA)
    )
    assert found, f"no temperature sensor for the {AREA}"
    return found[0]


async def open_room_temperature(page: Page, shot) -> None:
    """Overview -> the room's area -> its temperature -> its history graph."""
    try:
        # the area's button carries the area's temperature once the room's sensor is the area's
        # own ("Living Room 29.2 °C"): match the name it starts with
        await page.get_by_role("button", name=re.compile(rf"^{AREA}(\s|$)")).first.click()
        # the room climate's tile (its container takes the click, not the label)
        await page.locator("ha-tile-container").filter(has_text="Temperature").first.click()
        # the more-info dialog (an alertdialog up to HA 2026.2's frontend, a dialog in 2026.11's)
        await expect(
            page.get_by_role("alertdialog").or_(page.get_by_role("dialog")).first
        ).to_be_visible(timeout=15_000)
        # The dialog's own graph is of 5-minute statistics (none yet in a fresh HA); its "Show
        # more" opens the History page with the recorded states of the sensor, drawn at once.
        await page.get_by_role("link", name="Show more").click()
        await expect(page).to_have_url(re.compile(r"/history\?.*entity_id="), timeout=15_000)
        # HA draws the history as an echarts canvas inside its chart element
        await expect(page.locator("ha-chart-base canvas").first).to_be_visible(timeout=20_000)
    finally:
        await page.screenshot(path=shot)


def test_overview_room_shows_temperature_with_history(tmp_path, socket_enabled):
    shot = fresh_shot(SHOT_NAME)

    async def scenario() -> tuple[str, str]:
        inst = await ha_instance.launch(
            tmp_path / "ha", free_port(), LEVEL, SEED, time_scale=60.0, demo=True
        )
        try:
            entity_id, _ = room_temperature(await states(inst.url, inst.token))
            async with browser_page(inst.url, "/lovelace/0") as page:
                await open_room_temperature(page, shot)
            return entity_id, (await states(inst.url, inst.token))[entity_id]["state"]
        finally:
            inst.stop()

    entity_id, value = run_in_own_loop(scenario())

    assert png_size(shot)[0] == WIDTH, shot
    assert 0 < float(value) < 45, f"{entity_id} = {value}: not a room temperature"
