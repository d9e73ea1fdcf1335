"""The embedded simulator as an agent backend (no Home Assistant involved)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import ValidationError

from smh_core.homeenv.cron import CronError
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import ErrorCode, ServiceError
from smh_core.homeenv.rules import Rule
from smh_core.sim.simulator import Simulator


def _error(code: ErrorCode, message: str, **kw: Any) -> dict[str, Any]:
    return {"ok": False, "error": ServiceError(code, message, **kw).to_dict()}


def _not_found(did: str) -> dict[str, Any]:
    return _error(ErrorCode.DEVICE_NOT_FOUND, f"no device with did {did!r}", did=did)


def _invalid(e: Exception) -> dict[str, Any]:
    if isinstance(e, ValidationError):
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"])
        return _error(ErrorCode.BAD_ARGUMENTS, f"{field}: {first['msg']}", field=field)
    return _error(ErrorCode.BAD_ARGUMENTS, str(e))


class EmbeddedBackend:
    """Adapts a :class:`HomeEngine` (and, for time, a :class:`Simulator`) to the backend protocol.

    Without a simulator the clock is fixed and schedules/automations are refused with a clear
    error, so a HomeEnv-only run still answers every tool."""

    def __init__(
        self, engine: HomeEngine, clock: datetime | None = None, sim: Simulator | None = None
    ) -> None:
        self.engine = engine
        self.sim = sim
        self._clock = clock or datetime(2024, 6, 27, 9, 0, 0)

    def list_rooms(self) -> list[dict[str, Any]]:
        return [
            r.model_dump(exclude_none=True, exclude={"environment"}) for r in self.engine.rooms()
        ]

    def list_devices(
        self, room: str | None = None, category: str | None = None, tags: list[str] | None = None
    ) -> list[dict[str, Any]]:
        return self.engine.devices(room=room, category=category, tags=tags, include_nested=True)

    def device_status(self, did: str) -> dict[str, Any]:
        if did not in self.engine.device_ids():
            return _not_found(did)
        return {
            "ok": True,
            "did": did,
            "name": self.engine.device(did).name,
            "status": self.engine.status(did),
        }

    def device_spec(self, did: str) -> dict[str, Any]:
        if did not in self.engine.device_ids():
            return _not_found(did)
        return {"ok": True, **self.engine.spec(did)}

    def room_environment(self, room: str) -> dict[str, Any]:
        """Temperature (°C), humidity (%RH), illuminance (lux), PM2.5/PM10 (µg/m³), air quality."""
        if self.engine.room(room) is None:
            return _error(
                ErrorCode.DEVICE_NOT_FOUND,
                f"no room {room!r}",
                allowed=[r.id for r in self.engine.rooms()],
            )
        env = self.engine.environment(room)
        if env is None:
            return _error(
                ErrorCode.SERVICE_NOT_FOUND,
                f"room {room!r} has no climate readings",
                allowed=self.engine.simulated_rooms(),
            )
        return {"ok": True, "room": room, "environment": env}

    def execute(self, did: str, locator: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.engine.execute(did, locator, arguments).to_dict()

    def now(self) -> str:
        when = self.sim.now if self.sim is not None else self._clock
        return when.isoformat(timespec="seconds")

    # ------------------------------------------------------------------ time-based control
    def _need_clock(self) -> dict[str, Any] | None:
        if self.sim is None:
            return _error(
                ErrorCode.SERVICE_NOT_FOUND, "this home has no simulated clock; act now instead"
            )
        return None

    def schedule(self, at: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """Run ``actions`` at the local time ``at`` (ISO 8601)."""
        if (err := self._need_clock()) is not None:
            return err
        try:
            when = datetime.fromisoformat(at) if isinstance(at, str) else None
            if when is None or when.tzinfo is not None:
                # the simulated clock is the home's local time: a zone would be a guess
                raise ValueError(
                    f"at must be a local date-time without a time zone, e.g. 2025-06-27T18:30:00 "
                    f"(got {str(at)[:60]!r})"
                )
            item = self.sim.schedule(when, actions)
        except (ValueError, ValidationError) as e:
            return _invalid(e)
        return {"ok": True, "schedule": item.model_dump(mode="json", exclude_none=True)}

    def cancel_schedule(self, schedule_id: str) -> dict[str, Any]:
        if (err := self._need_clock()) is not None:
            return err
        try:
            item = self.sim.cancel(schedule_id)
        except (KeyError, ValueError) as e:
            return _invalid(ValueError(str(e).strip("'\"")))
        return {"ok": True, "schedule": item.model_dump(mode="json", exclude_none=True)}

    def list_schedules(self) -> list[dict[str, Any]]:
        if self.sim is None:
            return []
        return [s.model_dump(mode="json", exclude_none=True) for s in self.sim.schedules()]

    def create_automation(self, rule: dict[str, Any]) -> dict[str, Any]:
        """Store a rule ``{id?, name, triggers, conditions, actions}``."""
        if (err := self._need_clock()) is not None:
            return err
        body = dict(rule)
        body.setdefault("id", f"a{len(self.sim.rules()) + 1}")
        try:
            stored = self.sim.add_rule(Rule.model_validate(body))
        except (ValueError, ValidationError, CronError) as e:
            return _invalid(e)
        return {
            "ok": True,
            "automation": stored.model_dump(mode="json", by_alias=True, exclude_none=True),
        }

    def list_automations(self) -> list[dict[str, Any]]:
        if self.sim is None:
            return []
        return [
            r.model_dump(mode="json", by_alias=True, exclude_none=True) for r in self.sim.rules()
        ]

    def delete_automation(self, rule_id: str) -> dict[str, Any]:
        if (err := self._need_clock()) is not None:
            return err
        try:
            self.sim.remove_rule(rule_id)
        except KeyError as e:
            return _invalid(ValueError(str(e).strip("'\"")))
        return {"ok": True, "deleted": rule_id}
