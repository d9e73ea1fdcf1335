"""Hostile model output: whatever a model (or the server in front of it) sends, the parsers and
the agents give a result, never an exception.

Any JSON value may stand in any field of the assistant message (a tool name that is a list,
arguments that are a number, ``tool_calls`` that is a string), and JSON may be huge or nested
hundreds of thousands deep. The pure parsers get thousands of such messages from hypothesis;
the EIA and DR agents get them through the real ``openai`` client and the fake server (native
and prompted tool protocols), and a turn must end with a trace or a classified result (a
``message`` that is not an object at all, or a body too deep to read, is the endpoint's
``bad_response``, an :class:`InfraError` the runner records apart from the model's errors).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smh_core.agent.dr import DRAgent, parse_output
from smh_core.agent.eia import EIAAgent
from smh_core.agent.synthesizer import parse_draft
from smh_core.agent.tools import tool_schemas
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine
from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.llm.errors import InfraError
from smh_core.llm.repair import MAX_JSON_DEPTH, MalformedJSON, loads_lenient, parse_tool_calls
from smh_core.llm.tool_protocol import parse_prompted
from tests.support.fake_openai import FakeOpenAI, serve_in_thread

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"
NAMES = {t["function"]["name"] for t in tool_schemas()}
KINDS = {"malformed_call", "malformed_arguments", "arguments_not_object", "unknown_tool"}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
names = st.one_of(st.sampled_from(sorted(NAMES)), json_values)
arguments = st.one_of(
    json_values,
    json_values.map(json.dumps),
    st.text(max_size=40),
    st.fixed_dictionaries(
        {"did": st.sampled_from(["1001", "1002", "nope"]), "locator": json_values}
    ),
)
calls = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {
            "id": json_values,
            "type": st.just("function"),
            "function": st.one_of(
                json_values, st.fixed_dictionaries({"name": names, "arguments": arguments})
            ),
        }
    ),
)
prompted = st.fixed_dictionaries({"tool": names, "arguments": arguments}).map(json.dumps)
contents = st.one_of(
    json_values,
    st.text(max_size=60),
    prompted,
    prompted.map(lambda t: f"Sure! {t} done"),
    st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": json_values}), max_size=2),
)
messages = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"role": st.just("assistant")},
        optional={
            "content": contents,
            "tool_calls": st.one_of(json_values, st.lists(calls, max_size=3)),
        },
    ),
)

DEEP = 200_000
HUGE_TEXTS = [
    "[" * DEEP + "]" * DEEP,  # the RecursionError
    '{"tool": "finish", "arguments": ' + '{"a": ' * DEEP + "1" + "}" * DEEP + "}",
    "[" * DEEP,
    "{" * DEEP,
    "1" * 5000,  # past CPython's 4,300-digit int limit: a ValueError that is not a JSONDecodeError
    '{"tool": "finish", "arguments": {"answer": ' + "9" * 5000 + "}}",
    '"' + "x" * 2_000_000 + '"',
    "<tool_call>" * 5000 + "[" * 50_000,
]
HOSTILE_MESSAGES: list[Any] = [
    {
        "role": "assistant",
        "tool_calls": [{"id": "a", "function": {"name": ["control_device"], "arguments": "{}"}}],
    },
    {
        "role": "assistant",
        "tool_calls": [{"id": "a", "function": {"name": {"x": 1}, "arguments": "{}"}}],
    },
    {"role": "assistant", "tool_calls": "control_device"},
    {
        "role": "assistant",
        "tool_calls": {"function": {"name": "finish", "arguments": {"answer": "ok"}}},
    },
    {"role": "assistant", "content": {"tool": "finish"}},
    *({"role": "assistant", "content": text} for text in HUGE_TEXTS),
    *(
        {
            "role": "assistant",
            "tool_calls": [{"id": "a", "function": {"name": "finish", "arguments": text}}],
        }
        for text in HUGE_TEXTS
    ),
]


def _check(parsed: Any) -> None:
    for call in parsed.calls:
        assert call.name in NAMES and isinstance(call.arguments, dict) and isinstance(call.id, str)
        json.dumps(call.arguments)  # what the loop echoes back must serialise
    for p in parsed.problems:
        assert (
            p.kind in KINDS
            and isinstance(p.raw, str)
            and isinstance(p.message, str)
            and isinstance(p.name, str)
        )
        assert len(p.raw) <= 2000


@settings(max_examples=600, deadline=None)
@given(messages)
def test_native_tool_calls_parse_any_message(message: Any) -> None:
    _check(parse_tool_calls(message, NAMES))


@settings(max_examples=400, deadline=None)
@given(st.one_of(contents, json_values.map(json.dumps)))
def test_prompted_calls_dr_plans_and_rule_drafts_parse_any_reply(text: Any) -> None:
    _check(parse_prompted(text, NAMES, "c1"))
    output, error_class, error = parse_output(text, [])
    assert (output is None) == (error_class in ("FRF", "SO")) and isinstance(error, str)
    rule, problems = parse_draft(text, [])
    assert (rule is None) == bool(problems)


@pytest.mark.parametrize("message", HOSTILE_MESSAGES, ids=range(len(HOSTILE_MESSAGES)))
def test_deep_huge_and_mistyped_output_is_classified_not_raised(message: Any) -> None:
    parsed = parse_tool_calls(message, NAMES)
    _check(parsed)
    content = message.get("content")
    _check(parse_prompted(content, NAMES, "c1"))
    assert parse_output(content, [])[0] is None
    assert parse_draft(content, [])[0] is None


def test_limits_say_what_is_wrong() -> None:
    with pytest.raises(MalformedJSON, match=f"nests deeper than {MAX_JSON_DEPTH} levels"):
        loads_lenient("[" * 100 + "]" * 100, [])
    with pytest.raises(MalformedJSON, match="nests deeper"):
        loads_lenient("[" * DEEP + "]" * DEEP, [])
    with pytest.raises(MalformedJSON, match="characters long"):
        loads_lenient('"' + "x" * 2_000_000 + '"', [])
    assert loads_lenient("[" * 60 + "]" * 60, []) is not None  # shallow enough: fine
    name_as_list = parse_tool_calls(HOSTILE_MESSAGES[0], NAMES)
    assert [p.kind for p in name_as_list.problems] == ["unknown_tool"]
    deep = parse_tool_calls(
        {"tool_calls": [{"function": {"name": "finish", "arguments": HUGE_TEXTS[0]}}]}, NAMES
    )
    assert [(p.kind, p.message) for p in deep.problems] == [
        ("malformed_arguments", f"the JSON nests deeper than {MAX_JSON_DEPTH} levels")
    ]
    wrapped = parse_tool_calls(HOSTILE_MESSAGES[3], NAMES)  # one call, not in a list: still used
    assert [(c.name, c.arguments) for c in wrapped.calls] == [("finish", {"answer": "ok"})]


# ------------------------------------------------------------------ whole turns, real client
def _turn(server: FakeOpenAI, step: dict[str, Any], protocol: str, agent: str) -> Any:
    """One turn: the scripted ``step`` first, then plain answers (so a loop can end)."""
    server.script = [step]
    server.default = {"content": "ok"}

    async def run() -> Any:
        llm = LLMClient(
            LLMConfig(
                base_url=server.base_url,
                model="m",
                api_key="k",
                max_retries=0,
                tool_protocol=protocol,
                structured="text",
            )
        )  # type: ignore[arg-type]
        backend = EmbeddedBackend(HomeEngine.from_file(FIXTURE))
        try:
            if agent == "dr":
                return await DRAgent(llm, backend).run("lamp on")
            return await EIAAgent(llm, backend, budget=3).run("lamp on")
        except InfraError as e:  # a body the client cannot read: the endpoint's failure, classified
            return e
        finally:
            await llm.aclose()

    loop = asyncio.new_event_loop()  # not asyncio.run: it would unset the test session's loop
    try:
        return loop.run_until_complete(run())
    finally:
        loop.close()


def test_a_turn_ends_whatever_the_model_sends(socket_enabled: None) -> None:
    with serve_in_thread(FakeOpenAI()) as server:

        @settings(max_examples=50, deadline=None)
        @given(
            message=messages,
            protocol=st.sampled_from(["native", "prompted"]),
            agent=st.sampled_from(["eia", "dr"]),
        )
        def turn(message: Any, protocol: str, agent: str) -> None:
            if protocol == "prompted" and not isinstance(message, dict):
                message = {"role": "assistant", "content": message}
            result = _turn(server, {"message": message}, protocol, agent)
            if isinstance(result, InfraError):  # only a "message" that is no message at all
                assert result.kind == "bad_response" and not isinstance(message, dict), result
                return
            if agent == "eia":
                assert result.stop and all(p["kind"] for p in result.problems)
            else:
                assert (result.output is None) == (result.error_class in ("FRF", "SO"))

        turn()


@pytest.mark.parametrize("message", HOSTILE_MESSAGES, ids=range(len(HOSTILE_MESSAGES)))
def test_a_turn_ends_on_deep_huge_and_mistyped_output(socket_enabled: None, message: Any) -> None:
    with serve_in_thread(FakeOpenAI()) as server:
        for agent in ("eia", "dr"):
            for protocol in ("native", "prompted"):
                result = _turn(server, {"message": message}, protocol, agent)
                assert not isinstance(result, InfraError), (agent, protocol, result)


def test_a_body_nested_past_the_parser_is_a_bad_response(socket_enabled: None) -> None:
    deep = (
        '{"choices": [{"index": 0, "message": {"role": "assistant", "content": '
        + "[" * DEEP
        + "]" * DEEP
        + "}}]}"
    )
    with serve_in_thread(FakeOpenAI()) as server:
        result = _turn(server, {"raw_body": deep}, "native", "eia")
    assert isinstance(result, InfraError) and result.kind == "bad_response", result


def test_the_benchmark_records_every_task_whatever_the_model_sends(
    tmp_path: Path, socket_enabled: None
) -> None:
    """``smh bench run`` with a model that names tools with lists, nests its arguments 200,000
    deep and writes 200,000 brackets as its answer: every task is recorded and scored (the
    model's failures), none is lost to a crash or counted as the endpoint's."""
    import subprocess
    import sys

    replies = iter(
        [
            HOSTILE_MESSAGES[0],
            HOSTILE_MESSAGES[len(HOSTILE_MESSAGES) - len(HUGE_TEXTS)],
            {"role": "assistant", "content": HUGE_TEXTS[0]},
        ]
        * 20
    )
    with serve_in_thread(FakeOpenAI(default=lambda _body: {"message": next(replies)})) as server:
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "smh_core.cli.main",
                "bench",
                "run",
                "--tasks",
                str(Path(__file__).parents[1] / "fixtures" / "tasks_tiny.jsonl"),
                "--agent",
                "openai",
                "--setting",
                "eia",
                "--base-url",
                server.base_url,
                "--model",
                "fake",
                "--limit",
                "3",
                "--workers",
                "1",
                "--out",
                str(tmp_path / "run"),
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 0, run.stderr
    records = [json.loads(x) for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert len(records) == 3 and not any("infra" in r for r in records), records
    assert all(r["outcome"]["invalid_calls"] for r in records)
