"""The home a task names, for every path that runs one: the embedded runner, the hardware run,
the benchmark inside Home Assistant and the SMH integration's own entries.

A :class:`~smh_core.task.model.HomeRef` (level + seed, a Matter seed, or a file) is turned into
a home model here and only here (:func:`build_home`, cached per run by :class:`HomeCache`), into
an SMH config entry's options and back (:func:`entry_options`, :func:`ref_from_entry_options`:
the benchmark inside HA switches the entry to a task's home, the entry names its home by the
same key), and a task's starting engine gets its climate and overrides here
(:func:`prepare_engine`; HA applies the same :func:`override_updates` on its own engine).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.homes.ref import (  # noqa: F401  (entry options: re-exported for the runners)
    ENTRY_SOURCE,
    entry_options,
    generated_home,
    ref_from_entry_options,
)

from .climate import ClimateError, apply_climate
from .model import MAX_JSON_DEPTH, HomeRef, Task, first_problem, json_too_deep


class TaskError(ValueError):
    """A task that cannot be prepared (its home is refused or invalid, an override does not
    apply, a critic does not parse): the task's fault, not the model's or the endpoint's.
    ``kind`` says which part (``home``, ``override``, ``goal``, ``start_time``), ``field`` the
    task field at fault when one is (``home.file``)."""

    def __init__(self, task_id: str, kind: str, message: str, field: str | None = None) -> None:
        self.task_id, self.kind, self.message, self.field = task_id, kind, message, field
        super().__init__(
            f"task {task_id}: {field}: {message}" if field else f"task {task_id}: {message}"
        )

    def to_dict(self) -> dict[str, str]:
        info = {"kind": self.kind, "message": self.message[:500]}
        return {**info, "field": self.field} if self.field else info


class HomeFileError(ValueError):
    """A home file that is refused or unusable. The message names the path and the problem,
    never the file's contents: with ``../`` in a task file the path could be any file."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path, self.problem = str(path), problem
        super().__init__(f"{path}: {problem}")


MAX_HOME_BYTES = 64 * 2**20
"""Shipped homes are under 100 kB; a larger file is refused rather than read into memory."""


def resolve_inside(base: Path, name: str, allow_outside: bool = False) -> Path:
    """``name`` (a task's ``home.file``) resolved against ``base``; it must stay inside ``base``
    after resolving ``..`` and symlinks, unless ``allow_outside``: an absolute path or
    ``../../`` in a task file would otherwise read any file the user can read."""
    root = base.resolve()
    try:
        path = (root / name).resolve()
    except (OSError, ValueError, RuntimeError) as e:  # a NUL byte, a symlink loop
        raise HomeFileError(name, f"not a usable path ({type(e).__name__})") from None
    if not allow_outside and not path.is_relative_to(root):
        raise HomeFileError(
            name, f"resolves to {path}, outside {root}; pass --allow-outside-paths to read it"
        )
    return path


def read_home_file(path: Path) -> Home:
    """Load a home JSON file. Unlike :func:`smh_core.homeenv.engine.load_home`, whose errors
    quote the offending input, every error here names only the path, a line or field and the
    problem; a directory, a device file, a huge or deeply nested file are refused up front."""
    raw = _home_json(path)
    try:
        return Home.model_validate(raw)
    except ValidationError as e:
        field, problem = first_problem(e, "(home)")
        raise HomeFileError(path, f"invalid home: {field}: {problem}") from None
    except (TypeError, KeyError, AttributeError, RecursionError) as e:
        raise HomeFileError(path, f"invalid home ({type(e).__name__})") from None


def _home_json(path: Path) -> Any:
    """The parsed JSON of a home file, or a :class:`HomeFileError` saying why not."""
    try:
        if not path.is_file():
            raise HomeFileError(path, "not a regular file" if path.exists() else "no such file")
        if path.stat().st_size > MAX_HOME_BYTES:
            raise HomeFileError(path, f"larger than {MAX_HOME_BYTES // 2**20} MiB")
        data = path.read_bytes()
    except OSError as e:
        raise HomeFileError(path, f"cannot read ({e.strerror or type(e).__name__})") from None
    try:
        raw = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise HomeFileError(path, f"not UTF-8 text (byte {e.start + 1})") from None
    except json.JSONDecodeError as e:
        raise HomeFileError(
            path, f"line {e.lineno}: invalid JSON: {e.msg} (column {e.colno})"
        ) from None
    except RecursionError:
        raise HomeFileError(path, "invalid JSON: nested too deeply") from None
    if json_too_deep(raw):
        raise HomeFileError(path, f"nested more than {MAX_JSON_DEPTH} levels deep")
    return raw


def build_home(ref: HomeRef, base: Path, allow_outside: bool = False) -> Home:
    """The home model ``ref`` names: a file under ``base`` (see :func:`resolve_inside`), a
    SimuHome-style Matter home or a generated HomeEnv home (same seed, same home)."""
    if ref.file is not None:
        return read_home_file(resolve_inside(base, ref.file, allow_outside))
    return generated_home(ref)


def override_updates(task: Task) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """``(field, did, values)`` of each of the task's overrides, in order: the embedded runner
    and ``smh.load_task`` apply the same list (with the engine's own checks)."""
    for i, override in enumerate(task.overrides):
        yield f"overrides.{i}", override.did, override.values


class HomeCache:
    """Home models by reference, each built once. A task's ``home.file`` resolves against its
    task file's directory (``bases``, by task id, else ``base``) and must stay inside it unless
    ``allow_outside`` (see :func:`resolve_inside`). A home that cannot be built is remembered,
    so every task on it fails alike without reading the file again."""

    def __init__(
        self,
        base: Path | None = None,
        allow_outside: bool = False,
        bases: Mapping[str, Path] | None = None,
    ) -> None:
        self.base = base or Path.cwd()
        self.allow_outside = allow_outside
        self.bases = dict(bases or {})
        self._homes: dict[str, Home] = {}
        self._failed: dict[str, TaskError] = {}

    def base_for(self, task: Task) -> Path:
        """The directory the task's ``home.file`` resolves against (callers may pass any object
        with a ``home``, e.g. a mapping's probe, which then uses ``base``)."""
        return self.bases.get(getattr(task, "id", ""), self.base)

    def cache_key(self, task: Task) -> str:
        """Which cached home the task uses: file homes are keyed by their base directory too."""
        if task.home.file is None:
            return task.home.key()
        return f"{self.base_for(task).resolve()}|{task.home.key()}"

    def get(self, task: Task) -> Home:
        """The task's home model (shared: callers copy it); a :class:`TaskError` when it cannot
        be built."""
        key = self.cache_key(task)
        home = self._homes.get(key)
        if home is not None:
            return home
        task_id = getattr(task, "id", "(none)")
        if key not in self._failed:
            try:
                self._homes[key] = self._build(task)
                return self._homes[key]
            except HomeFileError as e:
                self._failed[key] = TaskError(task_id, "home", str(e), field="home.file")
            except (
                Exception
            ) as e:  # a bug in building it: the task's home, still not the model's fault
                detail = (
                    type(e).__name__ if task.home.file is not None else f"{type(e).__name__}: {e}"
                )
                self._failed[key] = TaskError(
                    task_id, "home", f"home {task.home.key()} cannot be built ({detail})"
                )
        failed = self._failed[key]
        raise TaskError(task_id, failed.kind, failed.message, failed.field)

    def _build(self, task: Task) -> Home:
        return build_home(task.home, self.base_for(task), self.allow_outside)


def home_file_problems(tasks: Sequence[Task], homes: HomeCache) -> Iterator[tuple[Task, TaskError]]:
    """The first task of every home file that cannot be loaded, with the error: a run checks
    its input files before it spends a model call (homes are cached, so this is no extra work)."""
    seen: set[str] = set()
    for task in tasks:
        if task.home.file is None:
            continue
        key = homes.cache_key(task)
        if key in seen:
            continue
        seen.add(key)
        try:
            homes.get(task)
        except TaskError as e:
            yield task, e


def prepare_engine(task: Task, homes: HomeCache) -> HomeEngine:
    """A fresh engine on the task's home with its climate and overrides applied;
    :class:`TaskError` when the home cannot be built, the climate names a room the home does
    not have, or an override does not apply."""
    try:
        home = homes.get(task)
        if task.climate is not None:
            home = apply_climate(home, task.climate)
        engine = HomeEngine(home)
    except TaskError:
        raise
    except ClimateError as e:
        raise TaskError(task.id, "climate", str(e), field=e.field) from None
    except Exception as e:
        raise TaskError(
            task.id, "home", f"home {task.home.key()} cannot be loaded ({type(e).__name__}: {e})"
        ) from e
    for _field, did, values in override_updates(task):
        try:
            result = engine.set_values(did, values)
        except Exception as e:
            raise TaskError(
                task.id, "override", f"override of {did} failed: {type(e).__name__}: {e}"
            ) from e
        if not result.ok:
            raise TaskError(task.id, "override", f"override of {did} is invalid: {result.error}")
    return engine
