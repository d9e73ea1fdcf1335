"""``smh home probe`` on home-assistant-datasets' synthetic homes (issue 39), loaded into a real
hass by allenporter's synthetic-home integration as ``test_twin_synthetic_home.py`` loads them
(opt-in: the same three variables; none set, skipped). Each home probed, then the five steps:
nothing differs and a device made deaf is flagged. Left to the integration's own moving
covers, the probe learns their speed, and the blinds the unprobed report flags as slow are not
flagged any more. A lone lock (``assist-mini/home1-us-lock``) is nothing to probe, not a crash.
With ``SMH_SYNTHETIC_HOME_SWEEP=1`` too, the probe alone on every inventory of the datasets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant

from smh_core.cli.main import main
from smh_core.ha.ha_inventory import read_inventory
from smh_core.ha.hardware import HardwareClient
from smh_core.ha.twin_map import twin_mapping
from smh_core.ha.twin_probe import probe_home, probed
from smh_core.ha.websocket import connect
from smh_core.homeenv.engine import HomeEngine
from smh_core.task.model import HomeRef
from tests.ha.test_twin_homes_probe import deaf_device_is_flagged
from tests.ha.test_twin_synthetic_home import EVERY_DOMAIN, HOMES, SWEEP, _load, figures
from tests.ha.twin_flow import (
    ha_clock,  # noqa: F401  (the fixture)
    holds,
    twin_then_real,
)


@pytest.mark.parametrize("home", HOMES)
async def test_a_synthetic_home_probed(
    hass: HomeAssistant,
    ha_clock: Any,  # noqa: F811
    hass_client,
    hass_access_token: str,
    monkeypatch,
    tmp_path: Path,
    home: str,
) -> None:
    url = await _load(hass, hass_client, monkeypatch, home, instant_covers=True)
    flow = await twin_then_real(
        hass,
        url,
        hass_access_token,
        tmp_path,
        allow_domains=EVERY_DOMAIN,
        probe=True,
        clock=ha_clock,
    )
    learnt = (tmp_path / "twin.probe.md").read_text()
    print(figures(home, flow), learnt.count("\n- "), "settings probed")
    assert "NOT PUT BACK" not in learnt, learnt
    holds(flow, least_devices=10, least_both=12)
    await deaf_device_is_flagged(hass, flow, url, flow.token, tmp_path)


async def test_moving_covers_probed_are_not_flagged(
    hass: HomeAssistant,
    ha_clock: Any,  # noqa: F811
    hass_client,
    hass_access_token: str,
    monkeypatch,
    tmp_path: Path,
) -> None:
    """The integration's default covers move 10 % a second: the probe learns it
    (``userdata.travel``), and the report then expects it: no device differs."""
    url = await _load(hass, hass_client, monkeypatch, "home1-us", instant_covers=False)
    flow = await twin_then_real(
        hass,
        url,
        hass_access_token,
        tmp_path,
        allow_domains=EVERY_DOMAIN,
        timeout=15,
        probe=True,
        clock=ha_clock,
    )
    print(figures("home1-us, moving covers, probed", flow))
    print((tmp_path / "twin.probe.md").read_text())
    travel = {d.did: d.userdata.travel for d in flow.home.devices if d.userdata.travel}
    assert set(travel) == {"cover.master_bedroom_smart_blinds"}, travel
    assert 5 <= travel["cover.master_bedroom_smart_blinds"]["position"] <= 11, travel
    holds(flow, least_devices=10, least_both=12)


async def test_a_lone_lock_has_nothing_to_probe(
    hass: HomeAssistant, hass_client, hass_access_token: str, monkeypatch, tmp_path: Path, capsys
) -> None:
    url = await _load(
        hass, hass_client, monkeypatch, "datasets/assist-mini/home1-us-lock", instant_covers=True
    )
    ha = ["--ha-url", url, "--token", hass_access_token]
    twin = tmp_path / "twin.json"
    assert (
        await hass.async_add_executor_job(main, ["home", "from-ha", *ha, "--out", str(twin)]) == 0
    )
    kinds = {d.did.split(".")[0] for d in HomeEngine.from_file(twin).home.devices}
    assert kinds == {"lock", "sensor", "binary_sensor"}, kinds  # only the lock can be set
    argv = ["home", "probe", "--home", str(twin), *ha, "--yes"]
    assert await hass.async_add_executor_job(main, argv) == 0
    assert "nothing to probe" in capsys.readouterr().out


WATCHED = ("brightness", "current_position", "percentage", "volume_level", "humidity")


@pytest.mark.parametrize("home", SWEEP)
async def test_every_inventory_probed(
    hass: HomeAssistant, hass_client, hass_access_token: str, monkeypatch, tmp_path: Path, home: str
) -> None:
    """The probe alone (still for 0.4 s, not 1.5: these covers move at once), as ``smh home
    probe`` drives it: no inventory fails, and every entity is as it was after."""
    import aiohttp

    url = await _load(hass, hass_client, monkeypatch, home, instant_covers=True)
    twin = tmp_path / "twin.json"
    ha = ["--ha-url", url, "--token", hass_access_token]
    assert (
        await hass.async_add_executor_job(main, ["home", "from-ha", *ha, "--out", str(twin)]) == 0
    )
    twin_home = HomeEngine.from_file(twin).home
    async with connect(url, hass_access_token) as call:
        inventory = await read_inventory(call)
    proposal = twin_mapping(twin_home, HomeRef(file="homes/twin.json"), inventory)
    before = {s.entity_id: (s.state, dict(s.attributes)) for s in hass.states.async_all()}
    if not proposal.devices() or not probed(twin_home, proposal.mapping()):
        print(f"| {home} | nothing to probe |")
        return
    async with aiohttp.ClientSession() as session:
        client = HardwareClient(url, hass_access_token, session)
        like = HomeEngine(twin_home).snapshot()
        probe = await probe_home(client, twin_home, proposal.mapping(), like, quiet=0.4, timeout=10)
    await hass.async_block_till_done()
    print(f"| {home} |", probe.markdown().replace("\n", " ")[45:])
    assert probe.restore_problems == []
    for state in hass.states.async_all():
        was = before.get(state.entity_id)
        if was is not None:
            assert state.state == was[0], state.entity_id
            for key in WATCHED:
                assert state.attributes.get(key) == was[1].get(key), (state.entity_id, key)
