"""Device names shown to people (HA's device registry, the Matter bridge's node labels) are
unique in every generated home, say the room, and are the same for the same home."""

from __future__ import annotations

import pytest

from sim_devices.catalog import instantiate
from smh_core.homeenv.model import Home, Room
from smh_core.homeenv.names import display_names
from smh_core.homes.generator import generate_home
from smh_core.homes.simulated import generate_matter_home, with_matter_devices


def _homes() -> list[Home]:
    homes = [generate_matter_home(seed) for seed in range(8)]
    homes += [
        generate_home(level, seed) for level in ("simple", "medium", "complex") for seed in range(6)
    ]
    homes += [with_matter_devices(generate_home("complex", seed), seed) for seed in range(4)]
    return homes


@pytest.mark.parametrize("home", _homes(), ids=lambda h: h.name)
def test_names_are_unique_and_say_the_room(home: Home) -> None:
    names = display_names(home)
    assert set(names) == {d.did for d in home.devices}
    assert len({n.lower() for n in names.values()}) == len(names)
    rooms = {r.id: r for r in home.rooms}
    for d in home.devices:
        room = rooms[d.userdata.room]
        text = names[d.did].lower()
        assert room.name.lower() in text or room.type.replace("_", " ") in text, names[d.did]
    assert display_names(home) == names


def test_matter_names_put_the_room_first_and_number_repeats() -> None:
    room = Room(id="living_room", type="living_room", name="Living Room")
    other = Room(id="kitchen", type="kitchen", name="Kitchen")
    devices = [
        instantiate("air_conditioner", did=str(i), room=r, name=n, kind="matter")
        for i, (r, n) in enumerate(
            [
                ("living_room", "Air Conditioner 1"),
                ("kitchen", "Air Conditioner 1"),
                ("living_room", "Air Conditioner 2"),
                ("living_room", "Cooler"),
                ("living_room", "Cooler"),
                ("living_room", "Living Room Cooler 2"),
            ]
        )
    ]
    names = display_names(Home(name="h", rooms=[room, other], devices=devices))
    assert names == {
        "0": "Living Room Air Conditioner 1",
        "1": "Kitchen Air Conditioner 1",
        "2": "Living Room Air Conditioner 2",
        "3": "Living Room Cooler",
        "4": "Living Room Cooler 3",  # "Living Room Cooler 2" is another device's own name
        "5": "Living Room Cooler 2",
    }


def test_a_homeenv_name_is_kept_unless_repeated() -> None:
    """Names chosen by people (HomeEnv and imported homes) stay as given when unique, so HA's
    entity ids and the wording of tasks that name them do not move; repeats get their room."""
    rooms = [
        Room(id="a", type="living_room", name="Living Room"),
        Room(id="b", type="bedroom", name="Bedroom"),
    ]
    devices = [
        instantiate("smart_lock", did="1", room="a", name="Door Lock"),
        instantiate("smart_lock", did="2", room="a", name="Lamp"),
        instantiate("smart_lock", did="3", room="b", name="Lamp"),
    ]
    assert display_names(Home(name="h", rooms=rooms, devices=devices)) == {
        "1": "Door Lock",
        "2": "Living Room Lamp",
        "3": "Bedroom Lamp",
    }


def test_names_imported_from_home_assistant_are_kept_repeats_included() -> None:
    """A device standing for an HA entity (its id is the entity id) keeps the source's name, so
    HA's ambiguity handling sees the source's repeats; another device that shares it is numbered."""
    rooms = [Room(id="g", type="garage", name="Garage")]
    devices = [
        instantiate("curtain", did="cover.garage_door_opener", room="g", name="Garage Door Opener"),
        instantiate("light", did="light.garage_door_opener", room="g", name="Garage Door Opener"),
        instantiate("light", did="7", room="g", name="Garage Door Opener"),
    ]
    assert display_names(Home(name="h", rooms=rooms, devices=devices)) == {
        "cover.garage_door_opener": "Garage Door Opener",
        "light.garage_door_opener": "Garage Door Opener",
        "7": "Garage Door Opener 2",
    }
