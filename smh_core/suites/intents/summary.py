"""The ``intents`` suite's markdown summary: tasks per language and intent, the intents left out
and why, and the sentences dropped on the way (repeats, misreadings by HA's matcher), so a
reader sees what the suite covers and what it does not, per language."""

from __future__ import annotations

from collections import Counter, defaultdict
from importlib.metadata import version

from home_assistant_intents import get_languages

from .home import fixture_source
from .suite import LanguageResult, resolve_language


def resolve_languages(asked: list[str]) -> list[str]:
    """The package's codes for ``asked`` (``all`` is every language), in order, once each;
    an unknown code raises :class:`~.suite.UnknownLanguage` listing the known ones."""
    out: list[str] = []
    for item in asked:
        codes = get_languages() if item.casefold() == "all" else [resolve_language(item)]
        out += [c for c in codes if c not in out]
    return out


def markdown(results: list[LanguageResult], seed: int, count: int) -> str:
    """The summary of one generation run."""
    lines = [
        "# intents suite: tasks from Home Assistant's sentence templates",
        "",
        f"Seed {seed}, up to {count} tasks per language; hassil {version('hassil')}, "
        f"home-assistant-intents {version('home-assistant-intents')}.",
        f"Names: {fixture_source()}, or as each row says.",
        "",
        "| language | tasks | intents | names from |",
        "|---|---|---|---|",
    ]
    for r in results:
        lines.append(f"| {r.language} | {len(r.tasks)} | {len(r.per_intent)} | {r.source or '-'} |")
    full = sum(len(r.tasks) >= count for r in results)
    lines += ["", f"{full} of {len(results)} languages reach {count} tasks.", ""]
    lines += ["## Tasks per intent", "", "| language | tasks per intent |", "|---|---|"]
    for r in results:
        per = ", ".join(f"{k} {v}" for k, v in sorted(r.per_intent.items())) or "-"
        lines.append(f"| {r.language} | {per} |")
    lines += ["", "## Intents left out, and why", ""]
    by_reason: dict[str, list[str]] = defaultdict(list)
    for r in results:
        for intent, why in r.skipped.items():
            by_reason[f"{intent}: {why}"].append(r.language)
    every = {r.language for r in results}
    for key in sorted(by_reason):
        langs = by_reason[key]
        where = "every language" if set(langs) == every else ", ".join(langs)
        lines.append(f"- {key} ({where})")
    dropped: Counter[str] = Counter()
    for r in results:
        dropped.update(r.dropped)
    lines += ["", "## Draws dropped (all languages)", ""]
    lines += [f"- {why}: {n}" for why, n in sorted(dropped.items())] or ["- none"]
    return "\n".join(lines) + "\n"
