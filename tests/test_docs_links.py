"""The README is a newcomer's first screen and points into docs/: every relative link there and
in docs/ leads to a file that exists, and the README keeps the two set-up-free commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_lead_to_files(page: Path) -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8"))
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    missing = [link for link in local if not (page.parent / link).exists()]
    assert missing == [], f"{page.name} links to files that do not exist: {missing}"


def test_readme_opens_with_the_two_commands_and_links_every_doc() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = "\n".join(text.splitlines()[:20])
    assert "make bench" in first_screen and "make test" in first_screen
    for doc in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{doc.name})" in text, f"the README does not point to docs/{doc.name}"


MODULE_ROOTS = ("smh_core", "sim_devices", "custom_components/smh")


def test_architecture_names_every_module() -> None:
    """docs/architecture.md is the map the next engineer reads first (issue 36): every module of
    the three packages is named in it, as `name.py` or by its path, so a new module cannot land
    unnamed."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    unnamed = [
        path.relative_to(ROOT).as_posix()
        for root in MODULE_ROOTS
        for path in sorted((ROOT / root).rglob("*.py"))
        if path.name != "__init__.py"
        and "__pycache__" not in path.parts
        and "_vendor" not in path.parts  # the bundled copy a HACS build makes
        and f"`{path.name}`" not in text
        and path.relative_to(ROOT).as_posix() not in text
    ]
    assert unnamed == [], f"docs/architecture.md does not name: {unnamed}"
