"""Point the HACS manifest at the repository named in pyproject.toml ([project.urls] Repository):
its documentation, issue tracker and code owner, and the HACS steps of the README and
docs/home-assistant.md (the address a user pastes into *Custom repositories*). The address lives
in that one place; a fork edits it there and runs this script (tests/test_hacs_ready.py fails
while they disagree)."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MANIFEST = REPO / "custom_components" / "smh" / "manifest.json"
HACS_STEPS = (REPO / "README.md", REPO / "docs" / "home-assistant.md")
"""The pages whose HACS steps name the repository's address."""


def repository_url(repo: Path = REPO) -> str:
    with (repo / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["project"]["urls"]["Repository"].rstrip("/")


def manifest_fields(url: str) -> dict[str, object]:
    """What the manifest must say for the repository at ``url`` (https://github.com/OWNER/NAME)."""
    owner = url.removeprefix("https://github.com/").split("/", 1)[0]
    return {"codeowners": [f"@{owner}"], "documentation": url, "issue_tracker": f"{url}/issues"}


def rewrite_pages(old: str, new: str, pages: tuple[Path, ...] = HACS_STEPS) -> None:
    """The pages name ``new`` where they named ``old`` (the address the manifest named)."""
    old = old.rstrip("/")
    if not old or old == new:
        return
    for page in pages:
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace(old, new), encoding="utf-8")


def main() -> int:
    data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    rewrite_pages(str(data.get("documentation", "")), repository_url())
    data.update(manifest_fields(repository_url()))
    head = {k: data.pop(k) for k in ("domain", "name")}  # hassfest: domain, name, then sorted keys
    MANIFEST.write_text(
        json.dumps({**head, **dict(sorted(data.items()))}, indent=2) + "\n", encoding="utf-8"
    )
    print(f"{MANIFEST.relative_to(REPO)} points at {repository_url()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
