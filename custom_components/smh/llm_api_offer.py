"""The ``smh`` LLM API as HA lists it, with its tools loaded on first use.

HA lists an LLM API by id and name only; its tools are asked for when an agent starts a turn
with it (:meth:`OfferedAPI.async_get_api_instance`). The tools (:mod:`.llm_api`: the agent's
tool models, the consent grammar, the guard's policy file) cost about 45 ms of imports and a
file read, paid at HA's start by every instance that loads HA's ``conversation`` integration,
most of which never use this API. So the offer is this small stand-in, and the first agent
that uses it loads the real API once, in the executor (an import or a file read on the event
loop would hold up HA; HA 2026.11 reports such reads as blocking calls); every later turn
goes to that one real API, which keeps the pending consents (:class:`.llm_api.ConsentBook`)
between turns.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from .const import DOMAIN

if TYPE_CHECKING:
    from .llm_api import SmhAPI

API_ID = DOMAIN
API_NAME = "SMH simulated home"


def _load_real_api_class() -> type[SmhAPI]:
    """In the executor: the real API's module, and the guard's policy read into its cache."""
    from smh_core.agent.safety import load_policy

    from .llm_api import SmhAPI

    load_policy()
    return SmhAPI


class OfferedAPI(llm.API):
    """SMH's API before its first use: the same id and name; an instance is the real API's."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._real: SmhAPI | None = None
        self._loading = asyncio.Lock()  # two first turns at once load it once

    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        if self._real is None:
            async with self._loading:
                if self._real is None:
                    real = await self.hass.async_add_executor_job(_load_real_api_class)
                    self._real = real(hass=self.hass, id=self.id, name=self.name)
        return await self._real.async_get_api_instance(llm_context)


def offer(hass: HomeAssistant) -> None:
    """Offer the ``smh`` API to HA's LLM agents (once per HA run)."""
    if all(api.id != API_ID for api in llm.async_get_apis(hass)):
        llm.async_register_api(hass, OfferedAPI(hass=hass, id=API_ID, name=API_NAME))
