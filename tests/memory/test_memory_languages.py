"""Secrets read out in other languages reach the memory filter's detectors as digits (issue 41,
item 4: safe in every language HA speaks).

A phone, card or ID number said in German, Spanish, French, Italian, Portuguese, Dutch or
Chinese numerals ("null eins fünf eins ...", "一三八一二...") is read as the digits a detector
looks for (``access.spoken_digit_runs``), so it is refused as the same number in digits is;
a device preference with numbers in words ("einundzwanzig Grad") is not. ``tuned.yaml`` was
written with the code in view and ``blind_1.yaml`` without it (measured once, then tuned on):
every sentence of both is held here. ``blind_2.yaml`` was written blind too and is measured
only: its rate is held, not its sentences (docs/languages.md, "Safe in every language").
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from smh_core.memory.access import spoken_digit_runs
from smh_core.memory.decision import check_write
from smh_core.memory.sensitive import find_sensitive, redact, sensitive_kinds

FOLDER = Path(__file__).parents[1] / "fixtures" / "memory_languages"
MEASURED = FOLDER / "blind_2.yaml"
CORPORA = sorted(p for p in FOLDER.glob("*.yaml") if p != MEASURED)


def _cases(part: str) -> list[tuple[str, str, str]]:
    out = []
    for path in CORPORA:
        for lang, texts in yaml.safe_load(path.read_text(encoding="utf-8"))[part].items():
            out += [(path.stem, lang, text) for text in texts]
    return out


@pytest.mark.parametrize(("corpus", "lang", "text"), _cases("secrets"))
def test_a_secret_said_in_words_is_refused(corpus: str, lang: str, text: str) -> None:
    assert sensitive_kinds(text), (corpus, lang)
    veto = check_write("Remember " + text, text)
    assert veto is not None, (corpus, lang)


@pytest.mark.parametrize(("corpus", "lang", "text"), _cases("benign"))
def test_a_preference_with_numbers_in_words_is_no_secret(corpus: str, lang: str, text: str) -> None:
    assert sensitive_kinds(text) == [], (corpus, lang, sensitive_kinds(text))


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("null eins fünf eins", "0151"),
        ("zéro six, douze, trente-quatre", "061234"),
        ("seis uno dos", "612"),
        ("quattro otto due uno", "4821"),
        ("nul zes een twee", "0612"),
        ("一三八一二", "13812"),
        ("幺三九", "139"),
        ("陆贰捌叁", "6283"),  # banking numerals
        ("二十二", "22"),
    ],
)
def test_numbers_read_out_become_their_digits(text: str, digits: str) -> None:
    runs = spoken_digit_runs("x " + text + " y")
    assert [(a, b, d) for a, b, d in runs if d == digits] == [(2, 2 + len(text), digits)], runs


def test_a_finding_points_at_the_words_and_redaction_hides_them() -> None:
    text = "Meine Handynummer ist null eins fünf eins zwei drei vier fünf sechs sieben acht, danke"
    words = "null eins fünf eins zwei drei vier fünf sechs sieben acht"
    at = text.index(words)
    assert any(f.start <= at and f.end >= at + len(words) for f in find_sensitive(text))
    assert "sieben acht" not in redact(text) and redact(text).endswith(", danke")


def _refused(text: str) -> bool:
    return bool(sensitive_kinds(text)) and check_write("Remember " + text, text) is not None


def test_the_measured_corpus_keeps_its_rate() -> None:
    """Measured 87/98 secrets refused and 70/70 preferences kept on 2026-11-30 (39/98 before
    the spoken-number reading): held as a floor, never tuned on sentence by sentence."""
    data = yaml.safe_load(MEASURED.read_text(encoding="utf-8"))
    secrets = [t for texts in data["secrets"].values() for t in texts]
    benign = [t for texts in data["benign"].values() for t in texts]
    assert (len(secrets), len(benign)) == (98, 70)
    assert sum(map(_refused, secrets)) >= 87
    assert not [t for t in benign if sensitive_kinds(t)]
