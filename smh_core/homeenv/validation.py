"""Compile a :class:`ValueSpec` into a fast checker.

The engine validates every argument and every resulting attribute value with these checkers,
so they are closures built once per spec rather than pydantic models built per call.
A checker returns ``None`` when the value is acceptable, else ``(code, message, allowed)``.

Checkers take arbitrary input (anything an agent's JSON can hold, and more) and never raise:
huge integers, NaN and infinities, odd strings and nested containers all come back as a
problem, and messages quote the value through :func:`show`, which is bounded in size.

Numbers without a declared ``range`` are still bounded by what the value type can hold: an
``int`` must fit in 64 bits (Matter's widest integer) and a ``float`` must be finite (an integer
given for a float must convert to one). A ``precision`` is a grid from the range's lower bound
(or 0): a value must sit on it up to floating-point noise (a relative 1e-12, thousands of ulps),
so ``24.0000001`` is rejected for a 0.5 step instead of being stored off the grid.
"""

from __future__ import annotations

import math
import re
import reprlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import ErrorCode
from .shapes import AttrType, ValueSpecShape

if TYPE_CHECKING:
    from .model import ValueSpec

Problem = tuple[ErrorCode, str, Any]
Checker = Callable[[Any], Problem | None]

_HEX = re.compile(r"(#|0x|0X)?[0-9A-Fa-f]+")
"""Matched with ``fullmatch``: ``$`` in ``match`` would also accept a trailing newline."""
_RGB_HEX = re.compile(r"(#|0x|0X)?[0-9A-Fa-f]{6}")
"""A colour a light holds (:attr:`~.model.ValueSpec.colour`): six hex digits, never ``#FFF``,
which could be CSS's white or the number 0xFFF."""
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""Bounds of ``int`` values when the spec declares no range (Matter's widest integers)."""
FLOAT_MAX = sys.float_info.max
"""Largest magnitude of a ``float`` value (an integer given for a float must convert)."""
GRID_REL_TOL = 1e-12
"""How far (relative to the magnitudes involved) a value may sit from its precision grid:
far above float rounding noise (~1e-16), far below any real off-grid value."""
SHOW_LIMIT = 300
"""Longest quotation of a value in a message; agents get the message back verbatim."""
FREE_NESTING = 32
"""Deepest nesting accepted in a list or dict whose spec gives no element schema (none in the
shipped catalogs): deeper values would overflow the stack when copied, compared or saved."""
_TYPE_NAMES = {
    AttrType.STR: "a string",
    AttrType.BOOL: "a boolean (true/false)",
    AttrType.INT: "an integer",
    AttrType.FLOAT: "a number",
    AttrType.HEX: "a hex string such as '#FFAA00'",
    AttrType.ENUM: "one of the options",
    AttrType.LIST: "a list",
    AttrType.TUPLE: "a fixed-length list",
    AttrType.DICT: "an object",
}


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


class _BoundedRepr(reprlib.Repr):
    """``reprlib`` with integers summarised by size: ``repr`` of an int of more than 4,300
    digits raises ``ValueError`` (CPython's int->str limit), so it must never be asked."""

    INT_BITS = 256
    """Integers wider than this (about 77 digits) are described, not written out."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > self.INT_BITS:
            digits = int(x.bit_length() * math.log10(2)) + 1
            return f"<{'negative ' if x < 0 else ''}integer of about {digits} digits>"
        return super().repr_int(x, level)


_SHOWER = _BoundedRepr(
    maxlevel=6,
    maxlist=20,
    maxtuple=20,
    maxdict=20,
    maxset=20,
    maxstring=SHOW_LIMIT,
    maxlong=60,
    maxother=SHOW_LIMIT,
)


def show(v: Any) -> str:
    """``repr(v)`` for quoting in an error message, safe for any input and bounded in size.

    Ordinary values keep their exact ``repr`` (messages for usual mistakes do not change);
    huge integers, deep nesting and long texts are abbreviated instead of raising or
    flooding the message.
    """
    if isinstance(v, str) and len(v) > SHOW_LIMIT:  # do not copy megabytes to cut them off
        return f"{v[:SHOW_LIMIT]!r}... (text of {len(v)} characters)"
    if isinstance(v, int) and v.bit_length() > _BoundedRepr.INT_BITS:
        return _SHOWER.repr_int(v, 0)
    try:
        text = repr(v)
    except (ValueError, RecursionError):  # int->str digit limit, nesting deeper than the stack
        text = _SHOWER.repr(v)
    if len(text) > SHOW_LIMIT:
        size = f" of {len(v)} items" if isinstance(v, (list, tuple, dict)) else ""
        text = f"{text[:SHOW_LIMIT]}... ({type(v).__name__}{size}, shown in part)"
    return text


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


def _is_unicode_text(v: str) -> bool:
    """Whether ``v`` encodes as UTF-8: JSON can carry lone surrogates (``"\\ud800"``), but a
    home holding one could never be saved or sent again."""
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _free_value_problem(what: str, v: list[Any] | dict[Any, Any], allowed: Any) -> Problem | None:
    """The checks left for a list/dict without element schema: bounded nesting, and only
    JSON's own value types inside (what an agent can send and a home file can hold)."""
    stack: list[tuple[Any, int]] = [(v, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > FREE_NESTING:
            return (
                ErrorCode.TYPE_ERROR,
                f"{what} nests deeper than {FREE_NESTING} levels",
                allowed,
            )
        items = list(node.items()) if isinstance(node, dict) else [(None, x) for x in node]
        for key, item in items:
            if key is not None and not _is_json_scalar(key, keys=True):
                return (
                    ErrorCode.TYPE_ERROR,
                    f"{what} has key {show(key)}, which is not JSON text",
                    allowed,
                )
            if isinstance(item, (list, dict)):
                stack.append((item, depth + 1))
            elif not _is_json_scalar(item):
                return (
                    ErrorCode.TYPE_ERROR,
                    f"{what} holds {type(item).__name__} {show(item)}, which is not a JSON value",
                    allowed,
                )
    return None


def _is_json_scalar(x: Any, keys: bool = False) -> bool:
    """Whether ``x`` is a string (valid Unicode) or, unless ``keys``, a JSON number/bool/null."""
    if isinstance(x, str):
        return x.isascii() or _is_unicode_text(x)
    if keys:
        return False
    if isinstance(x, float):
        return math.isfinite(x)
    return x is None or isinstance(x, int)


def _grid_checker(what: str, precision: float, lo: float | None, allowed: Any) -> Checker:
    """The precision check of a number already known to be finite and in range.

    The grid starts at the range's lower bound (or 0). A value must equal its nearest grid
    point up to float noise: ``0.1 * 3`` is on a 0.1 grid, ``24.0000001`` is not on a 0.5 one.
    Rejecting (not rounding) is the contract: the engine stores exactly what it accepted.
    """
    base = lo if lo is not None else 0.0
    step = _fmt(precision)
    where = f" from {_fmt(base)}" if base else ""

    def on_grid(v: Any) -> Problem | None:
        offset = v - base
        if (offset / precision).is_integer():  # the usual case, exact up to one rounding
            return None
        try:  # remainder() is exact and cannot overflow, unlike round(offset / precision)
            off = abs(math.remainder(offset, precision))
        except ValueError:  # offset overflowed to infinity: no grid point is that far out
            off = math.inf
        if off > GRID_REL_TOL * (abs(v) + abs(base) + precision):
            return (
                ErrorCode.PRECISION_ERROR,
                f"{what}={show(v)} is not a multiple of {step}{where}",
                allowed,
            )
        return None

    return on_grid


def grid_rounder(spec: ValueSpec) -> Callable[[Any], Any] | None:
    """For a number spec with a ``precision`` and a ``rounding``, the function that takes a
    finite number inside the range and off the grid to the grid point ``rounding`` names (an
    ``int`` for an ``int`` spec); any other value comes back as it is, for the checker to
    judge (a float for an int, a number out of range, text). ``None`` for every other spec:
    without a ``rounding`` an off-grid value stays refused.

    The grid starts at the range's lower bound (or 0), as :func:`_grid_checker`'s. ``up`` past
    the range's upper bound takes the last grid point inside it."""
    if spec.rounding is None or spec.precision is None or spec.type not in _NUMERIC:
        return None
    step, how = spec.precision, spec.rounding
    lo, hi = spec.range if spec.range is not None else (-math.inf, math.inf)
    base = lo if spec.range is not None else 0.0
    is_int = spec.type == AttrType.INT

    def rounded(v: Any) -> Any:
        if (
            isinstance(v, bool)
            or not isinstance(v, (int, float))
            or (is_int and type(v) is not int)
        ):
            return v
        if not (lo <= v <= hi):  # NaN and infinities too
            return v
        try:
            k = (v - base) / step
        except OverflowError:  # an int too large for a float: the checker refuses it
            return v
        if not math.isfinite(k) or abs(k - round(k)) <= GRID_REL_TOL * (abs(k) + 1):
            return v  # on the grid up to float noise (or too far out to have one)
        n = round(k) if how == "nearest" else math.floor(k) if how == "down" else math.ceil(k)
        out = base + n * step
        if out > hi:
            out -= step
        out = round(out, 10)  # 0.1 * 3 -> 0.3, as the grid checker accepts it
        if is_int:
            return int(out) if float(out).is_integer() else v
        return float(out)

    return rounded


_SHARED: dict[tuple[Any, ...], Checker] = {}
_SHARED_MAX = 8192


def shared_checker(spec: ValueSpec, what: str) -> Checker:
    """:func:`compile_checker`, one checker per distinct (field name, scalar spec).

    Devices of one type repeat the same attributes, and each checker is half a dozen closures
    (~1 KiB): sharing them is a third of an engine's memory per device. A checker is a pure
    function of the name and the spec's type, options, range, precision, unit and colour, so equal
    keys give checkers that answer alike; specs with element schemas or unhashable options
    are compiled on their own. The table is bounded (cleared when full) so a long-lived
    process loading endless one-off specs cannot grow it without limit.
    """
    if spec.items is not None:
        return compile_checker(spec, what)
    try:
        options = None if spec.options is None else tuple((type(o), o) for o in spec.options)
        key = (what, spec.type, options, spec.range, spec.precision, spec.unit, spec.colour)
        hit = _SHARED.get(key)
    except TypeError:  # an option that is a list or dict
        return compile_checker(spec, what)
    if hit is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        hit = _SHARED[key] = compile_checker(spec, what)
    return hit


def compile_checker(spec: ValueSpec, what: str = "value") -> Checker:
    """Build a checker for ``spec``; ``what`` names the field in messages."""
    t = spec.type
    options = spec.options
    lo, hi = spec.range if spec.range is not None else (None, None)
    precision = spec.precision
    allowed = allowed_of(spec)
    desc = describe(spec)

    def type_problem(v: Any) -> Problem:
        return (
            ErrorCode.TYPE_ERROR,
            f"{what} must be {_TYPE_NAMES[t]}, got {type(v).__name__} {show(v)}",
            allowed,
        )

    def range_problem(v: Any) -> Problem:
        return (ErrorCode.OUT_OF_RANGE, f"{what}={show(v)} is outside {desc}", allowed)

    def option_problem(v: Any) -> Problem:
        return (ErrorCode.INVALID_OPTION, f"{what}={show(v)} is not {desc}", allowed)

    option_set: frozenset[tuple[type, Any]] | None = None
    if options is not None:
        try:
            option_set = frozenset((type(o), o) for o in options)
        except TypeError:
            option_set = None

    def in_options(v: Any) -> bool:
        if option_set is not None:
            try:
                return (type(v), v) in option_set or (
                    t == AttrType.FLOAT
                    and isinstance(v, int)
                    and not isinstance(v, bool)
                    and (float, float(v)) in option_set
                )
            except TypeError:
                return False
        return options is not None and any(type(v) is type(o) and v == o for o in options)

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
            if not v.isascii() and not _is_unicode_text(v):
                return (
                    ErrorCode.TYPE_ERROR,
                    f"{what} must be valid Unicode text, got {show(v)} "
                    "(it has a lone surrogate, which no file or message can carry)",
                    allowed,
                )
            if lo is not None and hi is not None and not (lo <= len(v) <= hi):
                return (
                    ErrorCode.OUT_OF_RANGE,
                    f"{what} length {len(v)} is outside [{_fmt(lo)}, {_fmt(hi)}]",
                    allowed,
                )
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
        on_grid = _grid_checker(what, precision, lo, allowed) if precision is not None else None

        def check(v: Any) -> Problem | None:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                return type_problem(v)
            if is_int:
                if not isinstance(v, int):
                    return type_problem(v)
                if lo is None and not (INT_MIN <= v <= INT_MAX):
                    return (
                        ErrorCode.OUT_OF_RANGE,
                        f"{what}={show(v)} does not fit in a 64-bit integer",
                        allowed,
                    )
            elif isinstance(v, int):
                if not (-FLOAT_MAX <= v <= FLOAT_MAX):  # exact int/float comparison, no overflow
                    return (
                        ErrorCode.OUT_OF_RANGE,
                        f"{what}={show(v)} is too large for a number",
                        allowed,
                    )
            elif not math.isfinite(v):
                return type_problem(v)
            if options is not None and not in_options(v):
                return option_problem(v)
            if lo is not None and not (lo <= v <= hi):
                return range_problem(v)
            if on_grid is not None:
                return on_grid(v)
            return None

        if options is None and on_grid is None and lo is not None:
            # the common case, a plain number in range, answered by one type test and one
            # comparison (a bool, a float for an int, NaN or anything else takes the full path)
            full = check
            number = (int,) if is_int else (int, float)

            def check(v: Any) -> Problem | None:
                if type(v) in number and lo <= v <= hi:
                    return None
                return full(v)

        return check

    if t == AttrType.HEX:
        pattern = _HEX if spec.colour is None else _RGB_HEX  # a light's colour: six digits

        def check(v: Any) -> Problem | None:
            if not isinstance(v, str) or not pattern.fullmatch(v):
                return type_problem(v)
            if lo is not None and hi is not None:
                n = int(v.lstrip("#").removeprefix("0x").removeprefix("0X"), 16)
                if not (lo <= n <= hi):
                    return range_problem(v)
            return None

        return check

    if t == AttrType.LIST:
        elem = (
            compile_checker(spec.items, f"{what}[]")
            if isinstance(spec.items, ValueSpecShape)
            else None
        )

        def check(v: Any) -> Problem | None:
            if not isinstance(v, list):
                return type_problem(v)
            if lo is not None and hi is not None and not (lo <= len(v) <= hi):
                return (
                    ErrorCode.OUT_OF_RANGE,
                    f"{what} has {len(v)} items, allowed [{_fmt(lo)}, {_fmt(hi)}]",
                    allowed,
                )
            if elem is None:
                return _free_value_problem(what, v, allowed)
            for item in v:
                p = elem(item)
                if p is not None:
                    return p
            return None

        return check

    if t == AttrType.TUPLE:
        if not isinstance(spec.items, list):  # ValueSpec's own validator requires the list
            raise TypeError(f"{what}: a tuple spec needs 'items' as a list of per-position specs")
        elems = [compile_checker(s, f"{what}[{i}]") for i, s in enumerate(spec.items)]

        def check(v: Any) -> Problem | None:
            if not isinstance(v, (list, tuple)):
                return type_problem(v)
            if len(v) != len(elems):
                return (
                    ErrorCode.TYPE_ERROR,
                    f"{what} must have exactly {len(elems)} items, got {len(v)}",
                    allowed,
                )
            for c, item in zip(elems, v, strict=True):
                p = c(item)
                if p is not None:
                    return p
            return None

        return check

    # DICT
    items = (
        spec.items if isinstance(spec.items, dict) else {}
    )  # ValueSpec's validator: a dict or None
    fields = {k: compile_checker(s, f"{what}.{k}") for k, s in items.items()}

    def check_dict(v: Any) -> Problem | None:
        if not isinstance(v, dict):
            return type_problem(v)
        if not fields:
            return _free_value_problem(what, v, allowed)
        for k in v:
            if k not in fields:
                return (
                    ErrorCode.UNEXPECTED_ARGUMENT,
                    f"{what} has unknown key {show(k)}",
                    sorted(fields),
                )
        for k, c in fields.items():
            if k in v:
                p = c(v[k])
                if p is not None:
                    return p
        return None

    return check_dict


_NUMERIC = (AttrType.INT, AttrType.FLOAT)


def narrowed_to[S: ValueSpec](arg: S, attr: ValueSpec, name: str = "argument") -> S:
    """``arg`` held to the constraints of the attribute it is written to verbatim: the ranges'
    overlap, the options both allow (in the argument's order), the coarser precision. A home
    file may narrow a device's attribute (a freezer at -24..-15 °C on a catalog type allowing
    -30..10); the services writing it then refuse a value as a bad argument, naming what the
    attribute allows, and their schemas (what an agent reads) say so too. An argument of
    another kind than the attribute is left alone; constraints with nothing in common are a
    ``ValueError`` (no call could ever succeed)."""
    if not (arg.type == attr.type or (arg.type in _NUMERIC and attr.type in _NUMERIC)):
        return arg
    update: dict[str, Any] = {}
    if attr.range is not None and attr.range != arg.range:
        lo, hi = (
            attr.range
            if arg.range is None
            else (max(arg.range[0], attr.range[0]), min(arg.range[1], attr.range[1]))
        )
        if lo > hi:
            raise ValueError(
                f"{name} range {list(arg.range or ())} and the attribute's {list(attr.range)} do not overlap"
            )
        if (lo, hi) != arg.range:
            update["range"] = (lo, hi)
    if attr.options is not None and attr.options != arg.options:
        source = attr.options if arg.options is None else arg.options
        options = [
            o
            for o in source
            if any(o == x and isinstance(o, bool) == isinstance(x, bool) for x in attr.options)
        ]
        if not options:
            raise ValueError(
                f"{name} options {arg.options} and the attribute's {attr.options} have none in common"
            )
        if options != arg.options:
            update["options"] = options
    if attr.precision is not None and (arg.precision is None or attr.precision > arg.precision):
        update["precision"] = attr.precision
    return arg.model_copy(update=update) if update else arg
