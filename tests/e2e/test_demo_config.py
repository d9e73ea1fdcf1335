"""`make demo`'s Home Assistant: the Assist dialog has a pipeline to open, history is recorded
for the room climate graphs, and only the simulated home's rooms are areas."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from smh_core.llm.local import free_port

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

pytestmark = pytest.mark.slow


def test_demo_instance_has_assist_history_and_only_the_homes_areas(tmp_path, socket_enabled):
    loop = asyncio.new_event_loop()
    try:
        inst = loop.run_until_complete(ha_instance.launch(tmp_path / "ha", free_port(), "simple", 0,
                                                          time_scale=0.0, demo=True))
        try:
            pipelines, recorder, areas, devices = loop.run_until_complete(ha_instance.ws_calls(inst.url, inst.token, [
                {"type": "assist_pipeline/pipeline/list"}, {"type": "recorder/info"},
                {"type": "config/area_registry/list"}, {"type": "config/device_registry/list"}]))
        finally:
            inst.stop()
    finally:
        loop.close()
    assert pipelines["pipelines"] and pipelines["preferred_pipeline"]  # the Assist dialog opens
    assert recorder["recording"] is True or recorder.get("thread_running") is True
    with_devices = {d["area_id"] for d in devices if d.get("area_id")}
    names = {a["name"] for a in areas}
    # onboarding's empty "Bedroom" (the simple home has master bedroom and bathrooms) is gone
    assert {a["area_id"] for a in areas} <= with_devices, names
