"""A probed twin turns a thermostat on as the real one does (issue 39). HA's ``climate.turn_on``
on an entity without a turn-on of its own sets a mode, where the twin's ``turn_on`` kept the
mode it had: a task turning HA's demo Hvac on from off (in cool) passed on both, and the real
Hvac ended in heat, flagged by the side-by-side report. The probe sets each thermostat to two
of its modes, turns it off and on from each, and learns what HA does, found here by calling it:
the Hvac comes on in heat (also when already on), and its probed twin does too, with no
difference left; the Ecobee comes on in heat_cool (it offers auto too, so its twin names
heat_cool as HA does: an alias of the catalog's auto), learnt the same way, no difference left
(before the alias, its twin had no name for heat_cool and it stayed flagged); the HeatPump has
one mode. An integration
that resumes the last mode (the Hvac's turn-on replaced by one, as an integration's own) is
learnt as resuming, and the mode effect goes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant

from smh_core.cli.main import main
from smh_core.ha.ha_inventory import read_inventory
from smh_core.ha.hardware import run_on_hardware
from smh_core.ha.map_propose import Proposal
from smh_core.ha.twin_compare import Comparison, compare_runs
from smh_core.ha.twin_map import twin_mapping
from smh_core.ha.websocket import connect
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home
from smh_core.task.home import HomeCache
from smh_core.task.model import HomeRef, Task, dump_task
from tests.ha import test_twin_demo

demo_url = test_twin_demo.demo_url  # HA's demo home on a loopback port
HVAC, ECOBEE, HEATPUMP = "climate.hvac", "climate.ecobee", "climate.heatpump"
CLIMATES = (ECOBEE, HEATPUMP, HVAC)


async def _call(hass: HomeAssistant, service: str, entity: str, **data: Any) -> None:
    await hass.services.async_call("climate", service, {"entity_id": entity, **data}, blocking=True)
    await hass.async_block_till_done()


async def _comes_on_in(hass: HomeAssistant, entity: str, mode: str) -> str:
    """The mode HA shows ``entity`` in, set to ``mode``, turned off and on."""
    await _call(hass, "set_hvac_mode", entity, hvac_mode=mode)
    await _call(hass, "turn_off", entity)
    await _call(hass, "turn_on", entity)
    return hass.states.get(entity).state


def _shown(hass: HomeAssistant) -> dict[str, Any]:
    return {e: (hass.states.get(e).state, dict(hass.states.get(e).attributes)) for e in CLIMATES}


def _task(did: str) -> Task:
    """Turn ``did`` on from off, its twin in cool."""
    return Task.model_validate(
        {
            "id": f"turn-on-{did}",
            "suite": "smh",
            "category": "control",
            "subcategory": "atomic",
            "difficulty": "simple",
            "home": {"file": "homes/twin.json"},
            "overrides": [{"did": did, "values": {"state": "off", "ac_mode": "cool"}}],
            "turns": [{"text": "Turn it on."}],
            "goal": {"kind": "execute", "critic": f"device('{did}').state == on"},
            "reference": {
                "mode": "execute",
                "response": "Done.",
                "actions": [{"did": did, "locator": "turn_on"}],
            },
        }
    )


async def _side_by_side(
    hass: HomeAssistant, url: str, token: str, home: Home, proposal: Proposal, out: Path
) -> Comparison:
    """The two tasks on ``home`` (the twin) and on the demo's thermostats, side by side."""
    tasks = [_task(HVAC), _task(ECOBEE)]
    (out / "homes").mkdir(parents=True)
    (out / "homes" / "twin.json").write_text(dump_home(home), encoding="utf-8")
    task_file = out / "turn-on.jsonl"
    task_file.write_text("".join(dump_task(t) + "\n" for t in tasks))
    argv = ["bench", "run", "--tasks", str(task_file), "--agent", "oracle"]
    assert await hass.async_add_executor_job(main, [*argv, "--out", str(out / "twin")]) == 0
    twin = [json.loads(line) for line in (out / "twin" / "results.jsonl").open()]
    assert len(twin) == len(tasks) and all(r["passed"] for r in twin)
    run = await run_on_hardware(
        tasks,
        url,
        token,
        "conversation.home_assistant",
        proposal.mapping(),
        out / "real",
        HomeCache(out),
        progress=False,
        interval=0.05,
        player="oracle",
        attempts=1,
    )
    assert run.skipped_tasks == {}
    return compare_runs(out / "twin", out / "real", home, {})


def _turn_on_effects(home: Home, did: str) -> list[dict[str, Any]]:
    device = next(d for d in home.devices if d.did == did)
    (turn_on,) = [s for s in device.services if s.name == "turn_on"]
    return [e.model_dump(exclude_none=True, by_alias=True) for e in turn_on.effects]


async def test_the_probe_learns_what_turn_on_does_and_the_twin_does_it(
    hass: HomeAssistant, demo_url: str, hass_access_token: str, tmp_path: Path
) -> None:
    ha = ["--ha-url", demo_url, "--token", hass_access_token]
    whole = tmp_path / "demo.json"
    argv = ["home", "from-ha", *ha, "--out", str(whole)]
    assert await hass.async_add_executor_job(main, argv) == 0
    full = HomeEngine.from_file(whole).home
    # the thermostats alone: probing every demo device takes a minute and teaches this test
    # nothing more
    home = Home(
        name=full.name, rooms=full.rooms, devices=[d for d in full.devices if d.did in CLIMATES]
    )
    twin = tmp_path / "twin.json"
    twin.write_text(dump_home(home), encoding="utf-8")
    before = _shown(hass)
    opted = [f"--allow-high-risk={did}" for did in CLIMATES]
    probed, again = tmp_path / "probed.json", tmp_path / "again.json"
    for out in (probed, again):
        argv = ["home", "probe", "--home", str(twin), *ha, *opted, "--out", str(out), "--yes"]
        assert await hass.async_add_executor_job(main, argv) == 0
    assert probed.read_bytes() == again.read_bytes()  # the same HA, the same twin
    assert _shown(hass) == before  # each thermostat put back as the probe found it
    report = {
        line.split(" turn_on: ")[0][2:]: line.split(" turn_on: ")[1]
        for line in (tmp_path / "probed.probe.md").read_text().splitlines()
        if " turn_on: " in line
    }
    assert report[HVAC].startswith(
        "lands in heat whatever mode it had, also when already on: the twin's turn_on sets it"
    )
    assert report[ECOBEE].startswith(
        "lands in heat_cool whatever mode it had, also when already on: the twin's turn_on sets it"
    )
    assert report[HEATPUMP].startswith("its twin has one mode (heat)")

    # what HA does, found by calling it: the probe saw the same
    assert {await _comes_on_in(hass, HVAC, m) for m in ("heat", "cool", "auto", "dry")} == {"heat"}
    assert {await _comes_on_in(hass, ECOBEE, m) for m in ("cool", "auto", "dry")} == {"heat_cool"}
    assert await _comes_on_in(hass, HEATPUMP, "heat") == "heat"
    for entity, (state, _) in before.items():
        await _call(hass, "set_hvac_mode", entity, hvac_mode=state)

    calibrated = HomeEngine.from_file(probed).home
    assert _turn_on_effects(calibrated, HVAC) == [
        {"set": "state", "value": "on"},
        {"set": "ac_mode", "value": "heat"},
    ]
    assert _turn_on_effects(calibrated, ECOBEE) == [
        {"set": "state", "value": "on"},
        {"set": "ac_mode", "value": "heat_cool"},
    ]
    assert _turn_on_effects(calibrated, HEATPUMP) == _turn_on_effects(home, HEATPUMP)  # one mode
    engine = HomeEngine(calibrated)
    for did, lands in ((HVAC, "heat"), (ECOBEE, "heat_cool")):
        assert engine.execute(did, "set_ac_mode", {"ac_mode": "cool"}).ok
        assert engine.execute(did, "turn_on", {}).ok
        assert engine.value(did, "ac_mode") == lands  # as HA's, also when already on

    # turning each on from off, on the twin and the real demo, side by side
    async with connect(demo_url, hass_access_token) as call:
        inventory = await read_inventory(call)
    proposal = twin_mapping(home, HomeRef(file="homes/twin.json"), inventory, CLIMATES)
    proposal.timeout_seconds = 3
    unprobed = await _side_by_side(
        hass, demo_url, hass_access_token, home, proposal, tmp_path / "unprobed"
    )
    assert all(twin and real for _, twin, real in unprobed.both)
    flagged = {(d.did, d.locator, d.kind, d.real) for d in unprobed.differences}
    assert flagged == {
        (HVAC, "ac_mode", "extra", "heat"),
        (ECOBEE, "ac_mode", "extra", "heat_cool"),
    }
    side = await _side_by_side(
        hass, demo_url, hass_access_token, calibrated, proposal, tmp_path / "probed"
    )
    assert all(twin and real for _, twin, real in side.both) and len(side.both) == 2
    # the Hvac and the Ecobee agree
    assert side.differences == [], side.markdown()

    # an integration whose turn-on resumes the last mode (the Hvac's replaced by one)
    entity = hass.data["climate"].get_entity(HVAC)
    set_mode = entity.async_set_hvac_mode
    last = {"mode": entity.hvac_mode}

    async def remembering(hvac_mode: str) -> None:
        if hvac_mode != "off":
            last["mode"] = hvac_mode
        await set_mode(hvac_mode)

    async def resuming() -> None:
        await set_mode(last["mode"])

    entity.async_set_hvac_mode, entity.async_turn_on = remembering, resuming
    hvac_only = Home(
        name=home.name, rooms=home.rooms, devices=[d for d in calibrated.devices if d.did == HVAC]
    )
    twin.write_text(dump_home(hvac_only), encoding="utf-8")
    argv = ["home", "probe", "--home", str(twin), *ha, f"--allow-high-risk={HVAC}", "--yes"]
    assert await hass.async_add_executor_job(main, argv) == 0
    assert (
        "climate.hvac turn_on: comes back on in the mode it had, as the twin"
        in (tmp_path / "twin.probe.md").read_text()
    )
    resumed = HomeEngine.from_file(twin).home
    assert _turn_on_effects(resumed, HVAC) == [{"set": "state", "value": "on"}]  # heat's gone
