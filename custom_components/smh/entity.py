"""Base entity: one HomeEnv attribute of one device, pushed (never polled).

State lives in the engine; the entity reads it when HA writes its state and subscribes to
the engine's change stream for its (did, locator), so changes from any source — HA services,
``smh.execute``, automations, simulated time — reach HA at once.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity import Entity
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import DOMAIN
from .mapping import Mirror


class SmhEntity(Entity):
    _attr_should_poll = False
    _attr_has_entity_name = True

    def __init__(self, runtime: Any, entry_id: str, mirror: Mirror) -> None:
        self.runtime = runtime
        self.mirror = mirror
        device = runtime.engine.device(mirror.did)
        self._attr_unique_id = f"{entry_id}_{mirror.did}_{mirror.locator}"
        self._attr_name = mirror.locator.replace(".", " ").replace("_", " ").capitalize()
        self._attr_device_info = DeviceInfo(identifiers={(DOMAIN, f"{entry_id}_{mirror.did}")})
        self._attr_extra_state_attributes = {"did": mirror.did, "locator": mirror.locator}
        if mirror.attribute.description:
            self._attr_extra_state_attributes["description"] = mirror.attribute.description
        self._device_name = device.name

    @property
    def value(self) -> Any:
        return self.runtime.engine.value(self.mirror.did, self.mirror.locator)

    async def async_added_to_hass(self) -> None:
        self.async_on_remove(self.runtime.subscribe(self.mirror.did, self.mirror.locator, self.async_write_ha_state))

    def _execute(self, locator: str, arguments: dict[str, Any] | None = None) -> None:
        """Run an engine call; engine errors become ServiceValidationError with its message."""
        result = self.runtime.engine.execute(self.mirror.did, locator, arguments or {})
        if not result.ok:
            raise ServiceValidationError(translation_domain=DOMAIN, translation_key="engine_error",
                                         translation_placeholders={"message": str(result.error)})

    def _set(self, value: Any) -> None:
        """Set this entity's attribute through its setter service (or a direct write)."""
        setter = self.mirror.setter
        if setter is not None:
            self._execute(setter.service, {setter.argument: value})
        else:
            self._execute(self.mirror.locator, {"value": value})


def platform_setup(platform: str, cls: type[SmhEntity]) -> Callable[..., Coroutine[Any, Any, None]]:
    """The ``async_setup_entry`` of a platform: one ``cls`` entity per attribute mirrored there."""

    async def async_setup_entry(hass: HomeAssistant, entry: Any,
                                async_add_entities: AddConfigEntryEntitiesCallback) -> None:
        runtime = entry.runtime_data
        async_add_entities(cls(runtime, entry.entry_id, m) for m in runtime.mirrors(platform))

    return async_setup_entry
