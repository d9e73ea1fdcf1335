"""Rules and schedules on the real home (issue 39): the twin's ``automation`` and ``timed`` tasks
run on HA's ``demo`` entities as real HA automations, on HA's own clock (the test moves HA's
test clock; nothing of the real devices is simulated), judged as on the twin, side by side
with the twin's run; a device that ignores an automation's call is flagged; the automations a
run makes are gone afterwards."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant

from smh_core.cli.main import main
from smh_core.ha.ha_inventory import read_inventory
from smh_core.ha.hardware import run_on_hardware
from smh_core.ha.hardware_map import load_mapping
from smh_core.ha.map_propose import render
from smh_core.ha.real_automations import PREFIX
from smh_core.ha.real_plan import NEEDS_TIME, WOULD_WAIT
from smh_core.ha.twin_compare import compare_runs
from smh_core.ha.twin_map import high_risk, twin_mapping
from smh_core.ha.twin_runnable import real_check
from smh_core.ha.websocket import connect
from smh_core.homeenv.engine import HomeEngine
from smh_core.suites.for_home import generate_for_home, generate_sage
from smh_core.task.home import HomeCache
from smh_core.task.model import HomeRef, Task, dump_task
from tests.ha.test_twin_demo import demo_url  # noqa: F401  (the fixture)
from tests.ha.twin_flow import WEEK, HaTestClock, ha_clock, with_automations  # noqa: F401

OPTED_IN = ("climate.", "valve.")


async def _time_tasks(hass: HomeAssistant, url: str, token: str, tmp_path: Path) -> dict[str, Any]:
    """The twin, its rule and schedule tasks (smh and sage suites), the oracle's twin run and
    the mapping the twin implies. The demo's thermostats and valves are safe to drive: opted in,
    as a user names their own, for the probe and for real runs (the valves move in steps of 10
    a second as its windows do: probed, the twin knows it)."""
    twin_file = tmp_path / "twin.json"
    ha = ["--ha-url", url, "--token", token]
    argv = ["home", "from-ha", *ha, "--out", str(twin_file)]
    assert await hass.async_add_executor_job(main, argv) == 0
    home = HomeEngine.from_file(twin_file).home
    allowed = sorted(d.did for d in home.devices if d.did.startswith(OPTED_IN) and high_risk(d))
    assert {"valve.back_garden", "valve.trees"} <= set(allowed)
    # the demo's windows and valves move in steps of 10: taught to the twin, as
    # docs/physical-home.md says
    argv = ["home", "probe", "--home", str(twin_file), *ha, "--yes"]
    argv += [f"--allow-high-risk={did}" for did in allowed]
    assert await hass.async_add_executor_job(main, argv) == 0
    home = HomeEngine.from_file(twin_file).home
    moving = {d.did for d in home.devices if d.did.startswith("valve.") and d.userdata.travel}
    # the probe learnt how the opted-in valves with a position move (the others open and close)
    assert moving == {"valve.back_garden", "valve.trees"}, moving
    tasks_dir = tmp_path / "tasks"
    tasks: list[Task] = []
    real = real_check(home)  # only tasks the demo's HA can run, as `smh tasks generate` writes
    for make in (generate_for_home, generate_sage):
        made = await hass.async_add_executor_job(
            partial(make, home, tasks_dir, "twin", 0, 3, real=real)
        )
        tasks += [t for t in made.tasks if set(t.goal_kinds) & set(NEEDS_TIME)]
    task_file = tasks_dir / "twin.time.jsonl"
    task_file.write_text("".join(dump_task(t) + "\n" for t in tasks))
    twin_run = tmp_path / "twin-run"
    argv = ["bench", "run", "--tasks", str(task_file), "--agent", "oracle", "--out", str(twin_run)]
    assert await hass.async_add_executor_job(main, argv) == 0
    async with connect(url, token) as call:
        inventory = await read_inventory(call)
    proposal = twin_mapping(home, HomeRef(file="homes/twin.json"), inventory, allowed)
    # the mapping's default 15 s to report: the valves and windows travel up to 10 s
    mapping_file = tmp_path / "mapping.yaml"
    mapping_file.write_text(render(proposal))
    return {
        "home": home,
        "tasks": tasks,
        "tasks_dir": tasks_dir,
        "twin_run": twin_run,
        "mapping": mapping_file,
    }


async def _real_run(flow: dict[str, Any], tasks: list[Task], url: str, token: str, out: Path, **kw):
    return await run_on_hardware(
        tasks,
        url,
        token,
        "conversation.home_assistant",
        load_mapping(flow["mapping"]),
        out,
        HomeCache(flow["tasks_dir"]),
        progress=False,
        interval=0.05,
        player="oracle",
        **kw,
    )


async def test_rules_and_schedules_run_on_the_real_home(
    hass: HomeAssistant,
    demo_url: str,  # noqa: F811
    ha_clock: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    config = Path(hass.config.config_dir)
    token = await with_automations(hass)
    flow = await _time_tasks(hass, demo_url, token, tmp_path)
    freezer = ha_clock.start()
    tasks: list[Task] = flow["tasks"]
    kinds = {t.subcategory: t.goal_kinds[0] for t in tasks}
    assert {"time_specific", "state_driven", "time_and_state"} <= set(kinds)
    assert "timed" in kinds.values()  # sage's "turn it off in 10 minutes"

    # without waiting allowed (the default), the tasks that need HA's clock are skipped, each
    # with how long it would wait; no automation is made for them
    quick = await _real_run(flow, tasks, demo_url, token, tmp_path / "no-wait")
    waits = [why for why in quick.skipped_tasks.values() if why.startswith(WOULD_WAIT)]
    assert waits and all("on HA's clock; --max-wait 0 s" in why for why in waits), waits

    clock = HaTestClock(hass, freezer)
    run = await _real_run(
        flow, tasks, demo_url, token, tmp_path / "real-run", clock=clock, max_wait=WEEK
    )
    side = compare_runs(flow["twin_run"], tmp_path / "real-run", flow["home"], run.skipped_tasks)
    print("\n" + side.markdown().splitlines()[2], run.skipped, f"waited {clock.waited:.0f} s")
    both = {task_id for task_id, _, _ in side.both}
    ran = {t.subcategory for t in tasks if t.id in both}
    assert {"time_specific", "state_driven", "persistence"} <= ran, (ran, run.skipped_tasks)
    # every task runs on both: the heat pump's "turns off" rule first switches it on, and the
    # opted-in valves, probed, are judged as the twin
    assert run.skipped_tasks == {} and len(both) == len(tasks), side.markdown()
    assert all(twin and real for _, twin, real in side.both), side.markdown()
    assert side.differences == [], side.markdown()
    records = [json.loads(line) for line in (tmp_path / "real-run" / "results.jsonl").open()]
    later = [r["later"]["moments"] for r in records if "later" in r]
    assert later and all(m["twin"] and m["real"] for ms in later for m in ms)
    assert clock.waited > 3600  # HA's clock went forward to the tasks' own times

    # the automations SMH made are gone, from HA and from its automations file
    assert not [s for s in hass.states.async_all("automation")]
    assert PREFIX not in (config / "automations.yaml").read_text()

    # a light that ignores its calls: an automation turning it on/off shows it as a difference
    victim = "light.bed_light"
    entity = hass.data["light"].get_entity(victim)

    async def ignore(**kwargs: Any) -> None:
        return None

    entity.async_turn_on = ignore
    entity.async_turn_off = ignore
    chosen = [
        t
        for t in tasks
        if t.id in both
        and any(a["did"] == victim for r in t.reference.automations for a in r["actions"])
    ][:1]
    chosen += [
        t
        for t in tasks
        if t.id in both
        and any(a["did"] == victim for s in t.reference.schedules for a in s["actions"])
    ][:1]
    assert chosen
    faulty = await _real_run(
        flow, chosen, demo_url, token, tmp_path / "faulty", clock=clock, max_wait=WEEK, attempts=1
    )
    flagged = compare_runs(
        flow["twin_run"], tmp_path / "faulty", flow["home"], faulty.skipped_tasks
    )
    assert set(flagged.by_device()) == {victim}, flagged.markdown()
    assert flagged.by_device()[victim]["ignored"] == len(chosen)
    assert {t.id for t in chosen} <= set(flagged.only_twin)
    assert not [s for s in hass.states.async_all("automation")]
