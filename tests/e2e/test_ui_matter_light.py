"""End to end, in a browser: a Matter light of the simulated home, served by ``smh
matter-server`` and added to a real ``hass`` through HA's own ``matter`` integration (its real
config flow), is switched from HA's UI, and the simulated light follows.

Why a browser: the Matter tests drive HA's services; this one proves that what HA's matter
integration makes of our nodes is a light a user can toggle in the frontend (more-info dialog),
and that the toggle reaches the simulated device over the Matter WebSocket protocol.

Browser set-up, skip rule and artifact folder: :mod:`tests.e2e.ui_browser`.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys

import aiohttp
import pytest
from playwright.async_api import Page, expect

from sim_devices.catalog import instantiate
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home, Room
from smh_core.llm.local import free_port

from .test_ui_assist import states
from .ui_browser import WIDTH, browser_page, fresh_shot, ha_instance, png_size, run_in_own_loop

pytestmark = pytest.mark.slow  # a real hass, the Matter bridge and a browser: about 40 s

LIGHT_NAME = "Reading Lamp"
SHOT_NAME = "ha-matter-light-toggled.png"


def lamp_home() -> Home:
    """One Matter dimmable light, off, in the living room."""
    lamp = instantiate("dimmable_light", did="4001", room="living", name=LIGHT_NAME, kind="matter")
    home = Home(
        name="matter-lamp",
        rooms=[Room(id="living", type="living_room", name="Living Room")],
        devices=[lamp],
    )
    engine = HomeEngine(home)
    engine.execute("4001", "1.OnOff.Off")
    return engine.home


async def start_bridge(home_file, port: int, save_file) -> subprocess.Popen:
    """``smh matter-server`` in its own process, saving the home on exit (to read the lamp)."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "matter-server",
            "--home",
            str(home_file),
            "--port",
            str(port),
            "--save",
            str(save_file),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = await asyncio.get_running_loop().run_in_executor(None, process.stdout.readline)
    assert line.startswith("serving"), f"the Matter bridge did not start: {line}"
    return process


async def add_matter(url: str, token: str, port: int) -> None:
    """HA's own config flow for ``matter``, as the UI runs it: the server's WebSocket address."""
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(
            f"{url}/api/config/config_entries/flow", json={"handler": "matter"}
        ) as r:
            flow = await r.json()
        # without the Supervisor the flow asks for the server's address directly
        async with session.post(
            f"{url}/api/config/config_entries/flow/{flow['flow_id']}",
            json={"url": f"ws://127.0.0.1:{port}/ws"},
        ) as r:
            result = await r.json()
    assert result.get("type") == "create_entry", f"matter config flow: {result}"


async def matter_light(url: str, token: str) -> str:
    """The light entity HA's matter integration made of the lamp (waits for discovery)."""
    for _ in range(100):
        found = [
            eid
            for eid, s in (await states(url, token)).items()
            if eid.startswith("light.")
            and LIGHT_NAME.lower() in s["attributes"].get("friendly_name", "").lower()
        ]
        if found:
            return found[0]
        await asyncio.sleep(0.2)
    raise AssertionError(f"HA's matter integration made no light named {LIGHT_NAME!r}")


async def toggle_in_more_info(page: Page, entity_id: str, shot) -> None:
    """Open the light's more-info dialog from the entities table and switch it on there."""
    try:
        # the search field: a textbox named "Search" in HA 2026.2's frontend; in 2026.11's it has
        # no name, only its placeholder ("Search 59 entities")
        search = page.get_by_role("textbox", name="Search").or_(
            page.get_by_role("textbox").and_(page.get_by_placeholder(re.compile(r"^Search \d")))
        )
        await search.first.fill(entity_id)
        # the entity's row (not its device's group header, itself a row in HA 2026.11's table)
        # opens the entity's dialog
        await (
            page.locator("[role=row]:not(.group-header-row)")
            .filter(has_text=LIGHT_NAME)
            .first.click()
        )
        # the more-info dialog: an alertdialog in HA 2026.2's frontend, a dialog in 2026.11's
        dialog = (
            page.get_by_role("alertdialog", name=LIGHT_NAME).or_(page.get_by_role("dialog")).first
        )
        await expect(dialog).to_be_visible(timeout=15_000)
        # (the state line lives in a nested shadow root: matched through the accessibility tree)
        await expect(dialog).to_match_aria_snapshot('- paragraph: "Off"')
        assert LIGHT_NAME in await dialog.aria_snapshot(), "the light's own dialog"
        await page.get_by_role("button", name="Toggle", exact=True).click()  # the dialog's only one
        # once the bridge's attribute report came back the dialog shows the lit lamp's brightness
        await expect(dialog).to_match_aria_snapshot("- paragraph: /\\d+%/", timeout=15_000)
    finally:
        await page.screenshot(path=shot)


def test_matter_light_toggles_from_the_ui(tmp_path, socket_enabled):
    shot = fresh_shot(SHOT_NAME)
    home_file, saved = tmp_path / "lamp.json", tmp_path / "lamp-after.json"
    home_file.write_text(dump_home(lamp_home()), encoding="utf-8")

    async def scenario() -> tuple[str, str]:
        port = free_port()
        bridge = await start_bridge(home_file, port, saved)
        try:
            inst = await ha_instance.launch(
                tmp_path / "ha", free_port(), "simple", 0, time_scale=0.0
            )
            try:
                await add_matter(inst.url, inst.token, port)
                entity_id = await matter_light(inst.url, inst.token)
                assert (await states(inst.url, inst.token))[entity_id]["state"] == "off"
                async with browser_page(inst.url, "/config/entities") as page:
                    await toggle_in_more_info(page, entity_id, shot)
                for _ in range(50):
                    if (after := (await states(inst.url, inst.token))[entity_id]["state"]) == "on":
                        break
                    await asyncio.sleep(0.1)
                return entity_id, after
            finally:
                inst.stop()
        finally:
            ha_instance.stop_process(bridge)

    entity_id, after = run_in_own_loop(scenario())

    assert png_size(shot)[0] == WIDTH, shot
    assert after == "on", f"{entity_id} is {after} in HA after the toggle; see {shot}"
    lamp = HomeEngine.from_file(saved).status("4001")  # the bridge's own home, saved as it stopped
    assert lamp["1.OnOff.OnOff"] is True, f"the simulated lamp did not follow the UI: {lamp}"
