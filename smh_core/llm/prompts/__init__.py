"""Prompt files of the agent. Prompts are data: edit the ``.md`` files, not Python strings."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from string import Template


@cache
def load_prompt(name: str) -> Template:
    """A prompt file as a ``string.Template`` (``$name`` placeholders; JSON braces stay literal)."""
    return Template(files(__package__).joinpath(f"{name}.md").read_text(encoding="utf-8"))


def quoted(text: object) -> str:
    """Untrusted text (a device or room name, a memory) as a JSON string inside a prompt: its
    quotes and escapes keep it one visibly delimited value, so a newline or "SYSTEM:" inside a
    lamp's name cannot pose as a line of the prompt itself."""
    return json.dumps(str(text), ensure_ascii=False)
