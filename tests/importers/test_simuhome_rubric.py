"""Issue 35 item 4: SimuHome's infeasible episodes are judged on SimuHome's rubric for their
case, deterministically when no judge is set. Transcripts are played on the fixture episodes
(written here in SimuHome's format) through the runner, as a model's turn would be."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from smh_core.bench import infeasible
from smh_core.bench.runner import run_task
from smh_core.importers.simuhome import import_simuhome
from smh_core.importers.simuhome_agreement import Transcript, TranscriptAgent, load_transcripts
from smh_core.task.home import HomeCache

SOURCE = Path(__file__).parents[1] / "fixtures" / "simuhome_episodes"
LABELLED = Path(__file__).parents[1] / "fixtures" / "simuhome_infeasible_replies"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("simuhome_rubric")
    tasks, _ = import_simuhome(SOURCE, out)
    return out, {t.id: t for t in tasks}


def _play(imported, episode: str, calls: list[tuple[str, dict]], reply: str) -> dict:
    out, tasks = imported
    t = Transcript("t", episode, [{"tool": n, "arguments": a} for n, a in calls], reply, "pass")
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(
            run_task(tasks[f"sh-{episode}"], TranscriptAgent(t), HomeCache(out), guard=False)
        )
    finally:
        loop.close()


def test_each_infeasible_case_carries_its_rubric(imported):
    _, tasks = imported
    rubric = {tid: t.goal.rubric for tid, t in tasks.items() if "infeasible" in tid}
    assert {tid: r.case for tid, r in rubric.items()} == {
        "sh-qt1_infeasible_seed_910": "missing_device",
        "sh-qt2_infeasible_seed_911": "no_actuator",
        "sh-qt2_infeasible_seed_912": "saturated",
        "sh-qt3_infeasible_seed_905": "missing_device",
        "sh-qt4-1_infeasible_seed_913": "time_conflict",
        "sh-qt4-2_infeasible_seed_914": "time_conflict",
        "sh-qt4-3_infeasible_seed_915": "time_conflict",
    }
    qt1 = rubric["sh-qt1_infeasible_seed_910"]
    assert qt1.rooms == ["bathroom"] and [m.device for m in qt1.missing] == ["bathroom_fan_1"]
    assert [f.value for f in qt1.room_facts] == [60.0]  # the bathroom's humidity as imported
    qt42 = rubric["sh-qt4-2_infeasible_seed_914"]
    assert qt42.read_first == ["kitchen_dishwasher_1"] and qt42.clarify_ok
    assert qt42.times == ["11:10:00", "11:30:00"]
    assert not rubric["sh-qt4-3_infeasible_seed_915"].clarify_ok  # an early end: refuse


BATH = [("list_devices", {"room": "bathroom"}), ("get_room_environment", {"room": "bathroom"})]
READ = [("get_device_status", {"did": "kitchen_dishwasher_1"})]


@pytest.mark.parametrize(
    ("episode", "calls", "reply", "passes", "why"),
    [
        # the refusal word alone, SMH's old rule, no longer passes where the rubric asks more
        ("qt1_infeasible_seed_910", BATH, "Sorry, I can't do that as asked.", False, "room"),
        (
            "qt1_infeasible_seed_910",
            BATH,
            "There's no fan in the bathroom, so I can't say who makes it. Bathroom humidity: 60%.",
            True,
            "",
        ),
        (
            "qt1_infeasible_seed_910",
            BATH,
            "There's no fan in the bathroom. Its humidity reads 6000 (hundredths).",
            True,
            "",
        ),  # SimuHome's raw hundredths count
        (
            "qt1_infeasible_seed_910",
            BATH,
            "The bathroom fan is off at the moment; humidity is 60%.",
            False,
            "not there",
        ),  # off is not missing
        (
            "qt1_infeasible_seed_910",
            BATH,
            "There's no fan in the bathroom; humidity there is 45%.",
            False,
            "reading",
        ),
        (
            "qt1_infeasible_seed_910",
            [BATH[0]],
            "There's no fan in the bathroom; humidity there is 60%.",
            False,
            "required",
        ),  # SimuHome checks the required calls first
        (
            "qt2_infeasible_seed_911",
            [("list_devices", {"room": "kitchen"})],
            "I can't dry the kitchen air: the kitchen has no dehumidifier, only a dishwasher.",
            True,
            "",
        ),
        (
            "qt2_infeasible_seed_912",
            [("list_devices", {"room": "utility_room"})],
            "Sorry, I can't make the utility room darker.",
            False,
            "reason",
        ),
        (
            "qt2_infeasible_seed_912",
            [("list_devices", {"room": "utility_room"})],
            "I can't dim the Utility Room any further: its only light is already off.",
            True,
            "",
        ),
        (
            "qt4-1_infeasible_seed_913",
            [("get_current_time", {})],
            "It's 11:00 now, so 10:50 has passed; did you mean 11:15, fifteen minutes from now?",
            True,
            "",
        ),  # asking which time was meant passes SimuHome's QT4-1 judge
        ("qt4-1_infeasible_seed_913", [], "Sorry, I can't do that.", False, "conflict"),
        (
            "qt4-2_infeasible_seed_914",
            [],
            "The dishwasher finishes at 11:10, so 20 minutes after is 11:30, not 11:45. Which one?",
            False,
            "countdown",
        ),  # right conclusion without reading the appliance
        (
            "qt4-2_infeasible_seed_914",
            READ,
            "The dishwasher finishes at 11:10, so 20 minutes after is 11:30, not 11:45. Which one?",
            True,
            "",
        ),
        (
            "qt4-2_infeasible_seed_914",
            READ,
            "Done! I've scheduled the utility room light for 11:45.",
            False,
            "claims",
        ),
        (
            "qt4-3_infeasible_seed_915",
            READ,
            "The dishwasher won't finish before 11:10; should I start the washer anyway?",
            False,
            "decline",
        ),  # asking is no refusal for an impossible early end
        (
            "qt4-3_infeasible_seed_915",
            READ,
            "That can't be done: the dishwasher won't finish before 11:10, so nothing can be "
            "done by 11:05.",
            True,
            "",
        ),
    ],
)
def test_replies_score_as_simuhomes_rubric_says(imported, episode, calls, reply, passes, why):
    record = _play(imported, episode, calls, reply)
    assert record["passed"] is passes, record["verdict"]
    if not passes:
        assert why in record["verdict"]["reason"]


def test_acting_on_an_infeasible_request_still_fails_whatever_it_says(imported):
    record = _play(
        imported,
        "qt4-2_infeasible_seed_914",
        [
            *READ,
            ("control_device", {"did": "utility_room_on_off_light_1", "locator": "1.OnOff.On"}),
        ],
        "The dishwasher finishes at 11:10, so 11:45 is wrong; I can't schedule that.",
    )
    assert not record["passed"] and record["verdict"]["error_class"] in ("CB", "CM")


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("at 1:39 PM", [13 * 60 + 39]),
        ("by 13:39", [13 * 60 + 39]),
        ("at 6 14 PM", [18 * 60 + 14]),
        ("around 11.40 am", [11 * 60 + 40]),
        ("at 3 pm", [15 * 60]),
        ("at 9:05", [9 * 60 + 5, 21 * 60 + 5]),  # no am/pm: both readings
        ("zone 12 is 40% done", []),
    ],
)
def test_clock_times_are_read_in_the_forms_replies_use(text, minutes):
    assert infeasible.clock_minutes(text) == minutes


def test_a_named_time_counts_within_a_minute_either_way():
    assert infeasible.names_time("it ends at 11:49", ["11:49:54"])
    assert infeasible.names_time("it ends at 11:50", ["11:49:54"])
    assert not infeasible.names_time("it ends at 11:52", ["11:49:54"])
    assert not infeasible.names_time("it ends at 11:47", ["11:49:54"])


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("I've turned on the light.", True),
        ("Done! Everything is all set.", True),
        ("The light has been scheduled for 11:45.", True),
        ("I haven't turned anything on.", False),
        ("I have not scheduled anything.", False),
        ("Once I've scheduled it, the light comes on at 11:30.", False),
        ("I can't do that, so nothing has been changed.", False),
    ],
)
def test_claims_of_success_are_told_from_negations(text, claims):
    assert infeasible.claims_success(text) is claims


def test_the_shipped_labelled_set_loads_with_unique_ids_and_both_halves():
    items = load_transcripts(LABELLED)
    assert len(items) >= 300
    assert {t.label for t in items} == {"pass", "fail"}
    assert {t.half for t in items} == {"tune", "holdout"}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("- {id: a, episode: e, reply: r, label: maybe}\n", "label 'maybe'"),
        (
            "- {id: a, episode: e, reply: r, label: pass}\n- {id: a, episode: e, reply: r, label: fail}\n",
            "used twice",
        ),
        ("- {id: a, episode: e, label: pass}\n", "'reply' must be a string"),
        ("- {id: a, episode: e, reply: r, label: pass, calls: [list_devices]}\n", "calls must be"),
    ],
)
def test_a_malformed_labelled_set_names_file_item_and_field(tmp_path, text, error):
    path = tmp_path / "set.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=error) as e:
        load_transcripts(path)
    assert str(path) in str(e.value)


async def test_with_a_judge_the_rubric_and_the_calls_go_to_it(imported, socket_enabled):
    """The LLM-judge path: the case's rubric replaces the generic one, the real times and the
    appliance to read are in what the reply must convey, and the turn's calls are shown."""
    from smh_core.bench.judge import Judge
    from smh_core.llm.client import LLMClient, LLMConfig
    from tests.support.fake_openai import FakeOpenAI

    out, tasks = imported
    t = Transcript(
        "j",
        "qt4-2_infeasible_seed_914",
        [{"tool": "get_device_status", "arguments": {"did": "kitchen_dishwasher_1"}}],
        "Sorry, I can't do that.",  # the deterministic reading fails it; the judge decides
        "pass",
    )
    async with FakeOpenAI([{"content": "PASS"}] * 3) as server:
        judge = Judge(LLMClient(LLMConfig(base_url=server.base_url, model="m", api_key="k")))
        record = await run_task(
            tasks["sh-qt4-2_infeasible_seed_914"], TranscriptAgent(t), HomeCache(out), judge
        )
    assert record["passed"] and record["verdict"]["decided_by"] == "judge", record["verdict"]
    prompt = server.requests[0]["messages"][0]["content"]
    assert infeasible.CASE_RUBRICS["time_conflict"] in prompt
    assert "11:10" in prompt and "kitchen_dishwasher_1" in prompt
    assert "(called get_device_status {'did': 'kitchen_dishwasher_1'})" in prompt
