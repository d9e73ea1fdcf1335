"""HA's built-in Assist agent per language on the ``intents`` suite: the sample, the outcome of
each task, and the per-language table (issue 41, item 2).

The run itself (a real ``hass``, one SMH home per language) is ``scripts/bench_ha_languages.py``;
this module is what can be tested without one. A task's outcome is one of:

- ``passed``: HA's agent did what the task asks (SMH's verifier, inside HA, on the final state);
- ``no match``: HA answered with ``no_intent_match``: none of the language's sentences (with
  this home's names and areas) matched the request;
- ``no target``: a sentence matched but HA found no entity for it (``no_valid_targets``);
- ``HA error``: another error response from HA (``failed_to_handle`` and the like);
- ``wrong result``: HA said it acted or answered, and the verifier disagrees (a wrong device,
  a wrong value, an answer without the number asked for);
- ``timeout``: no answer within the turn timeout.

Tasks our harness could not run (the home not hosted, ``smh.load_task`` refused) are never any
of these: they are counted apart as infra failures and are not in the rate's denominator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from smh_core.bench.sampling import stratified_sample
from smh_core.bench.stats import wilson
from smh_core.task.model import Task

DEFAULT_LANGUAGES = ("en", "de", "es", "fr", "it", "nl", "pt", "pl", "ru", "zh-CN")
"""Ten languages with HA fixture names (or SMH's Chinese table) and many intents each."""

OUTCOMES = ("passed", "no match", "no target", "HA error", "wrong result", "timeout")
"""A scored task's outcome, in table order (see the module docstring)."""


def sample_tasks(tasks: Sequence[Task], limit: int, seed: int = 0) -> list[Task]:
    """``limit`` tasks spread over the intents (the suite's subcategories), seeded: the same
    tasks, limit and seed give the same sample. ``limit`` 0: all of them."""
    if limit < 0:
        raise ValueError("--limit must be 0 (all) or more")
    return list(tasks) if limit == 0 else stratified_sample(tasks, limit, seed)


def outcome(record: dict[str, Any]) -> str:
    """The outcome of one scored record (see the module docstring)."""
    if record.get("passed"):
        return "passed"
    if record.get("timed_out"):
        return "timeout"
    assist = record.get("assist") or {}
    if assist.get("response_type") == "error":
        code = assist.get("error_code")
        if code == "no_intent_match":
            return "no match"
        if code == "no_valid_targets":
            return "no target"
        return "HA error"
    return "wrong result"


@dataclass
class LanguageRow:
    """One language's figures."""

    language: str
    tasks: int
    """Tasks asked for (the sample)."""
    outcomes: Counter[str] = field(default_factory=Counter)
    per_intent: dict[str, Counter[str]] = field(default_factory=dict)
    infra: int = 0
    """Tasks not scored: the harness's failure, not the agent's."""
    infra_reasons: dict[str, int] = field(default_factory=dict)

    @property
    def scored(self) -> int:
        return sum(self.outcomes.values())

    @property
    def passed(self) -> int:
        return self.outcomes["passed"]

    def rate(self) -> tuple[float, float, float] | None:
        """Pass rate and its Wilson 95 % interval over the scored tasks (None: none scored)."""
        if not self.scored:
            return None
        low, high = wilson(self.passed, self.scored)
        return self.passed / self.scored, low, high


def language_row(
    language: str,
    asked: Sequence[Task],
    records: Iterable[dict[str, Any]],
    skipped: dict[str, int],
    infra_of: Callable[[dict[str, Any]], str | None] | None = None,
) -> LanguageRow:
    """The row of one language from its run's records and the runner's skip counts. A task
    asked for with neither a record nor a skip reason is an infra failure too (never silently
    dropped from the denominator without being counted). ``infra_of``: why a record is the
    harness's failure and not the agent's (None: scored), e.g. a model server that failed
    (:func:`smh_core.ha.language_agents.infra_reason`)."""
    intent_of = {t.id: t.subcategory for t in asked}
    row = LanguageRow(language, len(asked))
    row.infra_reasons = {k: v for k, v in skipped.items() if v}
    seen = set()
    for r in records:
        if r["task_id"] not in intent_of:
            continue
        why = infra_of(r) if infra_of is not None else None
        if why is not None:
            row.infra_reasons[why] = row.infra_reasons.get(why, 0) + 1
            continue
        seen.add(r["task_id"])
        kind = outcome(r)
        row.outcomes[kind] += 1
        row.per_intent.setdefault(intent_of[r["task_id"]], Counter())[kind] += 1
    row.infra = len(asked) - len(seen)
    missing = row.infra - sum(row.infra_reasons.values())
    if missing > 0:
        row.infra_reasons["no record (see the HA log)"] = missing
    return row


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def rate_cell(row: LanguageRow) -> str:
    """``passed/scored = rate % [low-high]``."""
    r = row.rate()
    if r is None:
        return "none scored"
    rate, low, high = r
    return f"{row.passed}/{row.scored} = {_pct(rate)} % [{_pct(low)}-{_pct(high)}]"


def markdown(rows: Sequence[LanguageRow], header: str = "", agent: str = "HA Assist") -> str:
    """The per-language table, the failures by kind, the infra failures, and per intent;
    ``agent`` names the agent in the pass column (another agent's error reply is its own,
    not HA's: its column says "error reply")."""
    out = [header] if header else []
    kinds = ["error reply" if k == "HA error" and agent != "HA Assist" else k for k in OUTCOMES[1:]]
    out += [
        f"| language | tasks | scored | {agent} passed (Wilson 95 % CI) | "
        + " | ".join(kinds)
        + " | infra (not scored) |",
        "|---|---|---|---|" + "---|" * (len(OUTCOMES) - 1) + "---|",
    ]
    for row in rows:
        cells = [str(row.outcomes[k]) for k in OUTCOMES[1:]]
        out.append(
            f"| {row.language} | {row.tasks} | {row.scored} | {rate_cell(row)} | "
            + " | ".join(cells)
            + f" | {row.infra} |"
        )
    total_passed = sum(r.passed for r in rows)
    total_scored = sum(r.scored for r in rows)
    if total_scored:
        low, high = wilson(total_passed, total_scored)
        out.append(
            f"\nAll languages: {total_passed}/{total_scored} = "
            f"{_pct(total_passed / total_scored)} % [{_pct(low)}-{_pct(high)}] "
            f"({sum(r.infra for r in rows)} infra failures, not scored)."
        )
    infra = [r for r in rows if r.infra_reasons]
    if infra:
        out.append("\nInfra failures (our harness's, not the agent's):\n")
        out += [
            f"- {r.language}: " + "; ".join(f"{n} {why}" for why, n in r.infra_reasons.items())
            for r in infra
        ]
    out.append("\nPer intent (passed/scored):\n")
    intents = sorted({i for r in rows for i in r.per_intent})
    out.append("| intent | " + " | ".join(r.language for r in rows) + " |")
    out.append("|---|" + "---|" * len(rows))
    for intent in intents:
        cells = []
        for r in rows:
            c = r.per_intent.get(intent)
            cells.append(f"{c['passed']}/{sum(c.values())}" if c else "-")
        out.append(f"| {intent} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


HA_DOMAINS = frozenset(
    ("light", "switch", "fan", "cover", "valve", "climate", "media_player", "vacuum", "lock")
)
"""The HA domains of the intents homes' devices (:data:`smh_core.suites.intents.home.DEVICE_TYPES`)."""


Expected = tuple[str, str, str, str | None, str | None]
"""A device of the task home: ``(did, name, HA domain, area name or None, HA device class or
None)``."""


def device_entities(
    entry_id: str, expected: Iterable[Expected], registries: dict[str, Any]
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Each expected device's one entity of its domain in HA's entity registry (did -> the
    registry entry, with its device's ``area_id`` as ``device_area_id``), and what is missing."""
    dev_of: dict[str, dict[str, Any]] = {}
    for d in registries["devices"]:
        for ident in d.get("identifiers") or []:
            if ident[0] == "smh" and str(ident[1]).startswith(f"{entry_id}_"):
                dev_of[str(ident[1])[len(entry_id) + 1 :]] = d
    found: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for did, name, domain, _area, _cls in expected:
        device = dev_of.get(did)
        if device is None:
            problems.append(f"{did} ({name}): no device in HA's registry")
            continue
        ents = [
            e
            for e in registries["entities"]
            if e.get("device_id") == device["id"] and e["entity_id"].split(".")[0] == domain
        ]
        if len(ents) != 1:
            problems.append(f"{did} ({name}): {len(ents)} {domain} entities, expected 1")
            continue
        found[did] = {**ents[0], "device_area_id": device.get("area_id")}
    return found, problems


def exposure_problems(
    entry_id: str, expected: Iterable[Expected], registries: dict[str, Any]
) -> list[str]:
    """What differs between the home a language's tasks name and what HA exposes to Assist.

    ``expected``: the task home's devices (:data:`Expected`). ``registries``: HA's ``devices``,
    ``entities`` and ``areas`` registry lists, the ``states`` and the ``exposed`` map of
    ``homeassistant/expose_entity/list``. Each device must have one entity of its domain,
    exposed to Assist, whose friendly name is the device's name, whose area (the entity's
    own, else its device's) is named as the task home names it and whose device class (HA's
    intents filter on it: "open the gate") is the home's; and no other exposed entity
    may carry that name. An empty list: HA sees the home as the tasks do, so a failure of HA's
    agent is its own. Anything else is our harness's problem and must not be scored."""
    expected = list(expected)
    areas = {a["area_id"]: a["name"] for a in registries["areas"]}
    attrs = {s["entity_id"]: s.get("attributes") or {} for s in registries["states"]}
    names = {eid: a.get("friendly_name") for eid, a in attrs.items()}
    exposed = {
        eid for eid, where in registries["exposed"].items() if (where or {}).get("conversation")
    }
    found, problems = device_entities(entry_id, expected, registries)
    claimed: dict[str, str] = {}
    for did, name, _domain, area, cls in expected:
        if did not in found:
            continue
        ent = found[did]
        eid = ent["entity_id"]
        claimed[eid] = name
        if eid not in exposed:
            problems.append(f"{eid} ({name}): not exposed to Assist")
        if names.get(eid) != name:
            problems.append(f"{eid}: friendly name {names.get(eid)!r}, the task home says {name!r}")
        has = areas.get(ent.get("area_id") or ent.get("device_area_id") or "")
        if has != area:
            problems.append(f"{eid} ({name}): area {has!r}, the task home says {area!r}")
        if cls is not None and attrs.get(eid, {}).get("device_class") != cls:
            problems.append(
                f"{eid} ({name}): device class {attrs.get(eid, {}).get('device_class')!r}, "
                f"the task home says {cls!r}"
            )
    wanted = {n.casefold() for n in claimed.values()}
    for eid in exposed:
        other = names.get(eid)
        if eid not in claimed and other and other.casefold() in wanted:
            problems.append(f"{eid} is exposed under {other!r} too: HA could not tell them apart")
    return sorted(problems)
