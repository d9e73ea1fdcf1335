"""Home Assistant's websocket API from outside HA: authenticate with a token, send commands,
get their results (an error raises with HA's message). The registries (areas, devices,
entities) and Assist's pipelines are only reachable this way."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from itertools import count
from typing import Any

import aiohttp

type WsCall = Callable[[dict[str, Any]], Awaitable[Any]]


@asynccontextmanager
async def connect(url: str, token: str) -> AsyncIterator[WsCall]:
    """One authenticated websocket to HA at ``url`` (``http://host:port``); yields ``call``, which
    sends one command and returns its result."""
    ids = count(1)
    async with aiohttp.ClientSession() as session, \
            session.ws_connect(f"{url.replace('http', 'ws', 1)}/api/websocket") as ws:
        await ws.receive_json()
        await ws.send_json({"type": "auth", "access_token": token})
        if (msg := await ws.receive_json())["type"] != "auth_ok":
            raise RuntimeError(f"websocket authentication failed: {msg}")

        async def call(command: dict[str, Any]) -> Any:
            i = next(ids)
            await ws.send_json({"id": i, **command})
            msg = await ws.receive_json()
            while msg.get("id") != i:
                msg = await ws.receive_json()
            if not msg.get("success"):
                raise RuntimeError(f"{command['type']}: {msg.get('error')}")
            return msg.get("result")

        yield call


async def ws_calls(url: str, token: str, calls: list[dict[str, Any]]) -> list[Any]:
    """Results of websocket commands, in order, over one connection."""
    async with connect(url, token) as call:
        return [await call(c) for c in calls]
