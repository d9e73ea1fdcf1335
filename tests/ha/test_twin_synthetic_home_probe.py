"""``smh home probe`` on home-assistant-datasets' synthetic homes (issue 39), loaded into a real
hass by allenporter's synthetic-home integration as ``test_twin_synthetic_home.py`` loads them
(opt-in: the same three variables; none set, skipped). Each home probed, then the five steps:
nothing differs and a device made deaf is flagged. Left to the integration's own moving
covers, the probe learns their speed, and the blinds the unprobed report flags as slow are not
flagged any more. A lone lock (``assist-mini/home1-us-lock``) is nothing to probe, not a crash."""

from __future__ import annotations

from pathlib import Path

import pytest
from homeassistant.core import HomeAssistant

from smh_core.cli.main import main
from smh_core.homeenv.engine import HomeEngine
from tests.ha.test_twin_homes_probe import deaf_device_is_flagged
from tests.ha.test_twin_synthetic_home import EVERY_DOMAIN, HOMES, _load, figures
from tests.ha.twin_flow import holds, twin_then_real


@pytest.mark.parametrize("home", HOMES)
async def test_a_synthetic_home_probed(
    hass: HomeAssistant, hass_client, hass_access_token: str, monkeypatch, tmp_path: Path, home: str
) -> None:
    url = await _load(hass, hass_client, monkeypatch, home, instant_covers=True)
    flow = await twin_then_real(
        hass, url, hass_access_token, tmp_path, allow_domains=EVERY_DOMAIN, probe=True
    )
    learnt = (tmp_path / "twin.probe.md").read_text()
    print(figures(home, flow), learnt.count("\n- "), "settings probed")
    assert "NOT PUT BACK" not in learnt, learnt
    holds(flow, least_devices=10, least_both=12)
    await deaf_device_is_flagged(hass, flow, url, hass_access_token, tmp_path)


async def test_moving_covers_probed_are_not_flagged(
    hass: HomeAssistant, hass_client, hass_access_token: str, monkeypatch, tmp_path: Path
) -> None:
    """The integration's default covers move 10 % a second: the probe learns it
    (``userdata.travel``), and the report then expects it: no device differs."""
    url = await _load(hass, hass_client, monkeypatch, "home1-us", instant_covers=False)
    flow = await twin_then_real(
        hass, url, hass_access_token, tmp_path, allow_domains=EVERY_DOMAIN, timeout=15, probe=True
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
