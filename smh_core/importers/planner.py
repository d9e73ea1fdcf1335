"""Find the device calls that bring a device to a set of attribute values.

Imported goals say what the state must become (SimuHome: ``1.FanControl.PercentSetting == 40``),
not how to get there; a reference solution is needed to validate the task (the oracle must pass
it). The search uses only what an agent could use: the device's writable attributes and its
services, tried on a scratch copy of the home, powering the device on first where a call is
refused until it is on.
"""

from __future__ import annotations

import itertools
from typing import Any

from smh_core.homeenv.engine import HomeEngine

POWER_ON = ("1.OnOff.On", "turn_on")


def _undo(engine: HomeEngine, changes: list[Any]) -> None:
    by_did: dict[str, dict[str, Any]] = {}
    for c in changes:
        by_did.setdefault(c.did, {}).setdefault(c.locator, c.before)
    for did, values in by_did.items():
        engine.set_values(did, values)


def split_field(spec: dict[str, Any], locator: str) -> tuple[str, str | None]:
    """``(attribute, field)`` for a path into an object attribute (``1.Channel.CurrentChannel.
    majorNumber``), ``(locator, None)`` for a plain attribute."""
    if locator in spec["attributes"]:
        return locator, None
    base, _, field = locator.rpartition(".")
    return (base, field) if base in spec["attributes"] else (locator, None)


def _candidates(
    spec: dict[str, Any], did: str, locator: str, value: Any, targets: list[tuple[str, Any]]
) -> list[dict[str, Any]]:
    """Calls that may set ``locator`` to ``value``: a direct write, then services of the same
    namespace (no argument, or one argument given ``value``), then the other services, then
    services of one argument with each of its other options (SimuHome's robot starts in its run
    mode 2, Cleaning, to reach OperationalState 1). For a
    field of an object attribute, the services taking that field as an argument (with the
    other targeted fields of the same attribute that they also take)."""
    out: list[dict[str, Any]] = []
    base, field = split_field(spec, locator)
    if field is not None:
        fields = {
            f: v for loc, v in targets for b, f in [split_field(spec, loc)] if b == base and f
        }
        for name, svc in spec["services"].items():
            args = svc.get("arguments", {})
            if field in args:
                out.append(
                    {
                        "did": did,
                        "locator": name,
                        "arguments": {f: v for f, v in fields.items() if f in args},
                    }
                )
        return out
    attr = spec["attributes"].get(locator, {})
    if attr.get("writable"):
        out.append({"did": did, "locator": locator, "arguments": {"value": value}})
    ns = locator.rsplit(".", 1)[0] if "." in locator else ""
    services = sorted(
        spec["services"].items(), key=lambda kv: not kv[0].startswith(ns + ".") if ns else False
    )
    for name, svc in services:
        args = svc.get("arguments", {})
        required = [a for a, s in args.items() if s.get("required", True)]
        if not required:
            out.append({"did": did, "locator": name, "arguments": {}})
        if len(required) == 1:
            out.append({"did": did, "locator": name, "arguments": {required[0]: value}})
    for name, svc in services:  # then an argument's other options: the mode that starts a robot
        args = svc.get("arguments", {})
        required = [a for a, s in args.items() if s.get("required", True)]
        if len(required) == 1:
            out += [
                {"did": did, "locator": name, "arguments": {required[0]: o}}
                for o in args[required[0]].get("options") or ()
                if o != value
            ]
    return out


def plan(
    engine: HomeEngine, did: str, targets: list[tuple[str, Any]]
) -> list[dict[str, Any]] | None:
    """Calls that leave ``did`` with every ``(locator, value)`` of ``targets``, found on
    ``engine`` (which they are applied to); None when no combination is found. The targets are
    tried in their order first, then in the others (a washer's programme is chosen before it
    is started, whatever order the goal lists them in)."""
    before, spec = engine.status(did), engine.spec(did)  # the spec is fixed: read it once
    for order in itertools.permutations(targets):
        found = _plan_in_order(engine, spec, did, list(order))
        if found is not None:
            return found
        now = engine.status(did)
        engine.set_values(did, {k: v for k, v in before.items() if now.get(k) != v})
    return None


def _plan_in_order(
    engine: HomeEngine, spec: dict[str, Any], did: str, targets: list[tuple[str, Any]]
) -> list[dict[str, Any]] | None:
    actions: list[dict[str, Any]] = []
    for locator, value in targets:
        if _holds(engine, spec, did, locator, value):
            continue
        found = _try(engine, spec, did, locator, value, targets)
        if found is None:
            for power in POWER_ON:  # refused until the device is on: power it on, then try again
                if power in spec["services"]:
                    result = engine.execute(did, power, {})
                    if result.ok:
                        found = _try(engine, spec, did, locator, value, targets)
                        if found is not None:
                            found = [{"did": did, "locator": power, "arguments": {}}, *found]
                        else:
                            _undo(engine, result.changes)
                    break
        if found is None:
            return None
        actions += found
    return actions if all(_holds(engine, spec, did, loc, v) for loc, v in targets) else None


def _holds(engine: HomeEngine, spec: dict[str, Any], did: str, locator: str, value: Any) -> bool:
    base, field = split_field(spec, locator)
    try:
        actual = engine.value(did, base)
    except KeyError:
        return False
    if field is not None:
        if not isinstance(actual, dict) or field not in actual:
            return False
        actual = actual[field]
    if isinstance(actual, bool) or isinstance(value, bool):
        return actual is value
    return actual == value


def _try(
    engine: HomeEngine,
    spec: dict[str, Any],
    did: str,
    locator: str,
    value: Any,
    targets: list[tuple[str, Any]],
) -> list[dict[str, Any]] | None:
    earlier = targets[: targets.index((locator, value))]
    for call in _candidates(spec, did, locator, value, targets):
        result = engine.execute(call["did"], call["locator"], call["arguments"])
        if not result.ok:
            continue
        if _holds(engine, spec, did, locator, value) and all(
            _holds(engine, spec, did, loc, v) for loc, v in earlier
        ):
            return [call]
        _undo(engine, result.changes)
    return None


def _other_values(spec: dict[str, Any], locator: str, value: Any) -> list[Any]:
    """Values of ``locator`` other than ``value``, nearest first (for a decoy)."""
    attr = spec["attributes"].get(locator) or {}
    if attr.get("type") == "bool" or isinstance(value, bool):
        return [not value]
    if attr.get("options"):
        return [o for o in attr["options"] if o != value]
    low, high = attr.get("range") or (None, None)
    if isinstance(value, (int, float)) and low is not None:
        step = 1 if attr.get("type") == "int" else float(attr.get("precision") or 1)
        out = [
            v
            for v in (value + 10 * step, value - 10 * step, high, low)
            if low <= v <= high and v != value
        ]
        return [int(v) if attr.get("type") == "int" else v for v in out]
    return []


def decoys(
    engine: HomeEngine, did: str, targets: list[tuple[str, Any]], limit: int = 2
) -> list[dict[str, Any]]:
    """Single calls that move ``did`` off one of ``targets`` (the home already satisfies them):
    the plausible wrong actions a ``no_change`` goal must fail. Found on ``engine`` and undone."""
    spec = engine.spec(did)
    out: list[dict[str, Any]] = []
    for locator, value in targets:
        tries = [
            c
            for other in _other_values(spec, locator, value)
            for c in _candidates(spec, did, locator, other, [(locator, other)])
        ]
        tries += [
            c
            for c in map(lambda kv: _sample_call(did, *kv), spec["services"].items())
            if c is not None
        ]
        found = next(
            (c for c in tries if c not in out and _moves_off(engine, spec, c, locator, value)), None
        )
        if found is not None:
            out.append(found)
        if len(out) >= limit:
            break
    return out


def _sample_call(did: str, name: str, svc: dict[str, Any]) -> dict[str, Any] | None:
    """The service called with a plausible value for each required argument (the first option,
    the lower bound, a short text: a to-do list's add_item("milk")), or None."""
    args: dict[str, Any] = {}
    for arg, a in (svc.get("arguments") or {}).items():
        if not a.get("required", True):
            continue
        if a.get("options"):
            args[arg] = a["options"][0]
        elif a.get("type") in ("int", "float") and a.get("range"):
            args[arg] = int(a["range"][0]) if a["type"] == "int" else float(a["range"][0])
        elif a.get("type") == "str":
            args[arg] = "milk"
        elif a.get("type") == "bool":
            args[arg] = True
        else:
            return None
    return {"did": did, "locator": name, "arguments": args}


def _moves_off(
    engine: HomeEngine, spec: dict[str, Any], call: dict[str, Any], locator: str, value: Any
) -> bool:
    """Whether ``call`` runs and leaves ``locator`` off ``value`` (tried, then undone)."""
    result = engine.execute(call["did"], call["locator"], call["arguments"])
    if not result.ok:
        return False
    moved = not _holds(engine, spec, call["did"], locator, value)
    _undo(engine, result.changes)
    return moved


def elsewhere(engine: HomeEngine, exclude: set[str]) -> dict[str, Any] | None:
    """A call without arguments that changes a device outside ``exclude``: the decoy of a
    request whose own device has no wrong value to be moved to (a trash bin already empty)."""
    for did in engine.device_ids():
        if did in exclude:
            continue
        for name, svc in engine.spec(did)["services"].items():
            if any(a.get("required", True) for a in svc.get("arguments", {}).values()):
                continue
            result = engine.execute(did, name, {})
            if result.ok and result.changes:
                _undo(engine, result.changes)
                return {"did": did, "locator": name, "arguments": {}}
            if result.ok:
                _undo(engine, result.changes)
    return None
