"""A replay of published traces on the leaderboard: one row per data set, report version and
model, marked as replayed and named by its source, counted from SMH's verdicts on the replayed
cases (HA's answers are stood in for here: tests/e2e/test_trace_replay.py replays for real),
and read as strictly as a run folder."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from smh_core.bench.site_data import SiteInputError, build
from smh_core.cli.main import main
from smh_core.importers.ha_datasets import import_ha_datasets
from smh_core.importers.ha_traces import ToolOutcome, import_traces
from smh_core.importers.replay_site import REPLAY_LOG, ReplayReader, write_manifest
from smh_core.importers.trace_agreement import Replayed

CHECKOUT = Path(__file__).parents[1] / "fixtures" / "ha_traces"
READERS = (ReplayReader(),)


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> Path:
    """A finished replay folder of the fixture's nine cases: each judgeable case replayed to
    the published verdict, but model-a's dimming case to the opposite one."""
    imported = tmp_path_factory.mktemp("had")
    tasks, report = import_ha_datasets(CHECKOUT / "datasets", imported)
    cases = import_traces(CHECKOUT / "datasets", tasks, report, imported).cases
    out = tmp_path_factory.mktemp("replay")
    command = ["python", "scripts/replay_traces.py", "--tasks", "t.jsonl", "--token", "secret"]
    write_manifest(out, cases, "2026.2.3", command)
    lines = []
    for case in cases:
        if case.task is None:
            continue
        passed = case.published != ("dim_the_desk_lamp" in case.id and case.model == "model-a")
        verdict = {"passed": passed, "reason": "goal state reached" if passed else "wrong state"}
        results = [ToolOutcome(ok=True, targets=[f"light.{c.tool.lower()}"]) for c in case.calls]
        lines.append(
            Replayed(case=case.id, verdict=verdict, results=results).model_dump_json() + "\n"
        )
    (out / REPLAY_LOG).write_text("".join(lines), encoding="utf-8")
    return out


def test_one_row_per_published_model_marked_as_replayed(replay) -> None:
    site = build([replay], READERS)
    rows = {(r.config["published"], r.config["model"]): r for r in site.rows}
    assert set(rows) == {
        ("assist-mini 2025.4.3", "model-a"),
        ("assist-mini 2025.4.3", "model-b"),
        ("assist-mini 2024.9.2 (archived)", "assistant"),
        ("assist-mini 2024.9.2 (archived)", "old-model"),
    }
    assert all(r in site.baselines and r.replayed for r in site.rows)
    a = rows["assist-mini 2025.4.3", "model-a"]
    assert a.baseline == "model-a (replayed)" and "home-assistant-datasets" in str(a.replayed)
    assert a.config["HA"] == "2026.2.3" and "--token REDACTED" in a.command
    cell = a.suites["ha_datasets"]
    judged = [t for t in a.tasks if t["scored"]]
    assert cell.n == len(judged) and cell.passed == sum(t["passed"] for t in judged)
    dim = next(t for t in a.tasks if "dim_the_desk_lamp" in t["id"])
    assert dim["request"] and dim["request"].lower().startswith("dim the desk lamp")
    assert dim["passed"] is False and "published verdict: Good" in dim["reason"]
    unjudged = [t for r in site.rows for t in r.tasks if not t["scored"]]
    assert unjudged and all(t["reason"].startswith("not judgeable: ") for t in unjudged)


def test_a_replay_is_read_as_strictly_as_a_run(replay, tmp_path) -> None:
    cut = tmp_path / "cut"
    shutil.copytree(replay, cut)
    log = cut / REPLAY_LOG
    log.write_bytes(log.read_bytes()[:-10])
    with pytest.raises(SiteInputError, match=re.escape(str(log)) + r":\d+: the last line is cut"):
        build([cut], READERS)
    lines = (replay / REPLAY_LOG).read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[1:]), encoding="utf-8")
    with pytest.raises(SiteInputError, match="1 of 7 judgeable cases not replayed yet"):
        build([cut], READERS)
    log.write_text("".join(lines) + '{"case": 1}\n', encoding="utf-8")
    with pytest.raises(SiteInputError, match=re.escape(f"{log}:{len(lines) + 1}: not a replay")):
        build([cut], READERS)


def test_report_site_finds_replays_beside_runs(replay, tmp_path, capsys) -> None:
    runs = tmp_path / "runs"
    shutil.copytree(replay, runs / "had-replay")
    out = tmp_path / "site"
    assert main(["report", "site", str(runs), "--out", str(out), "--no-plots"]) == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "model-a (replayed)" in index and "published assist-mini 2025.4.3, replayed" in index
    row = next(r for r in build([replay], READERS).rows if r.config["model"] == "model-b")
    page = (out / "runs" / f"{row.id}.html").read_text(encoding="utf-8")
    assert 'id="replayed"' in page and "sha256 of replay.json" in page
    assert "cases.jsonl has the replies" in page and "results.jsonl" not in page  # no such file


def test_each_replayed_call_shows_what_it_gave_here(replay) -> None:
    row = next(r for r in build([replay], READERS).rows if r.config["model"] == "model-a")
    steps = [c for t in row.tasks if t["scored"] for c in t["steps"]]
    assert steps and all(c["result"]["ok"] is True for c in steps)
    assert all(c["result"]["targets"] == [f"light.{c['tool'].lower()}"] for c in steps)
