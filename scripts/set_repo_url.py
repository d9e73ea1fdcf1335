"""Point the HACS manifest at the repository named in pyproject.toml ([project.urls] Repository):
its documentation, issue tracker and code owner. The address lives in that one place; a fork
edits it there and runs this script (tests/test_hacs_ready.py fails while they disagree)."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MANIFEST = REPO / "custom_components" / "smh" / "manifest.json"


def repository_url(repo: Path = REPO) -> str:
    with (repo / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["project"]["urls"]["Repository"].rstrip("/")


def manifest_fields(url: str) -> dict[str, object]:
    """What the manifest must say for the repository at ``url`` (https://github.com/OWNER/NAME)."""
    owner = url.removeprefix("https://github.com/").split("/", 1)[0]
    return {"codeowners": [f"@{owner}"], "documentation": url, "issue_tracker": f"{url}/issues"}


def main() -> int:
    data = json.loads(MANIFEST.read_text(encoding="utf-8"))
    data.update(manifest_fields(repository_url()))
    head = {k: data.pop(k) for k in ("domain", "name")}  # hassfest: domain, name, then sorted keys
    MANIFEST.write_text(
        json.dumps({**head, **dict(sorted(data.items()))}, indent=2) + "\n", encoding="utf-8"
    )
    print(f"{MANIFEST.relative_to(REPO)} points at {repository_url()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
