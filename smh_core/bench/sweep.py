"""``smh bench sweep``: a grid of runs (agents or models x settings x seeds x guard) over the
same tasks, each cell an ordinary resumable run folder, then one comparison of them all.

A cell is exactly the ``smh bench run`` command a user would type, run as its own process:
the same manifest check, the same resume, the same report. Locally the cells run in a process
pool; with ``--ray`` each cell is a Ray task (Ray is the scheduler here, not a home-made one),
so a cluster spreads them over machines. Cells write into their own folders under the sweep's
``out``, so a lost worker costs only its cell's unfinished tasks: re-running the sweep resumes
every cell where it stopped. On several machines ``out`` must be a shared folder (NFS or the
like) and the checkout must sit at the same path on each.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

MODEL_AGENTS = ("openai", "local")


_CHOICES: dict[str | None, tuple[set[str], str]] = {
    "settings": ({"eia", "dr"}, "settings are eia and/or dr"),
    "guard": ({"on", "off"}, "guard values are on and/or off"),
}
"""Sweep axes whose values come from a fixed set: the set and the message for anything else."""


class AgentSpec(BaseModel):
    """One agent of the grid: a scripted one by name, or a model (``openai`` with an endpoint
    and model, or ``local``)."""

    model_config = ConfigDict(extra="forbid")
    agent: str
    name: str | None = None
    base_url: str | None = None
    model: str | None = None
    extra: list[str] = Field(
        default_factory=list, description="more `smh bench run` flags for this agent"
    )

    @field_validator("agent")
    @classmethod
    def _known(cls, value: str) -> str:
        allowed = {"oracle", "null", "obey-injections", *MODEL_AGENTS}
        if value not in allowed:
            raise ValueError(f"agent must be one of {sorted(allowed)}")
        return value

    def label(self) -> str:
        return self.name or (f"{self.agent}-{self.model}" if self.model else self.agent)


class SweepSpec(BaseModel):
    """The sweep file (YAML)."""

    model_config = ConfigDict(extra="forbid")
    out: Path
    suites: list[str] = Field(default_factory=list)
    tasks: list[Path] = Field(default_factory=list)
    limit: int | None = None
    agents: list[AgentSpec | str]
    settings: list[str] = Field(default_factory=lambda: ["eia"])
    seeds: list[int] = Field(default_factory=lambda: [0])
    guard: list[str] = Field(default_factory=lambda: ["on"])
    workers: int | None = None  # tasks in flight within a cell

    @field_validator("agents", mode="before")
    @classmethod
    def _yaml_null_agent(cls, value: Any) -> Any:
        """YAML reads a bare ``- null`` as nothing; in this list it can only mean the null agent."""
        return ["null" if a is None else a for a in value] if isinstance(value, list) else value

    @field_validator("guard", mode="before")
    @classmethod
    def _yaml_on_off(cls, value: Any) -> Any:
        """YAML 1.1 (PyYAML) reads bare ``on``/``off`` as booleans: take them back as the words."""
        if isinstance(value, list):
            return [
                {True: "on", False: "off"}.get(v, v) if isinstance(v, bool) else v for v in value
            ]
        return value

    @field_validator("settings", "guard")
    @classmethod
    def _some_of(cls, value: list[str], info: ValidationInfo) -> list[str]:
        allowed, problem = _CHOICES[info.field_name]
        if not value or set(value) - allowed:
            raise ValueError(problem)
        return value

    def agent_specs(self) -> list[AgentSpec]:
        return [a if isinstance(a, AgentSpec) else AgentSpec(agent=a) for a in self.agents]


@dataclass(frozen=True)
class Cell:
    name: str
    folder: Path
    argv: tuple[str, ...]  # the `smh` arguments (after the program name)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"


def load_sweep(path: Path) -> SweepSpec:
    """The sweep file, validated; errors name the file and the field."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise ValueError(f"{path}: cannot read the sweep file ({str(e).splitlines()[0]})") from None
    try:
        spec = SweepSpec.model_validate(raw)
    except Exception as e:  # pydantic's ValidationError: first problem, no input echoed
        from pydantic import ValidationError

        if not isinstance(e, ValidationError):
            raise
        err = e.errors(include_input=False, include_url=False)[0]
        raise ValueError(
            f"{path}: {'.'.join(str(p) for p in err['loc']) or '(sweep)'}: {err['msg']}"
        ) from None
    if not spec.suites and not spec.tasks:
        raise ValueError(f"{path}: suites or tasks: name the tasks to run")
    if not spec.out.is_absolute():
        spec.out = Path(os.path.normpath(path.parent / spec.out))
    spec.tasks = [
        t if t.is_absolute() else Path(os.path.normpath(path.parent / t)) for t in spec.tasks
    ]
    return spec


def cells(spec: SweepSpec) -> list[Cell]:
    """Every cell of the grid. Settings apply to model agents only (a scripted agent has none),
    so scripted agents get one cell per seed and guard value."""
    out = []
    source: list[str] = [
        *itertools.chain.from_iterable(("--suite", s) for s in spec.suites),
        *itertools.chain.from_iterable(("--tasks", str(t)) for t in spec.tasks),
    ]
    for agent in spec.agent_specs():
        settings = spec.settings if agent.agent in MODEL_AGENTS else [None]
        for setting, seed, guard in itertools.product(settings, spec.seeds, spec.guard):
            parts = [
                agent.label(),
                setting,
                f"seed{seed}" if len(spec.seeds) > 1 else None,
                "unguarded" if guard == "off" else None,
            ]
            name = _slug("-".join(p for p in parts if p))
            folder = spec.out / name
            argv = [
                "bench",
                "run",
                *source,
                "--agent",
                agent.agent,
                "--out",
                str(folder),
                "--guard",
                guard,
                "--quiet",
            ]
            if setting:
                argv += ["--setting", setting]
            if agent.base_url:
                argv += ["--base-url", agent.base_url]
            if agent.model:
                argv += ["--model", agent.model]
            if spec.limit is not None:
                argv += ["--limit", str(spec.limit), "--seed", str(seed)]
            if spec.workers is not None:
                argv += ["--workers", str(spec.workers)]
            out.append(Cell(name, folder, (*argv, *agent.extra)))
    names = [c.name for c in out]
    if len(set(names)) != len(names):
        raise ValueError("two cells would share a folder: give the agents distinct `name`s")
    return out


def run_cell(argv: tuple[str, ...], cwd: str) -> tuple[int, str]:
    """One cell: the `smh bench run` command in its own process (on whichever machine runs
    this); returns its exit code and the tail of its output."""
    done = subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    return done.returncode, (done.stdout + done.stderr)[-2000:]


def run_local(
    todo: list[Cell], parallel: int, cwd: str, progress: Callable[[Cell, int, str], None]
) -> dict[str, int]:
    """Cells in a pool of ``parallel`` processes (threads waiting on subprocesses)."""
    codes: dict[str, int] = {}
    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        futures = {pool.submit(run_cell, c.argv, cwd): c for c in todo}
        for future in futures:
            cell = futures[future]
            code, tail = future.result()
            codes[cell.name] = code
            progress(cell, code, tail)
    return codes


def run_ray(
    todo: list[Cell], address: str | None, cwd: str, progress: Callable[[Cell, int, str], None]
) -> dict[str, int]:
    """Cells as Ray tasks (``address``: a cluster to join; ``None`` starts Ray on this machine).
    Each task runs the cell's command where Ray schedules it; a task lost with its node is
    retried by Ray, and the cell's folder resumes where the lost attempt stopped."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            runtime_env={"env_vars": {"PYTHONPATH": cwd}},
        )
    try:
        remote = ray.remote(max_retries=3, num_cpus=1)(run_cell)
        refs = {remote.remote(c.argv, cwd): c for c in todo}
        codes: dict[str, int] = {}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            cell = refs[ready[0]]
            code, tail = ray.get(ready[0])
            codes[cell.name] = code
            progress(cell, code, tail)
        return codes
    finally:
        if started:
            ray.shutdown()


def sweep(
    spec: SweepSpec,
    parallel: int = 2,
    ray_address: str | None = None,
    use_ray: bool = False,
    progress: Callable[[Cell, int, str], None] | None = None,
) -> tuple[dict[str, int], Path]:
    """Run every cell (finished ones resume instantly), then compare them all on their shared
    tasks into ``out/compare.md``, ``compare.csv`` and ``compare.png``. Returns exit codes per cell."""
    from .compare import compare, markdown, write_csv, write_png

    grid = cells(spec)
    spec.out.mkdir(parents=True, exist_ok=True)
    cwd = str(Path(__file__).resolve().parents[2])
    report = progress or (lambda cell, code, tail: None)
    codes = (
        run_ray(grid, ray_address, cwd, report)
        if use_ray
        else run_local(grid, parallel, cwd, report)
    )
    done = [c.folder for c in grid if (c.folder / "results.jsonl").exists()]
    path = spec.out / "compare.md"
    if done:
        summaries, shared = compare(done)
        path.write_text(markdown(summaries, shared), encoding="utf-8")
        write_csv(summaries, spec.out / "compare.csv")
        write_png(summaries, spec.out / "compare.png")
    return codes, path


def describe(spec: SweepSpec) -> dict[str, Any]:
    """The grid in a few words, for the command's first line."""
    grid = cells(spec)
    return {"cells": len(grid), "out": str(spec.out), "names": [c.name for c in grid]}
