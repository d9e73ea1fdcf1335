"""What an agent may see: the one exposure rule of SMH's agent and the ``smh`` LLM API.

Both act for a user through Assist, so both show exactly what the user exposed to Assist
(Settings > Voice assistants > Expose), as HA's own LLM API does (``helpers/llm.py`` reads
:func:`~homeassistant.components.homeassistant.exposed_entities.async_should_expose` for the
conversation's assistant). SMH's agent (:mod:`.ha_backend`) sees exposed entities; the ``smh``
LLM API (:mod:`.llm_api`) sees the engine's attributes whose HA entity is exposed. Before this
module each coded the rule itself; now both ask :func:`is_exposed`, so an entity one of them
hides (an unexposed lock) cannot be visible to the other.

HA always loads its ``homeassistant`` integration, which keeps the exposure settings, before any
other; only a bare test instance has none, and there everything is visible (:func:`keeps_settings`).
"""

from __future__ import annotations

from collections.abc import Mapping

from homeassistant.components.homeassistant.exposed_entities import (
    DATA_EXPOSED_ENTITIES,
    async_should_expose,
)
from homeassistant.core import HomeAssistant, State

ASSISTANT = "conversation"
"""The assistant whose exposure settings decide what an agent sees (Assist's)."""


def keeps_settings(hass: HomeAssistant) -> bool:
    """Whether HA keeps exposure settings (always, but on a bare test instance)."""
    return DATA_EXPOSED_ENTITIES in hass.data


def is_exposed(hass: HomeAssistant, entity_id: str) -> bool:
    """Whether agents acting through Assist may see ``entity_id``: HA's setting for Assist, or
    everything when HA keeps no settings (see the module's docstring)."""
    return not keeps_settings(hass) or async_should_expose(hass, ASSISTANT, entity_id)


def exposed_states(hass: HomeAssistant) -> list[State]:
    """Every exposed entity's state, by entity id (what SMH's agent sees)."""
    return sorted(
        (s for s in hass.states.async_all() if is_exposed(hass, s.entity_id)),
        key=lambda s: s.entity_id,
    )


def exposed_attributes(
    hass: HomeAssistant, entity_ids: Mapping[tuple[str, str], str]
) -> dict[str, set[str]] | None:
    """``did -> locators`` whose HA entity (``entity_ids``: ``(did, locator) -> entity id``) is
    exposed (what the ``smh`` LLM API sees); None when HA keeps no settings: everything then."""
    if not keeps_settings(hass):
        return None
    visible: dict[str, set[str]] = {}
    for (did, locator), entity_id in entity_ids.items():
        if is_exposed(hass, entity_id):
            visible.setdefault(did, set()).add(locator)
    return visible
