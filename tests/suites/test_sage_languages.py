"""The sage suite in German, Spanish, French and Chinese: the wording modules keep the English
one's shape (so every language draws the same way), every task is validated as the English ones
are (the reference passes, doing nothing fails) with as many tasks per category, the homes and
texts are the language's (no word of the English wording left, no template remnant), the same
seed gives the same bytes, and an answer's yes or no is read in the task's language."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from smh_core.bench.answers import check_fact
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.languages.sage import LANGUAGES, wording
from smh_core.suites import sage_languages as L
from smh_core.suites import sage_suite as S
from smh_core.task.model import Fact, dump_task

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
CHANNEL_LIST = "1.Channel.ChannelList"
SHARED = {"bosch", "lg", "samsung", "jonas"}
"""Words the English wording has that every language may keep: brands, and a user's name
common in both."""
OWN = {
    "de": {"in", "so"},
    "es": {"no", "me"},
    "fr": {"lit", "minutes", "non", "pendant", "programme", "question", "table"},
    "zh": set(),
}
"""Words of the English wording that are also the language's own, spelled the same (German
"in", Spanish "no", French "lit" for bed and "pendant" for during)."""


def _shape(module) -> dict[str, object]:
    def size(value: object) -> object:
        if isinstance(value, dict):
            return {k: size(v) for k, v in value.items()}
        return len(value) if isinstance(value, tuple) else type(value).__name__

    en = wording("en")
    return {name: size(getattr(module, name)) for name in dir(en) if name.isupper()}


def _words(text: str) -> set[str]:
    """The words of ``text`` of two letters or more (one letter: a unit, an elision, ``'s``)."""
    return {w.casefold() for w in re.findall(r"[^\W\d_]{2,}", text)}


def _english_words() -> set[str]:
    en, out = wording("en"), set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            out.update(_words(value))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    for name in dir(en):
        if name.isupper():
            walk(getattr(en, name))
    return out


def _said(lang: str) -> list[str]:
    """Everything the suite in ``lang`` says in words: requests, memories, replies, rooms,
    device names, placements (a description's first sentence) and channel names."""
    texts = []
    for t in L.build(0, lang):
        texts += [turn.text for turn in t.turns] + list(t.memory) + [t.reference.response or ""]
    for home in L.homes(lang):
        texts += [r.name for r in home.rooms]
        texts += [d.name for d in home.devices] + [
            _place(d.description, lang) for d in home.devices
        ]
        engine = HomeEngine(home)
        for role in S.TVS:
            texts += [c["name"] for c in engine.value(S.DID[role], CHANNEL_LIST)]
    return texts


def _place(description: str, lang: str) -> str:
    """A description's first sentence: the placement the wording wrote (the rest is the
    catalog's technical notes)."""
    return description.split("。" if lang == "zh" else ". ")[0]


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_the_english_wording_s_shape(lang: str) -> None:
    assert _shape(wording(lang)) == _shape(wording("en"))


@pytest.mark.parametrize("lang", OTHERS)
def test_every_task_is_validated_with_english_s_counts(lang: str) -> None:
    tasks = L.generate(0, lang)  # raises, naming the task, if a reference fails or nothing passes
    english = S.generate(0, validate_tasks=False)
    assert Counter(t.category for t in tasks) == Counter(t.category for t in english)
    assert [t.id.replace(f"sage-{lang}-", "sage-") for t in tasks] == [t.id for t in english]
    assert all(
        t.language == lang and t.home.file == L.home_file(lang, int(t.id[-1])) for t in tasks
    )
    assert not {t.turns[0].text for t in tasks} & {t.turns[0].text for t in english}


@pytest.mark.parametrize("lang", OTHERS)
def test_homes_are_named_in_the_language(lang: str) -> None:
    w = wording(lang)
    for n, home in enumerate(L.homes(lang)):
        engine = HomeEngine(home)
        assert [r.name for r in home.rooms] == [w.ROOMS[r] for r in S.ROOMS]
        for role, spot in S.SPOTS.items():
            device = home.devices[list(S.SPOTS).index(role)]
            assert device.name == w.NAMES[role][n]
            if (
                spot.type_name == "tv"
            ):  # the channel list is the language's, and so is the tuned one
                names = [c["name"] for c in engine.value(spot.did, CHANNEL_LIST)]
                assert names == [w.CHANNELS[k] for k in sorted(S.CHANNELS)]
                assert engine.value(spot.did, "1.Channel.CurrentChannel")["name"] in names
            place = w.PLACES[role][n]
            assert _place(device.description, lang) == place[0].upper() + place[1:]


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_word_or_template_remnant_is_left(lang: str) -> None:
    english = _english_words() - SHARED - OWN[lang]
    said = _said(lang)
    left = {w for text in said for w in _words(text) if w in english}
    assert not left, left
    assert not [text for text in said if re.search(r"[{}]", text)]
    if lang == "zh":  # no Latin letters besides the brand LG and the unit K (kelvin)
        latin = {w for text in said for w in re.findall(r"[A-Za-z]+", text)}
        assert latin <= {"LG", "K"}, latin


def test_same_seed_same_bytes() -> None:
    def dumped(lang: str) -> tuple[str, list[str]]:
        L.build.cache_clear()
        L.homes.cache_clear()
        tasks = "".join(dump_task(t) for t in L.build(0, lang))
        return tasks, [dump_home(h) for h in L.homes(lang)]

    for lang in OTHERS:
        assert dumped(lang) == dumped(lang)


def test_english_is_the_shipped_suite(tmp_path) -> None:
    assert list(L.build(0, "en")) == S.generate(0, validate_tasks=False)
    assert L.task_file("en") == "sage.jsonl" and L.task_file("de") == "sage.de.jsonl"
    assert [p.name for p in L.write_homes(tmp_path, 0, "de")] == [
        f"sage-de-{n}.json" for n in range(S.HOMES)
    ]


@pytest.mark.parametrize("lang", OTHERS)
def test_yes_and_no_are_read_in_the_task_s_language(lang: str) -> None:
    w = wording(lang)
    yes, no = Fact(kind="yesno", value=True), Fact(kind="yesno", value=False)
    assert check_fact(yes, w.CREDENZA_IS_ON, lang) and check_fact(no, w.CREDENZA_IS_OFF, lang)
    assert not check_fact(yes, w.CREDENZA_IS_OFF, lang)
    assert not check_fact(no, w.CREDENZA_IS_ON, lang)
    # read as English, at least one of the two replies is not decided right
    assert not (check_fact(yes, w.CREDENZA_IS_ON) and check_fact(no, w.CREDENZA_IS_OFF))
