"""Prompt files of the agent. Prompts are data: edit the ``.md`` files, not Python strings."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from string import Template


@cache
def load_prompt(name: str) -> Template:
    """A prompt file as a ``string.Template`` (``$name`` placeholders; JSON braces stay literal)."""
    return Template(files(__package__).joinpath(f"{name}.md").read_text(encoding="utf-8"))
