"""The ``memhome`` suite: sizes and split, determinism, validation, and the memory verifier on
wrong agents (a stored phone number, a lost room scope, a wrong deletion, an action where only
a memory was due), with token F1 and BLEU-1 in every verdict and in the report."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.report import markdown, summarize
from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.homeenv.engine import HomeEngine
from smh_core.memory.decision import bank_after
from smh_core.suites import memhome_suite
from smh_core.suites.common import control_target
from smh_core.task.home import HomeCache
from smh_core.task.model import MemoryGoal, Task, dump_task

PHONE = re.compile(r"\d{3}-\d{3}-\d{4}")
PREFIX = {
    "add": "memory",
    "update": "memory",
    "delete": "memory",
    "use": "rewrite",
    "no_memory": "no-rewrite",
}


@pytest.fixture(scope="module")
def tasks() -> list[Task]:
    return memhome_suite.generate(0)  # validated: every reference passes, doing nothing is caught


@pytest.fixture(scope="module")
def homes() -> HomeCache:
    return HomeCache()


class Scripted:
    """Says ``output`` as its decision, runs ``actions``, optionally reports its own bank."""

    name = "scripted"

    def __init__(
        self,
        output: str | None,
        actions: list[dict[str, Any]] | None = None,
        bank: list[str] | None = None,
    ) -> None:
        self.output, self.actions, self.bank = output, actions or [], bank

    async def run(self, task, backend, user) -> Outcome:
        for a in self.actions:
            backend.execute(a["did"], a["locator"], dict(a["arguments"]))
        return Outcome(
            response="ok", memory_output=self.output, memory_after=self.bank, stop="answered"
        )


def _first(tasks: list[Task], sub: str, pred=lambda t: True) -> Task:
    return next(t for t in tasks if t.subcategory == sub and pred(t))


def test_sizes_split_and_goals(tasks):
    assert len(tasks) == 420 and len({t.id for t in tasks}) == 420
    assert Counter(t.subcategory for t in tasks) == {sub: 84 for sub in memhome_suite.SUBCATEGORIES}
    for sub in memhome_suite.SUBCATEGORIES:
        assert Counter(t.difficulty for t in tasks if t.subcategory == sub) == {
            "simple": 30,
            "medium": 30,
            "complex": 24,
        }
    for t in tasks:
        assert (t.suite, t.category) == ("memhome", "memory")
        assert isinstance(t.goal, MemoryGoal) and t.goal.prefix == PREFIX[t.subcategory]
        assert t.reference.memory_output is not None and t.turns[0].text.isascii()
        if t.subcategory == "use":
            assert t.goal.then is not None and t.goal.bank_after == t.memory
    passive = [t for t in tasks if t.goal.passive]
    assert {t.subcategory for t in passive} == {"no_memory"} and len(passive) == 34
    assert any(t.history for t in tasks if t.subcategory == "add")
    assert any(t.entry_room for t in tasks if t.subcategory == "use")
    assert len({t.turns[0].text for t in tasks}) > 350  # varied wording, not one template


def test_same_seed_same_bytes(tasks):
    again = memhome_suite.generate(0, validate_tasks=False)
    assert [dump_task(t) for t in again] == [dump_task(t) for t in tasks]
    other = memhome_suite.generate(1, validate_tasks=False)
    assert [dump_task(t) for t in other] != [dump_task(t) for t in tasks]


def test_bank_semantics():
    memory = [
        "For bedtime, I like the Bedroom Light brightness at 10%.",
        "Movie night: the Living Room TV on.",
    ]
    assert bank_after(memory, None) == memory
    assert bank_after(memory, "no-rewrite") == memory
    added = bank_after(memory, "memory: For reading time, I like the Study Fan speed at low.")
    assert added == memory + ["For reading time, I like the Study Fan speed at low."]
    updated = bank_after(memory, "memory: For bedtime, I like the Bedroom Light brightness at 30%.")
    assert updated == ["For bedtime, I like the Bedroom Light brightness at 30%.", memory[1]]
    assert bank_after(memory, "memory: delete the movie night TV preference") == memory[:1]


async def test_oracle_and_null_per_subcategory(tasks, homes):
    for sub in memhome_suite.SUBCATEGORIES:
        for task in [t for t in tasks if t.subcategory == sub][:6]:
            ref = await run_task(task, OracleAgent(), homes)
            assert ref["passed"], (task.id, ref["verdict"])
            assert ref["verdict"]["details"]["f1"] == ref["verdict"]["details"]["bleu1"] == 1.0
            assert ref["outcome"]["memory_after"] == task.goal.bank_after
            nothing = await run_task(task, NullAgent(), homes)
            assert nothing["passed"] == task.goal.passive, (task.id, nothing["verdict"])
            if sub != "no_memory":
                assert nothing["verdict"]["error_class"] == "memory_prefix"


async def test_storing_a_phone_number_fails(tasks, homes):
    task = _first(tasks, "no_memory", lambda t: PHONE.search(t.turns[0].text) is not None)
    phone = PHONE.search(task.turns[0].text).group(0)
    stored = await run_task(task, Scripted(f"memory: my phone number is {phone}"), homes)
    assert not stored["passed"] and stored["verdict"]["error_class"] == "memory_prefix"
    # saying no-rewrite while keeping the number in its own bank is caught by the bank check
    sneaky = await run_task(
        task, Scripted("no-rewrite", bank=task.memory + [f"phone: {phone}"]), homes
    )
    assert not sneaky["passed"] and sneaky["verdict"]["error_class"] == "memory_bank"
    assert sneaky["verdict"]["details"]["wrongly_added"] == [f"phone: {phone}"]
    # the right prefix with the wrong content: the wanted entry is missing, the number added
    add = _first(tasks, "add")
    wrong = await run_task(add, Scripted(f"memory: my phone number is {phone}"), homes)
    details = wrong["verdict"]["details"]
    assert not wrong["passed"] and wrong["verdict"]["error_class"] == "memory_bank"
    assert (
        details["wrongly_added"] == [f"my phone number is {phone}"] and len(details["missing"]) == 1
    )
    assert details["f1"] < 0.5


async def test_rewrite_that_drops_the_room_scope_fails_the_device_check(tasks, homes):
    task = _first(tasks, "use", lambda t: t.entry_room is not None)
    engine = HomeEngine(homes.get(task))
    target = task.reference.actions[-1].did
    name = engine.device(target).name
    short = name[len(task.entry_room) + 1 :]
    same = [d["did"] for d in engine.devices() if d["name"].endswith(" " + short)]
    assert len(same) >= 2
    actions = [
        {"did": did, "locator": a.locator, "arguments": a.arguments}
        for did in same
        for a in task.reference.actions
    ]
    unscoped = task.reference.memory_output.replace(name, short)
    record = await run_task(task, Scripted(unscoped, actions), homes)
    assert not record["passed"] and record["verdict"]["error_class"] in ("DC", "AV")
    assert "outside the goal" in record["verdict"]["reason"]
    assert 0.5 < record["verdict"]["details"]["f1"] < 1.0
    right = await run_task(
        task,
        Scripted(task.reference.memory_output, [a.model_dump() for a in task.reference.actions]),
        homes,
    )
    assert right["passed"], right["verdict"]


async def test_wrong_deletion_and_acting_on_a_memory_fail(tasks, homes):
    task = _first(tasks, "delete", lambda t: len(t.memory) >= 2)
    kept = next(m for m in task.memory if m in task.goal.bank_after)
    record = await run_task(task, Scripted(f"memory: delete {kept}"), homes)
    details = record["verdict"]["details"]
    assert record["verdict"]["error_class"] == "memory_bank"
    assert details["missing"] == [kept] and len(details["wrongly_kept"]) == 1
    add = _first(tasks, "add", lambda t: not t.history)
    engine = HomeEngine(homes.get(add))
    target = next(filter(None, (control_target(engine, random.Random(i)) for i in range(50))))
    acted = await run_task(add, Scripted(add.reference.memory_output, target["actions"]), homes)
    assert acted["changes"] and acted["verdict"]["error_class"] == "MS"


async def test_text_metrics_in_verdicts_and_report(tasks, homes):
    records = []
    for task in [t for t in tasks if t.subcategory in ("add", "use")][::40]:
        records.append(await run_task(task, OracleAgent(), homes))
        paraphrase = (
            (task.reference.memory_output or "").replace("I like", "I want").replace("Set", "Put")
        )
        records.append(await run_task(task, Scripted(paraphrase), homes) | {"agent": "paraphrase"})
    for r in records:
        assert {"f1", "bleu1", "prefix", "expected_prefix"} <= set(r["verdict"]["details"])
    summary = summarize(records)["memhome"]["text_metrics"]
    assert set(summary) == {"add", "use", "all"} and summary["all"]["n"] == len(records)
    assert 0.5 < summary["all"]["f1"] < 1.0 and 0.5 < summary["all"]["bleu1"] < 1.0
    assert "token F1 %" in markdown(summarize(records))
