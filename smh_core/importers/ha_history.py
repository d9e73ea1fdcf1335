"""The datasets a published report was run on, from the source's git history.

home-assistant-datasets keeps its old reports next to datasets that have moved on since: a test
fixed after a report (a sentence reworded, an expectation corrected) is no longer in the copy,
and that report's verdicts on it could not be judged. In a git checkout the dataset as it was
is there: the revision that added the report's ``report.csv``. Each such revision's datasets are
read with ``git archive``, imported like the current ones (:mod:`.ha_datasets`, homes and task
ids named after the revision, so nothing collides) into ``ha_datasets.history.jsonl`` beside
the suite (the suite itself stays the current dataset), and the trace import matches its
unmatched cases there.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from smh_core.task.model import Task, dump_task

from .report import ImportReport

HISTORY_TASKS = "ha_datasets.history.jsonl"


def git_root(path: Path) -> Path | None:
    """The top of the git work tree ``path`` is in, or None (not a checkout, or no git)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out.stdout.strip())


def _git(root: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, check=True, timeout=600
    ).stdout


def added_in(root: Path, file: Path) -> str | None:
    """The revision that first added ``file`` (None when git does not know it)."""
    try:
        out = _git(
            root,
            "log",
            "--diff-filter=A",
            "--format=%H",
            "--",
            str(file.resolve().relative_to(root)),
        )
    except (subprocess.SubprocessError, ValueError):
        return None
    lines = out.decode().split()
    return lines[-1] if lines else None


@dataclass
class History:
    """Datasets of past revisions, imported: their tasks, and the import's report."""

    root: Path  # where the revisions' datasets are, one folder per revision
    tasks: list[Task] = field(default_factory=list)
    report: ImportReport | None = None
    revisions: list[str] = field(default_factory=list)


def import_revisions(datasets_dir: Path, revisions: dict[str, list[str]], out: Path) -> History:
    """The datasets named in ``revisions`` (revision -> dataset folder names below
    ``datasets_dir``, the checkout's ``datasets/``), each as it was at that revision, imported:
    homes into ``out/homes``, tasks into ``out/ha_datasets.history.jsonl``. The extracted
    datasets stay under a temporary folder for as long as the caller reads them
    (:attr:`History.root`; remove its parent with :func:`shutil.rmtree`)."""
    from .ha_datasets import import_ha_datasets

    root = git_root(datasets_dir)
    if root is None:
        raise ValueError(f"{datasets_dir}: not in a git checkout")
    where = datasets_dir.resolve().relative_to(root.resolve())
    work = Path(tempfile.mkdtemp(prefix="smh-had-history-"))
    (work / "datasets").mkdir()
    for revision, datasets in sorted(revisions.items()):
        target = work / "datasets" / revision[:8]
        data = _git(
            root, "archive", "--format=tar", revision, *(str(where / d) for d in sorted(datasets))
        )
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(work / "git", filter="data")
        (work / "git" / where).rename(target)  # <revision>/<dataset>/...
        shutil.rmtree(work / "git")
    history = History(work / "datasets", revisions=sorted(revisions))
    staging = work / "imported"
    history.tasks, history.report = import_ha_datasets(history.root, staging)
    (out / "homes").mkdir(parents=True, exist_ok=True)
    for home in (staging / "homes").glob("*.json"):
        shutil.copy2(home, out / "homes" / home.name)
    (out / HISTORY_TASKS).write_text(
        "".join(dump_task(t) + "\n" for t in history.tasks), encoding="utf-8"
    )
    return history
