"""HomeBench's gold, carried out as a model would carry it out: an independent fidelity check.

``homebench_replay`` measures the catalog with the importer's own tables (each HomeBench method
mapped to target values, planned on the device's services): a wrong table entry there is wrong
on both sides and cannot fail. This check shares none of the importer's translation (its
method tables, planner and references), only its reading of HomeBench's call syntax
(:func:`.homebench.call_parts`) and the imported task: :class:`GoldAgent` reads HomeBench's gold call strings *as HomeBench writes them*
(``room.device.method(arg)``, ``error_input``), finds each device by its name in the home's
listing, picks the service from the device's spec (the same name, else the few synonyms below,
the first whose argument takes the value), calls it through ``control_device``'s backend call,
and answers "I cannot" for each ``error_input``; SMH's verifier then scores the task as it
scores any agent. A gold call that finds no device or service, or that the device refuses, is a
disagreement with its reason. HomeBench scores this gold correct, so every task should pass.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smh_core.agent.backend import HomeBackend
from smh_core.agent.eia import UserReply
from smh_core.bench.verifier import Outcome
from smh_core.task.model import Task

from .homebench import call_parts, json_lines, sources, spaceless_names, split_gold

ERROR = "error_input"
REFUSAL = "Sorry, I cannot do that: this home has no such device or setting."

SERVICE_SYNONYMS: Mapping[str, tuple[str, ...]] = {
    "set_temperature": ("set_target_temperature", "set_target_water_temperature"),
    "set_mode": ("set_ac_mode", "set_work_mode", "set_suction", "set_preset_mode"),
    "set_fan_speed": ("set_fan_level", "set_speed_level"),
    "set_speed": ("set_speed_level", "set_preset_mode", "set_fan_level"),
    "set_swing": ("set_swing", "set_oscillation", "set_swing_position"),
    "charge": ("return_to_base",),
}
"""Where HomeBench's method name is not the service's: the services a reader of the spec would
try, in order (the first whose argument takes the value is called)."""

VALUE_SYNONYMS: Mapping[str, tuple[str, ...]] = {"heating": ("normal",)}
"""HomeBench option words that the device's options say differently (a water heater's
"heating" mode is its normal mode)."""


def gold_items(output: str) -> list[str]:
    """HomeBench's gold string as its scorer reads it: the items of :func:`.homebench.split_gold`
    with the spaces of their names dropped (a colour's ``(r,g,b)`` stays one item)."""
    return [spaceless_names(item) for item in split_gold(output)]


def _value(raw: str) -> Any:
    raw = raw.strip()
    if raw.startswith("(") and raw.endswith(")"):
        return tuple(_value(p) for p in raw[1:-1].split(","))
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        return float(raw)
    except ValueError:
        return raw.strip("'\"")


def _fits(spec: Mapping[str, Any], value: Any) -> Any | None:
    """``value`` as the argument ``spec`` takes, or None where it does not take it."""
    kind, options, bounds = spec.get("type"), spec.get("options"), spec.get("range")
    if isinstance(value, tuple):
        if kind == "hex" and len(value) == 3 and all(isinstance(c, int) for c in value):
            return "#" + "".join(f"{c:02X}" for c in value)
        return None
    if kind == "bool":
        return {"auto": True, "on": True, "off": False}.get(str(value).lower())
    if options:
        words = [str(value).lower(), *VALUE_SYNONYMS.get(str(value).lower(), ())]
        return next((o for w in words for o in options if str(o).lower() == w), None)
    if kind in ("int", "float") and isinstance(value, int | float):
        if bounds and not bounds[0] <= value <= bounds[1]:
            return None
        return value
    if kind == "str" and isinstance(value, str):
        return value
    return None


def _device(listing: list[dict[str, Any]], room: str, device: str) -> str | None:
    """The device a HomeBench ``room.device`` names, by its name in the listing."""
    wanted = f"{room} {device}".replace("_", " ").strip().lower()
    return next((d["did"] for d in listing if str(d["name"]).lower() == wanted), None)


def plan_call(
    spec: Mapping[str, Any], method: str, argument: str
) -> tuple[str, dict[str, Any]] | str:
    """The service call for one HomeBench method on a device with ``spec``, or why there is none."""
    services = spec.get("services") or {}
    value = _value(argument) if argument.strip() else None
    tried = []
    for name in (method, *SERVICE_SYNONYMS.get(method, ())):
        service = services.get(name)
        if not isinstance(service, dict):
            continue
        args = service.get("arguments") or {}
        required = [a for a, s in args.items() if isinstance(s, dict) and s.get("required", True)]
        if value is None:
            if not required:
                return name, {}
            tried.append(f"{name} needs {required}")
            continue
        if len(args) != 1:
            tried.append(f"{name} takes {sorted(args)}")
            continue
        ((arg, arg_spec),) = args.items()
        fitted = _fits(arg_spec, value)
        if fitted is None:
            tried.append(f"{name}({arg}) does not take {value!r}")
            continue
        return name, {arg: fitted}
    return "; ".join(tried) or f"no service {method} (or a synonym) on the device"


@dataclass
class GoldAgent:
    """Carries out each task's HomeBench gold (``golds``: task id -> HomeBench output string)."""

    golds: Mapping[str, str]
    name: str = "homebench-gold"
    calls: int = 0
    landed: int = 0
    problems: list[tuple[str, str, str]] = field(default_factory=list)
    """``(task id, gold call, why it did not land)``."""

    async def run(self, task: Task, backend: HomeBackend, user: UserReply) -> Outcome:
        outcome = Outcome(response="", stop="answered")
        items = gold_items(self.golds.get(task.id, ""))
        listing = backend.list_devices()
        refused = False
        for item in items:
            if item == ERROR:
                refused = True
                continue
            self.calls += 1
            why = self._one(task.id, item, listing, backend, outcome)
            if why is None:
                self.landed += 1
            else:
                self.problems.append((task.id, item, why))
        outcome.response = (
            REFUSAL
            if refused and not outcome.tool_calls
            else ("Done." + (f" {REFUSAL}" if refused else ""))
        )
        return outcome

    def _one(
        self,
        task_id: str,
        item: str,
        listing: list[dict[str, Any]],
        backend: HomeBackend,
        outcome: Outcome,
    ) -> str | None:
        m = call_parts(item)
        if m is None:
            return "not room.device.method(argument)"
        did = _device(listing, m["room"] or "", m["device"])
        if did is None:
            return f"no device named {m['room'] or ''} {m['device']}".strip()
        planned = plan_call(backend.device_spec(did), m["method"], m["arg"])
        if isinstance(planned, str):
            return planned
        locator, arguments = planned
        result = backend.execute(did, locator, arguments)
        outcome.tool_calls.append(
            {
                "tool": "control_device",
                "arguments": {"did": did, "locator": locator, "arguments": arguments},
            }
        )
        if not result.get("ok"):
            outcome.invalid_calls += 1
            return f"refused: {(result.get('error') or {}).get('message', result)}"
        return None


@dataclass
class GoldCheck:
    """The check's figures: gold calls that land, tasks whose gold passes, and why others fail."""

    calls: int = 0
    landed: int = 0
    tasks: int = 0
    passed: int = 0
    label_conflicts: int = 0
    not_landed: Counter[str] = field(default_factory=Counter)
    failed: list[tuple[str, str]] = field(default_factory=list)
    """``(task id, verifier reason)`` for each task the gold does not pass."""


def source_golds(root: Path) -> dict[str, str]:
    """Task id -> HomeBench's gold output, for every instruction line under ``root``."""
    _, files = sources(root)
    golds: dict[str, str] = {}
    for path in files:
        for _, line in json_lines(path):
            if isinstance(line, dict) and isinstance(line.get("output"), str):
                golds[f"hb-{line.get('id')}"] = line["output"]
    return golds


async def check_gold(tasks: list[Task], out: Path, golds: Mapping[str, str]) -> GoldCheck:
    """Run every imported task with :class:`GoldAgent` and SMH's verifier."""
    from smh_core.bench.runner import run_task
    from smh_core.task.home import HomeCache

    agent = GoldAgent(golds)
    cache = HomeCache(out)
    check = GoldCheck()
    for task in tasks:
        if task.id not in golds:
            continue
        record = await run_task(task, agent, cache)
        check.tasks += 1
        check.label_conflicts += bool(task.label_conflict)
        if record["passed"]:
            check.passed += 1
        else:
            check.failed.append((task.id, record["verdict"]["reason"]))
    check.calls, check.landed = agent.calls, agent.landed
    check.not_landed = Counter(reason_kind(why) for _, _, why in agent.problems)
    return check


def reason_kind(why: str) -> str:
    """A disagreement's reason without its values, to count by."""
    return re.sub(r"'[^']*'|\d+(\.\d+)?", "…", why)[:160]
