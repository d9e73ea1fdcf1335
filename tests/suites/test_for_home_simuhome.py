"""The simuhome suite written for a given home (``smh tasks generate --home --suite simuhome``):
SimuHome's query types on a Matter home's own devices, validated on it, the oracle passing
every task and doing nothing failing every one; query types a home's device kinds cannot
support (no appliance to wait for) listed with why; a home without Matter devices (an HA twin)
supports none, and says so; same seed, same bytes."""

from __future__ import annotations

from pathlib import Path

from smh_core.ha.twin_runnable import real_check
from smh_core.homes.simulated import generate_matter_home
from smh_core.suites.for_home import generate_simuhome
from smh_core.suites.for_home.simuhome import CLIMATE_ROWS, NO_CLIMATE, NO_MATTER, rows
from smh_core.task.home import HomeCache
from smh_core.task.model import dump_task
from tests.suites.twin_homes import ha_twin, oracle_and_nothing

APPLIANCES = ("laundry_washer", "dishwasher", "laundry_dryer")


def _bytes(tasks) -> str:
    return "".join(dump_task(t) + "\n" for t in tasks)


def test_on_a_matter_home_the_oracle_passes_and_doing_nothing_fails(tmp_path: Path) -> None:
    home = generate_matter_home(3)
    made = generate_simuhome(home, tmp_path / "a", "mine", seed=0, per_subcategory=1)
    again = generate_simuhome(home, tmp_path / "b", "mine", seed=0, per_subcategory=1)
    assert _bytes(made.tasks) == _bytes(again.tasks)
    assert {t.subcategory for t in made.tasks} == set(rows())
    dids = {d.did for d in home.devices}
    for task in made.tasks:
        assert task.home.file == "homes/mine.json"
        assert {a.did for a in task.reference.actions} <= dids
    cache = HomeCache(tmp_path / "a")
    verdicts = oracle_and_nothing(made.tasks, cache)
    assert {t: v for t, v in verdicts.items() if v != (True, False)} == {}


def test_without_appliances_the_scheduling_after_one_is_listed_with_why(tmp_path: Path) -> None:
    home = generate_matter_home(3)
    home = home.model_copy(
        update={"devices": [d for d in home.devices if d.userdata.subcategory not in APPLIANCES]}
    )
    made = generate_simuhome(home, tmp_path, "mine", per_subcategory=1)
    subs = {t.subcategory for t in made.tasks}
    assert "QT4-2-feasible" not in subs and "QT4-3-feasible" not in subs
    assert made.short["QT4-2-feasible"] and made.short["QT4-3-feasible"]
    assert {"QT1-feasible", "QT3-feasible"} <= subs


def test_an_ha_twin_has_no_matter_device_and_says_so(tmp_path: Path) -> None:
    home = ha_twin()
    made = generate_simuhome(home, tmp_path, "twin", per_subcategory=1, real=real_check(home))
    assert made.tasks == [] and made.short == dict.fromkeys(rows(), NO_MATTER)
    assert f"| QT1 | QT1-feasible | 0 | {NO_MATTER} |" in made.markdown("twin")


def test_a_matter_home_without_room_climate_writes_its_device_rows(tmp_path: Path) -> None:
    """A twin of a Matter home (``smh home from-ha --matter``) has its Matter devices but no
    room's climate (HA shows none): the rows about the climate say so, and the rows about
    devices (QT1's questions about a device the room lacks, QT3, QT4) are written on any room,
    validated as ever."""
    home = generate_matter_home(3)
    home = home.model_copy(
        update={"rooms": [r.model_copy(update={"environment": None}) for r in home.rooms]}
    )
    made = generate_simuhome(home, tmp_path, "mine", seed=0, per_subcategory=1)
    for sub in CLIMATE_ROWS:
        assert made.short[sub] == NO_CLIMATE.format(qt=sub.split("-")[0])
    assert {t.subcategory for t in made.tasks} == set(rows()) - set(CLIMATE_ROWS)
    verdicts = oracle_and_nothing(made.tasks, HomeCache(tmp_path))
    assert {t: v for t, v in verdicts.items() if v != (True, False)} == {}
