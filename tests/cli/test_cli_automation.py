"""`smh automation synthesize` end to end: the real openai client in a subprocess against the
fake server; an invalid first draft is corrected; --save stores a rule the simulator runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def test_synthesize_corrects_a_bad_draft_and_saves(tmp_path, socket_enabled):
    server = FakeOpenAI([{"content": json.dumps(BAD)}, {"content": json.dumps(GOOD)}])
    with serve_in_thread(server):
        run = smh(
            "automation",
            "synthesize",
            "turn the lamp on every morning at 7",
            "--home",
            str(HOME),
            "--base-url",
            server.base_url,
            "--model",
            "fake",
            "--save",
            str(tmp_path / "home.json"),
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
