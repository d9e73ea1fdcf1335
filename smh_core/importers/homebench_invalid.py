"""Requests HomeBench labels impossible, read from their words and replayed on its own home.

HomeBench's gold answer for a request the home cannot do is ``error_input``. Narrowing each
device to what HomeBench's home gives it (:mod:`.homebench_devices`) makes most of those
refused; but HomeBench's generator writes "unexist" brightness requests for every light, with
or without brightness (``LightDevice.generate_unexist_instructions`` checks no attribute), so
some requests it labels impossible name a setting its own home gives the device. Those are
label conflicts: the importer keeps the source's home and label and marks the task (an agent
is scored as HomeBench scores it, by the label), never taking the setting away. Each request is
read from its words (:mod:`.homebench_requests`), replayed on the home, and listed in the report.
"""

from __future__ import annotations

from collections.abc import Mapping

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home

from .homebench_devices import Kind, Unsupported, method_targets
from .homebench_requests import Request, clauses, read
from .planner import plan

Devices = Mapping[tuple[str, str], tuple[str, Kind]]
"""(room, HomeBench device) -> (device id, kind): where each HomeBench device went."""


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
