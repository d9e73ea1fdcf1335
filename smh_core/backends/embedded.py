"""The embedded simulator as an agent backend (no Home Assistant involved)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import ErrorCode, ServiceError


def _not_found(did: str) -> dict[str, Any]:
    err = ServiceError(ErrorCode.DEVICE_NOT_FOUND, f"no device with did {did!r}", did=did)
    return {"ok": False, "error": err.to_dict()}


class EmbeddedBackend:
    """Adapts a :class:`HomeEngine` to the backend protocol."""

    def __init__(self, engine: HomeEngine, clock: datetime | None = None) -> None:
        self.engine = engine
        self._clock = clock or datetime(2024, 6, 27, 9, 0, 0)

    def list_rooms(self) -> list[dict[str, Any]]:
        return [r.model_dump(exclude_none=True) for r in self.engine.rooms()]

    def list_devices(self, room: str | None = None, category: str | None = None,
                     tags: list[str] | None = None) -> list[dict[str, Any]]:
        return self.engine.devices(room=room, category=category, tags=tags, include_nested=True)

    def device_status(self, did: str) -> dict[str, Any]:
        if did not in self.engine.device_ids():
            return _not_found(did)
        return {"ok": True, "did": did, "name": self.engine.device(did).name, "status": self.engine.status(did)}

    def device_spec(self, did: str) -> dict[str, Any]:
        if did not in self.engine.device_ids():
            return _not_found(did)
        return {"ok": True, **self.engine.spec(did)}

    def execute(self, did: str, locator: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.engine.execute(did, locator, arguments).to_dict()

    def now(self) -> str:
        return self._clock.isoformat(timespec="seconds")
