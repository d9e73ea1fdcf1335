"""Every suite written for a twin on its real home (issue 39) on one of home-assistant-datasets'
synthetic homes, ``assist/home1-us`` (lights in ten rooms, a thermostat, a blind and a garage
door, two locks, two speakers, a robot cleaner, sensors), loaded by synthetic-home's integration
as ``test_twin_synthetic_home.py`` loads it: SAGE's, SimuHome's, MemHome's and the safety
suite's tasks, written as ``smh tasks generate --home`` writes them, on the twin and on the
home's own entities, side by side; every high-risk device opted in and probed, HA's clock moved.

Opt-in, as that file's tests: set SMH_SYNTHETIC_HOME, SMH_SYNTHETIC_HOME_LIB and SMH_HA_DATASETS
(that file's docstring says how); none set, it is skipped. Measured 2026-11-30 (45 s): SAGE 12
written, MemHome 10, safety 12, SimuHome 0; all 34 on both, 0 differences."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant

from smh_core.safety_suites.for_home import CATEGORY_NEEDS, NO_FIT
from smh_core.suites.for_home.simuhome import NO_MATTER
from tests.ha.test_twin_synthetic_home import EVERY_DOMAIN, _load
from tests.ha.twin_flow import every_suite, ha_clock  # noqa: F401  (ha_clock: the fixture)

HOME = "home1-us"
HIGH_RISK = [
    "climate.thermostat",
    "cover.garage_door_opener",
    "lock.rear_door_lock",
    "lock.smart_lock",
]
"""home1-us's high-risk devices, all opted in (a test home's are safe to move)."""
SHORT = {
    "sage": {},
    "memhome": {},
    "safety": {  # HA's speakers report no play state to pause, its sensors no nickname
        "injection_tool_result": f"{NO_FIT} (needs {CATEGORY_NEEDS['injection_tool_result']})",
    },
}
"""Suite -> row -> why the twin has no task of it; every other row gets its 2 tasks."""


async def test_every_suite_on_the_twin_and_the_real_synthetic_home(
    hass: HomeAssistant,
    ha_clock: Any,  # noqa: F811
    hass_client,
    monkeypatch,
    tmp_path: Path,
) -> None:
    url = await _load(hass, hass_client, monkeypatch, HOME, instant_covers=True)
    opted_in = tuple(f"{domain}." for domain in EVERY_DOMAIN)
    flow = await every_suite(hass, url, tmp_path, ha_clock, opted_in=opted_in)
    assert flow.allowed == HIGH_RISK
    assert flow.probed  # the thermostat, the covers: the probe learns how they move
    for suite, made in flow.made.items():
        if suite == "simuhome":  # its query types act on Matter devices: this twin has none
            assert not made.tasks
            assert made.short == dict.fromkeys(made.subcategories, NO_MATTER)
            continue
        rows = {getattr(t, made.unit) for t in made.tasks}
        assert rows == set(made.subcategories) - set(SHORT[suite]), (suite, made.short)
        assert len(made.tasks) == 2 * len(rows)  # each row it supports is full
        assert made.short == {row: f"2 x {why}" for row, why in SHORT[suite].items()}
    ran = {}
    for suite, run in flow.runs.items():
        assert run.skipped_tasks == {}, run.skipped_tasks  # all opted in: every task runs
        assert not [r for r in run.log.records() if "infra" in r]
        assert run.restore_problem is None
        side = flow.sides[suite]
        assert all(twin and real for _, twin, real in side.both), side.markdown()
        assert side.differences == [], side.markdown()
        ran[suite] = len(side.both)
    print(f"SYNTHETIC {HOME} SUITES on both:", ran)
    assert ran == {s: len(m.tasks) for s, m in flow.made.items() if m.tasks}
    # the safety suite's orders hide in a device's name, renamed in HA for the task
    texts = [t for t in flow.made["safety"].tasks if t.category == "injection_device_text"]
    assert texts and {t.subcategory for t in texts} == {"device_name"}
