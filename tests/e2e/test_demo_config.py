"""`make demo`'s Home Assistant: the Assist dialog has a pipeline to open, history is recorded
for the room climate graphs, and only the simulated home's rooms are areas."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from smh_core.llm.local import free_port
from tests.support.fake_openai import FakeOpenAI, serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_assistant  # noqa: E402
import ha_instance  # noqa: E402

pytestmark = pytest.mark.slow


def test_demo_instance_has_assist_history_and_only_the_homes_areas(tmp_path, socket_enabled):
    loop = asyncio.new_event_loop()
    port = free_port()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(tmp_path / "ha", port, "simple", 0, time_scale=0.0, demo=True)
        )
        try:
            pipelines, recorder, areas, devices = loop.run_until_complete(
                ha_instance.ws_calls(
                    inst.url,
                    inst.token,
                    [
                        {"type": "assist_pipeline/pipeline/list"},
                        {"type": "recorder/info"},
                        {"type": "config/area_registry/list"},
                        {"type": "config/device_registry/list"},
                    ],
                )
            )
            try:
                [http] = loop.run_until_complete(
                    ha_instance.ws_calls(inst.url, inst.token, [{"type": "http/config"}])
                )
            except RuntimeError as e:  # HA before 2026.10 keeps http: in YAML only
                assert "unknown_command" in str(e)
                http = None
        finally:
            inst.stop()
    finally:
        loop.close()
    if (
        http is not None
    ):  # the YAML settings confirmed: no restart onto 0.0.0.0:8123 five minutes later
        assert http["pending"] is None and http["revert_at"] is None
        assert http["stable"]["server_port"] == port and http["stable"]["server_host"] in (
            "127.0.0.1",
            ["127.0.0.1"],
        )
    assert pipelines["pipelines"] and pipelines["preferred_pipeline"]  # the Assist dialog opens
    assert recorder["recording"] is True or recorder.get("thread_running") is True
    with_devices = {d["area_id"] for d in devices if d.get("area_id")}
    names = {a["name"] for a in areas}
    # onboarding's empty "Bedroom" (the simple home has master bedroom and bathrooms) is gone
    assert {a["area_id"] for a in areas} <= with_devices, names
    # no model configured: HA's own agent stays the assistant
    preferred = next(
        p for p in pipelines["pipelines"] if p["id"] == pipelines["preferred_pipeline"]
    )
    assert preferred["conversation_engine"] == "conversation.home_assistant"
    assert all(p["name"] != ha_assistant.ASSISTANT for p in pipelines["pipelines"])


def test_demo_with_a_model_prefers_an_assistant_on_smhs_agent(tmp_path, socket_enabled):
    """With a model configured (here the fake OpenAI server), the SMH entry gets its conversation
    agent through the options flow and, once a test turn through it answered, Assist's preferred
    pipeline is the "SMH" assistant on it; launching again on the same config keeps a single one."""
    fake = FakeOpenAI(default={"content": "The home has a living room, a kitchen and a bedroom."})
    loop = asyncio.new_event_loop()
    with serve_in_thread(fake):
        agent = ha_assistant.AgentConfig(fake.base_url, "smollm2-135m")
        try:
            port = free_port()
            inst = loop.run_until_complete(
                ha_instance.launch(
                    tmp_path / "ha", port, "simple", 0, time_scale=0.0, demo=True, agent=agent
                )
            )
            try:
                entities, pipelines = loop.run_until_complete(
                    ha_instance.ws_calls(
                        inst.url,
                        inst.token,
                        [
                            {"type": "config/entity_registry/list"},
                            {"type": "assist_pipeline/pipeline/list"},
                        ],
                    )
                )
                again = loop.run_until_complete(
                    ha_assistant.ensure_assistant(
                        ha_instance.ws_calls, inst.url, inst.token, inst.entry_id
                    )
                )
                [after] = loop.run_until_complete(
                    ha_instance.ws_calls(
                        inst.url, inst.token, [{"type": "assist_pipeline/pipeline/list"}]
                    )
                )
            finally:
                inst.stop()
        finally:
            loop.close()
    assert inst.assistant_error is None
    assert any(
        ha_assistant.TEST_TURN in json.dumps(r["messages"]) for r in fake.requests
    )  # the test turn ran
    [agent_entity] = [
        e["entity_id"]
        for e in entities
        if e["config_entry_id"] == inst.entry_id and e["entity_id"].startswith("conversation.")
    ]
    preferred = next(
        p for p in pipelines["pipelines"] if p["id"] == pipelines["preferred_pipeline"]
    )
    assert preferred["name"] == ha_assistant.ASSISTANT
    assert preferred["conversation_engine"] == agent_entity
    assert preferred["stt_engine"] is None and preferred["tts_engine"] is None
    assert again == preferred["id"] and after["preferred_pipeline"] == preferred["id"]
    assert [p["name"] for p in after["pipelines"]].count(ha_assistant.ASSISTANT) == 1


def test_demo_keeps_has_own_assistant_when_the_model_fails_its_test_turn(tmp_path, socket_enabled):
    """An endpoint nothing answers on: the "SMH" pipeline is there, but HA's own assistant stays
    the preferred one, and the instance says why (never a demo whose every answer is an error)."""
    agent = ha_assistant.AgentConfig(f"http://127.0.0.1:{free_port()}/v1", "smollm2-135m")
    loop = asyncio.new_event_loop()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(
                tmp_path / "ha", free_port(), "simple", 0, time_scale=0.0, demo=True, agent=agent
            )
        )
        try:
            [pipelines] = loop.run_until_complete(
                ha_instance.ws_calls(
                    inst.url, inst.token, [{"type": "assist_pipeline/pipeline/list"}]
                )
            )
        finally:
            inst.stop()
    finally:
        loop.close()
    assert inst.assistant_error is not None and "test turn" in inst.assistant_error
    assert "could not be reached" in inst.assistant_error
    preferred = next(
        p for p in pipelines["pipelines"] if p["id"] == pipelines["preferred_pipeline"]
    )
    assert preferred["conversation_engine"] == "conversation.home_assistant"
    assert [p["name"] for p in pipelines["pipelines"]].count(ha_assistant.ASSISTANT) == 1


def test_an_agent_needs_a_url_and_a_model():
    with pytest.raises(ValueError, match="http"):
        ha_assistant.AgentConfig("localhost:8080", "m")
    with pytest.raises(ValueError, match="model"):
        ha_assistant.AgentConfig("http://127.0.0.1:1/v1", " ")
