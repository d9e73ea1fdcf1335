"""A real Home Assistant process with the SMH integration, set up without a browser.

Used by ``make demo`` and by the end-to-end test: writes a config dir (loopback HTTP, the
REST/config/conversation APIs, this repository's ``custom_components`` linked in), starts
``hass``, onboards an owner through HA's onboarding API, and adds an SMH home through the
integration's real config flow. Only HA's public HTTP APIs are used.

    python scripts/ha_instance.py --dir .ha-demo --port 8123 --level medium
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parents[1]
USERNAME, PASSWORD = "smh", "smh-demo"
CONFIG = """homeassistant:
  name: SMH home
  unit_system: metric
  time_zone: UTC
  latitude: 52.37
  longitude: 4.89
  elevation: 0
http:
  server_host: 127.0.0.1
  server_port: {port}
api:
config:
onboarding:
conversation:
frontend:
"""


@dataclass
class Instance:
    url: str
    token: str
    process: subprocess.Popen
    entry_id: str

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def write_config(config_dir: Path, port: int) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "configuration.yaml").write_text(CONFIG.format(port=port), encoding="utf-8")
    link = config_dir / "custom_components"
    if not link.exists():
        link.symlink_to(REPO / "custom_components", target_is_directory=True)


def start(config_dir: Path, log: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "homeassistant", "-c", str(config_dir), "--skip-pip"],
                                stdout=out, stderr=subprocess.STDOUT, env=env, cwd=config_dir)


async def _wait(session: aiohttp.ClientSession, url: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"hass exited with code {process.returncode}; see its log")
        try:
            async with session.get(f"{url}/api/onboarding") as r:
                if r.status in (200, 401, 404):
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.25)
    raise TimeoutError(f"Home Assistant did not answer on {url} within {timeout:.0f} s")


async def _json(r: aiohttp.ClientResponse) -> Any:
    if r.status >= 400:
        raise RuntimeError(f"{r.method} {r.url.path}: HTTP {r.status}: {await r.text()}")
    return await r.json()


async def onboard(session: aiohttp.ClientSession, url: str) -> str:
    """Create the owner and finish onboarding; returns an access token (or logs in again when
    the instance was onboarded before)."""
    client_id = f"{url}/"
    async with session.get(f"{url}/api/onboarding") as r:
        steps = {s["step"]: s["done"] for s in await _json(r)} if r.status == 200 else {"user": True}
    if not steps.get("user", True):
        async with session.post(f"{url}/api/onboarding/users", json={
                "client_id": client_id, "name": "SMH", "username": USERNAME, "password": PASSWORD,
                "language": "en"}) as r:
            code = (await _json(r))["auth_code"]
    else:
        code = await _login(session, url, client_id)
    async with session.post(f"{url}/auth/token", data={"grant_type": "authorization_code", "code": code,
                                                       "client_id": client_id}) as r:
        token = (await _json(r))["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    for step, body in (("core_config", {}), ("analytics", {}),
                       ("integration", {"client_id": client_id, "redirect_uri": f"{url}/?auth_callback=1"})):
        if not steps.get(step, True):
            async with session.post(f"{url}/api/onboarding/{step}", json=body, headers=headers) as r:
                await _json(r)
    return token


async def _login(session: aiohttp.ClientSession, url: str, client_id: str) -> str:
    async with session.post(f"{url}/auth/login_flow", json={
            "client_id": client_id, "handler": ["homeassistant", None], "redirect_uri": f"{url}/"}) as r:
        flow = await _json(r)
    async with session.post(f"{url}/auth/login_flow/{flow['flow_id']}", json={
            "client_id": client_id, "username": USERNAME, "password": PASSWORD}) as r:
        return (await _json(r))["result"]


async def add_home(session: aiohttp.ClientSession, url: str, token: str, level: str, seed: int,
                   time_scale: float) -> str:
    """The SMH entry for this home (created through the config flow, or the existing one)."""
    headers = {"Authorization": f"Bearer {token}"}
    async with session.get(f"{url}/api/config/config_entries/entry?domain=smh", headers=headers) as r:
        existing = await _json(r)
    if existing:
        return existing[0]["entry_id"]
    async with session.post(f"{url}/api/config/config_entries/flow", json={"handler": "smh"}, headers=headers) as r:
        flow = await _json(r)
    async with session.post(f"{url}/api/config/config_entries/flow/{flow['flow_id']}", headers=headers, json={
            "source": "generated", "level": level, "seed": seed, "time_scale": time_scale}) as r:
        result = await _json(r)
    if result.get("type") != "create_entry":
        raise RuntimeError(f"the SMH config flow did not create an entry: {result}")
    return result["result"]["entry_id"]


async def launch(config_dir: Path, port: int, level: str, seed: int, time_scale: float,
                 timeout: float = 120.0) -> Instance:
    write_config(config_dir, port)
    process = start(config_dir, config_dir / "hass.log")
    url = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            await _wait(session, url, process, timeout)
            token = await onboard(session, url)
            entry_id = await add_home(session, url, token, level, seed, time_scale)
    except BaseException:
        process.terminate()
        raise
    return Instance(url, token, process, entry_id)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", type=Path, default=REPO / ".ha-demo", help="config dir (default: .ha-demo)")
    p.add_argument("--port", type=int, default=8123)
    p.add_argument("--level", choices=["simple", "medium", "complex"], default="medium")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--time-scale", type=float, default=1.0, help="simulated seconds per real second")
    args = p.parse_args()
    inst = asyncio.run(launch(args.dir.resolve(), args.port, args.level, args.seed, args.time_scale))
    print(f"Home Assistant with the SMH {args.level} home (seed {args.seed}) is running:")
    print(f"  URL:      {inst.url}   (login: {USERNAME} / {PASSWORD})")
    print(f"  token:    {inst.token}")
    print(f"  log:      {args.dir / 'hass.log'}   stop with Ctrl-C")
    try:
        inst.process.wait()
    except KeyboardInterrupt:
        inst.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
