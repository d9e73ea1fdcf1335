"""Repair of what small models get wrong in tool calls, with every repair counted.

Chat Completions tool calls carry ``arguments`` as a JSON string. Small local models often
send a JSON string that itself holds JSON (double-encoded), an empty string or ``null``,
JSON with code fences or trailing commas, or skip the tool-call channel and write the call as
JSON in the message text. Each case is repaired where the intent is unambiguous and recorded;
what cannot be repaired becomes a :class:`ToolCallProblem` that the agent reports back to the
model (so it can correct itself) and the verifier classifies (action/tool validity).

Model output is untrusted: any JSON value may stand in any field (a tool name that is a list,
arguments that are a number, calls that are not a list), and JSON may be huge or nested
thousands deep. Nothing here raises on it: text past :data:`MAX_JSON_CHARS` characters, or
values nested past :data:`MAX_JSON_DEPTH` levels or holding more than :data:`MAX_JSON_VALUES`
values, are :class:`MalformedJSON` (a ``ValueError``), which the callers turn into a
``malformed_*`` problem, never a crash.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_OPEN_TAG, _CLOSE_TAG = "<tool_call>", "</tool_call>"
MAX_JSON_CHARS = 1_000_000
"""The longest JSON text read from a model (a tool call is a few hundred characters)."""
MAX_JSON_DEPTH = 64
"""The deepest nesting of objects and lists accepted in a model's JSON."""
MAX_JSON_VALUES = 100_000
"""The most values (objects, lists, strings, numbers ...) one piece of model JSON may hold."""
_RAW_CHARS = 2000


class MalformedJSON(ValueError):
    """Model output that is not JSON, or JSON past the limits; the message says which.
    ``syntax`` is true for plain syntax errors, the ones :func:`loads_lenient` may repair."""

    kind = "malformed_arguments"

    def __init__(self, message: str, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.syntax = syntax


class NotAnObject(ValueError):
    """Arguments that are JSON, but not an object."""

    kind = "arguments_not_object"


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass
class ToolCallProblem:
    """A tool call that could not be used; ``kind`` classifies it for error statistics."""

    id: str
    name: str
    kind: str  # malformed_call | malformed_arguments | arguments_not_object | unknown_tool
    message: str
    raw: str


@dataclass
class ParsedCalls:
    calls: list[ToolCall] = field(default_factory=list)
    problems: list[ToolCallProblem] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)


def check_shape(value: Any, what: str = "the JSON") -> None:
    """Raise :class:`MalformedJSON` if ``value`` nests deeper than :data:`MAX_JSON_DEPTH` or
    holds more than :data:`MAX_JSON_VALUES` values (iteratively: no recursion to overflow)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    count = 0
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > MAX_JSON_VALUES:
            raise MalformedJSON(f"{what} holds more than {MAX_JSON_VALUES:,} values")
        if isinstance(item, dict | list | tuple):
            if depth >= MAX_JSON_DEPTH:
                raise MalformedJSON(f"{what} nests deeper than {MAX_JSON_DEPTH} levels")
            stack.extend(
                (x, depth + 1) for x in (item.values() if isinstance(item, dict) else item)
            )


def load_json(text: Any, what: str = "the JSON") -> Any:
    """``json.loads`` for model output: any failure (syntax, a 5,000-digit number, nesting past
    the parser's stack, the size and depth limits) is a :class:`MalformedJSON`."""
    if not isinstance(text, str):
        raise MalformedJSON(f"{what} must be text, got {type(text).__name__}")
    if len(text) > MAX_JSON_CHARS:
        raise MalformedJSON(
            f"{what} is {len(text):,} characters long; the limit is {MAX_JSON_CHARS:,}"
        )
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise MalformedJSON(
            f"{what} is not valid JSON ({e.msg} at position {e.pos})", syntax=True
        ) from None
    except RecursionError:
        raise MalformedJSON(f"{what} nests deeper than {MAX_JSON_DEPTH} levels") from None
    except ValueError as e:  # e.g. an integer longer than Python converts
        raise MalformedJSON(f"{what} holds a value that cannot be read ({str(e)[:120]})") from None
    check_shape(value, what)
    return value


def clipped(value: Any, limit: int = _RAW_CHARS) -> str:
    """A value as short text for messages and traces, whatever it is (never raises)."""
    if isinstance(value, str):
        return value[:limit]
    try:
        check_shape(value)
        return json.dumps(value, ensure_ascii=False, default=str)[:limit]
    except (ValueError, TypeError, RecursionError):
        return f"<{type(value).__name__}>"


def message_text(content: Any) -> str:
    """A message's ``content`` as text: a string as it is, a list of content parts as their
    joined ``text``, ``None`` as empty, anything else as short JSON."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list) and all(isinstance(p, dict) for p in content):
        texts = [p.get("text") for p in content]
        if all(isinstance(t, str) for t in texts):
            return "".join(texts)  # type: ignore[arg-type]
    return clipped(content)


def _unfence(text: str) -> str | None:
    """The body of a text that is one fenced code block (```json ... ```), else ``None``.
    String operations, not a regex: model output is untrusted and may be huge."""
    stripped = text.strip()
    if len(stripped) < 6 or not stripped.startswith("```") or not stripped.endswith("```"):
        return None
    body = stripped[3:-3]
    if body.startswith("json"):
        body = body[4:]
    return body.strip()


def loads_lenient(text: Any, repairs: list[str]) -> Any:
    """:func:`load_json` with the unambiguous fixes: code fences, trailing commas. Raises
    :class:`MalformedJSON`."""
    try:
        return load_json(text)
    except MalformedJSON as e:
        if not e.syntax:
            raise
    fixed = text
    body = _unfence(fixed)
    if body is not None:
        fixed = body
        repairs.append("code_fence")
    if _TRAILING_COMMA.search(fixed):
        fixed = _TRAILING_COMMA.sub(r"\1", fixed)
        repairs.append("trailing_comma")
    return load_json(fixed)


def parse_arguments(raw: Any, repairs: list[str]) -> dict[str, Any]:
    """Turn a tool call's ``arguments`` into an object; raises :class:`MalformedJSON` or
    :class:`NotAnObject` (both ``ValueError``) when impossible."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        repairs.append("empty_arguments")
        return {}
    if isinstance(raw, dict):
        check_shape(raw, "the arguments")
        return raw
    if not isinstance(raw, str):
        raise NotAnObject(f"arguments must be a JSON object, got {type(raw).__name__}")
    value = loads_lenient(raw, repairs)
    if isinstance(value, str):
        try:
            value = load_json(value, "the arguments")
            repairs.append("double_encoded_arguments")
        except MalformedJSON:
            raise NotAnObject("arguments are a JSON string, not an object") from None
    if value is None:
        repairs.append("empty_arguments")
        return {}
    if not isinstance(value, dict):
        raise NotAnObject(f"arguments must be a JSON object, got {type(value).__name__}")
    return value


def parse_tool_calls(message: Any, tool_names: set[str]) -> ParsedCalls:
    """Extract usable tool calls from an assistant message (OpenAI Chat Completions shape).

    Any value in any field is a problem to report, never an exception."""
    out = ParsedCalls()
    if not isinstance(message, dict):
        message = {}
    try:
        check_shape(message, "the message")
    except MalformedJSON as e:
        out.problems.append(ToolCallProblem("call_0", "", "malformed_call", str(e), ""))
        return out
    raw_calls: Any = message.get("tool_calls") or []
    if not raw_calls:
        text_calls = _calls_from_text(message_text(message.get("content")), tool_names)
        if text_calls:
            out.repairs.append("text_tool_call")
            raw_calls = text_calls
    if not isinstance(raw_calls, list):
        raw_calls = [raw_calls]
    for i, tc in enumerate(raw_calls):
        fn = tc.get("function") if isinstance(tc, dict) else None
        call_id = tc.get("id") if isinstance(tc, dict) else None
        call_id = call_id if isinstance(call_id, str) and call_id else f"call_{i}"
        if not isinstance(fn, dict):
            out.problems.append(
                ToolCallProblem(
                    call_id,
                    "",
                    "malformed_call",
                    'a tool call must be {"function": {"name": ..., "arguments": ...}}',
                    clipped(tc),
                )
            )
            continue
        name = fn.get("name") or ""
        raw_args = fn.get("arguments")
        if not isinstance(name, str) or name not in tool_names:
            out.problems.append(
                ToolCallProblem(
                    call_id,
                    name if isinstance(name, str) else "",
                    "unknown_tool",
                    f"unknown tool {clipped(name, 200)!r}; available: {sorted(tool_names)}",
                    clipped(raw_args),
                )
            )
            continue
        try:
            args = parse_arguments(raw_args, out.repairs)
        except (MalformedJSON, NotAnObject) as e:
            out.problems.append(ToolCallProblem(call_id, name, e.kind, str(e), clipped(raw_args)))
            continue
        out.calls.append(ToolCall(call_id, name, args))
    return out


def _calls_from_text(content: str, tool_names: set[str]) -> list[dict[str, Any]]:
    """Tool calls a model wrote as text: ``<tool_call>{...}</tool_call>``, a fenced or bare JSON
    object ``{"name": ..., "arguments": {...}}``, or a list of such objects."""
    chunks = tagged_chunks(content) or [content]
    calls: list[dict[str, Any]] = []
    for chunk in chunks:
        try:
            value = loads_lenient(chunk.strip(), [])
        except MalformedJSON:
            continue
        items = value if isinstance(value, list) else [value]
        for item in items:
            if not isinstance(item, dict):
                continue
            name = item.get("name") or item.get("tool")
            if not isinstance(name, str) or name not in tool_names:
                continue
            args = item.get("arguments", item.get("parameters", {}))
            calls.append(
                {
                    "id": f"text_call_{len(calls)}",
                    "function": {
                        "name": name,
                        "arguments": args if isinstance(args, str) else json.dumps(args),
                    },
                }
            )
    return calls


def tagged_chunks(content: str) -> list[str]:
    """The bodies of ``<tool_call>...</tool_call>`` blocks, innermost opening tag first.

    One pass with ``str.find``: each character is looked at a bounded number of times, so
    thousands of unclosed tags cost linear time (a lazy regex took 20 s on 8,000 of them,
    which inside Home Assistant would freeze the event loop)."""
    chunks: list[str] = []
    pos = 0
    while True:
        start = content.find(_OPEN_TAG, pos)
        if start < 0:
            break
        end = content.find(_CLOSE_TAG, start + len(_OPEN_TAG))
        if end < 0:
            break
        innermost = content.rfind(_OPEN_TAG, start, end)
        chunks.append(content[innermost + len(_OPEN_TAG) : end].strip())
        pos = end + len(_CLOSE_TAG)
    return chunks
