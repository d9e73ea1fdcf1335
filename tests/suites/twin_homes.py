"""Homes the tasks-for-a-home tests write suites for: a real twin of a small HA home, made by
``smh home from-ha``'s own code (:func:`smh_core.ha.twin.twin_from`) from registries and
states, so its devices have HA's shape (a lock with a state and no alarm, a media player with
HA's states); and a hand-made twin-like home of catalog devices (a lock with an alarm)."""

from __future__ import annotations

from collections.abc import Sequence

from sim_devices.catalog import instantiate
from smh_core.bench.agents import NullAgent, OracleAgent
from smh_core.bench.runner import run_task
from smh_core.ha.twin import Registries, twin_from
from smh_core.homeenv.model import Home, Room
from smh_core.safety_suites.safety_measure import run_loop
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

_AREAS = [
    {"area_id": "living", "name": "Living Room", "floor_id": None, "aliases": ["Lounge"]},
    {"area_id": "bedroom", "name": "Bedroom", "floor_id": None, "aliases": []},
    {"area_id": "kitchen", "name": "Kitchen", "floor_id": None, "aliases": []},
]
_LIGHT = {"supported_color_modes": ["brightness"], "color_mode": "brightness", "brightness": 200}
_ENTITIES = [
    ("light.living_lamp", "living", "on", {"friendly_name": "Living Room Lamp", **_LIGHT}),
    ("light.bedroom_lamp", "bedroom", "off", {"friendly_name": "Bedroom Lamp",
                                              "supported_color_modes": ["brightness"]}),
    ("light.kitchen_ceiling", "kitchen", "on", {"friendly_name": "Kitchen Ceiling", **_LIGHT}),
    ("lock.front_door", "living", "locked", {"friendly_name": "Front Door", "supported_features": 1}),
    ("lock.back_door", "kitchen", "locked", {"friendly_name": "Back Door"}),
    ("fan.bedroom_fan", "bedroom", "off", {"friendly_name": "Bedroom Fan", "supported_features": 1,
                                           "percentage": 0}),
    ("cover.living_blind", "living", "open", {"friendly_name": "Living Room Blind",
                                              "supported_features": 3, "device_class": "blind"}),
    ("media_player.kitchen_speaker", "kitchen", "playing", {
        "friendly_name": "Kitchen Speaker", "volume_level": 0.3, "is_volume_muted": False,
        "media_title": "Morning news", "supported_features": 21389}),
    ("switch.kettle", None, "off", {"friendly_name": "Kettle Plug"}),
]  # fmt: skip


def ha_twin(states: dict[str, str] | None = None) -> Home:
    """The twin of "Maple Street": three rooms, lamps in each, two locks without an alarm, a
    fan, a blind, a speaker and a plug in no room; ``states``: entity id -> another HA state
    than its own."""
    shown = states or {}
    regs = Registries(
        floors=[],
        areas=_AREAS,
        devices=[],
        entities=[{"entity_id": e, "area_id": a} for e, a, _, _ in _ENTITIES],
        states=[
            {"entity_id": e, "state": shown.get(e, s), "attributes": at}
            for e, _, s, at in _ENTITIES
        ],
        exposed={e: True for e, _, _, _ in _ENTITIES},
        name="Maple Street",
    )
    return twin_from(regs).home


def catalog_twin() -> Home:
    """A small real-looking home of catalog devices: two lamps and a lock (with an alarm) in
    rooms, a plug in no room."""
    rooms = [
        Room(id="living_room", type="living_room", name="Living Room", aliases=["Lounge"]),
        Room(id="bedroom", type="bedroom", name="Bedroom", floor=2, floor_name="Upstairs"),
    ]
    devices = [
        instantiate("light", did="light.sofa_lamp", room="living_room", name="Sofa Lamp"),
        instantiate("light", did="light.bedside", room="bedroom", name="Bedside Lamp"),
        instantiate("smart_lock", did="lock.front_door", room="living_room", name="Front Door"),
        instantiate("smart_plug", did="switch.kettle", room=None, name="Kettle Plug"),
    ]
    return Home(name="twin of Maple Street", rooms=rooms, devices=devices)


def oracle_and_nothing(
    tasks: Sequence[Task], cache: HomeCache, nothing: Sequence[Task] | None = None
) -> dict[str, tuple[bool, bool | None]]:
    """Per task id: whether the oracle passed it and whether doing nothing did (``None`` for a
    task outside ``nothing``; all of ``tasks`` by default), on a private loop as validate() uses."""
    idle = {t.id for t in (tasks if nothing is None else nothing)}

    async def runs() -> dict[str, tuple[bool, bool | None]]:
        out: dict[str, tuple[bool, bool | None]] = {}
        for task in tasks:
            oracle = (await run_task(task, OracleAgent(), cache))["passed"]
            null = (await run_task(task, NullAgent(), cache))["passed"] if task.id in idle else None
            out[task.id] = (oracle, null)
        return out

    return run_loop(runs())
