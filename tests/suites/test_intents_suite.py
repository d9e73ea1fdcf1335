"""The ``intents`` suite: deterministic, solvable by the oracle, and well-formed HA sentences.

The round-trip test reads each sampled sentence with hassil the way HA's default agent does,
from the written home (its device names, rooms and the HA domain of each device type), and
checks the reading against the task's own goal: the intent is the task's, a named device or
area is one the goal acts on, and a number the sentence says is the one the goal expects. It
does not reuse the generator's own check, so a generator that kept a misread sentence, or
derived a goal from the wrong slots, fails here. Samples are small (the full counts are
``scripts/intents_counts.py``'s job).
"""

from __future__ import annotations

import re

import pytest
from hassil import Intents
from hassil.intents import TextSlotList
from hassil.recognize import recognize_best
from home_assistant_intents import get_intents, get_languages

from smh_core.suites.common import validate
from smh_core.suites.intents.goals import fan_level
from smh_core.suites.intents.home import DEVICE_TYPES, NoHome, language_home
from smh_core.suites.intents.suite import (
    IntentHomes,
    LanguageResult,
    UnknownLanguage,
    generate_language,
    resolve_language,
)
from smh_core.task.model import Task, dump_task

HA_DOMAIN = {t: d for d, t in DEVICE_TYPES.items()} | {
    "curtain": "cover",
    "blind": "cover",
    "garage_door": "cover",
}
SAMPLE = 12
"""Sentences per language read back by HA's matcher (about 0.1-0.4 s each: the full counts
are ``scripts/intents_counts.py``'s job)."""


_RUNS: dict[tuple[str, int], LanguageResult] = {}


def _generated(lang: str, count: int) -> LanguageResult:
    """One generation per language and size in this process; the matcher test reuses the
    oracle test's larger run where it has one (its first ``SAMPLE`` tasks are the tasks of a
    run of ``SAMPLE``: generation stops at the count, it does not draw differently)."""
    if (lang, count) not in _RUNS:
        _RUNS[lang, count] = generate_language(lang, seed=0, count=count)
    return _RUNS[lang, count]


def _languages_with_homes() -> list[str]:
    out = []
    for lang in get_languages():
        try:
            language_home(lang)
        except NoHome:
            continue
        out.append(lang)
    return out


def test_same_seed_same_bytes_and_seed_matters() -> None:
    """Same language and seed, same bytes; another seed, other tasks. A run of 20 is the
    prefix of a run of 40 (what the matcher test relies on)."""
    first = [dump_task(t) for t in generate_language("en", seed=7, count=20).tasks]
    again = [dump_task(t) for t in generate_language("en", seed=7, count=20).tasks]
    other = [dump_task(t) for t in generate_language("en", seed=8, count=20).tasks]
    assert len(first) == 20
    assert first == again
    assert first != other
    assert first == [dump_task(t) for t in generate_language("en", seed=7, count=40).tasks[:20]]


def test_unknown_language_lists_the_known_ones() -> None:
    with pytest.raises(UnknownLanguage, match="home-assistant-intents has: .*zh-CN"):
        resolve_language("xx")
    assert resolve_language("zh-cn") == "zh-CN"


ORACLE_LANGUAGES = ("en", "de", "es", "fr", "zh-CN")


@pytest.mark.parametrize("lang", ORACLE_LANGUAGES)
def test_oracle_passes_and_doing_nothing_fails(lang: str) -> None:
    result = _generated(lang, 40)
    assert len(result.tasks) == 40
    assert len(result.per_intent) >= 8, result.per_intent  # control and query intents, not one
    validate(result.tasks, IntentHomes({result.language: result.home}))  # raises on a failure


def _critic_devices(task: Task) -> set[str]:
    text = task.goal.critic if task.goal.kind == "execute" else ""
    return set(re.findall(r"device\(([^)]+)\)", text))


def _numbers(task: Task) -> set[float]:
    found: set[float] = set()
    for action in task.reference.actions:
        found |= {float(v) for v in action.arguments.values() if isinstance(v, (int, float))}
    return found


@pytest.mark.parametrize("lang", _languages_with_homes())
def test_ha_matcher_reads_the_sentences_as_the_task(lang: str) -> None:
    result = _RUNS.get((lang, 40)) or _generated(lang, SAMPLE)
    assert result.tasks, result.skipped
    home = result.home
    assert home is not None
    rooms = {r.id: r.name for r in home.rooms}
    by_name = {d.name: d for d in home.devices}
    names = TextSlotList.from_tuples(
        [
            (
                d.name,
                d.name,
                {
                    "domain": HA_DOMAIN[d.userdata.spid.split(".")[2]],  # smh.homeenv.<type>.v1
                    **(
                        {"device_class": d.userdata.device_class} if d.userdata.device_class else {}
                    ),
                },
            )
            for d in home.devices
        ],
        allow_template=False,
    )
    areas = TextSlotList.from_tuples([(n, n) for n in rooms.values()], allow_template=False)
    lists = {"name": names, "area": areas, "floor": TextSlotList(name="floor", values=[])}
    intents = Intents.from_dict(get_intents(result.language))
    for task in result.tasks[:SAMPLE]:
        text = task.turns[0].text
        read = recognize_best(
            text, intents, slot_lists=lists, language=result.language, best_slot_name="name"
        )
        assert read is not None, f"{task.id}: HA's matcher does not understand {text!r}"
        assert read.intent.name == task.subcategory, (
            f"{task.id}: {text!r} read as {read.intent.name}"
        )
        slots = {k: v.value for k, v in read.entities.items()}
        devices = _critic_devices(task) or {o.did for o in task.overrides}
        if "name" in slots and slots["name"] in by_name:
            assert by_name[slots["name"]].did in devices, (
                f"{task.id}: {text!r} names another device"
            )
        if "area" in slots:
            in_area = {d.did for d in home.devices if rooms.get(d.userdata.room) == slots["area"]}
            assert devices <= in_area, f"{task.id}: {text!r}: the goal acts outside {slots['area']}"
        for slot in ("brightness", "position", "temperature", "volume_level"):
            if slot in slots:
                assert float(slots[slot]) in _numbers(task), f"{task.id}: {text!r}: {slot}"
        if "percentage" in slots:
            level = fan_level(int(slots["percentage"]))
            assert f"speed_level == {level}" in task.goal.critic, f"{task.id}: {text!r}"


def test_cli_writes_tasks_home_and_summary(tmp_path, capsys) -> None:
    from smh_core.cli.main import main
    from smh_core.task.model import load_tasks

    code = main(
        ["tasks", "generate", "--suite", "intents", "--language", "EN", "--count", "8",
         "--out", str(tmp_path)]
    )  # fmt: skip
    assert code == 0
    folder = tmp_path / "intents"
    tasks = load_tasks([folder / "en.jsonl"])
    assert len(tasks) == 8 and all(t.home.file == "homes/en.json" for t in tasks)
    assert (folder / "homes" / "en.json").is_file()
    summary = (folder / "summary.md").read_text(encoding="utf-8")
    assert "| en | 8 |" in summary and "HassStartTimer: timers are out of scope" in summary
    assert (
        main(
            [
                "tasks",
                "generate",
                *("--suite", "safety-composed", "--language", "en", "--out", str(tmp_path)),
            ]
        )
        == 2
    )  # a suite written in English only
    assert "--language is for --suite intents" in capsys.readouterr().err
