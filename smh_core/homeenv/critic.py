"""The critic: SMH-Bench's goal language (Appendix C), parsed and evaluated, never ``eval``ed.

Grammar (lowest precedence first)::

    critic  := clause (';' clause)*                 ; every clause must hold
    clause  := and ('or' and)*
    and     := not ('and' not)*
    not     := 'not' not | '(' clause ')' | compare
    compare := ref OP value | ref ['not'] 'in' '{' literal (',' literal)* '}'
    OP      := '==' | '!=' | '<=' | '>=' | '<' | '>'
    ref     := 'device(' ID ')' ('.' NAME)+          ; explicit device
             | NAME ('.' NAME)*                       ; the last device named before it
    ID      := [@A-Za-z0-9_-]+ | 'quoted' | "quoted"  ; quoted: any id (``device('living_room.light')``)
    value   := 'device(' ID ')' ('.' NAME)+ | literal
    literal := number | 'quoted' | "quoted" | True | False | None | bare text

Bare text runs to the next ``and`` / ``or`` / ``;`` / ``)`` (or ``,`` / ``}`` inside a set),
so ``alias == living-room sensor`` compares with the string ``living-room sensor``.
A bare path on the left means the most recently named device, also across ``;``; if the
device has no such attribute, the namespace of the previous path is tried
(``microwave_steam_oven.state == cooking; work_mode == reheating``), then a unique component
attribute of that name.

A path may go on into an object attribute's fields: ``device(tv).1.Channel.CurrentChannel.majorNumber``
is the ``majorNumber`` of the ``1.Channel.CurrentChannel`` value (the longest attribute the
path starts with is taken, then its fields; list items by their index).

Literals are compared in the type of the actual value: ``True``/``False`` with booleans,
numbers numerically (``45 == 45.0``), anything else as text. A missing device or attribute
makes its comparison false with a reason, never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .errors import Change
from .snapshot import Snapshot, diff


class ValueSource(Protocol):
    def value(self, did: str, locator: str) -> Any: ...


class CriticSyntaxError(ValueError):
    def __init__(self, message: str, text: str, pos: int) -> None:
        self.message, self.text, self.pos = message, text, pos
        super().__init__(f"{message} at column {pos}\n {text}\n {' ' * pos}^")


# ----------------------------------------------------------------------------- AST
@dataclass(frozen=True)
class Ref:
    did: str
    path: str
    implicit: bool = False
    namespace: str = ""  # namespace of the previous path, for implicit resolution

    def to_text(self) -> str:
        return self.path if self.implicit else f"device({device_id_text(self.did)}).{self.path}"


_BARE_ID = re.compile(r"@?[A-Za-z0-9_\-]+")


def device_id_text(did: str) -> str:
    """A device id as a critic writes it: bare where the grammar allows, quoted otherwise
    (imported homes use ids such as ``living_room.light``)."""
    if _BARE_ID.fullmatch(did):
        return did
    return "'" + did.replace("\\", "\\\\").replace("'", "\\'") + "'"


@dataclass(frozen=True)
class Lit:
    raw: str
    quoted: bool = False

    def to_text(self) -> str:
        if self.quoted or needs_quotes(self.raw):
            return "'" + self.raw.replace("'", "\\'") + "'"
        return self.raw


@dataclass(frozen=True)
class Compare:
    left: Ref
    op: str
    right: Ref | Lit

    def to_text(self) -> str:
        return f"{self.left.to_text()} {self.op} {self.right.to_text()}"


@dataclass(frozen=True)
class InSet:
    left: Ref
    values: tuple[Lit, ...]
    negated: bool = False

    def to_text(self) -> str:
        op = "not in" if self.negated else "in"
        return f"{self.left.to_text()} {op} {{{', '.join(v.to_text() for v in self.values)}}}"


@dataclass(frozen=True)
class Not:
    item: Node

    def to_text(self) -> str:
        return f"not {_wrap(self.item, (And, Or))}"


@dataclass(frozen=True)
class And:
    items: tuple[Node, ...]

    def to_text(self) -> str:
        return " and ".join(_wrap(i, (Or,)) for i in self.items)


@dataclass(frozen=True)
class Or:
    items: tuple[Node, ...]

    def to_text(self) -> str:
        return " or ".join(i.to_text() for i in self.items)


Node = Compare | InSet | Not | And | Or


def _wrap(node: Node, kinds: tuple[type, ...]) -> str:
    return f"({node.to_text()})" if isinstance(node, kinds) else node.to_text()


_BARE_OK = re.compile(r"^[^\s'\"(){};,][^'\"(){};,]*$")


def needs_quotes(raw: str) -> bool:
    if raw != raw.strip() or not _BARE_OK.match(raw) or raw.startswith("device("):
        return True
    return bool(re.search(r"\s(and|or)(\s|$)", raw)) or raw in ("and", "or", "not", "in")


@dataclass(frozen=True)
class ClauseResult:
    did: str
    locator: str
    actual: Any
    op: str
    expected: Any
    passed: bool
    reason: str = ""


@dataclass(frozen=True)
class Critic:
    text: str
    clauses: tuple[Node, ...]

    def referenced_devices(self) -> frozenset[str]:
        out: set[str] = set()
        for node in self.comparisons():
            out.add(node.left.did)
            if isinstance(node, Compare) and isinstance(node.right, Ref):
                out.add(node.right.did)
        return frozenset(out)

    def comparisons(self) -> Iterator[Compare | InSet]:
        """Every comparison of a device's value, however deep in and/or/not it sits."""
        for node in _walk(self.clauses):
            if isinstance(node, (Compare, InSet)):
                yield node

    def evaluate(self, source: ValueSource) -> bool:
        return all(_eval(c, source, None) for c in self.clauses)

    def explain(self, source: ValueSource) -> list[ClauseResult]:
        results: list[ClauseResult] = []
        for c in self.clauses:
            _eval(c, source, results)
        return results

    def to_text(self) -> str:
        return "; ".join(c.to_text() for c in self.clauses)


def _walk(nodes: tuple[Node, ...]) -> Iterator[Node]:
    for n in nodes:
        yield n
        if isinstance(n, (And, Or)):
            yield from _walk(n.items)
        elif isinstance(n, Not):
            yield from _walk((n.item,))


# ----------------------------------------------------------------------------- parser
_NAME = re.compile(r"[A-Za-z0-9_]+")
_ID = re.compile(r"\s*(@?[A-Za-z0-9_\-]+)\s*")
_OPS = ("==", "!=", "<=", ">=", "<", ">")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


class _Parser:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.did: str | None = None
        self.namespace = ""

    def error(self, message: str, pos: int | None = None) -> CriticSyntaxError:
        return CriticSyntaxError(message, self.s, self.i if pos is None else pos)

    def ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def at_word(self, word: str) -> bool:
        self.ws()
        return bool(re.match(rf"{word}\b", self.s[self.i :]))

    def eat(self, token: str) -> bool:
        self.ws()
        if self.s.startswith(token, self.i):
            self.i += len(token)
            return True
        return False

    def parse(self) -> Critic:
        clauses = []
        while True:
            self.ws()
            if self.i >= len(self.s) or self.s[self.i] == ";":
                raise self.error("empty clause")
            clauses.append(self.parse_or())
            self.ws()
            if self.i >= len(self.s):
                break
            if not self.eat(";"):
                raise self.error(f"unexpected {self.s[self.i]!r}; expected 'and', 'or' or ';'")
            self.ws()
            if self.i >= len(self.s):
                break  # a trailing ';' is harmless
        return Critic(self.s, tuple(clauses))

    def parse_or(self) -> Node:
        return self._chain("or", self.parse_and, Or)

    def parse_and(self) -> Node:
        return self._chain("and", self.parse_not, And)

    def _chain(
        self, word: str, operand: Callable[[], Node], node: Callable[[tuple[Node, ...]], Node]
    ) -> Node:
        """``operand (word operand)*``: the operand alone, or ``node`` of all of them."""
        items = [operand()]
        while self.at_word(word):
            self.i += len(word)
            items.append(operand())
        return items[0] if len(items) == 1 else node(tuple(items))

    def parse_not(self) -> Node:
        self.ws()
        if self.at_word("not"):
            self.i += 3
            return Not(self.parse_not())
        if self.eat("("):
            inner = self.parse_or()
            if not self.eat(")"):
                raise self.error("expected ')'")
            return inner
        return self.parse_compare()

    def parse_ref(self, allow_implicit: bool = True) -> Ref:
        self.ws()
        start = self.i
        if self.s.startswith("device(", self.i):
            self.i += len("device(")
            self.ws()
            if self.i < len(self.s) and self.s[self.i] in "'\"":
                did = self.parse_quoted()
                if not did:
                    raise self.error("a quoted device id cannot be empty")
                self.ws()
            else:
                m = _ID.match(self.s, self.i)
                if not m or not m.group(1):
                    raise self.error(
                        "expected a device id after 'device(' (quote ids with other characters)"
                    )
                self.i = m.end()
                did = m.group(1)
            if not self.eat(")"):
                raise self.error("expected ')' after the device id")
            if not self.eat("."):
                raise self.error("expected '.attribute' after device(...)")
            path = self.parse_path()
            ref = Ref(did, path)
            self.did = ref.did
        else:
            if not allow_implicit:
                raise self.error("expected device(ID).attribute")
            if not _NAME.match(self.s, self.i):
                raise self.error("expected an attribute path or device(ID)")
            path = self.parse_path()
            if self.did is None:
                raise self.error(f"'{path}' has no device: name one with device(ID) first", start)
            ref = Ref(self.did, path, implicit=True, namespace=self.namespace)
        self.namespace = (
            ref.path.rsplit(".", 1)[0]
            if "." in ref.path
            else self.namespace
            if ref.implicit
            else ""
        )
        return ref

    def parse_path(self) -> str:
        parts = []
        while True:
            m = _NAME.match(self.s, self.i)
            if not m:
                raise self.error("expected an attribute name")
            parts.append(m.group(0))
            self.i = m.end()
            if self.i < len(self.s) and self.s[self.i] == "." and _NAME.match(self.s, self.i + 1):
                self.i += 1
                continue
            return ".".join(parts)

    def parse_compare(self) -> Node:
        left = self.parse_ref()
        self.ws()
        if self.at_word("not"):
            save = self.i
            self.i += 3
            if not self.at_word("in"):
                raise self.error("expected 'in' after 'not'", save)
            self.i += 2
            return InSet(left, self.parse_set(), negated=True)
        if self.at_word("in"):
            self.i += 2
            return InSet(left, self.parse_set())
        for op in _OPS:
            if self.s.startswith(op, self.i):
                self.i += len(op)
                return Compare(left, op, self.parse_value())
        raise self.error("expected a comparison operator (==, !=, <, <=, >, >=, in)")

    def parse_set(self) -> tuple[Lit, ...]:
        if not self.eat("{"):
            raise self.error("expected '{' to start a set")
        values = []
        while True:
            values.append(self.parse_literal(stops=",}"))
            if self.eat(","):
                continue
            if self.eat("}"):
                return tuple(values)
            raise self.error("expected ',' or '}' in a set")

    def parse_value(self) -> Ref | Lit:
        self.ws()
        if self.s.startswith("device(", self.i):
            saved = (self.did, self.namespace)
            ref = self.parse_ref(allow_implicit=False)
            self.did, self.namespace = (
                saved  # a reference on the right does not move the implicit device
            )
            return ref
        return self.parse_literal(stops=";)")

    def parse_quoted(self) -> str:
        """The text of a quoted string at the cursor (``\\`` escapes the next character)."""
        quote = self.s[self.i]
        j = self.i + 1
        out = []
        while j < len(self.s) and self.s[j] != quote:
            if self.s[j] == "\\" and j + 1 < len(self.s):
                j += 1
            out.append(self.s[j])
            j += 1
        if j >= len(self.s):
            raise self.error("unterminated string")
        self.i = j + 1
        return "".join(out)

    def parse_literal(self, stops: str) -> Lit:
        self.ws()
        if self.i < len(self.s) and self.s[self.i] in "'\"":
            return Lit(self.parse_quoted(), quoted=True)
        start = self.i
        j = self.i
        while j < len(self.s) and self.s[j] not in stops:
            if self.s[j].isspace() and re.match(r"\s+(and|or)\b", self.s[j:]):
                break
            j += 1
        raw = self.s[start:j].strip()
        if not raw or raw in ("and", "or"):
            raise self.error("expected a value", start)
        self.i = start + len(self.s[start:j].rstrip())
        return Lit(raw)


def parse(text: str) -> Critic:
    """Parse a critic; raises :class:`CriticSyntaxError` with the column of the problem."""
    return _Parser(text).parse()


# ----------------------------------------------------------------------------- evaluation
class _Missing(Exception):
    pass


def _lookup(source: ValueSource, ref: Ref) -> tuple[str, Any]:
    candidates = [ref.path]
    if ref.implicit and ref.namespace and "." not in ref.path:
        candidates.append(f"{ref.namespace}.{ref.path}")
    last = ""
    for loc in candidates:
        try:
            return loc, source.value(ref.did, loc)
        except LookupError as e:
            last = str(e)
    if ref.implicit and isinstance(source, Mapping) and ref.did in source:
        keys = [k for k in source[ref.did] if k.endswith("." + ref.path)]
        if len(keys) == 1:
            return keys[0], source.value(ref.did, keys[0])
    for loc in candidates:  # a field inside an object attribute: the longest attribute first
        found = _field_lookup(source, ref.did, loc)
        if found is not None:
            return found
    raise _Missing(last or f"device {ref.did!r} has no attribute {ref.path!r}")


def _field_lookup(source: ValueSource, did: str, path: str) -> tuple[str, Any] | None:
    """``(path, value)`` when ``path`` is an attribute followed by fields of its value
    (``1.Channel.CurrentChannel.majorNumber``), else None."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            value = source.value(did, ".".join(parts[:cut]))
        except LookupError:
            continue
        for field in parts[cut:]:
            if isinstance(value, Mapping) and field in value:
                value = value[field]
            elif isinstance(value, (list, tuple)) and field.isdigit() and int(field) < len(value):
                value = value[int(field)]
            else:
                return None
        return path, value
    return None


def _literal_value(lit: Lit, actual: Any) -> Any:
    raw = lit.raw
    if lit.quoted:
        return raw
    if isinstance(actual, bool):
        low = raw.lower()
        return True if low == "true" else False if low == "false" else raw
    if isinstance(actual, (int, float)) and _NUMBER.match(raw):
        return float(raw)
    if actual is None and raw in ("None", "null"):
        return None
    return raw


def _equal(actual: Any, lit: Lit) -> bool:
    want = _literal_value(lit, actual)
    if isinstance(actual, bool) or isinstance(want, bool):
        return isinstance(actual, bool) and isinstance(want, bool) and actual == want
    if isinstance(actual, (int, float)) and isinstance(want, float):
        return abs(actual - want) < 1e-9
    if isinstance(actual, str):
        return actual == str(want)
    return str(actual) == str(want)


def _order(actual: Any, op: str, other: Any) -> bool:
    if isinstance(actual, bool) or isinstance(other, bool):
        return False
    try:
        a, b = float(actual), float(other)
    except (TypeError, ValueError):
        return False
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _eval(node: Node, source: ValueSource, out: list[ClauseResult] | None) -> bool:
    if isinstance(node, And):
        results = [_eval(i, source, out) for i in node.items]
        return all(results)
    if isinstance(node, Or):
        results = [_eval(i, source, out) for i in node.items]
        return any(results)
    if isinstance(node, Not):
        return not _eval(node.item, source, out)
    try:
        loc, actual = _lookup(source, node.left)
    except _Missing as e:
        if out is not None:
            expected = (
                [v.raw for v in node.values] if isinstance(node, InSet) else node.right.to_text()
            )
            op = ("not in" if node.negated else "in") if isinstance(node, InSet) else node.op
            out.append(
                ClauseResult(node.left.did, node.left.path, None, op, expected, False, str(e))
            )
        return False
    reason = ""
    if isinstance(node, InSet):
        hit = any(_equal(actual, v) for v in node.values)
        passed = hit != node.negated
        op, expected = ("not in" if node.negated else "in"), [v.raw for v in node.values]
    else:
        op = node.op
        if isinstance(node.right, Ref):
            try:
                _, other = _lookup(source, node.right)
            except _Missing as e:
                other, reason = None, str(e)
            expected = other
            if reason:
                passed = False
            elif op in ("==", "!="):
                passed = (
                    actual == other and isinstance(actual, bool) == isinstance(other, bool)
                ) == (op == "==")
            else:
                passed = _order(actual, op, other)
        else:
            expected = node.right.raw
            if op in ("==", "!="):
                passed = _equal(actual, node.right) == (op == "==")
            else:
                passed = _order(actual, op, _literal_value(node.right, actual))
    if out is not None:
        out.append(ClauseResult(node.left.did, loc, actual, op, expected, passed, reason))
    return passed


def unchanged_except(
    before: Snapshot, after: Snapshot, allowed_dids: set[str] | frozenset[str]
) -> list[Change]:
    """Changes on devices outside ``allowed_dids`` (irrelevant-state preservation)."""
    return [c for c in diff(before, after) if c.did not in allowed_dids]
