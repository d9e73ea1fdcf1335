"""A device whose id is an HA entity id of its platform (homes imported from HA fixtures keep
them) gets exactly that entity id; other devices keep HA's name-derived ids."""

from __future__ import annotations

from pathlib import Path

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from tests.ha.conftest import setup_home_entry


async def test_entity_ids_follow_imported_device_ids(hass: HomeAssistant) -> None:
    home = Home(
        rooms=[Room(id="hall", type="hall", name="Hall")],
        devices=[
            instantiate("smart_lock", did="lock.front_door", room="hall", name="Front Door Lock"),
            instantiate(
                "light", did="switch.not_a_light", room="hall", name="Porch Lamp"
            ),  # other platform
            instantiate("light", did="1001", room="hall", name="Hall Lamp"),
        ],
    )
    config_entry = await setup_home_entry(hass, home)
    registry = er.async_get(hass)
    assert hass.states.get("lock.front_door") is not None
    entry = registry.async_get("lock.front_door")
    assert entry is not None and entry.platform == "smh"
    assert [
        e.entity_id
        for e in er.async_entries_for_config_entry(registry, config_entry.entry_id)
        if e.domain == "lock"
    ] == ["lock.front_door"]
    # the id names another platform: not taken; it and the plain device get HA's own name-derived
    # ids (HA's policy, which from 2026.10 leads with the area's name)
    for did, name in (("switch.not_a_light", "porch_lamp"), ("1001", "hall_lamp")):
        entity_id = registry.async_get_entity_id(
            "light", "smh", f"{config_entry.entry_id}_{did}_light"
        )
        assert entity_id is not None and entity_id.startswith("light.") and entity_id.endswith(name)
        assert hass.states.get(entity_id) is not None


async def test_imported_entities_keep_the_sources_device_class(
    hass: HomeAssistant, tmp_path
) -> None:
    """HA's media intents match a device class ("pause the speaker" asks for class speaker):
    a media player the source declares a speaker is one in HA, one that declares none has none."""
    from smh_core.homeenv.engine import HomeEngine
    from smh_core.importers.ha_datasets import import_ha_datasets

    source = (
        Path(__file__).parents[1]
        / "fixtures"
        / "ha_datasets"
        / "datasets"
        / "assist-mini"
        / "house-more"
    )
    await hass.async_add_executor_job(
        import_ha_datasets, source, tmp_path
    )  # it runs its own event loop
    home = HomeEngine.from_file(tmp_path / "homes" / "had-house-more.json").home
    await setup_home_entry(hass, home)
    assert (
        hass.states.get("media_player.kitchen_speaker").attributes.get("device_class") == "speaker"
    )
    assert hass.states.get("media_player.porch_speaker").attributes.get("device_class") is None
