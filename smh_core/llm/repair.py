"""Repair of what small models get wrong in tool calls, with every repair counted.

Chat Completions tool calls carry ``arguments`` as a JSON string. Small local models often
send a JSON string that itself holds JSON (double-encoded), an empty string or ``null``,
JSON with code fences or trailing commas, or skip the tool-call channel and write the call as
JSON in the message text. Each case is repaired where the intent is unambiguous and recorded;
what cannot be repaired becomes a :class:`ToolCallProblem` that the agent reports back to the
model (so it can correct itself) and the verifier classifies (action/tool validity).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_OPEN_TAG, _CLOSE_TAG = "<tool_call>", "</tool_call>"


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
    kind: str  # malformed_arguments | arguments_not_object | unknown_tool
    message: str
    raw: str


@dataclass
class ParsedCalls:
    calls: list[ToolCall] = field(default_factory=list)
    problems: list[ToolCallProblem] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)


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


def loads_lenient(text: str, repairs: list[str]) -> Any:
    """``json.loads`` with the unambiguous fixes: code fences, trailing commas."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    fixed = text
    body = _unfence(fixed)
    if body is not None:
        fixed = body
        repairs.append("code_fence")
    if _TRAILING_COMMA.search(fixed):
        fixed = _TRAILING_COMMA.sub(r"\1", fixed)
        repairs.append("trailing_comma")
    return json.loads(fixed)


def parse_arguments(raw: Any, repairs: list[str]) -> dict[str, Any]:
    """Turn a tool call's ``arguments`` into an object; raises ``ValueError`` when impossible."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        repairs.append("empty_arguments")
        return {}
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, str):
        raise ValueError(f"arguments must be a JSON object, got {type(raw).__name__}")
    try:
        value = loads_lenient(raw, repairs)
    except json.JSONDecodeError as e:
        raise ValueError(f"arguments are not valid JSON ({e.msg} at position {e.pos})") from None
    if isinstance(value, str):
        try:
            value = json.loads(value)
            repairs.append("double_encoded_arguments")
        except json.JSONDecodeError:
            raise ValueError("arguments are a JSON string, not an object") from None
    if value is None:
        repairs.append("empty_arguments")
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"arguments must be a JSON object, got {type(value).__name__}")
    return value


def parse_tool_calls(message: dict[str, Any], tool_names: set[str]) -> ParsedCalls:
    """Extract usable tool calls from an assistant message (OpenAI Chat Completions shape)."""
    out = ParsedCalls()
    raw_calls = message.get("tool_calls") or []
    if not raw_calls:
        text_calls = _calls_from_text(message.get("content") or "", tool_names)
        if text_calls:
            out.repairs.append("text_tool_call")
            raw_calls = text_calls
    for i, tc in enumerate(raw_calls):
        fn = tc.get("function") or {}
        name = fn.get("name") or ""
        call_id = tc.get("id") or f"call_{i}"
        raw_args = fn.get("arguments")
        if name not in tool_names:
            out.problems.append(ToolCallProblem(call_id, name, "unknown_tool",
                                                f"unknown tool {name!r}; available: {sorted(tool_names)}",
                                                str(raw_args)))
            continue
        try:
            args = parse_arguments(raw_args, out.repairs)
        except ValueError as e:
            kind = "arguments_not_object" if "must be" in str(e) or "not an object" in str(e) else "malformed_arguments"
            out.problems.append(ToolCallProblem(call_id, name, kind, str(e), str(raw_args)))
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
        except json.JSONDecodeError:
            continue
        items = value if isinstance(value, list) else [value]
        for item in items:
            if not isinstance(item, dict):
                continue
            name = item.get("name") or item.get("tool")
            if name not in tool_names:
                continue
            args = item.get("arguments", item.get("parameters", {}))
            calls.append({"id": f"text_call_{len(calls)}",
                          "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}})
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
        chunks.append(content[innermost + len(_OPEN_TAG):end].strip())
        pos = end + len(_CLOSE_TAG)
    return chunks
