"""A rule triggered by a thermostat turning on or off, made as a real HA automation (issue 39).

A twin shows a thermostat (or a media player) as ``on`` in any of its modes: its mapping lists
``off`` and reads every other state as ``on``. No HA state is ``on``, so a trigger on it cannot
name one; the automation says it through the listed states instead. These tests run the
automations SMH makes in HA's ``demo`` home and check they fire when the twin's rule would, and
not when a mode changes to another (the twin's value stays ``on``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
from homeassistant.core import HomeAssistant

from smh_core.cli.main import main
from smh_core.ha.ha_inventory import read_inventory
from smh_core.ha.hardware import HardwareClient
from smh_core.ha.hardware_map import load_mapping
from smh_core.ha.map_propose import render
from smh_core.ha.real_automations import UNSHOWN, _config, created
from smh_core.ha.twin_map import twin_mapping
from smh_core.ha.websocket import connect
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.rules import Rule
from smh_core.task.model import HomeRef
from tests.ha.test_twin_demo import demo_url  # noqa: F401  (the fixture)
from tests.ha.twin_flow import with_automations

THERMOSTAT = "climate.ecobee"  # modes: off, heat_cool, cool, auto, dry, fan_only


def _rule(rule_id: str, trigger: dict[str, Any], light: str) -> Rule:
    return Rule.model_validate(
        {
            "id": rule_id,
            "triggers": [{"kind": "state", "did": THERMOSTAT, "locator": "state", **trigger}],
            "actions": [{"did": light, "locator": "turn_on"}],
        }
    )


async def _mode(hass: HomeAssistant, mode: str) -> None:
    await hass.services.async_call(
        "climate", "set_hvac_mode", {"entity_id": THERMOSTAT, "hvac_mode": mode}, blocking=True
    )
    await hass.async_block_till_done()


async def _lights_off(hass: HomeAssistant, *lights: str) -> None:
    await hass.services.async_call("light", "turn_off", {"entity_id": list(lights)}, blocking=True)
    await hass.async_block_till_done()


def _on(hass: HomeAssistant, light: str) -> bool:
    return hass.states.get(light).state == "on"


async def test_a_thermostat_turning_on_or_off_fires_as_on_the_twin(
    hass: HomeAssistant,
    demo_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    token = await with_automations(hass)
    twin_file = tmp_path / "twin.json"
    argv = ["home", "from-ha", "--ha-url", demo_url, "--token", token, "--out", str(twin_file)]
    assert await hass.async_add_executor_job(main, argv) == 0
    home = HomeEngine.from_file(twin_file).home
    async with connect(demo_url, token) as call:
        inventory = await read_inventory(call)
    proposal = twin_mapping(home, HomeRef(file="homes/twin.json"), inventory, [THERMOSTAT])
    mapping_file = tmp_path / "mapping.yaml"
    mapping_file.write_text(render(proposal))
    mapping = load_mapping(mapping_file)
    amap = mapping.get(THERMOSTAT, "state")
    assert amap is not None and amap.values == {"off": "off"} and amap.otherwise == "on"

    turns_on = _rule("on", {"to": "on"}, "light.bed_light")
    turns_off = _rule("off", {"from": "on", "to": "off"}, "light.ceiling_lights")
    twin = HomeEngine(home)
    for light in ("light.bed_light", "light.ceiling_lights"):  # as the real ones are below
        assert twin.execute(light, "turn_off").ok
    world = SimpleNamespace(engine=twin)
    configs = [
        _config(rule, SimpleNamespace(id="otherwise"), mapping, world)  # type: ignore[arg-type]
        for rule in (turns_on, turns_off)
    ]
    unshown = ["off", *UNSHOWN]
    assert configs[0]["triggers"] == [
        {"trigger": "state", "entity_id": THERMOSTAT, "from": ["off"], "not_to": unshown}
    ]
    assert configs[1]["triggers"] == [
        {"trigger": "state", "entity_id": THERMOSTAT, "not_from": unshown, "to": "off"}
    ]

    await _mode(hass, "off")
    await _lights_off(hass, "light.bed_light", "light.ceiling_lights")
    async with aiohttp.ClientSession() as session:
        client = HardwareClient(demo_url, token, session)
        async with created(client, configs, timeout=10):
            await _mode(hass, "cool")  # off -> on: the first rule fires
            assert _on(hass, "light.bed_light")
            assert not _on(hass, "light.ceiling_lights")

            await _lights_off(hass, "light.bed_light")
            await _mode(hass, "heat_cool")  # on -> on on the twin: neither fires
            assert not _on(hass, "light.bed_light")
            assert not _on(hass, "light.ceiling_lights")

            await _mode(hass, "off")  # on -> off: the second fires, the first does not
            assert _on(hass, "light.ceiling_lights")
            assert not _on(hass, "light.bed_light")
    assert not hass.states.async_all("automation")  # removed on the way out
