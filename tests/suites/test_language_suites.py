"""What every suite written in other languages shares (issue 41): the same five languages, an
unknown one refused by name with the known ones listed (by the wording package, by the suite's
module and by the CLI), and one dispatch that finds each suite's module."""

from __future__ import annotations

import importlib

import pytest

from smh_core.cli.main import main
from smh_core.cli.tasks import LANGUAGE_SUITES
from smh_core.languages import LANGUAGES, UnknownLanguage

SUITES = sorted(LANGUAGE_SUITES)


def test_the_dispatch_names_every_suite_written_in_other_languages() -> None:
    assert SUITES == ["memhome", "safety", "sage", "simuhome", "smh"]
    for suite, module in LANGUAGE_SUITES.items():
        assert importlib.import_module(module).task_file("de") == f"{suite}.de.jsonl"


@pytest.mark.parametrize("suite", SUITES)
def test_unknown_language_lists_the_known_ones(suite: str) -> None:
    words = importlib.import_module(f"smh_core.languages.{suite}")
    module = importlib.import_module(LANGUAGE_SUITES[suite])
    with pytest.raises(UnknownLanguage, match=f"the {suite} suite .*known: en, de, es, fr, zh"):
        words.wording("it")
    for resolve in (words.resolve_languages, module.resolve_languages):
        with pytest.raises(UnknownLanguage):
            resolve(["de", "xx"])
        assert resolve(["all", "de"]) == list(LANGUAGES)


@pytest.mark.parametrize("suite", SUITES)
def test_the_cli_refuses_an_unknown_language(suite: str, capsys) -> None:
    assert main(["tasks", "generate", "--suite", suite, "--language", "pt"]) != 0
    assert "known: en, de, es, fr, zh" in capsys.readouterr().err
