"""Config and options flow of the SMH integration, in a real Home Assistant."""

from __future__ import annotations

from pathlib import Path

import pytest
from homeassistant import config_entries
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.setup import async_setup_component

from custom_components.smh.compat import form_fields
from custom_components.smh.const import DOMAIN


async def _start(hass: HomeAssistant, kind: str):
    """Open the flow, check its first step is the menu of home kinds, and pick ``kind``."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    assert result["type"] is FlowResultType.MENU and result["step_id"] == "user"
    assert result["menu_options"] == ["sample", "generated", "matter", "upload", "file"]
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": kind}
    )
    assert result["type"] is FlowResultType.FORM and result["step_id"] == kind
    return result


def _fields(result) -> set[str]:
    return {str(key.schema) for key in result["data_schema"].schema}


@pytest.mark.parametrize(
    ("kind", "fields"),
    [
        ("sample", {"sample"}),
        ("generated", {"level", "seed"}),
        ("matter", {"seed"}),
        ("upload", {"upload"}),
        ("file", {"file"}),
    ],
)
async def test_each_home_kind_asks_only_for_its_own_fields(
    hass: HomeAssistant, kind: str, fields: set[str]
) -> None:
    result = await _start(hass, kind)
    assert _fields(result) == fields | {"time_scale", "area_prefix"}


async def test_generated_home_creates_entry(hass: HomeAssistant) -> None:
    result = await _start(hass, "generated")
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"level": "simple", "seed": 4, "time_scale": 1.0}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "SMH simple home (seed 4)"
    assert result["data"] == {
        "source": "generated",
        "level": "simple",
        "seed": 4,
        "time_scale": 1.0,
        "area_prefix": "",
    }
    await hass.async_block_till_done()
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    assert entry.state is ConfigEntryState.LOADED
    assert len(entry.runtime_data.engine.device_ids()) >= 1


async def test_file_home_creates_entry(hass: HomeAssistant, tiny_home_file: str) -> None:
    result = await _start(hass, "file")
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"file": tiny_home_file}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "SMH home (tiny_home.json)"


@pytest.mark.parametrize(
    ("kind", "user_input", "errors"),
    [
        ("generated", {"level": "simple", "seed": -1}, {"seed": "invalid_seed"}),
        ("file", {"file": "missing.json"}, {"file": "file_not_found"}),
        ("file", {"file": "  "}, {"file": "file_required"}),
        ("file", {"file": "../../etc/passwd"}, {"file": "file_outside_config"}),
        ("upload", {"upload": "0b7cd0a1f00d4fa5a4c3a0e1d2c3b4a5"}, {"upload": "upload_missing"}),
    ],
)
async def test_bad_input_is_reported_on_the_form(
    hass: HomeAssistant, kind, user_input, errors
) -> None:
    assert await async_setup_component(hass, "file_upload", {})
    result = await _start(hass, kind)
    result = await hass.config_entries.flow.async_configure(result["flow_id"], user_input)
    assert result["type"] is FlowResultType.FORM and result["step_id"] == kind
    assert result["errors"] == errors
    assert hass.config_entries.async_entries(DOMAIN) == []


async def test_invalid_home_file_is_reported(hass: HomeAssistant) -> None:
    (Path(hass.config.config_dir) / "broken.json").write_text('{"rooms": []}')
    result = await _start(hass, "file")
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"file": "broken.json"}
    )
    assert result["errors"] == {"file": "invalid_home"}


async def test_options_flow_reloads_with_new_home(hass: HomeAssistant, tiny_entry) -> None:
    assert tiny_entry.runtime_data.engine.device_ids() == ["1001", "1002", "1003"]
    result = await hass.config_entries.options.async_init(tiny_entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    bad = await hass.config_entries.options.async_configure(
        result["flow_id"], {"source": "generated", "level": "simple", "seed": -5}
    )
    assert bad["errors"] == {"seed": "invalid_seed"}
    done = await hass.config_entries.options.async_configure(
        bad["flow_id"],
        {"source": "generated", "level": "simple", "seed": 2, "file": "", "time_scale": 10.0},
    )
    assert done["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert tiny_entry.state is ConfigEntryState.LOADED
    assert tiny_entry.runtime_data.engine.home.name.startswith("simple")


async def test_matter_home_creates_entry(hass: HomeAssistant) -> None:
    result = await _start(hass, "matter")
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"seed": 3, "time_scale": 0.0}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == "SMH Matter home (seed 3)"
    await hass.async_block_till_done()
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.engine.home.name == "matter-home-seed-3"
    assert entry.runtime_data.home_key == "matter:3"


async def test_matter_home_with_a_bad_seed_is_reported(hass: HomeAssistant) -> None:
    result = await _start(hass, "matter")
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {"seed": -2})
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"seed": "invalid_seed"}
    assert hass.config_entries.async_entries(DOMAIN) == []


async def test_options_flow_switches_to_a_matter_home_and_back(
    hass: HomeAssistant, tiny_entry
) -> None:
    result = await hass.config_entries.options.async_init(tiny_entry.entry_id)
    bad = await hass.config_entries.options.async_configure(
        result["flow_id"], {"source": "matter", "seed": -1}
    )
    assert bad["type"] is FlowResultType.FORM and bad["errors"] == {"seed": "invalid_seed"}
    assert tiny_entry.runtime_data.home_key == "file:tiny_home.json"  # nothing changed
    done = await hass.config_entries.options.async_configure(
        bad["flow_id"], {"source": "matter", "seed": 5, "file": "", "time_scale": 0.0}
    )
    assert done["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert tiny_entry.state is ConfigEntryState.LOADED
    assert tiny_entry.runtime_data.home_key == "matter:5"
    assert tiny_entry.runtime_data.engine.home.name == "matter-home-seed-5"
    # the form offers the entry's current home, so a driver can resubmit it with one field changed
    result = await hass.config_entries.options.async_init(tiny_entry.entry_id)
    schema = result["data_schema"]({})
    assert (schema["source"], schema["seed"]) == ("matter", 5)
    back = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {"source": "file", "file": "tiny_home.json", "seed": 5, "time_scale": 0.0},
    )
    assert back["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert tiny_entry.runtime_data.home_key == "file:tiny_home.json"


async def test_options_form_shows_every_agent_default_and_number_boxes(
    hass: HomeAssistant, tiny_entry
) -> None:
    """What HA's frontend renders: the agent section's own default carries every field's value
    (it fills the fields from it: radios were unselected, the budget an empty slider), and the
    numbers are boxes, not sliders."""
    result = await hass.config_entries.options.async_init(tiny_entry.entry_id)
    fields = {f["name"]: f for f in form_fields(result["data_schema"])}
    agent = fields["agent"]
    assert agent["type"] == "expandable"
    assert {"agent_mode", "tool_budget", "model_timeout", "tools", "action_guard"} <= set(
        agent["default"]
    )
    assert all(
        agent["default"][k] not in (None, "")
        for k in ("agent_mode", "tool_budget", "model_timeout", "tools")
    )
    assert agent["default"]["model_timeout"] == 60
    inner = {f["name"]: f for f in agent["schema"]}
    assert inner["tool_budget"]["selector"]["number"]["mode"] == "box"
    assert inner["model_timeout"]["selector"]["number"]["max"] == 600
    assert fields["time_scale"]["selector"]["number"]["mode"] == "box"
    # a saved value still wins over the default, and the number comes back as an int
    done = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {
            "source": "file",
            "file": "tiny_home.json",
            "level": "simple",
            "seed": 0,
            "time_scale": 1.0,
            "agent": {**agent["default"], "tool_budget": 7.0, "model_timeout": 240.0},
        },
    )
    assert done["type"] is FlowResultType.CREATE_ENTRY
    assert tiny_entry.options["agent"]["tool_budget"] == 7 and isinstance(
        tiny_entry.options["agent"]["tool_budget"], int
    )
    # a slow local model's calls get the time the user set (issue 42)
    from custom_components.smh.agent_client import agent_settings, llm_config

    config = llm_config({**agent_settings(tiny_entry.options), "model": "m"})
    assert config is not None and config.timeout == 240.0
    again = await hass.config_entries.options.async_init(tiny_entry.entry_id)
    fields = {f["name"]: f for f in form_fields(again["data_schema"])}
    assert fields["agent"]["default"]["tool_budget"] == 7
