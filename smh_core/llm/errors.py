"""Failures that are not the model's: the endpoint, the network, the protocol, or our harness.

A benchmark must never score a refused connection, a timeout, a server's 500 or a request
shape the server does not accept as the model failing the task. Every such failure leaves the
client as :class:`InfraError` with a ``kind`` the runner records (``infra``), excludes from
success rates (its count is shown) and runs again on resume.

``openai`` is imported by the functions that look at its exceptions (an exception of its
means it is loaded already), so importing this module stays cheap.
"""

from __future__ import annotations

import re

_CONTEXT = re.compile(
    r"context (?:length|window|size)|maximum context|too many tokens|"
    r"exceeds? (?:the )?(?:max|context)|requested tokens",
    re.I,
)
_RESPONSE_FORMAT = re.compile(
    r"response_format|json_schema|json_object|\bschema\b|grammar|"
    r"structured output|guided",
    re.I,
)
_TOOLS = re.compile(r"\btools?\b|tool_choice|function call|auto tool", re.I)


class InfraError(Exception):
    """The endpoint or harness failed; ``kind`` is one of ``connection``, ``timeout``,
    ``rate_limit``, ``auth``, ``not_found``, ``server_error``, ``context_length``,
    ``protocol`` (the server refused the request's shape), ``bad_response`` (the reply did
    not follow the OpenAI wire format)."""

    def __init__(self, kind: str, message: str, status: int | None = None) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.status = status

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message[:500], "status": self.status}


def error_text(err: BaseException) -> str:
    """The server's own words for an API error (its JSON ``error.message`` when there is one)."""
    body = getattr(err, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if isinstance(inner, str):
            return inner
        detail = body.get("detail")
        if detail:
            return str(detail)
    return str(getattr(err, "message", "") or err)


def classify(err: BaseException) -> InfraError:
    """The :class:`InfraError` for an exception raised by the ``openai`` client."""
    if isinstance(err, InfraError):
        return err
    import openai  # here, not at the top: a run that never calls a model never loads the client (0.5 s)

    text = error_text(err)
    if isinstance(err, openai.APITimeoutError):
        return InfraError("timeout", text or "the request timed out")
    if isinstance(err, openai.APIConnectionError):
        return InfraError("connection", f"{text} ({_cause(err)})" if _cause(err) else text)
    if isinstance(err, openai.APIStatusError):
        status = err.status_code
        if status in (401, 403):
            kind = "auth"
        elif status == 404:
            kind = "not_found"
        elif status == 429:
            kind = "rate_limit"
        elif _CONTEXT.search(text):
            kind = "context_length"
        elif status >= 500:
            kind = "server_error"
        else:
            kind = "protocol"
        return InfraError(kind, f"HTTP {status}: {text}", status)
    if isinstance(
        err, openai.APIResponseValidationError | ValueError | KeyError | TypeError | IndexError
    ):
        return InfraError("bad_response", f"{type(err).__name__}: {text}")
    return InfraError("protocol", f"{type(err).__name__}: {text}")


def _cause(err: BaseException) -> str:
    cause = err.__cause__ or err.__context__
    return f"{type(cause).__name__}: {cause}" if cause is not None else ""


def is_context_overflow(err: BaseException) -> bool:
    return _CONTEXT.search(error_text(err)) is not None


def refuses_response_format(err: BaseException) -> bool:
    """Whether an API error is the server refusing a ``response_format`` (or its schema).

    Servers differ: OpenAI and vLLM answer 400, FastAPI-based servers 422, llama-cpp-python's
    server 500 with a pydantic literal error. Any 4xx (but auth, not-found, rate limit and
    context overflow, which a different format does not cure) counts, and a 5xx when its text
    names the format, a schema or a grammar.
    """
    import openai

    if not isinstance(err, openai.APIStatusError) or is_context_overflow(err):
        return False
    status = err.status_code
    if status in (401, 403, 404, 429):
        return False
    if 400 <= status < 500:
        return True
    return status >= 500 and _RESPONSE_FORMAT.search(error_text(err)) is not None


def refuses_tools(err: BaseException) -> bool:
    """Whether an API error is the server refusing ``tools`` (Ollama: "does not support
    tools", vLLM without auto tool choice), so the prompted protocol should be used."""
    import openai

    if not isinstance(err, openai.APIStatusError) or is_context_overflow(err):
        return False
    if err.status_code in (401, 403, 404, 429):
        return False
    return _TOOLS.search(error_text(err)) is not None and err.status_code < 600
