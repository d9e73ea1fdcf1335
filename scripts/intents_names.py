"""Extract the per-language homes of the ``intents`` suite from Home Assistant's intents repository.

Why: the suite's homes must be named in each language with names HA's own sentence tests use,
so that HA's matcher (hassil) and a native speaker read them naturally. The
``home-assistant/intents`` repository (CC BY 4.0) keeps one fixture home per language
(``tests/<lang>/_fixtures.yaml``: areas and entities with names written in that language); the
``home-assistant-intents`` package does not ship them. This script reads a local checkout (or
a bare git mirror via ``git show``) and writes ``smh_core/suites/intents/homes.json``: per
language, the areas and the entities of the domains SMH simulates, names as the fixture writes
them (a name written as a template, ``Telewizor[a|ze]``, is kept as its shortest reading).

Usage: python scripts/intents_names.py PATH_TO_INTENTS_CHECKOUT_OR_GIT_DIR
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from hassil.parse_expression import parse_sentence
from hassil.sample import sample_expression

DOMAINS = ("light", "switch", "fan", "cover", "valve", "climate", "media_player", "vacuum", "lock")
OUT = Path(__file__).resolve().parent.parent / "smh_core/suites/intents/homes.json"


def _show(repo: Path, path: str) -> str | None:
    """A file of the checkout's HEAD (works on a bare mirror too), or None if absent."""
    done = subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{path}"], capture_output=True, text=True
    )
    return done.stdout if done.returncode == 0 else None


def _plain(name: Any) -> str | None:
    """The plain text of a fixture name: a template's reading without its optional parts."""
    if isinstance(name, dict):
        name = name.get("in")
    if not isinstance(name, str) or not name.strip():
        return None
    if not any(c in name for c in "[]()|{}<>"):
        return name.strip()
    readings = sample_expression(parse_sentence(name).expression, skip_optionals=True)
    return min((r.strip() for r in readings), key=len, default=None) or None


def extract(repo: Path) -> dict[str, Any]:
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "--name-only", "HEAD", "tests/"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    commit = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    homes: dict[str, Any] = {}
    for folder in sorted(listing):
        lang = folder.removeprefix("tests/")
        text = _show(repo, f"{folder}/_fixtures.yaml")
        if text is None:
            continue
        data = yaml.safe_load(text) or {}
        areas = {
            a["id"]: _plain(a["name"]) for a in data.get("areas") or [] if _plain(a.get("name"))
        }
        entities = []
        for e in data.get("entities") or []:
            domain = str(e.get("id", "")).split(".")[0]
            name = _plain(e.get("name"))
            if domain not in DOMAINS or name is None:
                continue
            entity = {"name": name, "domain": domain}
            device_class = (e.get("attributes") or {}).get("device_class")
            if device_class:
                entity["device_class"] = str(device_class)
            if e.get("area") in areas:
                entity["area"] = e["area"]
            entities.append(entity)
        homes[lang] = {"areas": areas, "entities": entities}
    return {
        "source": f"home-assistant/intents tests/<lang>/_fixtures.yaml at {commit} (CC BY 4.0)",
        "homes": homes,
    }


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    data = extract(Path(sys.argv[1]))
    OUT.write_text(
        json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"wrote {OUT}: {len(data['homes'])} languages")
