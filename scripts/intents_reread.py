"""Read a ``bench-languages`` run's sentences again with the hassil and templates of the Python
that runs this script, and set that beside HA's outcome per task (issue 41 item 2).

Why: the tasks are generated from the templates of SMH's venv (HA 2026.2.3's); when another HA
fails some, this tells a change of templates (the sentence is no longer read as its intent by
HA's own matcher) from a change in HA's handlers or our harness (read as intended, still
failed). Run it with the other HA's Python, e.g. for HA 2026.11:

    bash scripts/ha_current.sh --python scripts/intents_reread.py runs/bench-languages-newest
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from hassil.recognize import recognize_best  # noqa: E402

from smh_core.suites.intents.home import language_home  # noqa: E402
from smh_core.suites.intents.roundtrip import language_intents, slot_lists  # noqa: E402


def reread(run: Path, language: str) -> Counter[tuple[str, str]]:
    """``(HA's outcome, this matcher's reading) -> tasks`` for one language of ``run``; the
    reading is ``as intended`` when hassil's best match (HA's strict first pass, the home's
    name and area lists) is the task's intent, else ``not as intended``."""
    lh = language_home(language)
    lists = slot_lists(lh)
    tasks = {
        t["id"]: t
        for t in map(json.loads, (run / "tasks" / f"{language}.jsonl").read_text().splitlines())
    }
    out: Counter[tuple[str, str]] = Counter()
    for line in (run / language / "results.jsonl").read_text().splitlines():
        record = json.loads(line)
        task = tasks[record["task_id"]]
        best = recognize_best(
            task["turns"][0]["text"],
            language_intents(lh.language),
            slot_lists=lists,
            language=lh.language,
            best_slot_name="name",
        )
        read = best is not None and best.intent.name == task["subcategory"]
        out[
            (
                "passed" if record["passed"] else "failed",
                "as intended" if read else "not as intended",
            )
        ] += 1
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    run = Path(argv[0])
    versions = {p: importlib.metadata.version(p) for p in ("hassil", "home-assistant-intents")}
    print(f"read with {versions}")
    total: Counter[tuple[str, str]] = Counter()
    for folder in sorted(p for p in run.iterdir() if (p / "results.jsonl").exists()):
        counts = reread(run, folder.name)
        total.update(counts)
        print(folder.name, {f"{k[0]}, {k[1]}": v for k, v in sorted(counts.items())})
    print("all", {f"{k[0]}, {k[1]}": v for k, v in sorted(total.items())})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
