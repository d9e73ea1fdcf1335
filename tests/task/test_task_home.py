"""One owner of "the home a task names": building, the SMH entry's options and back, overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from custom_components.smh import const
from custom_components.smh.home_source import build_home as entry_build_home
from custom_components.smh.home_source import entry_home_key
from smh_core.homes.generator import generate_home
from smh_core.homes.simulated import generate_matter_home
from smh_core.task.home import (
    ENTRY_SOURCE,
    build_home,
    entry_options,
    override_updates,
    ref_from_entry_options,
)
from smh_core.task.model import HomeRef, Task

REFS = [
    HomeRef(level="simple", seed=3),
    HomeRef(generator="matter", seed=7),
    HomeRef(file="homes/my_flat.json"),
]


def test_entry_sources_are_the_integrations() -> None:
    assert sorted(ENTRY_SOURCE.values()) == sorted(const.SOURCES)


@pytest.mark.parametrize("ref", REFS, ids=lambda r: r.key())
def test_entry_options_round_trip_keeps_the_ha_key(ref: HomeRef) -> None:
    options = entry_options(ref, "smh_homes")
    back = ref_from_entry_options(options)
    assert back.ha_key() == ref.ha_key()
    assert entry_home_key(options) == ref.ha_key()
    if ref.file is not None:
        assert options["file"] == "smh_homes/my_flat.json"


def test_build_home_is_the_generators_and_the_entrys(tmp_path: Path) -> None:
    assert build_home(REFS[0], tmp_path) == generate_home("simple", 3)
    assert build_home(REFS[1], tmp_path) == generate_matter_home(7)
    entry_home = entry_build_home(str(tmp_path), entry_options(REFS[0], "smh_homes"))
    # the entry's home is the same home with a climate per room (HA shows room climate)
    assert [d.did for d in entry_home.devices] == [
        d.did for d in generate_home("simple", 3).devices
    ]
    assert all(r.environment is not None for r in entry_home.rooms)


def test_override_updates_name_their_field() -> None:
    task = Task.model_validate(
        {
            "id": "t1",
            "suite": "smh",
            "category": "x",
            "subcategory": "y",
            "difficulty": "simple",
            "home": {"level": "simple", "seed": 0},
            "turns": [{"text": "hi"}],
            "overrides": [
                {"did": "1", "values": {"state": "on"}},
                {"did": "2", "values": {"state": "off"}},
            ],
            "goal": {"kind": "execute", "critic": "device(1).state == on"},
            "reference": {"mode": "execute", "response": "Done.", "actions": []},
        }
    )
    assert list(override_updates(task)) == [
        ("overrides.0", "1", {"state": "on"}),
        ("overrides.1", "2", {"state": "off"}),
    ]
