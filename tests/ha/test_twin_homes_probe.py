"""``smh home probe`` on the other real homes of issue 39 (HA's ``kitchen_sink``, SMH's Matter
bridge home through HA's ``matter`` integration; the synthetic homes are in
``test_twin_synthetic_home_probe.py``): the twin probed, tasks written for it, the oracle on
twin and real with no device differing, and a device made to ignore its calls still flagged.
Also what these homes showed the probe got wrong: a home with nothing to probe (kitchen_sink:
locks, switches and sensors) wrote no twin where ``--out`` asked for one, and a home of only
high-risk devices (a lone lock) ended in a validation traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from smh_core.cli.main import main
from tests.ha import test_twin_homes
from tests.ha.test_twin_synthetic_home import figures
from tests.ha.twin_flow import (
    TwinFlow,
    deaf_device_flagged,
    ha_clock,  # noqa: F401  (the fixture)
    holds,
    twin_then_real,
)

kitchen_sink_url = test_twin_homes.kitchen_sink_url  # HA's kitchen_sink on a loopback port


async def deaf_device_is_flagged(
    hass: HomeAssistant, flow: TwinFlow, url: str, token: str, tmp_path: Path
) -> str:
    """Make the first light or switch a task run on both acts on ignore its calls, run that
    task again on the real home: the side-by-side report blames that device alone and does not
    score the task (:func:`~tests.ha.twin_flow.deaf_device_flagged`). Its id."""
    victim, _ = await deaf_device_flagged(
        hass,
        flow.made.tasks,
        flow.side,
        flow.home,
        flow.mapping_file,
        url,
        token,
        twin_run=flow.twin_run,
        tasks_dir=flow.tasks_dir,
        out=tmp_path / "deaf-run",
    )
    return victim


async def test_kitchen_sink_probed(
    hass: HomeAssistant,
    ha_clock: Any,  # noqa: F811
    kitchen_sink_url: str,
    hass_access_token: str,
    tmp_path: Path,
    capsys,
) -> None:
    flow = await twin_then_real(
        hass, kitchen_sink_url, hass_access_token, tmp_path, probe=True, clock=ha_clock
    )
    printed = capsys.readouterr().out
    with capsys.disabled():
        print("\n" + figures("kitchen_sink, probed", flow))  # docs/physical-home.md's row
    assert "nothing to probe" in printed  # its locks are high-risk; switches hold no number
    assert "nothing to probe" in (tmp_path / "twin.probe.md").read_text()
    holds(flow, least_devices=10, least_both=7)
    await deaf_device_is_flagged(hass, flow, kitchen_sink_url, flow.token, tmp_path)


async def test_nothing_to_probe_still_writes_the_twin_asked_for(
    hass: HomeAssistant, kitchen_sink_url: str, hass_access_token: str, tmp_path: Path
) -> None:
    """The next command reads ``--out``: it must be there, the twin unchanged, whatever was
    (not) probed."""
    ha = ["--ha-url", kitchen_sink_url, "--token", hass_access_token]
    twin, probed = tmp_path / "twin.json", tmp_path / "probed.json"
    assert (
        await hass.async_add_executor_job(main, ["home", "from-ha", *ha, "--out", str(twin)]) == 0
    )
    argv = ["home", "probe", "--home", str(twin), *ha, "--out", str(probed), "--yes"]
    assert await hass.async_add_executor_job(main, argv) == 0
    assert probed.read_bytes() == twin.read_bytes()
    assert "nothing to probe" in (tmp_path / "probed.probe.md").read_text()


async def test_probing_a_device_not_high_risk_as_opted_in_is_refused(
    hass: HomeAssistant, kitchen_sink_url: str, hass_access_token: str, tmp_path: Path, capsys
) -> None:
    """``--allow-high-risk`` names high-risk devices of the twin only: a typo or a device that is
    not high-risk is refused before anything moves, and the twin is left as it was."""
    ha = ["--ha-url", kitchen_sink_url, "--token", hass_access_token]
    twin = tmp_path / "twin.json"
    assert (
        await hass.async_add_executor_job(main, ["home", "from-ha", *ha, "--out", str(twin)]) == 0
    )
    before, states = twin.read_bytes(), {s.entity_id: s.state for s in hass.states.async_all()}
    from smh_core.ha.twin_map import high_risk
    from smh_core.homeenv.engine import HomeEngine

    safe = next(d.did for d in HomeEngine.from_file(twin).home.devices if not high_risk(d))
    capsys.readouterr()
    for wrong in (safe, "lock.no_such_lock"):
        argv = ["home", "probe", "--home", str(twin), *ha, "--yes", "--allow-high-risk", wrong]
        assert await hass.async_add_executor_job(main, argv) == 2
        assert f"--allow-high-risk {wrong}: not a high-risk device" in capsys.readouterr().err
    assert twin.read_bytes() == before
    assert not (tmp_path / "twin.probe.md").exists()
    assert {s.entity_id: s.state for s in hass.states.async_all()} == states


async def test_a_home_of_only_high_risk_devices_has_nothing_to_probe(
    hass: HomeAssistant, hass_client, hass_access_token: str, tmp_path: Path, capsys
) -> None:
    """A lone lock (as synthetic-home's ``home1-us-lock`` inventory): high-risk, so the mapping
    the probe drives through has no device at all; that is nothing to probe, not a crash."""
    for domain in ("homeassistant", "api", "websocket_api", "config"):
        assert await async_setup_component(hass, domain, {})
    hass.states.async_set("lock.front_door", "locked", {"friendly_name": "Front Door"})
    url = str((await hass_client()).make_url("")).rstrip("/")
    ha = ["--ha-url", url, "--token", hass_access_token]
    twin = tmp_path / "twin.json"
    assert (
        await hass.async_add_executor_job(main, ["home", "from-ha", *ha, "--out", str(twin)]) == 0
    )
    assert "lock.front_door" in twin.read_text()
    before = twin.read_bytes()
    argv = ["home", "probe", "--home", str(twin), *ha, "--yes"]
    assert await hass.async_add_executor_job(main, argv) == 0
    assert "nothing to probe" in capsys.readouterr().out
    assert twin.read_bytes() == before
    assert hass.states.get("lock.front_door").state == "locked"


async def test_the_matter_home_probed(
    hass: HomeAssistant,
    ha_clock: Any,  # noqa: F811
    hass_client,
    hass_access_token,
    socket_enabled,
    tmp_path: Path,
) -> None:
    """SimuHome's seed-1 home through SMH's Matter bridge and HA's ``matter`` integration: its
    window coverings and dimmable lights do exactly what they are asked at once, so the probe
    learns nothing and nothing differs; a light made deaf is flagged."""
    from sim_devices.matter_bridge.areas import assign_areas
    from sim_devices.matter_bridge.server import MatterBridge
    from smh_core.ha.websocket import connect
    from smh_core.homeenv.engine import HomeEngine
    from smh_core.homes.simulated import generate_matter_home
    from tests.matter.ha_setup import api_url, ha_matter

    url = await api_url(hass, hass_client)
    home = generate_matter_home(seed=1)
    async with ha_matter(hass, MatterBridge(HomeEngine(home))):
        async with connect(url, hass_access_token) as call:
            await assign_areas(call, home)
        flow = await twin_then_real(
            hass, url, hass_access_token, tmp_path, probe=True, clock=ha_clock
        )
        learnt = (tmp_path / "twin.probe.md").read_text()
        print(figures("Matter home, probed", flow))  # docs/physical-home.md's row
        assert learnt.count("as the twin: exact and at once") >= 6, learnt
        holds(flow, least_devices=27, least_both=12)
        await deaf_device_is_flagged(hass, flow, url, flow.token, tmp_path)
