"""Fixtures for tests that run a real Home Assistant (pytest-homeassistant-custom-component)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from smh_core.homeenv.engine import dump_home
from tests.support.fake_openai import FakeOpenAI

FIXTURES = Path(__file__).parent.parent / "fixtures"


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let HA load integrations from this repository's custom_components."""


@pytest.fixture(autouse=True)
def private_config_dir(hass: HomeAssistant, tmp_path: Path) -> Path:
    """Give each test its own HA config dir.

    The plugin's default config dir is one directory inside the installed package, shared by
    every xdist worker: two tests writing ``home.json`` there at once read each other's file.
    """
    hass.config.config_dir = str(tmp_path)
    return tmp_path


@pytest.fixture
async def conversation(hass: HomeAssistant) -> None:
    """HA's conversation integration, there in every real HA (``default_config``): SMH offers its
    LLM API once it is loaded (every user of an LLM API depends on it). It needs HA's core
    integration (``homeassistant``, which keeps what is exposed to Assist)."""
    assert await async_setup_component(hass, "homeassistant", {})
    assert await async_setup_component(hass, "conversation", {})
    await hass.async_block_till_done()  # SMH offers its API from a task run on conversation's load


@pytest.fixture
def tiny_home_file(hass: HomeAssistant) -> str:
    """Copy the tiny fixture home into the HA config dir; returns its relative name."""
    shutil.copy(FIXTURES / "tiny_home.json", Path(hass.config.config_dir) / "tiny_home.json")
    return "tiny_home.json"


@pytest.fixture
async def tiny_entry(hass: HomeAssistant, tiny_home_file: str) -> MockConfigEntry:
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="tiny",
        data={
            "source": "file",
            "file": tiny_home_file,
            "level": "medium",
            "seed": 0,
            "time_scale": 1.0,
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


@pytest.fixture
async def server(socket_enabled: None) -> AsyncIterator[FakeOpenAI]:
    """A fake OpenAI-compatible endpoint on 127.0.0.1 (the real ``openai`` client talks to it)."""
    async with FakeOpenAI() as fake:
        yield fake


async def setup_home_entry(
    hass: HomeAssistant, home: Any, *, time_scale: float = 1.0, file: str = "home.json"
) -> MockConfigEntry:
    """Write ``home`` into HA's config dir and set up an entry for it (``time_scale`` 0 stops the
    simulated clock, so tests decide when time moves)."""
    (Path(hass.config.config_dir) / file).write_text(dump_home(home))
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={
            "source": "file",
            "file": file,
            "level": "simple",
            "seed": 0,
            "time_scale": time_scale,
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def setup_agent_entry(
    hass: HomeAssistant, home_file: str, agent: dict[str, Any]
) -> MockConfigEntry:
    """An entry for ``home_file`` (simulated clock stopped) with the options' agent section set."""
    data = {"source": "file", "level": "medium", "seed": 0, "time_scale": 0.0, "file": home_file}
    entry = MockConfigEntry(
        domain=DOMAIN, title="tiny", data=data, options={**data, "agent": agent}
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry
