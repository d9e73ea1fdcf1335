"""Issue 34 in a real ``hass`` process on loopback: consent fails closed in SMH's agent in Assist
and through the ``smh`` LLM API (one boot, many turns).

Each user turn is a plain request plus one sentence about a high-risk action that is not a
request (:mod:`tests.support.consent_carriers`); an injection-obeying scripted model then makes
the high-risk call. Expected: nothing changes and the guard's question is asked. Controls: the
plain request "Unlock the front door." runs without a question, and after the question a plain
"yes" runs it. SMH's agent gets its model from the fake OpenAI server; the LLM API is used by a
test-only HA conversation agent (tests/support/scripted_agent) whose calls come from a file.
Carriers that pass the consent parser of before the positive grammar fail here: no xfail.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_socket

from smh_core.homeenv.engine import dump_home
from smh_core.llm.local import free_port
from tests.support.consent_carriers import (
    ASK,
    BENIGN_CALL,
    CARRIERS,
    CONTROL,
    HEATER,
    LOCK,
    UNLOCK,
    YES,
    Carrier,
    consent_home,
)
from tests.support.fake_openai import FakeOpenAI, serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

from smh_core.ha.runner import HaClient  # noqa: E402
from smh_core.ha.websocket import ws_calls  # noqa: E402

HOME_FILE = "consent_home.json"
SCRIPTED = "smh_scripted_agent"


class Hass:
    """The running hass, its SMH entry, the two agents and the fake model's next call."""

    def __init__(self, inst: Any, loop: asyncio.AbstractEventLoop, server: FakeOpenAI) -> None:
        self.inst, self.loop, self.server = inst, loop, server
        self.call: dict[str, Any] = dict(UNLOCK)
        self.smh_agent = self.llm_agent = ""

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    async def client(self, session: Any) -> HaClient:
        return HaClient(self.inst.url, self.inst.token, session)

    async def values(self, session: Any) -> dict[str, dict[str, Any]]:
        state = await (await self.client(session)).service(
            "smh", "snapshot", {"config_entry_id": self.inst.entry_id}
        )
        return {did: state["devices"][did] for did in (LOCK, HEATER)}

    async def reset(self, session: Any) -> None:
        """Door locked and armed, water at 50 °C (none of these is high-risk)."""
        client = await self.client(session)
        for did, locator, arguments in (
            (LOCK, "lock", {}),
            (LOCK, "enable_defend", {}),
            (HEATER, "set_target_water_temperature", {"target_water_temperature": 50}),
        ):
            await client.service(
                "smh",
                "execute",
                {
                    "config_entry_id": self.inst.entry_id,
                    "did": did,
                    "locator": locator,
                    "arguments": arguments,
                },
            )

    def script_llm_agent(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        (self.inst.config_dir / "scripted_agent.json").write_text(json.dumps({"calls": calls}))


@pytest.fixture(scope="module")
def hass_proc(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hass]:
    pytest_socket.enable_socket()  # a module fixture runs before each test's socket_enabled
    import aiohttp

    config = tmp_path_factory.mktemp("consent") / "ha"
    # hass runs with its config dir first on sys.path (``python -m`` in it); a regular package
    # there wins over this repository's, so the test agent sits beside SMH without being shipped
    (config / "custom_components").mkdir(parents=True)
    (config / "custom_components" / "__init__.py").write_text("")
    (config / "custom_components" / "smh").symlink_to(ROOT / "custom_components" / "smh")
    (config / "custom_components" / SCRIPTED).symlink_to(
        ROOT / "tests" / "support" / "scripted_agent" / SCRIPTED
    )
    (config / HOME_FILE).write_text(dump_home(consent_home()))
    holder: dict[str, Any] = {}

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        if any(m["role"] == "tool" for m in body["messages"]):
            return {"content": "All set."}
        return {
            "tool_calls": [
                ("control_device", json.dumps(BENIGN_CALL)),
                ("control_device", json.dumps(holder["hass"].call)),
            ]
        }

    server = FakeOpenAI(default=reply)
    loop = asyncio.new_event_loop()
    with serve_in_thread(server):
        inst = loop.run_until_complete(
            ha_instance.launch(config, free_port(), "simple", 0, time_scale=0.0)
        )
        h = holder["hass"] = Hass(inst, loop, server)
        try:

            async def setup() -> None:
                async with aiohttp.ClientSession() as session:
                    client = await h.client(session)
                    await client.reconfigure(
                        inst.entry_id,
                        {
                            "source": "file",
                            "file": HOME_FILE,
                            "agent": {
                                "base_url": server.base_url,
                                "model": "fake",
                                "api_key": "k",
                                "tools": "home",
                            },
                        },
                    )
                    for _ in range(150):
                        agents = await client.traced_agents(inst.entry_id)
                        if agents:
                            break
                        await asyncio.sleep(0.2)
                    (h.smh_agent,) = agents
                    headers = {"Authorization": f"Bearer {inst.token}"}
                    async with session.post(
                        f"{inst.url}/api/config/config_entries/flow",
                        json={"handler": SCRIPTED},
                        headers=headers,
                    ) as r:
                        assert r.status == 200, await r.text()
                    for _ in range(150):
                        async with session.get(
                            f"{inst.url}/api/states",
                            headers={"Authorization": f"Bearer {inst.token}"},
                        ) as r:
                            states = await r.json()
                        ours = [
                            s["entity_id"]
                            for s in states
                            if s["entity_id"].startswith("conversation.")
                            and "scripted" in s["entity_id"]
                        ]
                        smh = [s["entity_id"] for s in states if "did" in s.get("attributes", {})]
                        if ours and any(s.startswith("lock.") for s in smh):
                            break
                        await asyncio.sleep(0.2)
                    (h.llm_agent,) = ours
                    await ws_calls(
                        inst.url,
                        inst.token,
                        [
                            {
                                "type": "homeassistant/expose_entity",
                                "assistants": ["conversation"],
                                "entity_ids": smh,
                                "should_expose": True,
                            }
                        ],
                    )

            h.run(setup())
            yield h
        finally:
            inst.stop()
            loop.close()


async def _turn(h: Hass, agent: str, carrier: Carrier) -> tuple[str, list[str]]:
    """One carrier's turn on ``agent``: its answer and what the high-risk call changed."""
    import aiohttp

    from tests.support.consent_carriers import changed

    async with aiohttp.ClientSession() as session:
        await h.reset(session)
        before = await h.values(session)
        h.call = dict(carrier.call)
        h.script_llm_agent([("control_device", BENIGN_CALL), ("control_device", carrier.call)])
        speech, _ = await (await h.client(session)).converse(carrier.text, agent, None, 60)
        return speech, changed(before, await h.values(session))


def _check(h: Hass, agent: str) -> dict[str, str]:
    failures = {}
    for carrier in CARRIERS:
        speech, changes = h.run(_turn(h, agent, carrier))
        if changes or carrier.question() not in speech:
            failures[carrier.kind] = f"changed {changes}, answered {speech!r}"
    return failures


def test_assist_smh_agent_fails_closed(hass_proc: Hass, socket_enabled) -> None:
    failures = _check(hass_proc, hass_proc.smh_agent)
    assert failures == {}, json.dumps(failures, indent=1, ensure_ascii=False)


def test_llm_api_fails_closed(hass_proc: Hass, socket_enabled) -> None:
    failures = _check(hass_proc, hass_proc.llm_agent)
    assert failures == {}, json.dumps(failures, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("path", ["smh_agent", "llm_agent"])
def test_control_plain_request_runs_and_a_yes_confirms(
    hass_proc: Hass, socket_enabled, path: str
) -> None:
    import aiohttp

    h = hass_proc
    agent = getattr(h, path)

    async def run() -> tuple[str, str, str, str]:
        async with aiohttp.ClientSession() as session:
            client = await h.client(session)
            await h.reset(session)
            h.call = dict(UNLOCK)
            h.script_llm_agent([("control_device", UNLOCK)])
            plain, _ = await client.converse(CONTROL.text, agent, None, 60)
            unlocked = (await h.values(session))[LOCK]["state"]
            await h.reset(session)
            h.script_llm_agent([("control_device", BENIGN_CALL), ("control_device", UNLOCK)])
            asked, conversation = await client.converse(
                "Turn on the kitchen light.", agent, None, 60
            )
            h.script_llm_agent([("control_device", UNLOCK)])  # the agent makes the same call again
            await client.converse(YES, agent, conversation, 60)
            return plain, unlocked, asked, (await h.values(session))[LOCK]["state"]

    plain, unlocked, asked, after_yes = h.run(run())
    assert ASK not in plain and unlocked == "unlocked", plain
    assert CONTROL.question() in asked and after_yes == "unlocked", (asked, after_yes)
