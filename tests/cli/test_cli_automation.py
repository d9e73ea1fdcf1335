"""`smh automation synthesize` end to end: the real openai client in a subprocess against the
fake server; an invalid first draft is corrected; --save stores a rule the simulator runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.cli.automation import HELD, _consented
from smh_core.homeenv.engine import load_home
from tests.support.fake_openai import FakeOpenAI, serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "tests" / "fixtures" / "tiny_home.json"
GOOD = {
    "id": "morning",
    "name": "Lamp on at 7",
    "triggers": [{"kind": "time", "cron": "0 0 7 * * ? *"}],
    "actions": [{"did": "1001", "locator": "turn_on", "arguments": {}}],
}
BAD = {**GOOD, "actions": [{"did": "1001", "locator": "switch_on", "arguments": {}}]}


def smh(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def synthesize(request: str, server: FakeOpenAI, *extra: str) -> subprocess.CompletedProcess:
    """``smh automation synthesize REQUEST`` on the tiny home against ``server``."""
    return smh(
        "automation",
        "synthesize",
        request,
        "--home",
        str(HOME),
        "--base-url",
        server.base_url,
        "--model",
        "fake",
        *extra,
    )


def test_synthesize_corrects_a_bad_draft_and_saves(tmp_path, socket_enabled):
    server = FakeOpenAI([{"content": json.dumps(BAD)}, {"content": json.dumps(GOOD)}])
    with serve_in_thread(server):
        run = synthesize(
            "turn the lamp on every morning at 7", server, "--save", str(tmp_path / "home.json")
        )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["actions"][0]["locator"] == "turn_on"
    assert "try 1:" in run.stderr and "switch_on" in run.stderr
    assert "switch_on" in json.dumps(server.requests[1]["messages"][-1])  # the error went back
    saved = load_home(tmp_path / "home.json")
    assert [r.id for r in saved.automations or []] == ["morning"]


def test_no_valid_rule_exits_non_zero_and_saves_nothing(tmp_path, socket_enabled):
    server = FakeOpenAI(default={"content": json.dumps(BAD)})
    with serve_in_thread(server):
        run = smh(
            "automation",
            "synthesize",
            "lamp on at 7",
            "--home",
            str(HOME),
            "--tries",
            "2",
            "--base-url",
            server.base_url,
            "--model",
            "fake",
            "--save",
            str(tmp_path / "home.json"),
        )
    assert run.returncode == 1 and "no valid rule after 2 tries" in run.stderr
    assert not (tmp_path / "home.json").exists()
    assert len(server.requests) == 2


HEAT = {  # a rule heating the kitchen to 30 °C: high-risk, and no one asked for it
    **GOOD,
    "actions": [
        {
            "did": "1003",
            "locator": "set_target_temperature",
            "arguments": {"target_temperature": 30},
        }
    ],
}


@pytest.mark.parametrize(
    ("language", "question"),
    [("en", "Say yes to confirm."), ("de", "Sag ja, um zu bestätigen.")],
)
def test_a_high_risk_rule_nobody_asked_for_is_neither_printed_nor_stored(
    tmp_path, socket_enabled, language, question
):
    """The model (steered by text it read, say) adds heating the kitchen to 30 °C to a request
    about a lamp: without a terminal to answer the guard's question, nothing is stored or
    printed, and the exit status says the rule is held."""
    server = FakeOpenAI([{"content": json.dumps(HEAT)}])
    with serve_in_thread(server):
        run = synthesize(
            "turn the lamp on every morning at 7",
            server,
            "--language",
            language,
            "--save",
            str(tmp_path / "home.json"),
        )
    assert run.returncode == HELD, run.stderr
    assert run.stdout == ""
    assert question in run.stderr and "not stored" in run.stderr
    assert not (tmp_path / "home.json").exists()


@pytest.mark.parametrize(
    ("reply", "kept"),
    [("Yes.", True), ("yes, but not now", False), ("No.", False), ("", False)],
)
def test_on_a_terminal_only_a_plain_yes_keeps_the_rule(monkeypatch, reply, kept):
    from smh_core.agent.safety import ActionGuard, GuardedBackend
    from smh_core.backends.embedded import EmbeddedBackend
    from smh_core.homeenv.engine import HomeEngine
    from smh_core.homeenv.rules import Rule

    backend = EmbeddedBackend(HomeEngine.from_file(HOME))
    guard = ActionGuard(["turn the lamp on every morning at 7"])
    rule = Rule.model_validate(HEAT)
    refusal = GuardedBackend(backend, guard).first_refusal(
        [a.model_dump(mode="json") for a in rule.actions], "create_automation"
    )
    assert refusal is not None and refusal["error"]["code"] == "needs_confirmation"
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": reply)
    assert _consented(guard, backend, rule, refusal["error"]["prompt"]) is kept


def test_without_a_terminal_nobody_confirms(monkeypatch):
    from smh_core.agent.safety import ActionGuard
    from smh_core.backends.embedded import EmbeddedBackend
    from smh_core.homeenv.engine import HomeEngine
    from smh_core.homeenv.rules import Rule

    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    monkeypatch.setattr("builtins.input", lambda prompt="": "Yes.")  # never asked
    backend = EmbeddedBackend(HomeEngine.from_file(HOME))
    guard = ActionGuard(["turn the lamp on every morning at 7"])
    assert not _consented(guard, backend, Rule.model_validate(HEAT), "Heat? Say yes to confirm.")
