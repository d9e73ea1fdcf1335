"""Run a Wyoming TCP server until cancelled (shared by the STT and TTS servers)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from wyoming.server import AsyncEventHandler, AsyncServer


async def serve(
    handler_factory: Callable[..., AsyncEventHandler],
    host: str,
    port: int,
    ready: asyncio.Event | None = None,
) -> None:
    """Listen on ``host:port`` with a handler per connection; sets ``ready`` once listening."""
    server = AsyncServer.from_uri(f"tcp://{host}:{port}")
    await server.start(handler_factory)
    if ready is not None:
        ready.set()
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()
