"""smh report site's data layer and pages: rows per configuration (two runs of one kept apart),
the interval and McNemar figures of `smh bench compare`, strict input (file and line named,
nothing written) and run data rendered inert."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.bench.compare import compare
from smh_core.bench.manifest import RunIdentity, RunManifest
from smh_core.bench.results import ResultsLog
from smh_core.bench.site_data import SiteInputError, build
from smh_core.bench.site_html import write_site
from smh_core.bench.stats import wilson
from smh_core.cli.main import main

CPU = {"cpu": "Test CPU", "cores": 2, "ram_gib": 8.0, "gpus": []}


def smh_run(*args: str) -> None:
    """A real `smh bench run`, in a process of its own (in this one, asyncio.run would leave the
    test plugin's later tests without an event loop)."""
    run = subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr


def make_run(
    path: Path,
    outcomes: dict[str, bool],
    agent: str = "openai",
    model: str | None = "m1",
    started: str = "2026-11-01T00:00:00+00:00",
    suite: str = "smh",
    reply: str = "Done.",
    machine: dict | None = None,
    word_errors: int | None = None,
    calls: list[dict] | None = None,
) -> Path:
    path.mkdir(parents=True)
    log = ResultsLog(path / "results.jsonl")
    for task_id, passed in outcomes.items():
        spoken = {"word_errors": word_errors, "reference_words": 10}
        log.append(
            {
                **({"voice": spoken} if word_errors is not None else {}),
                "task_id": task_id,
                "suite": suite,
                "category": "c" + task_id[0],
                "subcategory": "s",
                "difficulty": "simple",
                "agent": agent,
                "passed": passed,
                "seconds": 2.0,
                "outcome": {
                    "response": reply,
                    "tool_calls": calls if calls is not None else [{"tool": "control_device"}],
                },
                "verdict": {
                    "passed": passed,
                    "error_class": None if passed else "DC",
                    "reason": "goal state reached" if passed else "wrong device",
                },
                "usage": {"total_tokens": 100, "calls": 2},
                "claims": [
                    {"truth": "false", "kind": "action", "span": "Done", "evidence": "no change"}
                ],
                "false_claims": 0 if passed else 1,
            }
        )
    manifest = RunManifest(
        identity=RunIdentity(agent=agent, model=model, setting="eia" if model else None),
        suites={suite: len(outcomes)},
        started=started,
        command=["smh", "bench", "run", "--suite", suite, "--agent", agent, "--out", path.name],
        machine=machine or CPU,
    )
    (path / "run.json").write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
    return path


TASKS = [f"{c}{i}" for c in "ab" for i in range(20)]


def _outcomes(passing: int) -> dict[str, bool]:
    return {t: i < passing for i, t in enumerate(TASKS)}


@pytest.fixture
def runs(tmp_path: Path) -> dict[str, Path]:
    return {
        "m1-first": make_run(tmp_path / "m1-first", _outcomes(20)),
        "m1-again": make_run(
            tmp_path / "m1-again", _outcomes(22), started="2026-11-02T00:00:00+00:00"
        ),
        "m2": make_run(tmp_path / "m2", _outcomes(31), model="m2"),
        "oracle": make_run(tmp_path / "oracle", _outcomes(40), agent="oracle", model=None),
        "null": make_run(tmp_path / "null", _outcomes(0), agent="null", model=None),
        "assist": make_run(
            tmp_path / "assist", _outcomes(5), agent="ha:conversation.home_assistant", model=None
        ),
    }


def test_rows_grouped_by_configuration_two_runs_kept_apart(runs, tmp_path) -> None:
    site = build(list(runs.values()))
    assert [r.path.name for r in site.ranked] == ["m1-first", "m1-again", "m2"]
    assert [r.path.name for r in site.baselines] == ["assist", "null", "oracle"]
    assert site.baselines[0].baseline == "HA Assist (no LLM)"
    first, again = site.ranked[:2]
    assert first.config == again.config and first.config_key == again.config_key
    assert (first.run_index, again.run_index, first.runs_of_config) == (1, 2, 2)
    assert first.id != again.id and first.manifest_hash != again.manifest_hash
    assert site.baselines[2].baseline == "oracle (reference)"
    write_site(site, tmp_path / "site", plots=False)
    pages = sorted(p.name for p in (tmp_path / "site" / "runs").iterdir())
    assert pages == sorted(f"{r.id}.html" for r in site.rows)  # six pages, none overwritten
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "run 1 of 2" in index and "run 2 of 2" in index


def test_interval_and_mcnemar_are_bench_compares(runs) -> None:
    site = build(list(runs.values()))
    by_name = {r.path.name: r for r in site.rows}
    best = by_name["m2"].suites["smh"]
    assert best.best and best.p_value is None  # the best of the ranked rows, not the oracle
    assert not by_name["oracle"].suites["smh"].best
    for name in ("m1-first", "m1-again", "null", "assist"):
        summaries, shared = compare([runs["m2"], runs[name]])
        cell = by_name[name].suites["smh"]
        assert (cell.won, cell.lost, cell.shared) == (summaries[1].won, summaries[1].lost, shared)
        assert cell.p_value == summaries[1].p_value
        assert cell.ci == wilson(summaries[1].passed, summaries[1].n)
    assert by_name["m1-first"].suites["smh"].lost == 11  # tasks 20..30 pass on m2 only


def test_cost_per_task_and_per_solved_task(runs) -> None:
    row = {r.path.name: r for r in build(list(runs.values())).rows}["m1-first"]
    total = row.total()
    assert (total.per_task(total.tokens), total.per_solved(total.tokens)) == (100.0, 200.0)
    assert (total.per_task(total.calls), total.per_solved(total.seconds)) == (2.0, 4.0)
    assert row.cpu_only


def test_malformed_run_names_file_and_line_and_writes_nothing(runs, tmp_path, capsys) -> None:
    log = runs["m2"] / "results.jsonl"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = '{"task_id": "a2", "suite": "smh"}\n'  # not a benchmark record
    log.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(SiteInputError, match=re.escape(f"{log}:3: missing passed")):
        build(list(runs.values()))
    out = tmp_path / "site"
    code = main(["report", "site", *map(str, runs.values()), "--out", str(out)])
    assert code == 2 and f"{log}:3:" in capsys.readouterr().err
    assert not out.exists()
    (runs["m1-first"] / "run.json").write_text('{"identity": {\n  "agent": }', encoding="utf-8")
    with pytest.raises(SiteInputError, match=re.escape(f"{runs['m1-first'] / 'run.json'}:2:")):
        build([runs["m1-first"]])


def test_run_data_renders_inert(tmp_path) -> None:
    hostile = '<script>window.pwned = 1</script><img src=x onerror="alert(1)">'
    run = make_run(tmp_path / "bad", {"a0": False}, model=hostile, reply=hostile)
    write_site(build([run]), tmp_path / "site", plots=False)
    for page in (tmp_path / "site").rglob("*"):
        if page.suffix in (".html", ".js") and page.parent.name != "assets":
            text = page.read_text(encoding="utf-8")
            assert "<script>window.pwned" not in text and "<img src=x" not in text, page
    row = build([run]).rows[0]
    data = (tmp_path / "site" / "data" / f"{row.id}.js").read_text(encoding="utf-8")
    parsed = json.loads(data.removeprefix("window.SMH_TASKS=").rstrip(";\n"))
    assert hostile in parsed["s"]  # kept whole, as text


def test_refuses_to_replace_a_folder_it_did_not_write(runs, tmp_path) -> None:
    other = tmp_path / "notes"
    other.mkdir()
    (other / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ValueError, match="not a site this command wrote"):
        write_site(build([runs["m2"]]), other, plots=False)
    assert (other / "keep.txt").read_text(encoding="utf-8") == "mine"
    site = tmp_path / "site"
    write_site(build([runs["m2"]]), site, plots=False)
    write_site(build(list(runs.values())), site, plots=False)  # a site of its own: rebuilt
    assert len(list((site / "runs").iterdir())) == 6


def test_a_real_run_records_its_command_and_machine(tmp_path) -> None:
    out = tmp_path / "oracle"
    argv = ["bench", "run", "--suite", "sample", "--agent", "oracle", "--out", str(out), "--quiet"]
    smh_run(*argv, "--no-chart")
    manifest = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert manifest["command"] == ["smh", *argv, "--no-chart"]
    assert manifest["machine"]["cores"] >= 1 and isinstance(manifest["machine"]["gpus"], list)
    row = build([out]).rows[0]
    assert row.command == shlex.join(["smh", *argv, "--no-chart"]) and row.command_recorded
    assert row.baseline == "oracle (reference)" and row.suites["sample"].n == 8
    write_site(build([out]), tmp_path / "site")  # with the plots
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert (
        'alt="Scatter plot of 1 runs' in index
        and (tmp_path / "site/plots/categories.png").is_file()
    )


def test_the_recorded_command_keeps_no_credentials() -> None:
    from smh_core.bench.manifest import redact_command

    argv = ["smh", "bench", "run", "--base-url", "http://me:sk-secret@127.0.0.1:8000/v1?k=s"]
    argv += ["--token", "abc", "--judge-api-key=zz", "--model", "m"]
    assert redact_command(argv) == [
        "smh", "bench", "run", "--base-url", "http://127.0.0.1:8000/v1",
        "--token", "REDACTED", "--judge-api-key=REDACTED", "--model", "m",
    ]  # fmt: skip


def test_a_search_leaves_out_folders_without_a_manifest_and_names_them(runs, tmp_path) -> None:
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / "results.jsonl").write_text("", encoding="utf-8")
    site = build([tmp_path])  # a folder to search, as make site passes runs/
    assert len(site.rows) == len(runs) and site.left_out == [legacy]
    with pytest.raises(SiteInputError, match=re.escape(f"{legacy / 'run.json'}: missing")):
        build([legacy])  # named on the command line: it must be a run


def test_a_p_value_below_a_float_reads_as_a_bound() -> None:
    from smh_core.bench.site_html import _p

    assert (_p(0.0), _p(0.03125)) == ("< 1e-300", "= 0.0312")


def test_the_drill_down_shows_the_request_only_from_an_unchanged_task_file(tmp_path) -> None:
    tasks = tmp_path / "tasks" / "mine.jsonl"  # beside the sample's homes, as it reads them
    tasks.parent.mkdir()
    shutil.copytree("tasks/homes", tasks.parent / "homes")
    tasks.write_text(
        Path("tasks/sample.jsonl").read_text(encoding="utf-8").replace("bedroom lamp", "lamp"),
        encoding="utf-8",
    )
    out = tmp_path / "oracle"
    smh_run("bench", "run", "--tasks", str(tasks), "--agent", "oracle", "--out", str(out))
    texts = {t["id"]: t["request"] for t in build([out]).rows[0].tasks}
    assert texts["exec-1"] == "Turn on the lamp and set it to 30%."
    assert texts["query-1"] and all(texts.values())
    tasks.write_text(  # edited after the run: that task's text is no longer the one it ran
        tasks.read_text(encoding="utf-8").replace("Turn on the lamp", "Turn off the lamp"),
        encoding="utf-8",
    )
    texts = {t["id"]: t["request"] for t in build([out]).rows[0].tasks}
    assert texts["exec-1"] == "" and texts["query-1"]
    site = tmp_path / "site"
    write_site(build([out]), site, plots=False)
    index = (site / "data" / "tasks.js").read_text(encoding="utf-8")
    assert "Turn off the lamp" not in index and texts["query-1"] in index


def test_spoken_runs_get_a_word_error_rate_plot_with_its_figures_in_words(tmp_path) -> None:
    quiet = make_run(tmp_path / "typed", _outcomes(10))
    site = tmp_path / "site"
    write_site(build([quiet]), site)
    assert not (site / "plots" / "wer.png").exists()  # no run spoken: no empty figure
    spoken = make_run(tmp_path / "spoken", _outcomes(10), model="m2", word_errors=1)
    model = build([quiet, spoken])
    assert [r.wer for r in model.rows] == [None, 0.1]  # 40 errors in 400 words
    write_site(model, site)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert (site / "plots" / "wer.png").stat().st_size > 1000
    assert (
        'alt="Bar chart of the word error rate of 1 spoken runs: openai m2 10.0% (40 errors in 400 words)."'
        in index
    )


def _calls_js(site: Path) -> list[str]:
    text = (site / "data" / "calls.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("window.SMH_CALLS=").rstrip(";\n"))


def _tasks_js(site: Path, row_id: str) -> dict:
    text = (site / "data" / f"{row_id}.js").read_text(encoding="utf-8")
    return json.loads(text.removeprefix("window.SMH_TASKS=").rstrip(";\n"))


def test_the_drill_down_shows_each_calls_result_cut_and_inert(tmp_path) -> None:
    hostile = '<script>window.pwned = 1</script><img src=x onerror="alert(1)">'
    long = {"ok": True, "devices": [f"light.room_{k}" for k in range(100)]}
    calls = [
        {"tool": "list_devices", "arguments": {}, "result": long},
        {"tool": "control_device", "arguments": {"did": hostile}, "result": {"error": hostile}},
        {"tool": "finish", "arguments": {"answer": "ok"}, "result": None},
        {"tool": "control_device", "arguments": {"did": "1001"}},  # no result recorded
    ]
    run = make_run(tmp_path / "r", {"a0": False}, calls=calls)
    site = tmp_path / "site"
    write_site(build([run]), site, plots=False)
    table = _calls_js(site)
    row = build([run]).rows[0]
    steps = _tasks_js(site, row.id)["t"][0][6]
    shown = [
        (table[c], None if r == -1 else table[r])
        for c, r in zip(steps[::2], steps[1::2], strict=True)
    ]
    whole = json.dumps(long, separators=(",", ":"), sort_keys=True)  # as the log keeps it
    assert shown[0][0] == "list_devices()"
    assert shown[0][1] == f"{whole[:400]}…({len(whole) - 400:,} more characters)"
    assert shown[1] == (
        "control_device("
        + json.dumps({"did": hostile}, ensure_ascii=False, separators=(",", ":"))
        + ")",
        json.dumps({"error": hostile}, ensure_ascii=False, separators=(",", ":")),
    )
    assert shown[2] == ('finish({"answer":"ok"})', "null") and shown[3][1] is None
    raw = (site / "data" / "calls.js").read_text(encoding="utf-8")
    assert "<script" not in raw and "<img" not in raw  # escaped in the file, text once parsed
    page = (site / "runs" / f"{row.id}.html").read_text(encoding="utf-8")
    assert "each tool call's result at 400" in page and "results.jsonl has them whole" in page


def test_a_big_site_cuts_results_to_its_budget_and_says_so(tmp_path, monkeypatch) -> None:
    from smh_core.bench import site_html

    monkeypatch.setattr(site_html, "RESULT_BUDGET", 200)  # 4 distinct results: 50 each
    calls = [{"tool": "t", "arguments": {"k": k}, "result": "x" * 119 + str(k)} for k in range(3)]
    calls.append({"tool": "t", "arguments": {}, "result": "y" * 30})
    run = make_run(tmp_path / "r", {"a0": True, "a1": False}, calls=calls)
    table, places, most = site_html.call_table(build([run]))
    assert most == 50
    texts = json.loads(table.removeprefix("window.SMH_CALLS=").rstrip(";\n"))
    assert "x" * 50 + "…(70 more characters)" in texts and "y" * 30 in texts
    assert len(places[0]) == 2 and places[0][0] == places[0][1]  # one call text for both tasks
    monkeypatch.setattr(site_html, "RESULT_BUDGET", 1)
    assert site_html.call_table(build([run]))[2] == site_html.RESULT_FLOOR


def test_the_claim_checks_findings_are_in_the_drill_down(tmp_path) -> None:
    run = make_run(tmp_path / "r", {"a0": False})
    site = tmp_path / "site"
    write_site(build([run]), site, plots=False)
    data = _tasks_js(site, build([run]).rows[0].id)
    assert [data["s"][f] for f in data["t"][0][13]] == [
        "false: action \u201cDone\u201d (no change)"
    ]


def test_element_ids_are_unique_on_every_page(runs, tmp_path) -> None:
    site = tmp_path / "site"
    write_site(build(list(runs.values())), site, plots=False)
    for page in [site / "index.html", *(site / "runs").iterdir()]:
        ids = re.findall(r'\sid="([^"]*)"', page.read_text(encoding="utf-8"))
        assert len(ids) == len(set(ids)), (page, sorted(i for i in ids if ids.count(i) > 1))
    index = (site / "index.html").read_text(encoding="utf-8")
    row = build([runs["m2"]]).rows[0]
    assert f'id="row-{row.id}"' in index and f'id="cost-{row.id}"' in index
    back = (site / "runs" / f"{row.id}.html").read_text(encoding="utf-8")
    assert f'href="../index.html#row-{row.id}"' in back  # the run page's way back still lands


def test_the_cycle_collector_is_back_as_it_was_after_a_build(runs, tmp_path) -> None:
    import gc

    assert gc.isenabled()
    write_site(build(list(runs.values())), tmp_path / "site", plots=False)
    assert gc.isenabled()  # off only while reading and writing
    gc.disable()
    try:
        build([runs["m2"]])
        assert not gc.isenabled()  # a caller's choice is kept, not turned on behind its back
    finally:
        gc.enable()
