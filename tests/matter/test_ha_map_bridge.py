"""``smh ha map`` on the Matter bridge's home: HA's own ``matter`` integration shows the 27
devices of SimuHome's seed-1 home, ``smh matter-areas`` puts them in their rooms, and the
proposed mapping must be the known-good one (``known_good/matter-1.yaml``) with no hand edit.

The proposer never looks at serial numbers; the bridge's serial numbers (``SMH-<did>``) are the
ground truth the test checks every chosen entity against. Every attribute the file leaves out
must be named in it with its reason, and the tasks of the home that cannot run are listed.
"""

from __future__ import annotations

import re
from pathlib import Path

from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er

from sim_devices.matter_bridge.areas import assign_areas
from sim_devices.matter_bridge.server import MatterBridge
from smh_core.cli.main import main
from smh_core.ha.ha_inventory import read_inventory
from smh_core.ha.hardware_map import load_mapping
from smh_core.ha.map_propose import propose, render
from smh_core.ha.websocket import connect
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.simulated import generate_matter_home
from smh_core.task.model import HomeRef, iter_tasks

from .ha_setup import api_url, ha_matter

KNOWN_GOOD = Path(__file__).parent / "known_good" / "matter-1.yaml"
ROOT = Path(__file__).resolve().parents[2]


def _serial_of_entity(hass: HomeAssistant, entity_id: str) -> str | None:
    entry = er.async_get(hass).async_get(entity_id)
    device = dr.async_get(hass).async_get(entry.device_id) if entry and entry.device_id else None
    return device.serial_number if device else None


def _left_out(text: str) -> set[str]:
    """Locators the file names as not mapped (``# not mapped: A, B: the reason``)."""
    out: set[str] = set()
    for line in text.splitlines():
        if match := re.match(r"\s*# not mapped: (.+?): .+$", line):
            out |= {loc.strip() for loc in match.group(1).split(",")}
    return out


async def test_the_proposal_is_the_known_good_mapping(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled, tmp_path: Path, capsys
) -> None:
    url = await api_url(hass, hass_client)
    home = generate_matter_home(seed=1)
    out = tmp_path / "matter-1.yaml"
    async with ha_matter(hass, MatterBridge(HomeEngine(home))):
        async with connect(url, hass_access_token) as call:
            done = await assign_areas(call, home)
        assert len(done.moved) == 27
        code = await hass.async_add_executor_job(
            main,
            [
                "ha",
                "map",
                "--suite",
                "simuhome",
                "--tasks-dir",
                str(ROOT / "tasks"),
                "--home",
                "matter:1",
                "--out",
                str(out),
                "--ha-url",
                url,
                "--token",
                hass_access_token,
            ],
        )
        printed = capsys.readouterr().out
        assert code == 0, printed
        proposed, known = load_mapping(out), load_mapping(KNOWN_GOOD)
        assert proposed.home == HomeRef(seed=1, generator="matter")
        assert proposed.devices == known.devices
        # ground truth the proposer never saw: each entity is on the HA device of that device id
        wrong = {
            (did, loc, amap.entity)
            for did, loc, amap in proposed.items()
            if _serial_of_entity(hass, amap.entity) != f"SMH-{did}"
        }
        assert wrong == set()
    # every device is mapped, and every attribute is either mapped or named with its reason
    assert set(proposed.devices) == {d.userdata.did for d in home.devices}
    text = out.read_text()
    left_out = _left_out(text)
    for device in home.devices:
        locators = {loc for loc, _ in device.attributes_by_locator()}
        assert locators == set(proposed.devices[device.userdata.did]) | (locators & left_out), (
            device.userdata.did
        )
    assert "# Devices not mapped" not in text
    # the fan's power has no HA entity: said so, and the tasks needing it are listed as not runnable
    assert "1.OnOff.OnOff: no light or switch of 'Study Fan 1' shows its power" in text
    of_home = sum(
        1 for t in iter_tasks(ROOT / "tasks" / "simuhome.jsonl") if t.home == proposed.home
    )
    assert re.search(rf"tasks of this home: \d+ of {of_home} can run", printed)
    assert "simuhome-qt3-f-000: not mapped: 2024/1.OnOff.OnOff" in printed
    assert "2003 Air Conditioner 1 (Kitchen) -> 'Kitchen Air Conditioner 1'" in printed


async def test_names_alone_find_the_devices_before_they_have_areas(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled
) -> None:
    """Before ``smh matter-areas`` the devices have no area; their names (which carry the room)
    are enough, and the file is byte-identical whichever way it is made twice."""
    url = await api_url(hass, hass_client)
    home = generate_matter_home(seed=1)
    async with (
        ha_matter(hass, MatterBridge(HomeEngine(home))),
        connect(url, hass_access_token) as call,
    ):
        inventory = await read_inventory(call)
    assert all(unit.area is None for unit in inventory.units())
    proposal = propose(home, HomeRef(seed=1, generator="matter"), inventory)
    assert proposal.mapping().devices == load_mapping(KNOWN_GOOD).devices
    assert render(proposal) == render(propose(home, HomeRef(seed=1, generator="matter"), inventory))
