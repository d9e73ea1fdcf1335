"""Deterministic HomeEnv homes at the three SMH-Bench sizes.

SMH-Bench evaluates agents on simple homes (about 5.5 rooms and 5.5 devices), medium homes
(about 10.5 rooms and 35 devices) and one dense complex home (31 rooms, 135 devices, 3 floors).
Benchmarks must be reproducible, so a home is a pure function of ``(level, seed)``: all
randomness comes from one ``random.Random`` seeded from both, and every dict or set is walked
in sorted order, which makes ``dump_home(generate_home(level, seed))`` byte-identical across
runs, processes and machines.

Layout and placement are table-driven (room plans, devices per room type) so homes look like
real homes: ovens in kitchens, washers in laundries or on balconies, locks at the foyer,
bathrooms and cloakrooms nested in bedrooms, and names a user would say ("West Kitchen",
"Master Bedroom Ceiling Light").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from sim_devices.catalog import DeviceType, build_device, load_catalog
from smh_core.homeenv.model import Attribute, AttrType, Device, Home, Room

Level = Literal["simple", "medium", "complex"]


@dataclass(frozen=True)
class LevelSpec:
    """Size bounds of one level (inclusive); counts are drawn uniformly within them."""

    rooms: tuple[int, int]
    devices: tuple[int, int]
    nested: tuple[int, int]
    min_types: int = 0
    """Distinct device types the home must contain (the complex home is meant to be diverse)."""
    light_every_room: bool = False
    """Give every room a light before anything else (homes with devices to spare)."""
    min_top_level: int = 4
    """Top-level rooms the level's fixed plan needs; nesting never eats into these."""


LEVELS: dict[str, LevelSpec] = {
    "simple": LevelSpec(rooms=(4, 7), devices=(4, 7), nested=(0, 1)),
    "medium": LevelSpec(
        rooms=(9, 12), devices=(30, 40), nested=(1, 2), light_every_room=True, min_top_level=8
    ),
    "complex": LevelSpec(
        rooms=(31, 31),
        devices=(135, 135),
        nested=(5, 7),
        min_types=17,
        light_every_room=True,
        min_top_level=23,
    ),
}

_LEVEL_SALT = {"simple": 101, "medium": 211, "complex": 307}
"""Mixed into the seed so the same seed gives unrelated homes at different levels
(``hash()`` of a string varies between processes, so it cannot be used)."""

# ---------------------------------------------------------------------------------- rooms
_ROOM_NAMES = {
    "living_room": "Living Room",
    "master_bedroom": "Master Bedroom",
    "bedroom": "Bedroom",
    "kids_room": "Kids' Room",
    "guest_room": "Guest Room",
    "parents_room": "Parents' Bedroom",
    "kitchen": "Kitchen",
    "dining_room": "Dining Room",
    "bathroom": "Bathroom",
    "study": "Study",
    "balcony": "Balcony",
    "hallway": "Hallway",
    "foyer": "Foyer",
    "staircase": "Staircase",
    "laundry": "Laundry Room",
    "garage": "Garage",
    "cloakroom": "Cloakroom",
    "storage": "Storage Room",
    "entertainment_room": "Entertainment Room",
    "gym": "Gym",
}
_KIDS_NAMES = ["Kids' Room", "Boy's Room", "Girl's Room"]
_BEDROOM_QUALIFIERS = ["Secondary", "Spare", "East", "West", "North", "South"]
_DIRECTIONS = ["East", "West", "North", "South"]
_FLOOR_WORDS = {1: "First Floor", 2: "Second Floor", 3: "Third Floor"}
_BY_FLOOR = {"hallway", "staircase", "bathroom", "storage"}
"""Types whose duplicates are told apart by floor ("Second Floor Hallway")."""
_BEDROOMS = {"master_bedroom", "bedroom", "kids_room", "guest_room", "parents_room"}
_NESTED_WEIGHTS = {"bathroom": 3.0, "balcony": 2.0, "cloakroom": 2.0}
_NESTED_PREFIX = {"master_bedroom": "Master", "guest_room": "Guest", "parents_room": "Parents'"}
_MEDIUM_UPPER = {"master_bedroom", "bedroom", "kids_room", "study", "cloakroom", "balcony"}

_ZONES = {
    "master_bedroom": "sleeping_area",
    "bedroom": "sleeping_area",
    "kids_room": "sleeping_area",
    "guest_room": "sleeping_area",
    "parents_room": "sleeping_area",
    "living_room": "living_area",
    "dining_room": "living_area",
    "entertainment_room": "living_area",
    "study": "living_area",
    "gym": "living_area",
    "kitchen": "service_area",
    "storage": "service_area",
    "garage": "service_area",
    "cloakroom": "service_area",
    "bathroom": "wet_area",
    "laundry": "wet_area",
    "hallway": "circulation",
    "foyer": "circulation",
    "staircase": "circulation",
    "balcony": "outdoor",
}

# (pool of optional top-level room types with weights, cap on each type's total count)
_SIMPLE_CORE = ["living_room", "kitchen", "master_bedroom", "bathroom"]
_SIMPLE_POOL = {
    "bedroom": 3.0,
    "study": 2.0,
    "dining_room": 2.0,
    "balcony": 2.0,
    "kids_room": 2.0,
    "foyer": 1.0,
}
_MEDIUM_CORE = [
    "foyer",
    "living_room",
    "dining_room",
    "kitchen",
    "master_bedroom",
    "bedroom",
    "bathroom",
]
_MEDIUM_POOL = {
    "bedroom": 3.0,
    "kids_room": 3.0,
    "study": 3.0,
    "balcony": 2.0,
    "laundry": 2.0,
    "guest_room": 2.0,
    "bathroom": 2.0,
    "storage": 1.0,
    "entertainment_room": 1.0,
    "cloakroom": 1.0,
    "hallway": 1.0,
    "parents_room": 1.0,
}
_MEDIUM_CAPS = {"bedroom": 3, "bathroom": 2}
_COMPLEX_CORE: list[tuple[str, int]] = [
    ("foyer", 1),
    ("living_room", 1),
    ("dining_room", 1),
    ("kitchen", 1),
    ("bathroom", 1),
    ("hallway", 1),
    ("staircase", 1),
    ("garage", 1),
    ("laundry", 1),
    ("guest_room", 1),
    ("storage", 1),
    ("staircase", 2),
    ("hallway", 2),
    ("master_bedroom", 2),
    ("bedroom", 2),
    ("kids_room", 2),
    ("bathroom", 2),
    ("study", 2),
    ("staircase", 3),
    ("entertainment_room", 3),
    ("gym", 3),
    ("bedroom", 3),
    ("balcony", 3),
]
_COMPLEX_EXTRAS: list[tuple[str, int]] = [
    ("bedroom", 3),
    ("study", 3),
    ("kitchen", 3),
    ("bathroom", 3),
    ("parents_room", 1),
    ("storage", 2),
    ("hallway", 3),
    ("dining_room", 3),
    ("kids_room", 3),
]

# ---------------------------------------------------------------------------------- devices
_LIGHTS = {"light": 3.0, "color_temperature_light": 3.0, "color_light": 1.0, "light_strip": 1.0}
_BEDROOM_DEVICES = {
    **_LIGHTS,
    "fan_light": 2.0,
    "curtain": 3.0,
    "blind": 1.0,
    "ac_gateway": 2.0,
    "air_cube": 2.0,
    "floor_ac": 1.0,
    "smart_fan": 2.0,
    "climate_sensor": 2.0,
    "human_sensor": 1.0,
    "humidifier": 2.0,
    "air_purifier": 1.0,
    "universal_speaker": 1.0,
    "smart_screen": 1.0,
}
_ROOM_DEVICES: dict[str, dict[str, float]] = {
    "living_room": {
        **_LIGHTS,
        "color_light": 2.0,
        "light_strip": 2.0,
        "smart_screen": 3.0,
        "universal_speaker": 2.0,
        "floor_ac": 2.0,
        "ac_gateway": 1.0,
        "air_cube": 1.0,
        "curtain": 3.0,
        "blind": 1.0,
        "climate_sensor": 2.0,
        "human_sensor": 2.0,
        "smart_fan": 1.0,
        "robot_cleaner": 2.0,
        "vacuum_cleaner": 1.0,
        "air_purifier": 2.0,
        "humidifier": 1.0,
        "fan_light": 1.0,
    },
    "master_bedroom": {**_BEDROOM_DEVICES, "smart_lock": 1.0},
    "bedroom": dict(_BEDROOM_DEVICES),
    "kids_room": {**_BEDROOM_DEVICES, "color_light": 2.0, "air_purifier": 2.0},
    "guest_room": dict(_BEDROOM_DEVICES),
    "parents_room": {**_BEDROOM_DEVICES, "smart_lock": 1.0},
    "kitchen": {
        "light": 3.0,
        "color_temperature_light": 2.0,
        "light_strip": 1.0,
        "builtin_microwave_steam_oven": 3.0,
        "electric_water_heater": 2.0,
        "climate_sensor": 2.0,
        "human_sensor": 2.0,
        "smart_fan": 1.0,
        "universal_speaker": 1.0,
        "smart_screen": 1.0,
        "fan_light": 1.0,
        "blind": 1.0,
    },
    "dining_room": {
        **_LIGHTS,
        "color_light": 2.0,
        "fan_light": 2.0,
        "floor_ac": 1.0,
        "curtain": 1.0,
        "universal_speaker": 1.0,
        "climate_sensor": 1.0,
        "human_sensor": 1.0,
    },
    "bathroom": {
        "light": 2.0,
        "color_temperature_light": 2.0,
        "fan_light": 2.0,
        "electric_water_heater": 3.0,
        "human_sensor": 2.0,
        "climate_sensor": 1.0,
        "dehumidifier": 1.0,
        "universal_speaker": 0.5,
    },
    "study": {
        **_LIGHTS,
        "color_temperature_light": 3.0,
        "ac_gateway": 1.0,
        "floor_ac": 1.0,
        "smart_fan": 1.0,
        "curtain": 2.0,
        "blind": 2.0,
        "climate_sensor": 1.0,
        "air_purifier": 1.0,
        "universal_speaker": 1.0,
        "smart_screen": 1.0,
    },
    "balcony": {
        "light": 2.0,
        "light_strip": 1.0,
        "compound_washer": 2.0,
        "curtain": 1.0,
        "blind": 1.0,
        "climate_sensor": 1.0,
        "human_sensor": 1.0,
    },
    "hallway": {
        "light": 2.0,
        "color_temperature_light": 1.0,
        "light_strip": 1.0,
        "human_sensor": 3.0,
        "climate_sensor": 1.0,
        "robot_cleaner": 0.5,
    },
    "foyer": {"light": 2.0, "color_temperature_light": 1.0, "smart_lock": 4.0, "human_sensor": 2.0},
    "staircase": {"light": 2.0, "light_strip": 2.0, "human_sensor": 2.0},
    "laundry": {
        "light": 2.0,
        "compound_washer": 4.0,
        "dehumidifier": 2.0,
        "electric_water_heater": 1.0,
        "human_sensor": 1.0,
    },
    "garage": {
        "light": 2.0,
        "smart_lock": 2.0,
        "human_sensor": 2.0,
        "vacuum_cleaner": 1.0,
        "climate_sensor": 1.0,
    },
    "cloakroom": {"light": 2.0, "light_strip": 2.0, "dehumidifier": 1.0, "human_sensor": 1.0},
    "storage": {"light": 2.0, "human_sensor": 1.0, "dehumidifier": 1.0, "vacuum_cleaner": 1.0},
    "entertainment_room": {
        **_LIGHTS,
        "color_light": 3.0,
        "light_strip": 3.0,
        "smart_screen": 3.0,
        "universal_speaker": 3.0,
        "air_cube": 2.0,
        "floor_ac": 1.0,
        "blind": 1.0,
        "curtain": 2.0,
        "human_sensor": 1.0,
        "smart_fan": 1.0,
    },
    "gym": {
        "light": 2.0,
        "color_temperature_light": 1.0,
        "smart_fan": 3.0,
        "floor_ac": 1.0,
        "universal_speaker": 2.0,
        "smart_screen": 1.0,
        "air_purifier": 1.0,
        "climate_sensor": 1.0,
    },
}
_ESSENTIALS = {"foyer": "smart_lock", "laundry": "compound_washer"}
"""Devices a room of this type gets first in homes that light every room."""
_HOME_CAPS = {
    "compound_washer": 2,
    "builtin_microwave_steam_oven": 2,
    "robot_cleaner": 2,
    "vacuum_cleaner": 2,
    "electric_water_heater": 3,
}
"""Appliances a household owns only a couple of, however many rooms could take one."""
_ROOM_PULL = {
    "living_room": 3.0,
    "master_bedroom": 2.5,
    "bedroom": 2.0,
    "kids_room": 2.0,
    "guest_room": 1.5,
    "parents_room": 2.0,
    "kitchen": 2.5,
    "dining_room": 1.5,
    "bathroom": 1.5,
    "study": 1.5,
    "balcony": 1.0,
    "hallway": 0.8,
    "foyer": 1.0,
    "staircase": 0.6,
    "laundry": 1.0,
    "garage": 0.8,
    "cloakroom": 0.6,
    "storage": 0.5,
    "entertainment_room": 2.0,
    "gym": 1.2,
}
"""How strongly a room type attracts devices (living rooms hold more than storage rooms)."""

_EXTRA_LABELS = {
    "light": ["Wall Lamp", "Floor Lamp"],
    "color_temperature_light": ["Spotlight"],
    "color_light": ["Ambient Light"],
    "light_strip": ["Cove Light Strip"],
    "curtain": ["Sheer Curtain"],
}
"""Further names for a type after the catalog's default, so one room can hold several of it;
the number of labels caps how many of a type a room gets."""
_ALIAS_NOUNS = {
    "climate_sensor": ["sensor", "temperature-humidity sensor", "thermometer"],
    "human_sensor": ["motion sensor", "presence sensor", "sensor"],
}
_MEASUREMENTS = {
    "current_temperature",
    "current_humidity",
    "current_water_temperature",
    "battery_level",
    "illuminance",
    "pm25",
    "filter_life",
    "water_level",
}
"""Sensor readings that vary freely between homes (independent of the device's mode)."""
_PERTURB_P = 0.4
INDOOR_BAND = (18.0, 26.0)
"""Where a generated home's rooms start (°C): what people keep a home at. A preset's story (an
AC "cooling" a 30 °C room) or a nudge could put a room at 12 or 31 °C, which reads as a bug in
HA's climate card; a task that needs a hot or cold room sets the room itself."""
_INDOOR = frozenset({"current_temperature"})
"""Readings of the room's air (a thermometer's, an AC's return air); not water or an oven."""


def _indoor(value: float, spec: Attribute, key: str) -> float:
    """``value`` if a room could be at it, else a reading drawn inside :data:`INDOOR_BAND` on
    the attribute's grid from a generator of its own, keyed by ``key`` (the room, device type and
    value), so the home's other draws, and with them every device id and name, stay the same."""
    lo, hi = INDOOR_BAND
    if lo <= value <= hi:
        return value
    step = spec.precision or 0.1
    draw = random.Random(f"indoor:{key}:{value}").randint(0, int(round((hi - lo) / step)))
    return round(lo + draw * step, 6)


@dataclass
class _RoomPlan:
    type: str
    floor: int
    parent: int | None = None  # index into the plan list
    name: str = ""
    children: list[int] = field(default_factory=list)


# ---------------------------------------------------------------------------------- public
def generate_home(level: Level, seed: int) -> Home:
    """The home of ``level`` for ``seed``; the same arguments always give the same home."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {sorted(LEVELS)}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    spec = LEVELS[level]
    rng = random.Random(seed * 1000 + _LEVEL_SALT[level])
    catalog = load_catalog()
    rooms = _make_rooms(level, spec, rng)
    devices = _make_devices(spec, rooms, catalog, rng)
    return Home(name=f"{level}-home-seed-{seed}", rooms=rooms, devices=devices)


# ---------------------------------------------------------------------------------- room layout
def _weighted(rng: random.Random, items: list[tuple[Any, float]]) -> Any:
    """One item drawn with probability proportional to its weight (items in a fixed order)."""
    total = sum(w for _, w in items)
    r = rng.random() * total
    for item, w in items:
        r -= w
        if r < 0:
            return item
    return items[-1][0]


def _fill(
    rng: random.Random, have: list[str], pool: dict[str, float], caps: dict[str, int], n: int
) -> list[str]:
    """``n`` more room types from ``pool``, respecting per-type caps on the total count."""
    out: list[str] = []
    for _ in range(n):
        counts = {t: have.count(t) + out.count(t) for t in pool}
        items = [(t, w) for t, w in sorted(pool.items()) if counts[t] < caps.get(t, 1)]
        if not items:
            raise RuntimeError("room pool exhausted; widen the pool or its caps")
        out.append(_weighted(rng, items))
    return out


def _top_level(level: str, n_top: int, rng: random.Random) -> list[_RoomPlan]:
    if level == "simple":
        types = _SIMPLE_CORE + _fill(rng, _SIMPLE_CORE, _SIMPLE_POOL, {}, n_top - len(_SIMPLE_CORE))
        return [_RoomPlan(t, 1) for t in types]
    if level == "medium":
        two_floors = rng.random() < 0.4
        core = _MEDIUM_CORE + (["staircase"] if two_floors else [])
        types = core + _fill(rng, core, _MEDIUM_POOL, _MEDIUM_CAPS, n_top - len(core))
        plans = []
        bathrooms = 0
        for t in types:
            floor = 1
            if two_floors and t in _MEDIUM_UPPER:
                floor = 2
            elif two_floors and t == "bathroom":
                floor = 1 + bathrooms % 2
                bathrooms += 1
            plans.append(_RoomPlan(t, floor))
        return plans
    extras = rng.sample(_COMPLEX_EXTRAS, n_top - len(_COMPLEX_CORE))
    return [_RoomPlan(t, f) for t, f in _COMPLEX_CORE + extras]


def _nest(plans: list[_RoomPlan], n_nested: int, rng: random.Random) -> None:
    """Add ``n_nested`` rooms inside bedrooms; a master bedroom gets its bathroom first."""
    pairs: list[tuple[tuple[int, str], float]] = []
    for i, p in enumerate(plans):
        if p.type in _BEDROOMS:
            boost = 2.0 if p.type == "master_bedroom" else 1.0
            pairs += [((i, child), w * boost) for child, w in sorted(_NESTED_WEIGHTS.items())]
    chosen: list[tuple[int, str]] = []
    master = next((i for i, p in enumerate(plans) if p.type == "master_bedroom"), None)
    if n_nested and master is not None:
        chosen.append((master, "bathroom"))
    while len(chosen) < n_nested:
        items = [(pair, w) for pair, w in pairs if pair not in chosen]
        if not items:
            raise RuntimeError("not enough bedrooms to nest rooms in")
        chosen.append(_weighted(rng, items))
    for parent, child in chosen:
        plans.append(_RoomPlan(child, plans[parent].floor, parent=parent))
        plans[parent].children.append(len(plans) - 1)


def _name_rooms(plans: list[_RoomPlan], rng: random.Random) -> None:
    """User-facing names, unique in the home: qualifiers tell duplicates apart."""
    by_type: dict[str, list[_RoomPlan]] = {}
    for p in plans:
        if p.parent is None:
            by_type.setdefault(p.type, []).append(p)
    for t in sorted(by_type):
        group = by_type[t]
        base = _ROOM_NAMES[t]
        if t == "kids_room":
            for p, name in zip(
                group, rng.sample(_KIDS_NAMES, min(len(group), len(_KIDS_NAMES))), strict=False
            ):
                p.name = name
            for k, p in enumerate(group[len(_KIDS_NAMES) :], start=2):
                p.name = f"Kids' Room {k}"
        elif t == "bedroom":
            for p, q in zip(group, rng.sample(_BEDROOM_QUALIFIERS, len(group)), strict=True):
                p.name = f"{q} {base}"
        elif len(group) == 1:
            group[0].name = base
        elif t in _BY_FLOOR and len({p.floor for p in group}) == len(group):
            for p in group:
                p.name = f"{_FLOOR_WORDS.get(p.floor, f'Floor {p.floor}')} {base}"
        else:
            for p, q in zip(group, rng.sample(_DIRECTIONS, len(group)), strict=True):
                p.name = f"{q} {base}"
    for p in plans:
        if p.parent is not None:
            parent = plans[p.parent]
            prefix = _NESTED_PREFIX.get(parent.type, parent.name)
            p.name = f"{prefix} {_ROOM_NAMES[p.type]}"
    seen: set[str] = set()
    for p in plans:  # safety net; the scheme above already yields unique names
        name, k = p.name, 2
        while name in seen:
            name, k = f"{p.name} {k}", k + 1
        p.name = name
        seen.add(name)


def _make_rooms(level: str, spec: LevelSpec, rng: random.Random) -> list[Room]:
    n = rng.randint(*spec.rooms)
    n_nested = min(rng.randint(*spec.nested), n - spec.min_top_level)
    plans = _top_level(level, n - n_nested, rng)
    _nest(plans, n_nested, rng)
    _name_rooms(plans, rng)
    # ids in reading order: by floor, each room followed by the rooms nested in it
    order: list[int] = []
    for i in sorted(
        (i for i, p in enumerate(plans) if p.parent is None), key=lambda i: (plans[i].floor, i)
    ):
        order.append(i)
        order += plans[i].children
    width = max(2, len(str(len(order))))
    ids = {i: f"r{k + 1:0{width}d}" for k, i in enumerate(order)}
    return [
        Room(
            id=ids[i],
            type=plans[i].type,
            name=plans[i].name,
            floor=plans[i].floor,
            parent=ids[plans[i].parent] if plans[i].parent is not None else None,
        )
        for i in order
    ]


# ---------------------------------------------------------------------------------- devices
def _labels(dt: DeviceType) -> list[str]:
    return [dt.name, *_EXTRA_LABELS.get(dt.type, [])]


def _slots(rooms: list[Room], catalog: dict[str, DeviceType]) -> dict[tuple[int, str], int]:
    """Remaining capacity per (room index, device type)."""
    return {
        (i, t): len(_labels(catalog[t]))
        for i, r in enumerate(rooms)
        for t in sorted(_ROOM_DEVICES.get(r.type, {}))
        if t in catalog
    }


def _place(
    spec: LevelSpec, rooms: list[Room], catalog: dict[str, DeviceType], rng: random.Random, n: int
) -> list[tuple[int, str]]:
    """Choose ``n`` (room index, type) placements: type coverage, a light per room, then fill."""
    cap = _slots(rooms, catalog)
    per_room = [0] * len(rooms)
    placed: list[tuple[int, str]] = []

    def put(key: tuple[int, str]) -> None:
        cap[key] -= 1
        per_room[key[0]] += 1
        placed.append(key)
        limit = _HOME_CAPS.get(key[1])
        if limit is not None and sum(1 for _, t in placed if t == key[1]) >= limit:
            for other in cap:
                if other[1] == key[1]:
                    cap[other] = 0

    def weight(key: tuple[int, str]) -> float:
        i, t = key
        room_type = rooms[i].type
        return _ROOM_PULL.get(room_type, 1.0) * _ROOM_DEVICES[room_type][t] / (1 + per_room[i])

    if spec.min_types:
        available = sorted({t for (_, t) in cap})
        rng.shuffle(available)
        k = rng.randint(min(spec.min_types + 2, len(available)), len(available))
        for t in available[:k]:
            if len(placed) < n:
                put(
                    _weighted(
                        rng, [(key, weight(key)) for key in sorted(cap) if key[1] == t and cap[key]]
                    )
                )
    if spec.light_every_room:
        for i, room in enumerate(rooms):
            essential = (i, _ESSENTIALS.get(room.type, ""))
            if cap.get(essential, 0) > 0 and len(placed) < n:
                put(essential)
        for i in range(len(rooms)):
            lit = any(key[0] == i and key[1] in _LIGHTS for key in placed)
            options = [((i, t), w) for t, w in sorted(_LIGHTS.items()) if cap.get((i, t), 0) > 0]
            if not lit and options and len(placed) < n:
                put(_weighted(rng, options))
    while len(placed) < n:
        items = [(key, weight(key)) for key in sorted(cap) if cap[key] > 0]
        if not items:
            raise RuntimeError(f"rooms cannot hold {n} devices")
        put(_weighted(rng, items))
    return placed


def _grid_value(spec: Attribute, rng: random.Random) -> int | float:
    """A random setting on a round grid (brightness 35, not 37; 4300 K, not 4371 K)."""
    lo, hi = spec.range if spec.range is not None else (0, 100)
    span = hi - lo
    if spec.precision is not None:
        step = spec.precision
    elif spec.type == AttrType.INT:
        step = 100 if span >= 1000 else 5 if span >= 50 else 1
    else:
        step = 0.5
    v = lo + rng.randint(0, int(span // step)) * step
    return int(round(v)) if spec.type == AttrType.INT else round(float(v), 6)


def _nudge(spec: Attribute, value: Any, rng: random.Random) -> int | float:
    """A reading near ``value`` (within about 15% of the range), on the precision grid."""
    lo, hi = spec.range if spec.range is not None else (value - 10, value + 10)
    step = spec.precision or (1 if spec.type == AttrType.INT else 0.1)
    max_steps = max(1, int((hi - lo) * 0.15 / step))
    v = value + rng.randint(-max_steps, max_steps) * step
    v = lo + round((min(max(v, lo), hi) - lo) / step) * step
    if v > hi:
        v -= step
    return int(round(v)) if spec.type == AttrType.INT else round(float(v), 6)


def _variable_locators(dt: DeviceType) -> tuple[set[str], set[str]]:
    """(settings, linked): attributes a service sets from a same-named argument, and those whose
    argument also feeds another attribute (a preset's value for them must be kept)."""
    settings: set[str] = set()
    linked: set[str] = set()
    for _, (ns, svc) in sorted(dt.service_specs().items()):
        for e in svc.effects:
            if e.arg is None:
                continue
            target = e.set[1:] if e.set.startswith("/") else (f"{ns}.{e.set}" if ns else e.set)
            own = f"{ns}.{e.arg}" if ns else e.arg
            if target == own:
                settings.add(target)
            else:
                linked.add(own)
    return settings, linked


def _initial_values(
    dt: DeviceType, preset: str, room_name: str, rng: random.Random
) -> dict[str, Any]:
    """Overrides of the preset's values: the alias, and some settings and readings varied so
    homes differ (settings a preset ties to others, like a running program's time, are kept)."""
    base = dt.presets[preset]
    values: dict[str, Any] = {}
    specs = dt.attribute_specs()
    settings, linked = _variable_locators(dt)
    for loc in sorted(specs):
        a = specs[loc]
        if a.name == "alias":
            nouns = _ALIAS_NOUNS.get(dt.type, [dt.name.lower()])
            slug = room_name.lower().replace("'", "").replace(" ", "-")
            alias = f"{slug} {rng.choice(nouns)}"
            values[loc] = (
                alias if a.range is None or len(alias) <= a.range[1] else rng.choice(nouns)
            )
            continue
        measured = a.name in _MEASUREMENTS and a.type in (AttrType.INT, AttrType.FLOAT)
        if loc not in settings and not measured:
            continue
        if loc in linked and loc in base:
            continue
        if rng.random() >= _PERTURB_P:
            continue
        current = base.get(loc, a.value)
        if measured:
            values[loc] = _nudge(a, current, rng)
        elif a.options:
            values[loc] = rng.choice(a.options)
        elif a.type == AttrType.BOOL:
            values[loc] = rng.random() < 0.5
        elif a.type in (AttrType.INT, AttrType.FLOAT):
            values[loc] = _grid_value(a, rng)
        elif a.type == AttrType.HEX:
            values[loc] = f"#{rng.randrange(0x1000000):06X}"
    for loc in sorted(specs):
        a = specs[loc]
        if a.name in _INDOOR and a.type == AttrType.FLOAT:
            reading = values.get(loc, base.get(loc, a.value))
            if isinstance(reading, int | float) and not isinstance(reading, bool):
                indoor = _indoor(float(reading), a, f"{room_name}:{dt.type}:{preset}")
                if indoor != reading:
                    values[loc] = indoor
    return values


def _make_devices(
    spec: LevelSpec, rooms: list[Room], catalog: dict[str, DeviceType], rng: random.Random
) -> list[Device]:
    n = rng.randint(*spec.devices)
    placed = _place(spec, rooms, catalog, rng, n)
    placed.sort(key=lambda key: key[0])  # stable: group by room, keep placement order inside
    dids = rng.sample(range(1000, 10000), len(placed))
    used: dict[tuple[int, str], int] = {}
    names: set[str] = set()
    devices = []
    for (i, t), did in zip(placed, dids, strict=True):
        room, dt = rooms[i], catalog[t]
        k = used.get((i, t), 0)
        used[(i, t)] = k + 1
        name = f"{room.name} {_labels(dt)[k]}"
        if name in names:  # a room name that ends like another's plus a label; keep names unique
            name = f"{name} ({did})"
        names.add(name)
        preset = rng.choice(sorted(dt.presets))
        values = _initial_values(dt, preset, room.name, rng)
        tags = [room.type, _ZONES.get(room.type, "other_area")]
        devices.append(
            build_device(
                dt, did=str(did), room=room.id, name=name, preset=preset, values=values, tags=tags
            )
        )
    if spec.min_types and len({d.userdata.subcategory for d in devices}) < spec.min_types:
        raise RuntimeError(f"home has fewer than {spec.min_types} device types")
    return devices
