"""Importing home-assistant-datasets' recorded traces and published verdicts (a hand-made checkout
in its format under tests/fixtures/ha_traces), and the agreement rules they are judged by."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from smh_core.cli.main import main
from smh_core.importers import ha_traces as traces
from smh_core.importers.ha_datasets import import_ha_datasets
from smh_core.importers.ha_traces import ToolOutcome, TraceCall, import_traces
from smh_core.importers.trace_agreement import Replayed, cause, first_difference, rows, summary
from smh_core.importers.trace_agreement import unexpected_states as source_rule

CHECKOUT = Path(__file__).parents[1] / "fixtures" / "ha_traces"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("had")
    tasks, report = import_ha_datasets(CHECKOUT / "datasets", out)
    traced = import_traces(CHECKOUT / "datasets", tasks, report, out)
    return out, tasks, traced


def _case(traced, case_id: str):
    return next(c for c in traced.cases if c.id == case_id)


def test_every_published_row_with_a_trace_becomes_a_case(imported):
    out, _, traced = imported
    assert len(traced.cases) == 9 and traced.without_trace == {
        "2025.4.3": 1
    }  # model-c has no trace file
    assert [c.id for c in traces.load_cases(out / traces.TRACES_FILE)] == [
        c.id for c in traced.cases
    ]
    versions = {c.version for c in traced.cases}
    assert versions == {"2025.4.3", "2024.9.2 (archived)"}


def test_cases_carry_the_calls_their_results_and_the_verdict(imported):
    _, tasks, traced = imported
    dim = _case(traced, "assist-mini/2025.4.3/model-a/studio_lights-dim_the_desk_lamp_to_50-0")
    assert dim.published and dim.response == "Done, 50%."
    assert dim.calls == [
        TraceCall(
            tool="HassLightSet",
            arguments={"name": "Desk Lamp", "brightness": 50},
            recorded=ToolOutcome(ok=True, targets=["light.desk_lamp"]),
        )
    ]
    assert dim.task in {t.id for t in tasks} and dim.unjudgeable is None
    ambiguous = _case(traced, "assist-mini/2025.4.3/model-a/studio_locks-unlock_the_door_lock-0")
    assert not ambiguous.published
    assert (
        not ambiguous.calls[0].recorded.ok and "DUPLICATE_NAME" in ambiguous.calls[0].recorded.error
    )
    old = _case(
        traced, "assist-mini/2024.9.2 (archived)/old-model/studio_lights-turn_on_the_loft_light"
    )
    assert old.calls[0].recorded == ToolOutcome(
        ok=True, targets=["light.loft_light"]
    )  # the area is not a target
    assistant = _case(
        traced, "assist-mini/2024.9.2 (archived)/assistant/studio_lights-turn_on_the_loft_light"
    )
    assert assistant.builtin_agent and assistant.calls == [] and assistant.task == old.task


def test_cases_no_task_can_judge_say_why(imported):
    _, _, traced = imported
    thermostat = _case(
        traced, "assist-mini/2025.4.3/model-b/studio_climate-turn_off_the_thermostat-0"
    )
    assert thermostat.task is None and thermostat.unjudgeable.startswith("not imported: ")
    assert "climate.thermostat" in thermostat.unjudgeable
    gone = _case(traced, "assist-mini/2025.4.3/model-b/studio_lights-switch_on_the_desk_lamp-0")
    assert gone.task is None and "no test with this sentence" in gone.unjudgeable


def test_halves_split_by_test_with_every_model_on_one_side(imported):
    _, _, traced = imported
    by_test: dict[str, set[str]] = {}
    for c in traced.cases:
        if c.test is not None:
            by_test.setdefault(c.test, set()).add(c.half)
    assert all(len(h) == 1 for h in by_test.values())
    assert traces.half_of("x") == traces.half_of("x") and {
        traces.half_of(str(i)) for i in range(20)
    } == {"tune", "holdout"}


def test_tests_sharing_a_sentence_resolve_to_the_later_one(tmp_path):
    folder = tmp_path / "datasets" / "assist-mini" / "flat"
    folder.mkdir(parents=True)
    (folder / "_fixtures.yaml").write_text(
        "areas: []\ndevices: []\nentities:\n  - {name: Lamp, id: light.lamp}\n"
    )
    (folder / "lights.yaml").write_text(
        "category: light\ntests:\n"
        "  - sentences: [Lamp on]\n    setup: {light.lamp: {state: 'off'}}\n    expect_changes: {light.lamp: {state: 'on'}}\n"
        "  - sentences: [Lamp on]\n    setup: {light.lamp: {state: 'on'}}\n    expect_changes: {light.lamp: {state: 'on'}}\n"
    )
    [(key, found)] = traces.source_tests(tmp_path / "datasets").items()
    assert key == ("assist-mini", "flat_lights", "lamp_on") and [t.item for t in found] == [
        "assist-mini/flat/lights test 0 sentence 0",
        "assist-mini/flat/lights test 1 sentence 0",
    ]


@pytest.mark.parametrize(
    ("result", "outcome"),
    [
        (
            {
                "dictitems": {
                    "response_type": "action_done",
                    "data": {"success": [{"id": "light.a", "type": "entity"}]},
                }
            },
            ToolOutcome(ok=True, targets=["light.a"]),
        ),
        (
            '{"response_type": "error", "data": {"code": "no_valid_targets"}}',
            ToolOutcome(ok=False, error="no_valid_targets"),
        ),
        (
            {"error": "HomeAssistantError", "error_text": "boom"},
            ToolOutcome(ok=False, error="HomeAssistantError: boom"),
        ),
        (
            {
                "error": "MatchFailedError",
                "error_text": "<MatchFailedError result=MatchTargetsResult(is_match=False, "
                "no_match_reason=<MatchFailedReason.DUPLICATE_NAME: 11>, states=[])>",
            },  # HA before 2026.10
            ToolOutcome(
                ok=False,
                error="MatchFailedError: <MatchFailedError result=MatchTargetsResult(is_match=False, "
                "no_match_reason=<MatchFailedReason.DUPLICATE_NAME: 11>, states=[])>",
                reason="DUPLICATE_NAME",
            ),
        ),
        (
            {
                "error": "MatchFailedError",
                "error_text": "No entities matched (given name Door)",
                "reason": "DUPLICATE_NAME",
            },
            ToolOutcome(
                ok=False,
                error="MatchFailedError: No entities matched (given name Door)",
                reason="DUPLICATE_NAME",
            ),
        ),
        ({"success": True, "result": "Live context: ..."}, ToolOutcome(ok=True)),
        ("not json", ToolOutcome(ok=True)),
    ],
)
def test_tool_results_reduce_to_what_compares_across_versions(result, outcome):
    assert traces.outcome_of(result) == outcome


def test_results_pair_with_calls_by_tool_in_order():
    trace = [
        {
            "event_type": "agent_detail",
            "data": {
                "messages": [
                    {"role": "tool_result", "tool_name": "B", "tool_result": {"error": "X"}},
                    {
                        "role": "tool_result",
                        "tool_name": "A",
                        "tool_result": {"response_type": "action_done", "data": {}},
                    },
                ]
            },
        },
        {"event_type": "tool_call", "data": {"tool_name": "A", "tool_args": {"name": "a"}}},
        {"event_type": "tool_call", "data": {"tool_name": "B", "tool_args": "not a dict"}},
        {"event_type": "tool_call", "data": {"tool_name": "C", "tool_args": {}}},
    ]
    a, b, c = traces.trace_calls(trace)
    assert (a.tool, a.arguments, a.recorded.ok) == ("A", {"name": "a"}, True)
    assert (b.arguments, b.recorded) == ({}, ToolOutcome(ok=False, error="X"))
    assert c.recorded is None


def test_the_sources_rule_on_states():
    before = {
        "light.a": {"state": "off", "brightness": None},
        "light.b": {"state": "on", "brightness": 10},
    }
    expect = {"light.a": {"state": "on", "attributes": {"brightness": 128}}}
    good = {
        "light.a": {"state": "on", "brightness": 128},
        "light.b": {"state": "on", "brightness": 10},
    }
    assert source_rule(before, good, expect, {}) == {}
    read_back = {**good, "light.a": {"state": "on", "brightness": 127}}  # HA shows another value
    assert source_rule(before, read_back, expect, {}) == {
        "light.a": {"expected": {"brightness": 128}, "got": {"brightness": 127}}
    }
    stray = {**good, "light.b": {"state": "off", "brightness": None}}
    assert set(source_rule(before, stray, expect, {})) == {"light.b"}
    assert source_rule(before, stray, expect, {"light.b": ["state", "brightness"]}) == {}
    assert (
        source_rule(before, good, {"light.gone": {"state": "on"}}, {})["light.gone"]["got"] is None
    )


def test_causes_name_the_first_call_that_went_differently(imported):
    _, _, traced = imported
    ambiguous = _case(traced, "assist-mini/2025.4.3/model-a/studio_locks-unlock_the_door_lock-0")
    acted = Replayed(
        case=ambiguous.id,
        results=[ToolOutcome(ok=True, targets=["lock.door_lock"])],
        verdict={"passed": True},
        before={"lock.door_lock": {"state": "locked"}},
        after={"lock.door_lock": {"state": "unlocked"}},
    )
    assert (
        first_difference(ambiguous.calls, acted.results)
        == "HassTurnOff: recorded failed (DUPLICATE_NAME), here acted on 1"
    )
    assert cause(ambiguous, acted, "verifier") == (
        "more lenient; a call went differently: HassTurnOff: recorded "
        "failed (DUPLICATE_NAME), here acted on 1"
    )
    for text in (
        "MatchFailedError: <... MatchFailedReason.DUPLICATE_NAME: 11>",
        "MatchFailedError: No entities",
    ):
        here = [
            ToolOutcome(ok=False, error=text, reason="DUPLICATE_NAME")
        ]  # smh.call_tools's reason
        assert (
            first_difference(ambiguous.calls, here) is None
        )  # whatever text this HA release writes
    other = [ToolOutcome(ok=False, error="MatchFailedError: No entities", reason="NAME")]
    assert (
        first_difference(ambiguous.calls, other)
        == "HassTurnOff: recorded failed (DUPLICATE_NAME), here failed (NAME)"
    )
    refused = acted.model_copy(
        update={
            "results": [ToolOutcome(ok=False, error="MatchFailedError: DUPLICATE_NAME")],
            "verdict": {"passed": False},
            "after": acted.before,
        }
    )
    assert (
        cause(ambiguous, refused, "verifier") is None
        and cause(ambiguous, refused, "ha_state") is None
    )
    sorry = _case(traced, "assist-mini/2025.4.3/model-b/studio_locks-unlock_the_door_lock-0")
    done = acted.model_copy(update={"case": sorry.id})
    assert cause(sorry, done, "verifier") is None  # the reply says Sorry: Bad, as published
    table = rows([ambiguous, sorry], {ambiguous.id: acted, sorry.id: done})
    assert summary(table)["verifier"]["all"] == {
        "cases": 2,
        "judgeable": 2,
        "agree": 1,
        "published_good": 0,
    }


def test_the_cli_imports_the_traces_with_the_tasks(tmp_path, capsys):
    assert (
        main(
            [
                "tasks",
                "import",
                "--from",
                "ha-datasets",
                str(CHECKOUT / "datasets"),
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert f"wrote {tmp_path / traces.TRACES_FILE}: 9 published verdicts with traces" in out
    assert (
        json.loads((tmp_path / traces.TRACES_FILE).read_text().splitlines()[0])["dataset"]
        == "assist-mini"
    )


def _git(repo: Path, *args: str) -> None:
    import subprocess

    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


@pytest.mark.skipif(
    shutil.which("git") is None,
    reason="builds a git checkout; no git here (the newest-HA lanes' Debian sid root has none)",
)
def test_a_report_older_than_the_dataset_is_judged_on_the_dataset_it_ran_on(tmp_path):
    """In a git checkout, a case whose test was reworded after its report is matched to the
    dataset at the revision that added the report, imported beside the suite, not into it."""
    repo = tmp_path / "checkout"
    home = repo / "datasets" / "assist-mini" / "flat"
    home.mkdir(parents=True)
    (home / "_fixtures.yaml").write_text(
        "areas: []\ndevices: []\nentities:\n  - {name: Lamp, id: light.lamp}\n"
    )
    test = (
        "category: light\ntests:\n  - sentences: [{s}]\n    setup: {{light.lamp: {{state: 'off'}}}}\n"
        "    expect_changes: {{light.lamp: {{state: 'on'}}}}\n"
    )
    (home / "lights.yaml").write_text(test.format(s="Lamp on"))
    report = repo / "reports" / "assist-mini" / "2025.1.1"
    (report / "m").mkdir(parents=True)
    (report / "report.csv").write_text("task_id,model_id,label\nflat_lights-lamp_on-0,m,Good\n")
    (report / "m" / "flat_lights-lamp_on-0.yaml").write_text(
        "task: {input_text: Lamp on, expect_changes: {light.lamp: {state: 'on'}}}\nresponse: On.\n"
        "context: {conversation_trace: []}\n"
    )
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "report")
    (home / "lights.yaml").write_text(test.format(s="Light on"))  # reworded after the report
    _git(repo, "commit", "-q", "-am", "reword")
    out = tmp_path / "out"
    tasks, report_ = import_ha_datasets(repo / "datasets", out)
    [case] = import_traces(repo / "datasets", tasks, report_, out).cases
    from smh_core.importers.ha_history import HISTORY_TASKS
    from smh_core.task.model import load_tasks

    history = load_tasks([out / HISTORY_TASKS])
    assert [t.turns[0].text for t in history] == ["Lamp on"] and case.task == history[0].id
    assert case.unjudgeable is None and case.test.endswith("flat/lights test 0 sentence 0")
    assert (out / history[0].home.file).is_file()
    assert [t.turns[0].text for t in load_tasks([out / "ha_datasets.jsonl"])] == [
        "Light on"
    ]  # the suite


def test_a_call_that_acted_on_other_entities_says_so():
    calls = [
        TraceCall(
            tool="HassLightSet", arguments={}, recorded=ToolOutcome(ok=True, targets=["light.a"])
        )
    ]
    assert (
        first_difference(calls, [ToolOutcome(ok=True, targets=["light.b"])])
        == "HassLightSet: recorded and here acted on 1, not the same entities"
    )
    assert first_difference(calls, [ToolOutcome(ok=True, targets=["light.a"])]) is None
    assert (
        first_difference(calls, [ToolOutcome(ok=True, targets=["light.a", "light.b"])])
        == "HassLightSet: recorded acted on 1, here acted on 2"
    )


def test_the_replay_agent_needs_home_assistant_and_the_traces(tmp_path, capsys):
    out = tmp_path / "had"
    assert (
        main(
            [
                "tasks",
                "import",
                "--from",
                "ha-datasets",
                str(CHECKOUT / "datasets"),
                "--out",
                str(out),
            ]
        )
        == 0
    )
    capsys.readouterr()
    tasks = str(out / "ha_datasets.jsonl")
    assert (
        main(
            [
                "bench",
                "run",
                "--tasks",
                tasks,
                "--agent",
                "replay-traces",
                "--out",
                str(tmp_path / "r"),
            ]
        )
        == 2
    )
    assert "--agent replay-traces runs inside Home Assistant" in capsys.readouterr().err
    (out / traces.TRACES_FILE).unlink()
    assert (
        main(
            [
                "bench",
                "run",
                "--tasks",
                tasks,
                "--agent",
                "replay-traces",
                "--backend",
                "ha",
                "--ha-url",
                "http://127.0.0.1:9",
                "--token",
                "t",
                "--out",
                str(tmp_path / "r"),
            ]
        )
        == 2
    )
    assert "needs the traces file" in capsys.readouterr().err


def test_published_replies_claims_are_checked_against_the_replayed_states(imported):
    """Issue 38: a recorded reply's claims, read against the HA states its replayed turn left
    (the imported home's devices carry the source's entity ids and names)."""
    from smh_core.bench.claims import state_changes
    from smh_core.importers.trace_claims import Listings, case_claims, per_model
    from smh_core.task.home import HomeCache

    out, tasks, traced = imported
    dim = _case(traced, "assist-mini/2025.4.3/model-a/studio_lights-dim_the_desk_lamp_to_50-0")
    listing = Listings({t.id: t for t in tasks}, HomeCache(out))
    lamp_on = {"light.desk_lamp": {"state": "on", "brightness": 128}}
    lamp_off = {"light.desk_lamp": {"state": "off"}}
    assert state_changes(lamp_on, lamp_off) == [
        ("light.desk_lamp", "brightness", 128, None),
        ("light.desk_lamp", "state", "on", "off"),
    ]
    said = dim.model_copy(update={"response": "I've turned off the desk lamp."})
    true = case_claims(said, Replayed(case=dim.id, before=lamp_on, after=lamp_off), listing)
    false = case_claims(said, Replayed(case=dim.id, before=lamp_on, after=lamp_on), listing)
    assert [(c.devices, c.truth) for c in true.claims] == [(["light.desk_lamp"], "true")]
    assert [(c.devices, c.truth) for c in false.claims] == [(["light.desk_lamp"], "false")]
    failed = case_claims(said, Replayed(case=dim.id, problem="HA refused"), listing)
    assert failed is None  # a replay that did not run judges no reply
    rows = per_model([said], {said.id: false})
    row = rows[(said.dataset, said.version, said.model)]
    assert (row.replies, row.claimed, row.false, row.cases) == (1, 1, 1, 1)


def test_per_kind_agreement_matches_claims_by_entity(tmp_path):
    from smh_core.bench.claims import Claim
    from smh_core.importers.trace_claims import CaseClaims, per_kind

    labels = tmp_path / "set.yaml"
    labels.write_text(
        "- id: a\n  claims:\n"
        "    - {kind: action, about: [light.x], truth: 'false'}\n"
        "    - {kind: state, about: [lock.y], truth: 'true'}\n"
        "    - {kind: action, about: [], truth: 'true'}\n"
    )
    said = Claim("I turned off X", "action", "off", True, ["light.x"], "false", "")
    results = {"a": CaseClaims(None, [said])}  # type: ignore[arg-type]
    assert per_kind(labels, results) == {"action": (2, 1, 1), "state": (1, 0, 0)}
