"""A light's colour on the twin and on the real demo lights (issue 39): HA's demo has hs lights
(bed, ceiling, kitchen, entrance), an rgbw and an rgbww light. The twin holds colours as HA does
(an hs light at full value, the others as given), its tasks ask only for colours the light holds,
and through the mapping (``light.turn_on`` with ``rgb_color``, read back from ``rgb_color``: an
hs light exactly, an rgbw or rgbww light within 1 a channel) the oracle passes them on both with
no device difference; a light that ignores its colour, or shifts it, is flagged."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import color as ha_colour

from smh_core.cli.main import main
from smh_core.ha.ha_inventory import read_inventory
from smh_core.ha.hardware import run_on_hardware
from smh_core.ha.hardware_map import load_mapping
from smh_core.ha.map_propose import render
from smh_core.ha.twin_compare import compare_runs
from smh_core.ha.twin_map import twin_mapping
from smh_core.ha.websocket import connect
from smh_core.homeenv.colours import rgb_of
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home
from smh_core.homeenv.samples import valid_value
from smh_core.task.home import HomeCache
from smh_core.task.model import HomeRef, Task, dump_task
from tests.ha import test_twin_demo
from tests.ha.twin_flow import suite_on_twin

demo_url = test_twin_demo.demo_url  # HA's demo home on a loopback port
SPACES = {
    "light.bed_light": "hue_saturation",
    "light.ceiling_lights": "hue_saturation",
    "light.kitchen_lights": "hue_saturation",
    "light.entrance_color_white_lights": "hue_saturation",
    "light.office_rgbw_lights": "channels",
    "light.living_room_rgbww_lights": "channels",
}


def _task(tid: str, did: str, start: str, colour: str) -> Task:
    return Task.model_validate(
        {
            "id": tid,
            "suite": "smh",
            "category": "control",
            "subcategory": "atomic",
            "difficulty": "simple",
            "home": {"file": "homes/twin.json"},
            "overrides": [{"did": did, "values": {"state": "on", "color": start}}],
            "turns": [{"text": f"Make the light {colour}."}],
            "goal": {"kind": "execute", "critic": f"device('{did}').color == {colour}"},
            "reference": {
                "mode": "execute",
                "response": "Done.",
                "actions": [{"did": did, "locator": "set_color", "arguments": {"color": colour}}],
            },
        }
    )


def _moved_by_rgbw(rng: random.Random, spec: Any) -> str:
    """A colour the generator may draw that HA's rgbw conversion reports one step off."""
    while True:
        value = valid_value(spec, rng)
        rgb = rgb_of(value)
        if ha_colour.color_rgbw_to_rgb(*ha_colour.color_rgb_to_rgbw(*rgb)) != rgb:
            return value


async def _colour_home(hass: HomeAssistant, url: str, token: str, tmp_path: Path) -> Home:
    whole = tmp_path / "demo.json"
    argv = ["home", "from-ha", "--ha-url", url, "--token", token, "--out", str(whole)]
    assert await hass.async_add_executor_job(main, argv) == 0
    full = HomeEngine.from_file(whole).home
    lights = [d for d in full.devices if d.did in SPACES]
    return Home(name=full.name, rooms=full.rooms, devices=lights)


async def _run(hass, url, token, tasks, mapping, tasks_dir, out):
    return await run_on_hardware(
        tasks,
        url,
        token,
        "conversation.home_assistant",
        mapping,
        out,
        HomeCache(tasks_dir),
        progress=False,
        interval=0.05,
        player="oracle",
        attempts=1,
    )


async def test_colour_tasks_agree_on_twin_and_real_and_faults_are_flagged(
    hass: HomeAssistant, demo_url: str, hass_access_token: str, tmp_path: Path
) -> None:
    home = await _colour_home(hass, demo_url, hass_access_token, tmp_path)
    specs = {d.did: dict(d.attributes_by_locator())["color"] for d in home.devices}
    assert {did: spec.colour for did, spec in specs.items()} == SPACES
    rng = random.Random(0)
    tasks = [
        _task(f"colour-{i}-{did}", did, valid_value(specs[did], rng), valid_value(specs[did], rng))
        for did in SPACES
        for i in range(2)
    ]
    for did in ("light.office_rgbw_lights", "light.living_room_rgbww_lights"):
        # a colour HA's conversion through the white channel moves by one step: the mapping's
        # tolerance of 1 a channel, read against what the turn should have left
        tasks.append(_task(f"colour-moved-{did}", did, "#FF0000", _moved_by_rgbw(rng, specs[did])))
    # an hs light asked for a colour it does not hold: the twin and the real light both show it
    # at full value, as HA keeps an hs light's colour
    tasks.append(
        Task.model_validate(
            {
                **json.loads(
                    dump_task(_task("colour-dim", "light.kitchen_lights", "#FF0000", "#55AAFF"))
                ),
                "reference": {
                    "mode": "execute",
                    "response": "Done.",
                    "actions": [
                        {
                            "did": "light.kitchen_lights",
                            "locator": "set_color",
                            "arguments": {"color": "#0A141E"},
                        }
                    ],
                },
            }
        )
    )
    tasks_dir = tmp_path / "tasks"
    (tasks_dir / "homes").mkdir(parents=True)
    (tasks_dir / "homes" / "twin.json").write_text(dump_home(home), encoding="utf-8")
    await suite_on_twin(hass, tasks, tasks_dir, "colour")  # every task passes on the twin
    twin_run = tasks_dir / "twin-run"

    async with connect(demo_url, hass_access_token) as call:
        inventory = await read_inventory(call)
    proposal = twin_mapping(home, HomeRef(file="homes/twin.json"), inventory)
    proposal.timeout_seconds = 3
    mapping_file = tmp_path / "mapping.yaml"
    mapping_file.write_text(render(proposal))
    mapping = load_mapping(mapping_file)
    for did, space in SPACES.items():
        colour = mapping.get(did, "color")
        assert colour is not None and colour.rgb and colour.attribute == "rgb_color", did
        assert colour.tolerance == (1 if space == "channels" else 0), did

    run = await _run(
        hass, demo_url, hass_access_token, tasks, mapping, tasks_dir, tmp_path / "real"
    )
    assert run.skipped_tasks == {}
    side = compare_runs(twin_run, tmp_path / "real", home, run.skipped_tasks)
    assert len(side.both) == len(tasks), side.markdown()
    assert all(twin and real for _, twin, real in side.both), side.markdown()
    assert side.differences == [], side.markdown()
    real = {r["task_id"]: r for r in map(json.loads, (tmp_path / "real" / "results.jsonl").open())}
    # asked for (10, 20, 30), the real hs light shows (85, 170, 255), as its twin does
    assert real["colour-dim"]["final_state"]["light.kitchen_lights"]["color"] == "#55AAFF"

    # a light that ignores its colour: flagged, its task not scored, no other light blamed
    victim = "light.kitchen_lights"
    entity = hass.data["light"].get_entity(victim)
    turn_on = entity.async_turn_on

    async def colourless(**kwargs: Any) -> None:
        await turn_on(**{k: v for k, v in kwargs.items() if k != "hs_color"})

    entity.async_turn_on = colourless
    chosen = [t for t in tasks if t.id == f"colour-0-{victim}"]
    await _run(hass, demo_url, hass_access_token, chosen, mapping, tasks_dir, tmp_path / "ignored")
    flagged = compare_runs(twin_run, tmp_path / "ignored", home, {})
    assert set(flagged.by_device()) == {victim}, flagged.markdown()
    assert chosen[0].id in flagged.only_twin
    entity.async_turn_on = turn_on

    # an rgbw light whose red and green are swapped: it shows another colour, flagged
    shifted = "light.office_rgbw_lights"
    entity = hass.data["light"].get_entity(shifted)
    turn_on = entity.async_turn_on

    async def swapped(**kwargs: Any) -> None:
        if "rgbw_color" in kwargs:
            r, g, b, w = kwargs["rgbw_color"]
            kwargs["rgbw_color"] = (g, r, b, w)
        await turn_on(**kwargs)

    entity.async_turn_on = swapped
    chosen = [t for t in tasks if t.id == f"colour-0-{shifted}"]
    await _run(hass, demo_url, hass_access_token, chosen, mapping, tasks_dir, tmp_path / "shifted")
    flagged = compare_runs(twin_run, tmp_path / "shifted", home, {})
    assert set(flagged.by_device()) == {shifted}, flagged.markdown()
    assert chosen[0].id in flagged.only_twin
