"""Home Assistant's websocket API from outside HA: authenticate with a token, send commands,
get their results (an error raises with HA's message). The registries (areas, devices,
entities) and Assist's pipelines are only reachable this way."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from itertools import count
from typing import Any, Self

import aiohttp

type WsCall = Callable[[dict[str, Any]], Awaitable[Any]]


class HaSocket:
    """One authenticated websocket to HA at ``url`` (``http://host:port``), as ``async with``;
    :meth:`call` sends one command and returns its result. Subclasses add streams over the same
    socket (:class:`~smh_core.ha.voice_pipeline.AssistSocket`: a pipeline run with audio)."""

    failure: type[RuntimeError] = RuntimeError
    """What a refused handshake or command raises (with HA's message)."""

    def __init__(self, url: str, token: str, session: aiohttp.ClientSession) -> None:
        self.url, self.token, self.session = url.rstrip("/"), token, session
        self._ids = count(1)
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def __aenter__(self) -> Self:
        self.ws = await self.session.ws_connect(
            f"{self.url.replace('http', 'ws', 1)}/api/websocket", max_msg_size=0
        )
        await self.ws.receive_json()
        await self.ws.send_json({"type": "auth", "access_token": self.token})
        if (msg := await self.ws.receive_json())["type"] != "auth_ok":
            raise self.failure(f"websocket authentication failed: {msg}")
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def call(self, message: dict[str, Any]) -> Any:
        """One command's result (an error raises with HA's message)."""
        assert self.ws is not None
        msg_id = next(self._ids)
        await self.ws.send_json({"id": msg_id, **message})
        while (msg := await self.ws.receive_json()).get("id") != msg_id or msg.get(
            "type"
        ) != "result":
            pass
        if not msg.get("success"):
            raise self.failure(f"{message['type']}: {msg.get('error')}")
        return msg.get("result")


@asynccontextmanager
async def connect(url: str, token: str) -> AsyncIterator[WsCall]:
    """One authenticated websocket to HA at ``url`` (``http://host:port``); yields ``call``, which
    sends one command and returns its result."""
    async with aiohttp.ClientSession() as session, HaSocket(url, token, session) as socket:
        yield socket.call


async def entry_entity(socket: HaSocket, entry_id: str, domain: str, timeout: float = 60.0) -> str:
    """The ``domain`` entity a config entry created (waits for it to appear: an entry that was
    just added or reloaded makes its entities a moment later)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        entities = await socket.call({"type": "config/entity_registry/list"})
        found = [
            e["entity_id"]
            for e in entities
            if e.get("config_entry_id") == entry_id and e["entity_id"].startswith(f"{domain}.")
        ]
        if found:
            return found[0]
        if asyncio.get_running_loop().time() > deadline:
            raise socket.failure(
                f"config entry {entry_id} created no {domain} entity within {timeout:.0f} s"
            )
        await asyncio.sleep(0.2)


async def ws_calls(url: str, token: str, calls: list[dict[str, Any]]) -> list[Any]:
    """Results of websocket commands, in order, over one connection."""
    async with connect(url, token) as call:
        return [await call(c) for c in calls]
