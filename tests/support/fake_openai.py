"""A local fake OpenAI-compatible server (aiohttp on 127.0.0.1) with scripted replies.

Tests drive the real ``openai`` client against it. Each POST to ``/v1/chat/completions`` takes
the next scripted step: ``{"status": 429}`` (or any error status), or an assistant turn
``{"content": ..., "tool_calls": [(name, raw_arguments_string), ...]}``, or a callable that
receives the request body and returns such a step. Requests are recorded for assertions.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp import web

Step = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


class FakeOpenAI:
    def __init__(self, script: list[Step] | None = None, default: Step | None = None) -> None:
        self.script: list[Step] = list(script or [])
        self.default = default  # used once the script is exhausted
        self.requests: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def __aenter__(self) -> FakeOpenAI:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.requests.append(body)
        if not self.script and self.default is None:
            return web.json_response({"error": {"message": "fake server script exhausted"}}, status=500)
        step = self.script.pop(0) if self.script else self.default
        if callable(step):
            step = step(body)
        if "status" in step:
            return web.json_response({"error": {"message": step.get("message", "scripted error"),
                                                "type": "scripted"}}, status=step["status"],
                                     headers={"retry-after-ms": "1"})
        n = next(self._ids)
        message: dict[str, Any] = {"role": "assistant", "content": step.get("content")}
        calls = step.get("tool_calls") or []
        if calls:
            message["tool_calls"] = [
                {"id": f"call_{n}_{i}", "type": "function", "function": {"name": name, "arguments": args}}
                for i, (name, args) in enumerate(calls)]
        prompt_tokens = step.get("prompt_tokens", 10 * len(body.get("messages", [])))
        completion_tokens = step.get("completion_tokens", 7)
        return web.json_response({
            "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1_700_000_000 + n,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens},
        })


@contextmanager
def serve_in_thread(server: FakeOpenAI) -> Iterator[FakeOpenAI]:
    """Run the fake server on its own event loop in a thread, for code that calls
    ``asyncio.run`` itself (the CLI)."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def main() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.__aenter__())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=main, daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield server
    finally:
        asyncio.run_coroutine_threadsafe(server.__aexit__(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
