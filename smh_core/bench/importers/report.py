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

    def approximate(self, item: str, why: str) -> None:
        self.approximated.append((item, why))

    def skip(self, item: str, why: str) -> None:
        self.skipped.append((item, why))

    def summary(self) -> str:
        return (f"{len(self.imported)} tasks imported ({len(self.approximated)} approximations noted), "
                f"{len(self.skipped)} items skipped")

    def markdown(self) -> str:
        lines = [f"# Import from {self.source}", "", f"Source: `{self.path}`", "", self.summary(), ""]
        if self.skipped:
            lines += ["## Skipped, by reason", "", "| reason | items |", "|---|---:|"]
            for why, n in Counter(w for _, w in self.skipped).most_common():
                lines.append(f"| {why} | {n} |")
            lines += ["", "| item | reason |", "|---|---|", *(f"| {i} | {w} |" for i, w in self.skipped), ""]
        if self.approximated:
            lines += ["## Approximated", "", "| item | how |", "|---|---|",
                      *(f"| {i} | {w} |" for i, w in self.approximated), ""]
        lines += ["## Imported", "", *(f"- {t}" for t in self.imported), ""]
        return "\n".join(lines)

    def write(self, out: Path, stem: str) -> tuple[Path, Path]:
        md, js = out / f"{stem}.import.md", out / f"{stem}.import.json"
        md.write_text(self.markdown(), encoding="utf-8")
        js.write_text(json.dumps(asdict(self), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return md, js
