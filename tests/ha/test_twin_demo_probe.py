"""A probed twin takes an off-grid value as the real device does (issue 39): HA's demo window
holds steps of 10 and, asked for 23, stops at 20 (``round(position, -1)``). Probed, the twin
learns that it rounds to the nearest step and stops where the window does; unprobed (or with a
step but no rounding learnt) it held or refused such a value, where the real window rounded it."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from homeassistant.core import HomeAssistant

from smh_core.cli.main import main
from smh_core.ha.ha_inventory import read_inventory
from smh_core.ha.hardware import HardwareClient
from smh_core.ha.twin_map import twin_mapping
from smh_core.ha.twin_probe import observe
from smh_core.ha.websocket import connect
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home
from smh_core.task.model import HomeRef
from tests.ha import test_twin_demo

demo_url = test_twin_demo.demo_url  # HA's demo home on a loopback port
WINDOW = "cover.living_room_window"
OFF_GRID = (23, 45, 78)
"""Below, on and above the middle of a step (45: a tie, which the demo takes to the even 40)."""


async def test_an_off_grid_request_settles_alike_on_twin_and_real(
    hass: HomeAssistant, demo_url: str, hass_access_token: str, tmp_path: Path
) -> None:
    ha = ["--ha-url", demo_url, "--token", hass_access_token]
    whole = tmp_path / "demo.json"
    assert (
        await hass.async_add_executor_job(main, ["home", "from-ha", *ha, "--out", str(whole)]) == 0
    )
    full = HomeEngine.from_file(whole).home
    # the window alone: probing every demo device takes a minute and teaches this test nothing
    home = Home(
        name=full.name, rooms=full.rooms, devices=[d for d in full.devices if d.did == WINDOW]
    )
    twin, probed = tmp_path / "twin.json", tmp_path / "probed.json"
    twin.write_text(dump_home(home), encoding="utf-8")
    argv = ["home", "probe", "--home", str(twin), *ha, "--out", str(probed), "--yes"]
    assert await hass.async_add_executor_job(main, argv) == 0
    assert "takes other values to the nearest step" in (tmp_path / "probed.probe.md").read_text()
    calibrated = HomeEngine.from_file(probed)
    (setter,) = [
        s
        for s in next(d for d in calibrated.home.devices if d.did == WINDOW).services
        if s.name == "set_position"
    ]
    assert (setter.arguments[0].precision, setter.arguments[0].rounding) == (10, "nearest")
    unprobed = HomeEngine(home)

    async with connect(demo_url, hass_access_token) as call:
        inventory = await read_inventory(call)
    mapping = twin_mapping(home, HomeRef(file="homes/twin.json"), inventory).mapping()
    like = unprobed.snapshot()
    stops = []
    async with aiohttp.ClientSession() as session:
        client = HardwareClient(demo_url, hass_access_token, session)
        for asked in OFF_GRID:
            real = await observe(client, mapping, WINDOW, "position", like, asked, interval=0.05)
            assert real.refused is None and real.still, real
            result = calibrated.execute(WINDOW, "set_position", {setter.arguments[0].name: asked})
            assert result.ok, result.error
            assert calibrated.value(WINDOW, "position") == real.settled, (asked, real.path)
            stops.append(real.settled)
    assert stops == [20, 40, 80]  # the nearest step; the tie to the even one
    # as imported, the twin has no grid: it holds 23 where the real window stops at 20
    assert unprobed.execute(WINDOW, "set_position", {"position": 23}).ok
    assert unprobed.value(WINDOW, "position") == 23
