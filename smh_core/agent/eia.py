"""Environment-Interactive Agent (SMH-Bench Appendix D): a ReAct tool loop under partial
observability.

The model starts with the room list and a device index and must discover states and service
schemas through tools. Every tool error goes back to the model verbatim (invalid field and
allowed values), malformed tool calls are repaired or reported back and classified, and the
loop stops cleanly on a final reply, a ``finish`` call, an unanswered clarification, or when
the tool-call budget (10 by default, as in the paper) is spent. One more stop, beyond the paper:
a model that makes the same call and reads the same result three times in a row is stuck (the
home cannot answer differently to the same read, and the same write changes nothing again), so
the turn ends there (``repeating``) instead of spending the rest of the budget on it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from smh_core.homeenv.dynamics import ROOM_VARIABLES
from smh_core.llm.client import LLMClient, Usage
from smh_core.llm.errors import InfraError
from smh_core.llm.prompts import load_prompt, quoted
from smh_core.llm.tool_protocol import (
    call_schemas,
    parse_prompted,
    prompted_instructions,
    result_message,
)

from .backend import NO_ROOM, AsyncHomeBackend, HomeBackend, as_async
from .guard_language import question_endings
from .memory_tools import (
    MEMORY_TOOLS,
    UserMemory,
    dispatch_memory,
    memory_tool_schemas,
    preference_prompt,
)
from .tools import AskUserArgs, FinishArgs, dispatch_async, tool_schemas, validate_args

UserReply = Callable[[str], str | None]
"""Answers a clarification question; ``None`` means the user is not available (the turn ends)."""


@dataclass
class Trace:
    """Everything a verifier and a report need from one agent turn."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    answer: str = ""
    questions: list[str] = field(default_factory=list)
    stop: str = ""  # answered | finished | clarification_pending | confirmation_pending | budget | repeating | no_progress | model_call_cap | context_length
    usage: Usage = field(default_factory=Usage)
    repairs: Counter[str] = field(default_factory=Counter)
    problems: list[dict[str, Any]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    protocol: str = ""  # native | prompted: how tool calls travelled
    structured: str | None = None  # prompted: the response format the endpoint accepted

    def tool_calls(self) -> list[dict[str, Any]]:
        return [{"tool": s["tool"], "arguments": s["arguments"]} for s in self.steps]

    def to_dict(self) -> dict[str, Any]:
        return {
            "steps": self.steps,
            "answer": self.answer,
            "questions": self.questions,
            "stop": self.stop,
            "usage": self.usage.to_dict(),
            "repairs": dict(self.repairs),
            "problems": self.problems,
            "protocol": self.protocol,
            "structured": self.structured,
        }


type Listing = tuple[list[dict[str, Any]], list[dict[str, Any]]]
"""A home's rooms and devices, as ``list_rooms`` and ``list_devices`` return them."""


async def _listing(backend: AsyncHomeBackend) -> Listing:
    return await backend.list_rooms(), await backend.list_devices()


async def initial_context(
    backend: AsyncHomeBackend, context: str = "", tools: str = "", listing: Listing | None = None
) -> str:
    """The system prompt: instructions, the prompted tool protocol when used, the home index,
    then what changes per request (time, context) last, so a server that caches the longest
    common prompt prefix reuses the home's part across the tasks of one home. ``listing``: the
    home's rooms and devices when the caller has read them already."""
    listed_rooms, listed_devices = listing or await _listing(backend)
    now = await backend.now()
    rooms = "\n".join(
        f"- {r['id']}: {quoted(r['name'])} ({r['type']}, floor {r['floor']}"
        + (f", inside {r['parent']})" if r.get("parent") else ")")
        for r in listed_rooms
    )
    devices = "\n".join(
        f"- {d['did']} | {quoted(d['name'])} | {d['category']} | {d['room'] or NO_ROOM}"
        for d in listed_devices
    )
    return load_prompt("eia_system").substitute(
        now=now,
        rooms=rooms,
        devices=devices,
        tools=tools,
        context=context + "\n" if context else "",
    )


def fit_result(output: Any, max_chars: int) -> Any:
    """A tool result that fits ``max_chars`` of JSON: a long list keeps its first items and says
    how many were left out (and how to ask for fewer); anything else long is cut with a note.
    The trace keeps the whole result; only what the model reads is shortened, so a small
    context is not overrun by one listing."""
    text = json.dumps(output, ensure_ascii=False, default=str)
    if len(text) <= max_chars:
        return output
    if isinstance(output, list):
        kept: list[Any] = []
        size = 2
        for item in output:
            size += len(json.dumps(item, ensure_ascii=False, default=str)) + 2
            if size > max_chars - 200:
                break
            kept.append(item)
        return {
            "items": kept,
            "truncated": len(output) - len(kept),
            "note": f"{len(output) - len(kept)} more not shown: narrow the call (room, category, one device)",
        }
    return {
        "truncated_json": text[: max(0, max_chars - 120)],
        "note": f"cut at {max_chars} of {len(text)} characters",
    }


def _append_results(
    messages: list[dict[str, Any]],
    protocol: str,
    replies: list[tuple[str, str, Any]],
    max_chars: int,
) -> None:
    """One round's tool results for the model: ``tool`` messages natively, else one user
    message labelled as data (:func:`~smh_core.llm.tool_protocol.result_message`)."""
    fitted = [(cid, name, fit_result(out, max_chars)) for cid, name, out in replies]
    if protocol == "native":
        messages.extend(
            {
                "role": "tool",
                "tool_call_id": cid,
                "content": json.dumps(out, ensure_ascii=False, default=str),
            }
            for cid, _name, out in fitted
        )
    elif fitted:
        messages.append(result_message([(name, out) for _cid, name, out in fitted]))


def _ids(items: Any) -> list[str]:
    """The ``id`` of each stored rule or schedule a listing returned."""
    if not isinstance(items, list):
        return []
    return [str(i["id"]) for i in items if isinstance(i, dict) and isinstance(i.get("id"), str)]


CREATED = {
    "create_automation": ("automation", "automation_id"),
    "schedule_actions": ("schedule", "schedule_id"),
}
"""Tools whose result holds a new id a later call of the turn may name: (result key, argument)."""


def created_id(tool: str, output: Any) -> tuple[str, str] | None:
    """(argument name, new id) when ``output`` is a successful create of a rule or schedule."""
    if tool not in CREATED or not isinstance(output, dict) or output.get("ok") is False:
        return None
    key, argument = CREATED[tool]
    made = output.get(key)
    if isinstance(made, dict) and isinstance(made.get("id"), str):
        return argument, made["id"]
    return None


def call_signature(tool: str, arguments: Any, result: Any) -> str:
    """One call and what it returned, as one comparable string (key order ignored)."""
    return json.dumps([tool, arguments, result], sort_keys=True, ensure_ascii=False, default=str)


def repeating(signatures: list[str], limit: int) -> bool:
    """True when the last ``limit`` calls are one call with one result (``limit`` 0: never)."""
    return limit > 0 and len(signatures) >= limit and len(set(signatures[-limit:])) == 1


def confirmation_prompt(output: Any) -> str | None:
    """The action guard's question when a call waits for the user's confirmation, else None."""
    if isinstance(output, dict) and output.get("ok") is False:
        error = output.get("error") or {}
        if error.get("code") == "needs_confirmation":
            prompt = error.get("prompt")
            if isinstance(prompt, str):
                return prompt
    return None


class EIAAgent:
    """The tool loop. Tool calls travel natively or, for endpoints that ignore ``tools``, in the
    prompted protocol (:mod:`smh_core.llm.tool_protocol`); ``llm.tool_protocol()`` decides.

    Two bounds keep a turn finite whatever the model does: ``budget`` counts every tool call,
    including unknown and malformed ones (an always-wrong model cannot loop for free), and
    ``max_model_calls`` caps the requests of one turn (empty replies and nudges included).
    ``repeat_limit`` ends a turn sooner, when that many calls in a row are one call with one
    result (malformed ones too); 0 keeps the paper's budget as the only bound."""

    def __init__(
        self,
        llm: LLMClient,
        backend: HomeBackend | AsyncHomeBackend,
        budget: int = 10,
        max_empty_turns: int = 2,
        memory: UserMemory | None = None,
        max_model_calls: int | None = None,
        repeat_limit: int = 3,
    ) -> None:
        self.llm = llm
        self.repeat_limit = repeat_limit
        self.backend = as_async(backend)  # a sync home joins here; every call below is awaited
        self.budget = budget
        self.max_empty_turns = max_empty_turns
        self.max_model_calls = max_model_calls or 2 * budget + max_empty_turns
        self.memory = memory
        self.tools = tool_schemas() + (memory_tool_schemas() if memory is not None else [])

    async def run(
        self,
        user_text: str,
        history: list[dict[str, str]] | None = None,
        context: str = "",
        user: UserReply | None = None,
    ) -> Trace:
        """One turn. A high-risk call the action guard holds for the user's yes (no one could
        answer it within the turn) does not end the loop; the turn's answer then ends with the
        guard's question (stop ``confirmation_pending``), which the user's next turn answers."""
        trace = await self._turn(user_text, history, context, user)
        asked = [q for q in trace.questions if q.endswith(question_endings())]
        if asked:
            trace.answer = " ".join(
                [trace.answer, *(q for q in asked if q not in trace.answer)]
            ).strip()
            if trace.stop != "clarification_pending":
                trace.stop = "confirmation_pending"
        return trace

    async def _choices(self, listing: Listing) -> dict[str, list[str]]:
        """The home's device ids, room ids, categories, tags, stored rule and schedule ids and
        locators (every device's services and attributes, and a room climate's variables), for
        a server that constrains decoding to them."""
        rooms = [str(r["id"]) for r in listing[0]]
        devices = [str(d["did"]) for d in listing[1]]
        categories = sorted({str(d["category"]) for d in listing[1] if d.get("category")})
        tags = sorted({str(t) for d in listing[1] for t in d.get("tags") or ()})
        locators = {*ROOM_VARIABLES, "air_quality"}  # the climate's class is readable too
        for did in devices:
            spec = await self.backend.device_spec(did)
            if isinstance(spec, dict) and spec.get("ok", True):
                for part in ("services", "attributes"):
                    if isinstance(spec.get(part), dict):
                        locators.update(str(name) for name in spec[part])
        return {
            "did": devices + [f"@{r}" for r in rooms],
            "room": rooms,
            "locator": sorted(locators),
            "category": categories,
            "tags": tags,
            "automation_id": _ids(await self.backend.list_automations()),
            "schedule_id": _ids(await self.backend.list_schedules()),
        }

    async def _turn(
        self,
        user_text: str,
        history: list[dict[str, str]] | None,
        context: str,
        user: UserReply | None,
    ) -> Trace:
        trace = Trace()
        if self.memory is not None:
            self.memory.request = user_text  # the write rules judge what the user actually said
        if self.memory is not None:
            context = "\n".join(
                x for x in (context, load_prompt("eia_memory").template.strip()) if x
            )
        protocol = await self.llm.tool_protocol()
        trace.protocol = protocol
        listing = await _listing(self.backend)
        system = await initial_context(
            self.backend,
            context,
            prompted_instructions(self.tools) if protocol == "prompted" else "",
            listing,
        )
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
        messages += list(history or [])
        messages.append({"role": "user", "content": user_text})
        trace.messages = messages
        names = {t["function"]["name"] for t in self.tools}
        choices = await self._choices(listing) if protocol == "prompted" else {}
        schemas = call_schemas(self.tools, choices) if protocol == "prompted" else []
        used = 0
        empty = 0
        model_calls = 0
        signatures: list[str] = []  # every call of the turn with its result, for ``repeating``
        while True:
            if model_calls >= self.max_model_calls:
                trace.stop = "model_call_cap"
                return trace
            model_calls += 1
            try:
                if protocol == "native":
                    result = await self.llm.chat(messages, tools=self.tools)
                    parsed = result.parsed
                else:
                    result = await self.llm.chat_json(messages, schemas, "tool_call")
                    trace.structured = result.structured
                    parsed = parse_prompted(
                        result.message.get("content") or "", names, f"call_{model_calls}"
                    )
                    result.repairs += parsed.repairs
            except InfraError as e:
                if e.kind != "context_length":
                    raise
                # the conversation outgrew the model's window: the turn ends here, and what the
                # model already did (its calls, their tokens) stays in the trace
                trace.stop = "context_length"
                return trace
            trace.usage.add(result.usage)
            trace.repairs.update(result.repairs)
            content = result.message.get("content") or ""
            if not parsed.calls and not parsed.problems:
                if content.strip():
                    trace.answer = content.strip()
                    trace.stop = "answered"
                    messages.append({"role": "assistant", "content": content})
                    return trace
                empty += 1
                if empty >= self.max_empty_turns:
                    trace.stop = "no_progress"
                    return trace
                messages.append(
                    {"role": "user", "content": "Please continue: use a tool or reply."}
                )
                continue
            content = content[
                : self.llm.config.max_tool_result_chars
            ]  # echoed: a runaway reply is cut
            if protocol == "native":
                # Echo the (repaired) calls so every tool result has a matching call id.
                echoed = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                    }
                    for c in parsed.calls
                ]
                echoed += [
                    {
                        "id": p.id,
                        "type": "function",
                        "function": {"name": p.name or "invalid", "arguments": p.raw},
                    }
                    for p in parsed.problems
                ]
                messages.append(
                    {"role": "assistant", "content": content or None, "tool_calls": echoed}
                )
            else:
                messages.append({"role": "assistant", "content": content})
            replies: list[tuple[str, str, Any]] = []  # (call id, tool, output) in order

            for p in parsed.problems:
                used += 1  # a call the model got wrong still spends the budget
                trace.problems.append({"kind": p.kind, "tool": p.name, "message": p.message})
                error = {"ok": False, "error": {"code": p.kind, "message": p.message}}
                replies.append((p.id, p.name or "invalid", error))
                signatures.append(call_signature(p.name or "invalid", p.raw, error))
            for call in parsed.calls:
                if repeating(signatures, self.repeat_limit):
                    break
                if used >= self.budget:
                    trace.stop = "budget"
                    return trace
                used += 1
                if call.name == "finish":
                    args = validate_args("finish", call.arguments)
                    if isinstance(args, FinishArgs):
                        trace.steps.append(
                            {"tool": "finish", "arguments": call.arguments, "result": None}
                        )
                        trace.answer = args.answer
                        trace.stop = "finished"
                        return trace
                    output: Any = args
                elif call.name == "ask_user":
                    args = validate_args("ask_user", call.arguments)
                    if not isinstance(args, AskUserArgs):
                        output = args
                    else:
                        question = args.question
                        trace.questions.append(question)
                        reply = user(question) if user is not None else None
                        if reply is None:
                            trace.steps.append(
                                {"tool": "ask_user", "arguments": call.arguments, "result": None}
                            )
                            trace.answer = question
                            trace.stop = "clarification_pending"
                            return trace
                        output = {"reply": reply}
                elif call.name in MEMORY_TOOLS and self.memory is not None:
                    output = dispatch_memory(self.memory, call.name, call.arguments)
                    if (
                        call.name == "get_user_preferences"
                        and self.memory.answer_preferences
                        and output.get("ok")
                    ):
                        asked = await self.llm.chat(
                            [
                                {
                                    "role": "user",
                                    "content": preference_prompt(
                                        str(call.arguments.get("question", "")), output
                                    ),
                                }
                            ]
                        )
                        trace.usage.add(asked.usage)
                        output["answer"] = (asked.message.get("content") or "").strip()
                else:
                    output = await dispatch_async(self.backend, call.name, call.arguments)
                if isinstance(output, dict) and output.get("ok") is False:
                    trace.problems.append(
                        {
                            "kind": output["error"]["code"],
                            "tool": call.name,
                            "message": output["error"]["message"],
                        }
                    )
                trace.steps.append(
                    {"tool": call.name, "arguments": call.arguments, "result": output}
                )
                replies.append((call.id, call.name, output))
                signatures.append(call_signature(call.name, call.arguments, output))
                if protocol == "prompted" and (made := created_id(call.name, output)):
                    choices[made[0]] = [*choices[made[0]], made[1]]  # nameable from now on
                    schemas = call_schemas(self.tools, choices)
                prompt = confirmation_prompt(output)
                if prompt is not None and prompt not in trace.questions:
                    trace.questions.append(prompt)
            _append_results(messages, protocol, replies, self.llm.config.max_tool_result_chars)
            if repeating(signatures, self.repeat_limit):
                trace.stop = "repeating"
                return trace
            if used >= self.budget:
                trace.stop = "budget"
                return trace
