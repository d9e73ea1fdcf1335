"""End to end, in a browser: a real ``hass`` process with the SMH simple home, HA's device table
opened in headless Chromium grouped by area, a screenshot kept as a test artifact, and every
device of the home checked to be listed under its room's area.

Why a browser: the registry mirror (areas, devices) is only worth something if HA's own UI
shows it; the REST/websocket tests cannot see a frontend that hangs or a table that drops rows.

Needs /usr/bin/chromium (``scripts/ensure_chromium.sh`` installs it; ``make test`` runs that
first); without it the test fails. ``SMH_SKIP_BROWSER=1`` skips it.
The screenshot goes to ``$SMH_ARTIFACTS`` (default: ``artifacts/`` in the repository).
"""

from __future__ import annotations

import asyncio
import os
import struct
import sys
from pathlib import Path

import pytest
from playwright.async_api import Page, Route, async_playwright, expect

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.generator import generate_home
from smh_core.llm.local import free_port

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

pytestmark = pytest.mark.slow  # a real hass process and a browser: about 20 s

LEVEL, SEED = "simple", 0
CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium's own connections are refused on this
# closed network and slow the page down; --no-sandbox because tests run as root.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
DEVICES_PAGE = "/config/devices/dashboard"
SHOT_NAME = "ha-devices-by-area.png"
BLANK_PNG = bytes.fromhex(  # a 1x1 transparent PNG
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082")
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
    return [(engine.device(did).name, rooms[engine.device(did).userdata.room])
            for did in engine.device_ids()]


def artifact_dir() -> Path:
    """Where CI and people look for the screenshot (``/artifacts/`` is git-ignored)."""
    path = Path(os.environ.get("SMH_ARTIFACTS") or ROOT / "artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def require_chromium() -> None:
    """A missing browser is a set-up error, not a pass: fail loudly unless told to skip."""
    if os.environ.get("SMH_SKIP_BROWSER") == "1":
        pytest.skip("SMH_SKIP_BROWSER=1: the UI screenshot test is skipped")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash scripts/ensure_chromium.sh` (as root), "
                    "or set SMH_SKIP_BROWSER=1 to skip this test")


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG header (fails on anything that is not a PNG)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


async def log_in(page: Page, url: str) -> None:
    """Through HA's real login form (the frontend redirects there, then back to the page)."""
    await page.goto(url + DEVICES_PAGE)
    await page.get_by_role("textbox", name="Username").fill(ha_instance.USERNAME)
    await page.get_by_role("textbox", name="Password").fill(ha_instance.PASSWORD)
    await page.get_by_role("button", name="Log in").click()


async def shoot_devices(url: str, names: list[str], height: int, shot: Path) -> list[dict]:
    """Log in, open the device table grouped by area, wait for every device name, save the
    screenshot (also when waiting failed, to see why) and return the table's content."""
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context(viewport={"width": 1440, "height": height},
                                                locale="en-US")
            # The table's "Group by" choice lives in localStorage (the frontend's @storage).
            await context.add_init_script(
                "localStorage.setItem('devices-table-grouping', JSON.stringify('area'));")

            async def offline(route: Route) -> None:
                """Nothing leaves loopback: the integrations' brand icons (from the internet)
                get a blank image at once, not a timeout and a broken-image glyph."""
                if route.request.resource_type == "image":
                    await route.fulfill(content_type="image/png", body=BLANK_PNG)
                else:
                    await route.abort()

            await context.route(lambda u: not u.startswith(url), offline)
            page = await context.new_page()
            await log_in(page, url)
            try:
                for name in names:
                    await expect(page.get_by_text(name, exact=True).first).to_be_visible(timeout=30_000)
            finally:
                await page.screenshot(path=shot)
            return await page.locator("ha-data-table").first.evaluate(TABLE_JS)
        finally:
            await browser.close()


def area_of_rows(table: list[dict]) -> dict[str, tuple[str, str]]:
    """Device name -> (group header it sits under, its Area cell)."""
    header = next(item["cells"] for item in table if "cells" in item)
    name_col, area_col = header.index("Device"), header.index("Area")
    placed: dict[str, tuple[str, str]] = {}
    group = ""
    for item in table:
        if "group" in item:
            group = item["group"]
        elif item["cells"] is not header:
            placed[item["cells"][name_col]] = (group, item["cells"][area_col])
    return placed


def test_device_table_shows_every_device_in_its_area(tmp_path, socket_enabled):
    require_chromium()
    layout = expected_layout(LEVEL, SEED)
    areas = {area for _, area in layout}
    assert layout and areas
    shot = artifact_dir() / SHOT_NAME
    shot.unlink(missing_ok=True)
    # Tall enough for every row (the table is virtualized): devices, area headers, HA's own
    # devices under "Ungrouped", the column header and the toolbar.
    height = 200 + ROW_PX * (len(layout) + len(areas) + 6)

    async def scenario() -> list[dict]:
        inst = await ha_instance.launch(tmp_path / "ha", free_port(), LEVEL, SEED, time_scale=0.0)
        try:
            return await shoot_devices(inst.url, [name for name, _ in layout], height, shot)
        finally:
            inst.stop()

    loop = asyncio.new_event_loop()
    try:
        table = loop.run_until_complete(scenario())
    finally:
        loop.close()

    assert png_size(shot) == (1440, height) and shot.stat().st_size > 20_000, shot
    placed = area_of_rows(table)
    missing = [name for name, _ in layout if name not in placed]
    assert not missing, f"devices not in the table: {missing}; see {shot}"
    assert areas <= {group for group, _ in placed.values()}, f"area groups missing; see {shot}"
    for name, area in layout:
        assert placed[name] == (area, area), f"{name} should be under and in area {area}; see {shot}"
