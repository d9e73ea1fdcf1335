"""Compile a :class:`ValueSpec` into a fast checker.

The engine validates every argument and every resulting attribute value with these checkers,
so they are closures built once per spec rather than pydantic models built per call.
A checker returns ``None`` when the value is acceptable, else ``(code, message, allowed)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from .errors import ErrorCode
from .model import AttrType, ValueSpec

Problem = tuple[ErrorCode, str, Any]
Checker = Callable[[Any], Problem | None]

_HEX = re.compile(r"^(#|0x|0X)?[0-9A-Fa-f]+$")
_TYPE_NAMES = {
    AttrType.STR: "a string", AttrType.BOOL: "a boolean (true/false)", AttrType.INT: "an integer",
    AttrType.FLOAT: "a number", AttrType.HEX: "a hex string such as '#FFAA00'",
    AttrType.ENUM: "one of the options", AttrType.LIST: "a list", AttrType.TUPLE: "a fixed-length list",
    AttrType.DICT: "an object",
}


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


def describe(spec: ValueSpec) -> str:
    """A short human description of what a spec accepts (used in error messages and prompts)."""
    if spec.options is not None:
        return "one of " + ", ".join(repr(o) for o in spec.options)
    text = _TYPE_NAMES[spec.type]
    if spec.range is not None and spec.type in (AttrType.INT, AttrType.FLOAT, AttrType.HEX):
        text += f" in [{_fmt(spec.range[0])}, {_fmt(spec.range[1])}]"
    if spec.precision is not None:
        text += f" in steps of {_fmt(spec.precision)}"
    if spec.unit:
        text += f" ({spec.unit})"
    return text


def allowed_of(spec: ValueSpec) -> Any:
    """The machine-readable 'allowed' payload for an error about this spec."""
    if spec.options is not None:
        return list(spec.options)
    out: dict[str, Any] = {"type": str(spec.type)}
    if spec.range is not None:
        out["range"] = [spec.range[0], spec.range[1]]
    if spec.precision is not None:
        out["precision"] = spec.precision
    return out


def compile_checker(spec: ValueSpec, what: str = "value") -> Checker:
    """Build a checker for ``spec``; ``what`` names the field in messages."""
    t = spec.type
    options = spec.options
    lo, hi = spec.range if spec.range is not None else (None, None)
    precision = spec.precision
    allowed = allowed_of(spec)
    desc = describe(spec)

    def type_problem(v: Any) -> Problem:
        return (ErrorCode.TYPE_ERROR, f"{what} must be {_TYPE_NAMES[t]}, got {type(v).__name__} {v!r}", allowed)

    def range_problem(v: Any) -> Problem:
        return (ErrorCode.OUT_OF_RANGE, f"{what}={v!r} is outside {desc}", allowed)

    def option_problem(v: Any) -> Problem:
        return (ErrorCode.INVALID_OPTION, f"{what}={v!r} is not {desc}", allowed)

    option_set: frozenset | None = None
    if options is not None:
        try:
            option_set = frozenset((type(o), o) for o in options)
        except TypeError:
            option_set = None

    def in_options(v: Any) -> bool:
        if option_set is not None:
            try:
                return (type(v), v) in option_set or (
                    t == AttrType.FLOAT and isinstance(v, int) and not isinstance(v, bool)
                    and (float, float(v)) in option_set)
            except TypeError:
                return False
        return any(type(v) is type(o) and v == o for o in options)  # type: ignore[union-attr]

    if t in (AttrType.STR, AttrType.ENUM) and options is not None:
        def check(v: Any) -> Problem | None:
            if t == AttrType.STR and not isinstance(v, str):
                return type_problem(v)
            return None if in_options(v) else option_problem(v)
        return check

    if t == AttrType.STR:
        def check(v: Any) -> Problem | None:
            if not isinstance(v, str):
                return type_problem(v)
            if lo is not None and not (lo <= len(v) <= hi):
                return (ErrorCode.OUT_OF_RANGE, f"{what} length {len(v)} is outside [{_fmt(lo)}, {_fmt(hi)}]", allowed)
            return None
        return check

    if t == AttrType.BOOL:
        def check(v: Any) -> Problem | None:
            if not isinstance(v, bool):
                return type_problem(v)
            if options is not None and not in_options(v):
                return option_problem(v)
            return None
        return check

    if t in (AttrType.INT, AttrType.FLOAT):
        is_int = t == AttrType.INT

        def check(v: Any) -> Problem | None:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return type_problem(v)
            if is_int and not isinstance(v, int):
                return type_problem(v)
            if not is_int and not math.isfinite(v):
                return type_problem(v)
            if options is not None and not in_options(v):
                return option_problem(v)
            if lo is not None and not (lo <= v <= hi):
                return range_problem(v)
            if precision is not None:
                base = lo if lo is not None else 0.0
                steps = (v - base) / precision
                if abs(steps - round(steps)) > 1e-6:
                    return (ErrorCode.PRECISION_ERROR, f"{what}={v!r} is not a multiple of {_fmt(precision)}"
                            + (f" from {_fmt(base)}" if base else ""), allowed)
            return None
        return check

    if t == AttrType.HEX:
        def check(v: Any) -> Problem | None:
            if not isinstance(v, str) or not _HEX.match(v):
                return type_problem(v)
            if lo is not None:
                n = int(v.lstrip("#").removeprefix("0x").removeprefix("0X"), 16)
                if not (lo <= n <= hi):
                    return range_problem(v)
            return None
        return check

    if t == AttrType.LIST:
        elem = compile_checker(spec.items, f"{what}[]") if isinstance(spec.items, ValueSpec) else None

        def check(v: Any) -> Problem | None:
            if not isinstance(v, list):
                return type_problem(v)
            if lo is not None and not (lo <= len(v) <= hi):
                return (ErrorCode.OUT_OF_RANGE, f"{what} has {len(v)} items, allowed [{_fmt(lo)}, {_fmt(hi)}]", allowed)
            if elem is not None:
                for item in v:
                    p = elem(item)
                    if p is not None:
                        return p
            return None
        return check

    if t == AttrType.TUPLE:
        elems = [compile_checker(s, f"{what}[{i}]") for i, s in enumerate(spec.items)]  # type: ignore[arg-type]

        def check(v: Any) -> Problem | None:
            if not isinstance(v, (list, tuple)):
                return type_problem(v)
            if len(v) != len(elems):
                return (ErrorCode.TYPE_ERROR, f"{what} must have exactly {len(elems)} items, got {len(v)}", allowed)
            for c, item in zip(elems, v, strict=True):
                p = c(item)
                if p is not None:
                    return p
            return None
        return check

    # DICT
    fields = {k: compile_checker(s, f"{what}.{k}") for k, s in (spec.items or {}).items()}  # type: ignore[union-attr]

    def check(v: Any) -> Problem | None:
        if not isinstance(v, dict):
            return type_problem(v)
        if fields:
            for k in v:
                if k not in fields:
                    return (ErrorCode.UNEXPECTED_ARGUMENT, f"{what} has unknown key {k!r}", sorted(fields))
            for k, c in fields.items():
                if k in v:
                    p = c(v[k])
                    if p is not None:
                        return p
        return None
    return check
