"""The smh suite's ambiguous-intent subcategories (state_level, scene_level, slot_missing) in
German, Spanish, French and Chinese: the wording draws as English's does, each clarifying
exchange is in the language (the request, the question the reference asks, the simulated user's
reply), and the verifier judges the exchange the same way in every language: by whether the
agent asked and what the home looks like after the reply, never by the words of the question."""

from __future__ import annotations

import asyncio
import random

import pytest

from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_task
from smh_core.languages.smh import LANGUAGES, wording
from smh_core.suites import smh_languages as L
from smh_core.task.model import Task

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
AMBIGUOUS = ("state_level", "scene_level", "slot_missing")
QUESTION_ENDS = ("?", "？")
"""How Home Assistant tells a reply that asks from one that answers
(``ChatLog.continue_conversation``: the reply ends with ``?``, ``？`` or the Greek ``;``): a
question that ends otherwise would close the conversation before the user's reply in a run
through HA. Spanish opens with ``¿`` and still ends with ``?``."""
DATA = ("OPENERS", "COMPLAINTS", "STATE_ASK", "STATE_REPLY", "SCENE_PHRASES", "SCENE_ASK")
DATA += ("SCENE_REPLY", "COOKING", "DURATIONS")


def _shape(value: object) -> object:
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    return len(value) if isinstance(value, tuple) else type(value).__name__


@pytest.mark.parametrize("lang", OTHERS)
def test_the_ambiguous_wording_draws_as_english_does(lang: str) -> None:
    """Every phrase list is as long as English's and each function consumes the random stream
    as English's does (so task ``i`` stays English's task ``i``)."""
    w, en = wording(lang), wording("en")
    assert {n: _shape(getattr(w, n)) for n in DATA} == {n: _shape(getattr(en, n)) for n in DATA}
    home = L.localised_home(lang, "medium", 0)
    dev, room = home.devices[0].name, home.rooms[0].name
    calls = [
        *(
            ("missing_value", (dev, loc, val, unit), ("x", loc, val, unit))
            for loc, val, unit in (
                ("brightness", 40, "percentage"),
                ("alias", "x", None),
                ("work_mode", "eco", None),
            )
        ),
        *(("missing_room_switch", (dev, on), ("x", on)) for on in (True, False)),
        ("missing_room_ask", (dev, room), ("x", "r")),
        *(("missing_device", (room, on, 3, dev), ("r", on, 3, "x")) for on in (True, False)),
        *(
            ("cooking_request", (name, dev, mode, seconds), (name and "y", "x", mode, seconds))
            for name in (None, dev)
            for mode in sorted(en.COOKING)
            for seconds in sorted(en.DURATIONS)
        ),
        *(("heating_request", (name, 45), (name and "y", 45)) for name in (None, dev)),
    ]
    for name, local, english in calls:
        for seed in range(6):
            a, b = random.Random(seed), random.Random(seed)
            said = getattr(w, name)(a, *local)
            getattr(en, name)(b, *english)
            assert a.random() == b.random(), (name, local)
            assert all(s and "{" not in s for s in ([said] if isinstance(said, str) else said))


def _clarifying(lang: str) -> list[Task]:
    return [t for t in L.build(0, lang)[0] if t.goal.kind == "clarify"]


@pytest.mark.parametrize("lang", [*OTHERS, "en"])
def test_every_clarifying_exchange_is_a_question_and_a_reply(lang: str) -> None:
    """A clarify task's reference asks a question Home Assistant reads as one, and the simulated
    user has one reply to it; the same tasks ask in every language (77 of the 150)."""
    tasks = _clarifying(lang)
    assert len(tasks) == 77
    for t in tasks:
        assert t.subcategory in AMBIGUOUS and t.reference.mode == "clarify"
        if lang == "en":  # two of English's shipped questions end with a remark ("There are 3.")
            assert "?" in t.reference.response, t.id
        else:
            assert t.reference.response.endswith(QUESTION_ENDS), (t.id, t.reference.response)
        assert len(t.turns[0].replies) == 1 and t.turns[0].replies[0].strip(), t.id
    if lang in ("es",):  # a Spanish question opens as one too
        assert all("¿" in t.reference.response for t in tasks)


def _variant(task: Task, **reference: object) -> Task:
    return task.model_copy(update={"reference": task.reference.model_copy(update=reference)})


def _verdicts(tasks: list[Task], lang: str, agent: object) -> list[dict]:
    homes = L.LanguageHomes(0, lang)

    async def run() -> list[dict]:
        return [await run_task(t, agent, homes) for t in tasks]  # type: ignore[arg-type]

    loop = asyncio.new_event_loop()  # not asyncio.run: it leaves no current loop for the next test
    try:
        return loop.run_until_complete(run())
    finally:
        loop.close()


@pytest.mark.parametrize("lang", [*OTHERS, "en"])
def test_the_verifier_judges_the_clarifying_exchange_alike_in_every_language(lang: str) -> None:
    """On a sample of the clarify tasks of each language (behind the action guard, as every run):
    asking and then doing what the reply asks for passes, whatever the question's words or
    script (``¿…?``, ``？``, another language's); acting without asking fails as the wrong mode
    (MS); asking and then doing nothing fails; and so does doing nothing at all."""
    tasks = _clarifying(lang)[::8]
    assert len(tasks) == 10
    asked = _verdicts(tasks, lang, OracleAgent())
    assert all(r["passed"] for r in asked), [r["verdict"] for r in asked if not r["passed"]]
    for question in ("¿En qué habitación estás?", "你在哪个房间？", "Which one?"):
        other = _verdicts([_variant(t, response=question) for t in tasks], lang, OracleAgent())
        assert all(r["passed"] for r in other), question
    unasked = _verdicts([_variant(t, mode="execute") for t in tasks], lang, OracleAgent())
    assert not any(r["passed"] for r in unasked)
    assert {(r["verdict"]["reason"], r["verdict"]["error_class"]) for r in unasked} == {
        ("acted without asking for the missing information", "MS")
    }
    idle = _verdicts([_variant(t, actions=[]) for t in tasks], lang, OracleAgent())
    assert not any(r["passed"] for r in idle)
    assert all(r["outcome"]["questions"] for r in idle)
    nothing = _verdicts(tasks, lang, NullAgent())
    assert {r["verdict"]["reason"] for r in nothing} == {"did not ask for clarification"}
