"""``smh.create_automation``: a request in words -> a Home Assistant automation, saved and loaded.

The entry's model (options flow, section "agent") drafts an SMH rule with the automation
synthesizer, which grounds every device, attribute, value and cron expression in the entry's
home and sends the exact problems back to the model. The rule is then written in HA's own
automation syntax (:mod:`smh_core.ha.automation_export`) over the entities this entry created,
checked with HA's automation config validation, and only then saved to ``automations.yaml``
(the file HA's automation editor writes) and loaded with ``automation.reload``. Any failure
raises ``ServiceValidationError`` and leaves ``automations.yaml`` as it was.

It never leaves an orphan entity (an ``unavailable`` automation whose configuration is gone):
a missing ``automations.yaml`` is refused instead of written anew (HA creates the file on
first setup and cannot even start with an include of a missing one, so a missing file is a
configuration half-way through a change; a file of SMH's own there would be overwritten
when the user's comes back, orphaning its automation), and when loading fails the file is put
back and the registry entry this call created, if any, is removed.

An admin service: it writes HA's configuration (an automation runs with no user's permissions
behind it), so a non-admin's call raises ``Unauthorized`` (see :mod:`custom_components.smh`).

A rule that would make a high-risk change (unlock a door at night, start the oven, ...) needs
the same consent as making it now: the request's own words must ask for it (SMH's action guard,
:mod:`smh_core.agent.safety`), or the caller confirms it. Then the first call saves nothing and
raises ``needs_confirmation`` with the guard's question and a confirmation code bound to that
exact rule; the rule is held for ten minutes, and a second call with ``confirm: <code>`` (and
the same text) saves that very rule, without asking the model again. A caller that asks for the
action's response (``return_response``; REST: ``POST /api/services/smh/create_automation?return_response``)
gets the question and the code in it instead (``saved: false``, ``confirmation``), because Home
Assistant's REST API answers a refused call with a bare status: HTTP 400 with the body
``400: Bad Request`` for every ``vol.Invalid`` (a :class:`.refusal.Refusal`) on 2026.2.3 and
later, with neither the message nor its placeholders, so a REST caller could not read the code.

A value a rich entity covers (a light's ``state``, a climate's setpoint ...) lives in that
entity's ``homeenv`` attribute; the entity map points there, and the exporter turns triggers
and conditions on it into template ones.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import voluptuous as vol
from homeassistant.components.automation.config import async_validate_config_item
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import entity_registry as er
from homeassistant.util.file import write_utf8_file_atomic
from homeassistant.util.yaml import dump, load_yaml

from smh_core.agent.safety import ActionGuard
from smh_core.agent.synthesizer import AutomationSynthesizer
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.ha.automation_export import ExportError, to_ha_automation
from smh_core.homeenv.rules import Rule
from smh_core.llm.errors import InfraError

from .agent_client import async_llm_client
from .const import SERVICE_CREATE_AUTOMATION
from .refusal import Refusal, refusal
from .runtime import SmhConfigEntry

ATTR_ENTRY = "config_entry_id"
AUTOMATIONS_FILE = "automations.yaml"
CREATE_AUTOMATION_SCHEMA = vol.Schema(
    {
        vol.Optional(ATTR_ENTRY): cv.string,
        vol.Required("text"): vol.All(cv.string, vol.Length(min=1, max=2000)),
        vol.Optional("save", default=True): cv.boolean,
        vol.Optional("max_tries", default=3): vol.All(vol.Coerce(int), vol.Range(min=1, max=10)),
        vol.Optional("confirm"): vol.All(cv.string, vol.Length(min=1, max=64)),
    }
)
SCHEMAS = {SERVICE_CREATE_AUTOMATION: CREATE_AUTOMATION_SCHEMA}
HELD_SECONDS = 600
"""How long a rule waiting for the caller's confirmation is kept."""


@dataclass
class _Held:
    rule: Rule
    text: str
    until: float


def confirmation_code(entry_id: str, rule: Rule) -> str:
    """A code bound to one drafted rule: confirming it saves exactly that rule."""
    body = json.dumps(rule.model_dump(mode="json"), sort_keys=True)
    return hashlib.sha256(f"{entry_id}\n{body}".encode()).hexdigest()[:10]


class _Unconfirmed(Exception):
    """The drafted rule has a high-risk action the request does not ask for: it is held under
    ``code`` until the caller confirms it (the guard's ``question`` is what to ask the user)."""

    def __init__(self, automation_id: str, question: str, code: str) -> None:
        super().__init__(question)
        self.automation_id = automation_id
        self.question = question
        self.code = code


def _error(key: str, **placeholders: str) -> Refusal:
    return refusal(key, **placeholders)


def automation_id(entry_id: str, text: str) -> str:
    """A stable id: asking for the same automation again replaces it instead of adding a copy."""
    return "smh_" + hashlib.sha256(f"{entry_id}\n{text.strip()}".encode()).hexdigest()[:16]


def _save(path: Path, config: dict[str, Any]) -> str:
    """Insert or replace ``config`` (by id) in the automations file (blocking: an executor job).

    Returns the file's previous text so a failed load can undo it."""
    if not path.is_file():
        raise FileNotFoundError(path)
    before = path.read_text(encoding="utf-8")
    current: Any = load_yaml(str(path))
    if current is None:
        current = []
    if not isinstance(current, list):
        raise HomeAssistantError(f"{path} does not hold a list of automations; not touching it")
    items = [
        dict(item)
        for item in current
        if not (isinstance(item, dict) and item.get("id") == config["id"])
    ]
    items.append(config)
    write_utf8_file_atomic(str(path), dump(items))
    return before


def _restore(path: Path, before: str) -> None:
    write_utf8_file_atomic(str(path), before)


def _loaded_entity(hass: HomeAssistant, automation: str) -> str | None:
    """The automation entity HA made of the saved config (automations expose their ``id``)."""
    return next(
        (
            s.entity_id
            for s in hass.states.async_all("automation")
            if s.attributes.get("id") == automation
        ),
        None,
    )


async def _undo(
    hass: HomeAssistant, path: Path, before: str, automation: str, known: str | None
) -> None:
    """Put the automations file back, reload it, and remove the registry entry of the
    automation if this call created it: nothing of the failed call is left behind."""
    await hass.async_add_executor_job(_restore, path, before)
    with contextlib.suppress(
        HomeAssistantError
    ):  # a configuration.yaml that does not load is the user's
        await hass.services.async_call("automation", "reload", blocking=True)
    registry = er.async_get(hass)
    made = registry.async_get_entity_id("automation", "automation", automation)
    if made is not None and known is None:
        registry.async_remove(made)


def handlers(
    hass: HomeAssistant, entry_for: Callable[[ServiceCall], SmhConfigEntry]
) -> dict[str, Callable[[ServiceCall], Awaitable[ServiceResponse]]]:
    """``smh.create_automation``, registered by :mod:`.services` under :data:`SCHEMAS`."""
    held: dict[str, _Held] = {}  # confirmation code -> the drafted rule waiting for it

    async def draft(
        call: ServiceCall, entry: SmhConfigEntry, backend: EmbeddedBackend
    ) -> tuple[Rule, dict[str, Any]]:
        """The rule to save: a held one the caller confirms now, else a new draft whose
        high-risk actions the request asks for (else it is held and the caller is asked)."""
        text = call.data["text"]
        now = time.monotonic()
        for code in [c for c, h in held.items() if h.until < now]:
            del held[code]
        if "confirm" in call.data:
            item = held.get(call.data["confirm"])
            if item is None or item.text != text:
                raise _error("not_confirmable", code=call.data["confirm"])
            del held[call.data["confirm"]]  # used once
            return item.rule, {"tries": 0, "usage": {}}
        llm = await async_llm_client(hass, {**entry.data, **entry.options})
        if llm is None:
            raise _error("no_model")
        try:
            result = await AutomationSynthesizer(llm, max_tries=call.data["max_tries"]).synthesize(
                text, backend, guard=ActionGuard([text], language=hass.config.language)
            )
        except InfraError as err:
            raise _error("model_failed", message=str(err)) from err
        if result.rule is None:
            raise _error("no_rule", message=result.failure)
        rule = result.rule.model_copy(update={"id": automation_id(entry.entry_id, text)})
        if result.consent is not None:
            code = confirmation_code(entry.entry_id, rule)
            held[code] = _Held(rule, text, now + HELD_SECONDS)
            prompt = result.consent["error"].get("prompt") or result.consent["error"]["message"]
            raise _Unconfirmed(rule.id, prompt, code)
        return rule, {"tries": result.tries, "usage": result.usage.to_dict()}

    async def create_automation(call: ServiceCall) -> ServiceResponse:
        entry = entry_for(call)
        runtime = entry.runtime_data
        backend = EmbeddedBackend(runtime.engine, sim=runtime.clock.sim if runtime.clock else None)
        try:
            rule, made = await draft(call, entry, backend)
        except _Unconfirmed as held_rule:
            refused = _error("needs_confirmation", prompt=held_rule.question, code=held_rule.code)
            if not call.return_response:
                raise refused from None
            # the answer a REST caller can read (see the module's docstring): nothing saved, the
            # question to put to the user and the code that confirms exactly the held rule
            return {
                "automation_id": held_rule.automation_id,
                "saved": False,
                "entity_id": None,
                "needs_confirmation": True,
                "message": str(refused),
                "confirmation": {
                    "question": held_rule.question,
                    "code": held_rule.code,
                    "valid_seconds": HELD_SECONDS,
                },
            }
        try:
            config = to_ha_automation(rule, runtime.entity_map(hass))
        except ExportError as err:
            raise _error("not_exportable", message=str(err)) from err
        checked = await async_validate_config_item(hass, config["id"], config)
        if checked is None or checked.validation_status != "ok":
            reason = getattr(checked, "validation_error", None) or "rejected"
            raise _error("invalid_automation", message=str(reason))
        response: dict[str, Any] = {
            "automation_id": config["id"],
            "config": config,
            "saved": False,
            "entity_id": None,
            **made,
        }
        if not call.data["save"]:
            return response
        if not hass.services.has_service("automation", "reload"):
            raise _error("no_automations")
        path = Path(hass.config.path(AUTOMATIONS_FILE))
        registry = er.async_get(hass)
        known = registry.async_get_entity_id("automation", "automation", config["id"])
        try:
            before = await hass.async_add_executor_job(_save, path, config)
        except FileNotFoundError as err:
            raise _error("no_automations_file", file=str(path)) from err
        try:
            await hass.services.async_call("automation", "reload", blocking=True)
            response["entity_id"] = _loaded_entity(hass, config["id"])
        except HomeAssistantError as err:  # configuration.yaml no longer loads, for instance
            await _undo(hass, path, before, config["id"], known)
            raise _error("not_loaded", file=str(path)) from err
        if response["entity_id"] is None:  # configuration.yaml does not include automations.yaml
            await _undo(hass, path, before, config["id"], known)
            raise _error("not_loaded", file=str(path))
        response["saved"] = True
        return response

    return {SERVICE_CREATE_AUTOMATION: create_automation}
