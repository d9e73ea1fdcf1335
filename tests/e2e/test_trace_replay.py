"""End to end: published traces (a hand-made checkout in home-assistant-datasets' format) are
imported, replayed inside a real ``hass`` through SMH (HA's Assist API as the models called it,
HA's built-in agent where the source asked it), and judged; every judgeable verdict agrees with
the published one, for the reasons the source had (a name HA finds ambiguous, a reply that says
Sorry), and the cases no task can judge say why."""

from __future__ import annotations

import asyncio
import csv
import json
import sys
from pathlib import Path

import pytest

from smh_core.ha.trace_replay import replay_and_report
from smh_core.importers.ha_datasets import import_ha_datasets
from smh_core.importers.ha_traces import import_traces
from smh_core.importers.trace_agreement import first_difference
from smh_core.llm.local import free_port
from smh_core.task.home import HomeCache

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

pytestmark = pytest.mark.slow
CHECKOUT = ROOT / "tests" / "fixtures" / "ha_traces"


def test_published_traces_replay_to_the_published_verdicts(tmp_path, socket_enabled):
    imported = tmp_path / "imported"
    tasks, report = import_ha_datasets(CHECKOUT / "datasets", imported)
    cases = import_traces(CHECKOUT / "datasets", tasks, report, imported).cases
    loop = asyncio.new_event_loop()
    try:
        inst = loop.run_until_complete(
            ha_instance.launch(tmp_path / "ha", free_port(), "simple", 0, time_scale=0.0)
        )
        try:
            ha_instance.install_homes(inst.config_dir, imported / "homes")
            run, paths = loop.run_until_complete(
                replay_and_report(
                    cases,
                    {t.id: t for t in tasks},
                    HomeCache(imported).get,
                    inst.url,
                    inst.token,
                    tmp_path / "out",
                    progress=False,
                )
            )
            again, _ = loop.run_until_complete(
                replay_and_report(  # resumes: nothing left to run
                    cases,
                    {t.id: t for t in tasks},
                    HomeCache(imported).get,
                    inst.url,
                    inst.token,
                    tmp_path / "out",
                    progress=False,
                )
            )
        finally:
            inst.stop()
    finally:
        loop.close()
    assert run.ran == 7 and again.ran == 0 and run.skipped_homes == {}
    table = {r["case"]: r for r in csv.DictReader(paths["csv"].open())}
    judged = {k: r for k, r in table.items() if r["verifier"] != ""}
    assert len(judged) == 7
    for key, r in judged.items():
        assert r["verifier"] == r["published"] == r["ha_state"], (key, r)
    for case in cases:
        rec = run.records.get(case.id)
        if rec is not None and not case.builtin_agent:  # HA here did what the source's HA did
            assert (
                len(rec.results) == len(case.calls)
                and first_difference(case.calls, rec.results) is None
            ), case.id
    dim = run.records["assist-mini/2025.4.3/model-a/studio_lights-dim_the_desk_lamp_to_50-0"]
    assert dim.after["light.desk_lamp"] == {
        "state": "on",
        "brightness": 128,
        "color_mode": "brightness",
    }
    assert (
        run.records[
            "assist-mini/2024.9.2 (archived)/assistant/studio_lights-turn_on_the_loft_light"
        ].after["light.loft_light"]["state"]
        == "on"
    )  # HA's own agent heard the sentence
    causes = {r["cause_verifier"] for r in table.values() if r["cause_verifier"]}
    assert causes == {
        "not judgeable: not imported: expects a change of climate.thermostat, which is not imported",
        "not judgeable: the dataset copy has no test with this sentence and these expected changes",
    }
    summary = json.loads(paths["json"].read_text())
    assert summary["verifier"]["all"] == {
        "cases": 9,
        "judgeable": 7,
        "agree": 7,
        "published_good": 7,
    }
    assert "| all | 9 |" in paths["md"].read_text()
