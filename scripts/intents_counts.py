"""Per-language counts of the ``intents`` suite, measured: generate every language HA ships
sentences for, validate every task (the oracle's reference passes, doing nothing fails) and
print the markdown table docs/languages.md carries.

Why a script and not a test: all languages at full size take minutes on a small machine; the
tests generate small samples. Usage:
``PYTHONPATH=. python scripts/intents_counts.py [--seed N] [--count N] [LANG ...]``
"""

from __future__ import annotations

import argparse
import sys
import time

from home_assistant_intents import get_languages

from smh_core.suites.common import validate
from smh_core.suites.intents.home import language_home
from smh_core.suites.intents.suite import (
    DEFAULT_COUNT,
    IntentHomes,
    LanguageResult,
    generate_language,
    templates,
)


def _why_short(r: LanguageResult) -> str:
    """What limits a language: the templates usable without a satellite's context, and the
    devices its home has."""
    usable, _ = templates(r.language)
    said = ", ".join(f"{k} ({len(v)})" for k, v in usable.items())
    kinds = sorted({e.domain for e in language_home(r.language).entities})
    return (
        f"no more new sentences: usable templates {said or 'none'}; "
        f"home: {len(language_home(r.language).entities)} devices ({', '.join(kinds)})"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("languages", nargs="*", help="language codes (default: every one)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--count", type=int, default=DEFAULT_COUNT)
    args = p.parse_args()
    rows, short = [], []
    started = time.monotonic()
    for lang in args.languages or get_languages():
        r = generate_language(lang, args.seed, args.count)
        if r.home is not None and r.tasks:
            validate(r.tasks, IntentHomes({r.language: r.home}))  # raises naming a failing task
        intents = len(r.per_intent)
        rows.append(
            f"| {r.language} | {len(r.tasks)} | {intents} | {r.source or '-'} | "
            f"{sum(r.dropped.values())} |"
        )
        if len(r.tasks) < args.count:
            why = r.skipped.get("*") or _why_short(r)
            short.append(f"- {r.language}: {len(r.tasks)}: {why}")
        print(rows[-1], file=sys.stderr, flush=True)
    print("| language | tasks (oracle passes all) | intents | names from | draws dropped |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    full = sum(1 for row in rows if int(row.split("|")[2]) >= args.count)
    print(f"\n{full} of {len(rows)} languages have {args.count} tasks or more.")
    if short:
        print("\nShort of the count:\n" + "\n".join(short))
    print(f"\n(measured in {time.monotonic() - started:.0f} s, seed {args.seed})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
