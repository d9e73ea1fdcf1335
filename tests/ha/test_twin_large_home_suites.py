"""Every suite written for a twin on its real home (issue 39) on the large generated home of
``test_twin_homes.py`` (two generated complex homes as one in SMH's own integration, >= 300
entities, read back as any HA home): SAGE's, SimuHome's, MemHome's and the safety suite's tasks,
written as ``smh tasks generate --home`` writes them, on the twin and on the home's own
entities, side by side; every high-risk device (21 air conditioners, 5 water heaters, 2 door
locks) opted in, HA's clock moved. Then a light or switch made to ignore its calls is flagged,
alone.

The twin is not probed: its 197 settings took 14 min to probe (seconds each) and the runs
gave the same results with and without it (measured 2026-12-01). SimuHome writes nothing: the
generated homes have no Matter device. One known limit (:data:`DRYING`) is asserted by name.
Measured 2026-12-01 (73 s): SAGE 12 written, 10 on both; MemHome 10, 10; safety 12, 12;
SimuHome 0. With the water heaters and air purifiers twinned (2026-12-01, 43 s): SAGE 12, 11;
MemHome 10, 10; safety 12, 12 (6 of them scalding with a water heater); SimuHome 0."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant

from smh_core.ha.twin_map import high_risk
from smh_core.safety_suites.for_home import CATEGORY_NEEDS, NO_FIT
from smh_core.suites.for_home.simuhome import NO_MATTER
from tests.ha.test_twin_homes import large_url  # noqa: F401  (the fixture)
from tests.ha.twin_flow import (
    deaf_device_flagged,
    every_suite,
    ha_clock,  # noqa: F401  (the fixture)
)

OPTED_IN = ("climate.", "lock.", "water_heater.")
HIGH_RISK = Counter(
    {"heating a room above 28 °C": 21, "heating water above 60 °C": 5, "unlocking a door": 2}
)
"""The large home's high-risk devices by the guard's label: its air conditioners and its two
front-door locks, all opted in."""
SHORT = {
    "sage": {},
    "memhome": {},
    "safety": {  # its speakers and screens are off (no title, no play state), no sensor nickname
        "injection_tool_result": f"{NO_FIT} (needs {CATEGORY_NEEDS['injection_tool_result']})",
    },
}
"""Suite -> row -> why the twin has no task of it; every other row gets its 2 tasks."""
DRYING = "switch.laundry_room_washer_dryer_drying_enabled"
"""A known limit of a twin: the washer-dryer's "drying enabled" switch, which HA shows as a plain
switch, is refused by the real machine while it washes (a setting that must not change
mid-cycle, HTTP 500 from HA's API). Nothing HA shows of the switch says so, so the twin
switches it as any switch; SAGE's first "the device by its room" task sets it on as its start
state (:data:`DRYING_TASK`), so the report flags it as ``ignored`` there and that task is not
scored on the real home. No other device differs."""
DRYING_TASK = "twin-sage-by-room-000"
"""Before the water heaters and air purifiers were twinned (2026-12-01), SAGE's two "turn all
the switches off but one" tasks drew the switch instead."""


async def test_every_suite_on_the_twin_and_the_real_large_home(
    hass: HomeAssistant,
    large_url: str,  # noqa: F811
    ha_clock: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    assert len(hass.states.async_entity_ids()) >= 300
    flow = await every_suite(hass, large_url, tmp_path, ha_clock, opted_in=OPTED_IN, probe=False)
    assert len(flow.home.devices) >= 300
    risky = {d.did: high_risk(d) for d in flow.home.devices if high_risk(d)}
    assert flow.allowed == sorted(risky)  # every high-risk device is opted in
    assert Counter(risky.values()) == HIGH_RISK
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
        assert run.restore_problem is None
        side = flow.sides[suite]
        assert all(twin and real for _, twin, real in side.both), side.markdown()
        unscored = {r["task_id"] for r in run.log.records() if "infra" in r}
        if suite == "sage":  # the known limit, on its one task and that switch only
            assert {(d.task_id, d.did, d.kind) for d in side.differences} == {
                (DRYING_TASK, DRYING, "ignored"),
            }, side.markdown()
            assert unscored == {DRYING_TASK}
            assert all(DRYING in r["infra"]["message"] for r in run.log.records() if "infra" in r)
        else:
            assert side.differences == [], side.markdown()
            assert not unscored
        ran[suite] = len(side.both)
        assert ran[suite] + len(unscored) == len(flow.made[suite].tasks)
    print("LARGE HOME SUITES on both:", ran)
    assert ran == {"sage": 11, "memhome": 10, "safety": 12}
    # the water heaters are twinned: half the safety suite's high-risk rows scald with them
    targets = Counter(t.id.rsplit("-", 1)[-1] for t in flow.made["safety"].tasks)
    assert targets == {"unlock": 6, "scalding": 6}, targets

    # a light or switch made to ignore its calls (MemHome's draws on this home: a switch since the
    # water heaters were twinned): flagged alone, its task not scored against the agent
    assert flow.mapping_file is not None
    folder = tmp_path / "memhome"
    victim, flagged = await deaf_device_flagged(
        hass,
        flow.made["memhome"].tasks,
        flow.sides["memhome"],
        flow.home,
        flow.mapping_file,
        large_url,
        flow.token,
        twin_run=folder / "twin-run",
        tasks_dir=folder,
        out=tmp_path / "deaf-run",
        domains=("light", "switch"),
    )
    print("LARGE HOME deaf device:", victim, dict(flagged.by_device()[victim]))
