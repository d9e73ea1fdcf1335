"""Memory tools of the EIA agent: remember, recall, update, forget, and preference questions.

They act on one user's :class:`~smh_core.memory.store.MemoryBank` (and, when present, the
user's :class:`~smh_core.memory.profile.ProfileStore`), never on the home, so they are kept
apart from the home tools and offered only when the agent is given a :class:`UserMemory`.

The MemHome rules hold at the tool boundary, not only in the prompt: every write (``remember``
and ``update_memory`` alike) is refused, and the rule goes back to the model, unless the
user's request explicitly asks to remember, the content is about devices, and neither holds a
secret, a personal identifier or a temporary request
(:func:`~smh_core.memory.decision.check_write`). A refusal names the rule and the kinds of
data found, never the data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field, ValidationError

from smh_core.llm.prompts import load_prompt
from smh_core.memory.decision import check_write
from smh_core.memory.profile import ProfileStore
from smh_core.memory.store import MemoryBank

from .tools import Tool, _Args


@dataclass
class UserMemory:
    """What the memory tools act on: the bank, whose memories, and the request being served
    (the write rules depend on what the user actually said)."""

    bank: MemoryBank
    user: str = "default"
    profile: ProfileStore | None = None
    request: str = ""
    answer_preferences: bool = False
    """SAGE's personalization tool answers the question itself (a model call over the memories
    and the profile); off, the tool returns that evidence for the agent to read."""


class RememberArgs(_Args):
    content: str = Field(
        description="The device-related preference or fact to store, in one sentence."
    )


class RecallArgs(_Args):
    query: str = Field(
        description="What to look for, e.g. 'movie night lights' or 'bedroom temperature'."
    )
    k: int = Field(default=5, ge=1, le=20, description="How many memories to return.")


class UpdateMemoryArgs(_Args):
    memory_id: int = Field(description="The id of the memory to replace (from recall_memory).")
    content: str = Field(description="The new content.")


class ForgetArgs(_Args):
    memory_id: int = Field(description="The id of the memory to delete (from recall_memory).")


class PreferenceArgs(_Args):
    question: str = Field(description="A question about the user's habits or preferences.")


def _error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message, **extra}}


def _refusal(m: UserMemory, content: str) -> dict[str, Any] | None:
    """The tool error for a write the MemHome rules forbid, or ``None``. Shared by every tool
    that writes, so that replacing a memory is held to the same rules as adding one."""
    veto = check_write(m.request, content)
    if veto is None:
        return None
    return _error(
        "memory_refused",
        f"not stored: {veto} (store only device preferences the user "
        "explicitly asks you to remember; never secrets, identifiers or one-off requests)",
        rule=veto.rule,
    )


def _remember(m: UserMemory, a: RememberArgs) -> dict[str, Any]:
    refused = _refusal(m, a.content)
    if refused is not None:
        return refused
    existing = m.bank.find(m.user, a.content)
    if existing is not None and existing.content.casefold() == a.content.strip().casefold():
        return {
            "ok": True,
            "memory": {"id": existing.id, "content": existing.content},
            "note": "already stored",
        }
    mem = m.bank.add(m.user, a.content)
    return {"ok": True, "memory": {"id": mem.id, "content": mem.content}}


def _recall(m: UserMemory, a: RecallArgs) -> dict[str, Any]:
    hits = m.bank.retrieve(m.user, a.query, k=a.k)
    return {
        "ok": True,
        "memories": [
            {"id": mem.id, "content": mem.content, "score": round(score, 3)} for mem, score in hits
        ],
    }


def _known_ids(m: UserMemory) -> list[int]:
    return [mem.id for mem in m.bank.all(m.user)]


def _update(m: UserMemory, a: UpdateMemoryArgs) -> dict[str, Any]:
    refused = _refusal(m, a.content)
    if refused is not None:
        return refused
    try:
        mem = m.bank.update(m.user, a.memory_id, a.content)
    except KeyError:
        return _error("unknown_memory", f"no memory {a.memory_id}", allowed=_known_ids(m))
    return {"ok": True, "memory": {"id": mem.id, "content": mem.content}}


def _forget(m: UserMemory, a: ForgetArgs) -> dict[str, Any]:
    try:
        gone = m.bank.get(m.user, a.memory_id)
        m.bank.delete(m.user, a.memory_id)
    except KeyError:
        return _error("unknown_memory", f"no memory {a.memory_id}", allowed=_known_ids(m))
    return {"ok": True, "deleted": {"id": gone.id, "content": gone.content}}


def _preferences(m: UserMemory, a: PreferenceArgs) -> dict[str, Any]:
    """Evidence for a preference question: matching memories plus the profile summaries (SAGE
    answers from both); the model reads them and answers, so nothing here guesses."""
    out: dict[str, Any] = {
        "ok": True,
        "memories": [
            {"id": mem.id, "content": mem.content}
            for mem, _ in m.bank.retrieve(m.user, a.question, k=5)
        ],
    }
    if m.profile is not None:
        out["profile"] = m.profile.summary(m.user)
        out["recent_days"] = [{"day": d, "summary": s} for d, s in m.profile.daily(m.user, last=7)]
    return out


MEMORY_TOOLS: dict[str, Tool[UserMemory]] = {
    t.name: t
    for t in [
        Tool(
            "remember",
            "Store a device preference the user explicitly asked you to remember.",
            RememberArgs,
            _remember,
        ),
        Tool(
            "recall_memory",
            "Search the user's stored preferences (ids, content, relevance).",
            RecallArgs,
            _recall,
        ),
        Tool(
            "update_memory",
            "Replace a stored preference the user changed.",
            UpdateMemoryArgs,
            _update,
        ),
        Tool(
            "forget_memory",
            "Delete a stored preference the user asked you to forget.",
            ForgetArgs,
            _forget,
        ),
        Tool(
            "get_user_preferences",
            "Evidence about the user's habits: matching memories and profile summaries.",
            PreferenceArgs,
            _preferences,
        ),
    ]
}


def preference_prompt(question: str, evidence: dict[str, Any]) -> str:
    memories = "\n".join(f"- {m['content']}" for m in evidence.get("memories", [])) or "(none)"
    days = "\n".join(f"- {d['day']}: {d['summary']}" for d in evidence.get("recent_days", []))
    profile = "\n".join(x for x in (evidence.get("profile", ""), days) if x) or "(none)"
    return load_prompt("preference_answer").substitute(
        question=question, memories=memories, profile=profile
    )


def memory_tool_schemas() -> list[dict[str, Any]]:
    return [t.schema() for t in MEMORY_TOOLS.values()]


def dispatch_memory(memory: UserMemory, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Run a memory tool; bad arguments come back as an error payload naming the field."""
    tool = MEMORY_TOOLS[name]
    try:
        parsed = tool.args.model_validate(arguments)
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(arguments)"
        return _error(
            "invalid_tool_arguments",
            f"{name}: {field}: {first['msg']}",
            tool=name,
            field=field,
            allowed=sorted(tool.args.model_fields),
        )
    assert tool.run is not None, "every memory tool runs itself (only ask_user and finish do not)"
    result: dict[str, Any] = tool.run(memory, parsed)
    return result
