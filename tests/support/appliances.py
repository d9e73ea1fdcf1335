"""Every catalog appliance that runs a programme, how a user starts each of its programmes, and
how long each one lasts: shared by the catalog-wide tests on the embedded simulator and in
Home Assistant.

A type "runs a programme" when it has a countdown (an attribute counted in seconds whose name
says remaining or countdown); :func:`programme_types` finds them in the catalogs, so a new type
with a countdown and no start recipe here fails the tests instead of being skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.model import Home
from smh_core.homes.simulated import simulated_home

Call = tuple[str, dict[str, Any]]
_COUNTDOWN = re.compile(r"remaining|countdown", re.IGNORECASE)


@dataclass(frozen=True)
class Programme:
    """One programme of one type: the calls that start it from any state (stopping what runs
    first), its length, the room variables it drives while it runs, and the state it ends in."""

    label: str
    calls: tuple[Call, ...]
    seconds: int
    drives: frozenset[str] = frozenset()


def programme_types() -> dict[str, str]:
    """``type -> catalog kind`` of every type with a countdown in seconds."""
    out = {}
    for kind in ("homeenv", "matter"):
        for name, dt in load_catalog(kind).items():
            if any(
                _COUNTDOWN.search(loc.rsplit(".", 1)[-1]) and spec.unit == "second"
                for loc, spec in dt.attribute_specs().items()
            ):
                out[name] = kind
    return out


def _washer_dryer() -> list[Programme]:
    minutes = {"standard": 90, "quick": 30, "cotton": 120, "wool": 50, "synthetic": 80}
    out = []
    for mode, length in minutes.items():
        for drying in (False, True):
            calls = (
                ("turn_off", {}),
                ("turn_on", {}),
                ("set_work_mode", {"work_mode": mode}),
                ("set_drying", {"drying_enabled": drying}),
                ("start", {}),
            )
            out.append(
                Programme(
                    f"{mode}{' + drying' if drying else ''}",
                    calls,
                    60 * (length + 45 * drying),
                    frozenset({"temperature", "humidity"}) if drying else frozenset(),
                )
            )
    return out


def _steam_oven() -> list[Programme]:
    ns = "microwave_steam_oven."
    lengths = {
        "microwave": 10,
        "reheating": 600,
        "defrost": 1800,
        "steam": 3600,
        "bake": 5400,
        "steam_bake": 7200,
    }
    drives = {
        "bake": {"temperature"},
        "steam": {"humidity"},
        "steam_bake": {"temperature", "humidity"},
    }
    return [
        Programme(
            f"{mode} {seconds} s",
            (
                (ns + "turn_off", {}),
                (ns + "turn_on", {}),
                (ns + "start_cooking", {"work_mode": mode, "target_cooking_time": seconds}),
            ),
            seconds,
            frozenset(drives.get(mode, ())),
        )
        for mode, seconds in lengths.items()
    ]


def _matter(mode_call: str, minutes: dict[int, int], *, write: bool = False) -> list[Programme]:
    """A Matter appliance: power cycled (abandons any cycle), a mode chosen, Start."""
    out = []
    for mode, length in minutes.items():
        choose = (mode_call, {"value": mode}) if write else (mode_call, {"newMode": mode})
        calls = (("1.OnOff.Off", {}), ("1.OnOff.On", {}), choose, ("1.OperationalState.Start", {}))
        out.append(Programme(f"mode {mode}", calls, 60 * length))
    return out


def _robot_vacuum() -> list[Programme]:
    minutes = {0: 32, 1: 42, 2: 62, 3: 72}
    return [
        Programme(
            f"clean mode {mode}",
            (
                ("1.RvcRunMode.ChangeToMode", {"newMode": 0}),
                ("1.RvcCleanMode.ChangeToMode", {"newMode": mode}),
                ("1.RvcRunMode.ChangeToMode", {"newMode": 1}),
            ),
            60 * length,
        )
        for mode, length in minutes.items()
    ]


PROGRAMMES: dict[str, list[Programme]] = {
    "compound_washer": _washer_dryer(),
    "builtin_microwave_steam_oven": _steam_oven(),
    "laundry_washer": _matter(
        "1.LaundryWasherMode.ChangeToMode", {0: 60, 1: 45, 2: 90, 3: 60, 4: 15, 5: 90}
    ),
    "laundry_dryer": _matter(
        "1.LaundryDryerControls.SelectedDrynessLevel", {0: 30, 1: 45, 2: 60, 3: 75}, write=True
    ),
    "dishwasher": _matter("1.DishwasherMode.ChangeToMode", {0: 90, 1: 120, 2: 60, 3: 30}),
    "robot_vacuum": _robot_vacuum(),
    "room_vacuum": [Programme("return to the dock", (("start", {}), ("return_to_base", {})), 10)],
}
ROUNDS = max(len(p) for p in PROGRAMMES.values())
"""Rounds in which every appliance of a home runs one programme each (a type with fewer
programmes starts again from its first)."""


def home_with_every_appliance(level: str, seed: int = 3) -> Home:
    """The generated home of ``level`` (with climates and a clock) plus one device of every
    programme type it lacks, in its first room (free dids from 8801), validated as a home."""
    home = simulated_home(level, seed)
    have = {d.userdata.subcategory for d in home.devices}
    taken = {d.did for d in home.devices}
    free = (str(n) for n in range(8801, 10000) if str(n) not in taken)  # generated dids are random
    room = home.rooms[0].id
    extra = [
        instantiate(name, did=did, room=room, kind=kind, name=f"Added {name} {did}")
        for name, kind in sorted(programme_types().items())
        if name not in have and (did := next(free))
    ]
    return Home.model_validate(
        home.model_copy(update={"devices": [*home.devices, *extra]}).model_dump()
    )


def programme_of(subcategory: str, round_: int) -> Programme:
    programmes = PROGRAMMES[subcategory]
    return programmes[round_ % len(programmes)]
