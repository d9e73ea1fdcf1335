"""``smh home from-ha`` on HA's ``demo`` home, read live over the websocket API, and its twin
loaded back into SMH's integration in the same HA (under an area prefix, so the two homes'
entity ids and areas do not collide): the twin shows the same entity kinds, features, device
classes, areas, floors, aliases and Assist exposure as the entities it was made from (issue 39)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from homeassistant.components.homeassistant.exposed_entities import (
    async_expose_entity,
    async_should_expose,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import floor_registry as fr
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from smh_core.cli.main import main
from smh_core.homeenv.engine import HomeEngine
from smh_core.importers.ha_entities import FEATURE_BITS, NOT_SIMULATED_FEATURES

PREFIX = "Twin"
OTHER_KIND = (  # shown as generic entities: too few of the kind's basic calls to be one
    "cover.pergola_roof",  # tilt only: the catalog's curtain has no tilt
    "media_player.browse",  # browse/search only: no play, pause or volume to simulate
    "media_player.search",
    "vacuum.demo_vacuum_2_second_floor",  # no start (the catalog's vacuum needs it)
    "vacuum.demo_vacuum_3_third_floor",
    "vacuum.demo_vacuum_4_fourth_floor",
)
LACKING_MODES = {"light.entrance_color_white_lights": {"white"}}  # HA's white mode: not simulated
AREAS = {  # demo entity -> (area, its aliases, floor)
    "light.bed_light": ("Bedroom", {"Sleeping room"}, "Upstairs"),
    "light.ceiling_lights": ("Living Room", {"Lounge", "Front room"}, "Ground"),
    "switch.decorative_lights": ("Hall", set(), "Ground"),
    "cover.kitchen_window": ("Kitchen", set(), "Ground"),
    "fan.living_room_fan": ("Living Room", {"Lounge", "Front room"}, "Ground"),
}
ENTITY_ALIASES = {"light.bed_light": {"Reading lamp", "Bedside light"}}
HIDDEN_FROM_ASSIST = ("lock.front_door",)  # the demo's locks have no registry entry
SHOWN_TO_ASSIST = ("light.bed_light", "fan.living_room_fan")


@pytest.fixture
async def demo_url(hass: HomeAssistant, hass_client) -> str:
    """HA's demo home arranged as a user arranges theirs: floors, areas with aliases, an entity
    alias, a lock hidden from Assist; the APIs on a loopback port."""
    for domain in ("homeassistant", "api", "websocket_api", "config", "conversation", "demo"):
        assert await async_setup_component(hass, domain, {})
    await hass.async_block_till_done()
    floors, areas, entities = fr.async_get(hass), ar.async_get(hass), er.async_get(hass)
    ground = floors.async_create("Ground", level=0)
    upstairs = floors.async_create("Upstairs", level=1)
    floor_of = {"Ground": ground.floor_id, "Upstairs": upstairs.floor_id}
    for entity_id, (area_name, aliases, floor) in AREAS.items():
        area = areas.async_get_area_by_name(area_name) or areas.async_create(
            area_name, aliases=aliases, floor_id=floor_of[floor]
        )
        entities.async_update_entity(entity_id, area_id=area.id)
    for entity_id, aliases in ENTITY_ALIASES.items():
        entities.async_update_entity(entity_id, aliases=aliases)
    for entity_id in hass.states.async_entity_ids():  # a home Assist has been used in
        async_should_expose(hass, "conversation", entity_id)
    for entity_id in HIDDEN_FROM_ASSIST:
        async_expose_entity(hass, "conversation", entity_id, False)
    for entity_id in SHOWN_TO_ASSIST:
        async_expose_entity(hass, "conversation", entity_id, True)
    return str((await hass_client()).make_url("")).rstrip("/")


def _twin_entity(source: str) -> str:
    domain, object_id = source.split(".", 1)
    return f"{domain}.{PREFIX.lower()}_{object_id}"


def _mode_kinds(state) -> set[str]:
    colour = {"hs", "xy", "rgb", "rgbw", "rgbww"}
    modes = {str(m) for m in state.attributes.get("supported_color_modes") or ()}
    return {"colour" if m in colour else m for m in modes}


def _area_of(hass: HomeAssistant, entity_id: str) -> ar.AreaEntry | None:
    entry = er.async_get(hass).async_get(entity_id)
    if entry is None:  # an entity without a registry entry has no area
        return None
    area_id = entry.area_id
    if area_id is None and entry.device_id:
        device = dr.async_get(hass).async_get(entry.device_id)
        area_id = device.area_id if device else None
    return ar.async_get(hass).async_get_area(area_id) if area_id else None


async def test_the_twin_of_the_demo_home_shows_what_the_demo_shows(
    hass: HomeAssistant, demo_url: str, hass_access_token: str, tmp_path: Path, capsys
) -> None:
    out = Path(hass.config.config_dir) / "twin.json"
    rc = await hass.async_add_executor_job(
        main,
        ["home", "from-ha", "--ha-url", demo_url, "--token", hass_access_token, "--out", str(out)],
    )
    assert rc == 0
    printed = capsys.readouterr().out
    home = HomeEngine.from_file(out).home
    report = json.loads(out.with_name("twin.import.json").read_text())
    made = {d.did for d in home.devices}
    skipped = {item: why for item, why in report["skipped"]}
    # every entity of the demo is either simulated or listed with its reason, and counted
    assert set(report["imported"]) == made
    listed = set(er.async_get(hass).entities) | set(hass.states.async_entity_ids())
    assert made | set(skipped) == listed
    assert "lock.front_door" in made  # a state without a registry entry is part of the home
    assert f"{len(made)} of {len(listed)} entities simulated" in printed
    assert set(AREAS) <= made
    assert skipped["climate.hvac"] == "no catalog type acts like HA's climate entities"
    assert all(why for why in skipped.values())
    # the source's layout, names and settings, as data
    rooms = {r.name: r for r in home.rooms}
    assert rooms["Living Room"].aliases == ["Front room", "Lounge"]
    assert (rooms["Living Room"].floor, rooms["Living Room"].floor_name) == (0, "Ground")
    assert (rooms["Bedroom"].floor, rooms["Bedroom"].floor_name) == (1, "Upstairs")
    by_id = {d.did: d for d in home.devices}
    assert by_id["light.bed_light"].userdata.aliases == ["Bedside light", "Reading lamp"]
    assert by_id["lock.front_door"].userdata.exposed is False
    assert by_id["light.bed_light"].userdata.exposed is True

    # loaded into SMH's integration beside the demo
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={
            "source": "file",
            "file": out.name,
            "level": "simple",
            "seed": 0,
            "time_scale": 0.0,
            "area_prefix": PREFIX,
        },
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    entities = er.async_get(hass)
    lacking: dict[str, int] = {}
    other_kind: set[str] = set()
    lacking_modes: dict[str, set[str]] = {}
    for source in sorted(made):
        twin = _twin_entity(source)
        real, copy = hass.states.get(source), hass.states.get(twin)
        if copy is None:
            other_kind.add(source)
            continue
        assert entities.async_get(twin).platform == DOMAIN
        if not source.startswith("sensor."):  # a stand-in for its name and area (report says so)
            assert copy.attributes.get("device_class") == real.attributes.get("device_class")
            # colour as SMH keeps it (RGB hex) stands for HA's hs/xy/rgb* modes: the same lights
            # take colours, white temperatures, brightness or only on/off
            assert _mode_kinds(copy) <= _mode_kinds(real), source
            if _mode_kinds(real) - _mode_kinds(copy):
                lacking_modes[source] = _mode_kinds(real) - _mode_kinds(copy)
            # the twin does what the real entity does, or less where the catalog has no
            # counterpart (a cover's stop and tilt): never a feature the real one lacks
            twin_bits = int(copy.attributes.get("supported_features") or 0)
            real_bits = int(real.attributes.get("supported_features") or 0)
            assert twin_bits & ~real_bits == 0, (source, twin_bits, real_bits)
            lacking[source] = real_bits & ~twin_bits
        real_area, twin_area = _area_of(hass, source), _area_of(hass, twin)
        if real_area is None:
            assert twin_area is None, source
        else:
            assert twin_area is not None and twin_area.name == f"{PREFIX} {real_area.name}"
            assert twin_area.aliases == {f"{PREFIX} {a}" for a in real_area.aliases}
            real_floor = fr.async_get(hass).async_get_floor(real_area.floor_id)
            twin_floor = fr.async_get(hass).async_get_floor(twin_area.floor_id)
            assert twin_floor.name == f"{PREFIX} {real_floor.name}"
            assert twin_floor.level == real_floor.level
        registered = entities.async_get(source)
        assert entities.async_get(twin).aliases == (registered.aliases if registered else set())
        assert async_should_expose(hass, "conversation", twin) == async_should_expose(
            hass, "conversation", source
        ), source
    assert other_kind == set(OTHER_KIND), other_kind
    assert lacking_modes == LACKING_MODES, lacking_modes
    # what the twin lacks is what the catalog declares it does not simulate, and the twin's
    # report names it for each entity
    approximated = {}
    for item, how in report["approximated"]:
        if how.startswith("features not simulated: "):
            approximated[item] = set(how.removeprefix("features not simulated: ").split(", "))
    for source, bits in lacking.items():
        domain = source.split(".", 1)[0]
        names = {n for n, bit in FEATURE_BITS.get(domain, {}).items() if bits & bit}
        assert names <= NOT_SIMULATED_FEATURES.get(domain, set()), (source, names)
        assert names <= approximated.get(source, set()), (source, names)
    assert sum(1 for bits in lacking.values() if bits) >= 10  # the demo has such entities
