"""A local fake OpenAI-compatible server (aiohttp on 127.0.0.1) with scripted replies.

Tests drive the real ``openai`` client against it. Each POST to ``/v1/chat/completions`` takes
the next scripted step: ``{"status": 429}`` (or any error status), or an assistant turn
``{"content": ..., "tool_calls": [(name, raw_arguments_string), ...]}``, or
``{"message": <any JSON>}`` (sent as the assistant message as it is: any value in any field),
or ``{"raw_body": "<text>"}`` (the whole HTTP body, verbatim), or a callable that receives the
request body and returns such a step. Requests are recorded for assertions.

Real servers differ in what they accept; the fake can play each way (keyword arguments):

- ``tools``: ``"native"`` answers the client's tool-support probe with a native call;
  ``"ignored"`` answers it in prose (llama-cpp-python's ``chatml-function-calling`` without
  ``tool_choice``); ``"text"`` writes the call as text; ``"refused"`` answers every request
  carrying ``tools`` with HTTP 400 (Ollama: "does not support tools"). Probe requests are kept in
  ``probes``, not ``requests``, and take no scripted step.
- ``refuse_formats`` (``response_format`` types, e.g. ``{"json_schema"}``) answered with
  ``refusal_status`` in that server family's shape: 400 OpenAI/vLLM (``error.message``), 422
  FastAPI validation (``detail`` list), 500 llama-cpp-python (a pydantic literal error).
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


def _refusal(status: int, kind: str) -> tuple[dict[str, Any], int]:
    """A ``response_format`` refusal as each server family words it."""
    if status == 422:
        return {
            "detail": [
                {
                    "type": "literal_error",
                    "loc": ["body", "response_format", "type"],
                    "msg": "Input should be 'text' or 'json_object'",
                    "input": kind,
                }
            ]
        }, 422
    if status == 500:
        return {
            "error": {
                "message": "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
                "  Input should be 'text' or 'json_object' [type=literal_error, "
                f"input_value='{kind}', input_type=str]",
                "type": "internal_server_error",
                "param": None,
                "code": None,
            }
        }, 500
    return {
        "error": {
            "message": f"Invalid parameter: 'response_format' of type '{kind}' is not supported "
            "with this model.",
            "type": "invalid_request_error",
            "param": "response_format",
            "code": None,
        }
    }, status


def is_probe(body: dict[str, Any]) -> bool:
    """The client's one-off tool-support probe (a single ``get_time`` tool)."""
    tools = body.get("tools") or []
    return len(tools) == 1 and tools[0].get("function", {}).get("name") == "get_time"


class FakeOpenAI:
    def __init__(
        self,
        script: list[Step] | None = None,
        default: Step | None = None,
        *,
        tools: str = "native",
        refuse_formats: set[str] | frozenset[str] = frozenset(),
        refusal_status: int = 400,
        new_token_param: bool = False,
    ) -> None:
        self.script: list[Step] = list(script or [])
        self.default = default  # used once the script is exhausted
        self.tools = tools
        self.refuse_formats = set(refuse_formats)
        self.refusal_status = refusal_status
        self.new_token_param = new_token_param  # refuse max_tokens as OpenAI's reasoning models do
        self.refused: list[dict[str, Any]] = []  # requests answered with a format or tools refusal
        self.probes: list[dict[str, Any]] = []
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
        if body.get("tools") and self.tools == "refused":
            self.refused.append(body)
            return web.json_response(
                {
                    "error": {
                        "message": f"registry.ollama.ai/library/{body.get('model')} "
                        "does not support tools",
                        "type": "api_error",
                    }
                },
                status=400,
            )
        if self.new_token_param and "max_tokens" in body:
            self.refused.append(body)
            return web.json_response(
                {
                    "error": {
                        "message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                        "'max_completion_tokens' instead.",
                        "type": "invalid_request_error",
                        "param": "max_tokens",
                        "code": "unsupported_parameter",
                    }
                },
                status=400,
            )
        if is_probe(body):
            self.probes.append(body)
            return self._probe_reply(body)
        kind = (body.get("response_format") or {}).get("type")
        if kind in self.refuse_formats:
            self.refused.append(body)
            payload, status = _refusal(self.refusal_status, kind)
            return web.json_response(payload, status=status)
        self.requests.append(body)
        if not self.script and self.default is None:
            return web.json_response(
                {"error": {"message": "fake server script exhausted"}}, status=500
            )
        step = self.script.pop(0) if self.script else self.default
        if callable(step):
            step = step(body)
        if "status" in step:
            return web.json_response(
                {"error": {"message": step.get("message", "scripted error"), "type": "scripted"}},
                status=step["status"],
                headers={"retry-after-ms": "1"},
            )
        if "raw_body" in step:
            return web.Response(text=step["raw_body"], content_type="application/json")
        return self._completion(body, step)

    def _probe_reply(self, body: dict[str, Any]) -> web.Response:
        if self.tools == "native":
            return self._completion(body, {"tool_calls": [("get_time", "{}")]})
        if self.tools == "text":
            return self._completion(
                body, {"content": '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>'}
            )
        return self._completion(body, {"content": "I am sorry, I cannot check the time."})

    def _completion(self, body: dict[str, Any], step: dict[str, Any]) -> web.Response:
        n = next(self._ids)
        message: Any = {"role": "assistant", "content": step.get("content")}
        calls = step.get("tool_calls") or []
        if "message" in step:
            message = step["message"]
        elif calls:
            message["tool_calls"] = [
                {
                    "id": f"call_{n}_{i}",
                    "type": "function",
                    "function": {"name": name, "arguments": args},
                }
                for i, (name, args) in enumerate(calls)
            ]
        prompt_tokens = step.get("prompt_tokens", 10 * len(body.get("messages", [])))
        completion_tokens = step.get("completion_tokens", 7)
        return web.json_response(
            {
                "id": f"chatcmpl-{n}",
                "object": "chat.completion",
                "created": 1_700_000_000 + n,
                "model": body.get("model", "fake"),
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": step.get(
                            "finish_reason", "tool_calls" if calls else "stop"
                        ),
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            }
        )


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
