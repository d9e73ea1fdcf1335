"""The mirror: areas, floors, devices, entities (rich ones, then one per remaining attribute),
two-way control, push."""

from __future__ import annotations

import json
import random

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.helpers import label_registry as lr

from custom_components.smh.compat import device_for
from custom_components.smh.const import DOMAIN
from custom_components.smh.entity_plan import mirrors, plan
from custom_components.smh.mirrors import binary_on_value
from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.model import Home, Room
from smh_core.homeenv.samples import valid_value
from tests.ha.conftest import setup_home_entry


def _entity_id(hass: HomeAssistant, entry, platform: str, did: str, locator: str) -> str:
    entity_id = er.async_get(hass).async_get_entity_id(
        platform, DOMAIN, f"{entry.entry_id}_{did}_{locator}"
    )
    assert entity_id is not None, (platform, did, locator)
    return entity_id


def _expected_state(mirror, value) -> str:
    if mirror.platform == "switch":
        on = value == mirror.switch.on_value if mirror.switch else bool(value)
        return "on" if on else "off"
    if mirror.platform == "binary_sensor":  # a yes/no in words is on for its "yes" word
        on_word = binary_on_value(mirror.attribute)
        return "on" if (value == on_word if on_word is not None else value) else "off"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


async def test_layout_is_mirrored(hass: HomeAssistant, tiny_entry) -> None:
    areas = ar.async_get(hass)
    bedroom, bathroom = (
        areas.async_get_area_by_name("Master Bedroom"),
        areas.async_get_area_by_name("Master Bathroom"),
    )
    assert bedroom and bathroom and areas.async_get_area_by_name("Kitchen")
    assert fr.async_get(hass).async_get_floor(bedroom.floor_id).name == "Floor 1"
    label = lr.async_get(hass).async_get_label_by_name("Inside Master Bedroom")
    assert label is not None and label.label_id in bathroom.labels and not bedroom.labels
    devices = dr.async_get(hass)
    fan_light = device_for(devices, (DOMAIN, f"{tiny_entry.entry_id}_1002"), tiny_entry.entry_id)
    assert fan_light.name == "Bathroom Fan Light" and fan_light.area_id == bathroom.id
    engine = tiny_entry.runtime_data.engine
    plans = [plan(engine.device(did)) for did in engine.device_ids()]
    n_entities = sum(len(riches) + len(generic) for riches, generic in plans)
    assert n_entities == 14  # 15 attributes; the lamp's light entity shows two of them
    assert (
        len(er.async_entries_for_config_entry(er.async_get(hass), tiny_entry.entry_id))
        == n_entities
    )


async def test_engine_changes_are_pushed(hass: HomeAssistant, tiny_entry) -> None:
    light = _entity_id(
        hass, tiny_entry, "light", "1001", "light"
    )  # the lamp's state and brightness
    sensor = _entity_id(
        hass, tiny_entry, "sensor", "1002", "fan.state"
    )  # turn_on only: read-only here
    assert hass.states.get(light).state == "off" and hass.states.get(sensor).state == "off"
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "1001", "locator": "turn_on"}, blocking=True
    )
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "1002", "locator": "fan.turn_on"}, blocking=True
    )
    assert hass.states.get(light).state == "on" and hass.states.get(sensor).state == "on"


async def test_entity_control_goes_through_engine_validation(
    hass: HomeAssistant, tiny_entry
) -> None:
    select = _entity_id(hass, tiny_entry, "select", "1002", "fan.speed_level")
    before = tiny_entry.runtime_data.engine.snapshot()
    with pytest.raises(ServiceValidationError) as exc:  # the fan must be on first
        await hass.services.async_call(
            "select", "select_option", {"entity_id": select, "option": "high"}, blocking=True
        )
    assert "precondition_failed" in exc.value.translation_placeholders["message"]
    assert (
        tiny_entry.runtime_data.engine.diff(before, tiny_entry.runtime_data.engine.snapshot()) == []
    )
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "1002", "locator": "fan.turn_on"}, blocking=True
    )
    await hass.services.async_call(
        "select", "select_option", {"entity_id": select, "option": "high"}, blocking=True
    )
    assert hass.states.get(select).state == "high"


def _catalog_home() -> Home:
    """One device of every catalog type, in one room."""
    devices = [
        instantiate(t, did=str(2000 + i), room="r1") for i, t in enumerate(sorted(load_catalog()))
    ]
    return Home(
        name="catalog",
        rooms=[Room(id="r1", type="living_room", name="Living Room")],
        devices=devices,
    )


CATALOG_HOME = _catalog_home()


@pytest.fixture
async def catalog_entry(hass: HomeAssistant):
    return await setup_home_entry(hass, CATALOG_HOME, file="catalog.json")


@pytest.mark.parametrize(
    "device", CATALOG_HOME.devices, ids=[d.userdata.subcategory for d in CATALOG_HOME.devices]
)
async def test_every_device_type_is_observable_and_controllable(
    hass: HomeAssistant, catalog_entry, device
) -> None:
    engine = catalog_entry.runtime_data.engine
    rng = random.Random(1)
    for mirror in mirrors(device):
        entity_id = _entity_id(hass, catalog_entry, mirror.platform, device.did, mirror.locator)
        value = engine.value(device.did, mirror.locator)
        assert hass.states.get(entity_id).state == _expected_state(mirror, value), entity_id
    # turn every switchable function on first so setters' preconditions can hold
    for mirror in mirrors(device):
        if mirror.platform == "switch" and mirror.switch is not None:
            entity_id = _entity_id(hass, catalog_entry, "switch", device.did, mirror.locator)
            await hass.services.async_call(
                "switch", "turn_on", {"entity_id": entity_id}, blocking=True
            )
            assert hass.states.get(entity_id).state == "on"
    for mirror in mirrors(device):
        if mirror.platform not in ("select", "number", "text"):
            continue
        entity_id = _entity_id(hass, catalog_entry, mirror.platform, device.did, mirror.locator)
        target = valid_value(mirror.attribute, rng)
        service, data = {
            "select": ("select_option", {"option": str(target)}),
            "number": ("set_value", {"value": target}),
            "text": ("set_value", {"value": target}),
        }[mirror.platform]
        try:
            await hass.services.async_call(
                mirror.platform, service, {"entity_id": entity_id, **data}, blocking=True
            )
        except ServiceValidationError as err:  # only the engine's preconditions may refuse
            assert "precondition_failed" in err.translation_placeholders["message"], entity_id
            continue
        assert engine.value(device.did, mirror.locator) == target, entity_id
        assert hass.states.get(entity_id).state == _expected_state(mirror, target)


async def test_a_motion_sensors_yes_no_is_an_occupancy_binary_sensor(
    hass: HomeAssistant, catalog_entry
) -> None:
    engine = catalog_entry.runtime_data.engine
    did = next(d.did for d in CATALOG_HOME.devices if d.userdata.subcategory == "human_sensor")
    entity_id = _entity_id(hass, catalog_entry, "binary_sensor", did, "human_detected")
    state = hass.states.get(entity_id)
    assert state.attributes.get("device_class") == "occupancy"
    assert engine.set_values(did, {"human_detected": "yes"}).ok
    await hass.async_block_till_done()
    assert hass.states.get(entity_id).state == "on"
    assert engine.set_values(did, {"human_detected": "no"}).ok
    await hass.async_block_till_done()
    assert hass.states.get(entity_id).state == "off"
