"""A one-goal execute task on a home written from data, for tests of home-file features."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from smh_core.task.home import HomeCache
from smh_core.task.model import Task


def execute_task_on(
    tmp_path: Path, home_data: dict[str, Any], critic: str, actions: list[dict[str, Any]]
) -> tuple[Task, HomeCache]:
    """``home_data`` written as ``home.json`` under ``tmp_path``, a task whose goal is
    ``critic`` and whose reference runs ``actions``, and the cache that finds the home."""
    (tmp_path / "home.json").write_text(json.dumps(home_data))
    task = Task.model_validate(
        {
            "id": "file-task",
            "suite": "smh",
            "category": "atomic_control",
            "subcategory": "file_home",
            "difficulty": "simple",
            "home": {"file": "home.json"},
            "turns": [{"text": "Please do it."}],
            "goal": {"kind": "execute", "critic": critic},
            "reference": {"mode": "execute", "actions": actions},
        }
    )
    return task, HomeCache(tmp_path)
