"""LLM access through the official ``openai`` client against any OpenAI-compatible endpoint.

Chat Completions with tool calling is used because local servers (llama.cpp, vLLM, Ollama)
rarely implement the Responses API. Retries with exponential backoff on 408/409/429/5xx and
timeouts are the client library's own (``max_retries``, ``timeout``); this module adds token
accounting per call and the repair of malformed tool calls (see :mod:`.repair`).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from openai import AsyncOpenAI

from .repair import ParsedCalls, parse_tool_calls


@dataclass
class LLMConfig:
    base_url: str | None = None
    model: str = "gpt-4o-mini"
    api_key: str | None = None
    timeout: float = 120.0
    max_retries: int = 4
    temperature: float | None = 0.0
    seed: int | None = None

    def resolved_api_key(self) -> str:
        """The key from the config, else ``OPENAI_API_KEY``; local servers accept any string."""
        return self.api_key or os.environ.get("OPENAI_API_KEY") or "no-key"


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.calls += other.calls

    def to_dict(self) -> dict[str, int]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.total_tokens, "calls": self.calls}


@dataclass
class ChatResult:
    message: dict[str, Any]
    parsed: ParsedCalls
    usage: Usage
    finish_reason: str | None
    seconds: float
    repairs: list[str] = field(default_factory=list)


class LLMClient:
    """One endpoint + model; ``chat`` returns the assistant message with repaired tool calls."""

    def __init__(self, config: LLMConfig, client: AsyncOpenAI | None = None) -> None:
        self.config = config
        self.client = client or AsyncOpenAI(base_url=config.base_url, api_key=config.resolved_api_key(),
                                            timeout=config.timeout, max_retries=config.max_retries)
        self.usage = Usage()

    async def chat(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None,
                   response_format: dict[str, Any] | None = None) -> ChatResult:
        kwargs: dict[str, Any] = {"model": self.config.model, "messages": messages}
        if tools:
            kwargs["tools"] = tools
        if response_format is not None:
            kwargs["response_format"] = response_format
        if self.config.temperature is not None:
            kwargs["temperature"] = self.config.temperature
        if self.config.seed is not None:
            kwargs["seed"] = self.config.seed
        t0 = time.perf_counter()
        completion = await self.client.chat.completions.create(**kwargs)
        seconds = time.perf_counter() - t0
        choice = completion.choices[0]
        message = choice.message.model_dump(exclude_none=True)
        usage = Usage(calls=1)
        if completion.usage is not None:
            usage.prompt_tokens = completion.usage.prompt_tokens or 0
            usage.completion_tokens = completion.usage.completion_tokens or 0
        self.usage.add(usage)
        names = {t["function"]["name"] for t in tools or []}
        parsed = parse_tool_calls(message, names)
        return ChatResult(message, parsed, usage, choice.finish_reason, seconds, list(parsed.repairs))
