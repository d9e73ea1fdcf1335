"""A new user's homes, through the config flow as the UI drives it: every bundled sample home
loads, an uploaded home file becomes a home, and a second home in the same HA gets areas,
floors, device names and entity ids of its own (no ``_2`` ids), or a warning step before its
devices would join another home's areas."""

from __future__ import annotations

import json
import re
from pathlib import Path

import aiohttp
import pytest
from homeassistant import config_entries
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.setup import async_setup_component

from custom_components.smh.const import DOMAIN
from custom_components.smh.samples import SAMPLE_DIR, SAMPLES

ROOT = Path(__file__).resolve().parents[2]


async def _flow(hass: HomeAssistant, kind: str, values: dict) -> dict:
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": kind}
    )
    return await hass.config_entries.flow.async_configure(result["flow_id"], values)


def _entity_ids(hass: HomeAssistant, entry_id: str) -> set[str]:
    return {e.entity_id for e in er.async_entries_for_config_entry(er.async_get(hass), entry_id)}


@pytest.mark.parametrize("key", list(SAMPLES))
async def test_every_sample_home_sets_up(hass: HomeAssistant, key: str) -> None:
    result = await _flow(hass, "sample", {"sample": key, "time_scale": 0.0})
    assert result["type"] is FlowResultType.CREATE_ENTRY, result.get("errors")
    await hass.async_block_till_done()
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    assert entry.state is ConfigEntryState.LOADED
    assert len(entry.runtime_data.engine.device_ids()) >= 3
    assert len(_entity_ids(hass, entry.entry_id)) >= 3
    sample = SAMPLES[key]
    if sample.file is not None:  # copied into smh_homes/ under its task files' name, byte for byte
        assert entry.data["file"] == f"smh_homes/{sample.file}"
        copied = Path(hass.config.config_dir) / entry.data["file"]
        assert copied.read_bytes() == (SAMPLE_DIR / sample.file).read_bytes()
    else:
        assert (entry.data["source"], entry.data["seed"]) == (sample.source, 0)


async def test_a_sample_never_overwrites_a_users_file_of_that_name(hass: HomeAssistant) -> None:
    mine = Path(hass.config.config_dir) / "smh_homes" / "tiny.json"
    mine.parent.mkdir()
    mine.write_text('{"my": "own"}')
    result = await _flow(hass, "sample", {"sample": "tiny", "time_scale": 0.0})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"]["file"] == "smh_homes/tiny-2.json" and mine.read_text() == '{"my": "own"}'


async def _upload(hass: HomeAssistant, hass_client, name: str, body: bytes) -> str:
    client = await hass_client()
    form = aiohttp.FormData()
    form.add_field("file", body, filename=name, content_type="application/json")
    response = await client.post("/api/file_upload", data=form)
    assert response.status == 200, await response.text()
    return (await response.json())["file_id"]


async def test_an_uploaded_home_file_becomes_a_home(hass: HomeAssistant, hass_client) -> None:
    assert await async_setup_component(hass, "file_upload", {})
    body = (ROOT / "tasks" / "homes" / "tiny.json").read_bytes()
    file_id = await _upload(hass, hass_client, "my-flat.json", body)
    result = await _flow(hass, "upload", {"upload": file_id, "time_scale": 0.0})
    assert result["type"] is FlowResultType.CREATE_ENTRY, result.get("errors")
    assert result["data"]["file"] == "smh_homes/my-flat.json"
    assert (Path(hass.config.config_dir) / "smh_homes" / "my-flat.json").read_bytes() == body
    await hass.async_block_till_done()
    assert hass.config_entries.async_entries(DOMAIN)[0].state is ConfigEntryState.LOADED


async def test_an_uploaded_file_that_is_no_home_is_refused_and_not_kept(
    hass: HomeAssistant, hass_client
) -> None:
    assert await async_setup_component(hass, "file_upload", {})
    file_id = await _upload(hass, hass_client, "notes.json", json.dumps({"rooms": "none"}).encode())
    result = await _flow(hass, "upload", {"upload": file_id})
    assert result["type"] is FlowResultType.FORM and result["errors"] == {"upload": "invalid_home"}
    assert not (Path(hass.config.config_dir) / "smh_homes" / "notes.json").exists()
    assert hass.config_entries.async_entries(DOMAIN) == []


HOME = {"level": "simple", "seed": 0, "time_scale": 0.0}


async def test_a_second_home_gets_its_own_areas_devices_and_entity_ids(hass: HomeAssistant) -> None:
    first = await _flow(hass, "generated", HOME)
    await hass.async_block_till_done()
    # the second time the same form proposes a prefix, and the same home is added with it
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": config_entries.SOURCE_USER}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "generated"}
    )
    assert result["data_schema"]({})["area_prefix"] == "Home 2"
    second = await hass.config_entries.flow.async_configure(
        result["flow_id"], {**HOME, "area_prefix": "Home 2"}
    )
    assert (
        second["type"] is FlowResultType.CREATE_ENTRY
        and second["title"] == "Home 2: SMH simple home (seed 0)"
    )
    await hass.async_block_till_done()
    one, two = (_entity_ids(hass, r["result"].entry_id) for r in (first, second))
    assert len(one) == len(two) > 20
    # every id of the second home is the first home's with the prefix (once, or twice where HA
    # 2026.10+ also puts the area's name in front): none got a "_2" from HA
    assert all("home_2_" in e for e in two) and {e.replace("home_2_", "") for e in two} == one
    devices = dr.async_get(hass)
    names = [
        d.name
        for r in (first, second)
        for d in dr.async_entries_for_config_entry(devices, r["result"].entry_id)
    ]
    assert len(names) == len(set(names)), "device names repeat"
    areas = ar.async_get(hass)
    for device in dr.async_entries_for_config_entry(devices, second["result"].entry_id):
        assert areas.async_get_area(device.area_id).name.startswith("Home 2 ")
    floors = {f.name for f in fr.async_get(hass).async_list_floors()}
    assert "Floor 1" in floors and "Home 2 Floor 1" in floors


async def test_a_second_imported_home_prefixes_the_entity_ids_it_keeps(hass: HomeAssistant) -> None:
    """The home-assistant-datasets sample keeps its source's entity ids (lock.front_door); a second
    copy with a prefix asks for lock.home_2_front_door, not HA's lock.front_door_2."""
    first = await _flow(hass, "sample", {"sample": "ha_datasets", "time_scale": 0.0})
    second = await _flow(
        hass, "sample", {"sample": "ha_datasets", "time_scale": 0.0, "area_prefix": "Home 2"}
    )
    await hass.async_block_till_done()
    one, two = (_entity_ids(hass, r["result"].entry_id) for r in (first, second))
    assert "lock.front_door" in one and "lock.home_2_front_door" in two
    assert not [e for e in one | two if re.search(r"_2$", e)], sorted(one | two)


async def test_a_home_whose_areas_are_taken_is_stopped_before_it_merges(
    hass: HomeAssistant,
) -> None:
    await _flow(hass, "generated", HOME)
    await hass.async_block_till_done()
    merge = await _flow(hass, "generated", {**HOME, "area_prefix": ""})
    assert merge["type"] is FlowResultType.FORM and merge["step_id"] == "merge"
    assert "Living Room" in merge["description_placeholders"]["areas"]
    assert merge["data_schema"]({})["area_prefix"] == "Home 2"
    assert len(hass.config_entries.async_entries(DOMAIN)) == 1  # nothing was added yet
    again = await hass.config_entries.flow.async_configure(
        merge["flow_id"], {"area_prefix": "", "merge_areas": False}
    )
    assert again["step_id"] == "merge" and again["errors"] == {"base": "areas_shared"}
    done = await hass.config_entries.flow.async_configure(
        merge["flow_id"], {"area_prefix": "Beach House"}
    )
    assert (
        done["type"] is FlowResultType.CREATE_ENTRY and done["data"]["area_prefix"] == "Beach House"
    )
    await hass.async_block_till_done()
    assert ar.async_get(hass).async_get_area_by_name("Beach House Living Room") is not None


async def test_sharing_areas_when_the_user_says_so(hass: HomeAssistant) -> None:
    await _flow(hass, "generated", HOME)
    merge = await _flow(hass, "matter", {"seed": 0, "time_scale": 0.0, "area_prefix": ""})
    assert merge["step_id"] == "merge"
    done = await hass.config_entries.flow.async_configure(
        merge["flow_id"], {"area_prefix": "", "merge_areas": True}
    )
    assert done["type"] is FlowResultType.CREATE_ENTRY and done["data"]["area_prefix"] == ""


async def test_a_first_home_whose_rooms_are_the_users_areas_is_offered_its_own(
    hass: HomeAssistant,
) -> None:
    """A real home's "Living Room" already holds the user's devices: the first SMH home is stopped
    too, with "SMH" proposed ("SMH Living Room")."""
    from pytest_homeassistant_custom_component.common import MockConfigEntry

    own = MockConfigEntry(domain="demo")
    own.add_to_hass(hass)
    area = ar.async_get(hass).async_create("Living Room")
    device = dr.async_get(hass).async_get_or_create(
        config_entry_id=own.entry_id,
        identifiers={("demo", "tv")},
        name="My TV",
        suggested_area=None,
    )
    dr.async_get(hass).async_update_device(device.id, area_id=area.id)
    merge = await _flow(hass, "generated", HOME)
    assert (
        merge["step_id"] == "merge" and merge["description_placeholders"]["areas"] == "Living Room"
    )
    assert merge["data_schema"]({})["area_prefix"] == "SMH"
    done = await hass.config_entries.flow.async_configure(merge["flow_id"], {"area_prefix": "SMH"})
    assert done["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert (
        dr.async_get(hass).async_get(device.id).area_id == area.id
    )  # the user's TV stays alone there
    assert ar.async_get(hass).async_get_area_by_name("SMH Living Room") is not None
