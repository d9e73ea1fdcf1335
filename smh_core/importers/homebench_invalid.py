"""Requests HomeBench labels impossible, made impossible in the imported task's home.

HomeBench's gold answer for a request the home cannot do is ``error_input``. Narrowing each
device to what HomeBench's home gives it (:mod:`.homebench_devices`) makes most of those
refused; but HomeBench's generator also writes "unexist" brightness requests for every light,
with or without brightness, so some requests it labels impossible name a setting its own home
gives the device (often one its gold sets elsewhere). The task's label is what an agent is
scored against, so that task's home narrows the device further: the setting or method the label
denies is taken away there, and the engine refuses the request. Each such request is read from
its words (:mod:`.homebench_requests`), replayed on the task's home, and listed in the report.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.homeenv.narrowing import Narrowing, narrow

from .homebench_devices import Kind, Unsupported, method_targets
from .homebench_requests import Request, clauses, read
from .planner import plan

Devices = Mapping[tuple[str, str], tuple[str, Kind]]
"""(room, HomeBench device) -> (device id, kind): where each HomeBench device went."""


@dataclass(frozen=True)
class Denial:
    """What a device loses in one task's home so that a request labelled impossible is."""

    did: str
    services: frozenset[str]
    attributes: frozenset[str]


def invalid_requests(
    text: str, gold: list[str], error: str, rooms: list[str]
) -> list[Request | None]:
    """One request per ``error`` item of ``gold``, read from the words (None: not readable, as
    when a multi-part request's parts do not line up with its gold items)."""
    parts = clauses(text) if len(gold) > 1 else [text]
    if len(parts) != len(gold):
        return [None for item in gold if item == error]
    out: list[Request | None] = []
    context = None
    for part, item in zip(parts, gold, strict=True):
        request = read(part, rooms, context)
        context = request or context
        if item == error:
            out.append(request)
    return out


def lands(home: Home, devices: Devices, request: Request) -> str | None:
    """How ``home`` carries ``request`` out (its calls, or "already so"), or None when the
    engine refuses it: no such device there, no such setting or method, or no calls reach it."""
    found = devices.get((request.room, request.device))
    if found is None:
        return None
    did, kind = found
    method = kind.methods.get(request.method)
    device = next(d for d in home.devices if d.did == did)
    if method is None or not set(method.services) & {
        loc for loc, _ in device.services_by_locator()
    }:
        return None  # the device has no service for it: calling the method is refused
    try:
        targets = method_targets(kind, request.method, request.value)
    except Unsupported:
        return None
    calls = plan(HomeEngine(home), did, targets)
    if calls is None:
        return None
    return "; ".join(f"{c['locator']}({c['arguments'] or ''})" for c in calls) or "already so"


def denial(devices: Devices, request: Request) -> Denial | None:
    """What the request's device must lose for the request to be impossible: the method's
    services, and the setting it comes with (None for a method the kind does not have)."""
    found = devices.get((request.room, request.device))
    if found is None or request.method not in found[1].methods:
        return None
    did, kind = found
    method = kind.methods[request.method]
    setting = kind.settings.get(method.needs or "")
    return Denial(did, frozenset(method.services), frozenset(setting.keeps if setting else ()))


def conflicts(
    denied: Denial, targets: Mapping[str, Mapping[str, Any]], actions: list[Mapping[str, Any]]
) -> bool:
    """Whether the valid part of the same request (its target values and reference calls)
    needs what ``denied`` takes away: the words of a multi-part request then did not line up."""
    used = {a["locator"] for a in actions if a["did"] == denied.did}
    return bool(denied.attributes & set(targets.get(denied.did, {})) or denied.services & used)


def deny(home: Home, denials: list[Denial]) -> Home:
    """``home`` with each denial's services and attributes taken from its device."""
    by_did: dict[str, tuple[set[str], set[str]]] = {}
    for d in denials:
        services, attributes = by_did.setdefault(d.did, (set(), set()))
        services.update(d.services)
        attributes.update(d.attributes)
    devices = []
    for device in home.devices:
        if device.did in by_did:
            services, attributes = by_did[device.did]
            keep_attrs = [loc for loc, _ in device.attributes_by_locator() if loc not in attributes]
            keep_services = [loc for loc, _ in device.services_by_locator() if loc not in services]
            device = narrow(device, Narrowing.of(keep_attrs, keep_services))
        devices.append(device)
    return home.model_copy(update={"devices": devices})


def variant_file(base: str, denials: list[Denial]) -> str:
    """The home file of a variant: the base name and a short digest of what it denies."""
    key = sorted((d.did, sorted(d.services), sorted(d.attributes)) for d in denials)
    digest = hashlib.sha256(repr(key).encode()).hexdigest()[:10]
    return base.removesuffix(".json") + f"-denies-{digest}.json"
