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
