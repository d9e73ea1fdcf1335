"""What an import did with each item of the source: imported, approximated or skipped, and why.

A researcher comparing numbers across harnesses has to know which of the source's tasks are in
the imported suite and which semantics were bent to get them there; the report is that record,
written next to the task file as Markdown and JSON.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class ImportReport:
    source: str
    path: str
    imported: list[str] = field(default_factory=list)
    approximated: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    invalid: list[tuple[str, str, str]] = field(default_factory=list)
    """Requests the source labels impossible, replayed on the imported task's home: ``(item,
    request, verdict)``, the verdict ``refused`` or how the home carries the request out."""
    items: int = 0
    """How many items (instructions, test sentences, episodes) the source offered."""
    unread: list[tuple[str, str]] = field(default_factory=list)
    """Source-invalid requests whose words could not be read into a device call, with why."""

    def approximate(self, item: str, why: str) -> None:
        self.approximated.append((item, why))

    def skip(self, item: str, why: str) -> None:
        self.skipped.append((item, why))

    def replayed(self, item: str, request: str, lands: str | None) -> None:
        self.invalid.append((item, request, "refused" if lands is None else lands))

    def summary(self) -> str:
        of = f" of {self.items} source items" if self.items else ""
        return (
            f"{len(self.imported)} tasks imported{of} ({len(self.approximated)} approximations noted), "
            f"{len(self.skipped)} items skipped"
        )

    def markdown(self) -> str:
        lines = [
            f"# Import from {self.source}",
            "",
            f"Source: `{self.path}`",
            "",
            self.summary(),
            "",
        ]
        if self.skipped:
            lines += ["## Skipped, by reason", "", "| reason | items |", "|---|---:|"]
            for why, n in Counter(w for _, w in self.skipped).most_common():
                lines.append(f"| {why} | {n} |")
            lines += [
                "",
                "| item | reason |",
                "|---|---|",
                *(f"| {i} | {w} |" for i, w in self.skipped),
                "",
            ]
        if self.approximated:
            lines += [
                "## Approximated",
                "",
                "| item | how |",
                "|---|---|",
                *(f"| {i} | {w} |" for i, w in self.approximated),
                "",
            ]
        if self.invalid or self.unread:
            executable = [(i, r, v) for i, r, v in self.invalid if v != "refused"]
            lines += [
                "## Requests the source labels impossible, replayed on the imported home",
                "",
                f"{len(self.invalid) - len(executable)} of {len(self.invalid)} refused, "
                f"{len(executable)} carried out by the source's own home (each task kept with "
                f"that home and its label, marked `label_conflict`); {len(self.unread)} more "
                "could not be read into a device call.",
                "",
            ]
            if executable:
                lines += [
                    "| item | request | carried out as |",
                    "|---|---|---|",
                    *(f"| {i} | {r} | {v} |" for i, r, v in executable),
                    "",
                ]
        lines += ["## Imported", "", *(f"- {t}" for t in self.imported), ""]
        return "\n".join(lines)

    def write(self, out: Path, stem: str) -> tuple[Path, Path]:
        md, js = out / f"{stem}.import.md", out / f"{stem}.import.json"
        md.write_text(self.markdown(), encoding="utf-8")
        js.write_text(
            json.dumps(asdict(self), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        return md, js
