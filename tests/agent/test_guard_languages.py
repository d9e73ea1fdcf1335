"""The action guard in the user's language (issue 41, item 4): it asks its confirmation question
in German, Spanish, French or Chinese, reads a plain yes in that language or in English, and
fails closed as in English: every other reply (``guard_language_adversarial.py``, written before
the reply words, in ``tests/support/guard_language_adversarial.py``), a yes in a third language and a code it cannot read in full confirm nothing.
English is as it was, and a language without words gets English."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smh_core.agent.consent import read_reply
from smh_core.agent.guard_language import (
    GUARD_LANGUAGES,
    language_code,
    load_wording,
    question_endings,
    read_answer,
    read_code_answer,
)
from smh_core.agent.safety import ActionGuard, DeviceIndex, load_policy
from tests.support.guard_language_adversarial import CODE_NOT_READ, NOT_CONSENT

OTHERS = [c for c in GUARD_LANGUAGES if c != "en"]
LOCK = {"did": "l1", "name": "Haustür", "category": "lock", "room": "flur", "room_name": "Flur"}
HEATER = {"did": "w1", "name": "Boiler", "category": "water_heater"}
ROOMS = [{"id": "flur", "name": "Flur"}]
CODED = {"code_format": r"^\d{4}$"}
REQUEST = {
    "de": "Schließ bitte die Haustür auf.",
    "es": "Abre la Haustür, por favor.",
    "fr": "Déverrouille la Haustür.",
    "zh": "打开Haustür。",
}
QUESTION = {
    "en": "Unlock “Haustür” in Flur? Say yes to confirm.",
    "de": "Soll ich „Haustür“ (Flur) entsperren? Sag ja, um zu bestätigen.",
    "es": "¿Quieres que desbloquee «Haustür» (Flur)? Di «sí» para confirmar.",
    "fr": "Voulez-vous que je déverrouille « Haustür » (Flur) ? Dites « oui » pour confirmer.",
    "zh": "要解锁“Haustür”（Flur）吗？请说“是”以确认。",
}
YES = {
    "de": [
        "Ja.",
        "Ja, bitte.",
        "ja bitte",
        "JA!",
        "Ja, gerne.",
        "Bitte, ja.",
        "Ja. Danke.",
        "Okay.",
    ],
    "es": ["Sí.", "¡Sí!", "Sí, por favor.", "Claro que sí.", "Vale, gracias.", "De acuerdo."],
    "fr": ["Oui.", "Oui, vas-y.", "D’accord.", "Oui, s'il vous plaît.", "Oui !", "Bien sûr."],
    "zh": ["是的。", "好的", "好的，谢谢。", "可以！", "是", "确认。"],
}


def _guard(language: str | None, *turns: str) -> ActionGuard:
    guard = ActionGuard(list(turns), language=language)
    guard.index = DeviceIndex([LOCK, HEATER], ROOMS)
    return guard


def _asked(guard: ActionGuard, device: dict = LOCK, locator: str = "unlock", **kw) -> str:
    refusal = guard.check(device, locator, kw.pop("arguments", {}), **kw)
    assert refusal is not None and refusal["error"]["code"] == "needs_confirmation"
    return refusal["error"]["prompt"]


@pytest.mark.parametrize(
    ("code", "language"),
    [
        (None, "en"),
        ("en", "en"),
        ("de", "de"),
        ("DE", "de"),
        ("de-CH", "de"),
        ("de_DE", "de"),
        ("es-419", "es"),
        ("fr-CA", "fr"),
        ("zh", "zh"),
        ("zh-CN", "zh"),
        ("zh-Hans", "zh"),
        ("zh-TW", "en"),  # traditional Chinese: no words here, so English
        ("zh-Hant-HK", "en"),
        ("it", "en"),
        ("", "en"),
        ("xx-de", "en"),
    ],
)
def test_the_guards_language_of_a_code(code: str | None, language: str) -> None:
    assert language_code(code) == language


@pytest.mark.parametrize("language", GUARD_LANGUAGES)
def test_the_question_is_asked_in_the_users_language(language: str) -> None:
    guard = _guard(language, REQUEST.get(language, "Unlock it."))
    assert _asked(guard) == QUESTION[language]
    assert guard.pending[0].prompt == QUESTION[language]
    assert QUESTION[language].endswith(question_endings())


def test_english_questions_are_unchanged_and_none_is_english() -> None:
    for language in (None, "en", "it", "zh-TW"):
        guard = ActionGuard(["Unlock it."], language=language)
        assert _asked(guard, {**LOCK, "name": "Front Door"}) == (
            "Unlock “Front Door” in Flur? Say yes to confirm."
        )
        assert (
            _asked(
                ActionGuard([], language=language),
                HEATER,
                "set_temperature",
                arguments={"temperature": 70.5},
            )
            == "Heat the water of “Boiler” to 70.5 °C? Say yes to confirm."
        )
        assert _asked(ActionGuard([], language=language), status=CODED) == (
            "Unlock “Haustür” in Flur? Say the code to confirm."
        )


@pytest.mark.parametrize("language", OTHERS)
def test_a_value_is_said_the_languages_way(language: str) -> None:
    prompt = _asked(_guard(language), HEATER, "set_temperature", arguments={"temperature": 70.5})
    number = "70.5" if language == "zh" else "70,5"
    assert f"{number} °C" in prompt and "Boiler" in prompt
    assert prompt.startswith(load_wording(language).questions["scalding_water"].split("{")[0])


@pytest.mark.parametrize(("language", "reply"), [(c, r) for c in OTHERS for r in YES[c]])
def test_a_plain_yes_in_the_users_language_confirms(language: str, reply: str) -> None:
    guard = _guard(language, REQUEST[language])
    _asked(guard)
    assert [p.did for p in guard.answer(reply)] == ["l1"]
    assert guard.check(LOCK, "unlock", {}) is None


@pytest.mark.parametrize("language", OTHERS)
def test_a_plain_yes_in_english_confirms_too(language: str) -> None:
    guard = _guard(language, REQUEST[language])
    _asked(guard)
    assert [p.did for p in guard.answer("Yes, please.")] == ["l1"]


@pytest.mark.parametrize(
    ("language", "reply"), [(c, r) for c in NOT_CONSENT for r in NOT_CONSENT[c]]
)
def test_every_other_reply_confirms_nothing(language: str, reply: str) -> None:
    """Asked in-line (the benchmark) and on the next turn (Assist): nothing is granted."""
    guard = _guard(language, REQUEST[language])
    _asked(guard)
    assert guard.answer(reply) == []
    _asked(guard)  # still asks
    inline = ActionGuard([REQUEST[language]], ask=lambda pending: reply, language=language)
    inline.index = guard.index
    refusal = inline.check(LOCK, "unlock", {})
    assert refusal is not None and refusal["error"]["code"] == "declined_by_user"


@pytest.mark.parametrize(("language", "other"), [(c, o) for c in OTHERS for o in OTHERS if o != c])
def test_a_yes_in_a_third_language_confirms_nothing(language: str, other: str) -> None:
    guard = _guard(language, REQUEST[language])
    for reply in [load_wording(other).answer_yes, *YES[other]]:
        english = read_reply(reply, frozenset())
        if read_answer(reply, load_wording(language).reply) == "yes" or (english and english.yes):
            continue  # "Okay.": a yes of this language, or of English, too
        _asked(guard)
        assert guard.answer(reply) == [], reply


@pytest.mark.parametrize("language", [None, "en", "it", "zh-TW"])
def test_without_words_for_the_language_only_english_confirms(language: str | None) -> None:
    for reply in ("Ja.", "Sí.", "Oui.", "是的。", "Sì."):
        guard = _guard(language, "Sblocca la porta")
        _asked(guard)
        assert guard.answer(reply) == []
    guard = _guard(language, "Sblocca la porta")
    _asked(guard)
    assert [p.did for p in guard.answer("Yes.")] == ["l1"]


@pytest.mark.parametrize("language", OTHERS)
def test_the_simulated_answers_read_as_yes_and_no(language: str) -> None:
    wording = load_wording(language)
    assert read_answer(wording.answer_yes, wording.reply) == "yes"
    assert read_answer(wording.answer_no, wording.reply) == "no"
    guard = _guard(language, REQUEST[language])
    _asked(guard)
    assert guard.answer(wording.answer_no) == []


CODES = {
    "de": ["4711", "Der Code ist 4711.", "vier sieben eins eins", "Ja, 4711, danke.", "4 7 1 1"],
    "es": ["4711", "El código es 4711.", "cuatro siete uno uno", "Sí, 4711."],
    "fr": ["4711", "Le code est 4711.", "quatre sept un un", "Oui, 4711, merci."],
    "zh": ["4711", "密码是4711", "四七一一", "是，四七一一。", "４７１１。"],
}


@pytest.mark.parametrize(("language", "reply"), [(c, r) for c in CODES for r in CODES[c]])
def test_a_code_said_in_the_language_is_the_code(language: str, reply: str) -> None:
    guard = _guard(language, REQUEST[language])
    prompt = _asked(guard, status=CODED)
    assert prompt.endswith(load_wording(language).say_code)
    assert [p.did for p in guard.answer(reply)] == ["l1"]
    assert guard.check(LOCK, "unlock", {}, status=CODED) == {"run_with": {"code": "4711"}}


@pytest.mark.parametrize(
    ("language", "reply"),
    [(c, r) for c in CODE_NOT_READ for r in CODE_NOT_READ[c]]
    + [(c, r) for c in OTHERS for r in YES[c]],  # a yes is not the code
)
def test_a_code_not_read_in_full_is_refused(language: str, reply: str) -> None:
    guard = _guard(language, REQUEST[language])
    _asked(guard, status=CODED)
    assert guard.answer(reply) == []


@pytest.mark.parametrize(
    ("language", "reply", "code"),
    [
        ("de", "null acht zwei eins", "0821"),
        ("es", "cero ocho dos uno", "0821"),
        ("fr", "zéro huit deux un", "0821"),
        ("zh", "零八二一", "0821"),
    ],
)
def test_every_digit_word_is_read_zero_too(language: str, reply: str, code: str) -> None:
    """German "null" is a YAML null when written bare: it was read as the word "none"."""
    assert read_code_answer(reply, load_wording(language).reply) == code


@pytest.mark.parametrize("bare", ["no", "yes", "on", "null", "1"])
def test_a_word_yaml_reads_as_no_text_is_refused_at_load(bare: str) -> None:
    from smh_core.agent.guard_language import _reply_words

    raw = {
        "script": "latin",
        "yes": ["ja"],
        "no": ["nein"],
        "courtesy": ["bitte"],
        "code_intros": ["code"],
        "digits": {"eins": 1},
    }
    import yaml

    for key in ("no", "courtesy"):
        broken = {**raw, key: [*raw[key], yaml.safe_load(bare)]}
        with pytest.raises(ValueError, match="is not text"):
            _reply_words("xx", broken)
    with pytest.raises(ValueError, match="is not text"):
        _reply_words("xx", {**raw, "digits": {yaml.safe_load(bare): 0, "eins": 1}})


def test_every_rule_has_its_question_in_every_language() -> None:
    rules = {r.name for r in load_policy()}
    for language in OTHERS:
        assert set(load_wording(language).questions) == rules


# ----------------------------------------------------------------------------- a yes and more
_POOL = {
    "de": [
        "aber",
        "nicht",
        "jetzt",
        "später",
        "wenn",
        "er",
        "sagt",
        "die",
        "garage",
        "auch",
        "offen",
        "morgen",
        "vielleicht",
        "doch",
        "oder",
        "und",
        "nein",
        "ja",
        "bitte",
        "danke",
        "xq",
    ],
    "es": [
        "pero",
        "no",
        "ahora",
        "luego",
        "si",
        "él",
        "dice",
        "el",
        "garaje",
        "también",
        "abre",
        "mañana",
        "quizás",
        "y",
        "o",
        "sí",
        "por",
        "favor",
        "gracias",
        "xq",
    ],
    "fr": [
        "mais",
        "pas",
        "maintenant",
        "plus",
        "tard",
        "si",
        "il",
        "dit",
        "le",
        "garage",
        "aussi",
        "ouvre",
        "demain",
        "peut-être",
        "et",
        "ou",
        "non",
        "oui",
        "merci",
        "xq",
    ],
    "zh": [
        "但",
        "是",
        "不",
        "现",
        "在",
        "等",
        "一",
        "下",
        "他",
        "说",
        "车",
        "库",
        "也",
        "开",
        "明",
        "天",
        "吗",
        "吧",
        "好",
        "的",
        "谢",
        "请",
    ],
}
_EXTRA = {c: st.lists(st.sampled_from(p), min_size=1, max_size=5) for c, p in _POOL.items()}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    language=st.sampled_from(OTHERS),
    data=st.data(),
    separator=st.sampled_from([", ", " ", ". ", "，", "、", "! "]),
    first=st.booleans(),
)
def test_a_yes_with_any_other_clause_confirms_nothing(
    language: str, data: st.DataObject, separator: str, first: bool
) -> None:
    wording = load_wording(language)
    words = wording.reply
    assert words is not None
    yes = data.draw(st.sampled_from([y for y in YES[language] if y != "Okay."]))
    extra = data.draw(_EXTRA[language])
    clause = ("" if language == "zh" else " ").join(extra)
    courtesy = {w for phrase in words.courtesy for w in phrase}
    if all(w in courtesy for w in extra):
        return  # the clause is courtesy only ("bitte", "谢谢"): part of a plain yes
    reply = f"{clause}{separator}{yes}" if first else f"{yes.rstrip('.。!！')}{separator}{clause}"
    guard = _guard(language, REQUEST[language])
    _asked(guard)
    assert guard.answer(reply) == [], reply
