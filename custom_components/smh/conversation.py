"""SMH's own agent as a Home Assistant conversation agent (Assist, voice pipelines).

One entity per entry, created only when the options name a model (see :mod:`.config_flow`):
without a model there is nothing to answer with, and an agent that can only say "configure
me" would still show up in every pipeline's agent picker. Each turn runs the EIA tool loop
(or one DR call) with tools bound to, by the ``tools`` option:

- ``ha`` (default): Home Assistant itself (:class:`.ha_backend.HaBackend`), so the agent sees
  and controls every entity exposed to Assist, real or simulated, and nothing else, with the
  HA user's context (HA's permission checks apply);
- ``home``: the entry's engine through the embedded backend, the benchmark's own contract
  (engine device ids and locators), with the simulated clock when the entry has one.

Memory (``remember`` / ``recall_memory``) is kept per HA user in either case.

History is Home Assistant's own chat log of the conversation id (kept for the chat session,
like every HA agent): earlier user turns and answers go back to the model as text, and the
agent's tool calls are logged as external calls for the Assist debug view. Endpoint and
model failures, and any other failure of a turn, become an error response (never an HTTP 500
from HA's conversation API); the failed turn is not kept in the history.

Nothing of a turn reads a file or imports a module on the event loop (HA's "Detected blocking
call"): the prompt files and the safety policy are read, and the ``openai`` and ``pydantic``
modules a turn needs are imported, in the executor when the entity is set up (:func:`_warm_up`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.const import MATCH_ALL
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import intent, llm
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from smh_core.agent.backend import AsyncAdapter, AsyncHomeBackend
from smh_core.agent.dr import DRAgent, DROutput
from smh_core.agent.eia import EIAAgent, Trace
from smh_core.agent.memory_tools import UserMemory, memory_tool_schemas
from smh_core.agent.safety import ActionGuard, AsyncGuardedBackend, Pending, load_policy
from smh_core.agent.tools import tool_schemas
from smh_core.backends.embedded import EmbeddedBackend
from smh_core.llm.capabilities import forget_capabilities
from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.llm.errors import InfraError
from smh_core.llm.prompts import load_prompt
from smh_core.memory.store import MemoryBank

from .agent_client import agent_settings, async_openai_client, llm_config
from .compat import tool_result_content
from .const import (
    AGENT_DR,
    CONF_ACTION_GUARD,
    CONF_AGENT_MODE,
    CONF_CHECK_REPLIES,
    CONF_TOOL_BUDGET,
    CONF_TOOLS,
    DEFAULT_ACTION_GUARD,
    DEFAULT_AGENT_MODE,
    DEFAULT_CHECK_REPLIES,
    DEFAULT_TOOL_BUDGET,
    DEFAULT_TOOLS,
    TOOLS_HOME,
)
from .ha_backend import HaBackend, HaSchedules
from .runtime import TRACES_KEPT, SmhConfigEntry, agent_unique_id

if TYPE_CHECKING:
    import openai  # imported off the loop by agent_client when a model is configured

_LOGGER = logging.getLogger(__name__)


async def async_setup_entry(
    hass: HomeAssistant, entry: SmhConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    settings = agent_settings({**entry.data, **entry.options})
    config = llm_config(settings)
    if config is None:
        return
    forget_capabilities(
        config.endpoint(), config.model
    )  # set up anew: the server there may have changed
    client = await async_openai_client(hass, config)
    await hass.async_add_executor_job(_warm_up, client)
    async_add_entities(
        [
            SmhConversationEntity(
                entry,
                config,
                client,
                settings.get(CONF_AGENT_MODE, DEFAULT_AGENT_MODE),
                int(settings.get(CONF_TOOL_BUDGET, DEFAULT_TOOL_BUDGET)),
                settings.get(CONF_TOOLS, DEFAULT_TOOLS),
                bool(settings.get(CONF_ACTION_GUARD, DEFAULT_ACTION_GUARD)),
                bool(settings.get(CONF_CHECK_REPLIES, DEFAULT_CHECK_REPLIES)),
            )
        ]
    )


def _warm_up(client: openai.AsyncOpenAI) -> None:
    """In the executor, before the first turn: what a turn would otherwise do on the event loop.

    Every prompt file and the safety policy are read into their caches (both ``functools.cache``);
    the tool and plan schemas are built once, because pydantic imports its JSON-schema helpers on
    first use, and the client's chat resource is touched, because ``openai`` imports its resource
    modules on first use (both with ``importlib``)."""
    for prompt in files("smh_core.llm.prompts").iterdir():
        if prompt.name.endswith(".md"):
            load_prompt(prompt.name.removesuffix(".md"))
    load_policy()
    tool_schemas()
    memory_tool_schemas()
    DROutput.model_json_schema()
    _ = client.chat.completions


class _BadReply(Exception):
    """The model answered, but with nothing the agent can use."""


class SmhConversationEntity(conversation.ConversationEntity):
    """Answers in any language the model speaks; controls HA's exposed entities or the entry's
    simulated home (option ``tools``)."""

    _attr_supported_features = conversation.ConversationEntityFeature.CONTROL

    def __init__(
        self,
        entry: SmhConfigEntry,
        config: LLMConfig,
        client: openai.AsyncOpenAI,
        mode: str,
        budget: int,
        tools: str = DEFAULT_TOOLS,
        guard: bool = DEFAULT_ACTION_GUARD,
        check_replies: bool = DEFAULT_CHECK_REPLIES,
    ) -> None:
        self.entry = entry
        self.guard = guard
        self.check_replies = check_replies
        self.config = config
        self.client = client
        self.mode = mode
        self.budget = budget
        self.tools = tools
        self._schedules = HaSchedules()  # the agent's timed calls on HA (tools "ha"), until unload
        self._bank: MemoryBank | None = None  # opened on first use, closed with the entity
        self._attr_unique_id = agent_unique_id(entry.entry_id)
        self._attr_name = entry.title

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return MATCH_ALL

    async def _backend(
        self,
        context: Context,
        user_words: list[str],
        guard: ActionGuard | None = None,
        language: str | None = None,
    ) -> tuple[AsyncHomeBackend, ActionGuard | None]:
        """This turn's backend and its action guard; on HA, service calls carry the user's
        ``context``. With the guard on (the default), a high-risk call needs the user's own words
        to ask for it, or the user's yes on the next turn (``guard``: the one that asked); the
        guard asks in the turn's ``language``."""
        if self.tools == TOOLS_HOME:
            runtime = self.entry.runtime_data
            backend: AsyncHomeBackend = AsyncAdapter(
                EmbeddedBackend(runtime.engine, sim=runtime.clock.sim if runtime.clock else None)
            )
        else:
            ha = HaBackend(self.hass, context, self._schedules)
            await ha.async_prepare()
            backend = ha
        if not self.guard:
            return backend, None
        guard = guard or ActionGuard(user_words, language=language)
        return AsyncGuardedBackend(backend, guard), guard

    async def _async_handle_message(
        self, user_input: conversation.ConversationInput, chat_log: conversation.ChatLog
    ) -> conversation.ConversationResult:
        history = _history(chat_log.content[:-1])  # the last content is this turn's user text
        llm_client = LLMClient(self.config, self.client)
        context = user_input.extra_system_prompt or ""
        # only this turn can answer the question the last one asked
        awaiting = self.entry.runtime_data.awaiting_confirmation.pop(chat_log.conversation_id, None)
        try:
            # the user's own words: this turn and their earlier turns, nothing the model read
            words = [m["content"] for m in history if m["role"] == "user"] + [user_input.text]
            confirmed = awaiting.answer(user_input.text) if awaiting is not None else []
            backend, guard = await self._backend(
                user_input.context, words, awaiting if confirmed else None, user_input.language
            )
            # tools "home" act on the engine itself: hold the entry's lock for the turn, so an
            # smh.advance_time slice (in the executor) never runs beside the agent's calls
            lock = (
                self.entry.runtime_data.lock
                if self.tools == TOOLS_HOME
                else contextlib.nullcontext()
            )
            async with lock:
                before = self._states() if self.check_replies else None
                trace_calls: list[dict[str, Any]] = []
                if confirmed:
                    answer = await _run_confirmed(backend, confirmed)
                elif self.mode == AGENT_DR:
                    answer = await self._run_dr(
                        llm_client,
                        backend,
                        user_input.text,
                        history,
                        context,
                        chat_log.conversation_id,
                    )
                else:
                    memory = UserMemory(
                        await self._memory_bank(), user=user_input.context.user_id or "default"
                    )
                    started = time.monotonic()
                    trace = await EIAAgent(
                        llm_client, backend, budget=self.budget, memory=memory
                    ).run(user_input.text, history, context)
                    self._keep_trace(chat_log.conversation_id, trace, time.monotonic() - started)
                    answer = _eia_answer(trace, self.budget)
                    trace_calls = trace.steps
                    self._log_tool_calls(chat_log, trace)
                if before is not None:
                    prompts = [p.prompt for p in guard.pending] if guard is not None else []
                    answer = self._checked(answer, before, trace_calls, prompts)
        except InfraError as err:
            _LOGGER.warning("SMH agent: the model endpoint failed: %s", err)
            return _error(
                user_input, chat_log, f"The language model could not be reached or failed: {err}"
            )
        except _BadReply as err:
            return _error(user_input, chat_log, str(err))
        except (
            Exception
        ) as err:  # any other failure of the turn: an answer that says so, never HTTP 500
            _LOGGER.exception("SMH agent: the turn failed")
            return _error(
                user_input, chat_log, f"SMH's agent failed on this request ({type(err).__name__})."
            )
        asking = guard is not None and bool(guard.pending)
        if asking:
            # a high-risk call waits for the user's yes: ask the guard's question, keep listening
            assert guard is not None
            self.entry.runtime_data.keep_awaiting(chat_log.conversation_id, guard)
            answer = " ".join(
                [answer, *(p.prompt for p in guard.pending if p.prompt not in answer)]
            ).strip()
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=self.entity_id, content=answer)
        )
        result = conversation.async_get_result_from_chat_log(user_input, chat_log)
        return replace(result, continue_conversation=True) if asking else result

    def _states(self) -> dict[str, dict[str, Any]]:
        """What the reply check reads: the engine's devices (tools ``home``) or the state of
        every entity exposed to Assist (HA's tools act on those, SMH's or not)."""
        if self.tools == TOOLS_HOME:
            return self.entry.runtime_data.engine.snapshot().to_dict()
        return {
            s.entity_id: {"state": s.state, **s.attributes}
            for s in self.hass.states.async_all()
            if async_should_expose(self.hass, conversation.DOMAIN, s.entity_id)
        }

    def _listing(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The devices a reply's words resolve to, as the checker reads them: the engine's, or
        the exposed entities with their names and areas."""
        if self.tools == TOOLS_HOME:
            backend = EmbeddedBackend(self.entry.runtime_data.engine)
            return backend.list_devices(), backend.list_rooms()
        entities, devices = er.async_get(self.hass), dr.async_get(self.hass)
        listing = []
        for s in self.hass.states.async_all():
            if not async_should_expose(self.hass, conversation.DOMAIN, s.entity_id):
                continue
            entry = entities.async_get(s.entity_id)
            area = entry.area_id if entry else None
            if area is None and entry is not None and entry.device_id:
                device = devices.async_get(entry.device_id)
                area = device.area_id if device else None
            listing.append(
                {
                    "did": s.entity_id,
                    "name": s.attributes.get("friendly_name") or s.entity_id,
                    "room": area,
                    "category": s.domain,
                    "tags": [],
                }
            )
        rooms = [
            {"id": a.id, "name": a.name, "type": ""}
            for a in ar.async_get(self.hass).async_list_areas()
        ]
        return listing, rooms

    def _checked(
        self,
        answer: str,
        before: dict[str, dict[str, Any]],
        steps: list[dict[str, Any]],
        prompts: list[str],
    ) -> str:
        """Said versus did (issue 38): the reply with a correction appended when the turn
        contradicts a claim it makes (a device said to be off that is still on, a "Done" after
        nothing changed), read against the states before and after the turn. A call that went
        through counts as acted on even when the device was already so."""
        from smh_core.bench.claims import (
            HA_SCALES,
            Turn,
            call_effects,
            claims_in,
            correction,
            state_changes,
        )
        from smh_core.bench.world import room_climate

        after = self._states()
        listing = functools.cache(self._listing)  # read only if a claim names a device
        acted, other = call_effects(steps)
        home = self.tools == TOOLS_HOME
        turn = Turn(
            [
                c
                for c in state_changes(before, after)
                if not home or not room_climate(c.did, c.locator)
            ],
            after,
            lambda: listing()[0],
            lambda: listing()[1],
            other,
            scales={} if home else HA_SCALES,
            acted=acted,
            models=self.entry.runtime_data.engine.device if home else None,
        )
        # the guard's question stays last (the user answers it), and is no claim
        cut = min((answer.find(q) for q in prompts if q in answer), default=len(answer))
        said, asked = answer[:cut].rstrip(), answer[cut:]
        note = correction(claims_in(said, turn), turn)
        if not note:
            return answer
        _LOGGER.info("SMH agent: reply corrected (%s): %s", said, note)
        return " ".join(part for part in (said, note, asked) if part)

    async def _memory_bank(self) -> MemoryBank:
        """The memory bank of this home's users (one SQLite file under .storage, one user per HA
        user id), so "remember that I like ..." survives restarts."""
        if self._bank is None:
            path = Path(self.hass.config.path(".storage", f"smh_memory.{self.entry.entry_id}.db"))

            def open_bank() -> MemoryBank:
                path.parent.mkdir(parents=True, exist_ok=True)
                return MemoryBank(path)

            self._bank = await self.hass.async_add_executor_job(open_bank)
        return self._bank

    async def async_will_remove_from_hass(self) -> None:
        self._schedules.close()
        if self._bank is not None:
            self._bank.close()
            self._bank = None

    async def _run_dr(
        self,
        llm_client: LLMClient,
        backend: AsyncHomeBackend,
        text: str,
        history: list[dict[str, str]],
        context: str,
        conversation_id: str,
    ) -> str:
        agent = DRAgent(
            llm_client, backend
        )  # the endpoint's accepted format is remembered per endpoint
        started = time.monotonic()
        result = await agent.run(text, history, context)
        trace = Trace(
            usage=result.usage,
            stop=result.output.mode if result.output else "unusable",
            protocol="dr",
            structured=result.structured,
        )
        if result.output is not None:
            trace.steps = [
                {"tool": "control_device", "arguments": a.model_dump(), "result": None}
                for a in result.output.actions
            ]
            if result.output.mode == "clarify":
                trace.questions.append(result.output.response)
        self._keep_trace(conversation_id, trace, time.monotonic() - started)
        if result.output is None:
            raise _BadReply(
                f"The model's reply was not a valid plan ({result.error_class}: {result.error})."
            )
        failed = [
            r["error"]
            for r in await agent.async_apply(result.output)
            if not r.get("ok") and r["error"].get("code") != "needs_confirmation"
        ]  # asked after the turn
        answer = result.output.response or ("Done." if result.output.actions else "")
        if failed:
            answer += f" (The home refused {len(failed)} of the actions: {failed[0].get('message', failed[0])})"
        return answer.strip() or "I have no answer to that."

    def _keep_trace(self, conversation_id: str, trace: Trace, seconds: float) -> None:
        """This turn's usage, tool calls and questions, for ``smh.agent_trace`` (the benchmark
        inside HA scores tokens, latency and tool traces the same way as on the simulator)."""
        traces = self.entry.runtime_data.agent_traces
        traces.setdefault(conversation_id, []).append(
            {
                "usage": trace.usage.to_dict(),
                "tool_calls": trace.tool_calls(),
                "questions": list(trace.questions),
                "stop": trace.stop,
                "seconds": round(seconds, 4),
                "protocol": {"tools": trace.protocol, "structured": trace.structured},
            }
        )
        traces.move_to_end(conversation_id)
        while len(traces) > TRACES_KEPT:
            traces.popitem(last=False)

    def _log_tool_calls(self, chat_log: conversation.ChatLog, trace: Trace) -> None:
        """Record the agent's tool calls, already executed, as external calls with their results."""
        for step in trace.steps:
            call = llm.ToolInput(
                tool_name=step["tool"], tool_args=dict(step["arguments"]), external=True
            )
            chat_log.async_add_assistant_content_without_tools(
                conversation.AssistantContent(agent_id=self.entity_id, tool_calls=[call])
            )
            result = step["result"]
            chat_log.async_add_assistant_content_without_tools(
                tool_result_content(
                    agent_id=self.entity_id,
                    tool_call_id=call.id,
                    tool_name=call.tool_name,
                    data=result if isinstance(result, dict) else {"result": result},
                )
            )


async def _run_confirmed(backend: AsyncHomeBackend, confirmed: list[Pending]) -> str:
    """The calls the user has just confirmed, run as they were asked for (their guard now lets
    exactly those through); the answer says what happened."""
    failed = []
    stored: set[int] = set()
    for item in confirmed:
        if item.held is not None:
            # a schedule or rule the user confirmed: store it (once), do not run its action now
            if id(item.held) in stored:
                continue
            stored.add(id(item.held))
            method, *args = item.held
            result = await getattr(backend, method)(*args)
        else:
            result = await backend.execute(item.did, item.locator, dict(item.arguments))
        if not (isinstance(result, dict) and result.get("ok")):
            failed.append(
                (result.get("error") or {}).get("message", "refused")
                if isinstance(result, dict)
                else "refused"
            )
    if failed:
        return f"I could not do it: {failed[0]}"
    return "Done."


def _history(contents: list[Any]) -> list[dict[str, str]]:
    """Earlier turns of the conversation as chat messages: user texts and spoken answers."""
    history = []
    for c in contents:
        if isinstance(c, conversation.UserContent):
            history.append({"role": "user", "content": c.content})
        elif isinstance(c, conversation.AssistantContent) and c.content and not c.tool_calls:
            history.append({"role": "assistant", "content": c.content})
    return history


def _eia_answer(trace: Trace, budget: int) -> str:
    if trace.answer:
        return trace.answer  # a reply, a finish call, or a clarification question
    if trace.stop == "budget":
        return f"I could not finish that within {budget} tool calls."
    if trace.stop == "repeating":
        return "I could not finish that: I kept making the same call with the same result."
    if trace.stop == "context_length":
        return "I could not finish that: the conversation grew longer than the model can read."
    raise _BadReply("The model gave no answer.")


def _error(
    user_input: conversation.ConversationInput, chat_log: conversation.ChatLog, message: str
) -> conversation.ConversationResult:
    response = intent.IntentResponse(language=user_input.language)
    response.async_set_error(intent.IntentResponseErrorCode.UNKNOWN, message)
    return conversation.ConversationResult(
        response=response, conversation_id=chat_log.conversation_id
    )
