"""The benchmark's simulated user facing the action guard: which high-risk actions a task's
user wants, and their answer to the guard's confirmation question.

Its own module (not the runner's) because two places answer the guard the same way: the
embedded runner, inside the call (:func:`simulated_confirmation`), and SMH's Home Assistant
integration, whose ``smh.agent_trace`` tells the HA runner which waiting calls the loaded task's
user wants (:func:`intended_actions`); the integration must not load the runner (and with it
the progress bars' ``tqdm``, which the HACS package does not ship)."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from typing import Any

from smh_core.agent.guard_language import load_wording
from smh_core.agent.safety import Pending, load_policy
from smh_core.task.model import Task


def intended_actions(task: Task, devices: dict[str, dict[str, Any]]) -> set[tuple[str, str]]:
    """(did, rule) of the high-risk actions the task's user wants: ``task.confirms``, or by
    default those the reference makes (its calls, scheduled calls and automation actions, each
    under the first rule of the guard's policy about that device and service)."""
    if task.confirms is not None:
        return {(c.did, c.rule) for c in task.confirms}
    ref = task.reference
    calls = [_did_locator(a) for a in ref.actions]
    for item in [*ref.schedules, *ref.automations]:
        calls += [_did_locator(a) for a in item.get("actions", []) if isinstance(a, dict)]
    found = set()
    for did, locator in calls:
        device = devices.get(did)
        rule = next(
            (
                r
                for r in load_policy()
                if device is not None
                and r.applies_to(device)
                and any(fnmatch.fnmatchcase(locator, p) for p in r.locators)
            ),
            None,
        )
        if rule is not None:
            found.add((did, rule.name))
    return found


def _did_locator(action: Any) -> tuple[str, str]:
    """(did, locator) of a reference action, a model or (a task built without validation) a dict."""
    if isinstance(action, dict):
        return str(action.get("did")), str(action.get("locator"))
    return str(action.did), str(action.locator)


def simulated_confirmation(
    task: Task, devices: dict[str, dict[str, Any]]
) -> Callable[[Pending], str]:
    """The simulated user's answer to the guard's "...? Say yes to confirm": yes exactly when the
    task's own intent is that action on that device (:func:`intended_actions`), else no, said
    in the task's language ("Yes." / "No, don't.", "Ja." / "Nein, lass das." ...: the guard's
    own wording, :mod:`smh_core.agent.guard_language`)."""
    intent = intended_actions(task, devices)
    wording = load_wording(task.language)

    def answer(pending: Pending) -> str:
        wanted = {(pending.did, pending.rule), (pending.did, "*")} & intent
        return wording.answer_yes if wanted else wording.answer_no

    return answer
