"""What real OpenAI-compatible servers do, played by the fake server, and the client's answer
to each: structured-output refusals in every server family's shape, servers that ignore or
refuse ``tools``, infrastructure failures kept apart from model failures, and bounded loops.

The real llama-cpp-python server checks the same paths in tests/llm/test_local_model.py.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from smh_core.agent.dr import DRAgent
from smh_core.agent.eia import EIAAgent
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine
from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.llm.errors import InfraError
from smh_core.llm.repair import parse_tool_calls, tagged_chunks
from smh_core.llm.tool_protocol import (
    FREE_ID_MAX_CHARS,
    RESULT_PREFIX,
    call_schemas,
    parse_prompted,
)
from tests.support.fake_openai import FakeOpenAI

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"
PLAN = {
    "mode": "execute",
    "response": "Done.",
    "actions": [{"did": "1001", "locator": "turn_on", "arguments": {}}],
}


@pytest.fixture
def backend() -> EmbeddedBackend:
    return EmbeddedBackend(HomeEngine.from_file(FIXTURE))


def _llm(server: FakeOpenAI, **kw) -> LLMClient:
    kw.setdefault("max_retries", 0)
    return LLMClient(LLMConfig(base_url=server.base_url, model="m", api_key="k", **kw))


def _prompted(tool: str, **arguments) -> dict:
    return {"content": json.dumps({"tool": tool, "arguments": arguments})}


# --- structured output: the ladder json_schema -> json_object + schema -> text -------------


@pytest.mark.parametrize("status", [400, 422, 500])
@pytest.mark.parametrize(
    ("refused", "expected"),
    [
        ({"json_schema"}, "json_object"),
        ({"json_schema", "json_object"}, "text"),
    ],
)
async def test_refused_format_falls_down_the_ladder_and_is_remembered(
    socket_enabled, backend, status, refused, expected
) -> None:
    async with FakeOpenAI(
        default={"content": json.dumps(PLAN)}, refuse_formats=refused, refusal_status=status
    ) as server:
        first = await DRAgent(_llm(server), backend).run("lamp on")
        refusals = len(server.refused)
        second = await DRAgent(_llm(server), backend).run("lamp on")
    assert first.error_class is None and first.output.actions[0].did == "1001"
    assert first.structured == expected and second.structured == expected
    assert (
        refusals == len(refused) and len(server.refused) == refusals
    )  # the second run asked no refused format
    sent = server.requests[0].get("response_format")
    if expected == "json_object":  # llama.cpp-style servers constrain decoding with this schema
        assert sent["type"] == "json_object" and sent["schema"]["properties"]["mode"]["enum"]
    else:
        assert sent is None


async def test_a_transient_error_while_probing_is_retried_not_taken_as_refusal(
    socket_enabled, backend
) -> None:
    async with FakeOpenAI(
        [{"status": 503, "message": "server overloaded"}, {"content": json.dumps(PLAN)}]
    ) as server:
        llm = _llm(server, max_retries=2)
        result = await DRAgent(llm, backend).run("lamp on")
    assert result.structured == "json_schema" and llm.caps.structured == "json_schema"
    assert [r["response_format"]["type"] for r in server.requests] == ["json_schema", "json_schema"]


async def test_context_overflow_is_infra_and_does_not_walk_the_ladder(
    socket_enabled, backend
) -> None:
    overflow = {
        "status": 400,
        "message": "This model's maximum context length is 8192 tokens. However, you "
        "requested 9337 tokens (8825 in the messages, 512 in the completion).",
    }
    async with FakeOpenAI([overflow, overflow, overflow]) as server:
        with pytest.raises(InfraError) as info:
            await DRAgent(_llm(server), backend).run("lamp on")
    assert info.value.kind == "context_length" and len(server.requests) == 1


async def test_every_format_refused_is_infra_not_a_model_failure(socket_enabled, backend) -> None:
    async with FakeOpenAI(
        default={"status": 500, "message": "grammar: failed to parse schema"}
    ) as server:
        with pytest.raises(InfraError) as info:
            await DRAgent(_llm(server), backend).run("lamp on")
    assert info.value.kind == "server_error"
    assert [(r.get("response_format") or {}).get("type") for r in server.requests] == [
        "json_schema",
        "json_object",
        None,
    ]


async def test_synthesizer_and_memory_decision_run_on_a_llama_cpp_style_server(
    socket_enabled,
) -> None:
    from smh_core.agent.synthesizer import AutomationSynthesizer
    from smh_core.memory.decision import MemoryRewriter
    from smh_core.memory.store import MemoryBank
    from smh_core.sim.simulator import Simulator

    sim = Simulator(HomeEngine.from_file(FIXTURE))
    backend = EmbeddedBackend(sim.engine, sim=sim)
    rule = {
        "id": "lamp_7",
        "name": "lamp at 7",
        "triggers": [{"kind": "time", "cron": "0 0 7 * * ?"}],
        "actions": [{"did": "1001", "locator": "turn_on", "arguments": {}}],
    }
    async with FakeOpenAI(
        [{"content": json.dumps(rule)}, {"content": "memory: I like the bedroom lamp at 30%"}],
        refuse_formats={"json_schema"},
        refusal_status=500,
    ) as server:
        llm = _llm(server)
        synthesized = await AutomationSynthesizer(llm).synthesize(
            "turn the lamp on at 7 every day", backend
        )
        bank = MemoryBank()
        decided = await MemoryRewriter(llm, bank).decide(
            "u", "Remember that I like the bedroom lamp at 30%"
        )
    sim.close()
    assert synthesized.ok, synthesized.errors
    assert synthesized.structured == "json_object"
    assert decided.decision.kind == "memory_add" and [m.content for m in bank.all("u")] == [
        "I like the bedroom lamp at 30%"
    ]
    bank.close()


# --- tool protocols ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tools", "expected"),
    [("native", "native"), ("ignored", "prompted"), ("text", "prompted"), ("refused", "prompted")],
)
async def test_tool_protocol_is_probed_once_per_endpoint(socket_enabled, tools, expected) -> None:
    async with FakeOpenAI(tools=tools) as server:
        first = await _llm(server).tool_protocol()
        second = await _llm(server).tool_protocol()
    assert first == second == expected
    assert len(server.probes) + len(server.refused) == 1


async def test_prompted_protocol_runs_the_tool_loop(socket_enabled, backend) -> None:
    script = [
        _prompted("get_device_spec", did="1001"),
        _prompted("control_device", did="1001", locator="turn_on"),
        _prompted("finish", answer="The bedroom lamp is on."),
    ]
    async with FakeOpenAI(
        script, tools="ignored", refuse_formats={"json_schema"}, refusal_status=500
    ) as server:
        trace = await EIAAgent(_llm(server), backend).run("Turn on the bedroom lamp")
    assert trace.protocol == "prompted" and trace.structured == "json_object"
    assert trace.stop == "finished" and trace.answer == "The bedroom lamp is on."
    assert [s["tool"] for s in trace.steps] == ["get_device_spec", "control_device", "finish"]
    assert backend.engine.status("1001")["state"] == "on"
    for request in server.requests:  # no native tools: the protocol is in the prompt
        assert "tools" not in request and request["response_format"]["type"] == "json_object"
        assert '{"tool": "<tool name>", "arguments"' in request["messages"][0]["content"]
    last = server.requests[-1]["messages"]
    assert last[-1]["role"] == "user" and last[-1]["content"].startswith(RESULT_PREFIX)
    assert '"ok": true' in last[-1]["content"] and "control_device:" in last[-1]["content"]
    names = {
        v["properties"]["tool"]["const"]
        for v in server.requests[0]["response_format"]["schema"]["anyOf"]
    }
    assert {"control_device", "finish", "ask_user"} <= names
    # the grammar admits only this home's device ids (and its rooms' climates, "@room")
    sent = server.requests[0]["response_format"]["schema"]
    control = next(v for v in sent["anyOf"] if v["properties"]["tool"]["const"] == "control_device")
    ids = {d["did"] for d in backend.list_devices()} | {f"@{r['id']}" for r in backend.list_rooms()}
    assert set(control["properties"]["arguments"]["properties"]["did"]["enum"]) == ids
    locators = set(control["properties"]["arguments"]["properties"]["locator"]["enum"])
    spec = backend.device_spec("1001")
    assert set(spec["services"]) | set(spec["attributes"]) | {"temperature"} <= locators


async def test_forced_protocol_skips_the_probe(socket_enabled, backend) -> None:
    async with FakeOpenAI([_prompted("finish", answer="ok")]) as server:
        trace = await EIAAgent(
            _llm(server, tool_protocol="prompted", structured="text"), backend
        ).run("hi")
    assert server.probes == [] and trace.protocol == "prompted" and trace.answer == "ok"
    assert "response_format" not in server.requests[0]


def test_prompted_replies_are_parsed_or_reported() -> None:
    names = {"control_device", "finish"}
    ok = parse_prompted(
        '```json\n{"tool": "control_device", "arguments": {"did": "1"}}\n```', names, "c1"
    )
    assert [(c.name, c.arguments) for c in ok.calls] == [("control_device", {"did": "1"})]
    assert parse_prompted("The lamp is on.", names, "c2").calls == []  # prose: a final answer
    unknown = parse_prompted('{"tool": "unlock_everything", "arguments": {}}', names, "c3")
    assert unknown.calls == [] and unknown.problems[0].kind == "unknown_tool"
    broken = parse_prompted('{"tool": "control_device", "arguments": ', names, "c4")
    assert broken.problems[0].kind == "malformed_call"
    bare = parse_prompted('{"answer": "done"}', names, "c5")
    assert [(c.name, c.arguments) for c in bare.calls] == [("finish", {"answer": "done"})]


def test_call_schemas_hoist_definitions() -> None:
    from smh_core.agent.tools import tool_schemas

    rich, simple = call_schemas(tool_schemas())
    assert "Action" in rich["$defs"] and all(
        "$defs" not in v["properties"]["arguments"] for v in rich["anyOf"]
    )
    assert "create_automation" in simple["properties"]["tool"]["enum"]


def test_call_schemas_narrow_ids_to_the_home_only_in_the_rich_schema() -> None:
    from smh_core.agent.tools import tool_schemas

    choices = {"did": ["1002", "1001", "@kitchen"], "room": ["kitchen"]}
    rich, simple = call_schemas(tool_schemas(), choices)
    args = {v["properties"]["tool"]["const"]: v["properties"]["arguments"] for v in rich["anyOf"]}
    ids = {"type": "string", "enum": ["1001", "1002", "@kitchen"]}
    assert args["control_device"]["properties"]["did"] == ids
    assert rich["$defs"]["Action"]["properties"]["did"] == ids  # schedules' and rules' actions
    assert args["get_room_environment"]["properties"]["room"] == {
        "type": "string",
        "enum": ["kitchen"],
    }
    optional = args["list_devices"]["properties"]["room"]["anyOf"]  # str | None keeps its None
    assert {"type": "string", "enum": ["kitchen"]} in optional and {"type": "null"} in optional
    assert "did" not in json.dumps(simple)  # the fallback stays free
    plain = call_schemas(tool_schemas())
    assert call_schemas(tool_schemas(), {"did": [], "room": []}) == plain  # an empty home: no enum
    assert '"enum": ["1001"' not in json.dumps(plain)


def test_call_schemas_narrow_categories_tags_and_stored_ids() -> None:
    from smh_core.agent.tools import tool_schemas

    choices = {"category": ["light", "ac"], "tags": ["bedside"], "automation_id": ["a1"]}
    choices["schedule_id"] = []  # nothing scheduled: any id fails, so ids are only capped
    rich, _ = call_schemas(tool_schemas(), choices)
    args = {v["properties"]["tool"]["const"]: v["properties"]["arguments"] for v in rich["anyOf"]}
    listing = args["list_devices"]["properties"]
    assert {"type": "string", "enum": ["ac", "light"]} in listing["category"]["anyOf"]
    tag_lists = [o for o in listing["tags"]["anyOf"] if o.get("type") == "array"]
    assert tag_lists[0]["items"] == {"type": "string", "enum": ["bedside"]}
    assert args["delete_automation"]["properties"]["automation_id"] == {
        "type": "string",
        "enum": ["a1"],
    }
    assert args["cancel_schedule"]["properties"]["schedule_id"] == {
        "type": "string",
        "maxLength": FREE_ID_MAX_CHARS,
    }
    assert "maxLength" not in json.dumps(args["finish"])  # a reply is not an id: never capped


async def test_a_rule_made_in_the_turn_can_be_named_by_its_next_call(socket_enabled) -> None:
    from smh_core.sim.simulator import Simulator

    sim = Simulator(HomeEngine.from_file(FIXTURE))
    backend = EmbeddedBackend(sim.engine, sim=sim)
    rule = {
        "name": "lamp at seven",
        "triggers": [{"kind": "time", "cron": "0 0 7 * * ?"}],
        "actions": [{"did": "1001", "locator": "turn_on"}],
    }
    script = [
        {"content": json.dumps({"tool": "create_automation", "arguments": rule})},
        {
            "content": json.dumps(
                {"tool": "delete_automation", "arguments": {"automation_id": "a1"}}
            )
        },
        {"content": "Made and removed."},
    ]
    async with FakeOpenAI(script, tools="ignored") as server:
        trace = await EIAAgent(_llm(server), backend).run("make a rule, then drop it")
    assert [s["result"]["ok"] for s in trace.steps] == [True, True]
    first = json.dumps(server.requests[0]["response_format"])
    second = json.dumps(server.requests[1]["response_format"])
    assert '"enum": ["a1"]' not in first and '"enum": ["a1"]' in second


# --- bounded loops ---------------------------------------------------------------------------


async def test_unknown_tool_calls_spend_the_budget(socket_enabled, backend) -> None:
    async with FakeOpenAI(default={"tool_calls": [("teleport", "{}")]}) as server:
        trace = await EIAAgent(_llm(server), backend, budget=10, repeat_limit=0).run("hi")
    assert trace.stop == "budget" and len(server.requests) == 10 and len(trace.problems) == 10


async def test_the_same_unknown_call_three_times_ends_the_turn(socket_enabled, backend) -> None:
    async with FakeOpenAI(default={"tool_calls": [("teleport", "{}")]}) as server:
        trace = await EIAAgent(_llm(server), backend, budget=10).run("hi")
    assert trace.stop == "repeating" and len(server.requests) == 3 and len(trace.problems) == 3


async def test_malformed_prompted_calls_spend_the_budget(socket_enabled, backend) -> None:
    async with FakeOpenAI(
        default={"content": '{"tool": "control_device", "arguments": '}, tools="ignored"
    ) as server:
        trace = await EIAAgent(_llm(server), backend, budget=4, repeat_limit=0).run("hi")
    assert trace.stop == "budget" and len(server.requests) == 4


async def test_model_calls_per_turn_are_capped(socket_enabled, backend) -> None:
    async with FakeOpenAI(
        default={"tool_calls": [("get_device_status", json.dumps({"did": "1001"}))]}
    ) as server:
        trace = await EIAAgent(
            _llm(server), backend, budget=1000, max_model_calls=5, repeat_limit=0
        ).run("hi")
    assert trace.stop == "model_call_cap" and len(server.requests) == 5


def test_tagged_call_extraction_is_linear() -> None:
    hostile = "<tool_call>" * 50_000 + '{"name": "finish", "arguments": {"answer": "x"}}'
    t0 = time.process_time()  # CPU time: another job's turn on a busy machine is not ours
    parsed = parse_tool_calls({"content": hostile}, {"finish"})
    assert time.process_time() - t0 < 2.0  # the lazy regex this replaced needed minutes here
    assert tagged_chunks(
        "a <tool_call> <tool_call>{1}</tool_call> b <tool_call>{2}</tool_call>"
    ) == ["{1}", "{2}"]
    assert parsed.calls == []


async def test_completion_cap_is_sent_and_hitting_it_is_counted(socket_enabled) -> None:
    async with FakeOpenAI(
        [{"content": "and so on and so on", "finish_reason": "length"}]
    ) as server:
        result = await _llm(server, max_tokens=64).chat([{"role": "user", "content": "ramble"}])
    assert server.requests[0]["max_tokens"] == 64
    assert result.usage.truncated == 1 and result.usage.to_dict()["truncated"] == 1


# --- infrastructure errors -------------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_connection_refused_is_infra(socket_enabled) -> None:
    llm = LLMClient(
        LLMConfig(base_url=f"http://127.0.0.1:{_closed_port()}/v1", model="m", max_retries=0)
    )
    with pytest.raises(InfraError) as info:
        await llm.chat([{"role": "user", "content": "hi"}])
    assert info.value.kind == "connection"


@pytest.mark.parametrize(
    ("status", "kind"),
    [(401, "auth"), (404, "not_found"), (500, "server_error"), (429, "rate_limit")],
)
async def test_status_errors_are_classified(socket_enabled, status, kind) -> None:
    async with FakeOpenAI(default={"status": status, "message": "nope"}) as server:
        with pytest.raises(InfraError) as info:
            await _llm(server).chat([{"role": "user", "content": "hi"}])
    assert info.value.kind == kind and info.value.status == status


def test_the_endpoint_as_printed_and_remembered_has_no_credentials() -> None:
    config = LLMConfig(base_url="http://user:sk-secret@127.0.0.1:8000/v1?api_key=abc", model="m")
    assert config.endpoint() == "http://127.0.0.1:8000/v1"


async def test_a_huge_tool_result_is_shortened_for_the_model_not_in_the_trace(
    socket_enabled,
) -> None:
    from smh_core.homes.generator import generate_home

    backend = EmbeddedBackend(HomeEngine(generate_home("complex", 0)))
    async with FakeOpenAI([{"tool_calls": [("list_devices", "{}")]}, {"content": "ok"}]) as server:
        trace = await EIAAgent(_llm(server, max_tool_result_chars=3000), backend).run(
            "what is there?"
        )
    sent = next(m["content"] for m in server.requests[1]["messages"] if m["role"] == "tool")
    shown = json.loads(sent)
    assert len(sent) <= 3000 and shown["truncated"] > 0 and "narrow the call" in shown["note"]
    assert len(trace.steps[0]["result"]) == len(backend.list_devices())  # the trace keeps all


async def test_context_overflow_mid_task_is_the_models_failure_ctx(
    socket_enabled, tmp_path
) -> None:
    """An overflow is the model's limit as configured: scored CTX, not hidden as infra (a
    small-context model would otherwise look better by skipping what it cannot hold)."""
    from smh_core.bench.llm_agents import EIABenchAgent
    from smh_core.bench.runner import run_suite
    from smh_core.task.home import HomeCache
    from smh_core.task.model import iter_tasks

    fixtures = Path(__file__).parents[1] / "fixtures"
    overflow = {
        "status": 400,
        "message": "This model's maximum context length is 8192 tokens. However, you "
        "requested 9337 tokens.",
    }
    async with FakeOpenAI([{"tool_calls": [("list_rooms", "{}")]}], default=overflow) as server:
        config = LLMConfig(base_url=server.base_url, model="m", api_key="k", max_retries=0)
        log = await run_suite(
            list(iter_tasks(fixtures / "tasks_tiny.jsonl"))[:1],
            EIABenchAgent(config),
            tmp_path,
            homes=HomeCache(fixtures),
            progress=False,
        )
    (record,) = log.scored()
    assert (
        record["verdict"]["error_class"] == "CTX"
        and record["passed"] is False
        and log.infra() == []
    )
    # what the model did before the window filled stays on record
    assert [c["tool"] for c in record["outcome"]["tool_calls"]] == ["list_rooms"]
    assert record["usage"]["calls"] == 1 and record["outcome"]["stop"] == "context_length"


async def test_reasoning_models_get_max_completion_tokens(socket_enabled) -> None:
    """OpenAI's reasoning models refuse max_tokens: the cap is renamed once, for the endpoint."""
    async with FakeOpenAI(default={"content": "ok"}, new_token_param=True) as server:
        first = await _llm(server, max_tokens=64).chat([{"role": "user", "content": "hi"}])
        second = await _llm(server, max_tokens=64).chat([{"role": "user", "content": "hi"}])
    assert first.message["content"] == second.message["content"] == "ok"
    assert len(server.refused) == 1 and [r["max_completion_tokens"] for r in server.requests] == [
        64,
        64,
    ]
    assert all("max_tokens" not in r for r in server.requests)
