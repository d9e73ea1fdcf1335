"""The memhome suite in other languages: the wording modules keep the English one's shape (so
every language draws the same way), task ``i`` is the English task ``i`` (same home, device,
values, bank decision) said in the language, no English is left in what the user, the memory or
the assistant says, the same seed gives the same bytes, English stays the shipped suite, and on
a sample the reference passes and doing nothing fails exactly where it does in English. (The
whole suites are validated by ``smh tasks generate --suite memhome --language all``;
docs/languages.md has their figures.)"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from smh_core.homeenv.engine import dump_compact
from smh_core.languages.memhome import LANGUAGES, wording
from smh_core.languages.names import names
from smh_core.memory.decision import bank_after
from smh_core.suites import memhome_languages as L
from smh_core.suites.common import validate
from smh_core.task.model import Task, dump_task

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
SHIPPED = Path(__file__).resolve().parents[2] / "tasks" / "memhome.jsonl"
SHARED = {
    "de": {
        "meditation",
        "eco",
        "so",
        "okay",
        "hey",
        "pin",
        "november",
        "pollen",
        "anna",
        "maria",
        "lena",
        "luna",
        "max",
        "jo",
        "in",
        "normal",
        "standard",
        "display",
    },
    "es": {"pin", "eco", "normal", "natural", "luna", "led", "me", "no"},
    "fr": {
        "code",
        "normal",
        "standard",
        "natural",
        "luna",
        "max",
        "led",
        "as",
        "change",
        "mobile",
        "note",
        "on",
        "pollen",
    },
    "zh": set(),
}
"""Words an English template also uses that are the language's own words too (names, loans,
German ``so``, ``okay``, ``Meditation``, Spanish ``me``, ``no``, French ``on``, ``note``, ``as``,
``change``); every other word of the English templates, and every English option value, is a
remnant. Words with letters beyond ASCII are the language's own."""


def _shape(module) -> dict[str, object]:
    en = wording("en")
    return {
        name: len(value)
        for name in dir(en)
        if name.isupper() and isinstance(value := getattr(module, name), tuple | dict)
    }


def _said(task: Task) -> list[str]:
    """What the user, the memory and the assistant say in a task (decision prefixes aside)."""
    out = [task.turns[0].text, *task.memory, task.reference.response or ""]
    out += [h.content for h in task.history or []]
    decision = task.reference.memory_output or ""
    out.append(re.sub(r"^(memory: delete|memory:|rewrite:|no-rewrite)", "", decision))
    return out


def _english_words() -> set[str]:
    en = wording("en")
    texts = [
        v
        for name in dir(en)
        if name.isupper()
        for v in (
            getattr(en, name).values() if isinstance(getattr(en, name), dict) else getattr(en, name)
        )
        if isinstance(v, str)
    ]
    literal = [re.sub(r"\{[^}]*\}", " ", t) for t in texts]
    return {w.lower() for t in literal for w in re.findall(r"[A-Za-z]{2,}", t)}


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_the_english_wording_s_shape(lang: str) -> None:
    assert _shape(wording(lang)) == _shape(wording("en"))


def test_english_is_the_shipped_suite() -> None:
    tasks, homes = L.build(0, "en")
    assert "".join(dump_task(t) + "\n" for t in tasks) == SHIPPED.read_text(encoding="utf-8")
    assert homes == ()
    assert L.task_file("en") == "memhome.jsonl" and L.task_file("de") == "memhome.de.jsonl"


@pytest.mark.parametrize("lang", OTHERS)
def test_task_i_is_the_english_task_i_in_the_language(lang: str) -> None:
    tasks, homes = L.build(0, lang)
    english, _ = L.build(0, "en")
    assert [t.id.replace(f"memhome-{lang}-", "memhome-") for t in tasks] == [t.id for t in english]
    assert all(t.language == lang for t in tasks)
    assert Counter(t.subcategory for t in tasks) == Counter(t.subcategory for t in english)
    for t, e in zip(tasks, english, strict=True):
        assert t.home.file == L.home_file(lang, e.home.level, e.home.seed)
        assert t.reference.actions == e.reference.actions and t.goal.prefix == e.goal.prefix
        assert len(t.memory) == len(e.memory) and len(t.goal.bank_after) == len(e.goal.bank_after)
        assert bool(t.entry_room) == bool(e.entry_room) and bool(t.history) == bool(e.history)
    assert {t.home.file for t in tasks} == {path for path, _ in homes}


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_is_left(lang: str) -> None:
    """No English kind of device or room name, no English option value, no word of the English
    templates (but the language's own, listed in SHARED), no unfilled template field."""
    tasks, homes = L.build(0, lang)
    english_rooms = {r.name for _, h in homes for r in L.english_home(*_level_seed(h.name)).rooms}
    own = {r.name for _, h in homes for r in h.rooms} | {n for n, _ in names(lang).KINDS.values()}
    kinds = (set(names(lang).KINDS) | english_rooms) - own  # "Garage" is German too
    options = {o.replace("_", " ") for o in wording(lang).OPTIONS} - SHARED[lang]
    words = _english_words() - SHARED[lang]
    for task in tasks:
        for text in _said(task):
            assert "{" not in text and "}" not in text, text
            assert not [k for k in kinds if re.search(rf"\b{re.escape(k)}\b", text)], text
            found = {w.lower() for w in re.findall(r"[^\W\d_]+", text) if w.isascii()}
            assert not found & (words | options), (text, found & (words | options))
    for _, home in homes:
        for item in [*home.rooms, *home.devices]:
            assert item.name not in kinds and not set(item.name.lower().split()) & words


def _level_seed(name: str) -> tuple[str, int]:
    level, seed = name.rsplit("-", 2)[1:]
    return level, int(seed)


@pytest.mark.parametrize("lang", OTHERS)
def test_an_update_replaces_the_stored_entry_in_the_language(lang: str) -> None:
    """The bank rule reads the language's device words: the reference's new preference takes
    the old one's place, the bank keeps its size."""
    tasks, _ = L.build(0, lang)
    updates = [t for t in tasks if t.subcategory == "update"]
    for task in updates:
        after = bank_after(task.memory, task.reference.memory_output)
        assert after == task.goal.bank_after and len(after) == len(task.memory)


@pytest.mark.parametrize("lang", OTHERS)
def test_a_preference_with_another_option_replaces_the_stored_one(lang: str) -> None:
    """Two preferences differing in an option only name the same devices, so the second
    replaces the first (no option's word may read as a device word to the bank's rule)."""
    w = wording(lang)
    name = names(lang).NUMBERED_NAME.format(kind=names(lang).KINDS["Air Conditioner"][0], n=1)
    scene = w.SCENES[0]

    def entry(option: str) -> str:
        desc = w.setting(name, "work mode", option, None, option).desc
        return w.ENTRY[0].format(desc=desc, **w.scene_words(scene))

    first, *others = list(w.OPTIONS)
    for option in others:
        assert bank_after([entry(first)], f"memory: {entry(option)}") == [entry(option)], option


def test_same_seed_same_bytes() -> None:
    lang = OTHERS[-1]
    first = L.build(0, lang)
    again = L.build.__wrapped__(0, lang)
    assert "".join(map(dump_task, first[0])) == "".join(map(dump_task, again[0]))
    assert [dump_compact(h) for _, h in first[1]] == [dump_compact(h) for _, h in again[1]]


@pytest.mark.parametrize("lang", OTHERS)
def test_the_figures_on_a_sample(lang: str) -> None:
    """Two tasks per subcategory: validated as the English suite's are, and the figures count
    the oracle passing all and doing nothing passing only the passive ones."""
    tasks = [t for t in L.build(0, lang)[0] if int(t.id.rsplit("-", 1)[1]) in (0, 1, 60)]
    homes = L.LanguageHomes(0, lang)
    validate(tasks, homes)
    got = L.figures(tasks, homes)
    passive = sum(t.goal.passive for t in tasks)
    assert (got["tasks"], got["oracle_passed"], got["nothing_passed"]) == (15, 15, passive)
    assert passive > 0
