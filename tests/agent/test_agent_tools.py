"""Every tool schema is valid JSON Schema and the backend accepts what the schema allows."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smh_core.agent.memory_tools import (
    MEMORY_TOOLS,
    UserMemory,
    dispatch_memory,
    memory_tool_schemas,
)
from smh_core.agent.tools import TOOLS, dispatch, tool_schemas, validate_args
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import HomeEngine
from smh_core.memory.store import MemoryBank

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tiny_home.json"


@pytest.fixture
def backend() -> EmbeddedBackend:
    return EmbeddedBackend(HomeEngine.from_file(FIXTURE))


def test_schemas_are_valid_json_schema() -> None:
    for schema in tool_schemas():
        fn = schema["function"]
        assert schema["type"] == "function" and fn["description"]
        jsonschema.Draft202012Validator.check_schema(fn["parameters"])
        assert fn["parameters"]["type"] == "object"


def test_control_and_read_through_tools(backend) -> None:
    out = dispatch(backend, "control_device", {"did": "1002", "locator": "fan.turn_on"})
    assert out == {
        "ok": True,
        "changes": [{"did": "1002", "locator": "fan.state", "before": "off", "after": "on"}],
    }
    assert dispatch(backend, "get_device_status", {"did": "1002"})["status"]["fan.state"] == "on"
    assert [r["id"] for r in dispatch(backend, "list_rooms", {})] == ["r1", "r2", "r3"]
    assert [d["did"] for d in dispatch(backend, "list_devices", {"room": "r1"})] == ["1001", "1002"]
    assert (
        "fan.set_speed_level" in dispatch(backend, "get_device_spec", {"did": "1002"})["services"]
    )
    assert dispatch(backend, "get_current_time", {})["now"] == "2024-06-27T09:00:00"


@pytest.mark.parametrize(
    ("name", "args", "code", "field"),
    [
        ("control_device", {"did": "1002"}, "invalid_tool_arguments", "locator"),
        (
            "control_device",
            {"did": "1002", "locator": "x", "extra": 1},
            "invalid_tool_arguments",
            "extra",
        ),
        ("get_device_status", {"did": 5}, "invalid_tool_arguments", "did"),
        ("teleport", {}, "unknown_tool", None),
        (
            "control_device",
            {"did": "1003", "locator": "set_ac_mode", "arguments": {"ac_mode": "turbo"}},
            "invalid_option",
            "ac_mode",
        ),
        ("get_device_status", {"did": "9"}, "device_not_found", None),
    ],
)
def test_bad_tool_calls_explain_themselves(backend, name, args, code, field) -> None:
    out = dispatch(backend, name, args)
    assert out["ok"] is False and out["error"]["code"] == code
    assert out["error"].get("field") == field
    assert out["error"]["message"]


def _json_values() -> st.SearchStrategy:
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(10**6), 10**6)
        | st.floats(allow_nan=False)
        | st.text(max_size=8)
    )
    return st.recursive(
        scalars,
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
        max_leaves=6,
    )


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(sorted(TOOLS)),
    did=st.sampled_from(["1001", "1002", "1003", "nope"]),
    locator=st.sampled_from(
        ["turn_on", "set_brightness", "fan.set_speed_level", "set_ac_mode", "alias", "zz"]
    ),
    arguments=st.dictionaries(
        st.sampled_from(["brightness", "ac_mode", "speed_level", "value", "x"]),
        _json_values(),
        max_size=3,
    ),
)
def test_schema_valid_random_calls_never_crash(backend, name, did, locator, arguments) -> None:
    args = {"did": did, "locator": locator, "arguments": arguments}
    fields = TOOLS[name].args.model_fields
    call = {k: v for k, v in args.items() if k in fields}
    before = backend.engine.snapshot()
    out = dispatch(backend, name, call)
    json.dumps(out)  # always JSON-serializable for the model
    if isinstance(out, dict) and out.get("ok") is False:
        assert out["error"]["message"]
        assert backend.engine.diff(before, backend.engine.snapshot()) == []
    if TOOLS[name].run is None and not isinstance(validate_args(name, call), dict):
        assert out["error"]["code"] == "loop_tool"


def test_find_devices_tool(backend) -> None:
    out = dispatch(backend, "find_devices", {"description": "the bedside lamp"})
    assert out[0]["did"] == "1001" and out[0]["score"] > 0


@settings(max_examples=120, deadline=None)
@given(
    name=st.sampled_from(sorted(MEMORY_TOOLS)),
    arguments=st.dictionaries(
        st.sampled_from(["content", "query", "k", "memory_id", "question", "x"]),
        _json_values(),
        max_size=3,
    ),
    request=st.sampled_from(
        ["remember that I like the lamp at 30%", "hello", "my phone is 555-123-4567"]
    ),
)
def test_memory_tools_answer_every_call_with_a_result_or_a_clear_error(
    name, arguments, request
) -> None:
    for schema in memory_tool_schemas():
        jsonschema.Draft202012Validator.check_schema(schema["function"]["parameters"])
    memory = UserMemory(MemoryBank(), user="u", request=request)
    memory.bank.add("u", "Living room lamp at 30%")
    out = dispatch_memory(memory, name, arguments)
    json.dumps(out)
    assert isinstance(out, dict) and isinstance(out.get("ok"), bool)
    if out["ok"] is False:
        assert out["error"]["code"] and out["error"]["message"]
