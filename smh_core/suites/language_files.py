"""What every suite written in several languages does alike with its files.

A suite in another language (``smh_languages``, ``sage_languages``, ``simuhome_languages``,
``memhome_languages``, ``safety_suites.safety_languages``) writes its tasks beside the English
ones under a name that says the language, writes the homes it built (renamed in that language)
as home files, and validates and scores its tasks on those homes straight from memory, before
or without reading the files back. One copy of each, so the five suites cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from smh_core.homeenv.model import Home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

BuiltHome = tuple[str, Home]
"""A home file's path relative to the tasks folder (``homes/<name>.json``) and its home."""


def task_file(suite: str, language: str) -> str:
    """Where ``suite`` in ``language`` is written, relative to the output folder (English keeps
    the shipped name)."""
    return f"{suite}.jsonl" if language == "en" else f"{suite}.{language}.jsonl"


def write_homes(
    tasks_dir: Path, homes: Iterable[BuiltHome], dump: Callable[[Home], str]
) -> list[Path]:
    """Write each built home under ``tasks_dir`` as ``dump`` renders it; the paths written."""
    out = []
    for name, home in homes:
        path = tasks_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dump(home), encoding="utf-8")
        out.append(path)
    return out


class BuiltHomes(HomeCache):
    """A home cache serving a suite's built home files without reading them (any other home a
    task names is loaded as usual)."""

    def __init__(self, homes: Iterable[BuiltHome], base: Path | None = None) -> None:
        super().__init__(base)
        self._built = {f"file:{path}": home for path, home in homes}

    def get(self, task: Task) -> Home:
        return self._built.get(task.home.key()) or super().get(task)


def reference_figures(tasks: list[Task], homes: HomeCache) -> dict[str, int]:
    """The figures docs/languages.md reports for a suite in a language: its tasks, how many the
    oracle and doing nothing pass (through the runner, the action guard on, as every run), and
    how many times the guard asked the oracle's simulated user to confirm."""
    import asyncio

    from smh_core.bench.agents import NullAgent, OracleAgent
    from smh_core.bench.runner import run_task

    async def records(agent: OracleAgent | NullAgent) -> list[dict]:
        return [await run_task(t, agent, homes) for t in tasks]

    loop = asyncio.new_event_loop()
    try:
        oracle = loop.run_until_complete(records(OracleAgent()))
        nothing = loop.run_until_complete(records(NullAgent()))
    finally:
        loop.close()
    return {
        "tasks": len(tasks),
        "oracle_passed": sum(bool(r["passed"]) for r in oracle),
        "nothing_passed": sum(bool(r["passed"]) for r in nothing),
        "oracle_confirmations": sum(len(r.get("guard_confirmations", ())) for r in oracle),
    }
