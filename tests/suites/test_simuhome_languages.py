"""The simuhome suite in German, Spanish, French and Chinese: the wording modules keep the
English one's shape (so every language draws the same way), English stays the shipped file,
each language has the English suite's tasks per query type and feasibility on homes named in
it, no English word is left in what the user or the reference says, an infeasible request's
reference reply declines in the language's words (and a feasible one does not), the same seed
gives the same bytes, and every task validates (the reference passes, doing nothing fails).

What "no English left" checks: every request, reference reply and reason of every task, and
every room and device name of the language's homes, searched for whole English words the
English wording uses (device kinds, room names, "the", "please", "sorry", "minutes", "AM",
"PM", ...), for leftover ``{placeholders}`` and for ``_`` (a kind key such as ``air_purifier``
said as is). It cannot tell good German from bad: docs/wording-review.md is for that.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path

import pytest

from smh_core.bench.refusals import declines
from smh_core.bench.runner import run_task
from smh_core.bench.verifier import Outcome
from smh_core.cli.main import main
from smh_core.languages.names import names
from smh_core.languages.simuhome import LANGUAGES, wording
from smh_core.suites import simuhome_languages as L
from smh_core.suites import simuhome_suite as S
from smh_core.task.model import dump_task

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
SHIPPED = Path(__file__).resolve().parents[2] / "tasks" / "simuhome.jsonl"
ENGLISH_WORDS = re.compile(
    r"\b(?:the|please|could|sorry|done|scheduled|minutes|finishes|turn|switch|level|percent|"
    r"room|living|kitchen|bathroom|bedroom|office|study|utility|light|fan|purifier|humidifier|"
    r"dehumidifier|conditioner|washer|dishwasher|dryer|am|pm|is|in|and|there)\b",
    re.I,
)
SHARED = {"de": {"in", "am"}, "fr": {"minutes", "purifier", "humidifier"}}
"""English words that are also words of the language (German ``in``, French ``minutes`` and the verbs ``purifier``, ``humidifier``)."""


def _english_left(text: str, lang: str) -> set[str]:
    found = {m.group(0).lower() for m in ENGLISH_WORDS.finditer(text)}
    return found - SHARED.get(lang, set())


def _shape(module) -> dict[str, object]:
    def size(value: object) -> object:
        if isinstance(value, dict):
            return {k: size(v) for k, v in value.items()}
        return len(value) if isinstance(value, tuple) else type(value).__name__

    en = wording("en")
    return {name: size(getattr(module, name)) for name in dir(en) if name.isupper()}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_the_english_wording_s_shape(lang: str) -> None:
    assert _shape(wording(lang)) == _shape(wording("en"))


def test_english_is_the_shipped_suite() -> None:
    tasks, homes = L.build(0, "en")
    assert "".join(dump_task(t) + "\n" for t in tasks) == SHIPPED.read_text(encoding="utf-8")
    assert homes == () and L.task_file("en") == "simuhome.jsonl"
    assert L.task_file("de") == "simuhome.de.jsonl"


@pytest.mark.parametrize("lang", OTHERS)
def test_tasks_carry_their_language_and_match_the_english_draws(lang: str) -> None:
    tasks, homes = L.build(0, lang)
    english, _ = L.build(0, "en")
    assert all(t.language == lang and t.id.startswith(f"simuhome-{lang}-") for t in tasks)
    assert [t.id.replace(f"simuhome-{lang}-", "simuhome-") for t in tasks] == [
        t.id for t in english
    ]
    # the same draw: same home seed, start, goal and reference actions as the English task
    for t, e in zip(tasks, english, strict=True):
        assert t.home.file == L.home_file(lang, e.home.seed)
        assert (t.start_time, t.overrides) == (e.start_time, e.overrides)
        assert t.goal.model_dump(exclude={"reason"}) == e.goal.model_dump(exclude={"reason"})
        assert t.reference.actions == e.reference.actions
        assert t.reference.schedules == e.reference.schedules
    assert Counter(t.subcategory for t in tasks) == Counter(t.subcategory for t in english)
    assert {t.home.file for t in tasks} == {path for path, _ in homes}
    assert not {t.turns[0].text for t in tasks} & {t.turns[0].text for t in english}


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_left_in_what_is_said_or_in_the_homes(lang: str) -> None:
    tasks, homes = L.build(0, lang)
    said = [t.turns[0].text for t in tasks] + [t.reference.response or "" for t in tasks]
    said += [t.goal.reason for t in tasks if t.goal.kind == "infeasible"]
    for _, home in homes:
        said += [r.name for r in home.rooms] + [d.name for d in home.devices]
    own = {f[0] for forms in names(lang).ROOMS.values() for f in forms}
    for _, home in homes:
        assert all(r.name in own for r in home.rooms)
    left = {text: _english_left(text, lang) for text in said}
    assert not {t: w for t, w in left.items() if w}
    assert not [t for t in said if re.search(r"[{}_]", t)]


@pytest.mark.parametrize("lang", OTHERS)
def test_refusals_are_read_in_the_language(lang: str) -> None:
    tasks, _ = L.build(0, lang)
    infeasible = [t.reference.response or "" for t in tasks if t.goal.kind == "infeasible"]
    feasible = [t.reference.response or "" for t in tasks if t.goal.kind != "infeasible"]
    assert len(infeasible) == 300 and all(declines(r, lang) for r in infeasible)
    assert not [r for r in feasible if declines(r, lang)]


def test_a_german_refusal_is_not_read_as_english() -> None:
    reply = "Leider gibt es im Bad keinen Luftreiniger."
    assert declines(reply, "de") and not declines(reply, None) and not declines(reply, "it")
    assert not declines("Ich habe den Luftreiniger 1 im Bad eingeschaltet.", "de")


@pytest.mark.parametrize("lang", OTHERS)
def test_same_seed_same_bytes(lang: str) -> None:
    def dumped() -> str:
        w = wording(lang)
        tasks = S.draw(
            0, 3, w, lambda s: L.localised_home(lang, s), lambda s: {"file": L.home_file(lang, s)}
        )
        return "".join(dump_task(t) for t in tasks)

    first = dumped()
    assert first == dumped()
    built = "".join(dump_task(t) for t in L.build(0, lang)[0] if int(t.id[-3:]) < 3)
    assert first == built.replace(f'"id":"simuhome-{lang}-', '"id":"simuhome-').replace(
        f',"language":"{lang}"', ""
    )


@pytest.mark.parametrize("lang", OTHERS)
def test_every_task_validates(lang: str) -> None:
    L.generate(0, lang)  # raises naming the task where the reference fails or nothing passes


def test_the_cli_writes_a_language_s_suite_and_its_homes(tmp_path: Path) -> None:
    args = ["tasks", "generate", "--suite", "simuhome", "--language", "de", "--out", str(tmp_path)]
    assert main(args) == 0
    lines = (tmp_path / "simuhome.de.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 600
    assert sorted(p.name for p in (tmp_path / "homes").iterdir()) == sorted(
        Path(path).name for path, _ in L.build(0, "de")[1]
    )
    assert main([*args[:-4], "--language", "pt"]) != 0


class _Replying:
    """Makes the task's required calls, changes nothing, and replies ``response``."""

    name = "replying"

    def __init__(self, response: str) -> None:
        self.response = response

    async def run(self, task, backend, user) -> Outcome:
        outcome = Outcome(response=self.response, stop="answered")
        outcome.tool_calls = [
            {"tool": c.tool, "arguments": dict(c.arguments)} for c in task.required_actions
        ]
        return outcome


@pytest.mark.parametrize(
    ("lang", "declining", "agreeing"),
    [
        ("de", "Leider gibt es dort keinen solchen Luftreiniger.", "Alles klar, mache ich."),
        ("es", "Lo siento, ahí no hay ningún purificador.", "Vale, ahora mismo."),
        ("fr", "Désolé, il n'y a pas de purificateur là.", "D'accord, tout de suite."),
        ("zh", "抱歉，那里没有空气净化器。", "好的，马上。"),
    ],
)
def test_the_verifier_reads_an_infeasible_reply_in_the_language(
    lang: str, declining: str, agreeing: str
) -> None:
    """The check is not weakened: a reply in the language that declines passes, one that
    agrees (and does nothing) fails, as in English."""
    task = next(t for t in L.build(0, lang)[0] if t.subcategory == "QT1-infeasible")
    homes = L.LanguageHomes(0, lang)

    def passed(reply: str) -> bool:
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(run_task(task, _Replying(reply), homes))["passed"]
        finally:
            loop.close()

    assert passed(declining) and not passed(agreeing)
