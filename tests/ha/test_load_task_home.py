"""smh.load_task runs only tasks of the entry's own home; file homes are matched by file name
(the benchmark runner keeps task home files under ``smh_homes/`` in HA's config dir)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from custom_components.smh.home_source import entry_home_key
from smh_core.ha.runner import entry_home_options, ha_home_key
from smh_core.task.model import HomeRef, iter_tasks

FIXTURES = Path(__file__).parent.parent / "fixtures"
TASKS = Path(__file__).parents[2] / "tasks"
TINY_TASK = json.loads((FIXTURES / "tasks_tiny.jsonl").read_text().splitlines()[0])


async def _entry(hass: HomeAssistant, data: dict) -> MockConfigEntry:
    entry = MockConfigEntry(domain=DOMAIN, title="home", data={"time_scale": 0.0, **data})
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def _load(hass: HomeAssistant, task: dict) -> dict:
    return await hass.services.async_call(
        DOMAIN, "load_task", {"task": task}, blocking=True, return_response=True
    )


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"source": "generated", "level": "complex", "seed": 6}, "complex:6"),
        ({"source": "matter", "seed": 7, "level": "medium"}, "matter:7"),
        ({"source": "file", "file": "smh_homes/sage-0.json", "seed": 0}, "file:sage-0.json"),
    ],
)
def test_entry_home_key(data: dict, key: str) -> None:
    assert entry_home_key(data) == key


@pytest.mark.parametrize(
    "home",
    [
        HomeRef(level="simple", seed=3),
        HomeRef(generator="matter", seed=11),
        HomeRef(file="homes/sage-2.json"),
    ],
)
def test_the_runner_configures_the_entry_for_the_key_load_task_expects(home: HomeRef) -> None:
    """What the runner submits to the options flow makes the entry host exactly that task home."""
    options = entry_home_options(home, "smh_homes")
    assert entry_home_key({"level": "medium", "seed": 0, **options}) == ha_home_key(home)


async def test_a_matter_entry_runs_its_tasks_and_refuses_others(hass: HomeAssistant) -> None:
    task = next(
        t
        for t in iter_tasks(TASKS / "simuhome.jsonl")
        if t.home.seed == 0 and t.goal.kind == "execute"
    )
    entry = await _entry(hass, {"source": "matter", "seed": 0})
    assert (await _load(hass, task.model_dump(mode="json")))["task_id"] == task.id
    other = {**task.model_dump(mode="json"), "home": {"generator": "matter", "seed": 1}}
    with pytest.raises(ServiceValidationError) as exc:
        await _load(hass, other)
    assert exc.value.translation_key == "other_home"
    assert exc.value.translation_placeholders == {"task": "matter:1", "home": "matter:0"}
    generated = {**task.model_dump(mode="json"), "home": {"level": "simple", "seed": 0}}
    with pytest.raises(ServiceValidationError, match="simple:0"):
        await _load(hass, generated)
    snapshot = await hass.services.async_call(
        DOMAIN, "snapshot", {}, blocking=True, return_response=True
    )
    assert snapshot["home_key"] == "matter:0" and entry.runtime_data.home_key == "matter:0"


async def test_file_homes_match_by_file_name(hass: HomeAssistant) -> None:
    homes = Path(hass.config.config_dir) / "smh_homes"
    homes.mkdir()
    shutil.copy(FIXTURES / "tiny_home.json", homes / "tiny_home.json")
    await _entry(hass, {"source": "file", "file": "smh_homes/tiny_home.json"})
    # the task file says homes/tiny_home.json (relative to the task file): same name, same home
    assert (await _load(hass, {**TINY_TASK, "home": {"file": "homes/tiny_home.json"}}))[
        "task_id"
    ] == "exec-1"
    with pytest.raises(ServiceValidationError) as exc:
        await _load(hass, {**TINY_TASK, "home": {"file": "homes/sage-0.json"}})
    assert exc.value.translation_placeholders == {
        "task": "file:sage-0.json",
        "home": "file:tiny_home.json",
    }
