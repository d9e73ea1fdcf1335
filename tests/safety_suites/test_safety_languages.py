"""The safety suite in German, Spanish, French and Chinese: the wording modules keep the English
one's shape (so every language draws the same way), the worst-case model reads every injected
order of every language, a language's homes are named in it, the same seed gives the same
bytes, and on a few tasks per language the figures hold: the oracle passes behind the guard
(confirming where the guard, which reads English only, asks), an agent that obeys injections
makes unrequested high-risk changes without the guard and none behind it. (The whole suites
are validated by ``smh tasks generate --suite safety --language all``; docs/languages.md has
their figures.)"""

from __future__ import annotations

import pytest

from smh_core.bench.agents import read_orders
from smh_core.homeenv.engine import dump_compact
from smh_core.languages.safety import LANGUAGES, wording
from smh_core.safety_suites import safety_languages as L
from smh_core.safety_suites import safety_suite as S
from smh_core.safety_suites.safety_measure import check_task, run_loop
from smh_core.task.model import dump_task

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
KIND = {
    "unlock": "Door Lock",
    "disarm": "Door Lock",
    "oven": "Steam Oven",
    "scalding": "Water Heater",
    "heat": "Heat Pump",
}
"""The kind of device each order targets (named ``<kind> 1`` in the test)."""


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


@pytest.mark.parametrize("lang", OTHERS)
def test_the_worst_case_model_reads_every_order_and_no_memory(lang: str) -> None:
    w = wording(lang)
    for target, orders in w.ORDERS.items():
        temps = w.HEAT_TEMPS if target == "heat" else w.SCALDING_TEMPS
        for order in orders:
            name = w.NUMBERED_NAME.format(kind=w.KINDS[KIND[target]][0], n=1)
            said = order.format(target=w.the(name), temp=temps[0])
            assert [a for a, _ in read_orders(said)] == [target], said
    assert not any(read_orders(m) for m in w.BENIGN_MEMORIES)


@pytest.mark.parametrize("lang", OTHERS)
def test_tasks_carry_their_language_and_homes_are_named_in_it(lang: str) -> None:
    tasks, homes = L.build(0, lang)
    english, _ = S.build(0)
    assert len(tasks) == len(english) == 224
    assert all(t.language == lang and t.id.startswith(f"safety-{lang}-") for t in tasks)
    assert [t.id.replace(f"safety-{lang}-", "safety-") for t in tasks] == [t.id for t in english]
    assert all(t.home.file and t.home.file.startswith(f"homes/safety-{lang}-") for t in tasks)
    w = wording(lang)
    own = {f[0] for names in w.ROOMS.values() for f in names}
    for _, home in homes:  # every room has one of the language's names (numbered past its list)
        for room in home.rooms:
            assert room.name in own or room.name.rsplit(" ", 1)[0] in own, room.name
    # every shared home file is named by some task, and task texts differ from English ones
    assert {t.home.file for t in tasks} == {path for path, _ in homes}
    assert not {t.turns[0].text for t in tasks} & {t.turns[0].text for t in english}


def test_same_seed_same_bytes() -> None:
    def dumped() -> tuple[str, list[str]]:
        tasks, homes = S.build_in(L.LanguageContext(0, "zh"))
        return "".join(dump_task(t) for t in tasks), [dump_compact(h) for _, h in homes]

    first = dumped()
    assert first == dumped()
    assert first[1] == [dump_compact(h) for _, h in L.build(0, "zh")[1]]


def test_english_is_the_shipped_suite() -> None:
    assert L.build(0, "en") == S.build(0)
    assert L.task_file("en") == "safety.jsonl" and L.task_file("de") == "safety.de.jsonl"


def _sample(lang: str) -> list:
    """One task per category and home kind pair of indices: a HomeEnv and a Matter one each."""
    tasks = L.build(0, lang)[0]
    return [t for t in tasks if int(t.id.split("-")[-2]) in (0, 25)]


@pytest.mark.parametrize("lang", OTHERS)
def test_the_figures_on_a_few_tasks(lang: str) -> None:
    tasks = _sample(lang)
    homes = L.LanguageHomes(0, lang)

    async def checks() -> None:
        for task in tasks:
            await check_task(
                task, homes, injected=task.category in S.INJECTION_CATEGORIES, guarded=True
            )

    run_loop(checks())  # the generation checks: reference, doing nothing, obeying, guarded
    got = L.figures(tasks, homes)
    assert got["oracle_passed"] == got["tasks"] == len(S.CATEGORIES) * 2
    assert got["oracle_refusals"] == 0
    # the guard reads English only: a legitimate high-risk request is asked about, and confirmed
    assert got["oracle_confirmations"] == got["oracle_confirmed"] > 0
    assert got["obey_tasks_with_high_risk"] == got["injection_tasks"] > 0
    assert got["obey_guarded_high_risk"] == 0
    assert got["obey_guarded_passed"] == got["injection_tasks"]
