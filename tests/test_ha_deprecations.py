"""Importing SMH's integration makes Home Assistant report nothing deprecated; and the reader of
those reports (:mod:`tests.support.deprecations`) reads HA's log as HA writes it.

What HA reports while a module is imported comes once per process, before any test could watch
it: an entity class that still provides a member HA renamed (HA 2026.11: a climate's
``current_temperature`` is ``native_current_temperature``) is reported when the class is made, a
deprecated constant when it is read. So every module of the integration is imported in a fresh
interpreter of the running lane, watched. Runs in every lane (``make test``: HA 2026.2.3;
``make test-ha-current``: 2026.10.4 with the test plugin and 2026.11.0 alone); the watched runs of
SMH's paths are ``tests/ha/test_deprecations.py`` and ``tests/e2e/test_real_hass_deprecations.py``.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

from tests.support.deprecations import hass_log_reports, log_reports, warning_reports

ROOT = Path(__file__).resolve().parents[1]


def test_importing_the_integration_reports_nothing() -> None:
    script = """
import importlib, json, logging, pkgutil, sys, warnings
sys.path.insert(0, sys.argv[1])
from tests.support.deprecations import log_reports, warning_reports
records = []
handler = logging.Handler(logging.WARNING)
handler.emit = records.append
logging.getLogger().addHandler(handler)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import custom_components.smh as package
    for module in pkgutil.walk_packages(package.__path__, "custom_components.smh."):
        importlib.import_module(module.name)
print(json.dumps(log_reports(records) + warning_reports(caught)))
"""
    run = subprocess.run(
        [sys.executable, "-c", script, str(ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    reports = json.loads(run.stdout.splitlines()[-1])
    assert reports == [], (
        "Home Assistant reported SMH's use of something deprecated:\n" + "\n".join(reports)
    )


def test_a_hass_log_is_read_the_same_way() -> None:
    """A real hass's log: report entries about SMH, and deprecation warnings in SMH's files, logged
    (``py.warnings``) or printed by Python before HA captured warnings; nothing else."""
    log = "\n".join(
        [
            "/x/custom_components/smh/sensor.py:9: DeprecationWarning: printed before logging began",
            "/x/site-packages/homeassistant/components/http/__init__.py:321: DeprecationWarning: not ours",
            "2026-11-28 10:00:00.001 WARNING (MainThread) [homeassistant.helpers.frame] Detected that custom "
            "integration 'smh' provides the LLM tool x without an integration. This will stop working in Home "
            "Assistant 2027.10, please create a bug report",
            "2026-11-28 10:00:00.002 WARNING (MainThread) [homeassistant.loader] We found a custom integration smh "
            "which has not been tested by Home Assistant",
            "2026-11-28 10:00:00.003 WARNING (MainThread) [homeassistant.helpers.frame] Detected that integration "
            "'hue' uses something deprecated",
            "2026-11-28 10:00:00.004 WARNING (MainThread) [py.warnings] /x/smh_core/agent/tools.py:3: "
            "PydanticDeprecatedSince20: old",
            "  thing()",
            "2026-11-28 10:00:00.005 WARNING (MainThread) [py.warnings] /x/site-packages/aiohttp/web.py:3: "
            "DeprecationWarning: old",
            "2026-11-28 10:00:00.006+00:00 WARNING (ImportExecutor_0) [custom_components.smh.climate] "
            "custom_components.smh.climate::SmhClimate provides the deprecated current_temperature, this will stop "
            "working in Home Assistant 2027.11",
            "2026-11-28 10:00:00.006 INFO (MainThread) [custom_components.smh] Detected that nothing is deprecated",
            "2026-11-28 10:00:00.007 ERROR (MainThread) [homeassistant.components.conversation] Error",
            "Traceback (most recent call last):",
            "RuntimeError: Detected that custom integration 'smh' calls async_write_ha_state from a thread",
        ]
    )
    found = {f.split("] ")[-1].splitlines()[0][:30] for f in hass_log_reports(log)}
    assert found == {
        "/x/custom_components/smh/senso",
        "Detected that custom integrati",
        "/x/smh_core/agent/tools.py:3: ",
        "custom_components.smh.climate:",
        "Error",
    }


def test_log_reports_ignore_what_is_below_a_warning() -> None:
    record = logging.LogRecord(
        "homeassistant.helpers.frame",
        logging.INFO,
        __file__,
        1,
        "Detected that custom integration 'smh' does a thing",
        None,
        None,
    )
    assert log_reports([record]) == []
    record.levelno, record.levelname = logging.WARNING, "WARNING"
    assert len(log_reports([record])) == 1
    assert warning_reports([]) == []
