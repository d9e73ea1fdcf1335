"""JSON schemas that grammar-constrained decoders accept as meant.

llama.cpp-based servers turn ``response_format: {"type": "json_object", "schema": ...}`` into a
grammar. Their converter refuses schemas it does not know (a property with no type, as
pydantic writes for ``Any``) and then silently falls back to "any JSON", so a small model's
reply is no longer held to the tool-call shape. :func:`grammar_safe` rewrites a schema into
the subset such converters handle, and bounds every free string so a rambling model cannot
fill the completion budget inside one value.
"""

from __future__ import annotations

from typing import Any

ANY_SCALAR: dict[str, Any] = {
    "anyOf": [
        {"type": "string", "maxLength": 200},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "null"},
    ]
}
"""What an untyped value becomes: a scalar (device values are scalars or short lists)."""

_NOISE = ("title", "default", "description", "examples", "pattern", "format")
"""Dropped: annotations, and string patterns/formats (llama.cpp's grammar parser crashed the
server on the patterns of the time-of-day fields; the tool's own validation checks them)."""
_SHAPES = ("type", "anyOf", "oneOf", "allOf", "$ref", "const", "enum", "properties")


def grammar_safe(schema: Any, max_string: int = 300) -> Any:
    """A copy of ``schema`` without annotations, with untyped values made scalars and strings
    given a ``maxLength`` (``max_string``) unless they have one."""
    if isinstance(schema, list):
        return [grammar_safe(s, max_string) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _NOISE:
            continue
        if key in ("properties", "$defs"):
            out[key] = {k: grammar_safe(v, max_string) for k, v in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            out[key] = grammar_safe(value, max_string) if value else dict(ANY_SCALAR)
        elif key in ("anyOf", "oneOf", "allOf"):
            out[key] = [grammar_safe(v, max_string) for v in value]
        else:
            out[key] = value
    if not any(k in out for k in _SHAPES):
        return dict(ANY_SCALAR)
    if (
        out.get("type") == "string"
        and "maxLength" not in out
        and "enum" not in out
        and "pattern" not in out
    ):
        out["maxLength"] = max_string
    return out
