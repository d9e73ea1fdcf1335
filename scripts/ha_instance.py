"""A real Home Assistant process with the SMH integration, set up without a browser.

Used by ``make demo`` and by the end-to-end test: writes a config dir (loopback HTTP, the
REST/config/conversation APIs, this repository's ``custom_components`` linked in), starts
``hass``, onboards an owner through HA's onboarding API, creates a long-lived access token
(HA's websocket API; a run may take longer than an access token's 30 minutes), copies the task
home files (``tasks/homes/*.json``) into ``<config>/smh_homes/`` so the benchmark runner can
switch the entry to them (see :mod:`smh_core.ha.runner` for the file-name rule), and adds
an SMH home through the integration's real config flow. Only HA's public APIs are used.

    python scripts/ha_instance.py --dir .ha-demo --port 8123 --level medium
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import importlib.metadata
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as a script: smh_core from this checkout
sys.path.insert(0, str(REPO / "scripts"))  # and its sibling scripts, however this one was loaded
from ha_assistant import AgentConfig, AssistantUnusable, configure_agent, ensure_assistant  # noqa: E402

from smh_core.ha.runner import DEFAULT_HOME_DIR  # noqa: E402
from smh_core.ha.websocket import ws_calls  # noqa: E402
from smh_core.llm.local import LocalModelServer, unavailable_reason  # noqa: E402

TASK_HOMES = REPO / "tasks" / "homes"
USERNAME, PASSWORD = "smh", "smh-demo"
CONFIG = """homeassistant:
  name: SMH home
  unit_system: {units}
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
    entry_id: str | None
    """The SMH entry (None: launched without an SMH home, ``with_home=False``)."""
    config_dir: Path | None = None
    assistant_error: str | None = None
    """Why SMH's assistant is not the preferred one although a model was given (its test turn
    failed), or None."""

    def stop(self) -> None:
        stop_process(self.process)


def stop_process(process: subprocess.Popen) -> None:
    """Ask hass to stop (SIGTERM: it saves its state), kill it after 30 s."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


DEMO_COMPONENTS = """recorder:
  purge_keep_days: 3
history:
logbook:
assist_pipeline:
"""
"""What ``make demo`` adds to the test configuration: history graphs of the room climate and the
Assist dialog (the tests leave them out: they start faster without a database)."""


class PortInUse(RuntimeError):
    """The HTTP port is taken: hass would fail to serve it, and a script that went on would talk
    to (and try to log into) whatever answers there instead."""


def check_port_free(port: int, host: str = "127.0.0.1") -> None:
    """Raise :class:`PortInUse`, naming what answers and the fix, when ``host:port`` cannot be
    bound (SO_REUSEADDR, as HA's own server: a port left in TIME_WAIT by an earlier run is free)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
            return
        except OSError as err:
            if err.errno != errno.EADDRINUSE:
                raise
    other = (
        "another Home Assistant answers there"
        if _is_home_assistant(host, port)
        else "something else listens there"
    )
    raise PortInUse(
        f"port {port} on {host} is already in use ({other}); stop it, or pick another port: "
        f"make demo PORT={port + 1}"
    )


def _is_home_assistant(host: str, port: int) -> bool:
    """Whether the server on ``host:port`` is a Home Assistant (its frontend's web manifest says
    so; nothing is sent but one GET, no credentials)."""
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/manifest.json", timeout=2) as r:
            return json.loads(r.read(65536)).get("name") == "Home Assistant"
    except (OSError, ValueError, AttributeError):
        return False


UNIT_SYSTEMS = {"metric": "metric", "imperial": "us_customary"}
"""``--units`` -> HA's ``unit_system``: the engine stays in °C, HA shows °F in an imperial home."""


def config_text(port: int, units: str = "metric") -> str:
    """``configuration.yaml`` for a loopback HA on ``port`` in ``units`` (metric or imperial)."""
    return CONFIG.format(port=port, units=UNIT_SYSTEMS[units])


def write_config(config_dir: Path, port: int, demo: bool = False, units: str = "metric") -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    text = config_text(port, units) + (DEMO_COMPONENTS if demo else "")
    (config_dir / "configuration.yaml").write_text(text, encoding="utf-8")
    link = config_dir / "custom_components"
    if not link.exists():
        link.symlink_to(REPO / "custom_components", target_is_directory=True)


HA_RELEASES = ("oldest", "newest")
"""The Home Assistants a script can start: ``oldest`` is HA 2026.2.3 in this venv (the oldest
SMH supports, the newest for Python 3.13); ``newest`` is HA 2026.11 on Python 3.14, in the root
and venv of CI's newest lane (``scripts/ha_current.sh``, set up on first use: ~6-9 min)."""

NEWEST_SETUP_TIMEOUT = 900.0
"""Seconds a script waits for a newest-HA hass to answer: the lane's first use sets up its root
and venv (~6-9 min), and it waits for another lane run to finish (one at a time)."""


def hass_python(release: str = "oldest") -> list[str]:
    """The command that runs Python with ``release``'s Home Assistant (:data:`HA_RELEASES`):
    this interpreter, or ``ha_current.sh --python``, which runs the newest lane's Python (in
    its root when the machine has no Python 3.14) and stops it on TERM, so a script on HA
    2026.2.3 can start, use and stop a hass of the newest HA without its own set-up."""
    if release == "oldest":
        return [sys.executable]
    if release == "newest":
        return ["bash", str(REPO / "scripts" / "ha_current.sh"), "--python"]
    raise ValueError(f"unknown Home Assistant {release!r}; choose one of {', '.join(HA_RELEASES)}")


def start(config_dir: Path, log: Path, python: Sequence[str] | None = None) -> subprocess.Popen:
    """Start ``hass`` on ``config_dir``, its output to ``log``; ``python`` is the command that
    runs Python with the wanted HA (:func:`hass_python`; default: this interpreter's)."""
    env = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                *(python or [sys.executable]),
                "-m",
                "homeassistant",
                "-c",
                str(config_dir),
                "--skip-pip",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=config_dir,
        )


async def _wait(
    session: aiohttp.ClientSession,
    url: str,
    process: subprocess.Popen,
    timeout: float,
    onboarded: bool = True,
) -> None:
    """Wait until hass answers on ``url``. A fresh instance (``onboarded`` False) is ready when
    its onboarding view answers: its HTTP server answers 404 before the onboarding and auth
    views are set up, and a loaded machine once sent the login there (HTTP 404 on
    /auth/login_flow). An instance onboarded before has no onboarding view: any 404 will do."""
    deadline = time.monotonic() + timeout
    ready = (200, 401, 404) if onboarded else (200,)
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"hass exited with code {process.returncode}; see its log")
        try:
            async with session.get(f"{url}/api/onboarding") as r:
                if r.status in ready:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.25)
    raise TimeoutError(f"Home Assistant did not answer on {url} within {timeout:.0f} s")


async def _wait_loaded(
    session: aiohttp.ClientSession,
    url: str,
    token: str,
    entry_id: str,
    process: subprocess.Popen,
    timeout: float,
) -> None:
    """Wait until the SMH entry has finished setting up (hass answers HTTP before that)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"hass exited with code {process.returncode}; see its log")
        async with session.get(
            f"{url}/api/config/config_entries/entry?domain=smh",
            headers={"Authorization": f"Bearer {token}"},
        ) as r:
            state = next((e["state"] for e in await _json(r) if e["entry_id"] == entry_id), None)
        if state == "loaded":
            return
        if state in ("setup_error", "setup_retry", "migration_error"):
            raise RuntimeError(f"the SMH entry failed to set up ({state}); see the hass log")
        await asyncio.sleep(0.25)
    raise TimeoutError(f"the SMH entry did not load within {timeout:.0f} s")


async def _json(r: aiohttp.ClientResponse) -> Any:
    if r.status >= 400:
        raise RuntimeError(f"{r.method} {r.url.path}: HTTP {r.status}: {await r.text()}")
    return await r.json()


async def onboard(session: aiohttp.ClientSession, url: str) -> str:
    """Create the owner and finish onboarding; returns an access token (or logs in again when
    the instance was onboarded before)."""
    client_id = f"{url}/"
    async with session.get(f"{url}/api/onboarding") as r:
        steps = (
            {s["step"]: s["done"] for s in await _json(r)} if r.status == 200 else {"user": True}
        )
    if not steps.get("user", True):
        async with session.post(
            f"{url}/api/onboarding/users",
            json={
                "client_id": client_id,
                "name": "SMH",
                "username": USERNAME,
                "password": PASSWORD,
                "language": "en",
            },
        ) as r:
            code = (await _json(r))["auth_code"]
    else:
        code = await _login(session, url, client_id)
    async with session.post(
        f"{url}/auth/token",
        data={"grant_type": "authorization_code", "code": code, "client_id": client_id},
    ) as r:
        token = (await _json(r))["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    for step, body in (
        ("core_config", {}),
        ("analytics", {}),
        ("integration", {"client_id": client_id, "redirect_uri": f"{url}/?auth_callback=1"}),
    ):
        if not steps.get(step, True):
            async with session.post(
                f"{url}/api/onboarding/{step}", json=body, headers=headers
            ) as r:
                await _json(r)
    return token


async def long_lived_token(
    session: aiohttp.ClientSession, url: str, token: str, name: str | None = None, days: int = 365
) -> str:
    """A long-lived access token for the user of ``token`` (websocket ``auth`` handshake, then
    ``auth/long_lived_access_token``); ``name`` must be unique per user, so it defaults to a
    time stamp."""
    name = name or f"smh {time.strftime('%Y-%m-%d %H:%M:%S')} pid {os.getpid()}"
    async with session.ws_connect(f"{url.replace('http', 'ws', 1)}/api/websocket") as ws:
        if (msg := await ws.receive_json())["type"] != "auth_required":
            raise RuntimeError(f"unexpected websocket greeting: {msg}")
        await ws.send_json({"type": "auth", "access_token": token})
        if (msg := await ws.receive_json())["type"] != "auth_ok":
            raise RuntimeError(f"websocket authentication failed: {msg}")
        await ws.send_json(
            {"id": 1, "type": "auth/long_lived_access_token", "client_name": name, "lifespan": days}
        )
        msg = await ws.receive_json()
    if not msg.get("success"):
        raise RuntimeError(f"HA refused a long-lived token: {msg.get('error')}")
    return msg["result"]


def install_homes(
    config_dir: Path, source: Path = TASK_HOMES, home_dir: str = DEFAULT_HOME_DIR
) -> list[Path]:
    """Copy the task home files into ``<config_dir>/<home_dir>/`` (same file names), where
    ``smh bench run --backend ha`` points the SMH entry for a task with ``file: homes/X.json``."""
    target = config_dir / home_dir
    target.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy2(f, target / f.name)) for f in sorted(source.glob("*.json"))]


async def _login(session: aiohttp.ClientSession, url: str, client_id: str) -> str:
    body = {"client_id": client_id, "handler": ["homeassistant", None], "redirect_uri": f"{url}/"}
    deadline = time.monotonic() + 30
    while True:  # the auth views may still be being set up on a loaded machine (HTTP 404)
        async with session.post(f"{url}/auth/login_flow", json=body) as r:
            if r.status != 404 or time.monotonic() > deadline:
                flow = await _json(r)
                break
        await asyncio.sleep(0.25)
    async with session.post(
        f"{url}/auth/login_flow/{flow['flow_id']}",
        json={"client_id": client_id, "username": USERNAME, "password": PASSWORD},
    ) as r:
        result = await _json(r)
    if (
        "result" not in result
    ):  # the form again, with an error: not an instance this script onboarded
        raise RuntimeError(
            f"{url} refused the login {USERNAME!r} ({result.get('errors') or result.get('type')}): "
            "it is not an instance this script set up; use a fresh --dir"
        )
    return result["result"]


async def _check_config_dir(
    session: aiohttp.ClientSession, url: str, token: str, config_dir: Path
) -> None:
    """Refuse to go on when the Home Assistant at ``url`` is not the one started on ``config_dir``."""
    async with session.get(f"{url}/api/config", headers={"Authorization": f"Bearer {token}"}) as r:
        theirs = (await _json(r)).get("config_dir")
    if theirs is None or Path(theirs).resolve() != config_dir.resolve():
        raise PortInUse(
            f"{url} is a Home Assistant on {theirs}, not the one started on {config_dir}"
        )


async def add_home(
    session: aiohttp.ClientSession, url: str, token: str, level: str, seed: int, time_scale: float
) -> str:
    """The SMH entry for this home (created through the config flow, or the existing one)."""
    headers = {"Authorization": f"Bearer {token}"}
    async with session.get(
        f"{url}/api/config/config_entries/entry?domain=smh", headers=headers
    ) as r:
        existing = await _json(r)
    if existing:
        return existing[0]["entry_id"]
    result = await config_flow(
        session, url, token, "generated", {"level": level, "seed": seed, "time_scale": time_scale}
    )
    if result.get("type") != "create_entry":
        raise RuntimeError(f"the SMH config flow did not create an entry: {result}")
    return result["result"]["entry_id"]


async def config_flow(
    session: aiohttp.ClientSession, url: str, token: str, kind: str, values: dict[str, Any]
) -> dict[str, Any]:
    """Walk SMH's config flow as the UI does: the menu, the step of home ``kind`` with ``values``;
    returns the last answer (an entry created, a form with errors, or the merge step)."""
    headers = {"Authorization": f"Bearer {token}"}
    async with session.post(
        f"{url}/api/config/config_entries/flow", json={"handler": "smh"}, headers=headers
    ) as r:
        menu = await _json(r)
    if menu.get("type") != "menu" or kind not in menu.get("menu_options", []):
        raise RuntimeError(f"the SMH config flow did not offer {kind!r}: {menu}")
    flow_url = f"{url}/api/config/config_entries/flow/{menu['flow_id']}"
    async with session.post(flow_url, headers=headers, json={"next_step_id": kind}) as r:
        await _json(r)
    async with session.post(flow_url, headers=headers, json=values) as r:
        return await _json(r)


async def confirm_http_config(url: str, token: str) -> bool:
    """Keep the ``http:`` settings written in configuration.yaml (loopback, this port).

    Newer HA (2026.10+) moves them into its storage as a *pending* trial and, unless the user
    confirms it (the "HTTP configuration" dialog in the UI), restarts five minutes later on the
    stored default: port 8123 on every interface. Confirming is what a user does once HA answers
    on the new settings, and here it has. Returns whether there was a trial to confirm (older HA
    has no such command: nothing to do)."""
    try:
        [state] = await ws_calls(url, token, [{"type": "http/config"}])
    except RuntimeError as e:
        if "unknown_command" in str(e):
            return False
        raise
    if not state.get("pending"):
        return False
    await ws_calls(url, token, [{"type": "http/config/promote"}])
    return True


async def remove_empty_areas(url: str, token: str) -> list[str]:
    """Delete the areas no device or entity is in (HA's onboarding creates Living Room, Kitchen
    and Bedroom; the simulated home brings its own rooms): the demo shows the home's rooms only."""
    areas, devices, entities = await ws_calls(
        url,
        token,
        [
            {"type": "config/area_registry/list"},
            {"type": "config/device_registry/list"},
            {"type": "config/entity_registry/list"},
        ],
    )
    used = {d.get("area_id") for d in devices} | {e.get("area_id") for e in entities}
    empty = [a["area_id"] for a in areas if a["area_id"] not in used]
    await ws_calls(
        url, token, [{"type": "config/area_registry/delete", "area_id": a} for a in empty]
    )
    return empty


async def launch(
    config_dir: Path,
    port: int,
    level: str,
    seed: int,
    time_scale: float,
    timeout: float = 120.0,
    demo: bool = False,
    agent: AgentConfig | None = None,
    with_home: bool = True,
    units: str = "metric",
    python: Sequence[str] | None = None,
) -> Instance:
    """Start and set up Home Assistant; with ``demo`` also history and Assist, and with an
    ``agent`` (demo only) an Assist assistant on SMH's conversation agent (see :mod:`ha_assistant`).
    ``with_home=False``: no SMH entry (an HA whose devices come from elsewhere, e.g. Matter).
    ``units="imperial"``: HA's US customary unit system (°F). ``python``: the command that runs
    Python with the HA to start (:func:`hass_python`; default: this interpreter's)."""
    if agent is not None and (not demo or not with_home):
        raise ValueError(
            "an assistant needs the demo configuration (assist_pipeline) and an SMH home"
        )
    check_port_free(port)  # before anything is written or started
    write_config(config_dir, port, demo, units)
    install_homes(config_dir)
    onboarded = (config_dir / ".storage" / "onboarding").exists()
    process = start(config_dir, config_dir / "hass.log", python)
    url = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            await _wait(session, url, process, timeout, onboarded)
            token = await long_lived_token(session, url, await onboard(session, url))
            await _check_config_dir(session, url, token, config_dir)
            await confirm_http_config(url, token)
            entry_id = (
                await add_home(session, url, token, level, seed, time_scale) if with_home else None
            )
            if entry_id is not None:
                await _wait_loaded(session, url, token, entry_id, process, timeout)
        if demo:
            await remove_empty_areas(url, token)
        if agent is not None:
            async with aiohttp.ClientSession() as session:
                home = {
                    "source": "generated",
                    "level": level,
                    "seed": seed,
                    "time_scale": time_scale,
                }
                await configure_agent(session, url, token, entry_id, home, agent)
                await _wait_loaded(session, url, token, entry_id, process, timeout)
            try:
                await ensure_assistant(ws_calls, url, token, entry_id, timeout)
            except AssistantUnusable as e:
                return Instance(url, token, process, entry_id, config_dir, assistant_error=str(e))
    except BaseException:
        stop_process(process)
        raise
    return Instance(url, token, process, entry_id, config_dir)


async def add_voice(
    inst: Instance, level: str, seed: int, with_agent: bool = False
) -> tuple[list[subprocess.Popen], str]:
    """``make demo VOICE=1``: SMH's Wyoming STT (the demo home's vocabulary) and TTS servers on
    loopback, added through HA's ``wyoming`` integration, and a preferred "SMH voice" pipeline
    (STT -> the conversation agent -> TTS; SMH's agent ``with_agent``, the entry having a model,
    else HA's own). Returns the server processes (the caller stops them) and the pipeline id."""
    from smh_core.ha.voice_pipeline import AssistSocket, add_wyoming_service, create_pipeline
    from smh_core.ha.websocket import entry_entity
    from smh_core.llm.local import free_port
    from smh_core.voice.process import start_voice_server, stop_voice_server

    assert inst.config_dir is not None
    ports = (free_port(), free_port())
    servers = [
        start_voice_server(
            ["stt", "--level", level, "--seed", str(seed)],
            ports[0],
            inst.config_dir / "smh-stt.log",
            cwd=REPO,
        )
    ]
    try:
        servers.append(
            start_voice_server(["tts"], ports[1], inst.config_dir / "smh-tts.log", cwd=REPO)
        )
        async with aiohttp.ClientSession() as session:
            entries = [
                await add_wyoming_service(session, inst.url, inst.token, "127.0.0.1", p)
                for p in ports
            ]
            async with AssistSocket(inst.url, inst.token, session) as socket:
                stt = await entry_entity(socket, entries[0], "stt")
                tts = await entry_entity(socket, entries[1], "tts")
                engine = (
                    await entry_entity(socket, inst.entry_id, "conversation")
                    if with_agent
                    else "conversation.home_assistant"
                )
                pipeline = await create_pipeline(socket, "SMH voice", engine, stt, tts)
                await socket.call(
                    {"type": "assist_pipeline/pipeline/set_preferred", "pipeline_id": pipeline}
                )
    except BaseException:
        for server in servers:
            stop_voice_server(server)
        raise
    return servers, pipeline


def stop_on_sigterm() -> None:
    """SIGTERM (a CI job cancelled, ``kill``, ``make demo HA=newest`` stopped) unwinds like
    Ctrl-C, so the hass a script started is stopped too instead of being left running."""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def exit_code(main: Callable[[], int]) -> int:
    """A script's ``main()`` whose ``finally`` stops the hass it started: Ctrl-C (or SIGTERM
    unwound into KeyboardInterrupt) ends it with 130 and a note that a re-run resumes."""
    try:
        return main()
    except KeyboardInterrupt:
        print(
            "interrupted; Home Assistant stopped (re-run the same command to resume)",
            file=sys.stderr,
        )
        return 130


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--dir", type=Path, default=REPO / ".ha-demo", help="config dir (default: .ha-demo)"
    )
    p.add_argument("--port", type=int, default=8123)
    p.add_argument("--level", choices=["simple", "medium", "complex"], default="medium")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--units",
        choices=sorted(UNIT_SYSTEMS),
        default="metric",
        help="HA's unit system: metric, or imperial (°F; the engine itself stays in °C)",
    )
    p.add_argument(
        "--time-scale", type=float, default=1.0, help="simulated seconds per real second"
    )
    p.add_argument(
        "--base-url",
        default="",
        help="OpenAI-compatible endpoint for SMH's agent (Assist's assistant)",
    )
    p.add_argument("--model", default="", help="model name at --base-url")
    p.add_argument(
        "--api-key", default="", help="API key for --base-url (blank for a local server)"
    )
    p.add_argument(
        "--no-local-model",
        action="store_true",
        help="without --base-url, keep HA's own agent even if the local model is installed",
    )
    p.add_argument(
        "--voice",
        action="store_true",
        help="also SMH's Wyoming STT/TTS servers and a preferred "
        "'SMH voice' pipeline (docs/voice.md)",
    )
    args = p.parse_args()
    stop_on_sigterm()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # a log sees each line
    try:
        check_port_free(args.port)  # before a local model server or hass is started
    except PortInUse as err:
        print(f"ha_instance: error: {err}", file=sys.stderr)
        return 2
    local, agent = None, None
    if args.base_url or args.model:
        agent = AgentConfig(args.base_url, args.model, args.api_key)
    elif not args.no_local_model and unavailable_reason() is None:  # `make local-llm` was run
        local = LocalModelServer(log_path=args.dir.resolve() / "local-model.log")
        try:
            local.start(check=True)  # a real completion: a server that lists models may still crash
        except RuntimeError as e:
            local.stop()
            local = None
            print(
                f"the local model does not run on this machine; HA's own agent stays the assistant:\n{e}",
                flush=True,
            )
        else:
            agent = AgentConfig(local.base_url, local.model)
    servers: list[subprocess.Popen] = []
    try:
        inst = asyncio.run(
            launch(
                args.dir.resolve(),
                args.port,
                args.level,
                args.seed,
                args.time_scale,
                demo=True,
                agent=agent,
                units=args.units,
            )
        )
        if args.voice:
            try:
                servers, _ = asyncio.run(
                    add_voice(inst, args.level, args.seed, with_agent=agent is not None)
                )
            except BaseException:
                inst.stop()
                raise
            print(
                "voice:    pipeline 'SMH voice' (preferred): SMH STT -> "
                f"{'SMH agent' if agent is not None else 'Assist'} -> SMH TTS"
            )
    except BaseException:
        if local is not None:
            local.stop()
        raise
    print(
        f"Home Assistant {importlib.metadata.version('homeassistant')} with the SMH {args.level} home (seed {args.seed}, "
        f"{args.units} units) is running:"
    )
    print(f"  URL:      {inst.url}   (login: {USERNAME} / {PASSWORD})")
    print(f"  token:    {inst.token}   (long-lived)")
    print(
        f"  homes:    {args.dir / DEFAULT_HOME_DIR}   (task home files for smh bench run --backend ha)"
    )
    print(f"  log:      {args.dir / 'hass.log'}   stop with Ctrl-C")
    if agent is not None and inst.assistant_error is not None:
        print(
            f"  Assist:   HA's own agent; the \"SMH\" assistant (SMH's agent on {agent.model} at "
            f"{agent.base_url}) is there but not preferred: {inst.assistant_error}"
        )
    elif agent is not None:
        print(
            f'  Assist:   the "SMH" assistant (preferred) answers with SMH\'s agent on {agent.model} at {agent.base_url}'
        )
    else:
        print(
            "  Assist:   HA's own agent (give --base-url/--model, or run `make local-llm`, for SMH's agent)"
        )
    try:
        inst.process.wait()
    except KeyboardInterrupt:
        inst.stop()
    finally:
        if local is not None:
            local.stop()
        from smh_core.voice.process import stop_voice_server

        for server in servers:
            stop_voice_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(exit_code(main))
