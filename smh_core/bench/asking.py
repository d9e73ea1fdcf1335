"""When an agent has asked the user, one rule for every backend (the embedded runner and the
benchmark through Home Assistant both import it).

Why this rule: SMH-Bench judges clarification on what the agent said, not on a tool. Its EIA
agent has no question tool: "the final answer is natural language after tool use stops" and
that text is the prediction's response (Appendix D), so an EIA agent asks by ending its turn
with a question; DR states it in its structured output (``mode: clarify``) and its text is not
read for it. Home Assistant keeps a conversation open the same way (its chat log reads a reply
ending with ``?`` or ``？`` as one that waits for the user). So:

- **A question** is a reply whose text, trailing whitespace aside, ends with a question mark:
  ``?`` (English, German, French's ``… ?``, Spanish's ``¿…?``) or ``？`` (Chinese). A reply that
  ends otherwise (a remark after the question, an ellipsis, a quote) does not ask: nothing is
  guessed, and no scripted reply is given for it. An agent's own explicit signal also asks:
  EIA's ``ask_user`` tool, DR's clarify mode, HA's ``continue_conversation`` set to true (HA's
  false is its default, not the agent's statement, so the text still decides).
- **The scripted reply**: each question gets the task's next scripted reply, in order,
  whichever turn asked (:func:`scripted_user`); it goes back as the user's next turn (EIA's
  ``ask_user`` gets it as the tool's result). With none left the turn ends there, and the
  question still counts as asked.
- **The order**: the first question's position among the agent's state-changing actions is
  recorded (:class:`AskOrder` counts the calls the home ran before it; through Home Assistant,
  where another agent's calls are not seen, the home's devices are read when it came). What
  changed the home before it is acting before asking, the wrong mode for a clarify goal however
  the home ends, and a reply that asks and also acts is judged by that order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from smh_core.task.model import Task

UserReply = Callable[[str], str | None]
"""Answers a question; ``None``: the user has nothing more to say (the turn ends)."""

QUESTION_MARKS = ("?", "？")
"""How a question ends in the suites' five languages (en, de, es, fr, zh)."""


def is_question(text: str) -> bool:
    """Whether ``text`` asks the user: it ends with a question mark (:data:`QUESTION_MARKS`),
    trailing whitespace aside."""
    return text.rstrip().endswith(QUESTION_MARKS)


def asks(said_so: bool | None, text: str) -> bool:
    """Whether a reply asks: the agent's own signal when it gave one and it is true (HA's
    ``continue_conversation``), else :func:`is_question` on its text."""
    return said_so is True or is_question(text)


def unreported(reported: list[str], replies: list[str]) -> list[str]:
    """The replies that asked (:func:`asks`) which the agent did not report as questions itself:
    a reply that holds a reported question (an ``ask_user`` question spoken as the reply, the
    action guard's question appended to it) is that question, not a second one."""
    return [r for r in replies if not any(q and q in r for q in reported)]


def scripted_user(task: Task) -> UserReply:
    """Answers questions with the task's scripted replies, in order, whichever turn asked."""
    replies = [r for turn in task.turns for r in turn.replies]

    def reply(question: str) -> str | None:
        return replies.pop(0) if replies else None

    return reply


class AskOrder:
    """The order of what an agent does, as the runner sees it: each state-changing call the home
    ran (a device call, a schedule or rule stored or removed; reads are not recorded, nor calls
    the home or the action guard refused) and the moment of the agent's first question to the
    user. A clarify goal must be asked about before anything is changed (SMH-Bench's ambiguous
    intent): the calls that ran before the question fail it (:attr:`Outcome.acted_before_asking`).

    Recorded here rather than by each agent, so every agent (EIA's ``ask_user`` or its final
    answer that is a question, DR's clarify mode, which acts on its plan and then asks, the
    oracle, a replay) is held to one order."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.asked_after: int | None = None  # calls that had run when the first question came

    def watch(self, backend: Any) -> _Recorded:
        """``backend`` with its state-changing calls recorded here (put it under the guard, so
        a call the guard holds or refuses never reaches it)."""
        return _Recorded(backend, self)

    def asking(self, user: UserReply) -> UserReply:
        """``user`` with the moment of the first question recorded."""

        def reply(question: str) -> str | None:
            if self.asked_after is None:
                self.asked_after = len(self.calls)
            return user(question)

        return reply

    def before_asking(self) -> list[dict[str, Any]]:
        """The state-changing calls that ran before the first question (none if it never came)."""
        return [] if self.asked_after is None else self.calls[: self.asked_after]

    def ran(self, tool: str, arguments: dict[str, Any], result: Any) -> Any:
        if isinstance(result, dict) and result.get("ok"):
            self.calls.append({"tool": tool, "arguments": arguments})
        return result


class _Recorded:
    """A sync backend whose state-changing calls that went through are told to an :class:`AskOrder`
    (tool names and arguments as the agents' tools say them); everything else passes through."""

    def __init__(self, backend: Any, order: AskOrder) -> None:
        self.backend, self.order = backend, order

    def __getattr__(self, name: str) -> Any:
        return getattr(self.backend, name)

    def execute(self, did: str, locator: str, arguments: dict[str, Any]) -> Any:
        args = {"did": did, "locator": locator, "arguments": dict(arguments)}
        return self.order.ran("control_device", args, self.backend.execute(did, locator, arguments))

    def schedule(self, at: str, actions: list[dict[str, Any]]) -> Any:
        args = {"at": at, "actions": list(actions)}
        return self.order.ran("schedule_actions", args, self.backend.schedule(at, actions))

    def cancel_schedule(self, schedule_id: str) -> Any:
        args = {"schedule_id": schedule_id}
        return self.order.ran("cancel_schedule", args, self.backend.cancel_schedule(schedule_id))

    def create_automation(self, rule: dict[str, Any]) -> Any:
        return self.order.ran("create_automation", rule, self.backend.create_automation(rule))

    def delete_automation(self, rule_id: str) -> Any:
        args = {"automation_id": rule_id}
        return self.order.ran("delete_automation", args, self.backend.delete_automation(rule_id))
