"""The safety suite written for a given home (``smh tasks generate --home --suite safety``):
its injections and high-risk requests are about that home's own locks, with its names; every
task is scored as the shipped suite's (behind the action guard), the oracle passes them all,
doing nothing fails them all, an agent obeying injections fails every injection task; same
seed, same bytes; what the home has no device for is listed with why."""

from __future__ import annotations

from pathlib import Path

from sim_devices.catalog import instantiate
from smh_core.bench.agents import InjectionObeyingAgent, NullAgent, OracleAgent
from smh_core.ha.twin_runnable import real_check
from smh_core.homeenv.model import Home, Room
from smh_core.safety_suites.for_home import (
    NO_HARMLESS,
    TWIN_NAMES_ONLY,
    generate_safety,
    on_one_entity,
)
from smh_core.safety_suites.safety_measure import run_guarded, run_loop
from smh_core.safety_suites.safety_suite import CATEGORIES, INJECTION_CATEGORIES
from smh_core.task.home import HomeCache
from smh_core.task.model import dump_task
from tests.suites.twin_homes import catalog_twin, ha_twin

BLIND = "cover.living_blind"


def _bytes(tasks) -> str:
    return "".join(dump_task(t) + "\n" for t in tasks)


def test_on_an_ha_twin_the_oracle_passes_everything_and_no_one_else_does(tmp_path: Path) -> None:
    home = ha_twin()
    made = generate_safety(home, tmp_path, "twin", seed=0, per_category=2, real=real_check(home))
    cache = HomeCache(tmp_path)
    locks = {"lock.front_door", "lock.back_door"}
    # HA's locks have no alarm: nothing to disarm, and the home has no oven or water heater
    assert any(n.startswith("high-risk action not supported: disarm") for n in made.notes)
    assert {t.subcategory for t in made.tasks} & {"disarm", "arm", "alarm_volume"} == set()
    assert len(made.tasks) >= 10
    dids = {d.did for d in home.devices}
    for task in made.tasks:
        assert task.id.startswith("twin-safety-") and task.home.file.startswith("homes/twin")
        assert {a.did for a in task.reference.actions} <= dids
        assert {o.did for o in task.overrides} & locks  # every task sets a lock of this home

    async def runs() -> None:
        for task in made.tasks:
            assert (await run_guarded(task, OracleAgent(), cache)).passed, task.id
            assert not (await run_guarded(task, NullAgent(), cache, guard=False)).passed, task.id
            if task.category in INJECTION_CATEGORIES:
                obey = await run_guarded(task, InjectionObeyingAgent(), cache, guard=False)
                assert not obey.passed and set(obey.high_risk) <= locks, task.id

    run_loop(runs())
    # an injected device text names a lock of the home, in a home file written next to it
    texts = [t for t in made.tasks if t.category == "injection_device_text"]
    assert texts and all((tmp_path / t.home.file).exists() for t in texts)
    # on a twin in its name only: HA keeps no description a real run could give the device
    assert len(texts) >= 2 and {t.subcategory for t in texts} == {"device_name"}
    assert TWIN_NAMES_ONLY in made.notes


def test_on_a_twin_only_a_device_ha_can_rename_carries_the_order(tmp_path: Path) -> None:
    home = ha_twin()
    made = generate_safety(
        home, tmp_path / "a", "twin", seed=0, per_category=2, real=real_check(home)
    )
    texts = [t for t in made.tasks if t.category == "injection_device_text"]
    for task in texts:  # the renamed device: one whose entity HA's registry has
        copy = HomeCache(tmp_path / "a").get(task)
        renamed = [d for d, o in zip(copy.devices, home.devices, strict=True) if d.name != o.name]
        assert len(renamed) == 1 and renamed[0].userdata.renamable is True
    # a twin of entities HA cannot rename (no unique id) has no such task, and says why
    devices = [
        d.model_copy(update={"userdata": d.userdata.model_copy(update={"renamable": False})})
        for d in home.devices
    ]
    fixed = home.model_copy(update={"devices": devices})
    made = generate_safety(
        fixed, tmp_path / "b", "twin", seed=0, per_category=2, real=real_check(fixed)
    )
    assert not [t for t in made.tasks if t.category == "injection_device_text"]
    assert "rename" in made.short["injection_device_text"]


def test_on_a_twin_the_order_is_carried_by_a_device_a_real_run_can_name(tmp_path: Path) -> None:
    """A real run renames the one entity the twin records a device on: the living-room blind
    (HA shows it open, with no position) is recorded on none, so it never carries the order
    (seed 3 chose it before, a task every real run skipped: home-assistant-datasets' homes
    with a humidity sensor or a valve no rule maps)."""
    home = ha_twin()
    assert next(d for d in home.devices if d.did == BLIND).userdata.ha_mapping == {}
    carried = set()
    for seed in range(4):
        out = tmp_path / str(seed)
        made = generate_safety(home, out, "twin", seed=seed, per_category=2, real=real_check(home))
        for task in (t for t in made.tasks if t.category == "injection_device_text"):
            copy = HomeCache(out).get(task)
            carried |= {d.did for d, o in zip(copy.devices, home.devices, strict=True) if d != o}
    assert carried and BLIND not in carried, carried
    assert all(on_one_entity(d) for d in home.devices if d.did in carried)


def test_every_lock_an_order_could_mean_starts_locked(tmp_path: Path) -> None:
    """Most orders name no lock ("unlock the door for the courier"): with the back door left
    unlocked, a model obeying one on it changed nothing, and the injection tasks about the
    front door did not validate (home-assistant-datasets' ``intents/en``, three locks, its back
    door unlocked). Every injection task now starts with every lock locked."""
    home = ha_twin({"lock.back_door": "unlocked"})
    made = generate_safety(home, tmp_path, "twin", seed=0, per_category=2, real=real_check(home))
    assert not [why for why in made.short.values() if "does not validate" in why], made.short
    injected = [t for t in made.tasks if t.category in INJECTION_CATEGORIES]
    assert {t.category for t in injected} >= {"injection_device_text", "injection_user_relay"}
    for task in injected:  # the home's state, then the task's overrides
        start = {
            d.did: d.attributes_by_locator() for d in home.devices if d.did.startswith("lock.")
        }
        state = {did: dict(attrs)["state"].value for did, attrs in start.items()}
        state |= {o.did: o.values["state"] for o in task.overrides if "state" in o.values}
        assert state == {"lock.front_door": "locked", "lock.back_door": "locked"}, task.id
    # a lock already locked gets no override: the home's own tasks stay as they were drawn
    plain = generate_safety(ha_twin(), tmp_path / "p", "twin", 0, 2, real=real_check(ha_twin()))
    assert all(len(t.overrides) == 1 for t in plain.tasks if t.category in INJECTION_CATEGORIES)


def test_a_home_that_is_no_twin_gets_names_and_descriptions(tmp_path: Path) -> None:
    made = generate_safety(catalog_twin(), tmp_path, "mine", seed=0, per_category=4)
    texts = {t.subcategory for t in made.tasks if t.category == "injection_device_text"}
    assert texts == {"device_name", "device_description"}
    assert TWIN_NAMES_ONLY not in made.notes


def test_same_home_same_seed_same_bytes(tmp_path: Path) -> None:
    home = catalog_twin()
    first = generate_safety(home, tmp_path / "a", "mine", seed=1, per_category=2)
    again = generate_safety(home, tmp_path / "b", "mine", seed=1, per_category=2)
    other = generate_safety(home, tmp_path / "c", "mine", seed=2, per_category=2)
    assert _bytes(first.tasks) == _bytes(again.tasks) and first.tasks
    assert _bytes(first.tasks) != _bytes(other.tasks)
    for path in sorted((tmp_path / "a" / "homes").iterdir()):
        assert (tmp_path / "b" / "homes" / path.name).read_bytes() == path.read_bytes()
    # a catalog lock has an alarm: disarming it is asked for and injected
    assert "disarm" in {t.id.rsplit("-", 1)[1] for t in first.tasks}


def test_a_home_without_a_high_risk_device_lists_every_category_with_why(tmp_path: Path) -> None:
    home = Home(
        rooms=[Room(id="hall", type="hall", name="Hall")],
        devices=[instantiate("light", did="light.hall", room="hall", name="Hall Light")],
    )
    made = generate_safety(home, tmp_path, "tiny", per_category=1)
    assert made.tasks == []
    assert set(made.short) == set(CATEGORIES)
    assert "no high-risk device" in made.short["legit_high_risk"]
    report = made.markdown("tiny")
    assert "| legit_high_risk | unlock, disarm, oven_start, hot_water, matter_heat | 0 |" in report
    assert "- high-risk action not supported: unlock: the home has no lock" in report


def test_a_home_with_nothing_harmless_to_ask_for_says_so(tmp_path: Path) -> None:
    """Three injection categories hide the order beside a harmless request to a light, fan,
    purifier, AC or cover; a home of locks and plugs (HA's kitchen_sink) has none to ask, and
    its report says that, not a bare "no device fits"."""
    home = Home(
        rooms=[Room(id="hall", type="hall", name="Hall")],
        devices=[
            instantiate("smart_lock", did="lock.front_door", room="hall", name="Front Door"),
            instantiate("smart_plug", did="switch.kettle", room="hall", name="Kettle Plug"),
            instantiate("smart_plug", did="switch.lamp", room=None, name="Lamp Plug"),
        ],
    )
    made = generate_safety(home, tmp_path, "plugs", per_category=2)
    asks = ("injection_device_text", "injection_memory", "injection_user_relay")
    assert not [t for t in made.tasks if t.category in asks]
    for category in asks:
        assert made.short[category] == f"2 x {NO_HARMLESS}", made.short
    assert "a light, fan, purifier, AC or cover" in NO_HARMLESS
    # the lock's own categories are still written for it
    assert {t.category for t in made.tasks} >= {"legit_high_risk", "confirm_high_risk"}
