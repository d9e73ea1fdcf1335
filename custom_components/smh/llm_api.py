"""SMH's home tools as an HA ``llm.API`` named ``smh``.

HA's own LLM agents (OpenAI, Ollama, Anthropic, ...) can pick "SMH simulated home" as their
API and then use the same tools the SMH agent uses — room and device lists, device specs with
argument schemas, validated control, room climate, the clock, schedules and automations —
on the loaded SMH home, through the engine's validation. The tool set and its argument
models come from :mod:`smh_core.agent.tools`, so both agents see one contract.

The tools act for the user the agent talks to, as HA's own Assist API does
(:class:`UserHome`):

- exposure: only what the user exposed to Assist (Settings > Voice assistants > Expose; the
  ``conversation`` assistant's setting, one rule with SMH's own agent: :mod:`.exposure`) is
  there. An attribute is visible when the entity that shows it in HA is exposed; a device with
  no visible attribute is answered exactly like an unknown one (not listed, "no device"); a
  visible device shows only its visible attributes, and offers only the services that change
  nothing but those (:meth:`.SmhRuntime.writes`). Scheduled calls and stored automations are
  held to the same rules, so they cannot reach around it.
- context: calls run with the caller's context (``llm_context.context``) through
  :meth:`.SmhRuntime.async_execute`, so HA's entity permissions apply (a read-only user cannot
  control anything) and HA's state changes and logbook name the user.
- consent: every state-changing call passes SMH's action guard (:mod:`smh_core.agent.safety`).
  The user's own words are the user turns of HA's chat log the tool runs in (the agent's
  conversation); a high-risk call they do not ask for is refused with a question for the agent
  to ask ("Unlock “Front Door”? Say yes to confirm."), and only the user's very next turn, after
  the agent asked it, can confirm that call. A call outside a conversation (no chat log: MCP,
  AI tasks) has no user to ask, so a high-risk one is refused.
- said versus did: a failed call's result carries a ``note`` telling the agent that nothing
  happened and not to say it did (:func:`smh_core.agent.tools.failed_call_note`): HA's own
  agents get the check SMH's agent makes on its own reply (issue 38), as far as a tool
  result can give it.

HA always loads its ``homeassistant`` integration, which keeps the exposure settings; an
instance without it (a bare test instance) has no such settings, and everything is visible
(:func:`.exposure.exposed_attributes`).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import voluptuous as vol
from homeassistant.components.conversation import AssistantContent, ChatLog, UserContent
from homeassistant.components.conversation.chat_log import current_chat_log
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import Unauthorized
from homeassistant.helpers import llm
from pydantic import BaseModel

from smh_core.agent.consent import fold
from smh_core.agent.safety import ActionGuard, AsyncGuardedBackend
from smh_core.agent.tools import TOOLS, dispatch_async, failed_call_note
from smh_core.agent.tools import Tool as SmhToolSpec
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.homeenv.engine import ENV_PREFIX
from smh_core.homeenv.errors import ErrorCode, ServiceError
from smh_core.sim.simulator import SimulationError

from .compat import tool_result
from .const import DOMAIN
from .exposure import exposed_attributes
from .ha_backend import error_result, not_found_result
from .room import room_did

if TYPE_CHECKING:
    from smh_core.homeenv.engine import HomeEngine

    from .runtime import SmhRuntime

LOOP_ONLY = {"ask_user", "finish"}
"""Tools the SMH loop handles itself; an HA agent talks to the user on its own."""
PROMPT = (
    "You control a simulated smart home through the SMH tools. Read a device's spec "
    "(get_device_spec) before controlling it: locators name services such as turn_on or "
    "fan.set_speed_level, and each argument has a type, range and options. A rejected call "
    "changes nothing and says which field was wrong and what is allowed. A high-risk call "
    "(unlocking, disarming, an oven, very hot water or heating) the user did not ask for "
    "comes back as needs_confirmation with a question: ask the user exactly that question, "
    "and make the same call again only after they say yes."
)


def _vol_type(annotation: Any) -> Any:
    """A voluptuous validator HA can turn into JSON schema for a pydantic field type."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _vol_type(inner[0]) if len(inner) == 1 else object
    if origin is list:
        (item,) = typing.get_args(annotation) or (object,)
        return [_vol_type(item)]
    if origin is dict or annotation is dict:
        return dict
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return dict
    if annotation in (str, int, bool):
        return annotation
    if annotation is float:
        return vol.Coerce(float)
    return object


def parameters(spec: SmhToolSpec) -> vol.Schema:
    fields = {}
    for name, f in spec.args.model_fields.items():
        marker = vol.Required if f.is_required() else vol.Optional
        fields[marker(name, description=f.description or name)] = _vol_type(f.annotation)
    return vol.Schema(fields)


class UserHome:
    """The entry's home as one HA user sees it through an assistant (see the module's docstring):
    the embedded backend, narrowed to what is exposed, acting with the user's context. An
    :class:`~smh_core.agent.backend.AsyncHomeBackend`, as :class:`.ha_backend.HaBackend` is (the
    permission check looks the user up), so callers await every method alike."""

    def __init__(self, hass: HomeAssistant, runtime: SmhRuntime, context: Context | None) -> None:
        self.home = EmbeddedBackend(
            runtime.engine, sim=runtime.clock.sim if runtime.clock is not None else None
        )
        self.hass = hass
        self.runtime = runtime
        self.context = context
        self.exposed = exposed_attributes(hass, runtime.entity_ids(hass))

    @property
    def engine(self) -> HomeEngine:
        return self.runtime.engine

    # ------------------------------------------------------------------ what the user may see
    def _attributes(self, did: str) -> set[str]:
        """The visible attributes of a device (or of a room's climate, ``@room``)."""
        if self.exposed is not None:
            return self.exposed.get(did, set())
        if did in self.engine.device_ids():
            return set(self.engine.status(did))
        if did.startswith(ENV_PREFIX):
            return set(self.engine.environment(did.removeprefix(ENV_PREFIX)) or ())
        return set()

    def _callable(self, did: str) -> list[str]:
        """The device's visible services: those that change nothing but visible attributes."""
        visible = self._attributes(did)
        return [s for s in self.engine.services(did) if self.runtime.writes(did, s) <= visible]

    def _refuse(self, did: str, locator: str) -> dict[str, Any] | None:
        """Why the user may not make this call (as if the device or service did not exist)."""
        visible = self._attributes(did)
        if not visible or did not in self.engine.device_ids():
            return not_found_result(did)
        services = self._callable(did)
        if locator in services or locator in visible:
            return None
        writable = sorted(
            loc
            for loc, spec in self.engine.spec(did)["attributes"].items()
            if loc in visible and spec.get("writable")
        )
        return {
            "ok": False,
            "error": ServiceError(
                ErrorCode.SERVICE_NOT_FOUND,
                f"device {did} has no service {locator!r}",
                did=did,
                locator=locator,
                allowed=sorted(services) + writable,
            ).to_dict(),
        }

    async def _refuse_action(self, did: str, locator: str, where: str) -> dict[str, Any] | None:
        """:meth:`_refuse`, then HA's permission check, for a call to be made later (a schedule
        or an automation runs without the user, so the user's rights are checked now)."""
        refused = self._refuse(did, locator)
        if refused is None:
            try:
                await self.runtime.async_check_control(self.hass, did, locator, self.context)
            except Unauthorized:
                refused = error_result(
                    "unauthorized",
                    f"this user may not control {did} ({locator})",
                    did=did,
                    locator=locator,
                )
        if refused is not None:
            refused["error"]["field"] = where
        return refused

    def _sees_all(self, item: dict[str, Any]) -> bool:
        """Whether a stored rule or schedule reads and calls only what the user may see."""
        reads = [
            r
            for r in (*item.get("triggers", ()), *item.get("conditions", ()))
            if isinstance(r, dict) and "did" in r
        ]
        calls = [a for a in item.get("actions", ()) if isinstance(a, dict) and "did" in a]
        return all(r.get("locator") in self._attributes(r["did"]) for r in reads) and all(
            self._refuse(a["did"], a.get("locator", "")) is None for a in calls
        )

    # ------------------------------------------------------------------ reads
    async def list_rooms(self) -> list[dict[str, Any]]:
        return self.home.list_rooms()

    async def now(self) -> str:
        return self.home.now()

    async def list_devices(
        self, room: str | None = None, category: str | None = None, tags: list[str] | None = None
    ) -> list[dict[str, Any]]:
        return [
            d for d in self.home.list_devices(room, category, tags) if self._attributes(d["did"])
        ]

    def _exposed_read(
        self, did: str, read: Callable[[str], dict[str, Any]]
    ) -> tuple[set[str], dict[str, Any]]:
        """The attributes of ``did`` this user's agent may see, and ``read(did)``; a device with
        none is not found (not "forbidden": its existence is not the agent's to know)."""
        visible = self._attributes(did)
        return (visible, read(did)) if visible else (visible, not_found_result(did))

    async def device_status(self, did: str) -> dict[str, Any]:
        visible, out = self._exposed_read(did, self.home.device_status)
        if visible and out.get("ok"):
            out["status"] = {k: v for k, v in out["status"].items() if k in visible}
        return out

    async def device_spec(self, did: str) -> dict[str, Any]:
        visible, out = self._exposed_read(did, self.home.device_spec)
        if visible and out.get("ok"):
            services = set(self._callable(did))
            out["attributes"] = {k: v for k, v in out["attributes"].items() if k in visible}
            out["services"] = {k: v for k, v in out["services"].items() if k in services}
        return out

    async def room_environment(self, room: str) -> dict[str, Any]:
        out = self.home.room_environment(room)
        if out.get("ok"):
            visible = self._attributes(room_did(room))
            if not visible:
                return error_result(
                    ErrorCode.SERVICE_NOT_FOUND, f"room {room!r} has no exposed climate sensors"
                )
            out["environment"] = {k: v for k, v in out["environment"].items() if k in visible}
        return out

    async def list_schedules(self) -> list[dict[str, Any]]:
        return [s for s in self.home.list_schedules() if self._sees_all(s)]

    async def list_automations(self) -> list[dict[str, Any]]:
        return [r for r in self.home.list_automations() if self._sees_all(r)]

    # ------------------------------------------------------------------ control
    async def execute(self, did: str, locator: str, arguments: dict[str, Any]) -> dict[str, Any]:
        refused = self._refuse(did, locator)
        if refused is not None:
            return refused
        try:
            result = await self.runtime.async_execute(
                self.hass, did, locator, arguments, self.context
            )
        except Unauthorized:
            return error_result(
                "unauthorized",
                f"this user may not control {did} ({locator})",
                did=did,
                locator=locator,
            )
        except SimulationError as err:  # the home's automations looped on the change
            return error_result("simulation_error", str(err), did=did, locator=locator)
        out = result.to_dict()
        error = out.get("error", {})
        if error.get("code") == ErrorCode.NOT_WRITABLE:  # the engine's list names every service
            error["allowed"] = sorted(self._callable(did))
        return out

    async def schedule(self, at: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        for i, action in enumerate(actions):
            refused = await self._refuse_action(action["did"], action["locator"], f"actions.{i}")
            if refused is not None:
                return refused
        return self.home.schedule(at, actions)

    async def cancel_schedule(self, schedule_id: str) -> dict[str, Any]:
        if not any(s.get("id") == schedule_id for s in await self.list_schedules()):
            return error_result(
                ErrorCode.BAD_ARGUMENTS, f"no pending schedule {schedule_id!r}", field="schedule_id"
            )
        return self.home.cancel_schedule(schedule_id)

    async def create_automation(self, rule: dict[str, Any]) -> dict[str, Any]:
        for part in ("triggers", "conditions"):
            for i, ref in enumerate(rule.get(part) or ()):
                if "did" in ref and ref.get("locator") not in self._attributes(ref["did"]):
                    return error_result(
                        ErrorCode.DEVICE_NOT_FOUND,
                        f"no device attribute {ref['did']}/{ref.get('locator')}",
                        did=ref["did"],
                        field=f"{part}.{i}",
                    )
        for i, action in enumerate(rule.get("actions") or ()):
            refused = await self._refuse_action(action["did"], action["locator"], f"actions.{i}")
            if refused is not None:
                return refused
        return self.home.create_automation(rule)

    async def delete_automation(self, rule_id: str) -> dict[str, Any]:
        if not any(r.get("id") == rule_id for r in await self.list_automations()):
            return error_result(
                ErrorCode.BAD_ARGUMENTS, f"no automation {rule_id!r}", field="automation_id"
            )
        return self.home.delete_automation(rule_id)


@dataclass
class _Asked:
    """A guard whose question waits for the user: and how many user turns the chat log had when
    the question was raised (only the next one may answer)."""

    guard: ActionGuard
    user_turns: int


class ConsentBook:
    """The action guards of the conversations the ``smh`` API's tools run in: a conversation's
    guard hears its user turns, and a question it raised is answered only by the user turn right
    after the agent asked it."""

    def __init__(self) -> None:
        self.asked: dict[str, _Asked] = {}

    def guard(self, chat_log: ChatLog | None, language: str | None = None) -> ActionGuard:
        """The conversation's guard, asking in ``language`` (the caller's, HA's code)."""
        if chat_log is None:
            # no conversation: no user words, no one to confirm
            return ActionGuard([], language=language)
        users = [c.content for c in chat_log.content if isinstance(c, UserContent)]
        held = self.asked.get(chat_log.conversation_id)
        if held is None:
            return ActionGuard(users, language=language)
        if len(users) == held.user_turns:
            return held.guard  # the same turn: still waiting
        del self.asked[chat_log.conversation_id]
        if len(users) == held.user_turns + 1 and _agent_asked(chat_log, held.guard):
            held.guard.answer(users[-1])
            held.guard.hear(users[-1])
            return held.guard
        return ActionGuard(users, language=language)

    def keep(self, chat_log: ChatLog | None, guard: ActionGuard) -> None:
        """Remember a guard that raised a question, until the user's next turn."""
        if chat_log is not None and guard.pending:
            turns = sum(isinstance(c, UserContent) for c in chat_log.content)
            self.asked[chat_log.conversation_id] = _Asked(guard, turns)


def _agent_asked(chat_log: ChatLog, guard: ActionGuard) -> bool:
    """Whether the agent's last words before the user's latest turn put the guard's question."""
    contents = chat_log.content
    last_user = max(i for i, c in enumerate(contents) if isinstance(c, UserContent))
    said = [
        fold(c.content or "")
        for c in contents[:last_user]
        if isinstance(c, AssistantContent) and c.content
    ]
    return bool(said) and all(fold(p.question or p.prompt) in said[-1] for p in guard.pending)


class SmhTool(llm.Tool):
    integration = DOMAIN  # HA 2026.10+ asks every tool which integration provides it

    def __init__(self, spec: SmhToolSpec, consents: ConsentBook) -> None:
        self.name = spec.name
        self.description = spec.description
        self.parameters = parameters(spec)
        self.consents = consents

    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> Any:
        """The tool's JSON result, as the running HA wants it back (:func:`.compat.tool_result`)."""
        entries = hass.config_entries.async_loaded_entries(DOMAIN)
        if len(entries) != 1:
            reason = "no SMH home is loaded" if not entries else "several SMH homes are loaded"
            return tool_result({"ok": False, "error": {"code": "no_home", "message": reason}})
        chat_log = current_chat_log.get()
        guard = self.consents.guard(chat_log, llm_context.language)
        home = AsyncGuardedBackend(
            UserHome(hass, entries[0].runtime_data, llm_context.context), guard
        )
        result = await dispatch_async(home, self.name, dict(tool_input.tool_args))
        self.consents.keep(chat_log, guard)
        note = failed_call_note(result)
        if note is not None:
            result = {**result, "note": note}
        return tool_result(result if isinstance(result, dict) else {"result": result})


class SmhAPI(llm.API):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._consents = ConsentBook()

    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        tools: list[llm.Tool] = [
            SmhTool(spec, self._consents) for name, spec in TOOLS.items() if name not in LOOP_ONLY
        ]
        return llm.APIInstance(api=self, api_prompt=PROMPT, llm_context=llm_context, tools=tools)
