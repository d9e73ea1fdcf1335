"""`smh matter-server` stops within a second on SIGINT/SIGTERM, from the signal to the process's
exit, even with a client connected: a bare listening socket, or python-matter-server's own
``MatterClient`` (what HA's matter integration runs, which answers the close and reconnects at
once). The server used to wait for HA for over a minute."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time

import aiohttp
import pytest

from smh_core.homeenv.engine import dump_home
from smh_core.homes.simulated import generate_matter_home
from smh_core.llm.local import free_port


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_bridge_exits_promptly_with_a_listening_client(tmp_path, socket_enabled, sig):
    home = tmp_path / "matter.json"
    home.write_text(dump_home(generate_matter_home(0)))
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "matter-server",
            "--home",
            str(home),
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert "serving" in proc.stdout.readline()

        async def connect_and_stop() -> tuple[float, int | None]:
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws,
            ):
                await ws.receive_json()  # server info
                await ws.send_json({"message_id": "1", "command": "start_listening"})
                await ws.receive_json()  # the node dump: now a listening client, as HA is
                started = time.monotonic()
                proc.send_signal(sig)
                while proc.poll() is None and time.monotonic() - started < 30:
                    await asyncio.sleep(0.05)
                return time.monotonic() - started, ws.close_code

        loop = asyncio.new_event_loop()
        try:
            seconds, _ = loop.run_until_complete(connect_and_stop())
        finally:
            loop.close()
        assert proc.returncode == 0, proc.stdout.read()
        assert seconds < 1.0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_bridge_exits_within_a_second_with_has_matter_client(tmp_path, socket_enabled):
    from matter_server.client import MatterClient

    home = tmp_path / "matter.json"
    home.write_text(dump_home(generate_matter_home(0)))
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "matter-server",
            "--home",
            str(home),
            "--port",
            str(port),
            "--save",
            str(tmp_path / "after.json"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert "serving" in proc.stdout.readline()

        async def listen_and_stop() -> float:
            async with aiohttp.ClientSession() as session:
                client = MatterClient(f"ws://127.0.0.1:{port}/ws", session)
                await client.connect()
                ready = asyncio.Event()
                listening = asyncio.create_task(client.start_listening(ready))
                await ready.wait()
                assert len(client.get_nodes()) == 27
                started = time.monotonic()
                proc.send_signal(signal.SIGINT)
                while proc.poll() is None and time.monotonic() - started < 30:
                    await asyncio.sleep(0.02)
                seconds = time.monotonic() - started
                listening.cancel()
                return seconds

        loop = asyncio.new_event_loop()
        try:
            seconds = loop.run_until_complete(listen_and_stop())
        finally:
            loop.close()
        assert proc.returncode == 0, proc.stdout.read()
        assert seconds < 1.0
        assert (tmp_path / "after.json").exists()  # --save still written
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
