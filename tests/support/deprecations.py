"""What Home Assistant says about SMH that will break it later: deprecation and usage reports.

HA warns before it breaks an integration, in these ways, none of which fails anything:

- ``homeassistant.helpers.frame.report_usage`` logs "Detected that custom integration 'smh'
  <what> [at custom_components/smh/FILE, line N: CODE]. This will stop working in Home
  Assistant <version>, please ..." (the LLM API's tool results and tool integrations, the chat
  log's tool results, thread safety, ...); with no integration frame it logs "Detected code
  that ..." with the stack. A report whose behaviour is ``ERROR`` raises a ``RuntimeError``
  with the same words, which HA usually catches and logs.
- ``homeassistant.helpers.deprecation`` (deprecated functions, classes, constants, aliases)
  logs "The deprecated <kind> <name> was <used|called> from smh. It will be removed in HA Core
  <version> ..." through the deprecated object's own module logger; from 2026.11 an entity class
  that provides a renamed member is reported as it is made ("custom_components.smh.climate::
  SmhClimate provides the deprecated current_temperature, this will stop working ..."), through
  the class's module logger.
- Python's ``warnings``: ``DeprecationWarning``, ``PendingDeprecationWarning`` and
  ``FutureWarning`` attributed (their ``stacklevel``) to SMH's code.

HA core itself reports and warns about other things (its own components, libraries): only what
names SMH counts here (the integration, ``smh_core``, and ``sim_devices``, whose Matter bridge
is part of the Matter round trip). HA's own tests check one report at a time, asserting on
caplog's text after faking the caller with the ``mock_integration_frame`` fixture; here every
report about SMH counts. :func:`log_reports` and :func:`warning_reports` judge what a test caught
(caplog's records, ``warnings.catch_warnings(record=True)``); :func:`hass_log_reports` reads a
real ``hass`` process's log, where Python's warnings arrive through the ``py.warnings`` logger.
"""

from __future__ import annotations

import json
import logging
import re
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sim_devices.catalog import instantiate

# a report or a deprecation, in the words HA's frame and deprecation helpers (and HA's
# entity-level checks, "... is using deprecated ...") use
REPORT = re.compile(
    r"Detected (?:that|code|blocking call)|deprecat|will stop working in Home Assistant"
    r"|will be removed in",
    re.IGNORECASE,
)
# ... about SMH: the integration's domain as HA quotes it, SMH's files, or SMH's modules
ABOUT_SMH = re.compile(
    r"'smh'|\bintegration smh\b|\bfrom smh\b|custom_components[./]smh\b|\bsmh_core\b"
    r"|\bsim_devices\b"
)
SMH_LOGGERS = ("custom_components.smh", "smh_core", "sim_devices")
# where SMH's code lives: a warning attributed to a file under one of these is SMH's
SMH_PATHS = re.compile(r"[/\\](?:custom_components[/\\]smh|smh_core|sim_devices)[/\\]")
WARNING_KINDS = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)


def _record_text(record: logging.LogRecord) -> str:
    """The record's message with its exception and stack, as a handler would write them."""
    parts = [record.getMessage()]
    if record.exc_info and record.exc_info[1] is not None:
        parts.append("".join(traceback.format_exception(record.exc_info[1])))
    elif record.exc_text:
        parts.append(record.exc_text)
    if record.stack_info:
        parts.append(record.stack_info)
    return "\n".join(parts)


def is_report(text: str, logger: str = "") -> bool:
    """Whether a log entry (its whole text, and the logger that wrote it) is a deprecation or
    usage report about SMH."""
    return bool(REPORT.search(text)) and (
        logger.startswith(SMH_LOGGERS) or bool(ABOUT_SMH.search(text))
    )


def log_reports(records: Iterable[logging.LogRecord]) -> list[str]:
    """The reports about SMH among log records of level WARNING and above (all loggers)."""
    return [
        f"{r.levelname} [{r.name}] {_record_text(r)}"
        for r in records
        if r.levelno >= logging.WARNING and is_report(_record_text(r), r.name)
    ]


def is_smh_warning(category: type[Warning], filename: str) -> bool:
    """Whether a Python warning is a deprecation attributed to SMH's code (the equivalent of a
    ``warnings`` filter with ``module=custom_components.smh|smh_core|sim_devices``)."""
    return issubclass(category, WARNING_KINDS) and bool(SMH_PATHS.search(filename))


def warning_reports(caught: Iterable[warnings.WarningMessage]) -> list[str]:
    return [
        f"{w.category.__name__} at {w.filename}:{w.lineno}: {w.message}"
        for w in caught
        if is_smh_warning(w.category, w.filename)
    ]


# HA's log line: "2026-11-28 10:00:00.123 WARNING (MainThread) [logger.name] message" (2026.11
# adds the zone: "10:00:00.123+00:00"); what follows on lines without that head (a traceback, a
# stack) belongs to the entry above
_HEAD = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)? (?P<level>[A-Z]+) "
    r"\([^)]*\) \[(?P<logger>[^\]]+)\] "
)
# a warning as logging.captureWarnings writes it: "<file>:<line>: <Category>: <message>"
_PY_WARNING = re.compile(r"(?P<file>\S.*?):\d+: (?P<category>\w+): ")
# a deprecation's category by its name (a library's own, such as pydantic's
# PydanticDeprecatedSince20, subclasses DeprecationWarning and says so in its name)
_DEPRECATION_NAME = re.compile(r"Deprecat|^FutureWarning$")
_LEVELS = {"WARNING": logging.WARNING, "ERROR": logging.ERROR, "CRITICAL": logging.CRITICAL}


def _entries(text: str) -> Iterator[tuple[str, str, str]]:
    """``(level, logger, text)`` of each entry of an HA log."""
    current: list[str] | None = None
    level = logger = ""
    for line in text.splitlines():
        head = _HEAD.match(line)
        if head:
            if current is not None:
                yield level, logger, "\n".join(current)
            level, logger, current = head["level"], head["logger"], [line[head.end() :]]
        elif current is not None:
            current.append(line)
    if current is not None:
        yield level, logger, "\n".join(current)


def hass_log_reports(text: str) -> list[str]:
    """The reports about SMH in a ``hass`` process's log: report entries, and Python's deprecation
    warnings attributed to SMH's files, whether HA logged them (``py.warnings``, once it captures
    warnings) or Python printed them to stderr before (when ``PYTHONWARNINGS`` lets them through)."""
    found = []
    for level, logger, entry in _entries(text):
        if (
            logger != "py.warnings"
            and _LEVELS.get(level, 0) >= logging.WARNING
            and is_report(entry, logger)
        ):
            found.append(f"{level} [{logger}] {entry}")
    for line in text.splitlines():
        head = _HEAD.match(line)
        warning = _PY_WARNING.match(line[head.end() :] if head else line)
        if (
            warning
            and _DEPRECATION_NAME.search(warning["category"])
            and SMH_PATHS.search(warning["file"])
        ):
            found.append(line)
    return found


@dataclass
class Watch:
    """Collects the reports about SMH a test's phases cause, each under its phase's name
    (``with watch.phase("options"): ...``); :meth:`check` fails with all of them."""

    log: Any
    """What holds the test's log records as ``records`` (pytest's ``caplog``, capturing every
    logger), read by position."""
    found: dict[str, list[str]] = field(default_factory=dict)
    phases: list[str] = field(default_factory=list)

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = len(self.log.records)
        self.phases.append(name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter(
                "always"
            )  # each occurrence, even one shown before in this process
            try:
                yield
            finally:
                reports = list(
                    dict.fromkeys(log_reports(self.log.records[start:]) + warning_reports(caught))
                )
        if reports:
            self.found[name] = reports

    def check(self) -> None:
        if self.found:
            lines = [
                f"{phase}: {report}" for phase, reports in self.found.items() for report in reports
            ]
            raise AssertionError(
                "Home Assistant reported SMH's use of something deprecated:\n" + "\n".join(lines)
            )


def smh_tool_calls(
    now: datetime, lamp: str, room: str
) -> list[tuple[str, dict[str, Any] | Callable]]:
    """A call of each tool of the ``smh`` LLM API that the tool carries out (no refusal): on the
    home's ``lamp`` (a device id with ``turn_on``/``turn_off``), a ``room`` with simulated climate,
    and schedules after ``now`` (the home's simulated time). An argument that is a function takes
    the results so far (by tool) and returns the arguments: an id made by an earlier call."""
    later = (now + timedelta(hours=1)).replace(microsecond=0).isoformat()
    return [
        ("list_rooms", {}),
        ("list_devices", {}),
        ("find_devices", {"description": "lamp"}),
        ("get_device_status", {"did": lamp}),
        ("get_device_spec", {"did": lamp}),
        ("control_device", {"did": lamp, "locator": "turn_off"}),
        ("get_room_environment", {"room": room}),
        ("get_current_time", {}),
        ("schedule_actions", {"at": later, "actions": [{"did": lamp, "locator": "turn_on"}]}),
        ("list_schedules", {}),
        (
            "cancel_schedule",
            lambda done: {"schedule_id": done["schedule_actions"]["schedule"]["id"]},
        ),
        (
            "create_automation",
            {
                "name": "Lamp off at night",
                "triggers": [{"kind": "time", "cron": "0 23 * * *"}],
                "actions": [{"did": lamp, "locator": "turn_off"}],
            },
        ),
        ("list_automations", {}),
        (
            "delete_automation",
            lambda done: {"automation_id": done["create_automation"]["automation"]["id"]},
        ),
    ]


def watched_home(tiny_home: Path) -> dict[str, Any]:
    """The tests' tiny home (``tests/fixtures/tiny_home.json``: lamp ``1001``) with a simulated
    kitchen climate (room ``r3``, 22 °C), a catalog water heater (``1004``: 50 °C set, 38 °C now)
    and a catalog floor AC in the kitchen (``1005``: 26 °C set): every tool of the ``smh`` API has
    something to act on, and each platform whose entity members HA renamed (climate, water
    heater) is loaded."""
    home = json.loads(tiny_home.read_text(encoding="utf-8"))
    for room in home["rooms"]:
        if room["id"] == "r3":
            room["environment"] = {"temperature": 22.0, "humidity": 45.0}
    heater = instantiate(
        "electric_water_heater", did="1004", room="r2", name="Bathroom Water Heater"
    )
    cooler = instantiate("floor_ac", did="1005", room="r3", name="Kitchen Floor AC")
    home["devices"] += [
        d.model_dump(mode="json", by_alias=True, exclude_none=True) for d in (heater, cooler)
    ]
    return home
