"""Simulated homes: a HomeEnv home given a climate per room and a clock, and SimuHome-style
homes of Matter devices.

Room climates are drawn from a seeded generator (same seed, same bytes) around realistic
indoor values, with the window factor depending on the room type (a bathroom gets less daylight
than a living room). Matter homes follow SimuHome's construction: a room layout, then devices
placed where they belong (washers in the utility room, the dishwasher in the kitchen), named
"<type> <n>" per room, then random operation from all-off (presets) under the same seed.
"""

from __future__ import annotations

import random
from datetime import datetime

from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.dynamics import Environment
from smh_core.homeenv.model import Device, Home, Room
from smh_core.homeenv.rules import Simulation
from smh_core.homes.generator import INDOOR_BAND, generate_home

DEFAULT_START = datetime(2025, 6, 27, 12, 0, 0)
_WINDOW = {
    "living_room": 0.03,
    "bedroom": 0.02,
    "kitchen": 0.02,
    "study": 0.025,
    "balcony": 0.08,
    "bathroom": 0.005,
    "corridor": 0.005,
    "storage": 0.0,
    "garage": 0.002,
}


def _climates(home: Home, seed: int) -> list[Environment]:
    """One drawn climate per room, in room order (the same draws whichever rooms use them)."""
    rng = random.Random(f"climate:{seed}")
    return [
        Environment(
            temperature=round(rng.uniform(*INDOOR_BAND), 1),  # same draws as 20-30 had
            humidity=round(rng.uniform(30.0, 65.0), 1),
            pm25=round(rng.uniform(5.0, 60.0), 1),
            pm10=round(rng.uniform(10.0, 90.0), 1),
            window_factor=_WINDOW.get(r.type, 0.015),
            base_lux=0.0,
        )
        for r in home.rooms
    ]


def with_climate(home: Home, seed: int, start: datetime = DEFAULT_START) -> Home:
    """``home`` with an :class:`Environment` on every room and a simulation clock at ``start``."""
    rooms = [
        r.model_copy(update={"environment": env})
        for r, env in zip(home.rooms, _climates(home, seed), strict=True)
    ]
    return home.model_copy(update={"rooms": rooms, "simulation": Simulation(now=start)})


_REPORTED = ("temperature", "humidity", "pm25", "pm10")


def reported_climate(home: Home, room: str) -> dict[str, float]:
    """What the room's own devices say about it: per variable, the reading of the first device
    (in home order) whose sensor reports it, in the room's units (a thermometer's 22.5 °C)."""
    out: dict[str, float] = {}
    for d in home.devices:
        if d.userdata.room != room or d.dynamics is None:
            continue
        attrs = dict(d.attributes_by_locator())
        for sensor in d.dynamics.sensors:
            value = attrs[sensor.attr].value if sensor.attr in attrs else None
            if (
                sensor.variable in _REPORTED
                and isinstance(value, int | float)
                and not isinstance(value, bool)
            ):
                out.setdefault(sensor.variable, round(value / sensor.scale, 6))
    return out


def with_room_climate(home: Home, seed: int) -> Home:
    """``home`` with an :class:`Environment` on every room that has none (rooms that have one
    keep it; devices, clock and rules are untouched), so every room has a temperature,
    humidity, light level and air quality to show and to simulate. A room's climate starts
    where its own sensors say it is (a thermometer reading 22.5 °C keeps reading that once the
    room is simulated); what no device reports is drawn from the seed. Same seed, same climates."""
    if all(r.environment is not None for r in home.rooms):
        return home
    rooms = [
        r
        if r.environment is not None
        else r.model_copy(
            update={"environment": env.model_copy(update=reported_climate(home, r.id))}
        )
        for r, env in zip(home.rooms, _climates(home, seed), strict=True)
    ]
    return home.model_copy(update={"rooms": rooms})


def simulated_home(level: str, seed: int, start: datetime = DEFAULT_START) -> Home:
    """The generated HomeEnv home of ``level``/``seed`` with climates and a clock."""
    return with_climate(generate_home(level, seed), seed, start)  # type: ignore[arg-type]


# Where each Matter type may go (SimuHome places appliances where they plausibly are).
MATTER_ROOMS: dict[str, tuple[str, ...]] = {
    "air_conditioner": ("living_room", "bedroom", "study", "office", "kitchen"),
    "heat_pump": ("living_room", "bedroom", "utility_room", "office", "study"),
    "air_purifier": ("living_room", "bedroom", "study", "office", "kitchen"),
    "humidifier": ("living_room", "bedroom", "study", "office", "kitchen"),
    "dehumidifier": ("bathroom", "utility_room", "bedroom", "living_room"),
    "fan": ("living_room", "bedroom", "bathroom", "study", "office", "kitchen"),
    "dimmable_light": (
        "living_room",
        "bedroom",
        "study",
        "office",
        "kitchen",
        "bathroom",
        "utility_room",
    ),
    "on_off_light": ("living_room", "bedroom", "kitchen", "bathroom", "utility_room"),
    "window_covering": ("living_room", "bedroom", "study", "office"),
    "tv": ("living_room", "bedroom"),
    "robot_vacuum": ("living_room", "bedroom", "office"),
    "dishwasher": ("kitchen",),
    "refrigerator": ("kitchen",),
    "freezer": ("kitchen", "utility_room"),
    "laundry_washer": ("utility_room", "bathroom"),
    "laundry_dryer": ("utility_room", "bathroom"),
    "electrical_sensor": ("utility_room", "kitchen", "living_room"),
}
_SEVERAL_PER_ROOM = {"dimmable_light", "on_off_light", "fan", "window_covering", "air_conditioner"}
MATTER_ROOM_TYPES = (
    "living_room",
    "kitchen",
    "bedroom",
    "bathroom",
    "utility_room",
    "study",
    "office",
)


def generate_matter_home(
    seed: int, n_rooms: int | None = None, n_devices: int = 27, start: datetime = DEFAULT_START
) -> Home:
    """A SimuHome-style home of Matter devices (27 by default, as in the paper's timing)."""
    rng = random.Random(f"matter-home:{seed}")
    catalog = load_catalog("matter")
    count = n_rooms or rng.randint(4, len(MATTER_ROOM_TYPES))
    types = ["living_room", "kitchen", "utility_room"]
    types += rng.sample([t for t in MATTER_ROOM_TYPES if t not in types], count - len(types))
    rooms = [Room(id=t, type=t, name=t.replace("_", " ").title(), floor=1) for t in types]
    devices: list[Device] = []
    per_room: dict[tuple[str, str], int] = {}
    placeable = [t for t in sorted(catalog) if any(r in types for r in MATTER_ROOMS.get(t, ()))]
    must = [
        t
        for t in (
            "laundry_washer",
            "dishwasher",
            "air_conditioner",
            "dimmable_light",
            "air_purifier",
        )
        if t in placeable
    ]

    def free_rooms(type_name: str) -> list[str]:
        cap = 2 if type_name in _SEVERAL_PER_ROOM else 1
        return [
            r
            for r in MATTER_ROOMS[type_name]
            if r in types and per_room.get((r, type_name), 0) < cap
        ]

    wanted = list(must)
    while len(wanted) < n_devices:
        wanted.append(rng.choice(placeable))
    for type_name in wanted:
        options = free_rooms(type_name)
        if not options:
            alternatives = [t for t in placeable if free_rooms(t)]
            if not alternatives:
                break
            type_name = rng.choice(alternatives)
            options = free_rooms(type_name)
        room = rng.choice(options)
        n = per_room.get((room, type_name), 0) + 1
        per_room[(room, type_name)] = n
        label = catalog[type_name].name
        preset = rng.choice(sorted(catalog[type_name].presets)) if rng.random() < 0.4 else None
        devices.append(
            instantiate(
                type_name,
                did=str(2001 + len(devices)),
                room=room,
                name=f"{label} {n}",
                preset=preset,
                kind="matter",
            )
        )
    home = Home(name=f"matter-home-seed-{seed}", rooms=rooms, devices=devices)
    return with_climate(home, seed, start)


_APPLIANCE_SPOTS = (
    ("dishwasher", ("kitchen",)),
    ("laundry_washer", ("laundry", "bathroom", "balcony")),
    ("laundry_dryer", ("laundry", "bathroom", "balcony")),
    ("air_conditioner", ("living_room", "master_bedroom", "study")),
    ("air_purifier", ("living_room", "kids_room")),
    ("dimmable_light", ("dining_room", "study")),
    ("window_covering", ("living_room", "bedroom")),
)


def with_matter_devices(home: Home, seed: int) -> Home:
    """``home`` plus Matter appliances and climate devices where a room of the right type exists
    (dids from 9001), so HomeEnv and Matter devices share one home and one engine."""
    rng = random.Random(f"matter-extra:{seed}")
    catalog = load_catalog("matter")
    devices = list(home.devices)
    taken = {d.userdata.did for d in devices}
    next_did = 9001
    for type_name, room_types in _APPLIANCE_SPOTS:
        if type_name not in catalog:
            continue
        rooms = [r.id for r in home.rooms if r.type in room_types]
        if not rooms:
            continue
        while str(next_did) in taken:  # HomeEnv dids are random four-digit numbers: skip theirs
            next_did += 1
        devices.append(
            instantiate(
                type_name,
                did=str(next_did),
                room=rng.choice(rooms),
                name=f"{catalog[type_name].name} 1",
                kind="matter",
            )
        )
        taken.add(str(next_did))
        next_did += 1
    return home.model_copy(update={"devices": devices})
