"""End to end, in a browser: a real ``hass`` process with the SMH simple home, HA's device table
opened in headless Chromium grouped by area, a screenshot kept as a test artifact, and every
device of the home checked to be listed under its room's area.

Why a browser: the registry mirror (areas, devices) is only worth something if HA's own UI
shows it; the REST/websocket tests cannot see a frontend that hangs or a table that drops rows.

Browser set-up, skip rule and artifact folder: :mod:`tests.e2e.ui_browser`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import expect

from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.generator import generate_home
from smh_core.llm.local import free_port

from .ui_browser import WIDTH, browser_page, fresh_shot, ha_instance, png_size, run_in_own_loop

pytestmark = pytest.mark.slow  # a real hass process and a browser: about 20 s

LEVEL, SEED = "simple", 0
DEVICES_PAGE = "/config/devices/dashboard"
SHOT_NAME = "ha-devices-by-area.png"
ROW_PX = 56  # height of a data-table row or group header in HA's frontend
# Walks the device table in document order: group headers (area names) and rows (cell texts).
TABLE_JS = """table => Array.from(table.shadowRoot.querySelectorAll('.group-header, [role=row]'),
  el => el.matches('.group-header') ? {group: el.innerText.trim()} : {cells: Array.from(
    el.querySelectorAll('[role=cell], [role=rowheader], [role=columnheader]'),
    c => c.innerText.trim())})"""


def expected_layout(level: str, seed: int) -> list[tuple[str, str]]:
    """(device name, area name) per HomeEnv device, named as ``registry.mirror_layout``
    registers them: the device's name, in the area named after its room."""
    engine = HomeEngine(generate_home(level, seed))
    rooms = {r.id: r.name for r in engine.rooms()}
    return [
        (engine.device(did).name, rooms[engine.device(did).userdata.room])
        for did in engine.device_ids()
    ]


async def shoot_devices(url: str, names: list[str], height: int, shot: Path) -> list[dict]:
    """Log in, open the device table grouped by area, wait for every device name, save the
    screenshot (also when waiting failed, to see why) and return the table's content."""
    # The table's "Group by" choice lives in localStorage (the frontend's @storage).
    grouping = "localStorage.setItem('devices-table-grouping', JSON.stringify('area'));"
    async with browser_page(url, DEVICES_PAGE, height, grouping) as page:
        try:
            for name in names:
                await expect(page.get_by_text(name, exact=True).first).to_be_visible(timeout=30_000)
        finally:
            await page.screenshot(path=shot)
        return await page.locator("ha-data-table").first.evaluate(TABLE_JS)


def area_of_rows(table: list[dict]) -> dict[str, tuple[str, str]]:
    """Device name -> (group header it sits under, its Area cell)."""
    header = next(item["cells"] for item in table if "cells" in item)
    name_col, area_col = header.index("Device"), header.index("Area")
    placed: dict[str, tuple[str, str]] = {}
    group = ""
    for item in table:
        if "group" in item:
            group = item["group"]
        elif item["cells"] is not header and len(item["cells"]) > max(name_col, area_col):
            # (HA 2026.11's table wraps each group header in a row of its own, with no cells)
            placed[item["cells"][name_col]] = (group, item["cells"][area_col])
    return placed


def test_device_table_shows_every_device_in_its_area(tmp_path, socket_enabled):
    shot = fresh_shot(SHOT_NAME)
    layout = expected_layout(LEVEL, SEED)
    areas = {area for _, area in layout}
    assert layout and areas
    # Tall enough for every row (the table is virtualized): devices, area headers, HA's own
    # devices under "Ungrouped", the column header and the toolbar.
    height = 200 + ROW_PX * (len(layout) + len(areas) + 6)

    async def scenario() -> list[dict]:
        inst = await ha_instance.launch(tmp_path / "ha", free_port(), LEVEL, SEED, time_scale=0.0)
        try:
            return await shoot_devices(inst.url, [name for name, _ in layout], height, shot)
        finally:
            inst.stop()

    table = run_in_own_loop(scenario())

    assert png_size(shot) == (WIDTH, height) and shot.stat().st_size > 20_000, shot
    placed = area_of_rows(table)
    missing = [name for name, _ in layout if name not in placed]
    assert not missing, f"devices not in the table: {missing}; see {shot}"
    assert areas <= {group for group, _ in placed.values()}, f"area groups missing; see {shot}"
    for name, area in layout:
        assert placed[name] == (area, area), (
            f"{name} should be under and in area {area}; see {shot}"
        )
