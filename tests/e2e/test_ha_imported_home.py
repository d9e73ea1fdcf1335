"""End to end: a home imported from home-assistant-datasets' format, served by SMH inside a real
``hass``, shows HA the source's entity ids and areas, and HA's built-in Assist agent runs the
imported tasks with verdicts equal to the embedded verifier's on the same final state."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import aiohttp
import pytest

from smh_core.ha.runner import HaClient, run_via_ha
from smh_core.importers.ha_datasets import import_ha_datasets
from smh_core.llm.local import free_port

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

from tests.e2e.verdicts import embedded_verdicts  # noqa: E402

pytestmark = pytest.mark.slow
SOURCE = ROOT / "tests" / "fixtures" / "ha_datasets"


async def hosted_entities(url: str, token: str, entry_id: str, home) -> dict[str, str]:
    """entity id -> area-less friendly name, with the entry switched to ``home``."""
    async with aiohttp.ClientSession() as session:
        client = HaClient(url, token, session)
        await client.switch_home(entry_id, home)
        async with session.get(
            f"{url}/api/states", headers={"Authorization": f"Bearer {token}"}
        ) as r:
            return {
                s["entity_id"]: s["attributes"].get("friendly_name", "") for s in await r.json()
            }


def test_imported_home_keeps_the_sources_entity_ids_and_assist_runs_its_tasks(
    tmp_path, socket_enabled
):
    tasks, _ = import_ha_datasets(SOURCE, tmp_path / "imported")
    # a lock, a cover, a fan, a light, a speaker; then a garage door, a valve, a robot vacuum, a to-do
    # list, two speakers and a light strip: every platform the imported kinds need
    tasks = [t for t in tasks if "house-mixed" in t.id or "house-more" in t.id]
    assert len(tasks) == 14
    loop = asyncio.new_event_loop()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(tmp_path / "ha", free_port(), "simple", 0, time_scale=0.0)
        )
        try:
            ha_instance.install_homes(inst.config_dir, tmp_path / "imported" / "homes")
            run = loop.run_until_complete(
                run_via_ha(
                    tasks,
                    inst.url,
                    inst.token,
                    "conversation.home_assistant",
                    tmp_path / "out",
                    progress=False,
                )
            )
            names = loop.run_until_complete(
                hosted_entities(inst.url, inst.token, inst.entry_id, tasks[0].home)
            )
            names |= loop.run_until_complete(
                hosted_entities(inst.url, inst.token, inst.entry_id, tasks[-1].home)
            )
        finally:
            inst.stop()
        records = list(run.log.records())
        direct = loop.run_until_complete(embedded_verdicts(tasks, records, tmp_path / "imported"))
    finally:
        loop.close()
    for eid, name in {
        "lock.front_door": "Front Door Lock",
        "cover.garage_door": "Garage Door",
        "fan.ceiling_fan": "Ceiling Fan",
        "light.hall_light": "Hall Light",
        "media_player.bedroom_speaker": "Bedroom Speaker",
        "cover.garage_door_opener": "Garage Door",
        "valve.irrigation": "Irrigation Valve",
        "vacuum.rover": "Rover",
        "todo.shopping": "Shopping",
        "media_player.kitchen_speaker": "Kitchen Speaker",
        "light.strip": "Light Strip",
    }.items():
        assert names.get(eid) == name, (
            eid,
            sorted(n for n in names if n.split(".")[0] == eid.split(".")[0]),
        )
    assert run.skipped_homes == {} and len(records) == len(tasks)
    for r in records:
        mine = direct[r["task_id"]]
        assert (r["passed"], r["verdict"]["error_class"]) == (
            mine["passed"],
            mine["error_class"],
        ), r["task_id"]
    assert sum(r["passed"] for r in records) >= 3, [(r["task_id"], r["response"]) for r in records]
