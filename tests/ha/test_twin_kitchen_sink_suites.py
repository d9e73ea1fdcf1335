"""Every suite written for a twin on its real home (issue 39) on HA's ``kitchen_sink``: SAGE's,
SimuHome's, MemHome's and the safety suite's tasks, written as ``smh tasks generate --home``
writes them, on the twin and on kitchen_sink's own entities, side by side; its four locks (its
only high-risk devices) opted in and probed, HA's clock moved.

kitchen_sink simulates four locks, two outlet switches and six sensors, in no area: no light,
fan, cover or room, nothing with a number to set. So each suite writes what such a home
supports and says why for the rest; every task written runs on both, passes on both, and no
device differs. Measured 2026-11-30: SAGE 2 written, MemHome 8, safety 6, SimuHome 0; all 16
on both, 0 differences."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant

from smh_core.safety_suites.for_home import CATEGORY_NEEDS, NO_FIT, NO_HARMLESS
from smh_core.suites.for_home.simuhome import NO_MATTER
from tests.ha.test_twin_homes import kitchen_sink_url  # noqa: F401  (the fixture)
from tests.ha.twin_flow import every_suite, ha_clock  # noqa: F401  (ha_clock: the fixture)

LOCKS = [
    "lock.another_basic_lock",
    "lock.another_openable_lock",
    "lock.basic_lock",
    "lock.openable_lock",
]
"""kitchen_sink's high-risk devices, all opted in."""
WRITTEN = {
    "sage": {"persistence"},
    "simuhome": set(),
    "memhome": {"add", "delete", "use", "no_memory"},
    "safety": {"benign_high_risk_device", "confirm_high_risk", "legit_high_risk"},
}
"""Suite -> its rows kitchen_sink supports (each gets its 2 tasks)."""
SHORT = {
    "sage": {
        "device_resolution": "no two devices of one kind (light, fan, switch, air conditioner) "
        "in different rooms",  # its devices are in no area
        "personalization": "no named device has a setting to prefer (a position, target "
        "temperature, volume, fan speed, or a brightness in percent)",
        "intent_resolution": "no light in a room",
        "command_chaining": "no two devices of one kind and a named device of another",
        "intent_resolution+command_chaining": "fewer than two lights and covers to darken the "
        "house with",
    },
    "memhome": {"update": "no device setting of this home fits"},  # on/off and locked only
    "safety": {
        "injection_device_text": NO_HARMLESS,
        "injection_memory": NO_HARMLESS,
        "injection_user_relay": NO_HARMLESS,
        "injection_tool_result": f"{NO_FIT} (needs {CATEGORY_NEEDS['injection_tool_result']})",
    },
}
"""Suite -> row -> why kitchen_sink's twin has no task of it (every draw of the row said so)."""


async def test_every_suite_on_the_twin_and_the_real_kitchen_sink(
    hass: HomeAssistant,
    kitchen_sink_url: str,  # noqa: F811
    ha_clock: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    flow = await every_suite(hass, kitchen_sink_url, tmp_path, ha_clock, opted_in=("lock.",))
    assert flow.allowed == sorted(LOCKS)  # every high-risk device is a lock, and opted in
    assert not flow.probed  # a lock has no number to set: nothing to learn
    for suite, made in flow.made.items():
        rows = {getattr(t, made.unit) for t in made.tasks}
        assert rows == WRITTEN[suite], (suite, made.short)
        assert len(made.tasks) == 2 * len(rows)  # each row it supports is full
        if suite == "simuhome":  # its query types act on Matter devices: this twin has none
            assert made.short == dict.fromkeys(made.subcategories, NO_MATTER)
        else:
            assert made.short == {row: f"2 x {why}" for row, why in SHORT[suite].items()}
    # the safety suite's high-risk actions are the locks' (no alarm, oven or water heater)
    notes = flow.made["safety"].notes
    assert [n.split(":")[1].strip() for n in notes if n.startswith("high-risk action not")] == [
        "disarm",
        "oven",
        "scalding",
    ]
    acted = {a.did for t in flow.made["safety"].tasks for a in t.reference.actions}
    assert acted and acted <= set(LOCKS)  # the real locks are locked and unlocked
    ran = {}
    for suite, run in flow.runs.items():
        assert run.skipped_tasks == {}, run.skipped_tasks  # the locks opted in: every task runs
        side = flow.sides[suite]
        assert not [r for r in run.log.records() if "infra" in r]
        assert run.restore_problem is None
        assert all(twin and real for _, twin, real in side.both), side.markdown()
        assert side.differences == [], side.markdown()
        ran[suite] = len(side.both)
    print("KITCHEN_SINK SUITES on both:", ran)
    assert ran == {s: len(m.tasks) for s, m in flow.made.items() if m.tasks}
