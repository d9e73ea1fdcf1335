"""Faults a physical device has, injected into the bridge's devices on purpose.

A benchmark on real hardware meets devices that drop off the network, answer late or report a
value other than the one they were given. The bridge can play each of these per device, so the
runner's handling of them (:mod:`smh_core.ha.hardware`: recorded as the device's failure, never
the agent's) is tested over the real protocol and Home Assistant's real ``matter`` integration:

* ``unavailable``: the node is reported unavailable (``node_updated`` with ``available: false``,
  so Home Assistant marks its entities unavailable); commands and writes fail with the
  protocol's NodeNotReady error; nothing is reported until it is available again, when its
  current state is sent whole;
* ``drop``: commands work but the device's attribute reports never go out (the controller
  never hears of the change: a lost subscription);
* ``delay``: commands are answered and reports sent ``delay`` seconds late (a slow device);
* ``alter``: the device reports ``value`` for a locator instead of its real value (a device that
  disagrees with what it was told, or a broken sensor).

Faults are set when the server starts (``smh matter-server --fault 2004:delay=3``) or while it
runs (the ``smh_set_fault`` command on its WebSocket, or :meth:`MatterBridge.set_fault`).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class DeviceFault(BaseModel):
    """What is wrong with one device (all off: a healthy device)."""

    model_config = ConfigDict(extra="forbid")

    unavailable: bool = False
    drop: bool = False
    delay: float = Field(default=0.0, ge=0, le=600)
    alter: dict[str, Any] = Field(default_factory=dict)
    """Locator -> the value reported instead of the real one."""

    @property
    def healthy(self) -> bool:
        return not (self.unavailable or self.drop or self.delay or self.alter)

    def reported(self, locator: str, value: Any) -> Any:
        """The value the device reports for ``locator`` when its real value is ``value``."""
        return self.alter.get(locator, value)


def parse_fault(spec: str) -> tuple[str, DeviceFault]:
    """``DID:unavailable``, ``DID:drop``, ``DID:delay=SECONDS`` or ``DID:alter=LOCATOR=JSON``
    (several joined with ``,``: ``2004:delay=2,alter=1.OnOff.OnOff=false``)."""
    did, sep, rest = spec.partition(":")
    if not sep or not did or not rest:
        raise ValueError(
            f"--fault {spec!r}: expected DID:unavailable, DID:drop, DID:delay=SECONDS "
            f"or DID:alter=LOCATOR=JSON"
        )
    fields: dict[str, Any] = {"alter": {}}
    for part in rest.split(","):
        name, _, value = part.partition("=")
        if name in ("unavailable", "drop") and not value:
            fields[name] = True
        elif name == "delay" and value:
            try:
                fields["delay"] = float(value)
            except ValueError:
                raise ValueError(f"--fault {spec!r}: delay must be a number of seconds") from None
        elif name == "alter" and "=" in value:
            locator, _, raw = value.partition("=")
            try:
                fields["alter"][locator] = json.loads(raw)
            except ValueError:
                raise ValueError(
                    f'--fault {spec!r}: the altered value must be JSON (true, 3, "x")'
                ) from None
        else:
            raise ValueError(
                f"--fault {spec!r}: unknown fault {part!r} (unavailable, drop, delay=S, alter=LOC=JSON)"
            )
    return did, DeviceFault.model_validate(fields)
