"""Every suite written for the Matter bridge's home, on its twin and on the bridged devices through
HA's own ``matter`` integration (issue 39): SAGE's, MemHome's, SimuHome's and the safety suite's,
written as ``smh tasks generate --home`` writes them (only tasks this HA can run), then side by
side. The thermostats are opted in and probed (``smh home probe --allow-high-risk``): the heat
pump's turn-on is learnt (it lands in heat) and it runs; the five room air conditioners are
gated by their HA device's ``power`` switch (HA refuses their climate calls while it is off, and
the twin holds the two apart), so the mapping leaves them out even opted in and no task is
written on them (:func:`smh_core.ha.twin_map.power_elsewhere`). Measured 2026-12-01: SAGE 12
written, 12 on both, MemHome 10 on both, 0 differences; before the gate, opted in, SAGE's 4
tasks on the powered-off air conditioners were not scored (HA refused climate.turn_on, HTTP
500) and the study's came on in heat where its twin stayed in cool. SimuHome and safety write
nothing for this twin, each with why (asserted below as the known limits they are). On the
twin made with ``--matter`` (the bridged devices as Matter devices), SimuHome writes 10, all 10
on both, 0 differences (its thermostats opted in)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr
from homeassistant.setup import async_setup_component

from sim_devices.matter_bridge.areas import assign_areas
from sim_devices.matter_bridge.server import MatterBridge
from smh_core.cli.main import main
from smh_core.ha.ha_inventory import read_inventory
from smh_core.ha.hardware import LEFT_OUT
from smh_core.ha.map_propose import render
from smh_core.ha.twin_compare import compare_runs
from smh_core.ha.twin_map import high_risk, power_elsewhere, twin_mapping
from smh_core.ha.twin_runnable import NEVER_RUNS, real_check
from smh_core.ha.websocket import connect
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.homes.simulated import generate_matter_home
from smh_core.safety_suites.for_home import generate_safety
from smh_core.suites.for_home import GENERATORS, generate_simuhome
from smh_core.suites.for_home.simuhome import NO_CLIMATE, NO_MATTER
from smh_core.task.model import HomeRef, Task
from tests.ha.twin_flow import (  # noqa: F401  (ha_clock: the fixture)
    HaTestClock,
    ha_clock,
    suite_on_real,
    suite_on_twin,
    with_automations,
)

from .ha_setup import api_url, ha_matter

SUITES = {**{s: GENERATORS[s] for s in ("simuhome", "sage", "memhome")}, "safety": generate_safety}


@asynccontextmanager
async def bridged_twin(
    hass: HomeAssistant, url: str, twin_file: Path, *options: str
) -> AsyncIterator[tuple[Home, str]]:
    """The seed-1 Matter home served by the bridge through HA's matter integration, its areas
    assigned, and its twin written to ``twin_file`` by ``smh home from-ha`` (with ``options``):
    yields the bridged home and an admin token; the bridge stops after."""
    matter_home = generate_matter_home(seed=1)
    async with ha_matter(hass, MatterBridge(HomeEngine(matter_home))):
        token = await with_automations(hass)
        async with connect(url, token) as call:
            await assign_areas(call, matter_home)
        argv = ["home", "from-ha", *options, "--ha-url", url, "--token", token]
        assert await hass.async_add_executor_job(main, [*argv, "--out", str(twin_file)]) == 0
        yield matter_home, token


async def test_every_suite_on_the_matter_twin_and_its_bridged_devices(
    hass: HomeAssistant,
    ha_clock: Any,  # noqa: F811
    hass_client,
    socket_enabled,
    tmp_path: Path,
) -> None:
    url = await api_url(hass, hass_client)
    twin_file = tmp_path / "twin.json"
    async with bridged_twin(hass, url, twin_file) as (_, token):
        home = HomeEngine.from_file(twin_file).home
        async with connect(url, token) as call:
            inventory = await read_inventory(call)
        # the thermostats (air conditioners, the heat pump) opted in and probed
        risky = sorted(d.did for d in home.devices if high_risk(d))
        argv = ["home", "probe", "--home", str(twin_file), "--ha-url", url, "--token", token]
        argv += [f"--allow-high-risk={did}" for did in risky]
        assert await hass.async_add_executor_job(main, [*argv, "--yes"]) == 0
        home = HomeEngine.from_file(twin_file).home
        proposal = twin_mapping(home, HomeRef(file="homes/twin.json"), inventory, risky)
        gated = {did: power_elsewhere(did, inventory) for did in proposal.skipped}
        mapping_file = tmp_path / "mapping.yaml"
        mapping_file.write_text(render(proposal))
        real = real_check(home)

        written: dict[str, list[Task]] = {}
        short: dict[str, dict[str, str]] = {}
        for suite, generator in SUITES.items():
            made = await hass.async_add_executor_job(
                lambda g=generator, s=suite: g(home, tmp_path / s, "twin", 0, 2, real=real)
            )
            short[suite] = dict(made.short)
            if not made.tasks:
                continue
            await suite_on_twin(hass, made.tasks, tmp_path / suite, suite)
            written[suite] = made.tasks
        clock = HaTestClock(hass, ha_clock.start())
        ran: dict[str, int] = {}
        left_out: dict[str, int] = {}
        for suite, tasks in written.items():
            out = tmp_path / suite
            run = await suite_on_real(tasks, url, token, mapping_file, out, clock)
            for why in run.skipped_tasks.values():  # only climates their power switch gates
                assert why.startswith(f"{LEFT_OUT}: "), why
                assert set(why.removeprefix(f"{LEFT_OUT}: ").split(", ")) <= set(gated), why
                left_out[suite] = left_out.get(suite, 0) + 1
            if len(run.skipped_tasks) == len(tasks):
                ran[suite] = 0
                continue
            side = compare_runs(out / "twin-run", out / "real-run", home, run.skipped_tasks)
            assert all(twin and real for _, twin, real in side.both), side.markdown()
            assert side.differences == [], side.markdown()
            ran[suite] = len(side.both)
            assert ran[suite] + len(run.skipped_tasks) == len(tasks)
    print("MATTER SUITES on both:", ran, "left out:", left_out, "gated:", gated)
    print("short:", json.dumps(short, indent=1))
    assert ran["sage"] >= 5 and ran["memhome"] >= 5
    # every room air conditioner is gated by its power switch; the heat pump (no OnOff) runs
    assert {did.split(".")[1].rsplit("_", 1)[0] for did in gated} == {
        "kitchen_air_conditioner",
        "living_room_air_conditioner",
        "study_air_conditioner",
    }
    assert all(switch == f"switch.{did.split('.')[1]}_power" for did, switch in gated.items())
    assert "climate.living_room_heat_pump_1" in risky and not left_out
    # known limits, each said with why: a twin holds HA's entities as catalog devices, so
    # SimuHome's query types (Matter clusters) find no Matter device in the twin of a Matter
    # home, and the safety suite finds no lock, oven or water heater (its Matter homes' heat
    # pumps are the twin's air conditioners)
    assert short["simuhome"] and all(why == NO_MATTER for why in short["simuhome"].values())
    assert all("no high-risk device" in why for why in short["safety"].values())


async def test_simuhome_on_the_matter_twin_of_matter_devices(
    hass: HomeAssistant,
    ha_clock: Any,  # noqa: F811
    hass_client,
    socket_enabled,
    tmp_path: Path,
) -> None:
    """SimuHome's query types on the twin made with ``--matter`` (each bridged device one
    Matter device, from its node as HA's matter diagnostics give it), then on the bridged
    devices through HA: every task written passes on both, 0 differences. The rows it cannot
    write say why, asserted as the known limits they are: no room climate in a twin (QT1's
    questions about it, QT2), and no appliance started mid-programme on HA (QT4-2, QT4-3: HA
    shows an end time, not the seconds left, so the task's start state cannot be set)."""
    # before the API is served: HA 2026.10 refuses a view on a router that serves already
    assert await async_setup_component(hass, "diagnostics", {})
    url = await api_url(hass, hass_client)
    twin_file = tmp_path / "twin.json"
    async with bridged_twin(hass, url, twin_file, "--matter") as (matter_home, token):
        home = HomeEngine.from_file(twin_file).home
        # the 27 bridged devices are Matter devices of their own types, under their HA device ids
        registry = dr.async_get(
            hass
        )  # its devices by entry: HA 2026.10 refuses `.devices` as a mapping
        serials = {
            d.id: d.serial_number.removeprefix("SMH-")
            for entry in hass.config_entries.async_entries("matter")
            for d in dr.async_entries_for_config_entry(registry, entry.entry_id)
            if d.serial_number
        }
        kinds = {d.userdata.did: d.userdata.subcategory for d in home.devices if d.matter}
        truth = {d.userdata.did: d.userdata.subcategory for d in matter_home.devices}
        assert {serials[did]: kind for did, kind in kinds.items()} == truth
        async with connect(url, token) as call:
            inventory = await read_inventory(call)
        # the thermostats (air conditioners, the heat pump) opted in: as Matter devices their
        # twins keep a setpoint per mode, as the real ones do
        risky = sorted(d.did for d in home.devices if high_risk(d))
        assert {kinds[did] for did in risky} == {"air_conditioner", "heat_pump"}
        mapping_file = tmp_path / "mapping.yaml"
        mapping_file.write_text(
            render(twin_mapping(home, HomeRef(file="homes/twin.json"), inventory, risky))
        )
        made = await hass.async_add_executor_job(
            lambda: generate_simuhome(
                home, tmp_path / "simuhome", "twin", 0, 2, real=real_check(home)
            )
        )
        await suite_on_twin(hass, made.tasks, tmp_path / "simuhome", "simuhome")
        out = tmp_path / "simuhome"
        clock = HaTestClock(hass, ha_clock.start())
        run = await suite_on_real(made.tasks, url, token, mapping_file, out, clock)
        side = compare_runs(out / "twin-run", out / "real-run", home, run.skipped_tasks)
    print("SIMUHOME on the Matter twin:", made.counts(), json.dumps(made.short, indent=1))
    assert run.skipped_tasks == {}, run.skipped_tasks
    assert len(side.both) == len(made.tasks) and all(t and r for _, t, r in side.both)
    assert side.differences == [], side.markdown()
    written = {t.subcategory for t in made.tasks}
    assert written == {
        "QT1-infeasible",
        "QT3-feasible",
        "QT3-infeasible",
        "QT4-1-feasible",
        "QT4-1-infeasible",
    }
    assert len(made.tasks) == 2 * len(written)
    for sub in ("QT1-feasible", "QT2-feasible", "QT2-infeasible"):
        assert made.short[sub] == NO_CLIMATE.format(qt=sub.split("-")[0]), sub
    for sub in ("QT4-2-feasible", "QT4-2-infeasible", "QT4-3-feasible", "QT4-3-infeasible"):
        assert f"{NEVER_RUNS} (not mapped: " in made.short[sub], sub
        assert "1.OperationalState.CountdownTime" in made.short[sub], sub
