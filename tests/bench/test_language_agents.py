"""``make bench-languages`` with another HA or agent (issue 41 item 2), without HA, network or
model: which hass command and agent a run uses, how SMH's agent is configured in the entry,
where the results go, and that the model server's failures are never scored as the agent's."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from smh_core.ha.assist_languages import language_row, markdown
from smh_core.ha.language_agents import BENCH_HOME, MODEL_FAILED, default_out, infra_reason

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import bench_ha_languages as bench  # noqa: E402
import ha_instance  # noqa: E402


def test_defaults_are_assist_on_the_oldest_ha_where_they_were():
    args = bench.parse_args([])
    assert (args.ha, args.agent, args.turn_timeout) == ("oldest", "assist", bench.TURN_TIMEOUT)
    assert args.out == ROOT / "runs" / "bench-languages"


def test_each_ha_and_agent_has_its_own_folder_and_smh_a_longer_turn():
    args = bench.parse_args(["--ha", "newest", "--agent", "smh", "--limit", "10"])
    assert args.out == ROOT / "runs" / "bench-languages-newest-smh"
    assert args.turn_timeout == bench.SMH_TURN_TIMEOUT
    assert bench.parse_args(["--ha", "newest"]).out == ROOT / "runs" / "bench-languages-newest"
    assert default_out(Path("r"), "oldest", "smh") == Path("r/bench-languages-oldest-smh")
    assert bench.parse_args(["--agent", "smh", "--turn-timeout", "9"]).turn_timeout == 9


@pytest.mark.parametrize(
    "argv",
    [
        ["--base-url", "http://127.0.0.1:1/v1", "--model", "m"],  # not for Assist
        ["--agent", "smh", "--base-url", "http://127.0.0.1:1/v1"],  # no model
        ["--agent", "smh", "--model", "m"],  # no endpoint
        ["--agent", "smh", "--base-url", "127.0.0.1:1", "--model", "m"],  # no scheme
        ["--ha", "2026.5"],
        ["--agent", "openai"],
    ],
)
def test_agent_options_that_do_not_fit_are_refused(argv, capsys):
    with pytest.raises(SystemExit):
        bench.parse_args(argv)


def test_hass_command_per_ha_release():
    assert ha_instance.hass_python("oldest") == [sys.executable]
    newest = ha_instance.hass_python("newest")
    assert newest[0] == "bash" and newest[-1] == "--python"
    assert Path(newest[1]) == ROOT / "scripts" / "ha_current.sh"
    with pytest.raises(ValueError, match="oldest, newest"):
        ha_instance.hass_python("2026.5")


def test_ha_current_sh_passes_the_rest_to_the_newest_python():
    """``--python`` must take every later argument as Python's (``-m homeassistant -c DIR``),
    not parse ``-c`` or a ``--lane`` in them, and run the newest venv's interpreter (or the
    lane's named before it: ``--lane plugin --python``)."""
    text = (ROOT / "scripts" / "ha_current.sh").read_text(encoding="utf-8")
    assert '--python) RUN=1; ONLY="${ONLY:-newest}"; shift; PYTEST_ARGS+=("$@"); break ;;' in text
    assert 'in_lane env PYTHONPATH="$ROOT" "$VENVS/$ONLY/bin/python" "$@" &' in text


async def test_smh_agent_is_set_in_the_entry_and_its_entity_used(monkeypatch):
    """The SMH entry's agent section is submitted through the options flow with the bench's
    home (as ``make demo`` does), and the run talks to the entry's conversation entity."""
    calls: list[tuple[str, Any]] = []

    async def configure(session, url, token, entry_id, home, agent):
        calls.append(("configure", (url, token, entry_id, home, agent)))

    class Client:
        def __init__(self, url, token, session):
            pass

        async def settled_key(self, entry_id):
            calls.append(("settled", entry_id))
            return "generated:simple:0"

    class Socket:
        def __init__(self, url, token, session):
            pass

        async def __aenter__(self):
            return self

        async def __aexit__(self, *exc):
            return None

    async def entity(socket, entry_id, domain):
        calls.append(("entity", (entry_id, domain)))
        return "conversation.smh_home"

    monkeypatch.setattr(bench, "configure_agent", configure)
    monkeypatch.setattr(bench, "HaClient", Client)
    monkeypatch.setattr(bench, "HaSocket", Socket)
    monkeypatch.setattr(bench, "entry_entity", entity)
    inst = SimpleNamespace(url="http://127.0.0.1:1", token="T", entry_id="E1")
    agent = bench.AgentConfig("http://127.0.0.1:2/v1", "smollm2")
    assert await bench.smh_agent(inst, agent) == "conversation.smh_home"
    assert calls == [
        ("configure", ("http://127.0.0.1:1", "T", "E1", BENCH_HOME, agent)),
        ("settled", "E1"),
        ("entity", ("E1", "conversation")),
    ]
    assert BENCH_HOME["level"] == "simple" and BENCH_HOME["time_scale"] == 0.0


def test_a_folder_of_another_run_is_refused(tmp_path):
    bench.check_run_key(tmp_path, "newest", "assist", "")
    bench.check_run_key(tmp_path, "newest", "assist", "")  # the same run resumes
    with pytest.raises(SystemExit, match="another --out"):
        bench.check_run_key(tmp_path, "oldest", "assist", "")
    with pytest.raises(SystemExit):
        bench.check_run_key(tmp_path, "newest", "smh", "smollm2")


def test_model_failures_and_timeouts_of_smh_are_infra_not_scored():
    failed = {"passed": False, "response": MODEL_FAILED + ": connection refused"}
    slow = {"passed": False, "timed_out": True, "response": ""}
    wrong = {"passed": False, "response": "Done.", "assist": {"response_type": "action_done"}}
    assert infra_reason(failed, "smh") == "model endpoint failed"
    assert infra_reason(slow, "smh").startswith("turn timeout")
    assert infra_reason(wrong, "smh") is None
    assert infra_reason({"passed": True, "timed_out": True}, "smh") is None
    assert infra_reason(slow, "assist") is None  # HA's Assist: a timeout is its own
    assert infra_reason(failed, "assist") is None


def test_the_agents_model_failure_reply_is_the_one_recognised():
    source = (ROOT / "custom_components" / "smh" / "conversation.py").read_text(encoding="utf-8")
    assert f'f"{MODEL_FAILED}: {{err}}"' in source


def _task(i: int) -> SimpleNamespace:
    """What :func:`language_row` reads of a task: its id and intent."""
    return SimpleNamespace(id=f"t{i}", subcategory="HassTurnOn")


def test_language_row_keeps_infra_records_out_of_the_rate():
    asked = [_task(i) for i in range(4)]
    records = [
        {"task_id": "t0", "passed": True},
        {"task_id": "t1", "passed": False, "response": "I could not."},
        {"task_id": "t2", "passed": False, "timed_out": True},
        {"task_id": "t3", "passed": False, "response": MODEL_FAILED + ": HTTP 500"},
    ]
    row = language_row("de", asked, records, {}, lambda r: infra_reason(r, "smh"))
    assert (row.tasks, row.scored, row.passed, row.infra) == (4, 2, 1, 2)
    assert sum(row.infra_reasons.values()) == 2
    table = markdown([row], agent="SMH agent")
    assert "SMH agent passed" in table and "error reply" in table and "HA error" not in table
    assert "model endpoint failed" in table
    assert language_row("de", asked, records, {}).scored == 4  # Assist: all scored


def test_tasks_from_the_newest_templates_have_their_own_folder_and_run_key(tmp_path):
    args = bench.parse_args(["--ha", "newest", "--templates", "newest"])
    assert args.out == ROOT / "runs" / "bench-languages-newest-newest-templates"
    assert bench.parse_args(["--ha", "newest"]).templates == "oldest"
    bench.check_run_key(tmp_path, "newest", "assist", "", "newest")
    bench.check_run_key(tmp_path, "newest", "assist", "", "newest")  # the same run resumes
    with pytest.raises(SystemExit, match="another --out"):
        bench.check_run_key(tmp_path, "newest", "assist", "")  # 2026.2.3's sentences
    old = tmp_path / "old"
    old.mkdir()  # a folder written before --templates existed resumes as the default's
    (old / "run-key.json").write_text('{"ha": "newest", "agent": "assist", "model": ""}\n')
    bench.check_run_key(old, "newest", "assist", "")


def _child(monkeypatch, command):
    real = ha_instance.hass_python
    monkeypatch.setattr(ha_instance, "hass_python", lambda r: command if r == "newest" else real(r))


def test_tasks_from_another_ha_come_back_whole_and_validated(monkeypatch, tmp_path):
    """The child protocol of ``--templates newest``, with this venv's Python as the child: its
    tasks and home arrive as the ones generated here, byte for byte."""
    _child(monkeypatch, [sys.executable])
    code, tasks = bench.language_tasks("de", 0, tmp_path / "c", tmp_path / "o", 12, "newest")
    here, mine = bench.language_tasks("de", 0, tmp_path / "c2", tmp_path / "o2", 12)
    assert (code, [t.id for t in tasks]) == (here, [t.id for t in mine]) and len(tasks) == 12
    for name in (f"tasks/{code}.jsonl", f"tasks/homes/{bench_home_name(code)}"):
        assert (tmp_path / "o" / name).read_bytes() == (tmp_path / "o2" / name).read_bytes()


def bench_home_name(code: str) -> str:
    from smh_core.suites.intents.suite import home_file

    return Path(home_file(code)).name


def test_a_child_task_that_does_not_hold_on_its_home_is_refused(monkeypatch, tmp_path):
    """What the child sends is checked again here: a task that names a device its home does
    not have is refused, nothing of it written."""
    import json

    _, text, lines = bench.generated("de", 0, 3)
    assert all('"did":"' in line for line in lines)
    bad = [re.sub(r'"did":"[^"]*"', '"did":"nope"', line) for line in lines]
    sent = json.dumps({"language": "de", "home": text, "tasks": bad})
    _child(monkeypatch, [sys.executable, "-c", f"print({sent!r})"])
    with pytest.raises(ValueError, match="reference solution fails"):
        bench.language_tasks("de", 0, tmp_path / "c", tmp_path / "o", 3, "newest")
    assert not (tmp_path / "o" / "tasks").exists()


def test_a_child_that_fails_says_so(monkeypatch, tmp_path):
    _child(monkeypatch, [sys.executable, "-c", "import sys; sys.exit('no hassil here')"])
    with pytest.raises(SystemExit, match="newest HA's templates failed:\n.*no hassil here"):
        bench.language_tasks("de", 0, tmp_path / "c", tmp_path / "o", 3, "newest")
