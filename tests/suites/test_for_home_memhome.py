"""The memhome suite written for a given home (``smh tasks generate --home --suite memhome``):
memory decisions about that home's devices, validated on it, the oracle passing every one and
doing nothing failing every one where doing nothing is not the right decision; same seed,
same bytes."""

from __future__ import annotations

from pathlib import Path

from smh_core.ha.twin_runnable import real_check
from smh_core.homeenv.model import Home, Room
from smh_core.suites.for_home import generate_memhome
from smh_core.suites.memhome_suite import SUBCATEGORIES
from smh_core.task.home import HomeCache
from smh_core.task.model import MemoryGoal, dump_task
from tests.suites.twin_homes import ha_twin, oracle_and_nothing


def _bytes(tasks) -> str:
    return "".join(dump_task(t) + "\n" for t in tasks)


def test_on_an_ha_twin_every_decision_is_about_its_devices_and_the_oracle_passes(
    tmp_path: Path,
) -> None:
    home = ha_twin()
    real = real_check(home)
    made = generate_memhome(home, tmp_path / "a", "twin", seed=0, per_subcategory=2, real=real)
    again = generate_memhome(home, tmp_path / "b", "twin", seed=0, per_subcategory=2, real=real)
    other = generate_memhome(home, tmp_path / "c", "twin", seed=1, per_subcategory=2, real=real)
    assert _bytes(made.tasks) == _bytes(again.tasks)
    assert _bytes(made.tasks) != _bytes(other.tasks)
    assert {t.subcategory for t in made.tasks} == set(SUBCATEGORIES)
    names = [d.name for d in home.devices]
    dids = {d.did for d in home.devices}
    for task in made.tasks:
        assert task.home.file == "homes/twin.json" and task.id.startswith("twin-memhome-")
        assert {a.did for a in task.reference.actions} <= dids
        if task.subcategory in ("add", "update", "delete", "use"):
            # the preference is about a device of this home, by its name
            assert any(n in m for m in task.goal.bank_after + task.memory for n in names)
    cache = HomeCache(tmp_path / "a")
    verdicts = oracle_and_nothing(made.tasks, cache)
    for task in made.tasks:  # doing nothing passes only where storing nothing is right
        passive = isinstance(task.goal, MemoryGoal) and task.goal.passive
        assert verdicts[task.id] == (True, passive), task.id


def test_a_home_with_nothing_to_set_lists_why(tmp_path: Path) -> None:
    home = Home(rooms=[Room(id="hall", type="hall", name="Hall")], devices=[])
    made = generate_memhome(home, tmp_path, "empty", per_subcategory=1)
    # a phone number or a birthday is no device preference: those need no device
    assert {t.subcategory for t in made.tasks} <= {"no_memory"}
    for sub in ("add", "update", "delete", "use"):
        assert sub in made.short, sub
    assert "| memory | use | 0 |" in made.markdown("empty")
