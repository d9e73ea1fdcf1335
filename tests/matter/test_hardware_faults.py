"""Benchmark tasks over the Matter path: runner -> HA service -> HA's ``matter`` integration ->
the bridge's simulated device -> attribute report -> HA state -> verifier, with the mapping
``smh ha map`` proposed (``known_good/matter-1.yaml``), the oracle and HA's own Assist.

Then the faults physical devices have, injected into the bridge: a device that is unavailable,
one that answers and reports late, one whose reports are lost, one that reports another value
than it was given. Each must end as a device failure (``infra`` kind ``device``, not scored,
retried within the run's bounds), never as the agent's failure, and the devices must be put
back as they were found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from homeassistant.core import HomeAssistant

from sim_devices.matter_bridge.faults import DeviceFault
from sim_devices.matter_bridge.server import MatterBridge
from smh_core.ha.hardware import HardwareRun, run_on_hardware
from smh_core.ha.hardware_map import load_mapping
from smh_core.homeenv.engine import HomeEngine
from smh_core.homes.simulated import generate_matter_home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task, load_tasks

from .ha_setup import api_url, ha_matter

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tasks"
KNOWN_GOOD = Path(__file__).parent / "known_good" / "matter-1.yaml"
LAMP, AC = "2025", "2003"  # Kitchen Dimmable Light 1, Kitchen Air Conditioner 1


def _task(
    task_id: str,
    text: str,
    critic: str,
    actions: list[dict[str, Any]],
    overrides: list[dict[str, Any]] | None = None,
) -> Task:
    return Task.model_validate(
        {
            "id": task_id,
            "suite": "simuhome",
            "category": "QT3",
            "subcategory": "QT3-feasible",
            "difficulty": "simple",
            "home": {"seed": 1, "generator": "matter"},
            "overrides": overrides or [],
            "turns": [{"text": text}],
            "goal": {"kind": "execute", "critic": critic},
            "reference": {"mode": "execute", "response": "Done.", "actions": actions},
        }
    )


LAMP_ON = _task(
    "lamp-on",
    "Turn on the kitchen dimmable light 1",
    f"device({LAMP}).1.OnOff.OnOff == True",
    [{"did": LAMP, "locator": "1.OnOff.On"}],
    [{"did": LAMP, "values": {"1.OnOff.OnOff": False}}],
)
LAMP_OFF = _task(
    "lamp-off",
    "Turn off the kitchen dimmable light 1",
    f"device({LAMP}).1.OnOff.OnOff == False",
    [{"did": LAMP, "locator": "1.OnOff.Off"}],
)  # the lamp is on in the home: nothing to set first


def _simuhome(*ids: str) -> list[Task]:
    wanted = set(ids)
    return [t for t in load_tasks([TASKS / "simuhome.jsonl"]) if t.id in wanted]


async def _run(
    hass: HomeAssistant,
    hass_client,
    token: str,
    out: Path,
    tasks: list[Task],
    faults: dict[str, DeviceFault] | None = None,
    timeout: float = 5.0,
    player: str | None = "oracle",
) -> tuple[HardwareRun, HomeEngine, dict[str, dict[str, Any]]]:
    """The seed-1 Matter home behind HA, the faults set, ``tasks`` run; returns the run, the
    bridge's engine (the devices' truth) and the devices' state before the run."""
    url = await api_url(hass, hass_client)
    engine = HomeEngine(generate_matter_home(seed=1))
    bridge = MatterBridge(engine)
    found = {did: engine.status(did) for did in engine.device_ids()}
    mapping = load_mapping(KNOWN_GOOD).model_copy(update={"timeout_seconds": timeout})
    mapping._path = str(KNOWN_GOOD)
    async with ha_matter(hass, bridge):
        for did, fault in (faults or {}).items():
            bridge.set_fault(did, fault)
        run = await run_on_hardware(
            tasks,
            url,
            token,
            "conversation.home_assistant",
            mapping,
            out,
            HomeCache(TASKS),
            progress=False,
            interval=0.05,
            player=player,
        )
        for did in faults or {}:
            bridge.set_fault(did, DeviceFault())
    return run, engine, found


async def test_the_oracle_acts_through_matter_and_passes(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled, tmp_path: Path
) -> None:
    """The AC task of SimuHome's QT3 goes switch -> climate -> fan over Matter; the fan task
    cannot run (HA offers no entity for a Matter fan's OnOff) and says so."""
    tasks = [*_simuhome("simuhome-qt3-f-028", "simuhome-qt3-f-000"), LAMP_ON]
    run, engine, found = await _run(hass, hass_client, hass_access_token, tmp_path, tasks)
    records = {r["task_id"]: r for r in run.log.records()}
    assert run.skipped_tasks == {"simuhome-qt3-f-000": "not mapped: 2024/1.OnOff.OnOff"}
    ac = records["simuhome-qt3-f-028"]
    assert ac["passed"] and ac["agent"] == "oracle" and ac["backend"] == "hardware", ac["verdict"]
    assert {
        "1.OnOff.OnOff": True,
        "1.Thermostat.SystemMode": 4,
        "1.FanControl.PercentSetting": 100,
    }.items() <= ac["final_state"][AC].items()
    # power, mode, speed setting and the current speed and fan mode that follow it
    assert ac["latency"]["commanded"] == 5 and ac["latency"]["reports_s"] > 0
    assert records["lamp-on"]["passed"]
    # the devices are as they were found, as far as HA shows them (the run drove them back through
    # HA): the lamp wholly; the AC is off again, but the mode and fan speed it keeps while off are
    # the task's, since HA shows neither while it is off (so nobody knew them before the run)
    assert run.restore_problem is None
    assert engine.status(LAMP) == found[LAMP]
    assert engine.status(AC)["1.OnOff.OnOff"] is found[AC]["1.OnOff.OnOff"] is False


async def test_an_unavailable_device_is_the_devices_failure(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled, tmp_path: Path
) -> None:
    run, engine, found = await _run(
        hass,
        hass_client,
        hass_access_token,
        tmp_path,
        [*_simuhome("simuhome-qt3-f-028"), LAMP_ON],
        {AC: DeviceFault(unavailable=True)},
        timeout=0.5,
    )
    records = {r["task_id"]: r for r in run.log.records()}
    ac = records["simuhome-qt3-f-028"]
    assert (
        ac["infra"]["kind"] == "device"
        and ac["attempts"] == 2
        and ac["verdict"]["error_class"] == "INFRA"
    )
    assert "is unavailable" in ac["infra"]["message"]
    assert records["lamp-on"]["passed"], records["lamp-on"]  # the other devices carry on
    assert run.log.done("lamp-on") and not run.log.done(
        "simuhome-qt3-f-028"
    )  # a resumed run retries it
    assert engine.status(AC) == found[AC]  # commands to it were refused: untouched


async def test_a_slow_device_is_waited_for(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled, tmp_path: Path
) -> None:
    """Answers and reports 0.5 s late, within the mapping's timeout: the task passes, and the
    round trip shows the wait."""
    run, engine, found = await _run(
        hass, hass_client, hass_access_token, tmp_path, [LAMP_ON], {LAMP: DeviceFault(delay=0.5)}
    )
    (record,) = run.log.records()
    assert record["passed"] and record["latency"]["reports_s"] >= 0.5
    assert run.restore_problem is None and engine.status(LAMP) == found[LAMP]


async def test_a_device_slower_than_the_timeout_is_not_the_agents_failure(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled, tmp_path: Path
) -> None:
    run, _, _ = await _run(
        hass,
        hass_client,
        hass_access_token,
        tmp_path,
        [LAMP_ON],
        {LAMP: DeviceFault(delay=2.0)},
        timeout=0.6,
    )
    (record,) = run.log.records()
    assert record["infra"]["kind"] == "device" and not record["passed"] and record["attempts"] == 2
    assert "restored" in (tmp_path / "restore.json").read_text()  # put back, or said it was not


async def test_a_device_that_reports_another_value(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled, tmp_path: Path
) -> None:
    """Switched on, the lamp keeps reporting off: the oracle's command did not come back."""
    run, engine, _ = await _run(
        hass,
        hass_client,
        hass_access_token,
        tmp_path,
        [LAMP_ON],
        {LAMP: DeviceFault(alter={"1.OnOff.OnOff": False})},
        timeout=0.6,
    )
    (record,) = run.log.records()
    assert record["infra"]["kind"] == "device"
    assert f"{LAMP}/1.OnOff.OnOff is False, want True" in record["infra"]["message"]


async def test_assist_is_not_blamed_for_a_device_that_loses_its_reports(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled, tmp_path: Path
) -> None:
    """HA's Assist switches the lamp off (its call_service event says so); the lamp does it but
    its report is lost, so HA still shows it on: a device failure, not Assist's. With the report
    merely late, Assist's turn is waited for and passes."""
    run, engine, _ = await _run(
        hass,
        hass_client,
        hass_access_token,
        tmp_path / "dropped",
        [LAMP_OFF],
        {LAMP: DeviceFault(drop=True)},
        timeout=0.6,
        player=None,
    )
    (record,) = run.log.records()
    assert record["agent"] == "ha:conversation.home_assistant"
    assert record["infra"]["kind"] == "device", record.get("verdict")
    assert "commanded False, no report within 0.6 s (still True)" in record["infra"]["message"]
    assert engine.status(LAMP)["1.OnOff.OnOff"] is False or run.restore_problem is None

    run, _, _ = await _run(
        hass,
        hass_client,
        hass_access_token,
        tmp_path / "late",
        [LAMP_OFF],
        {LAMP: DeviceFault(delay=0.4)},
        timeout=5.0,
        player=None,
    )
    (record,) = run.log.records()
    assert record["passed"], record["verdict"]
    assert record["latency"]["commanded"] == 1 and record["latency"]["reports_s"] >= 0.3


async def test_a_state_ha_cannot_set_is_not_a_device_fault(
    hass: HomeAssistant, hass_client, hass_access_token, socket_enabled, tmp_path: Path
) -> None:
    """HA offers the test vendor's AC no dry mode (SystemMode 8): the oracle's action cannot be
    done through HA, so the task is skipped with that reason, neither scored nor a device fault."""
    dry = _task(
        "ac-dry",
        "Dry the kitchen air",
        f"device({AC}).1.Thermostat.SystemMode == 8",
        [
            {"did": AC, "locator": "1.OnOff.On"},
            {"did": AC, "locator": "1.Thermostat.SystemMode", "arguments": {"value": 8}},
        ],
    )
    run, _, _ = await _run(hass, hass_client, hass_access_token, tmp_path, [dry], timeout=0.6)
    assert len(run.log) == 0
    assert run.skipped == {"the reference actions cannot be done through HA": 1}
    assert "no call sets 2003/1.Thermostat.SystemMode to 8" in run.skipped_tasks["ac-dry"]
