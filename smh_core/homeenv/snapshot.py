"""Immutable, cheap snapshots of device state and attribute-level diffs.

The engine keeps one state dict per device and replaces it (copy-on-write) on every change,
never mutating it in place. A snapshot is therefore a shallow copy of the top-level mapping,
and a diff can skip every device whose state object is shared by both snapshots.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from .errors import Change

_MISSING = object()

CONTAINERS = (list, dict, tuple)
"""Value types that are copied (:func:`copy_value`) where state meets the outside world."""


def copy_value(value: Any) -> Any:
    """A copy of a state value that shares no list or dict with ``value``.

    State values are immutable by contract (the engine replaces, never edits them), but a list
    handed in by a caller or handed out to one is the caller's to edit; copying at those two
    borders keeps such edits out of the home. Scalars are returned as they are.
    """
    if isinstance(value, list):
        return [copy_value(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(copy_value(v) for v in value)
    return value


class Snapshot(Mapping[str, Mapping[str, Any]]):
    """A frozen view: ``did -> {locator: value}``. Values must be treated as read-only."""

    __slots__ = ("_devices",)

    def __init__(self, devices: dict[str, dict[str, Any]]) -> None:
        self._devices = devices

    def __getitem__(self, did: str) -> Mapping[str, Any]:
        return MappingProxyType(self._devices[did])

    def __iter__(self) -> Iterator[str]:
        return iter(self._devices)

    def __len__(self) -> int:
        return len(self._devices)

    def value(self, did: str, locator: str) -> Any:
        """The value at ``did``/``locator``; raises ``LookupError`` naming what is missing."""
        dev = self._devices.get(did)
        if dev is None:
            raise LookupError(f"no device {did!r}")
        val = dev.get(locator, _MISSING)
        if val is _MISSING:
            raise LookupError(f"device {did!r} has no attribute {locator!r}")
        return val

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """A plain copy the caller owns (editing it, lists included, leaves the snapshot as is)."""
        return {
            did: {
                loc: copy_value(v) if isinstance(v, CONTAINERS) else v for loc, v in state.items()
            }
            for did, state in self._devices.items()
        }

    def diff(self, other: Snapshot) -> list[Change]:
        """Changes from ``self`` (before) to ``other`` (after), sorted by device then locator."""
        return diff(self, other)


def diff(before: Snapshot, after: Snapshot) -> list[Change]:
    """Attribute-level differences; devices present on one side only count for every attribute."""
    a_devs, b_devs = before._devices, after._devices
    out: list[Change] = []
    for did in sorted(a_devs.keys() | b_devs.keys()):
        a = a_devs.get(did, {})
        b = b_devs.get(did, {})
        if a is b:
            continue
        for loc in sorted(a.keys() | b.keys()):
            va, vb = a.get(loc, _MISSING), b.get(loc, _MISSING)
            if va is vb:
                continue
            if va is _MISSING or vb is _MISSING or type(va) is not type(vb) or va != vb:
                out.append(
                    Change(did, loc, None if va is _MISSING else va, None if vb is _MISSING else vb)
                )
    return out
