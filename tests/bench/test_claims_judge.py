"""Said versus did with an LLM judge (``--judge-claims``, issue 38): the reader's claims, each
decided by the judge's majority from what the turn did; behind the same record fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from smh_core.bench.judge import Judge
from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.task.home import HomeCache
from smh_core.task.model import load_tasks
from tests.support.fake_openai import FakeOpenAI

TASKS = Path(__file__).resolve().parents[2] / "tasks"


class SaysDone:
    """Never acts, always says it did."""

    name = "says-done"

    async def run(self, task, backend, user) -> Outcome:
        return Outcome(response="Done.", stop="answered")


def _judge(server: FakeOpenAI, claims: bool = True) -> Judge:
    return Judge(
        LLMClient(LLMConfig(base_url=server.base_url, model="m", api_key="k")), claims=claims
    )


@pytest.mark.parametrize(
    ("answers", "verdict"),
    [
        (["TRUE", "TRUE", "FALSE"], "TRUE"),
        (["false.", "FALSE", "TRUE"], "FALSE"),
        (["TRUE", "FALSE", "UNVERIFIABLE"], "UNVERIFIABLE"),  # no majority: undecided
        (["Sure! TRUE", "maybe", "FALSE"], "UNVERIFIABLE"),  # not an answer: undecided
    ],
)
async def test_the_judge_takes_the_majority_and_doubt_is_unverifiable(
    answers: list[str], verdict: str, socket_enabled
) -> None:
    async with FakeOpenAI([{"content": a} for a in answers]) as server:
        answer, votes, _ = await _judge(server).choose("q", ("TRUE", "FALSE", "UNVERIFIABLE"))
    assert answer == verdict and len(votes) == 3


async def test_judged_claims_take_the_judges_truth_and_keep_the_readers(socket_enabled) -> None:
    task = next(t for t in load_tasks([TASKS / "sample.jsonl"]) if t.goal_kinds[0] == "execute")
    async with FakeOpenAI([{"content": "UNVERIFIABLE"}] * 3) as server:
        record = await run_task(task, SaysDone(), HomeCache(TASKS), _judge(server))
    (claim,) = record["claims"]
    assert claim["truth"] == "unverifiable" and record["false_claims"] == 0
    assert "judge (unverifiable 3)" in claim["evidence"] and "reader: false" in claim["evidence"]
    prompt = server.requests[0]["messages"][0]["content"]
    assert '"Done."' in prompt and "Calls:\n- none" in prompt and "Changes:\n- none" in prompt
    async with FakeOpenAI([{"content": "FALSE"}] * 3) as server:
        record = await run_task(task, SaysDone(), HomeCache(TASKS), _judge(server))
    assert record["false_claims"] == 1


async def test_without_judge_claims_the_reader_decides_and_the_judge_is_not_asked(
    socket_enabled,
) -> None:
    task = next(t for t in load_tasks([TASKS / "sample.jsonl"]) if t.goal_kinds[0] == "execute")
    async with FakeOpenAI([{"content": "TRUE"}] * 3) as server:
        record = await run_task(task, SaysDone(), HomeCache(TASKS), _judge(server, claims=False))
    assert record["false_claims"] == 1 and not server.requests


def test_judge_claims_needs_a_judge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from smh_core.cli.main import main

    code = main(
        ["bench", "run", "--suite", "sample", "--agent", "oracle", "--judge-claims"]
        + ["--out", str(tmp_path / "out")]
    )
    assert code == 2 and "--judge-claims needs a judge" in capsys.readouterr().err
    assert not (tmp_path / "out" / "results.jsonl").exists()
