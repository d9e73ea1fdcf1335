"""End to end: a real ``hass`` process stopped (SIGTERM) in the middle of a 7-day
``smh.advance_time`` and started again.

The caller gets an answer before HA goes down (how far the jump got, that it will resume), no
executor thread is killed mid-slice, and after the restart the rest of the week runs by
itself: the clock ends at the target and the home in exactly the state of one uninterrupted
run of the same week.
"""

from __future__ import annotations

import asyncio
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from smh_core.ha.runner import HaClient
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home
from smh_core.llm.local import free_port
from smh_core.sim.simulator import Simulator
from tests.support import sim_home as sh

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

WEEK = 7 * 86400


def busy_home() -> Home:
    """A rule fires every 5 s: a week is 120,960 firings, seconds of work per simulated day."""
    return sh.busy_home(period=5, name="busy week")


async def _jump_then_stop(inst: ha_instance.Instance, entry_id: str) -> tuple[int, dict[str, Any]]:
    """Start the week's jump, send SIGTERM to hass 3 s later; returns the call's HTTP status
    and body."""
    async with aiohttp.ClientSession() as session:
        call = asyncio.create_task(
            session.post(
                f"{inst.url}/api/services/smh/advance_time?return_response",
                json={"seconds": WEEK, "config_entry_id": entry_id},
                headers={"Authorization": f"Bearer {inst.token}"},
                timeout=aiohttp.ClientTimeout(total=120),
            )
        )
        await asyncio.sleep(3)
        inst.process.terminate()
        response = await call
        return response.status, await response.json()


async def _wait_for_target(
    inst: ha_instance.Instance, entry_id: str, target: str, timeout: float = 300
) -> str:
    """``smh.advance_time`` by 0 s waits for a running jump: ask until the clock is at ``target``."""
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as session:
        client = HaClient(inst.url, inst.token, session)
        while True:
            now = (
                await client.service(
                    "smh", "advance_time", {"seconds": 0, "config_entry_id": entry_id}
                )
            )["now"]
            if now == target or time.monotonic() > deadline:
                return now
            await asyncio.sleep(0.5)


async def _snapshot(inst: ha_instance.Instance, entry_id: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as session:
        return (
            await HaClient(inst.url, inst.token, session).service(
                "smh", "snapshot", {"config_entry_id": entry_id}
            )
        )["devices"]


@pytest.mark.slow  # 20-90 s
def test_a_week_interrupted_by_a_restart_is_finished(tmp_path, socket_enabled):
    config_dir, port = tmp_path / "ha", free_port()
    loop = asyncio.new_event_loop()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(config_dir, port, "simple", 0, time_scale=0.0)
        )
        try:
            (config_dir / "busy.json").write_text(dump_home(busy_home()), encoding="utf-8")

            async def to_busy_home() -> None:
                async with aiohttp.ClientSession() as session:
                    await HaClient(inst.url, inst.token, session).reconfigure(
                        inst.entry_id, {"source": "file", "file": "busy.json", "time_scale": 0.0}
                    )
                    await HaClient(inst.url, inst.token, session).wait_for_home(
                        inst.entry_id, "file:busy.json"
                    )

            loop.run_until_complete(to_busy_home())
            status, body = loop.run_until_complete(_jump_then_stop(inst, inst.entry_id))
            inst.process.wait(timeout=60)
        finally:
            inst.stop()
        log = (config_dir / "hass.log").read_text(encoding="utf-8", errors="replace")
        assert status == 200, (status, body)
        reply = body["service_response"]
        assert (
            reply["interrupted"] is True and reply["resumes"] is True and reply["finished"] is False
        )
        assert 0 < reply["done_seconds"] < WEEK and reply["now"].endswith(":00:00")
        assert "SystemExit" not in log and "Timed out waiting for shutdown jobs" not in log

        inst = loop.run_until_complete(
            ha_instance.launch(config_dir, port, "simple", 0, time_scale=0.0)
        )
        try:
            now = loop.run_until_complete(_wait_for_target(inst, inst.entry_id, reply["target"]))
            devices = loop.run_until_complete(_snapshot(inst, inst.entry_id))
        finally:
            inst.stop()
    finally:
        loop.close()
    assert now == reply["target"]
    plain = Simulator(HomeEngine(busy_home()))
    plain.advance(WEEK)
    assert (
        plain.now.isoformat()
        == reply["target"]
        == (busy_home().simulation.now + timedelta(seconds=WEEK)).isoformat()
    )
    assert devices == plain.engine.snapshot().to_dict()
