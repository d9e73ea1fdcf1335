"""The smh suite in German, Spanish, French and Chinese: the wording modules keep one shape (so
every language draws the same way), task ``i`` of a language is task ``i`` of English said
differently, no English is left in what the user says or hears, the same seed gives the same
bytes, the oracle passes and doing nothing fails on a sample of every subcategory written, and
English stays the shipped suite. (The whole suites are validated by
``smh tasks generate --suite smh --language all``; docs/languages.md has their figures.)"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from smh_core.bench.answers import check_fact
from smh_core.homeenv.model import Home
from smh_core.languages.names import names
from smh_core.languages.smh import LANGUAGES, wording
from smh_core.suites import smh_compositional as C
from smh_core.suites import smh_languages as L
from smh_core.suites import smh_suite as S
from smh_core.suites.common import validate
from smh_core.task.model import Fact, dump_task

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
INTERFACE = (
    "DONE",
    "set_request",
    "switch_request",
    "status_request",
    "status_answer",
    "value_names",
    "quantity_room_request",
    "quantity_on_request",
    "quantity_answer",
    "aliases",
    # dialogue: multi-turn
    "SHIFTS",
    "shifted",
    "dialogue_aliases",
    "part_request",
    "said_done",
    "continuation_request",
    "correction_request",
    "correction_done",
    "same_room_request",
    "anything_on",
    "that_one_off",
    # dialogue: ambiguous intent
    "OPENERS",
    "COMPLAINTS",
    "STATE_DONE",
    "STATE_ASK",
    "STATE_REPLY",
    "SCENE_PHRASES",
    "SCENE_DONE",
    "SCENE_ASK",
    "SCENE_REPLY",
    "COOKING",
    "DURATIONS",
    "complaint",
    "scene",
    "about_room",
    "missing_value",
    "missing_room_switch",
    "missing_room_ask",
    "missing_device",
    "cooking_request",
    "heating_request",
)
_ENGLISH_WORDS = (
    "the set turn switch please change could would you hey make like thanks can flip go ahead "
    "shut let's get going uh um hmm erm so wait sorry mean what is of right now tell me current "
    "at moment how many devices are in count for there done switched on off degrees seconds "
    "brightness temperature target mode volume level position speed fan water state "
    "when every daily tonight tomorrow weekdays weekends minutes above below if only still "
    "humidity same matches time want sleep movie reading morning guests work bed "
    "its too also now okay while you're one great put rename alias oh something else different "
    "thing unrelated but by way next i've turned main my light oops meant back how was "
    "sorry wrong not no don't touch do instead about anything what's just everything that then "
    "well room"
    # compositional control: its frames, groups, places and operations
    " all each first then also lights lamps fans conditioners curtains blinds window coverings "
    "speakers screens players heaters dehumidifiers humidifiers purifiers warm warmest cool "
    "coolest white daylight neutral halfway half open fully oscillation oscillate oscillating "
    "pause whatever playing mute heat aim bring put house whole home around over them every "
    "brightest dimmest fastest slowest coldest highest lowest loudest quietest hottest most "
    "least widest setting only those two three whose brighter dimmer than under currently "
    "running heating shut closed louder hotter any one rooms where except ones everywhere but "
    "leave alone motion detected someone moving sees reads warmer humid conditioning"
    # ambiguous intent: complaints, scenes, requests missing a slot, questions and replies
    " ugh man honestly bright glare killing eyes blinding freezing brr chilly cold dark barely "
    "see gloomy cave air really dry throat parched bone steamer boiling sweating buckets hot "
    "muggy damp sticky loud music blasting can't hear myself think stuffy stale hardly breathe "
    "help dinner's ready sitting down eat friends coming guests party film mood watch curl "
    "book lie nap shut-eye rest wiped gonna grab good rise shine awake woke workout exercising "
    "start let's enjoy give new call called adjust i'll be mean there's more use lunch "
    "leftovers reheat soup defrost chicken thaw frozen shrimp microwave coffee zap bowl rice "
    "steam dumplings fish need half long run shower bath later hot oven"
)
ENGLISH = set(_ENGLISH_WORDS.split())
"""Words of the English templates and attribute names; none may be left in another language."""
SHARED = {
    "de": {"hey", "so", "position", "moment", "in", "um", "also", "was", "bring"}
    | {"warm", "film", "brr"},
    "es": {"color", "me", "no", "brr"},
    "fr": {"position", "volume", "mode", "me", "on", "moment", "minutes", "pause"}
    | {"film", "change", "oh", "brr"},
    "zh": set(),
}
"""English template words that are also ordinary words of the language (German ``um 7 Uhr``,
``im Moment``, ``in der Küche``, ``also``, ``was``, ``warm machen``, ``einen Film``; Spanish
``me``, ``no``; French ``on lance``, ``le volume``, ``20 minutes``, ``un film``, ``Change le
volume``, ``Oh là là``; the interjection ``brr``): allowed there only."""


def _shape(module) -> dict[str, object]:
    def size(value: object) -> object:
        if isinstance(value, dict):
            return {k: size(v) for k, v in value.items()}
        if isinstance(value, tuple) and any(isinstance(v, tuple) for v in value):
            return [size(v) for v in value]  # PHRASES: per scene, as many phrases
        return len(value) if isinstance(value, tuple) else type(value).__name__

    return {
        n: size(getattr(module, n))
        for n in dir(module)
        if n.isupper() and not n.startswith("_") and n != "NAMES"
    }


@pytest.mark.parametrize("lang", OTHERS)
def test_every_language_has_one_shape_and_the_suite_s_interface(lang: str) -> None:
    assert _shape(wording(lang)) == _shape(wording("de"))
    assert all(callable(getattr(wording(lang), n)) or n.isupper() for n in INTERFACE)
    assert all(hasattr(wording("en"), n) for n in INTERFACE)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_wording_draws_as_english_does(lang: str) -> None:
    """Each wording function consumes the random stream exactly as English's (same draws)."""
    w, en = wording(lang), wording("en")
    home = L.localised_home(lang, "medium", 0)
    dev, decoy = home.devices[0].name, home.devices[1].name
    room = home.rooms[0].name
    calls = [
        *(
            (
                f,
                (s, dev, "brightness", 40, "percentage", d),
                (s, "x", "brightness", 40, "percentage", d and "y"),
            )
            for f in ("set_request",)
            for s in ("clear", "colloquial", "noisy")
            for d in (None, decoy)
        ),
        *(
            ("switch_request", (s, dev, on, d), (s, "x", on, d and "y"))
            for s in ("clear", "colloquial", "noisy")
            for on in (True, False)
            for d in (None, decoy)
        ),
        ("status_request", (dev, "brightness"), ("x", "brightness")),
        ("quantity_room_request", ("light", room), ("light", "Den")),
        ("quantity_on_request", ("light",), ("light",)),
    ]
    for name, local, english in calls:
        for seed in range(6):
            a, b = random.Random(seed), random.Random(seed)
            if name.endswith("_request") and name.startswith(("set", "switch")):
                getattr(w, name)(local[0], a, *local[1:])
                getattr(en, name)(english[0], b, *english[1:])
            else:
                getattr(w, name)(a, *local)
                getattr(en, name)(b, *english)
            assert a.random() == b.random(), (name, local)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_dialogue_wording_draws_as_english_does(lang: str) -> None:
    """Multi-turn dialogue (continuation, topic_shift): each function consumes the random
    stream as English's, every phrase list is as long as English's, a user's alias for a
    device offers as many names, and a topic marker is used as it is."""
    w, en = wording(lang), wording("en")
    home = L.localised_home(lang, "medium", 0)
    dev, room = home.devices[0].name, home.rooms[0].name
    calls = [
        *(
            ("part_request", (dev, part, on), ("x", part, on))
            for part in ("fan", "light")
            for on in (True, False)
        ),
        *(
            ("said_done", (dev, loc, val, unit, on), ("x", loc, val, unit, on))
            for loc, val, unit, on in (
                ("state", "on", None, True),
                ("state", "off", None, False),
                ("brightness", 40, "percentage", None),
                ("alias", "x", None, None),
            )
        ),
        *(
            (
                "continuation_request",
                (dev, part, on, loc, val, unit),
                ("x", part, on, loc, val, unit),
            )
            for part, on, loc, val, unit in (
                ("fan", True, "fan.state", "on", None),
                ("light", False, "light.state", "off", None),
                ("", True, "state", "on", None),
                ("", False, "state", "off", None),
                ("", None, "alias", "x", None),
                ("", None, "brightness", 40, "percentage"),
                ("", None, "work_mode", "eco", None),
            )
        ),
    ]
    for name, local, english in calls:
        for seed in range(6):
            a, b = random.Random(seed), random.Random(seed)
            said = getattr(w, name)(a, *local)
            getattr(en, name)(b, *english)
            assert a.random() == b.random(), (name, local)
            assert not (_words(said) & ENGLISH) - SHARED[lang], (name, said)
    old, new = (dev, room, "x"), (home.devices[1].name, home.rooms[1].name, "x")
    for same_kind in (True, False):
        for seed in range(6):
            a, b = random.Random(seed), random.Random(seed)
            said = w.correction_request(a, same_kind, old, new)
            en.correction_request(b, same_kind, ("x", "r", "x"), ("y", "s", "x"))
            assert a.random() == b.random(), (same_kind, said)
            assert not (_words(said) & ENGLISH) - SHARED[lang], said
    kind = names(lang).KINDS["Speaker"][0]
    for same_way in (True, False):
        for on in (True, False):
            for seed in range(6):
                a, b = random.Random(seed), random.Random(seed)
                said = w.same_room_request(a, same_way, on, kind)
                en.same_room_request(b, same_way, on, "speaker")
                assert a.random() == b.random() and kind in said, said
                assert not (_words(said) & ENGLISH) - SHARED[lang], said
    for seed in range(6):
        a, b = random.Random(seed), random.Random(seed)
        said = [*w.anything_on(a, room, dev), w.that_one_off(a, dev)]
        [*en.anything_on(b, "r", "x"), en.that_one_off(b, "x")]
        assert a.random() == b.random(), said
        assert not (_words(" ".join(said)) & ENGLISH) - SHARED[lang], said
    done = w.correction_done(old, new)
    assert old[0] in done and new[0] in done and not (_words(done) & ENGLISH) - SHARED[lang]
    assert len(w.SHIFTS) == len(en.SHIFTS) and w.SHIFTS[:2] == ("", "")
    assert len(w.dialogue_aliases(room, "x", "light")) == len(
        en.dialogue_aliases("r", "x", "light")
    )
    body = w.switch_request("clear", random.Random(0), dev, True, None)
    assert w.shifted("", body, dev) == body
    assert w.shifted(w.SHIFTS[2], body, dev).startswith(w.SHIFTS[2])


@pytest.mark.parametrize("lang", OTHERS)
def test_every_compositional_operation_is_said_as_often_as_in_english(lang: str) -> None:
    """Each operation of every kind the compositional requests name has as many phrasings in
    the language as in English (so it draws the same way), each in two verb forms, each naming
    its value in the language, none with an English word left."""
    w = wording(lang)
    for kind in C.KINDS.values():
        for op in kind.ops:
            for i in range(len(op.says)):
                imp, inf = C._say(_Fixed(i), op, "X", w, kind)
                left = (_words(imp + " " + inf) & ENGLISH) - SHARED[lang] - {"x"}
                assert not left and "{" not in imp + inf, (op, imp, inf, left)
        for noun in range(len(kind.plural)):
            for said in w.COMP_ALL:
                words = said.format(**w.comp_kind(C._kind_name(kind), noun), where="")
                assert not (_words(words) & ENGLISH) - SHARED[lang], words
    for name, kind in C.KINDS.items():
        for rank in kind.ranks:
            for way, english in (("high", rank.high), ("low", rank.low)):
                assert len(w.COMP_RANKS[name][way]) == len(english), (name, way)
                for one, many in w.COMP_RANKS[name][way]:
                    for n, said in ((1, one), (2, many), (3, many)):
                        words = said.format(
                            **w.comp_kind(name, 0), n=w.COMP_NUMBERS.get(n, ""), where=""
                        )
                        assert not (_words(words) & ENGLISH) - SHARED[lang], words
        for pred in kind.preds:
            says = w.COMP_PREDS[name][(pred.attr, pred.cmp)]
            assert len(says) == len(pred.says), (name, pred)
            for said in says:
                for frame in w.COMP_WHICH:
                    words = frame.format(
                        **w.comp_kind(name, 0), x=said.format(kinds="K", t=pred.ref)
                    )
                    assert not (_words(words) & ENGLISH) - SHARED[lang] - {"k"}, words
    for cond in C.ROOM_CONDS:
        says = w.COMP_COND[cond.pred.attr]
        assert len(says) == len(cond.says), cond.pred.attr
        for said in says:
            for frame in (*w.COMP_COND_SAID, *w.COMP_ALL_BUT):
                words = frame.format(
                    **w.comp_kind("lights", 0),
                    **w.room_parts(L.localised_home(lang, "simple", 0).rooms[0].name),
                    where=said.format(t=cond.pred.ref),
                    imp="X",
                )
                assert not (_words(words) & ENGLISH) - SHARED[lang] - {"x"}, words
    assert (len(w.COMP_EXCEPT), len(w.COMP_ALL_BUT), len(w.COMP_COND_SAID)) == (3, 3, 4)
    assert len(w.COMP_WHICH) == 4 and len(w.COMP_ROOM_SAID) == 2
    assert len(w.COMP_REQUEST) == 5 and len(w.COMP_DONE) == len(C._DONE)
    assert (len(w.COMP_IN_ROOM), len(w.COMP_IN_HOME), len(w.COMP_ALL)) == (3, 4, 4)


class _Fixed(random.Random):
    """A random stream whose every choice is the ``i``-th (to render each phrasing once)."""

    def __init__(self, i: int) -> None:
        super().__init__(0)
        self.i = i

    def choice(self, seq):  # type: ignore[no-untyped-def, override]
        return seq[self.i]


@pytest.mark.parametrize("lang", OTHERS)
def test_task_i_of_a_language_is_task_i_of_english(lang: str) -> None:
    """Every subcategory, as many tasks as English (1,100), each the same draw: the same home,
    device, actions and goal (a clarify goal too, with as many scripted replies); only the
    free-text names a user gives a device (alias) are the language's own."""
    tasks, homes = L.build(0, lang)
    english = L.build(0, "en")[0]
    assert len(tasks) == len(english) == 50 * len(S.SUBCATEGORIES) == 1100
    assert L.subcategories(lang) == tuple(S.SUBCATEGORIES)
    for t, e in zip(tasks, english, strict=True):
        assert t.id == e.id.replace("smh-", f"smh-{lang}-", 1) and t.language == lang
        assert t.home.file == L.home_file(lang, e.home.level, e.home.seed)
        assert [(a.did, a.locator) for a in t.reference.actions] == [
            (a.did, a.locator) for a in e.reference.actions
        ]
        assert t.reference.mode == e.reference.mode
        assert len(t.turns[0].replies) == len(e.turns[0].replies)
        if t.category == "query":
            assert [f.kind for f in t.goal.facts] == [f.kind for f in e.goal.facts]
            for f, g in zip(t.goal.facts, e.goal.facts, strict=True):
                if f.kind == "name":  # the home's name first, then the language's (as words)
                    assert isinstance(f.value, list) and f.value[0] == g.value
                else:
                    assert f.value == g.value
        elif not {"alias", "media_name"} & set(re.findall(r"\w+", e.goal.model_dump_json())):
            assert t.goal == e.goal
        else:
            assert t.goal.kind == e.goal.kind
    assert {path for path, _ in homes} == {t.home.file for t in tasks}


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[A-Za-z']+", text)}


@pytest.mark.parametrize("lang", OTHERS)
def test_no_english_is_left_in_requests_answers_or_names(lang: str) -> None:
    """What the user says and hears (requests, their replies to a clarifying question, the
    assistant's answers and questions, memories, the dialogue before) holds no word of the English templates (letters-only words,
    case-insensitive; the language's own homographs of :data:`SHARED` aside), and no device or
    room of a written home keeps an English kind noun as a word of the names tables (``Light``,
    ``Speaker``...)."""
    tasks, homes = L.build(0, lang)
    allowed = SHARED[lang]
    for t in tasks:
        said = " ".join(
            [
                t.turns[0].text,
                *t.turns[0].replies,
                t.reference.response or "",
                *t.memory,
                *(h.content for h in t.history),
            ]
        )
        left = (_words(said) & ENGLISH) - allowed
        assert not left, (t.id, said, left)
    kinds = {k.casefold() for k in names(lang).KINDS} | {"room", "bedroom", "bathroom", "kitchen"}
    for _, home in homes:
        for named in [*(d.name for d in home.devices), *(r.name for r in home.rooms)]:
            assert not any(re.search(rf"\b{re.escape(k)}\b", named.casefold()) for k in kinds), (
                named
            )


@pytest.mark.parametrize("lang", OTHERS)
def test_same_seed_same_bytes(lang: str) -> None:
    first, first_homes = L.build(0, lang)
    again, again_homes = L.build.__wrapped__(0, lang)
    assert [dump_task(t) for t in first] == [dump_task(t) for t in again]
    assert [L.dump_compact(h) for _, h in first_homes] == [
        L.dump_compact(h) for _, h in again_homes
    ]
    other = L.build.__wrapped__(1, lang)[0]
    assert [dump_task(t) for t in other] != [dump_task(t) for t in first]


@pytest.mark.parametrize("lang", OTHERS)
def test_a_sample_of_every_subcategory_validates(lang: str) -> None:
    """Reference passes and doing nothing fails (as the whole suite is validated on generation),
    on every fifth task: ten per subcategory, every home level."""
    tasks = list(L.build(0, lang)[0])[::5]
    validate(tasks, L.LanguageHomes(0, lang))
    figures = L.figures(tasks, L.LanguageHomes(0, lang))
    assert figures["tasks"] == figures["oracle_passed"] == len(tasks)
    assert figures["nothing_passed"] == 0


def test_english_is_the_shipped_suite() -> None:
    tasks, homes = L.build(0, "en")
    shipped = Path("tasks/smh.jsonl").read_text(encoding="utf-8")
    assert "".join(dump_task(t) + "\n" for t in tasks) == shipped
    assert homes == () and L.task_file("en") == "smh.jsonl" and L.task_file("de") == "smh.de.jsonl"


def test_a_value_is_named_in_the_language_or_as_the_home_names_it_as_a_word() -> None:
    fact = Fact(kind="name", value=["on", "allumé"])
    assert check_fact(fact, "La lampe du salon est allumée ? Non : allumé.")
    assert check_fact(fact, "It is on.")
    assert not check_fact(fact, "La lampe du salon est éteinte.")  # "on" inside "salon"
    assert check_fact(Fact(kind="name", value=["on", "开启"]), "客厅灯的状态是开启。")
    assert check_fact(Fact(kind="name", value="on"), "salon")  # one name: as it always was


@pytest.mark.parametrize("lang", OTHERS)
def test_a_missing_word_is_an_error_not_english(lang: str) -> None:
    w = wording(lang)
    with pytest.raises(LookupError):
        w.status_request(random.Random(0), "x", "no_such_attribute")
    with pytest.raises(LookupError):  # a compositional operation the language has no words for
        C._say(
            random.Random(0), C.Op("no_such_attribute", 1, ("x {obj}",)), "y", w, C.KINDS["fans"]
        )
    with pytest.raises(ValueError, match="unknown compositional"):
        C.compositional_task("no_such", None, random.Random(0), w)  # type: ignore[arg-type]
    with pytest.raises(LookupError):
        w.set_request("clear", random.Random(0), "x", "work_mode", "no_such_mode", None, None)
    assert isinstance(L.localised_home(lang, "simple", 0), Home)


@pytest.mark.parametrize(
    ("lang", "times"),
    [
        ("de", ["19 Uhr", "6:45 Uhr"]),
        ("es", ["19:00", "6:45"]),
        ("fr", ["19 h", "6 h 45"]),
        ("zh", ["晚上7点", "早上6点45分"]),
    ],
)
def test_times_are_written_the_local_way(lang: str, times: list[str]) -> None:
    w = wording(lang)
    assert [w.clock(19, 0), w.clock(6, 45)] == times
    assert wording("zh").clock(12, 30) == "中午12点半"
