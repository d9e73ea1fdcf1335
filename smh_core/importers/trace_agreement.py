"""How far SMH reproduces home-assistant-datasets' published verdicts (pure: no HA imports).

Each published case (:class:`~smh_core.importers.ha_traces.TraceCase`) is replayed inside
Home Assistant against the SMH home of its test (:mod:`smh_core.ha.trace_replay`) and judged
twice:

- **verifier**: SMH's verifier on the engine's state (``smh.verify``: the imported task's
  critic, devices outside the goal unchanged), the way SMH scores any agent;
- **HA state**: the source's own rule on Home Assistant's states (its ``get_unexpected_states``:
  every entity of the home as it was plus the expected changes, compared with what HA shows
  after the calls), over the state and the attributes its synthetic entities report, so a value
  HA does not read back as written (a brightness of 100 shown as 99) counts.

Both add the source's reply rule: an answer containing "Sorry" is Bad. A case agrees when our
verdict equals the published one; a case no imported task can judge does not agree. Every
disagreement gets a cause: the import's reason, the first tool call whose result differs from
the recorded one, or what the judge saw.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .ha_traces import ToolOutcome, TraceCall, TraceCase, match_reason

COMPARED: dict[str, frozenset[str]] = {
    "light": frozenset({"brightness", "color_mode", "rgb_color", "hs_color", "rgbw_color"}),
    "fan": frozenset({"percentage", "preset_mode", "oscillating", "direction"}),
    "cover": frozenset({"current_position"}),
    "valve": frozenset({"current_position"}),
    "media_player": frozenset({"volume_level", "is_volume_muted", "media_track"}),
    "vacuum": frozenset({"fan_speed"}),
}
"""Per domain, the state attributes the source's synthetic entities report and the rule
compares (besides the state): descriptive ones (features, names) are left out."""
DERIVED = frozenset({"is_closed", "is_opening", "is_closing"})
"""Attributes the source's rule never compares (they follow from state and position)."""
REPLY_RULE = "Sorry"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Replayed(_Strict):
    """What one case's replay inside HA gave."""

    case: str
    results: list[ToolOutcome] = Field(default_factory=list)
    called: list[str] = Field(default_factory=list)
    """The tool each recorded call ran as in this HA (``intent__HassTurnOn`` for a recorded
    ``HassTurnOn`` on HA 2026.10+, where Assist's tools carry their integration's name)."""
    errors: list[str] = Field(default_factory=list)  # full error texts, for reading a disagreement
    verdict: dict[str, Any] = Field(default_factory=dict)  # smh.verify's answer
    before: dict[str, dict[str, Any]] = Field(
        default_factory=dict
    )  # entity id -> state and attributes
    after: dict[str, dict[str, Any]] = Field(default_factory=dict)
    problem: str | None = None  # the replay could not run (HA refused the task): not a verdict


# --- the source's rule on HA states -------------------------------------------------------


def compact_state(entity_id: str, state: str, attributes: Mapping[str, Any]) -> dict[str, Any]:
    """An HA state as the source's rule reads it: the state and the compared attributes."""
    kept = COMPARED.get(entity_id.split(".", 1)[0], frozenset())
    return {"state": state, **{k: v for k, v in attributes.items() if k in kept}}


def same(a: Any, b: Any) -> bool:
    """The source's value comparison: lists and tuples alike, then equal or equal as text."""
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and list(a) == list(b)
    if isinstance(a, enum.Enum) or isinstance(b, enum.Enum):
        return str(a) == str(b)
    return a == b or str(a) == str(b)


def unexpected_states(
    before: Mapping[str, Mapping[str, Any]],
    after: Mapping[str, Mapping[str, Any]],
    expect: Mapping[str, Any],
    ignore: Mapping[str, list[str]],
) -> dict[str, Any]:
    """The source's ``get_unexpected_states`` over compacted states: per entity whose state or
    compared attributes differ from what was expected, ``{"expected": ..., "got": ...}``. An
    expected entity HA does not have is a difference of its own."""
    diffs: dict[str, Any] = {}
    for eid in sorted(set(before) | set(expect)):
        if eid not in before or eid not in after:
            diffs[eid] = {"expected": "an entity", "got": None}
            continue
        wanted = dict(before[eid])
        change = expect.get(eid) or {}
        if change.get("state") is not None:
            wanted["state"] = change["state"]
        wanted.update(change.get("attributes") or {})
        got = after[eid]
        skip = set(ignore.get(eid, [])) | DERIVED
        keys = {k for k in wanted if not same(got.get(k), wanted[k])} | {
            k for k in got if k not in wanted
        }
        keys -= skip
        if keys:
            diffs[eid] = {
                "expected": {k: wanted.get(k) for k in sorted(keys)},
                "got": {k: got.get(k) for k in sorted(keys)},
            }
    return diffs


def replies_sorry(response: str) -> bool:
    """The source's reply rule: a reply saying "Sorry" is Bad whatever the state."""
    return REPLY_RULE in response


# --- verdicts and causes ------------------------------------------------------------------

JUDGES = ("verifier", "ha_state")


def verdicts(case: TraceCase, rec: Replayed | None) -> dict[str, bool | None]:
    """Our verdicts (None: not judged) by the verifier and by the source's rule on HA states."""
    if case.task is None or rec is None or rec.problem is not None:
        return {"verifier": None, "ha_state": None}
    sorry = replies_sorry(case.response)
    state_ok = not unexpected_states(
        rec.before, rec.after, case.expect_changes, case.ignore_changes
    )
    return {
        "verifier": bool(rec.verdict.get("passed")) and not sorry,
        "ha_state": state_ok and not sorry,
    }


def outcome_text(outcome: ToolOutcome | None) -> str:
    """A tool outcome in a few words, without names: "acted on 2", "failed (NAME)"."""
    if outcome is None:
        return "not recorded"
    if outcome.ok:
        return f"acted on {len(outcome.targets)}" if outcome.targets else "answered"
    error = outcome.error or "error"
    reason = outcome.reason or match_reason({"error": error})  # a log written before ``reason``
    return f"failed ({reason or error.split(':', 1)[0]})"


def first_difference(calls: list[TraceCall], results: list[ToolOutcome]) -> str | None:
    """The first call whose result here differs from the recorded one, in a few words."""
    for call, ours in zip(calls, results, strict=False):
        if call.recorded is None:
            continue
        theirs = call.recorded
        if (
            theirs.ok
            and ours.ok
            and theirs.targets != ours.targets
            and len(theirs.targets) == len(ours.targets)
        ):
            return f"{call.tool}: recorded and here {outcome_text(ours)}, not the same entities"
        if (
            theirs.ok != ours.ok
            or (theirs.ok and theirs.targets != ours.targets)
            or (not theirs.ok and outcome_text(theirs) != outcome_text(ours))
        ):
            return f"{call.tool}: recorded {outcome_text(theirs)}, here {outcome_text(ours)}"
    return None


def cause(case: TraceCase, rec: Replayed | None, judge: str) -> str | None:
    """Why ``judge``'s verdict differs from the published one (None when it agrees)."""
    if case.task is None:
        return f"not judgeable: {case.unjudgeable}"
    if rec is None:
        return "not replayed yet"
    if rec.problem is not None:
        return f"replay failed: {rec.problem}"
    ours = verdicts(case, rec)[judge]
    if ours == case.published:
        return None
    side = "stricter" if case.published else "more lenient"
    missing = sorted(
        {
            c.tool
            for c, r in zip(case.calls, rec.results, strict=False)
            if not r.ok and f'Tool "{c.tool}" not found' in (r.error or "")
        }
    )
    if missing:
        return f"{side}; not a tool of this HA's Assist API: {', '.join(missing)}"
    difference = first_difference(case.calls, rec.results)
    if difference is not None:
        return f"{side}; a call went differently: {difference}"
    if judge == "verifier":
        return f"{side}; verifier: {_generic(str(rec.verdict.get('reason') or ''))}"
    diffs = unexpected_states(rec.before, rec.after, case.expect_changes, case.ignore_changes)
    keys = sorted(
        {
            f"{eid.split('.', 1)[0]}.{k}"
            for eid, d in diffs.items()
            for k in (d["expected"] if isinstance(d["expected"], dict) else ["entity"])
        }
    )
    return f"{side}; HA state differs in {', '.join(keys)}" if keys else f"{side}; the reply rule"


def _generic(reason: str) -> str:
    """A verifier reason without device ids and counts, to group by."""
    return re.sub(r"\[[^\]]*\]", "[...]", re.sub(r"\d+ of \d+", "N of M", reason))


# --- tables -------------------------------------------------------------------------------


def _rate(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f}%)" if d else "-"


class Row(_Strict):
    """One case's line of the agreement table."""

    case: str
    dataset: str
    version: str
    model: str
    test: str | None
    half: str
    published: bool
    verifier: bool | None
    ha_state: bool | None
    cause_verifier: str | None
    cause_ha_state: str | None


def rows(cases: Iterable[TraceCase], records: Mapping[str, Replayed]) -> list[Row]:
    out = []
    for case in cases:
        rec = records.get(case.id)
        v = verdicts(case, rec)
        out.append(
            Row(
                case=case.id,
                dataset=case.dataset,
                version=case.version,
                model=case.model,
                test=case.test,
                half=case.half,
                published=case.published,
                verifier=v["verifier"],
                ha_state=v["ha_state"],
                cause_verifier=cause(case, rec, "verifier"),
                cause_ha_state=cause(case, rec, "ha_state"),
            )
        )
    return out


def tally(group: list[Row], judge: str) -> dict[str, int]:
    """Cases, judgeable cases, and how many of each agree, for one judge."""
    judged = [r for r in group if getattr(r, judge) is not None]
    agree = [r for r in judged if getattr(r, judge) == r.published]
    return {
        "cases": len(group),
        "judgeable": len(judged),
        "agree": len(agree),
        "published_good": sum(r.published for r in group),
    }


def _by(items: list[Row], key: Callable[[Row], Any]) -> dict[Any, list[Row]]:
    out: dict[Any, list[Row]] = defaultdict(list)
    for r in items:
        out[key(r)].append(r)
    return dict(sorted(out.items()))


def summary(table: list[Row]) -> dict[str, Any]:
    """Agreement per judge: all, per half, per dataset and half, per dataset/version/model."""
    out: dict[str, Any] = {}
    for judge in JUDGES:
        out[judge] = {
            "all": tally(table, judge),
            "halves": {h: tally(g, judge) for h, g in _by(table, lambda r: r.half).items()},
            "datasets": {
                f"{d} {h}": tally(g, judge)
                for (d, h), g in _by(table, lambda r: (r.dataset, r.half)).items()
            },
            "models": {
                " / ".join(k): tally(g, judge)
                for k, g in _by(table, lambda r: (r.dataset, r.version, r.model)).items()
            },
            "causes": Counter(
                getattr(r, f"cause_{judge}") for r in table if getattr(r, f"cause_{judge}")
            ).most_common(),
        }
    return out


def _table_lines(title: str, groups: Mapping[str, Mapping[str, int]], first: str) -> list[str]:
    lines = [
        f"### {title}",
        "",
        f"| {first} | cases | published Good | agree (all cases) | agree (judgeable) |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, t in groups.items():
        lines.append(
            f"| {name} | {t['cases']} | {_rate(t['published_good'], t['cases'])} | "
            f"{_rate(t['agree'], t['cases'])} | {_rate(t['agree'], t['judgeable'])} |"
        )
    return [*lines, ""]


def _share(t: Mapping[str, int] | None, of: str) -> str:
    """``agree/of`` as a percentage, "-" when there is nothing to count."""
    return f"{100 * t['agree'] / t[of]:.1f}% ({t['agree']}/{t[of]})" if t and t[of] else "-"


def per_model(table: list[Row], judge: str, version: str | None = None) -> list[str]:
    """One row per dataset, report version and model: the published success rate, and our
    agreement on judgeable and on all cases, per half (every test is in one half)."""
    lines = [
        "| dataset / version / model | published Good | agree, judgeable: tune | holdout | "
        "agree, all cases: tune | holdout |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for (d, v, m), group in _by(table, lambda r: (r.dataset, r.version, r.model)).items():
        if version is not None and v != version:
            continue
        halves = {h: tally(g, judge) for h, g in _by(group, lambda r: r.half).items()}
        tune, hold = halves.get("tune"), halves.get("holdout")
        lines.append(
            f"| {d} / {v} / {m} | {_rate(sum(r.published for r in group), len(group))} | "
            f"{_share(tune, 'judgeable')} | {_share(hold, 'judgeable')} | "
            f"{_share(tune, 'cases')} | {_share(hold, 'cases')} |"
        )
    return [*lines, ""]


def markdown(table: list[Row]) -> str:
    """The agreement report: per judge, the halves, datasets, models and causes."""
    s = summary(table)
    lines = [
        "# Agreement with home-assistant-datasets' published verdicts",
        "",
        f"{len(table)} published cases replayed inside Home Assistant through SMH. `tune`: the half "
        "the integration was tuned on; `holdout`: the half only measured.",
        "",
    ]
    names = {
        "verifier": "SMH's verifier (engine state)",
        "ha_state": "the source's rule on HA states",
    }
    for judge in JUDGES:
        js = s[judge]
        lines += [f"## Judged by {names[judge]}", ""]
        lines += _table_lines("Halves", {"all": js["all"], **js["halves"]}, "cases")
        lines += _table_lines("Datasets", js["datasets"], "dataset, half")
        lines += ["### Per dataset, report version, model and half", "", *per_model(table, judge)]
        lines += ["### Causes of disagreement", "", "| cause | cases |", "|---|---:|"]
        lines += [f"| {c} | {n} |" for c, n in js["causes"]] + [""]
    return "\n".join(lines)


def write(out: Path, table: list[Row]) -> dict[str, Path]:
    """``agreement.md``, ``agreement.json`` (the summary) and ``agreement.csv`` (one row per case)."""
    paths = {
        "md": out / "agreement.md",
        "json": out / "agreement.json",
        "csv": out / "agreement.csv",
    }
    paths["md"].write_text(markdown(table), encoding="utf-8")
    paths["json"].write_text(json.dumps(summary(table), indent=1) + "\n", encoding="utf-8")
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(Row.model_fields))
    writer.writeheader()
    for r in table:
        writer.writerow(r.model_dump())
    paths["csv"].write_text(buf.getvalue(), encoding="utf-8")
    return paths
