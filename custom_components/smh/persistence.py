"""Keep the simulated home's state across Home Assistant restarts.

Every engine change schedules a (debounced) save of the device values to HA's storage; on
setup the values are put back if the stored state is of the same home. Values go through
``engine.set_values``, so a stored value that no longer fits the device's schema (a changed
device type file) is dropped with a warning instead of corrupting the home.
"""

from __future__ import annotations

import logging
from typing import Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.storage import Store

from smh_core.homeenv.engine import HomeEngine

from .const import DOMAIN

_LOGGER = logging.getLogger(__name__)
STORAGE_VERSION = 1
SAVE_DELAY = 1.0


class StatePersistence:
    def __init__(self, hass: HomeAssistant, entry_id: str, engine: HomeEngine) -> None:
        self.engine = engine
        self.store: Store[dict[str, Any]] = Store(hass, STORAGE_VERSION, f"{DOMAIN}.{entry_id}.state")
        self._unlisten = None
        self._pending = False

    def _data(self) -> dict[str, Any]:
        self._pending = False
        return {"home": self.engine.home.name, "devices": self.engine.snapshot().to_dict()}

    @callback
    def _changed(self, _changes: Any) -> None:
        # One scheduled save covers a burst of changes: the snapshot is taken at write time.
        if not self._pending:
            self._pending = True
            self.store.async_delay_save(self._data, SAVE_DELAY)

    async def async_restore(self) -> int:
        """Apply stored values; returns how many devices were restored."""
        stored = await self.store.async_load()
        if not stored or stored.get("home") != self.engine.home.name:
            return 0
        restored = 0
        known = set(self.engine.device_ids())
        for did, values in stored.get("devices", {}).items():
            if did not in known:
                continue
            current = self.engine.status(did)
            changed = {k: v for k, v in values.items() if k in current and current[k] != v}
            if not changed:
                continue
            result = self.engine.set_values(did, changed)
            if result.ok:
                restored += 1
            else:
                _LOGGER.warning("not restoring device %s: %s", did, result.error)
        return restored

    @callback
    def start(self) -> None:
        self._unlisten = self.engine.add_listener(self._changed)

    async def async_stop(self) -> None:
        """Stop listening and write pending changes now (unload, shutdown)."""
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        await self.store.async_save(self._data())
