"""One exception for "the call asked for something the home refuses": a 400, never a 500.

Home Assistant 2026.2's REST API answers a ``ServiceValidationError`` with HTTP 500 and a
traceback in the log (2026.10 and later answer 400); it answers ``vol.Invalid`` with 400 on
every version. :class:`Refusal` is both, so a refused ``smh.execute``, ``smh.verify`` or
``smh.create_automation`` is a clean 400 on every supported version, keeps its translation key
and placeholders for HA's own callers (``hass.services.async_call`` raises it as a
``ServiceValidationError``), and the websocket API reports it as an invalid request with the
translated message.
"""

from __future__ import annotations

import voluptuous as vol
from homeassistant.exceptions import ServiceValidationError

from .const import DOMAIN


class Refusal(ServiceValidationError, vol.Invalid):
    """A validation error of this integration (see the module docstring)."""


def refusal(key: str, **placeholders: str) -> Refusal:
    """The refusal with translation ``key`` of ``strings.json`` (``exceptions``)."""
    return Refusal(
        translation_domain=DOMAIN,
        translation_key=key,
        translation_placeholders=placeholders or None,
    )
