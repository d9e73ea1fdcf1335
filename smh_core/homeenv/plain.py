"""The home model's plain form: the same models validated by pydantic-core alone, without pydantic.

Importing pydantic and building the home model's classes costs Home Assistant's set-up about
100 ms of a cold start (issue 37, docs/performance.md), more than the lightest peer's whole
set-up. Here each model class of :mod:`.model`, :mod:`.dynamics` and :mod:`.rules` has a plain
twin of the same name: a small class deriving from the model's shape (:mod:`.shapes`: its
methods and checks) and :class:`PlainModel`, filled by a pydantic-core validator built from
the schema pydantic itself generates (:mod:`.plain_schemas`, written by :mod:`.plain_build` and
checked against pydantic by a test). So a home read this way is validated exactly as
``Home.model_validate`` validates it: same checks, same errors, same defaults, same values;
only the objects' classes differ, and they offer what the engine, the simulator and Home
Assistant's entities use of a model (fields, the shapes' methods, ``model_copy``,
``model_dump``, ``model_validate``, equality).

Which form an object is does not matter to the code reading it; code that makes a model
object beside others uses :func:`same_form` so a home never mixes the two.
"""

from __future__ import annotations

import copy
import importlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from . import shapes
from .plain_schemas import written_for

if TYPE_CHECKING:
    from pydantic_core import SchemaSerializer, SchemaValidator

CORE = "pydantic_core._pydantic_core"


def _compiled_core() -> ModuleType:
    """pydantic-core's compiled module, without running its package's Python half where it can.

    ``import pydantic_core`` also imports ``pydantic_core.core_schema`` (some 200 typed dicts
    that only describe schemas to a type checker): about 8 ms of Home Assistant's cold start,
    where this module needs only the validator. So the compiled module is loaded from the
    package's folder under its own name, as the package would load it; the package itself is
    imported later by whatever asks for it (a serializer, an error's text, pydantic), finds
    this module loaded and uses it. Anything unexpected (another layout, another loader)
    imports the package as usual.
    """
    loaded = sys.modules.get(CORE)
    if loaded is not None:
        return loaded
    try:
        spec = importlib.util.find_spec("pydantic_core")
        folder = Path(next(iter(spec.submodule_search_locations or ()))) if spec else None
        suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        found = (
            [p for p in folder.iterdir() if p.name.startswith("_pydantic_core.")] if folder else []
        )
        path = next(p for p in found if p.name.endswith(suffixes))
        loader = importlib.machinery.ExtensionFileLoader(CORE, str(path))
        module_spec = importlib.util.spec_from_file_location(CORE, path, loader=loader)
        assert module_spec is not None
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[CORE] = module
        try:
            loader.exec_module(module)
        except BaseException:
            sys.modules.pop(CORE, None)
            raise
        return module
    except Exception:  # noqa: BLE001 (any surprise: the package's own way)
        import pydantic_core

        return pydantic_core._pydantic_core


_core = _compiled_core()


WRITTEN = written_for(_core.__version__)
"""The schema module written for the pydantic-core installed; ``None`` if there is none."""


class PlainModel:
    """What a plain model object offers beyond its fields and its shape's methods.

    pydantic-core fills ``__dict__`` (the fields) and the three ``__pydantic_*__`` slots, as it
    does for a pydantic model; the methods below follow ``pydantic.BaseModel``'s.
    """

    __slots__ = (
        "__dict__",
        "__weakref__",  # the engine caches compiled devices by weak reference
        "__pydantic_fields_set__",
        "__pydantic_extra__",
        "__pydantic_private__",
    )
    model_name: ClassVar[str]
    if TYPE_CHECKING:
        __pydantic_fields_set__: set[str]
        __pydantic_extra__: dict[str, Any] | None
        __pydantic_private__: dict[str, Any] | None

    def __init__(self, **data: Any) -> None:
        validator(self.model_name).validate_python(data, self_instance=self)

    @classmethod
    def model_validate(cls, obj: Any) -> Any:
        return validator(cls.model_name).validate_python(obj)

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> Any:
        return validator(cls.model_name).validate_json(data)

    @property
    def model_fields_set(self) -> set[str]:
        fields: set[str] = self.__pydantic_fields_set__
        return fields

    def model_dump(
        self,
        *,
        mode: Literal["json", "python"] = "python",
        by_alias: bool | None = None,
        exclude_none: bool = False,
        exclude_defaults: bool = False,
        exclude_unset: bool = False,
        include: Any = None,
        exclude: Any = None,
    ) -> dict[str, Any]:
        out: dict[str, Any] = serializer(self.model_name).to_python(
            self,
            mode=mode,
            by_alias=by_alias,
            exclude_none=exclude_none,
            exclude_defaults=exclude_defaults,
            exclude_unset=exclude_unset,
            include=include,
            exclude=exclude,
        )
        return out

    def model_dump_json(
        self,
        *,
        indent: int | None = None,
        by_alias: bool | None = None,
        exclude_none: bool = False,
        exclude_defaults: bool = False,
    ) -> str:
        return (
            serializer(self.model_name)
            .to_json(
                self,
                indent=indent,
                by_alias=by_alias,
                exclude_none=exclude_none,
                exclude_defaults=exclude_defaults,
            )
            .decode()
        )

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any:
        copied = self.__deepcopy__({}) if deep else self.__copy__()
        if update:
            copied.__dict__.update(update)
            copied.__pydantic_fields_set__.update(update)
        return copied

    def __copy__(self) -> Any:
        new = type(self).__new__(type(self))
        object.__setattr__(new, "__dict__", dict(self.__dict__))
        object.__setattr__(new, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        object.__setattr__(new, "__pydantic_extra__", self.__pydantic_extra__)
        object.__setattr__(new, "__pydantic_private__", self.__pydantic_private__)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        new = type(self).__new__(type(self))
        object.__setattr__(new, "__dict__", copy.deepcopy(self.__dict__, memo))
        object.__setattr__(new, "__pydantic_fields_set__", set(self.__pydantic_fields_set__))
        object.__setattr__(new, "__pydantic_extra__", None)
        object.__setattr__(new, "__pydantic_private__", None)
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {"fields": self.__dict__, "set": self.__pydantic_fields_set__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "__dict__", state["fields"])
        object.__setattr__(self, "__pydantic_fields_set__", state["set"])
        object.__setattr__(self, "__pydantic_extra__", None)
        object.__setattr__(self, "__pydantic_private__", None)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return bool(self.__dict__ == other.__dict__)

    __hash__ = None  # type: ignore[assignment]  # mutable, as pydantic's models are

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__}({fields})"


def _plain_class(name: str) -> type[PlainModel]:
    shape = getattr(shapes, f"{name}Shape")
    made = type(name, (shape, PlainModel), {"__slots__": (), "model_name": name})
    made.__module__ = __name__
    return made


CLASSES: dict[str, type[PlainModel]] = {
    name: _plain_class(name) for name in (WRITTEN.MODELS if WRITTEN is not None else ())
}
"""Model name -> its plain class (``CLASSES["Home"]``)."""


def __getattr__(name: str) -> type[PlainModel]:
    """``plain.Home`` and the rest, so pickle finds a plain class by its module and name."""
    try:
        return CLASSES[name]
    except KeyError:
        raise AttributeError(name) from None


def usable() -> bool:
    """Whether the written schema is for the pydantic-core that runs here. pydantic pins its
    core to one version and generates its schema for it; another core (the one another Home
    Assistant release installs) may read a schema differently or not at all, so where the
    versions differ nothing is read in the plain form: callers take the pydantic models
    (:func:`model`, ``load_home(plain=True)``), which are right by definition, only slower to
    load. ``python -m smh_core.homeenv.plain_build`` writes the schema for the core installed."""
    return WRITTEN is not None


def model(name: str, data: Any) -> Any:
    """Model ``name`` made from ``data``: plain where :func:`usable`, else the pydantic model."""
    return validate(name, data) if usable() else _pydantic_class(name).model_validate(data)


def _pydantic_class(name: str) -> Any:
    from . import dynamics, model, rules  # the pydantic form: imports pydantic

    for module in (model, dynamics, rules):
        if name in vars(module):
            return getattr(module, name)
    raise KeyError(f"no home model named {name!r}")


def _shape_attribute(name: str) -> Any:
    value: Any = shapes
    for part in name.split("."):
        value = getattr(value, part)
    return value


@cache
def _schema() -> dict[str, Any]:
    written: dict[str, Any] = WRITTEN.core_schema(CLASSES.__getitem__, _shape_attribute)
    return written


@cache
def _whole(name: str) -> dict[str, Any]:
    """The core schema of model ``name`` with the definitions it refers to, directly or through
    others (only those: building a validator reads every definition it is given, and an
    attribute's needs 4 of the home's 34); worked out once for its validator and serializer."""
    schema = _schema()
    by_ref = {d["ref"]: d for d in schema["definitions"]}
    needed: dict[str, Any] = {}
    todo = [schema["models"][name]]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("schema_ref")
            if node.get("type") == "definition-ref" and isinstance(ref, str) and ref not in needed:
                needed[ref] = by_ref[ref]
                todo.append(by_ref[ref])
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return {
        "type": "definitions",
        "schema": schema["models"][name],
        "definitions": [needed[ref] for ref in sorted(needed)],
    }


def validator(name: str) -> SchemaValidator:
    """The validator of model ``name`` into plain objects (built on its first use: ~1 ms)."""
    if not usable():
        raise RuntimeError(
            f"no plain schema of the home model is written for pydantic-core "
            f"{_core.__version__}: use the pydantic models (plain.usable())"
        )
    if name not in CLASSES:
        raise KeyError(f"no home model named {name!r}")
    return _validator(name)


@cache
def _validator(name: str) -> SchemaValidator:
    validator: SchemaValidator = _core.SchemaValidator(_whole(name), _schema()["configs"][name])
    return validator


@cache
def serializer(name: str) -> SchemaSerializer:
    made: SchemaSerializer = _core.SchemaSerializer(_whole(name), _schema()["configs"][name])
    return made


def validate(name: str, data: Any) -> Any:
    """``data`` (a mapping, or a model object of either form) as a plain model ``name``."""
    if hasattr(data, "model_dump") and not isinstance(data, PlainModel):
        data = data.model_dump(by_alias=True)
    return validator(name).validate_python(data)


def validate_json(name: str, text: str | bytes) -> Any:
    """A JSON document as a plain model ``name`` (pydantic-core parses and validates it)."""
    return validator(name).validate_json(text)


def is_plain(obj: object) -> bool:
    return isinstance(obj, PlainModel)


def same_form(like: object, name: str, data: Any) -> Any:
    """Model ``name`` made from ``data`` (a mapping, or a model object of either form) in
    ``like``'s form: plain beside a plain object, the pydantic model beside a pydantic one, so a
    home never holds both (pydantic would refuse to write a plain object inside its own). An
    object of that model already in that form is returned as it is."""
    wanted_plain = is_plain(like)
    if type(data).__name__ == name and is_plain(data) == wanted_plain:
        return data
    if hasattr(data, "model_dump"):
        data = data.model_dump(by_alias=True)
    if wanted_plain:
        return validator(name).validate_python(data)
    return _pydantic_class(name).model_validate(data)  # loaded with ``like`` already
