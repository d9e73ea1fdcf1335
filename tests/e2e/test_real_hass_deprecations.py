"""HA's deprecation and usage reports about SMH, in a real ``hass`` process: none may appear.

``tests/ha/test_deprecations.py`` watches SMH's paths on the newest HA the test plugin supports;
the newest release (``make test-ha-current``'s ``newest`` lane) has no test plugin, so here the
same paths run through HA's public APIs in a real ``hass`` and its log is read the same way
(:func:`tests.support.deprecations.hass_log_reports`): the config flow and entry set-up, the
options flow (SMH's agent on a fake model), a conversation turn through SMH's agent, each tool of
the ``smh`` LLM API (``smh.call_tools``, as an HA agent's chat log calls them), SMH's entity of a
Matter light (the options flow switches the entry to a Matter home) and unload (the user disables
the entry). Where no plugin test runs (2026.11 renamed climate and water-heater temperature
members), the temperatures a climate and a water heater show are checked too. ``hass`` runs with ``PYTHONWARNINGS`` letting deprecation warnings through, which HA
logs (``py.warnings``). HA's own ``matter`` integration against SMH's bridge is watched in
``tests/ha`` only: here the bridge would run in a process of its own, outside this log.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import aiohttp

from smh_core.ha.runner import HaClient
from smh_core.ha.websocket import ws_calls
from smh_core.llm.local import free_port
from tests.support.deprecations import hass_log_reports, smh_tool_calls, watched_home
from tests.support.fake_openai import FakeOpenAI, serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

HOME_FILE = "watched_home.json"
DOMAIN = "smh"


async def _start(config_dir: Path) -> ha_instance.Instance:
    """A real hass, and an SMH entry for the watched home made through the config flow."""
    config_dir.mkdir(parents=True)
    home = watched_home(ROOT / "tests" / "fixtures" / "tiny_home.json")
    (config_dir / HOME_FILE).write_text(json.dumps(home), encoding="utf-8")
    inst = await ha_instance.launch(
        config_dir, free_port(), "simple", 0, time_scale=0.0, with_home=False
    )
    try:
        async with aiohttp.ClientSession() as session:
            result = await ha_instance.config_flow(
                session, inst.url, inst.token, "file", {"file": HOME_FILE, "time_scale": 0.0}
            )
            assert result.get("type") == "create_entry", result
            inst.entry_id = result["result"]["entry_id"]
            await _loaded(HaClient(inst.url, inst.token, session), inst.entry_id)
    except BaseException:
        inst.stop()
        raise
    return inst


async def _rest(client: HaClient, path: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or, with a body, POST) one of HA's REST API paths."""
    headers = {"Authorization": f"Bearer {client.token}"}
    url = f"{client.url}{path}"
    request = (
        client.session.get(url, headers=headers)
        if body is None
        else client.session.post(url, json=body, headers=headers)
    )
    async with request as r:
        assert r.status < 400, (path, r.status, await r.text())
        return await r.json()


async def _wait_for_agent(client: HaClient, entry_id: str) -> str:
    """The entry reloads after its options change; its conversation agent then appears."""
    for _ in range(150):
        if agents := await client.traced_agents(entry_id):
            (agent,) = agents
            return agent
        await asyncio.sleep(0.2)
    raise AssertionError("SMH's agent did not appear after the options flow")


async def _loaded(client: HaClient, entry_id: str) -> None:
    for _ in range(300):
        if any(
            e["entry_id"] == entry_id and e["state"] == "loaded" for e in await client.smh_entries()
        ):
            return
        await asyncio.sleep(0.2)
    raise AssertionError("the SMH entry did not load")


async def _call_tool(client: HaClient, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One call of a tool of the ``smh`` API through ``smh.call_tools`` (HA's API instance runs
    it): the API's name of the tool, its result, and the API's tool names."""
    out = await client.service(
        DOMAIN, "call_tools", {"api": DOMAIN, "calls": [{"tool": tool, "arguments": arguments}]}
    )
    (result,) = out["results"]
    return {**result, "tools": out["tools"]}


async def _each_tool(client: HaClient) -> dict[str, Any]:
    """Each tool of the ``smh`` API once, on the watched home."""
    now = (await _call_tool(client, "get_current_time", {}))["result"]["now"]
    done: dict[str, Any] = {}
    called: set[str] = set()
    names: set[str] = set()
    for tool, args in smh_tool_calls(datetime.fromisoformat(now), lamp="1001", room="r3"):
        out = await _call_tool(client, tool, args(done) if callable(args) else args)
        done[tool] = out["result"]
        called.add(out["called"])
        names = set(out["tools"])
    assert called == names, "each tool of the API: add one to smh_tool_calls"
    return done


def test_smh_in_a_real_hass_uses_nothing_deprecated(
    tmp_path: Path, socket_enabled, monkeypatch
) -> None:
    monkeypatch.setenv(
        "PYTHONWARNINGS", "default::DeprecationWarning,default::PendingDeprecationWarning"
    )

    def reply(body: dict) -> dict:
        if any(m["role"] == "tool" for m in body["messages"]):
            return {"content": "The lamp is on."}
        lights = [
            line.split(" | ")[0].strip("- ")
            for line in body["messages"][0]["content"].splitlines()
            if line.lstrip("- ").startswith("light.")
        ]
        return {
            "tool_calls": [("control_device", json.dumps({"did": lights[0], "locator": "turn_on"}))]
        }

    server = FakeOpenAI(default=reply)
    loop = asyncio.new_event_loop()
    results: dict[str, Any] = {}
    try:
        inst = loop.run_until_complete(
            _start(tmp_path / "ha")
        )  # the config flow and the entry's set-up
        try:
            with serve_in_thread(server):

                async def drive() -> None:
                    async with aiohttp.ClientSession() as session:
                        client = HaClient(inst.url, inst.token, session)
                        results["temperatures"] = {
                            s["attributes"]["did"]: (
                                s["attributes"].get("temperature"),
                                s["attributes"].get("current_temperature"),
                            )
                            for s in await _rest(client, "/api/states")
                            if s["entity_id"].split(".")[0] in ("climate", "water_heater")
                        }
                        # the options flow: SMH's agent on the fake model (tools "ha", the default)
                        await client.reconfigure(
                            inst.entry_id,
                            {
                                "agent": {
                                    "base_url": server.base_url,
                                    "model": "fake",
                                    "api_key": "k",
                                }
                            },
                        )
                        agent = await _wait_for_agent(client, inst.entry_id)
                        results["speech"], _ = await client.converse(
                            "Turn on a light", agent, None, 60
                        )
                        results["tools"] = await _each_tool(client)
                        # a Matter home: SMH's entity of a Matter light, switched from HA
                        await client.reconfigure(
                            inst.entry_id, {"source": "matter", "seed": 1, "file": ""}
                        )
                        await _loaded(client, inst.entry_id)
                        light = next(
                            s
                            for s in await _rest(client, "/api/states")
                            if s["entity_id"].startswith("light.") and "did" in s["attributes"]
                        )
                        want = "off" if light["state"] == "on" else "on"
                        await _rest(
                            client,
                            f"/api/services/light/turn_{want}",
                            {"entity_id": light["entity_id"]},
                        )
                        results["matter"] = (
                            want,
                            (await _rest(client, f"/api/states/{light['entity_id']}"))["state"],
                        )
                    # unload: the user disables the entry
                    await ws_calls(
                        inst.url,
                        inst.token,
                        [
                            {
                                "type": "config_entries/disable",
                                "entry_id": inst.entry_id,
                                "disabled_by": "user",
                            }
                        ],
                    )
                    async with aiohttp.ClientSession() as session:
                        entries = await HaClient(inst.url, inst.token, session).smh_entries()
                    results["unloaded"] = [e["state"] for e in entries]

                loop.run_until_complete(drive())
        finally:
            inst.stop()
    finally:
        loop.close()
    # the temperatures a climate and a water heater show, under whichever names this HA reads
    assert results["temperatures"] == {"1004": (50, 38.0), "1005": (26.0, 22.0)}
    assert results["speech"] == "The lamp is on."
    refused = {
        tool: r
        for tool, r in results["tools"].items()
        if isinstance(r, dict) and r.get("ok") is False
    }
    assert refused == {}, refused
    want, shown = results["matter"]
    assert shown == want and results["unloaded"] == ["not_loaded"]
    log = (tmp_path / "ha" / "hass.log").read_text(encoding="utf-8", errors="replace")
    reports = hass_log_reports(log)
    assert reports == [], (
        "Home Assistant reported SMH's use of something deprecated:\n" + "\n".join(reports)
    )
