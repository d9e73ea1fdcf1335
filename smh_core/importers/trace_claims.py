"""Said versus did on published models: home-assistant-datasets' recorded replies checked against
what their turns did (issue 38).

home-assistant-datasets keeps, per model and test, the reply and the tool calls; the replay
(:mod:`smh_core.ha.trace_replay`) runs those calls inside a real Home Assistant and keeps every
entity's state before and after. Here each reply's claims (:mod:`smh_core.bench.claims`) are
resolved to the imported home's devices (their ids are the source's entity ids, their names the
source's) and checked against those HA states: a claim that the kitchen light is off is true
when ``light.kitchen_light`` is ``off`` after the turn. The false-claim rate per model sits beside
its published success rate.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smh_core.backends.embedded import EmbeddedBackend
from smh_core.bench.claims import HA_SCALES, Claim, Turn, claims_in, state_changes
from smh_core.task.home import HomeCache, prepare_engine
from smh_core.task.model import Task

from .ha_traces import TraceCase
from .trace_agreement import Replayed


@dataclass
class CaseClaims:
    case: TraceCase
    claims: list[Claim]

    @property
    def false(self) -> bool:
        return any(c.truth == "false" for c in self.claims)


class Listings:
    """Each imported home's device and room listing, read once per home."""

    def __init__(self, tasks: Mapping[str, Task], homes: HomeCache) -> None:
        self.tasks, self.homes = tasks, homes
        self._seen: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}

    def __call__(self, task_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        task = self.tasks[task_id]
        key = task.home.key()
        if key not in self._seen:
            backend = EmbeddedBackend(prepare_engine(task, self.homes))
            self._seen[key] = (backend.list_devices(), backend.list_rooms())
        return self._seen[key]


def case_claims(case: TraceCase, rec: Replayed, listing: Listings) -> CaseClaims | None:
    """The claims of one replayed case's reply; ``None`` when it cannot be read (no reply, no
    imported task, or the replay failed)."""
    if not case.response.strip() or case.task is None or rec.problem is not None:
        return None
    devices, rooms = listing(case.task)
    acted = frozenset(t for r in rec.results if r.ok for t in r.targets)
    turn = Turn(
        state_changes(rec.before, rec.after),
        rec.after,
        devices,
        rooms,
        scales=HA_SCALES,
        acted=acted,
    )
    return CaseClaims(case, claims_in(case.response, turn))


@dataclass
class ModelRow:
    replies: int = 0
    claimed: int = 0
    false: int = 0
    published_good: int = 0
    cases: int = 0
    checked: int = 0
    unverifiable: int = 0


def per_model(
    cases: Iterable[TraceCase], results: Mapping[str, CaseClaims | None]
) -> dict[tuple[str, str, str], ModelRow]:
    """``(dataset, version, model) -> figures``: cases, published Good, replies read, replies
    with a claim and with a false claim, claims checked and unverifiable."""
    rows: dict[tuple[str, str, str], ModelRow] = defaultdict(ModelRow)
    for case in cases:
        row = rows[(case.dataset, case.version, case.model)]
        row.cases += 1
        row.published_good += case.published
        got = results.get(case.id)
        if got is None:
            continue
        row.replies += 1
        if got.claims:
            row.claimed += 1
            row.checked += len(got.claims)
            row.unverifiable += sum(c.truth == "unverifiable" for c in got.claims)
        row.false += got.false
    return dict(rows)


def markdown(rows: Mapping[tuple[str, str, str], ModelRow], latest_only: bool = False) -> str:
    def pct(n: int, d: int) -> str:
        return f"{100 * n / d:.1f}%" if d else "–"

    out = [
        "| dataset / version / model | published Good | replies read | with a claim | with a false claim | false-claim rate | unverifiable claims |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for (dataset, version, model), r in sorted(rows.items()):
        if latest_only and "archived" in version:
            continue
        out.append(
            f"| {dataset} / {version} / {model} | {pct(r.published_good, r.cases)} | {r.replies} | "
            f"{r.claimed} | {r.false} | {pct(r.false, r.claimed)} | {pct(r.unverifiable, r.checked)} |"
        )
    return "\n".join(out) + "\n"


def load_tasks_by_id(path: Path) -> dict[str, Task]:
    """The imported tasks, with those of past dataset revisions beside them (the replay reads
    both)."""
    from smh_core.task.model import load_tasks

    from .ha_history import HISTORY_TASKS

    history = path.with_name(HISTORY_TASKS)
    return {t.id: t for t in load_tasks([path, *([history] if history.exists() else [])])}


def labelled(path: Path) -> dict[str, bool]:
    """Hand labels: trace id -> whether the reply makes at least one false claim (a YAML list
    with ``id`` and ``false_claim``, or a folder of such files)."""
    import yaml

    files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    out: dict[str, bool] = {}
    for f in files:
        for n, item in enumerate(yaml.safe_load(f.read_text(encoding="utf-8")) or []):
            if not isinstance(item, dict) or not isinstance(item.get("false_claim"), bool):
                raise ValueError(f"{f} item {n}: needs an id and a true/false false_claim")
            out[str(item["id"])] = item["false_claim"]
    return out


def agreement(
    labels: Mapping[str, bool], results: Mapping[str, CaseClaims | None]
) -> tuple[int, int, list[tuple[str, bool, bool]]]:
    """``(agree, labelled, disagreements)``: whether the checker finds a false claim where the
    hand label does, reply by reply; a reply the checker could not read counts as none. The
    first two labelled files (``had_replies.yaml``, ``had_replies_2.yaml``) have been tuned on
    (the second after it was measured once, blind); a third, written blind after, is the one
    measured once now."""
    agree, n, wrong = 0, 0, []
    for case_id, label in sorted(labels.items()):
        got = results.get(case_id)
        said = got.false if got is not None else False
        n += 1
        if said == label:
            agree += 1
        else:
            wrong.append((case_id, label, said))
    return agree, n, wrong


def per_kind(
    path: Path, results: Mapping[str, CaseClaims | None]
) -> dict[str, tuple[int, int, int]]:
    """Per claim kind of a labelled file: ``(labelled, found, same truth)``. A labelled claim is
    found when the checker makes a claim about one of the same entities (or, for a claim that
    names none, a claim that names none either); it agrees when one of those has its truth."""
    import yaml

    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for item in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
        got = results.get(str(item["id"]))
        mine = got.claims if got is not None else []
        for claim in item.get("claims") or []:
            about = set(claim.get("about") or [])
            match = [c for c in mine if set(c.devices) & about or (not about and not c.devices)]
            row = out[str(claim["kind"])]
            row[0] += 1
            row[1] += bool(match)
            row[2] += any(c.truth == str(claim["truth"]).lower() for c in match)
    return {k: (a, b, c) for k, (a, b, c) in sorted(out.items())}
