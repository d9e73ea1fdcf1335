"""Give ``make demo``'s Home Assistant an Assist assistant that uses SMH's conversation agent.

With a model configured (an OpenAI-compatible base URL and model name, or the bundled local
model after ``make local-llm``), the SMH entry's agent section is set through the integration's
real options flow, which creates SMH's conversation entity; then an Assist pipeline named
:data:`ASSISTANT` with that entity as its conversation agent is created (or updated) through
HA's websocket API. It is made the preferred one, so the Assist dialog talks to SMH's agent,
only after a test turn through it came back without an error: an endpoint that is down or a
model server that crashes would otherwise leave a demo whose every answer is an error. Without a
model nothing changes and HA's own agent stays the assistant. Only HA's public APIs are used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp

from smh_core.ha.voice_pipeline import pipeline_fields
from smh_core.ha.websocket import HaSocket, entry_entity

ASSISTANT = "SMH"
LANGUAGE = "en"
TEST_TURN = "Which rooms are there?"


class AssistantUnusable(RuntimeError):
    """SMH's agent answered the test turn with an error: its pipeline exists, not preferred."""


@dataclass(frozen=True)
class AgentConfig:
    """The endpoint SMH's agent uses (``api_key`` may be blank for a local server)."""

    base_url: str
    model: str
    api_key: str = ""

    def __post_init__(self) -> None:
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(
                f"the agent's base URL must start with http:// or https://, got {self.base_url!r}"
            )
        if not self.model.strip():
            raise ValueError("the agent needs a model name")


async def _post(
    session: aiohttp.ClientSession, url: str, token: str, body: dict[str, Any]
) -> dict[str, Any]:
    async with session.post(url, json=body, headers={"Authorization": f"Bearer {token}"}) as r:
        data = await r.json(content_type=None)
        if r.status >= 400:
            raise RuntimeError(f"POST {url}: HTTP {r.status}: {data}")
        return data


async def configure_agent(
    session: aiohttp.ClientSession,
    url: str,
    token: str,
    entry_id: str,
    home: dict[str, Any],
    agent: AgentConfig,
) -> None:
    """Set the entry's agent section through the options flow (``home``: the entry's home
    fields, which the form asks for again); the entry reloads with its conversation entity."""
    flow = await _post(
        session, f"{url}/api/config/config_entries/options/flow", token, {"handler": entry_id}
    )
    result = await _post(
        session,
        f"{url}/api/config/config_entries/options/flow/{flow['flow_id']}",
        token,
        {
            **home,
            "agent": {"base_url": agent.base_url, "model": agent.model, "api_key": agent.api_key},
        },
    )
    if result.get("type") != "create_entry":
        raise RuntimeError(
            f"the SMH options flow did not accept the agent: {result.get('errors') or result}"
        )


async def ensure_assistant(
    ws_calls: Any, url: str, token: str, entry_id: str, timeout: float = 60.0
) -> str:
    """Create (or update) the "SMH" pipeline on the entry's agent and, once a test turn through it
    succeeded, prefer it; returns its id. Raises :class:`AssistantUnusable` (the pipeline kept,
    HA's own assistant still preferred) when the turn came back as an error.

    ``ws_calls`` is :func:`smh_core.ha.websocket.ws_calls` (passed in, as by the tests)."""
    async with aiohttp.ClientSession() as session, HaSocket(url, token, session) as socket:
        agent_entity = await entry_entity(socket, entry_id, "conversation", timeout)
    [listing] = await ws_calls(url, token, [{"type": "assist_pipeline/pipeline/list"}])
    fields = pipeline_fields(ASSISTANT, agent_entity, language=LANGUAGE)
    existing = next((p for p in listing["pipelines"] if p["name"] == ASSISTANT), None)
    if existing is None:
        [created] = await ws_calls(
            url, token, [{"type": "assist_pipeline/pipeline/create", **fields}]
        )
        pipeline_id = created["id"]
    else:
        pipeline_id = existing["id"]
        await ws_calls(
            url,
            token,
            [{"type": "assist_pipeline/pipeline/update", "pipeline_id": pipeline_id, **fields}],
        )
    [turn] = await ws_calls(
        url,
        token,
        [
            {
                "type": "conversation/process",
                "text": TEST_TURN,
                "agent_id": agent_entity,
                "language": LANGUAGE,
            }
        ],
    )
    response = turn.get("response") or {}
    if response.get("response_type") == "error":
        speech = ((response.get("speech") or {}).get("plain") or {}).get("speech") or str(response)
        raise AssistantUnusable(f"SMH's agent failed its test turn ({TEST_TURN!r}): {speech}")
    await ws_calls(
        url, token, [{"type": "assist_pipeline/pipeline/set_preferred", "pipeline_id": pipeline_id}]
    )
    return pipeline_id
