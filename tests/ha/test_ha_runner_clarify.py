"""The benchmark through Home Assistant answers the agent's clarifying question: when HA's
conversation result says the agent asked (``continue_conversation``; the reply's question mark
where HA does not say), the runner sends the task's scripted reply in the same conversation and
the task is judged as the embedded runner judges it. Real HA, its REST API on a loopback port,
SMH's conversation agent (EIA, tools on the entry's simulated home) on the fake OpenAI server.

The task: "Make the lamp brighter." -> the scripted reply "70 percent" -> lamp 1001 on at 70."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

from smh_core.ha import runner as ha_runner
from smh_core.ha.runner import run_via_ha
from smh_core.task.model import iter_tasks
from tests.ha.conftest import FIXTURES, setup_agent_entry
from tests.support.fake_openai import FakeOpenAI

AGENT = "conversation.tiny"
TASK = next(t for t in iter_tasks(FIXTURES / "tasks_tiny.jsonl") if t.id == "clarify-2")
REPLY = "70 percent"


def call(name: str, **args: Any) -> tuple[str, str]:
    return (name, json.dumps(args))


ASK = call("ask_user", question="How bright?")
ON = call("control_device", did="1001", locator="turn_on")
DIM = call("control_device", did="1001", locator="set_brightness", arguments={"brightness": 70})


@pytest.fixture
def agent_mode() -> str:
    """SMH's agent's setting in the entry (a test overrides it by parametrizing)."""
    return "eia"


@pytest.fixture
async def ha_url(hass: HomeAssistant, hass_client, server: FakeOpenAI, agent_mode: str) -> str:
    """HA with its REST API on a loopback port and an SMH entry hosting the task's home under
    ``smh_homes/`` (as the runner expects), with SMH's agent on the fake model."""
    for domain in ("homeassistant", "http", "api", "config", "conversation"):
        assert await async_setup_component(hass, domain, {})
    homes = Path(hass.config.config_dir) / "smh_homes"
    homes.mkdir()
    shutil.copy(FIXTURES / "tiny_home.json", homes / "tiny_home.json")
    await setup_agent_entry(
        hass,
        "smh_homes/tiny_home.json",
        {
            "base_url": server.base_url,
            "model": "fake-model",
            "api_key": "k",
            "tool_budget": 5,
            "tools": "home",
            "agent_mode": agent_mode,
        },
    )
    return str((await hass_client()).make_url("")).rstrip("/")


async def _run(url: str, token: str, out: Path) -> dict[str, Any]:
    run = await run_via_ha([TASK], url, token, AGENT, out, progress=False, ready_timeout=10)
    assert run.skipped == {} and run.ran == 1
    (record,) = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return record


def _user_turns(server: FakeOpenAI) -> list[str]:
    """What the model was told the user said, request by request (the last user message)."""
    return [
        next(m["content"] for m in reversed(r["messages"]) if m["role"] == "user")
        for r in server.requests
    ]


async def test_the_agent_asks_gets_the_reply_acts_and_passes(
    hass: HomeAssistant, ha_url: str, hass_access_token: str, server: FakeOpenAI, tmp_path
) -> None:
    server.script = [
        {"tool_calls": [ASK]},  # turn 1: the question ends the turn (no user inside HA's turn)
        {"tool_calls": [ON, DIM]},  # turn 2, the scripted reply: act on it
        {"content": "The lamp is at 70 percent."},
    ]
    record = await _run(ha_url, hass_access_token, tmp_path)
    assert record["passed"], record["verdict"]
    assert _user_turns(server) == [TASK.turns[0].text, REPLY, REPLY]
    assert record["speeches"] == ["How bright?", "The lamp is at 70 percent."]
    assert record["replies_sent"] == [REPLY]
    assert record["outcome"]["questions"] == ["How bright?"]
    assert record["final_state"]["1001"]["brightness"] == 70


async def test_acting_without_asking_is_the_wrong_mode(
    hass: HomeAssistant, ha_url: str, hass_access_token: str, server: FakeOpenAI, tmp_path
) -> None:
    server.script = [{"tool_calls": [ON, DIM]}, {"content": "Done, 70 percent."}]
    record = await _run(ha_url, hass_access_token, tmp_path)
    assert not record["passed"]
    assert (record["verdict"]["reason"], record["verdict"]["error_class"]) == (
        "acted without asking for the missing information",
        "MS",
    )
    assert "replies_sent" not in record and _user_turns(server) == [TASK.turns[0].text] * 2


async def test_acting_then_asking_is_the_wrong_mode(
    hass: HomeAssistant, ha_url: str, hass_access_token: str, server: FakeOpenAI, tmp_path
) -> None:
    """The home is as the goal wants after the reply, but the lamp changed before the question."""
    server.script = [{"tool_calls": [ON, DIM, ASK]}, {"content": "Then it stays at 70."}]
    record = await _run(ha_url, hass_access_token, tmp_path)
    assert record["final_state"]["1001"]["brightness"] == 70 and not record["passed"]
    assert record["verdict"]["error_class"] == "MS"
    assert record["verdict"]["reason"].startswith("acted before asking")
    assert {(c["did"], c["locator"]) for c in record["verdict"]["details"]["acted"]} == {
        ("1001", "state"),
        ("1001", "brightness"),
    }


async def test_another_agents_question_is_read_from_its_reply(
    hass: HomeAssistant,
    ha_url: str,
    hass_access_token: str,
    server: FakeOpenAI,
    tmp_path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An agent that reports no trace (any HA agent but SMH's): its reply that keeps the
    conversation open is its question, and answered."""

    async def no_trace(self: Any, entry_id: str | None = None) -> set[str]:
        return set()

    monkeypatch.setattr(ha_runner.HaClient, "traced_agents", no_trace)
    server.script = [
        {"content": "How bright would you like it?"},  # a question in words, no ask_user
        {"tool_calls": [ON, DIM]},
        {"content": "Done."},
    ]
    record = await _run(ha_url, hass_access_token, tmp_path)
    assert record["passed"], record["verdict"]
    assert record["outcome"]["questions"] == ["How bright would you like it?"]


async def test_a_reply_that_cannot_be_sent_is_not_the_agents_failure(
    hass: HomeAssistant,
    ha_url: str,
    hass_access_token: str,
    server: FakeOpenAI,
    tmp_path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HA answers the question, then the connection fails when the reply goes out: the task is
    recorded as not scored (infra), so a resumed run tries it again."""
    converse = ha_runner.HaClient.converse_reply

    async def drop_the_reply(self: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        if text == REPLY:
            raise ha_runner.aiohttp.ClientConnectionError("connection reset by peer")
        return await converse(self, text, *args, **kwargs)

    monkeypatch.setattr(ha_runner.HaClient, "converse_reply", drop_the_reply)
    server.script = [{"tool_calls": [ASK]}]
    record = await _run(ha_url, hass_access_token, tmp_path)
    assert record["infra"]["kind"] == "connection" and record["verdict"]["error_class"] == "INFRA"
    assert "connection reset by peer" in record["verdict"]["reason"]


@pytest.mark.parametrize(
    ("flag", "speech", "asked"),
    [
        (True, "Done.", True),  # the agent said it waits for the user (HA's flag)
        (False, "Which one?", True),  # HA's default false says nothing: the text decides
        (None, "¿Cuál?", True),
        (None, "哪一个？", True),
        (None, "Done.", False),
        (False, "Done.", False),
    ],
)
def test_a_reply_asks_by_the_shared_rule(flag: bool | None, speech: str, asked: bool) -> None:
    """The rule of :mod:`smh_core.bench.asking`, as the embedded runner reads a final answer."""
    reply = ha_runner.AssistReply(speech, "c1", continue_conversation=flag)
    assert reply.asks() is asked


QUESTION = "Which brightness would you like, in percent?"


@pytest.mark.parametrize("traced", [True, False], ids=["smh-agent", "untraced-agent"])
async def test_asking_in_words_then_acting_passes(
    hass: HomeAssistant,
    ha_url: str,
    hass_access_token: str,
    server: FakeOpenAI,
    tmp_path,
    monkeypatch: pytest.MonkeyPatch,
    traced: bool,
) -> None:
    """SMH's EIA asks in words, no ``ask_user`` (its trace reports no question): the reply is
    its question, answered, and the task passes as it does embedded
    (tests/bench/test_asking.py plays the same script)."""
    if not traced:
        monkeypatch.setattr(ha_runner.HaClient, "traced_agents", _no_trace)
    server.script = [
        {"content": QUESTION},
        {"tool_calls": [ON, DIM]},
        {"content": "It is at 70 percent."},
    ]
    record = await _run(ha_url, hass_access_token, tmp_path)
    assert record["passed"], record["verdict"]
    assert _user_turns(server) == [TASK.turns[0].text, REPLY, REPLY]
    assert record["outcome"]["questions"] == [QUESTION]
    assert record["replies_sent"] == [REPLY]


@pytest.mark.parametrize("traced", [True, False], ids=["smh-agent", "untraced-agent"])
async def test_acting_then_asking_in_words_is_the_wrong_mode(
    hass: HomeAssistant,
    ha_url: str,
    hass_access_token: str,
    server: FakeOpenAI,
    tmp_path,
    monkeypatch: pytest.MonkeyPatch,
    traced: bool,
) -> None:
    if not traced:
        monkeypatch.setattr(ha_runner.HaClient, "traced_agents", _no_trace)
    server.script = [
        {"tool_calls": [ON, DIM]},
        {"content": f"I set it to 70. {QUESTION}"},
        {"content": "It stays at 70 percent."},
    ]
    record = await _run(ha_url, hass_access_token, tmp_path)
    assert record["final_state"]["1001"]["brightness"] == 70 and not record["passed"]
    assert record["verdict"]["error_class"] == "MS"
    assert record["verdict"]["reason"].startswith("acted before asking")
    assert record["outcome"]["questions"] == [f"I set it to 70. {QUESTION}"]


@pytest.mark.parametrize("agent_mode", ["dr"])
async def test_dr_is_read_by_its_mode_not_its_text(
    hass: HomeAssistant, ha_url: str, hass_access_token: str, server: FakeOpenAI, tmp_path
) -> None:
    """SMH's DR acts in execute mode and ends with a courtesy question: HA keeps the
    conversation open and the reply goes out, but DR's mode says it did not ask, as embedded
    (tests/bench/test_clarify_order.py): acting without asking, not acting before asking."""
    plan = {"mode": "execute", "actions": [json.loads(ON[1]), json.loads(DIM[1])]}
    server.script = [
        {"content": json.dumps({**plan, "response": "It is at 70. Anything else?"})},
        {"content": json.dumps({"mode": "answer", "response": "Fine."})},
    ]
    record = await _run(ha_url, hass_access_token, tmp_path)
    assert record["outcome"]["questions"] == []
    assert (record["verdict"]["reason"], record["verdict"]["error_class"]) == (
        "acted without asking for the missing information",
        "MS",
    )


async def _no_trace(self: Any, entry_id: str | None = None) -> set[str]:
    return set()


async def test_smh_verify_refuses_a_state_of_other_devices(hass: HomeAssistant, ha_url) -> None:
    """``asked_state`` must be the home's own devices (smh.snapshot's): anything else cannot be
    told what changed before the question, so it is refused, not read as "nothing changed"."""
    from homeassistant.exceptions import ServiceValidationError

    await hass.services.async_call(
        "smh", "load_task", {"task": TASK.model_dump(mode="json")}, blocking=True
    )
    snapshot = await hass.services.async_call(
        "smh", "snapshot", {}, blocking=True, return_response=True
    )
    devices = json.loads(json.dumps(snapshot["devices"]))  # as the runner reads it back
    for wrong in ({**devices, "9999": {"state": "on"}}, {"1001": devices["1001"]}):
        with pytest.raises(ServiceValidationError, match="asked_state: not this home's devices"):
            await hass.services.async_call(
                "smh",
                "verify",
                {"questions": ["How bright?"], "asked_state": wrong},
                blocking=True,
                return_response=True,
            )
    verdict = await hass.services.async_call(
        "smh",
        "verify",
        {"questions": ["How bright?"], "asked_state": devices},
        blocking=True,
        return_response=True,
    )
    # unchanged when asked (its JSON read back is no change), and nothing done after
    assert verdict["reason"] == "nothing changed (no-op)"


# The action guard's question inside HA: the runner answers it as the simulated user does on
# the simulator (yes exactly when the task's user wants that call), not with a scripted reply.
HEAT = call(
    "control_device",
    did="1003",
    locator="set_target_temperature",
    arguments={"target_temperature": 30},
)


def _heat_task(wanted: bool) -> Any:
    """The kitchen AC to 30 °C (high-risk: it overheats the room) in words the guard's grammar
    does not account for, so it asks; the task's user wants it (its reference makes the call)
    or not (the reference leaves the AC alone and the goal says so)."""
    base = next(t for t in iter_tasks(FIXTURES / "tasks_tiny.jsonl") if t.id == "exec-1")
    heat = {
        "did": "1003",
        "locator": "set_target_temperature",
        "arguments": {"target_temperature": 30},
    }
    data = base.model_dump(mode="json")
    data["id"] = f"heat-{'wanted' if wanted else 'unwanted'}"
    data["turns"] = [{"text": "mach die Küche richtig warm, 30 Grad"}]
    data["language"] = "de"
    data["goal"] = {
        "kind": "execute",
        "critic": "device(1003).target_temperature == 30"
        if wanted
        else "device(1003).target_temperature != 30",
    }
    data["reference"] = {"mode": "execute", "response": "Ok.", "actions": [heat] if wanted else []}
    return type(base).model_validate(data)


@pytest.mark.parametrize(("wanted", "answer"), [(True, "Ja."), (False, "Nein, lass das.")])
async def test_the_guards_question_is_answered_as_on_the_simulator(
    hass: HomeAssistant,
    ha_url: str,
    hass_access_token: str,
    server: FakeOpenAI,
    tmp_path,
    wanted: bool,
    answer: str,
) -> None:
    task = _heat_task(wanted)
    server.script = [{"tool_calls": [HEAT]}, {"content": "Mache ich."}]
    server.default = {"content": "Gut."}
    run = await run_via_ha(
        [task], ha_url, hass_access_token, AGENT, tmp_path, progress=False, language="de"
    )
    assert run.ran == 1
    (record,) = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert record["replies_sent"] == [answer]  # the simulated user's, in the task's language
    assert record["passed"], record["verdict"]
    assert (record["final_state"]["1003"]["target_temperature"] == 30) is wanted
