"""Locks: lock and unlock (the device's ``open`` service unlocks the door)."""

from __future__ import annotations

from typing import Any

from homeassistant.components.lock import LockEntity, LockState

from .entity import SmhRichEntity, rich_setup


class SmhLock(SmhRichEntity, LockEntity):
    @property
    def is_locked(self) -> bool:
        return self.get("state") == LockState.LOCKED

    async def async_lock(self, **kwargs: Any) -> None:
        self.run(self.rich.call("lock"))

    async def async_unlock(self, **kwargs: Any) -> None:
        self.run(self.rich.call("unlock"))


async_setup_entry = rich_setup("lock", SmhLock)
