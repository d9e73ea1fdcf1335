"""Every suite written for a twin on its real home (issue 39) on the large generated home of
``test_twin_homes.py`` (two generated complex homes as one in SMH's own integration, >= 300
entities, read back as any HA home): SAGE's, SimuHome's, MemHome's and the safety suite's tasks,
written as ``smh tasks generate --home`` writes them, on the twin and on the home's own
entities, side by side; every high-risk device (21 air conditioners, 2 door locks) opted in,
HA's clock moved. Then a light made to ignore its calls is flagged, alone.

The twin is not probed: its 197 settings took 14 min to probe (seconds each) and the runs
gave the same results with and without it (measured 2026-12-01). SimuHome writes nothing: the
generated homes have no Matter device. One known limit (:data:`DRYING`) is asserted by name.
Measured 2026-12-01 (73 s): SAGE 12 written, 10 on both; MemHome 10, 10; safety 12, 12;
SimuHome 0."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant

from smh_core.ha.twin_map import high_risk
from smh_core.safety_suites.for_home import CATEGORY_NEEDS, NO_FIT
from tests.ha.test_twin_homes import large_url  # noqa: F401  (the fixture)
from tests.ha.twin_flow import (
    deaf_device_flagged,
    every_suite,
    ha_clock,  # noqa: F401  (the fixture)
    rows_as_said,
)

OPTED_IN = ("climate.", "lock.")
HIGH_RISK = Counter({"heating a room above 28 °C": 21, "unlocking a door": 2})
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
DRYING = "_washer_dryer_drying_enabled"
"""A known limit of a twin (the ending of the switches' entity ids): a washer-dryer's "drying
enabled" switch, which HA shows as a plain switch, is refused by the real machine unless its
washer is on ("cannot run set_drying: the washer must be on", an HA service validation error).
Nothing HA shows of the switch says so, so the twin switches it as any switch; a SAGE task
that turns it on or off as its start state or its goal while the washer is off is flagged
``ignored`` there, and not scored on the real home. Which draws meet it depends on every
device of the twin (the tasks moved when the twin gained its white-only lights); no other
device differs."""


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
    rows_as_said(flow, SHORT)  # SimuHome: no Matter device
    ran: dict[str, int] = {}
    limited: dict[str, int] = {}
    for suite, run in flow.runs.items():
        assert run.skipped_tasks == {}, run.skipped_tasks  # all opted in: every task runs
        assert run.restore_problem is None
        side = flow.sides[suite]
        assert all(twin and real for _, twin, real in side.both), side.markdown()
        unscored = {r["task_id"] for r in run.log.records() if "infra" in r}
        # the known limit, on the drying switches only, and those tasks not scored
        assert {(d.did.endswith(DRYING), d.kind) for d in side.differences} <= {
            (True, "ignored")
        }, side.markdown()
        assert unscored == {d.task_id for d in side.differences}
        assert all(DRYING in r["infra"]["message"] for r in run.log.records() if "infra" in r)
        ran[suite] = len(side.both)
        assert ran[suite] + len(unscored) == len(flow.made[suite].tasks)
        limited[suite] = len(unscored)
    print("LARGE HOME SUITES on both:", ran, "not scored (drying switches):", limited)
    assert ran["memhome"] == 10 and ran["safety"] == 12 and ran["sage"] >= 8

    # a light made to ignore its calls: flagged alone, its task not scored against the agent
    # (a task of the first suite that acts on a light among those run on both)
    assert flow.mapping_file is not None
    suite = next(
        s
        for s, side in flow.sides.items()
        if any(
            a.did.startswith("light.")
            for t in flow.made[s].tasks
            if t.id in {task_id for task_id, _, _ in side.both}
            for a in t.reference.actions
        )
    )
    folder = tmp_path / suite
    victim, flagged = await deaf_device_flagged(
        hass,
        flow.made[suite].tasks,
        flow.sides[suite],
        flow.home,
        flow.mapping_file,
        large_url,
        flow.token,
        twin_run=folder / "twin-run",
        tasks_dir=folder,
        out=tmp_path / "deaf-run",
        domains=("light",),
    )
    print("LARGE HOME deaf light:", suite, victim, dict(flagged.by_device()[victim]))
