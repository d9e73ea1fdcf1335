"""Sample values for a :class:`ValueSpec`: valid ones and deliberately invalid ones.

Used wherever calls must be synthesised from schemas alone: the engine benchmark, property
tests, tool-schema tests and the oracle's argument filling. Deterministic for a given ``rng``.
"""

from __future__ import annotations

import random
from typing import Any

from .colours import draw
from .model import AttrType, Service, ValueSpec
from .shapes import ValueSpecShape


def valid_value(spec: ValueSpec, rng: random.Random) -> Any:
    """A random value that ``spec`` accepts."""
    if spec.options:
        return rng.choice(spec.options)
    t = spec.type
    if t == AttrType.BOOL:
        return rng.random() < 0.5
    if t in (AttrType.INT, AttrType.FLOAT):
        lo, hi = spec.range if spec.range else (0, 100)
        if spec.precision:
            steps = int((hi - lo) // spec.precision)
            v = lo + rng.randint(0, steps) * spec.precision
            v = round(v, 10)
        elif t == AttrType.INT:
            v = rng.randint(int(lo), int(hi))
        else:
            v = round(rng.uniform(lo, hi), 3)
            v = min(max(v, lo), hi)
        if t == AttrType.INT:
            return int(v)
        return float(v)
    if t == AttrType.HEX and spec.colour is not None:  # only colours the light holds
        return draw(spec.colour, rng)
    if t == AttrType.HEX:
        lo, hi = spec.range if spec.range else (0, 0xFFFFFF)
        return f"#{rng.randint(int(lo), int(hi)):06X}"
    if t == AttrType.STR:
        lo, hi = spec.range if spec.range else (1, 12)
        n = rng.randint(int(max(lo, 1)), int(max(min(hi, 12), 1)))
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(n)).strip() or "x"
    if t == AttrType.LIST:
        lo, hi = spec.range if spec.range else (0, 3)
        n = rng.randint(int(lo), int(min(hi, lo + 3)))
        return (
            [valid_value(spec.items, rng) for _ in range(n)]
            if isinstance(spec.items, ValueSpecShape)
            else []
        )
    if t == AttrType.TUPLE:
        if not isinstance(spec.items, list):  # ValueSpec's own validator requires the list
            raise TypeError("a tuple spec needs 'items' as a list of per-position specs")
        return [valid_value(s, rng) for s in spec.items]
    if t == AttrType.DICT:
        items = (
            spec.items if isinstance(spec.items, dict) else {}
        )  # ValueSpec's validator: a dict or None
        return {k: valid_value(s, rng) for k, s in items.items()}
    raise ValueError(f"no sampler for type {t}")


def invalid_value(spec: ValueSpec, rng: random.Random) -> Any:
    """A value ``spec`` rejects (wrong type, out of range, unknown option or off-precision)."""
    t = spec.type
    candidates: list[Any] = []
    if spec.options:
        candidates.append("__not_an_option__" if t in (AttrType.STR, AttrType.ENUM) else 10**9)
    if t in (AttrType.INT, AttrType.FLOAT) and spec.range:
        candidates += [
            spec.range[1] + (spec.precision or 1) * 10,
            spec.range[0] - (spec.precision or 1) * 10,
        ]
    if t == AttrType.INT:
        candidates.append(1.5)
    if t in (AttrType.INT, AttrType.FLOAT) and spec.precision and spec.range and not spec.rounding:
        off = spec.range[0] + spec.precision / 3  # a device that rounds takes it: not invalid
        if off <= spec.range[1]:
            candidates.append(off)
    if t == AttrType.BOOL:
        candidates += ["yes", 1]
    wrong_type = {
        AttrType.STR: 42,
        AttrType.HEX: "zz-not-hex",
        AttrType.LIST: "notalist",
        AttrType.TUPLE: 7,
        AttrType.DICT: [1, 2],
    }
    candidates.append(wrong_type.get(t, "not-a-number"))
    candidates.append(None)
    return rng.choice(candidates)


def valid_arguments(
    service: Service, rng: random.Random, include_optional: bool = True
) -> dict[str, Any]:
    """Arguments a service accepts by schema (preconditions are not considered)."""
    return {
        a.name: valid_value(a, rng)
        for a in service.arguments
        if a.required or (include_optional and rng.random() < 0.5)
    }
