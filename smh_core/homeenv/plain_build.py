"""Writes :mod:`.plain_schemas`: the home model's pydantic-core schema, as pydantic generates it.

The plain form of the home model (:mod:`.plain`) validates with pydantic-core alone, so it needs
the core schema that pydantic builds from :mod:`.model`, :mod:`.dynamics` and :mod:`.rules`
without importing them. This module builds that schema (one for every model class, sharing
their definitions) and writes it as Python source in which each class, check or default
factory is named, not embedded: ``cls("Home")`` for a model class, ``fn("AttrType.STR")`` for
anything in :mod:`.shapes`. References get stable names (pydantic's carry an object id) and
the JSON-schema metadata is dropped. ``tests/homeenv/test_plain_form.py`` fails when the
written file is not what this writes, so a change to the models must be followed by::

    python -m smh_core.homeenv.plain_build

The pydantic models stay the one definition; this file only moves their schema.
"""

from __future__ import annotations

import ast
import hashlib
import re
import sys
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, create_model

from . import dynamics, model, rules, shapes


def target(text: str) -> Path:
    """The file of schema ``text``: named by its content, so pydantic versions that generate the
    same schema share one file (:data:`.plain_schemas.WRITTEN_FOR` says which is whose)."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    return Path(__file__).parent / "plain_schemas" / f"schema_{digest}.py"


def _record(version: str, name: str) -> None:
    """``WRITTEN_FOR[version] = name`` in plain_schemas/__init__.py (its one generated block),
    which also imports every schema module by name, so that a reader of the source (the HACS
    build's import walk, tests/test_layers.py) sees them all."""
    init = Path(__file__).parent / "plain_schemas" / "__init__.py"
    text = init.read_text(encoding="utf-8")
    start = text.index(f"\n{BEGIN}\n") + len(BEGIN) + 1
    end = text.index(f"\n{END}\n") + 1
    block = text[start:end]
    table = dict(ast.literal_eval(block[block.index("{") : block.rindex("}") + 1]))
    table[version] = name
    names = sorted(set(table.values()))
    lines = "".join(f'    "{v}": "{table[v]}",\n' for v in sorted(table))
    one_line = f"from . import {', '.join(names)}\n"
    imports = (
        one_line
        if len(one_line) <= 100
        else "from . import (\n" + "".join(f"    {n},\n" for n in names) + ")\n"
    )  # as ruff writes it
    block = (
        f"\n{imports}\nSCHEMAS = ({', '.join(names)}{',' if len(names) == 1 else ''})\n"
        f"WRITTEN_FOR: dict[str, str] = {{\n{lines}}}\n"
    )
    init.write_text(text[:start] + block + text[end:], encoding="utf-8")


MODULES = (model, dynamics, rules)
BEGIN = "# --- written by smh_core.homeenv.plain_build"
END = "# --- end of what plain_build writes"
"""The lines around plain_schemas/__init__.py's generated block."""
DROPPED_KEYS = frozenset({"metadata"})
"""Keys of a core schema that only JSON schema reads (they hold pydantic's functions)."""


def model_classes() -> dict[str, type[BaseModel]]:
    """Every model class of the home model, by name, in definition order of its modules."""
    out: dict[str, type[BaseModel]] = {}
    for module in MODULES:
        for name, value in vars(module).items():
            if (
                isinstance(value, type)
                and issubclass(value, BaseModel)
                and value.__module__ == module.__name__
                and not name.startswith("_")
            ):
                out[name] = value
    return out


def combined_schema() -> dict[str, Any]:
    """``{"models": {name: its schema}, "definitions": [...]}``: every model class's core
    schema, as pydantic generates it for a model with one field of each, their shared
    definitions once (a schema is whole with the definitions beside it)."""
    classes = model_classes()
    for cls in classes.values():
        cls.model_rebuild()
    fields: dict[str, Any] = {name: (cls, ...) for name, cls in classes.items()}
    every = create_model("EveryHomeModel", **fields)
    root: dict[str, Any] = dict(every.__pydantic_core_schema__)
    definitions = root.get("definitions", []) if root["type"] == "definitions" else []
    body = root["schema"] if root["type"] == "definitions" else root
    assert body["type"] == "model" and body["cls"] is every, body["type"]
    found = body["schema"]["fields"]
    return {
        "models": {n: found[n]["schema"] for n in classes},
        "configs": {n: _core_config(cls) for n, cls in classes.items()},
        "definitions": definitions,
    }


def _core_config(cls: type[BaseModel]) -> dict[str, Any]:
    """The validator configuration pydantic gives the model's own validator (its title names
    the model in error messages; alias and name handling)."""
    from pydantic._internal._config import ConfigWrapper  # what pydantic's model class uses

    return dict(ConfigWrapper(cls.model_config).core_config(title=cls.__name__))


class _Name:
    """A named object in the written source: ``cls("Home")`` or ``fn("AttrType.STR")``."""

    def __init__(self, call: str, name: str) -> None:
        self.source = f'{call}("{name}")' if call else name


def _stable_ref(ref: str) -> str:
    return re.sub(r":\d+$", "", ref)


def _named(value: Any, classes: dict[type, str]) -> _Name | None:
    if isinstance(value, type) and value in classes:
        return _Name("cls", classes[value])
    if isinstance(value, Enum) and type(value).__module__ == shapes.__name__:
        return _Name("fn", f"{type(value).__qualname__}.{value.name}")
    qualname = getattr(value, "__qualname__", None)
    if getattr(value, "__module__", None) == shapes.__name__ and qualname:
        return _Name("fn", qualname)
    return None


def _clean(node: Any, classes: dict[type, str]) -> Any:
    """The schema with objects named, refs made stable and JSON-schema metadata dropped."""
    named = _named(node, classes)
    if named is not None:
        return named
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in DROPPED_KEYS:
                continue
            if key in ("ref", "schema_ref") and isinstance(value, str):
                out[key] = _stable_ref(value)
            else:
                out[key] = _clean(value, classes)
        return out
    if isinstance(node, list | tuple):
        items = [_clean(v, classes) for v in node]
        return items if isinstance(node, list) else tuple(items)
    if node is list or node is dict:
        return _Name("", node.__name__)
    if node is None or isinstance(node, str | int | float | bool):
        return node
    raise TypeError(f"the home model's core schema holds {node!r}, which has no name to write")


def _source(node: Any) -> str:
    """``node`` as one Python expression (no line breaks: the file is read, not edited)."""
    if isinstance(node, _Name):
        return node.source
    if isinstance(node, dict):
        return "{" + ", ".join(f"{k!r}: {_source(v)}" for k, v in node.items()) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(_source(v) for v in node) + "]"
    if isinstance(node, tuple):
        return "(" + "".join(f"{_source(v)}, " for v in node) + ")"
    return repr(node)


def _layout(schema: dict[str, Any]) -> str:
    """The schema's source with a line per model and per definition."""
    models = "".join(f"            {k!r}: {_source(v)},\n" for k, v in schema["models"].items())
    defs = "".join(f"            {_source(v)},\n" for v in schema["definitions"])
    configs = "".join(f"            {k!r}: {_source(v)},\n" for k, v in schema["configs"].items())
    return (
        "{\n"
        f'        "models": {{\n{models}        }},\n'
        f'        "configs": {{\n{configs}        }},\n'
        f'        "definitions": [\n{defs}        ],\n'
        "    }"
    )


def _hoisted(schema: dict[str, Any]) -> dict[str, Any]:
    """Every schema that carries a ``ref`` written once, as a definition, and referred to
    everywhere else: pydantic inlines a model at each place it is used, which repeats the
    whole device model in every model that holds one (the file, and building it, ~4x)."""
    found: dict[str, Any] = {}

    def hoist(node: Any) -> Any:
        if isinstance(node, dict):
            node = {k: hoist(v) for k, v in node.items()}
            ref = node.get("ref")
            if isinstance(ref, str) and node.get("type") != "definition-ref":
                found.setdefault(ref, node)
                return {"type": "definition-ref", "schema_ref": ref}
            return node
        if isinstance(node, list):
            return [hoist(v) for v in node]
        return node

    models = {name: hoist(s) for name, s in schema["models"].items()}
    for d in schema["definitions"]:
        hoist(d)
    definitions = [found[ref] for ref in sorted(found)]
    return {"models": models, "configs": schema["configs"], "definitions": definitions}


def render() -> str:
    """The source of the schema module, as this commit's models and the pydantic installed
    generate it (the same for every pydantic that generates the same schema)."""
    classes = {cls: name for name, cls in model_classes().items()}
    schema = _hoisted(_clean(combined_schema(), classes))
    names = ", ".join(f'"{n}"' for n in classes.values())
    return (
        '"""The home model\'s pydantic-core schema: written by ``python -m '
        "smh_core.homeenv.plain_build``, never by hand.\n\n"
        "``MODELS`` names every model class; :func:`core_schema` gives each one's core schema\n"
        "(``models``) and the definitions they share, each object named: ``cls(name)`` a model\n"
        "class, ``fn(name)`` a :mod:`smh_core.homeenv.shapes` attribute (a check, an enum or its\n"
        'member, a default)."""\n\n'
        "# ruff: noqa\n"
        "from __future__ import annotations\n\n"
        "from collections.abc import Callable\n"
        "from typing import Any\n\n"
        f"MODELS: tuple[str, ...] = ({names})\n\n\n"
        "def core_schema(cls: Callable[[str], type], fn: Callable[[str], Any]) -> Any:\n"
        f"    return {_layout(schema)}\n"
    )


def main() -> int:
    """Write the schema for the pydantic installed (if no file holds it yet) and record which
    file is the one for its pydantic-core."""
    import pydantic_core

    text = render()
    path = target(text)
    if not path.exists():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(text):,} characters)")
    _record(pydantic_core.__version__, path.stem)
    print(f"pydantic-core {pydantic_core.__version__}: {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
