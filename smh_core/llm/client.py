"""LLM access through the official ``openai`` client against any OpenAI-compatible endpoint.

Chat Completions is used because local servers (llama.cpp, vLLM, Ollama) rarely implement the
Responses API. Retries with exponential backoff on 408/409/429/5xx and timeouts are the client
library's own (``max_retries``, ``timeout``). This module adds what real servers need:

- token accounting per call, and a cap on completion tokens per call (``max_tokens``): a small
  model that rambles must not hold a run; calls that hit the cap are counted (``truncated``);
- structured output that works on every server (:meth:`LLMClient.chat_json`): ``json_schema``,
  else ``json_object`` with the schema (llama.cpp-based servers constrain decoding with it),
  else plain text for parse-and-repair; what an endpoint accepted is remembered;
- which tool protocol an endpoint supports (:meth:`LLMClient.tool_protocol`): native tool calls,
  or the prompted protocol of :mod:`.tool_protocol` for servers that ignore ``tools``;
- every failure that is not the model's raised as :class:`~.errors.InfraError`.

``openai`` is imported where a call is made, not at module import: it costs ~0.7 s, and most
runs (scripted agents, HA set-up without a model) never reach an endpoint.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit, urlunsplit

from .capabilities import (
    STRUCTURED_LADDER,
    EndpointCapabilities,
    StructuredMode,
    ToolProtocolName,
    capabilities_for,
)
from .errors import InfraError, classify, error_text, refuses_response_format, refuses_tools
from .grammar import grammar_safe
from .local import server_death
from .repair import ParsedCalls, message_text, parse_tool_calls
from .usage import Usage

if TYPE_CHECKING:
    from openai import AsyncOpenAI

DEFAULT_MAX_TOKENS = 1024
"""Completion tokens per call: enough for a DR plan or a rule, short of a runaway generation."""
LOCAL_MAX_TOKENS = 512
"""The same for the bundled 135M model: it rarely needs more, and rambles when let."""
LOCAL_EIA_MAX_TOKENS = 256
"""The bundled model in the tool loop, where each reply is one call or a short answer: a reply
that reaches this is a runaway (its half-written call is reported back as malformed), and
every token of it costs ~40 ms on two cores."""


@dataclass
class LLMConfig:
    base_url: str | None = None
    model: str = "gpt-4o-mini"
    api_key: str | None = None
    timeout: float = 120.0
    max_retries: int = 4
    temperature: float | None = 0.0
    seed: int | None = None
    max_tokens: int | None = DEFAULT_MAX_TOKENS
    tool_protocol: Literal["auto", "native", "prompted"] = "auto"
    max_tool_result_chars: int = (
        20_000  # a tool result longer than this reaches the model shortened
    )
    structured: Literal["auto", "json_schema", "json_object", "text"] = "auto"

    def resolved_api_key(self) -> str:
        """The key from the config, else ``OPENAI_API_KEY``; local servers accept any string."""
        return self.api_key or os.environ.get("OPENAI_API_KEY") or "no-key"

    def endpoint(self) -> str:
        """The endpoint's address as printed and remembered: credentials and query strings a
        user may have put in the URL are left out."""
        url = urlsplit(
            (
                self.base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
            ).rstrip("/")
        )
        host = url.hostname or ""
        if url.port:
            host += f":{url.port}"
        return urlunsplit((url.scheme, host, url.path, "", ""))


@dataclass
class ChatResult:
    message: dict[str, Any]
    parsed: ParsedCalls
    usage: Usage
    finish_reason: str | None
    seconds: float
    repairs: list[str] = field(default_factory=list)
    structured: StructuredMode | None = None  # the response format that produced this reply


_PROBE_TOOL = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "Returns the current local time.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
    },
}
_PROBE_MESSAGES = [
    {"role": "system", "content": "You answer by calling functions whenever one fits the request."},
    {"role": "user", "content": "What time is it? Call the get_time function."},
]


def _count(value: Any) -> int:
    """A token count as reported, or 0 when the server sent something that is not one."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _transient(err: BaseException) -> bool:
    """What the client's own retries are for: connection trouble, 408/409/429 and 5xx."""
    import openai

    if isinstance(err, openai.APIConnectionError):
        return True
    return isinstance(err, openai.APIStatusError) and (
        err.status_code in (408, 409, 429) or err.status_code >= 500
    )


def _renamed_cap(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with ``max_tokens`` sent as ``max_completion_tokens``."""
    out = {k: v for k, v in kwargs.items() if k != "max_tokens"}
    out["max_completion_tokens"] = kwargs["max_tokens"]
    return out


def response_format(
    mode: StructuredMode, schema: dict[str, Any], name: str
) -> dict[str, Any] | None:
    """The ``response_format`` for a rung of the ladder (``None`` for plain text)."""
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    if (
        mode == "json_object"
    ):  # llama.cpp-style servers make a grammar of it: keep it in their subset
        return {"type": "json_object", "schema": grammar_safe(schema)}
    return None


def openai_client(config: LLMConfig) -> AsyncOpenAI:
    """The ``openai`` client for ``config``; share one across tasks (one connection pool) and
    close it on the loop that made it."""
    import openai

    return openai.AsyncOpenAI(
        base_url=config.base_url,
        api_key=config.resolved_api_key(),
        timeout=config.timeout,
        max_retries=config.max_retries,
    )


class LLMClient:
    """One endpoint + model; ``chat`` returns the assistant message with repaired tool calls.

    Given no ``client``, it makes and owns one (:meth:`aclose` closes it)."""

    def __init__(self, config: LLMConfig, client: AsyncOpenAI | None = None) -> None:
        self.config = config
        self._owned = client is None
        self.client = client or openai_client(config)
        self.usage = Usage()
        self.caps: EndpointCapabilities = capabilities_for(config.endpoint(), config.model)

    async def aclose(self) -> None:
        """Close the HTTP client if this object made it (a shared one is its owner's to close)."""
        if self._owned:
            await self.client.close()

    def _kwargs(self, messages: list[dict[str, Any]], max_tokens: int | None) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.config.model, "messages": messages}
        if self.config.temperature is not None:
            kwargs["temperature"] = self.config.temperature
        if self.config.seed is not None:
            kwargs["seed"] = self.config.seed
        cap = max_tokens if max_tokens is not None else self.config.max_tokens
        if cap:
            kwargs["max_tokens"] = cap
        return kwargs

    async def _create(self, kwargs: dict[str, Any], retries: int | None = None) -> Any:
        """One completion; raises the ``openai`` client's own errors (callers classify them).

        OpenAI's reasoning models refuse ``max_tokens`` and want ``max_completion_tokens``
        (older servers know only the former): a refusal naming it switches the name, for this
        endpoint from then on."""
        import openai

        client = self.client if retries is None else self.client.with_options(max_retries=retries)
        if self.caps.completion_tokens_param and "max_tokens" in kwargs:
            kwargs = _renamed_cap(kwargs)
        try:
            try:
                return await client.chat.completions.create(**kwargs)
            except RecursionError as e:  # the response body nests deeper than the JSON parser goes
                raise InfraError(
                    "bad_response", "the reply could not be read: JSON nested too deeply"
                ) from e
            except openai.BadRequestError as e:
                if "max_tokens" not in kwargs or "max_completion_tokens" not in error_text(e):
                    raise
                self.caps.completion_tokens_param = True
                return await client.chat.completions.create(**_renamed_cap(kwargs))
        except (openai.APIConnectionError, openai.InternalServerError) as e:
            # a local model server that crashed is named, with its signal and log, not left as
            # a bare "connection error" (the InfraError passes the callers' OpenAIError handlers)
            death = server_death(self.config.base_url)
            if death is None:
                raise
            raise InfraError("connection", f"{death} ({type(e).__name__}: {error_text(e)})") from e

    def _result(
        self,
        completion: Any,
        tools: list[dict[str, Any]] | None,
        seconds: float,
        structured: StructuredMode | None = None,
    ) -> ChatResult:
        try:
            choice = completion.choices[0]
            message = choice.message.model_dump(
                exclude_none=True, warnings=False
            )  # any JSON may stand anywhere
        except (AttributeError, IndexError, TypeError, ValueError, RecursionError) as e:
            raise InfraError(
                "bad_response", f"the reply has no readable choices[0].message ({type(e).__name__})"
            ) from e
        if not isinstance(
            message.get("content"), str | None
        ):  # content parts, or any JSON a server sent
            message["content"] = message_text(message["content"])
        usage = Usage(calls=1, truncated=int(choice.finish_reason == "length"))
        if getattr(completion, "usage", None) is not None:
            usage.prompt_tokens = _count(getattr(completion.usage, "prompt_tokens", 0))
            usage.completion_tokens = _count(getattr(completion.usage, "completion_tokens", 0))
        self.usage.add(usage)
        names = {t["function"]["name"] for t in tools or []}
        parsed = parse_tool_calls(message, names) if tools else ParsedCalls()
        return ChatResult(
            message, parsed, usage, choice.finish_reason, seconds, list(parsed.repairs), structured
        )

    async def chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        response_format: dict[str, Any] | None = None,
        max_tokens: int | None = None,
    ) -> ChatResult:
        """One chat completion (native tools when given); endpoint failures raise ``InfraError``."""
        import openai

        kwargs = self._kwargs(messages, max_tokens)
        if tools:
            kwargs["tools"] = tools
        if response_format is not None:
            kwargs["response_format"] = response_format
        t0 = time.perf_counter()
        try:
            completion = await self._create(kwargs)
        except openai.OpenAIError as e:
            raise classify(e) from e
        return self._result(completion, tools, time.perf_counter() - t0)

    def _ladder(self, forced: str) -> list[StructuredMode]:
        if forced != "auto":
            return [forced]
        start = self.caps.structured or STRUCTURED_LADDER[0]
        return list(STRUCTURED_LADDER[STRUCTURED_LADDER.index(start) :])

    async def chat_json(
        self,
        messages: list[dict[str, Any]],
        schemas: list[dict[str, Any]],
        name: str,
        max_tokens: int | None = None,
        mode: str | None = None,
    ) -> ChatResult:
        """A reply meant to be one JSON object, asked for in the strongest form the endpoint
        accepts. A refusal moves down the ladder ``json_schema`` -> ``json_object`` + schema ->
        text; what worked is remembered for the endpoint (concurrent first calls wait for the
        first answer). ``schemas`` go from most to least specific: in ``json_object`` mode a
        server may fail to turn a rich schema into a grammar and accept a simpler one. ``mode``
        (default: the config's ``structured``) forces one format instead. The caller parses
        and validates ``message['content']`` itself."""
        policy = mode or self.config.structured
        if policy != "auto" or (
            self.caps.structured is not None and name in self.caps.schema_index
        ):
            return await self._chat_json(messages, schemas, name, max_tokens, policy)
        async with self.caps.discovery_lock():
            return await self._chat_json(messages, schemas, name, max_tokens, policy)

    async def _chat_json(
        self,
        messages: list[dict[str, Any]],
        schemas: list[dict[str, Any]],
        name: str,
        max_tokens: int | None,
        policy: str,
    ) -> ChatResult:
        import openai

        last: Exception | None = None
        for mode in self._ladder(policy):
            known = self.caps.structured == mode
            variants = {"json_schema": 1, "json_object": len(schemas), "text": 1}[mode]
            first = self.caps.schema_index.get(name, 0) if mode == "json_object" and known else 0
            for index in range(first, variants):
                kwargs = self._kwargs(messages, max_tokens)
                fmt = response_format(mode, schemas[index], name)
                if fmt is not None:
                    kwargs["response_format"] = fmt
                t0 = time.perf_counter()
                try:
                    # An untried format is probed without retries: a refusal is not transient.
                    completion = await self._create(
                        kwargs, retries=None if known or fmt is None else 0
                    )
                except openai.OpenAIError as e:
                    if fmt is not None and policy == "auto" and refuses_response_format(e):
                        last = e
                        continue
                    if known or fmt is None or not _transient(e):
                        raise classify(e) from e
                    try:  # a transient failure while probing: the normal retries decide
                        completion = await self._create(kwargs)
                    except openai.OpenAIError as e2:
                        raise classify(e2) from e2
                if policy == "auto":
                    self.caps.structured = mode
                    self.caps.schema_index[name] = index
                return self._result(completion, None, time.perf_counter() - t0, mode)
        raise (
            classify(last)
            if last is not None
            else InfraError("protocol", "no response format was accepted")
        )

    async def tool_protocol(self) -> ToolProtocolName:
        """``native`` or ``prompted`` for this endpoint: the configured one, else probed once
        (a request offering one tool the prompt asks for: no native call back, or a refusal of
        ``tools``, means the server or model ignores them) and remembered."""
        if self.config.tool_protocol != "auto":
            return self.config.tool_protocol
        if self.caps.tools is None:
            async with self.caps.discovery_lock():
                if self.caps.tools is None:
                    self.caps.tools = await self._probe_tools()
        return self.caps.tools

    async def _probe_tools(self) -> ToolProtocolName:
        import openai

        kwargs = self._kwargs([dict(m) for m in _PROBE_MESSAGES], 64)
        kwargs["tools"] = [_PROBE_TOOL]
        try:
            completion = await self._create(kwargs)
        except openai.OpenAIError as e:
            if refuses_tools(e) or (
                isinstance(e, openai.APIStatusError) and e.status_code in (400, 422)
            ):
                return "prompted"
            raise classify(e) from e
        result = self._result(completion, [_PROBE_TOOL], 0.0)
        self.caps.probe_usage.add(result.usage)
        native = bool(result.message.get("tool_calls")) and "text_tool_call" not in result.repairs
        return "native" if native else "prompted"


__all__ = ["ChatResult", "InfraError", "LLMClient", "LLMConfig", "Usage"]
